"""``cardparty check GAME [--variant V]``: everything an author checks before publishing a
game, in one command and one report (``cardparty.core.gamecheck``): the contract, a few
hundred random games under the invariant checker (save and restore, ``determinize``'s
honesty), clones, bots of every level finishing games, and the balance (each seat's share of
first places, the length, how often the last round decides, normal against easy). Exit 0
when every step passed, 1 when one failed (with the seed and move to replay it), 2 for what
cannot be checked (an unknown game, variant, setting or player count).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cardparty.client.commands.bot_client import setting
from cardparty.client.commands.refusal import refuse
from cardparty.client.commands.simulate import _positive, _seed
from cardparty.core.gamecheck import CHECKED_GAMES, Step, check_game, format_step, wall
from cardparty.core.i18n import _
from cardparty.core.table import TableError


def add_parser(sub: Any) -> None:
    p = sub.add_parser("check", help=_("check a game before publishing it: contract, random "
                                       "games, save and restore, determinize, bots, balance"))
    p.add_argument("game", metavar="GAME", help=_("game id (see 'cardparty games')"))
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help=_("a variant plugin for every table (repeatable)"))
    p.add_argument("--setting", action="append", default=[], type=setting,
                   metavar="NAME=VALUE",
                   help=_("a table setting, e.g. deals=1 for a short Piquet (repeatable; "
                        "'cardparty games' lists them)"))
    p.add_argument("--players", type=_positive, action="append", default=[], metavar="N",
                   help=_("check at N players only (repeatable; default: every count)"))
    p.add_argument("--games", type=_positive, default=CHECKED_GAMES,
                   help=_("random games to check, over every player count (default "
                          "{n})").format(n=CHECKED_GAMES))
    p.add_argument("--seed", type=_seed, default=0, help=_("first seed; game i uses seed+i"))
    p.add_argument("--jobs", type=_positive, default=None, metavar="N",
                   help=_("processes to play the games in (default: one per core)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    def told(step: Step) -> None:
        if not args.json:
            print("\n".join(format_step(step)), flush=True)

    if not args.json:
        print(args.game + (f" with {', '.join(args.variant)}" if args.variant else ""),
              flush=True)
    try:
        report = check_game(args.game, args.variant, dict(args.setting), args.players,
                            args.games, seed=args.seed, told=told, jobs=args.jobs)
    except TableError as exc:
        return refuse("check", exc)
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        verdict = "ok" if report.ok else "FAILED"          # the report speaks English
        print(f"{verdict}: {args.game} checked in {report.seconds:.1f} s{wall(report)}",
              flush=True)
    if not report.ok:
        print(f"cardparty check: FAILED: {args.game}", file=sys.stderr)
    return 0 if report.ok else 1
