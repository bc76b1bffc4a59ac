"""``cardparty simulate``: bot games through the embedding API, with their figures.

Prints games/s, moves/s, average length and places per seat, or with ``--json`` one JSON object.
With ``--check`` every invariant of the random-simulation checker runs after every move. Any
rule or invariant failure exits 1 and prints the seed and move number to replay it.
``--bots LEVEL[,LEVEL...]`` seats bots of those levels (one per seat, cycling) and
``--duplicate`` plays every deal once per rotation of the seats (``cardparty.core.tournament``);
either adds each level's games and wins (``by_level``). ``--setting NAME=VALUE`` sets a table
setting of every game (a short match to test: ``--setting target=20``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cardparty.client.commands.bot_client import setting
from cardparty.client.commands.refusal import refuse
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import Msg, _
from cardparty.core.simcheck import check_random_games
from cardparty.core.simulate import SimulationFailure, SimulationReport, simulate
from cardparty.core.table import TableError
from cardparty.core.tournament import TournamentReport, parse_levels, tournament


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a whole number").format(
            text=repr(text))) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("{value} must be at least 1").format(value=value))
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a whole number").format(
            text=repr(text))) from None


def _levels(text: str) -> list[str]:
    try:
        return parse_levels(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help=_("play bot games and print their figures"))
    p.add_argument("--game", required=True, help=_("game id (see 'cardparty games')"))
    p.add_argument("--players", type=_positive, required=True,
                   help=_("players at every table (all bots)"))
    p.add_argument("--games", type=_positive, default=100,
                   help=_("how many games to play (default 100)"))
    p.add_argument("--seed", type=_seed, default=0, help=_("first seed; game i uses seed+i"))
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help=_("a variant plugin for every table (repeatable)"))
    p.add_argument("--setting", action="append", default=[], type=setting,
                   metavar="NAME=VALUE",
                   help=_("a table setting, e.g. deals=1 for a short Piquet (repeatable; "
                        "'cardparty games' lists them)"))
    p.add_argument("--check", action="store_true",
                   help=_("check every invariant after every move (slower)"))
    p.add_argument("--bots", type=_levels, default=None, metavar="LEVEL[,LEVEL...]",
                   help=_("bot levels, one per seat, cycling: easy, normal, hard "
                        "(default: the simulator's random-ish bots)"))
    p.add_argument("--duplicate", action="store_true",
                   help=_("play every deal again with the seats rotated (all rotations)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    try:
        info = catalog.game(args.game)
        for v in args.variant:
            catalog.variant(args.game, v)
    except KeyError as exc:
        return refuse("simulate", exc)
    if not info.min_players <= args.players <= info.max_players:
        return refuse("simulate", Msg("{game} is for {least} to {most} players, not {n}",
                                      game=info.name, least=info.min_players,
                                      most=info.max_players, n=args.players))
    if args.check and (args.bots or args.duplicate):
        return refuse("simulate", _("--check plays random bots; leave out --bots and "
                                    "--duplicate"))
    settings = dict(args.setting)
    try:
        if args.bots or args.duplicate:
            report: SimulationReport | TournamentReport = tournament(
                args.game, args.players, args.games, args.seed, args.bots or ["easy"],
                duplicate=args.duplicate, variants=args.variant, settings=settings)
        elif args.check:
            report = check_random_games(args.game, args.players, args.games, args.seed,
                                        args.variant, settings)
        else:
            report = simulate(args.game, args.players, args.games, args.seed, args.variant,
                              settings)
    except SimulationFailure as exc:
        print(f"cardparty simulate: FAILED: seed {exc.seed}, move {exc.move_no}: {exc}",
              file=sys.stderr)
        return 1
    except TableError as exc:
        return refuse("simulate", exc)
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        print(format_report(report))
    return 0


def format_report(report: SimulationReport | TournamentReport) -> str:
    if isinstance(report, TournamentReport):
        return format_tournament(report)
    data = report.as_json()
    lines = [
        f"{report.game}: {report.games} games of {report.players} players, "
        f"{report.moves} moves in {report.seconds:.2f} s",
        f"  {data['games_per_second']} games/s, {data['moves_per_second']} moves/s, "
        f"{data['average_length']} moves per game",
        "  places per seat (1st, 2nd, ...):",
    ]
    for seat, places in enumerate(report.places):
        lines.append(f"    seat {seat}: {' '.join(f'{n:>6}' for n in places)}")
    if report.outcomes:
        lines.append("  outcomes: " + ", ".join(f"{k} {v}" for k, v in
                                                sorted(report.outcomes.items())))
    return "\n".join(lines)


def format_tournament(tour: TournamentReport) -> str:
    """The simulation's figures, then each level's games and first places."""
    lines = [format_report(tour.report),
             f"  seats: {', '.join(tour.levels)}"
             + (" (duplicate: every deal in every rotation)" if tour.duplicate else "")]
    for level, score in sorted(tour.by_level.items()):
        rate = score.won / score.games if score.games else 0.0
        lines.append(f"  {level}: {score.games} games, {score.won:g} won ({rate:.1%})")
    return "\n".join(lines)
