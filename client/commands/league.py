"""``cardparty league --data DIR``: the league and the profiles of a host, read on the host's
machine for the party's organiser (docs/economy.md).

Reads ``DIR/economy.sqlite3`` without writing anything (a running host is not disturbed):
the standings of a week (this week by default; ``--week 2026-W48``; ``--weeks`` lists the
weeks with standings), and any profile (``--player NAME``, repeatable). ``--json`` prints
one JSON document for scripts.

Must not know about: sockets, the host's tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from cardparty.core.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser("league", help=_("a host's weekly league and players' profiles "
                                        "(read-only, on the host's machine)"))
    p.add_argument("--data", required=True, metavar="DIR",
                   help=_("the host's --data directory (it holds economy.sqlite3)"))
    p.add_argument("--week", default=None, help=_("a week such as 2026-W48 (default: this week)"))
    p.add_argument("--weeks", action="store_true", help=_("list the weeks with standings"))
    p.add_argument("--player", action="append", default=[], metavar="NAME",
                   help=_("show this player's profile (repeatable)"))
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    p.set_defaults(run=run)


def profile_map(led: Any, name: str) -> dict[str, Any]:
    from cardparty.core.economy import rewards as rw

    p = led.profile(name)
    now = time.time()
    return {"name": p.username, "coins": p.coins, "xp": p.xp, "level": p.level,
            "next_xp": rw.level_xp(p.level + 1), "league": p.league_points,
            "gold_left": max(0.0, p.gold_until - now), "vip_left": max(0.0, p.vip_until - now)}


def run(args: argparse.Namespace) -> int:
    from cardparty.core.economy.ledger import EconomyError, Ledger

    path = Path(args.data) / "economy.sqlite3"
    try:
        led = Ledger.read_only(path)
    except EconomyError as exc:
        print(f"cardparty league: error: {exc} (is --data the host's --data?)",
              file=sys.stderr)
        return 1
    try:
        week = args.week or led.week()
        out: dict[str, Any] = {"week": week, "current": led.week(),
                               "standings": [{"rank": i + 1, "name": n, "points": p}
                                             for i, (n, p) in enumerate(led.standings(week))]}
        if args.weeks:
            out["weeks"] = led.weeks()
        out["profiles"] = [profile_map(led, n) for n in args.player]
    except EconomyError as exc:
        print(f"cardparty league: error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:        # not an economy file: one line
        print(f"cardparty league: error: cannot read {path}: {exc}", file=sys.stderr)
        return 1
    finally:
        led.close()
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    this = " (this week)" if week == out["current"] else ""
    print(f"League {week}{this}")
    if not out["standings"]:
        print("  nobody has points yet")
    for row in out["standings"]:
        print(f"  {row['rank']:>3}. {row['name']:<32} {row['points']:>6} pts")
    if args.weeks:
        print("Weeks: " + (", ".join(out["weeks"]) or "none"))
    for p in out["profiles"]:
        boosts = [f"gold {p['gold_left'] / 60:.0f} min" if p["gold_left"] else "",
                  f"VIP {p['vip_left'] / 86400:.1f} days" if p["vip_left"] else ""]
        print(f"{p['name']}: {p['coins']} coins, level {p['level']} ({p['xp']}/"
              f"{p['next_xp']} XP), {p['league']} league points this week"
              + "".join(f", {b}" for b in boosts if b))
    return 0
