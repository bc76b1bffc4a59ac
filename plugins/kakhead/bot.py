"""Kakhead's estimate of an unfinished game, for the search bot (``cardparty.core.search``).

The bot policy itself (swaps, the cheapest fitting rank, 2s, 3s and 10s kept for last, the
draw offers of KH-12) is ``rules.cardparty_bot_move``; tournaments found no change to it that
beat it (burning a big pile early with a 10 lost to it: see docs/bots.md).

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

from typing import Any

from cardparty.core.hookspecs import hookimpl
from cardparty.core.search import pairwise_shares


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
