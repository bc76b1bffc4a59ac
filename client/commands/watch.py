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
from cardparty.core.narrate import describe
from cardparty.core.referee import Referee
from cardparty.core.table import TableError, open_table

NAMES = ("Eva", "Petr", "Jana", "Karel", "Marta", "Honza", "Lucie", "Tomáš")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("watch", help="watch bots play one game, narrated line by line")
    p.add_argument("--game", default="pika")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--variant", action="append", default=[], metavar="V")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    p.add_argument("--ascii", action="store_true", help="no Unicode suit symbols")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        table = open_table(args.game, args.players, variants=args.variant, seed=seed,
                           names=NAMES[:args.players])
    except TableError as exc:
        print(f"cardparty watch: error: {exc}", file=sys.stderr)
        return 2
    print(f"{table.info.name}, {args.players} players, seed {seed}")
    referee = Referee.any_order(table, random.Random(seed), PolicyBot("basic"))
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
        print(result.summary)
    return 0
