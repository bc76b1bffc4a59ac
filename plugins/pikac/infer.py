"""Pikáč's reading of the public history, for the search bot's determinizations.

Nothing a Pikáč player does tells his hand for certain: he may draw when he does not want to
play (PK-9), take a count he could pass on (PK-11) and stand when he could counter with Aces
(PK-20). But a player who wants to win rarely does so with the cards that would have served,
so each is a weighted fact (``core.infer``): a player who took a count probably held no
function card that passes it (PK-11, PK-16: no K♥ or J♠ after a K♦), one who stood no Ace
(PK-20), one who drew no card that would have gone on the pile (PK-10: a Queen or a Joker,
a normal card or an Ace of the suit in force or the top card's rank). The drawn cards are
dealt without them. The search deals the other hands so that they respect these facts in
proportion to their weights; the seat's own hand, the pile and the counts stay as they are.

It reads only the events as the deciding seat saw them (other seats' cards are counts) and
the public parts of the state (the hands' sizes, the shown bottom card).

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from cardparty.core.hookspecs import hookimpl
from cardparty.core.infer import Knowledge, event_seat, event_size, sampler
from cardparty.plugins.pikac.deck import (
    ACE,
    CLASS,
    CODES,
    FUNCTION,
    NORMAL,
    QUEEN,
    RANK_OF,
    SUIT_OF,
)

#: The chance that a player who took a count held nothing that passes it.
TAKE_WEIGHT = 0.9
#: The chance that a player who stood held no Ace to counter with.
STAND_WEIGHT = 0.9
#: The chance that a player who drew held no card that would have gone on the pile (a careful
#: player draws with a big hand rather than throw a defender idly: those are not counted).
DRAW_WEIGHT = 0.8

ACES = frozenset(c for c in CODES if CLASS[c] == ACE)


@cache
def passing(kd_bar: bool) -> frozenset[str]:
    """PK-11, PK-16: the function cards that continue a chain (no K♥, J♠ after a K♦)."""
    return frozenset(c for c in CODES if CLASS[c] == FUNCTION
                     and not (kd_bar and c in ("KH", "JS")))


@cache
def fitting(top: str, suit: str) -> frozenset[str]:
    """PK-10: Queens and Jokers, and the normal cards and Aces of the suit in force or the
    top card's rank (every one of them when the suit is free): the cards a player who drew
    would most likely have thrown instead."""
    rank = RANK_OF[top]
    return frozenset(c for c in CODES
                     if CLASS[c] == QUEEN or c == "X"
                     or (CLASS[c] in (NORMAL, ACE)
                         and (not suit or SUIT_OF[c] == suit or RANK_OF[c] == rank)))


def knowledge(state: Any, seat: int, events: list[dict[str, Any]]) -> Knowledge | None:
    """The weighted facts ``seat`` learnt about the other hands, or None when the history
    cannot be counted back to the deal; facts that do not add up to the hands' sizes (a
    variant that changes the rules) are set aside by ``core.infer.sampler``."""
    counts = [len(h) for h in state.hands]
    for e in events:
        kind, who = e.get("type"), event_seat(e)
        if kind in ("dealt", "draw", "take"):
            counts[who] -= event_size(e)
        elif kind == "play":
            counts[who] += len(e["cards"])
    if min(counts) < 0:
        return None
    know = Knowledge(counts)
    top, suit, kd_bar, pending = "", "", False, 0
    for e in events:
        kind, who = e.get("type"), event_seat(e)
        if kind == "play":
            cards = e["cards"]
            for card in cards:
                know.lose(who, card)
            last = cards[-1]
            top = last
            suit = (e.get("choice") or "") if CLASS[last] == QUEEN else SUIT_OF[last]
            if last == "KD":
                kd_bar = True
            elif CLASS[last] != FUNCTION:
                kd_bar = False
        elif kind == "starter":
            top = e["cards"][0]
            suit = SUIT_OF[top]
        elif kind == "shown":
            suit = e.get("choice") or ""
        elif kind == "count":
            pending = int(e.get("count") or 0)
        elif kind == "take":
            if who != seat and pending:
                know.learn(who, passing(kd_bar), TAKE_WEIGHT)
            know.gain(who, event_size(e))
            pending, kd_bar = 0, False
        elif kind == "draw":
            if who != seat and top and not pending:
                know.learn(who, fitting(top, suit), DRAW_WEIGHT)
            know.gain(who, event_size(e))
            kd_bar = False
        elif kind == "stand":
            if who != seat:
                know.learn(who, ACES, STAND_WEIGHT)
        elif kind == "dealt":
            know.gain(who, event_size(e))
    return know


@hookimpl
def cardparty_bot_sampler(state: Any, seat: int, events: list[dict[str, Any]]
                          ) -> Callable[[random.Random], Any] | None:
    """Determinizations for ``seat`` weighted by what the history told it (None: nothing was
    learnt, the plain ``cardparty_determinize`` does as well); the stock's shown bottom card
    stays where it is."""
    return sampler(state, seat, state.n, knowledge(state, seat, events), _hidden,
                   {0} if state.shown_bottom else None)


def _hidden(twin: Any, others: list[int]) -> list[list[str]]:
    """The zones a seat cannot see: the others' hands, then the stock."""
    return [twin.hands[s] for s in others] + [twin.stock]
