"""Kakhead's reading of the public history, for the search bot's determinizations.

Much of what a Kakhead player holds was seen going into his hand: the pile he took (KH-7, the
cards were face up on the pile) and the face-up cards he swapped in before play (KH-3). Until
he plays them they are still there, so a determinization that deals his hand afresh from every
unseen card plays a game that cannot be the real one: the search would think the 10 he picked
up might be anywhere. The rest of his hand is unseen, but not unknown:

- KH-7: a player with a valid play may not take the pile, so one who took it from his hand
  held no card that fitted (certain: those cards, of the ones he holds then, are excluded);
- a careful player (the normal policy, ``rules.cardparty_bot_move``) plays the cheapest rank
  that fits and two of it rather than one: one who played a single card of a rank holds no
  other of it, and held no cheaper rank that fitted (weighed, ``CHOICE_WEIGHT``).

This module keeps, per other seat, the cards known to be in his hand and the facts about the
unseen rest (``core.infer.Knowledge``), and deals every hidden zone with the known cards in
place and the rest as the facts allow (``core.infer.deal``): his blind cards, the deck and the
seat's own blind cards are dealt from what is left.

It reads only the events as the deciding seat saw them (a blind card that did not fit went
into the hand unseen: a private event) and the hands' sizes.

Must not know about: the rules module's internals (the fit of a rank on the card in force is
``ranks``'), sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core.cards import canasta_deck
from cardparty.core.hookspecs import hookimpl
from cardparty.core.infer import Knowledge, deal, event_seat, event_size
from cardparty.core.kit import redeal
from cardparty.plugins.kakhead.ranks import FITS, in_force

#: KH-3: the cards each hand is dealt.
HAND = 3
CODES = tuple(sorted(set(canasta_deck())))
#: The chance that a player's play was the normal policy's choice (the cheapest rank that fits,
#: two of it rather than one): the cards a cheaper or larger play needed are then not his.
CHOICE_WEIGHT = 0.9
#: How much the normal policy wants to keep a rank for later (``rules._keep_value``).
KEEP = {"T": 20, "2": 19, "3": 18, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "J": 11,
        "Q": 12, "K": 13, "A": 14, "X": 15}


class Reading:
    """What one seat knows of every hand: the cards seen going in, facts about the rest."""

    def __init__(self, n: int) -> None:
        self.known: list[list[str]] = [[] for _ in range(n)]
        self.know = Knowledge([HAND] * n)

    def gone(self, who: int, card: str) -> None:
        """``card`` left ``who``'s hand: a known card if it was one, else an unseen one."""
        if card in self.known[who]:
            self.known[who].remove(card)
        else:
            self.know.lose(who, card)

    def size(self, who: int) -> int:
        return len(self.known[who]) + len(self.know.slots[who])


def fitting(force: str | None) -> frozenset[str]:
    """KH-5, KH-9: every card that may be played on the card in force."""
    fits = FITS[force]
    return frozenset(c for c in CODES if fits[c[0]])


def read(state: Any, seat: int, events: list[dict[str, Any]]) -> Reading:
    """``seat``'s reading of every other hand from the events as it saw them."""
    reading = Reading(state.n)
    know = reading.know
    pile: list[str] = []
    blind_taken = -1
    for e in events:
        who, kind = event_seat(e), e.get("type")
        cards: list[str] = e.get("cards") or []
        other = 0 <= who != seat
        if kind == "swap":                            # KH-3: [hand card, face-up card]
            reading.gone(who, cards[0])
            reading.known[who].append(cards[1])
        elif kind == "play":
            force = in_force(pile)
            if e.get("source") == "hand":
                for c in cards:
                    reading.gone(who, c)
                if other and len(cards) == 1:
                    rank = cards[0][0]
                    cheaper = {c for c in fitting(force) if KEEP[c[0]] < KEEP[rank]}
                    know.learn(who, frozenset(cheaper | {c for c in CODES if c[0] == rank}),
                               CHOICE_WEIGHT)
            pile.extend(cards)
        elif kind == "turn":                          # KH-8: a blind card
            if e.get("fits"):
                pile.extend(cards)
            else:
                know.gain(who, 1)                     # unseen: it joins his hand
                blind_taken = who
        elif kind == "take":                          # KH-7
            if other and blind_taken != who and reading.size(who) > 0:
                know.learn(who, fitting(in_force(pile)))
            reading.known[who].extend(cards)
            pile.clear()
            blind_taken = -1
        elif kind == "burn":
            pile.clear()
        elif kind == "draw":
            know.gain(who, event_size(e))
    return reading


@hookimpl
def cardparty_bot_sampler(state: Any, seat: int, events: list[dict[str, Any]]
                          ) -> Callable[[random.Random], Any] | None:
    """Determinizations for ``seat`` that keep the cards it saw go into the other hands and
    deal the rest as the history allows (None: it saw nothing, the plain
    ``cardparty_determinize`` does as well)."""
    reading = read(state, seat, events)
    others = [s for s in range(state.n) if s != seat]
    sizes_agree = all(reading.size(s) == len(state.hands[s]) for s in others)
    known = [reading.known[s] if sizes_agree and
             len(reading.known[s]) <= len(state.hands[s]) else [] for s in range(state.n)]
    facts = sizes_agree and reading.know.constrained()
    if not any(known) and not facts:
        return None

    def sample(rng: random.Random) -> Any:
        twin = state.copy()
        excluded = reading.know.draw_excluded(others, rng) if facts else [[] for _ in others]
        zones, musts, wants = _hidden(twin, seat, known, dict(zip(others, excluded,
                                                                  strict=True)))
        if not deal(rng, zones, [set() for _ in zones], wants, musts):
            redeal(rng, zones)
        return twin

    return sample


def known_cards(state: Any, seat: int, events: list[dict[str, Any]]) -> list[list[str]]:
    """Per seat, the cards ``seat`` saw go into that seat's hand and not come out again (its
    own hand: nothing, it sees it)."""
    reading = read(state, seat, events)
    return [[] if s == seat else k for s, k in enumerate(reading.known)]


def _hidden(twin: Any, seat: int, known: list[list[str]],
            excluded: dict[int, list[frozenset[str]]]
            ) -> tuple[list[list[str]], list[list[str]], list[list[frozenset[str]]]]:
    """The zones ``seat`` cannot see, as ``cardparty_determinize`` redeals them (the deck,
    every blind card, the other hands), the cards known to be in each and its slots' facts."""
    zones: list[list[str]] = [twin.stock]
    musts: list[list[str]] = [[]]
    wants: list[list[frozenset[str]]] = [[]]
    for s in range(twin.n):
        zones.append(twin.blind[s])
        musts.append([])
        wants.append([])
        if s != seat:
            zones.append(twin.hands[s])
            musts.append(known[s])
            wants.append(excluded[s])
    return zones, musts, wants
