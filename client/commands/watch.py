"""``cardparty watch``: a bot game narrated move by move in plain lines.

No network and no full-screen client: the quickest way to see a game's rules at work, and a
readable log for a seed that failed in simulation (``--seed``). Every line is said as the
client's log says it (``client.words.in_words``: the player's language, cards as ``2♦`` and
``Joker``), and ``--ascii`` writes only ASCII, as the client does.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, cast

from cardparty.client.commands.refusal import refuse
from cardparty.client.theme import to_ascii
from cardparty.client.words import in_words, summary_words
from cardparty.core.bots import PolicyBot
from cardparty.core.contract import WireEvent
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import Msg, _, plural_msg, translate
from cardparty.core.narrate import describe
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
            return refuse("watch", exc)
        players = max(info.min_players, min(4, info.max_players))
    try:
        table = open_table(args.game, players, variants=args.variant, seed=seed,
                           names=NAMES[:players])
    except TableError as exc:
        return refuse("watch", exc)

    def say(text: str) -> None:
        print(to_ascii(text) if args.ascii else text, flush=bool(args.delay))

    def game_words(event: WireEvent, names: list[str]) -> str:
        return describe(event, names, table.hook, args.ascii)

    say(translate(plural_msg("{game}, {n} player, seed {seed}", "{game}, {n} players, seed {seed}",
                             players, game=table.info.name, seed=seed)))
    referee = Referee.any_order(table, random.Random(seed), PolicyBot("normal"))
    shown = 0
    while table.result() is None:
        if referee.fire(0.0) is None:
            break
        for event in table.events_for(None, shown):
            # An event of this process's table: a view's event without the host's words.
            say(in_words(cast(WireEvent, event), table.names, game_words, args.ascii))
        shown = len(table.events)
        if args.delay:
            time.sleep(args.delay)
    result = table.result()
    if result is not None:
        said = result.summary if isinstance(result.summary, Msg) else None
        say(summary_words(said, str(result.summary), table.names))
    return 0
