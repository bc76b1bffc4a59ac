"""Kakhead's estimate of an unfinished game, for the search bot (``cardparty.core.search``).

The bot policy itself (swaps, the cheapest fitting rank, 2s, 3s and 10s kept for last, the
draw offers of KH-12) is ``rules.cardparty_bot_move``; tournaments found no change to it that
beat it (burning a big pile early with a 10 lost to it: see docs/bots.md).

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

from typing import Any

from cardparty.core.contract import Move
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.search import pairwise_shares

#: KH-9: the cards that go on anything, which the normal policy keeps for when nothing else fits.
ANYWHERE = ("2", "3", "T")


@hookimpl
def cardparty_bot_reason(view: dict[str, Any], moves: list[Move], move: Move) -> str | None:
    """Why the policy plays ``move``, in its own terms, for the hint."""
    kind = move.kind
    if kind == "swap":
        return Msg("puts {card} face up, to play it when your hand is gone",
                   card=move.cards[0])
    if kind == "ready":
        return Msg("your face-up cards are the best you can make them")
    if kind == "take":
        return Msg("nothing fits: you must take the pile")
    if kind in ("offer", "accept"):
        return Msg("the game has gone round for long without progress")
    if kind != "play" or not move.cards:
        return None
    rank = move.cards[0][0]
    kept = [c for c in view["hand"] if c[0] in ANYWHERE and c not in move.cards]
    if rank in ANYWHERE:
        return Msg("nothing cheaper fits: {card} goes on anything", card=move.cards[0])
    if kept:
        return Msg("plays the cheapest card that fits and keeps {cards} for later",
                   cards=" ".join(kept[:3]))
    return Msg("plays the cheapest card that fits")


@hookimpl
def cardparty_bot_estimate(view: dict[str, Any]) -> list[float] | None:
    """Fewer cards left to get rid of is better (blind cards a little worse than seen ones);
    a finished player is ahead of everybody still playing."""
    strength = []
    for p in view["players"]:
        if p.get("place") is not None:
            strength.append(100.0 - p["place"])
            continue
        zones = p.get("zones") or {}
        up = zones.get("face-up") or []
        blind = zones.get("blind") or 0
        up_n = len(up) if isinstance(up, list) else int(up)
        blind_n = len(blind) if isinstance(blind, list) else int(blind)
        strength.append(-(p["count"] + up_n + 1.2 * blind_n))
    return pairwise_shares(strength, 4.0)
