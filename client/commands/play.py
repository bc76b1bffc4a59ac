"""``cardparty play``: a game against bots in this terminal, with no set-up.

Starts a host node in this process on 127.0.0.1 (an ephemeral port), opens a table of the
chosen game with bots in the empty seats, and connects the terminal client to it: no other
machine, no address to type. ``make play`` runs exactly this.
"""

from __future__ import annotations

import argparse
import getpass
import math
from typing import Any

from cardparty.client.commands.bot_client import setting
from cardparty.core.bots import ACCEPTED_LEVELS
from cardparty.core.i18n import _
from cardparty.net.wire.protocol import BOT_DELAY


def add_parser(sub: Any) -> None:
    p = sub.add_parser("play", help=_("play a game against bots in this terminal (no set-up)"))
    p.add_argument("--game", default="pika",
                   help=_("game id (see 'cardparty games'; default pika)"))
    p.add_argument("--players", type=int, default=None,
                   help=_("players at the table, you included (default: the game's most)"))
    p.add_argument("--setting", action="append", default=[], type=setting,
                   metavar="NAME=VALUE",
                   help=_("a table setting, e.g. deals=1 for a short Piquet (repeatable; "
                        "'cardparty games' lists them)"))
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help=_("a house-rule variant of the game (repeatable)"))
    p.add_argument("--bots", default="normal", choices=ACCEPTED_LEVELS, metavar="LEVEL",
                   help=_("bot level: easy, normal or hard (default normal; the old names "
                          "random and basic mean easy and normal)"))
    p.add_argument("--name", default=None, help=_("your name at the table"))
    p.add_argument("--line", action="store_true",
                   help=_("the line mode, for a screen reader or a braille display: what "
                          "happens said in plain lines, moves and commands typed"))
    p.add_argument("--four-colour", "--four-color", action="store_true", dest="four_colour",
                   help=_("French cards in four colours: ♠ black, ♥ red, ♦ blue, ♣ green"))
    p.add_argument("--bell", action="store_true",
                   help=_("ring the terminal bell and set the window title when it is your "
                        "turn (key B toggles it)"))
    p.add_argument("--bot-delay", type=bot_delay, default=0.6, metavar="SECONDS",
                   help=_("seconds a bot waits before it moves, so you can follow (default "
                          "0.6; 0 to {most})").format(most=BOT_DELAY[1]))
    p.add_argument("--ascii", action="store_true", help=_("no Unicode symbols (plain ASCII)"))
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    p.set_defaults(run=run)


def bot_delay(text: str) -> float:
    """``--bot-delay``: seconds within the bounds a host takes for a table's bots (the
    wire's ``bot_delay``), refused here rather than by the host once the screen is open."""
    least, most = BOT_DELAY
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not least <= value <= most:          # NaN is no number of seconds either
        raise argparse.ArgumentTypeError(_("seconds from {least} to {most}, not {text}").format(
            least=least, most=most, text=text))
    return value


def default_name() -> str:
    """The login name, if a host takes it as a player's name; else "You"."""
    from cardparty.client.names import name_problem

    try:
        login = getpass.getuser()
    except Exception:
        return "You"
    return login if login and name_problem(login) is None else "You"


def run(args: argparse.Namespace) -> int:
    from cardparty.client.launch import play_against_bots

    return play_against_bots(game=args.game, players=args.players, bots=args.bots,
                             name=args.name or default_name(), ascii_only=args.ascii,
                             mouse=not args.no_mouse, bot_delay=args.bot_delay,
                             settings=dict(args.setting), variants=list(args.variant),
                             bell=args.bell, line=args.line, four_colour=args.four_colour)
