"""``cardparty watch``: a bot game narrated move by move in plain lines.

No network and no full-screen client: the quickest way to see a game's rules at work, and a
readable log for a seed that failed in simulation (``--seed``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from cardparty.core.bots import PolicyBot
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import _
from cardparty.core.narrate import describe, with_names
from cardparty.core.referee import Referee
from cardparty.core.table import TableError, open_table

NAMES = ("Eva", "Petr", "Jana", "Karel", "Marta", "Honza", "Lucie", "Tomáš")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("watch", help=_("watch bots play one game, narrated line by line"))
    p.add_argument("--game", default="pika",
                   help=_("game id (see 'cardparty games'; default pika)"))
    p.add_argument("--players", type=int, default=None,
                   help=_("bots at the table (default: 4, or what the game allows nearest)"))
    p.add_argument("--seed", type=int, default=None,
                   help=_("the deal's random seed, to replay a game (default: a new one)"))
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help=_("a house-rule variant of the game (repeatable)"))
    p.add_argument("--delay", type=float, default=0.0, help=_("seconds between moves"))
    p.add_argument("--ascii", action="store_true", help=_("no Unicode suit symbols"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    players = args.players
    if players is None:
        try:
            info = load_catalog().game(args.game)
        except KeyError as exc:
            print(f"cardparty watch: error: {exc.args[0]}", file=sys.stderr)
            return 2
        players = max(info.min_players, min(4, info.max_players))
    try:
        table = open_table(args.game, players, variants=args.variant, seed=seed,
                           names=NAMES[:players])
    except TableError as exc:
        print(f"cardparty watch: error: {exc}", file=sys.stderr)
        return 2
    print(f"{table.info.name}, {players} players, seed {seed}")
    referee = Referee.any_order(table, random.Random(seed), PolicyBot("normal"))
    shown = 0
    while table.result() is None:
        if referee.fire(0.0) is None:
            break
        for event in table.events_for(None, shown):
            print(describe(event, table.names, table.hook, args.ascii))
        shown = len(table.events)
        if args.delay:
            time.sleep(args.delay)
    result = table.result()
    if result is not None:
        print(with_names(result.summary, table.names))
    return 0
