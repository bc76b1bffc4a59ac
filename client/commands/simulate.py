"""``cardparty simulate``: bot games through the embedding API, with their figures.

Prints games/s, moves/s, average length and places per seat, or with ``--json`` one JSON object.
With ``--check`` every invariant of the random-simulation checker runs after every move. Any
rule or invariant failure exits 1 and prints the seed and move number to replay it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import _
from cardparty.core.simcheck import check_random_games
from cardparty.core.simulate import SimulationFailure, SimulationReport, simulate
from cardparty.core.table import TableError


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help=_("play bot games and print their figures"))
    p.add_argument("--game", required=True, help="game id (see 'cardparty games')")
    p.add_argument("--players", type=_positive, required=True,
                   help="players at every table (all bots)")
    p.add_argument("--games", type=_positive, default=100,
                   help="how many games to play (default 100)")
    p.add_argument("--seed", type=_seed, default=0, help="first seed; game i uses seed+i")
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help="a variant plugin for every table (repeatable)")
    p.add_argument("--check", action="store_true",
                   help="check every invariant after every move (slower)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    if args.game not in catalog.games:
        known = ", ".join(sorted(catalog.games))
        print(f"cardparty simulate: error: no game {args.game!r} (installed: {known})",
              file=sys.stderr)
        return 2
    info = catalog.games[args.game]
    if not info.min_players <= args.players <= info.max_players:
        print(f"cardparty simulate: error: {info.name} is for {info.min_players} to "
              f"{info.max_players} players", file=sys.stderr)
        return 2
    for v in args.variant:
        try:
            catalog.variant(args.game, v)
        except KeyError as exc:
            print(f"cardparty simulate: error: {exc.args[0]}", file=sys.stderr)
            return 2
    try:
        if args.check:
            report = check_random_games(args.game, args.players, args.games, args.seed,
                                        args.variant)
        else:
            report = simulate(args.game, args.players, args.games, args.seed, args.variant)
    except SimulationFailure as exc:
        print(f"cardparty simulate: FAILED: seed {exc.seed}, move {exc.move_no}: {exc}",
              file=sys.stderr)
        return 1
    except TableError as exc:
        print(f"cardparty simulate: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        print(format_report(report))
    return 0


def format_report(report: SimulationReport) -> str:
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
