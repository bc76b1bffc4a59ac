"""The command line (``:`` or ``/`` on any screen): what can be typed there, and what it does.

Two kinds of lines. A move, by its label as the table lists it (``play 7♥``, ``take 4
cards``) or by its kind and cards typed plainly (``play 7h``, ``play 10s 10c``, ``throw qs``),
or by the start of a label when only one move starts so (``take 4``). And a command, reaching
what the keys reach: ``chat TEXT`` (or ``say``: at the table, or to the whole lobby from the
lobby), ``ready``, ``bot [LEVEL]``, ``sit [TABLE]``, ``watch [TABLE]``, ``create``,
``invite NAMES``, the table owner's ``remove SEAT|NAME``, ``close`` and ``strangers [on|off]``,
``leave``, ``lobby``, ``again``, ``match``,
``call``, ``sort``, ``bell``, ``help``, ``quit``; and the economy's: ``seek`` (the open play form),
``unseek``, ``league [WEEK]``, ``shop``, ``buy gold|vip``. The client still decides no
legality: a move line is matched against the listed moves only, and the host judges what is
sent.

``candidates`` is what completion offers; ``run`` does a line. Both work on the controller's
state only, so they are tested without a terminal. Each command is declared once, with its
names, what completion offers for it and what it does (``command``); where a key does the
same, the command calls that key's action.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardparty.client.dialog import BOT_LEVELS
from cardparty.client.keymap import Action
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

#: A command's work: the controller, the table it is about (the one on screen, or the one
#: chosen in the lobby) and the rest of the line.
Run = Callable[["Controller", Any, str], None]


@dataclass(frozen=True)
class Command:
    """One command: the words that name it, what completion offers, what it does."""

    words: tuple[str, ...]
    offers: tuple[str, ...]
    help: str
    run: Run
    #: The screens where it is of use (the line mode's help lists it there; it runs
    #: anywhere, and says why not where it cannot); empty: every screen.
    where: tuple[str, ...] = ()

    def of_use(self, screen: str) -> bool:
        return not self.where or screen in self.where


#: Every command, in the order completion offers them.
COMMANDS: list[Command] = []

#: The screens of the lobby's side (where the economy's commands are of use).
LOBBY_SIDE = ("lobby", "room", "profile", "league", "shop", "events")


def command(*words: str, help: str, offers: tuple[str, ...] | None = None,
            where: tuple[str, ...] = ()) -> Callable[[Run], Run]:
    """Declare a command named ``words`` (the first is the one completion offers, with a
    space when it takes an argument: ``"chat "``), of use on the screens ``where``."""
    def declare(run: Run) -> Run:
        names = tuple(w.strip() for w in words)
        COMMANDS.append(Command(names, offers or (words[0],), help, run, where))
        return run
    return declare


_SUITS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


def normal(text: str) -> str:
    """A line as compared: lower case, suit symbols as letters, ``10`` as ``t``, one space
    between words ("Play 10♥" and "play th" are the same)."""
    text = " ".join(text.translate(_SUITS).lower().split())
    return re.sub(r"\b10([shdc])\b", r"t\1", text)


def candidates(c: Controller) -> list[str]:
    """Completions for the current screen: what it offers first (the table's listed moves),
    then the commands."""
    out = [*c.current.offers(), *(offer for cmd in COMMANDS for offer in cmd.offers)]
    return list(dict.fromkeys(out))


def as_key(action: Action, key: str) -> Run:
    """A command that does what ``key`` does (its action, ``keymap``)."""
    return lambda c, table, rest: action(c, key)


def run(c: Controller, line: str) -> None:
    """Do ``line`` (see the module docstring): the screen's own first (the table's moves),
    then a command; anything else is one line of error."""
    line = line.strip()
    if not line:
        return
    if c.current.typed(line):
        return
    word, _sep, rest = line.partition(" ")
    found = next((cmd for cmd in COMMANDS if word.lower() in cmd.words), None)
    if found is not None:
        found.run(c, c.current.table_meant(), rest.strip())
        return
    c.error = c.current.unknown(line[:60])


# --- the commands every screen has (each screen's own are in its module) -------------------------

@command("chat ", "say", "t", help=N_("say something at this table (in the lobby: to everyone in "
                                      "the lobby)"))
def chat(c: Controller, table: Any, rest: str) -> None:
    if rest:             # in the lobby: to everyone there, not to the table chosen
        c.chat(table if c.screen in ("table", "room") else None, rest)


@command("ready", help=N_("ready: the game starts when every seat is taken and ready"),
         where=("lobby", "room"))
def ready(c: Controller, table: Any, rest: str) -> None:
    c.request("ready", table=table)


@command("bot", help=N_("add a bot to an empty seat: normal (its heuristics), easy (random-ish) "
                        "or hard (it searches for the table's budget)"),
         where=("lobby", "room"),
         offers=("bot normal", "bot easy", "bot hard"))
def bot(c: Controller, table: Any, rest: str) -> None:
    level = (rest or "normal").lower()
    if level not in BOT_LEVELS:
        c.error = f"bot {rest}: the levels are easy, normal and hard"
        return
    c.request("bots", table=table, level=level)


@command("leave", help=N_("leave the table (a bot plays your seat once the game runs)"),
         where=("lobby", "room", "table"))
def leave(c: Controller, table: Any, rest: str) -> None:
    c.current.leave(table)


@command("lobby", help=N_("back to the lobby, keeping your seat"),
         where=("room", "table", "profile", "league", "shop", "events"))
def lobby(c: Controller, table: Any, rest: str) -> None:
    c.current.to_lobby()


@command("colours", "colors", help=N_("French cards in four colours (♠ black, ♥ red, ♦ blue, "
                                      "♣ green) or in two"),
         where=("table",),
         offers=("colours four", "colours two"))
def colours(c: Controller, table: Any, rest: str) -> None:
    """None: the other way than now."""
    words = {"four": True, "4": True, "two": False, "2": False}
    if rest and rest.lower() not in words:
        c.error = _("colours four (one a suit) or colours two (red and black)")
    else:
        c.set_colours(words.get(rest.lower()) if rest else None)


@command("bell", help=N_("the bell on or off"))
def bell(c: Controller, table: Any, rest: str) -> None:
    c.toggle_bell()


@command("help", "?", help=N_("what you may do here: the keys, or the commands in the line mode"))
def help_(c: Controller, table: Any, rest: str) -> None:
    c.help = 1


@command("quit", "exit", help=N_("quit cardparty"))
def quit_(c: Controller, table: Any, rest: str) -> None:
    c.exit()

