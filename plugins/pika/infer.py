"""Pika's reading of the public history, for the search bot's determinizations.

What the rules make certain (PI-5 and its Decision: a player may draw only when he holds no
playable card): a player who drew held no card that fitted the pile then (none of the colour
in force, none of the top card's symbol, no black card), and a drawn card he neither played
nor kept did not fit either. What is a choice (PI-9: taking the count is allowed even when he
could chain): a player who took a pending +2/+4 count probably held nothing that chains, a
fact weighed ``TAKE_WEIGHT``; one who played a black card probably held no other card that
fitted (black cards are the ones to keep), weighed ``BLACK_WEIGHT``. The search deals the
other hands so that they respect these (``core.infer``); the seat's own hand, the pile and the
counts stay as they are.

It reads only the events as the deciding seat saw them (other seats' drawn cards are counts)
and the public parts of the state (the hands' sizes, the pile, the colour in force).

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from cardparty.core.cards import pika_deck
from cardparty.core.hookspecs import hookimpl
from cardparty.core.infer import Knowledge, event_seat, event_size, sampler

CODES = tuple(sorted(set(pika_deck())))
BLACK = ("W", "W+4")
#: The chance that a player who took a pending count held nothing that chains it: the rules
#: let him take it anyway, a player who wants to win rarely does.
TAKE_WEIGHT = 0.9
#: The chance that a player who played a black card held no other card that fitted: black
#: cards are the ones to keep for last (a +4 against a player about to go out says nothing).
BLACK_WEIGHT = 0.8
BLACK_SET = frozenset(BLACK)
#: The symbols the normal policy sheds first when the next player holds two cards or fewer.
ACTIONS = ("S", "V", "+2")
#: The chance that a player who, with the next player close to going out, played a card that
#: does not stop him held none that does: the normal policy stops him when it can (``bot``).
DANGER_WEIGHT = 0.9


@cache
def fitting(top: str, colour: str) -> frozenset[str]:
    """PI-4: every card that goes on ``top`` with ``colour`` in force (no count pending)."""
    symbol = None if top in BLACK else top[1:]
    return frozenset(c for c in CODES
                     if c in BLACK or c[0] == colour or (symbol is not None and c[1:] == symbol))


@cache
def stopping(top: str, colour: str) -> frozenset[str]:
    """The cards the normal policy plays first against a player about to go out (a block, a
    reverse, a +2, a +4) among those that go on ``top`` with ``colour`` in force (PI-4)."""
    return frozenset(c for c in fitting(top, colour) if c == "W+4" or symbol_of(c) in ACTIONS)


def symbol_of(card: str) -> str:
    return card if card in BLACK else card[1:]


@cache
def chaining(kind: str, colour: str) -> frozenset[str]:
    """PI-9: every card that chains on a pending count of ``kind`` ("+2"/"+4")."""
    return frozenset(c for c in CODES
                     if c == "W+4" or (c.endswith("+2") and (kind == "+2" or c[0] == colour)))


def _after_draw(events: list[dict[str, Any]], i: int, seat: int, turn: int) -> str:
    """What the drawer did with the card drawn at ``events[i]``: "played", "kept" (PI-5: it
    fitted) or "passed" (it did not fit: the turn went on). ``turn`` is whose turn it is
    now, for a draw that is the last event."""
    for e in events[i + 1:]:
        kind, who = e.get("type"), event_seat(e)
        if who == seat and kind in ("play", "keep"):
            return "played" if kind == "play" else "kept"
        if kind in ("play", "draw", "take", "keep", "over"):
            return "passed"
    return "passed" if turn != seat else "kept"    # his turn still: he is deciding


def knowledge(state: Any, seat: int, events: list[dict[str, Any]]) -> Knowledge | None:
    """The facts ``seat`` learnt about the other hands, or None when the history cannot be
    counted back to the deal; facts that do not add up to the hands' sizes (a variant that
    changes the rules) are set aside by ``core.infer.sampler``."""
    counts = [len(h) for h in state.hands]
    reshuffled = False
    for e in events:
        kind, who = e.get("type"), event_seat(e)
        if kind in ("draw", "take", "penalty"):
            counts[who] -= event_size(e)
        elif kind == "play":
            counts[who] += 1
        elif kind == "reshuffle":
            reshuffled = True
    if min(counts) < 0:
        return None
    know = Knowledge(counts)
    # The pile's first card is the turned card unless the pile was shuffled into the stock.
    top: str | None = None if reshuffled or not state.pile else state.pile[0]
    colour = top[0] if top is not None else ""
    kind_pending, drawn_played, direction = "", -1, 1
    for i, e in enumerate(events):
        kind, who = e.get("type"), event_seat(e)
        if kind == "play":
            card = e["cards"][0]
            if i != drawn_played:
                know.lose(who, card)
                if who != seat and card in BLACK and not kind_pending and top is not None \
                        and (card == "W" or min(len(know.slots[s]) for s in range(state.n)
                                                if s != who) > 2):
                    know.learn(who, fitting(top, colour) - BLACK_SET, BLACK_WEIGHT)
                elif who != seat and not kind_pending and top is not None \
                        and symbol_of(card) not in ACTIONS \
                        and len(know.slots[(who + direction) % state.n]) <= 2:
                    know.learn(who, stopping(top, colour), DANGER_WEIGHT)
            top, colour = card, (e.get("choice") or card[0])
            if card == "W+4" or card.endswith("+2"):
                kind_pending = "+4" if card == "W+4" else "+2"
        elif kind == "draw":
            n = event_size(e)
            if who == seat:
                know.gain(who, n)
                continue
            facts: tuple[int, ...] = ()
            if top is not None:
                facts = (know.learn(who, fitting(top, colour)),)
            after = _after_draw(events, i, who, state.turn)
            if after == "played":
                drawn_played = next(j for j in range(i + 1, len(events))
                                    if event_seat(events[j]) == who
                                    and events[j].get("type") == "play")
                know.gain(who, n - 1)
            else:
                know.gain(who, n, facts if after == "passed" else ())
        elif kind == "take":
            if who != seat and kind_pending:
                know.learn(who, chaining(kind_pending, colour), TAKE_WEIGHT)
            know.gain(who, event_size(e))
            kind_pending = ""
        elif kind == "penalty":
            know.gain(who, event_size(e))
        elif kind == "reverse":
            direction = -direction
    return know


@hookimpl
def cardparty_bot_sampler(state: Any, seat: int, events: list[dict[str, Any]]
                          ) -> Callable[[random.Random], Any] | None:
    """Determinizations for ``seat`` that respect what the history told it (None: nothing
    was learnt, the plain ``cardparty_determinize`` does as well)."""
    return sampler(state, seat, state.n, knowledge(state, seat, events), _hidden)


def _hidden(twin: Any, others: list[int]) -> list[list[str]]:
    """The zones a seat cannot see: the others' hands, then the stock."""
    return [twin.hands[s] for s in others] + [twin.stock]
