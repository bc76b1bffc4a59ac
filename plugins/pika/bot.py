"""Pika's normal bot: the simple habits of a decent human player.

It always calls «Pika!» with the play that leaves one card (or as soon as it may), plays rather
than draws, sheds action and +2/+4 cards when the next player is close to going out, keeps its
black cards for last, and names the colour it holds most of. It sees only its own view.

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardparty.core.cards import COLOUR_NAME
from cardparty.core.contract import Move
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.search import pairwise_shares

BLACK = ("W", "W+4")


def _score(move: Move, colours: Counter[str], danger: bool) -> float:
    if move.kind == "call":
        return 100.0
    if move.kind != "play":
        return -10.0 if move.kind in ("draw", "take") else 0.0
    card = move.cards[0]
    parts = (move.choice or "").split()
    score = 10.0 + (5.0 if "pika" in parts else 0.0)
    black = card in BLACK
    if black:
        score -= 4.0                                   # keep the jokers for later
        named = parts[0] if parts and parts[0] != "pika" else ""
        score += colours.get(named, 0) * 0.5           # name the colour held most
    if danger and (card.endswith(("+2", "S", "V")) or card == "W+4"):
        score += 8.0                                   # stop a player about to go out
    return score


@hookimpl
def cardparty_bot_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                       rng: random.Random, level: str) -> Move | None:
    if level != "normal" or len(moves) == 1:
        return None
    seen = view()
    players = seen["players"]
    nxt = (seen["seat"] + seen["direction"]) % len(players)
    return choose(seen["hand"], players[nxt]["count"] <= 2, moves, rng)


@hookimpl
def cardparty_bot_rollout(state: Any, seat: int, moves: list[Move],
                          rng: random.Random) -> Move | None:
    """``cardparty_bot_move`` at "normal", read from the state (the search's rollouts)."""
    if len(moves) == 1:
        return None
    nxt = (seat + state.direction) % state.n
    return choose(state.hands[seat], len(state.hands[nxt]) <= 2, moves, rng)


def choose(hand: list[str], danger: bool, moves: list[Move], rng: random.Random) -> Move:
    """The normal policy's move: the best scored, ties drawn by ``rng``; ``danger``: the next
    player holds two cards or fewer."""
    colours = Counter(c[0] for c in hand if c not in BLACK)
    scores = [_score(m, colours, danger) for m in moves]     # once: the search calls this a lot
    best = max(scores)
    return rng.choice([m for m, v in zip(moves, scores, strict=True) if v == best])


@hookimpl
def cardparty_bot_reason(view: dict[str, Any], moves: list[Move], move: Move) -> str | None:
    """Why the policy plays ``move``, in its own terms, for the hint."""
    if move.kind == "call":
        return Msg("call before the warning runs out, or draw 2")
    if move.kind == "draw":
        return Msg("nothing fits: you must draw")
    if move.kind == "take":
        return Msg("nothing you hold chains on the count")
    if move.kind != "play":
        return None
    card = move.cards[0]
    parts = (move.choice or "").split()
    players = view["players"]
    nxt = (view["seat"] + view["direction"]) % len(players)
    if players[nxt]["count"] <= 2 and (card.endswith(("+2", "S", "V")) or card == "W+4"):
        return Msg("stops the next player, who is close to going out")
    if card in BLACK:
        named = parts[0] if parts and parts[0] != "pika" else ""
        return Msg("nothing else fits; names {colour}, the colour you hold most",
                   colour=COLOUR_NAME.get(named, named))
    if "pika" in parts:
        return Msg("leaves one card and calls Pika! with it")
    if any(c in BLACK for c in view["hand"]):
        return Msg("keeps your black cards for last")
    return None


@hookimpl
def cardparty_bot_estimate(view: dict[str, Any]) -> list[float] | None:
    """For the search bot: fewer cards is better, a player who is out best."""
    strength = [100.0 - p["place"] if p.get("place") is not None else -float(p["count"])
                for p in view["players"]]
    return pairwise_shares(strength, 2.0)
