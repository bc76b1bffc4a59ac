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
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from cardparty.client.commands.refusal import refuse
from cardparty.core.i18n import Msg, _, translate
from cardparty.net.wire.economy_replies import LeagueRow, ProfileWire

if TYPE_CHECKING:
    from cardparty.core.economy.ledger import Ledger


class LeagueReport(TypedDict):
    """What the command prints (``--json``: as one JSON document): the week shown and this
    week, its standings, the weeks with standings (``--weeks``), the profiles asked for
    (``--player``) and, in JSON, the names no profile answers to."""

    week: str
    current: str
    standings: list[LeagueRow]
    weeks: NotRequired[list[str]]
    profiles: list[ProfileWire]
    unknown: NotRequired[list[str]]


def add_parser(sub: Any) -> None:
    p = sub.add_parser("league", help=_("a host's weekly league and players' profiles "
                                        "(read-only, on the host's machine)"))
    p.add_argument("--data", required=True, metavar="DIR",
                   help=_("the host's --data directory (it holds economy.sqlite3)"))
    p.add_argument("--week", default=None, type=week, metavar="YYYY-Www",
                   help=_("a week such as 2026-W48 (default: this week)"))
    p.add_argument("--weeks", action="store_true", help=_("list the weeks with standings"))
    p.add_argument("--player", action="append", default=[], metavar="NAME",
                   help=_("show this player's profile (repeatable)"))
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    p.set_defaults(run=run)


def week(text: str) -> str:
    """``--week``: a real ISO week (MO-10), refused before the file is opened."""
    from cardparty.core.economy.rewards import read_week

    try:
        return read_week(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(translate(exc.args[0])) from None


def named(led: Ledger, name: str) -> list[str]:
    """The profiles ``name`` stands for: a host owns names whatever their capitals and
    widths (``net.safetext.name_key``: "petr" is Petr's), so the league finds them so too."""
    from cardparty.net.names.safetext import name_key

    wanted = name_key(name)
    return [u for u in led.usernames() if name_key(u) == wanted]


def profile_map(led: Ledger, name: str) -> ProfileWire:
    """``name``'s profile, with the keys a host's ``profile`` reply gives it that the
    ledger alone knows."""
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
        return refuse("league", _("{error} (is --data the host's --data?)").format(
            error=translate(exc.args[0])), 1)
    unknown: list[str] = []
    try:
        this_week = led.week()
        shown = args.week or this_week
        standings: list[LeagueRow] = [{"rank": i + 1, "name": n, "points": p}
                                      for i, (n, p) in enumerate(led.standings(shown))]
        profiles: list[ProfileWire] = []
        for asked in args.player:
            found = named(led, asked)
            if not found:
                unknown.append(asked)
            profiles += [profile_map(led, n) for n in found]
        out: LeagueReport = {"week": shown, "current": this_week, "standings": standings,
                             "profiles": profiles}
        if args.weeks:
            out["weeks"] = led.weeks()
        if args.json and unknown:
            out["unknown"] = unknown
    except EconomyError as exc:
        return refuse("league", exc, 1)
    except Exception as exc:        # not an economy file: one line
        return refuse("league", _("cannot read {path}: {error}").format(path=path, error=exc), 1)
    finally:
        led.close()
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print_league(out, bool(args.weeks))
    for asked in unknown:
        refuse("league", Msg("no profile {who} on this host", who=repr(asked)))
    return 1 if unknown else 0


def print_league(out: LeagueReport, weeks: bool) -> None:
    """The standings, the weeks and the profiles of ``out`` as lines in the language."""
    title = _("League {week} (this week)") if out["week"] == out["current"] else _(
        "League {week}")
    print(title.format(week=out["week"]))
    if not out["standings"]:
        print("  " + _("nobody has points yet"))
    for row in out["standings"]:
        print(f"  {row['rank']:>3}. {row['name']:<32} " + _("{points} pts").format(
            points=f"{row['points']:>6}"))
    if weeks:
        print(_("Weeks: {weeks}").format(weeks=", ".join(out.get("weeks", [])) or _("none")))
    for p in out["profiles"]:
        boosts = [_("gold {minutes} min").format(minutes=f"{p['gold_left'] / 60:.0f}")
                  if p["gold_left"] else "",
                  _("VIP {days} days").format(days=f"{p['vip_left'] / 86400:.1f}")
                  if p["vip_left"] else ""]
        print(_("{name}: {coins} coins, level {level} ({xp}/{next} XP), {league} league points "
                "this week").format(name=p["name"], coins=p["coins"], level=p["level"],
                                    xp=p["xp"], next=p["next_xp"], league=p["league"])
              + "".join(f", {b}" for b in boosts if b))
