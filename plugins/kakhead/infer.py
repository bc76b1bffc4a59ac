"""Kakhead's reading of the public history, for the search bot's determinizations.

Much of what a Kakhead player holds was seen going into his hand: the pile he took (KH-7, the
cards were face up on the pile) and the face-up cards he swapped into his hand before play
(KH-3). Until he plays them they are still there, so a determinization that deals his hand
afresh from every unseen card plays a game that cannot be the real one: the search would
think the 10 he picked up might be anywhere. This module keeps, per other seat, the cards
known to be in his hand (those he took or swapped in, less those he played from his hand) and
deals every hidden zone with those cards in place (``core.infer.deal``): the rest of his hand,
his blind cards, the deck and the seat's own blind cards are dealt from what is left.

It reads only the events as the deciding seat saw them (a blind card that did not fit went
into the hand unseen: a private event) and the hands' sizes.

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core.hookspecs import hookimpl
from cardparty.core.infer import deal, event_seat
from cardparty.core.kit import redeal


def known_cards(state: Any, seat: int, events: list[dict[str, Any]]) -> list[list[str]]:
    """Per seat, the cards ``seat`` saw go into that seat's hand and not come out again (its
    own hand: nothing, it sees it). Empty for a seat whose known cards outnumber its hand (a
    history this reading does not follow: no knowledge rather than wrong knowledge)."""
    known: list[list[str]] = [[] for _ in range(state.n)]
    for e in events:
        who, kind = event_seat(e), e.get("type")
        if who == seat or who < 0:
            continue
        cards: list[str] = e.get("cards") or []
        if kind == "swap":                            # KH-3: [hand card, face-up card]
            h, f = cards
            if h in known[who]:
                known[who].remove(h)
            known[who].append(f)
        elif kind == "take":                          # KH-7: the pile, face up
            known[who].extend(cards)
        elif kind == "play" and e.get("source") == "hand":
            for c in cards:
                if c in known[who]:
                    known[who].remove(c)
    return [k if len(k) <= len(state.hands[s]) else [] for s, k in enumerate(known)]


@hookimpl
def cardparty_bot_sampler(state: Any, seat: int, events: list[dict[str, Any]]
                          ) -> Callable[[random.Random], Any] | None:
    """Determinizations for ``seat`` that keep the cards it saw go into the other hands
    (None: it saw none, the plain ``cardparty_determinize`` does as well)."""
    known = known_cards(state, seat, events)
    if not any(known):
        return None

    def sample(rng: random.Random) -> Any:
        twin = state.copy()
        zones, musts = _hidden(twin, seat, known)
        if not deal(rng, zones, [set() for _ in zones], [[] for _ in zones], musts):
            redeal(rng, zones)
        return twin

    return sample


def _hidden(twin: Any, seat: int, known: list[list[str]]
            ) -> tuple[list[list[str]], list[list[str]]]:
    """The zones ``seat`` cannot see, as ``cardparty_determinize`` redeals them (the deck,
    every blind card, the other hands), and the cards known to be in each."""
    zones: list[list[str]] = [twin.stock]
    musts: list[list[str]] = [[]]
    for s in range(twin.n):
        zones.append(twin.blind[s])
        musts.append([])
        if s != seat:
            zones.append(twin.hands[s])
            musts.append(known[s])
    return zones, musts
