"""Piquet's normal bot: the plain habits of a fair club player, from its own view only.

Exchange: throw the lowest cards of the short suits, keep aces, kings and the longest suit;
elder stops discarding once what is left is worth keeping. Play: lead a run of cards that
cannot lose when there is one (each scores a lead, PQ-12, PQ-13), else the top of the longest
suit; follow by winning as cheaply as possible, or by throwing the lowest card of the
shortest suit. Spoken declarations (PQ-16): declare and answer everything in full, never sink.

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg, plural_msg
from cardparty.core.search import pairwise_shares

ORDER = {r: i for i, r in enumerate("789TJQKA")}


def _keep_value(card: str, lengths: Counter[str]) -> int:
    """How much a card is worth keeping: its rank, plus its suit's length (a point and
    sequences live in long suits), plus a premium for aces and kings."""
    rank = ORDER[card[0]]
    return rank + 2 * lengths[card[1]] + (4 if card[0] in "AK" else 0)


def _exchange(moves: list[Move], hand: list[str]) -> Move:
    lengths = Counter(c[1] for c in hand)
    discards = [m for m in moves if m.kind == "discard"]
    take = next((m for m in moves if m.kind == "take"), None)
    if not discards:
        assert take is not None
        return take
    worst = min(discards, key=lambda m: _keep_value(m.cards[0], lengths))
    if take is not None and _keep_value(worst.cards[0], lengths) >= 10:
        return take
    return worst


def _play(moves: list[Move], hand: list[str], trick: list[str]) -> Move:
    lengths = Counter(c[1] for c in hand)
    if not trick:
        runs = [m for m in moves if len(m.cards) > 1]
        if runs:
            return max(runs, key=lambda m: len(m.cards))
        return max(moves, key=lambda m: (lengths[m.cards[0][1]], ORDER[m.cards[0][0]]))
    led = trick[0]
    winners = [m for m in moves if m.cards[0][1] == led[1]
               and ORDER[m.cards[0][0]] > ORDER[led[0]]]
    if winners:
        return min(winners, key=lambda m: ORDER[m.cards[0][0]])
    return min(moves, key=lambda m: (ORDER[m.cards[0][0]], lengths[m.cards[0][1]]))


@hookimpl
def cardparty_bot_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                       rng: random.Random, level: str) -> Move | None:
    if level != "normal" or len(moves) == 1:
        return None
    if moves[0].kind in ("declare", "answer"):
        return moves[0]                   # PQ-16: declare or answer in full, never sinking
    seen = view()
    return _choose(moves, seen["hand"], lambda: seen["zones"]["trick"])


@hookimpl
def cardparty_bot_rollout(state: Any, seat: int, moves: list[Move],
                          rng: random.Random) -> Move | None:
    """``cardparty_bot_move`` at "normal", read from the state (the search's rollouts)."""
    if len(moves) == 1:
        return None
    if moves[0].kind in ("declare", "answer"):
        return moves[0]
    return _choose(moves, state.hands[seat], lambda: state.trick)


def _choose(moves: list[Move], hand: list[str], trick: Callable[[], list[str]]) -> Move | None:
    if moves[0].kind in ("discard", "take"):
        return _exchange(moves, hand)
    if moves[0].kind == "play":
        return _play(moves, hand, trick())
    return None


@hookimpl
def cardparty_bot_reason(view: dict[str, Any], moves: list[Move], move: Move) -> str | None:
    """Why the policy plays ``move``, in its own terms, for the hint."""
    kind = move.kind
    hand = view["hand"]
    if kind in ("declare", "answer"):
        return Msg("declares in full: sinking gains nothing here")
    if kind == "take":
        return Msg("what is left is worth keeping")
    if kind == "discard":
        return Msg("throws {card}, the least worth keeping: low, in a short suit",
                   card=move.cards[0])
    if kind != "play":
        return None
    if len(move.cards) > 1:
        return plural_msg("leads {n} card that cannot lose, a point each",
                          "leads {n} cards that cannot lose, a point each", len(move.cards))
    trick = view["zones"].get("trick") or []
    if not trick:
        return Msg("leads from your longest suit")
    card, led = move.cards[0], trick[0]
    if card[1] == led[1] and ORDER[card[0]] > ORDER[led[0]]:
        return Msg("wins the trick as cheaply as you can")
    lengths = Counter(c[1] for c in hand)
    if card[1] != led[1] and lengths[card[1]] == min(lengths.values()):
        return Msg("cannot win it: throws the lowest card of your shortest suit")
    return Msg("cannot win it: throws your lowest card")


@hookimpl
def cardparty_bot_estimate(view: dict[str, Any]) -> list[float] | None:
    """For the search bot: the chance of winning grows with the lead in points, measured
    against what a deal is worth (about 20 points). Judged only between deals: half a deal's
    points say little of the rest of it (the elder scores first, the cards come last)."""
    if view.get("phase") != "scored":
        return None
    score = view["counters"].get("score") or [0, 0]       # the deal just played included
    return pairwise_shares([float(x) for x in score], 15.0)
