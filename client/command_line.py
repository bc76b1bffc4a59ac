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

from cardparty.client import keys_economy, keys_lobby, keys_room, keys_table
from cardparty.client.dialog import BOT_LEVELS, Choice
from cardparty.client.keymap import Action
from cardparty.client.lobby_rows import selected_table
from cardparty.client.table_model import wire_move
from cardparty.client.theme import label_of
from cardparty.core.i18n import _

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


#: Every command, in the order completion offers them.
COMMANDS: list[Command] = []


def command(*words: str, help: str, offers: tuple[str, ...] | None = None
            ) -> Callable[[Run], Run]:
    """Declare a command named ``words`` (the first is the one completion offers, with a
    space when it takes an argument: ``"chat "``)."""
    def declare(run: Run) -> Run:
        names = tuple(w.strip() for w in words)
        COMMANDS.append(Command(names, offers or (words[0],), help, run))
        return run
    return declare


_SUITS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


def normal(text: str) -> str:
    """A line as compared: lower case, suit symbols as letters, ``10`` as ``t``, one space
    between words ("Play 10♥" and "play th" are the same)."""
    text = " ".join(text.translate(_SUITS).lower().split())
    return re.sub(r"\b10([shdc])\b", r"t\1", text)


def move_words(move: dict[str, Any]) -> list[str]:
    """The ways to type ``move``: its label as shown, and its kind with its cards."""
    label = label_of(move)
    plain = " ".join([str(move["kind"]), *[str(c) for c in move.get("cards") or ()]])
    return list(dict.fromkeys([label, plain]))


def candidates(c: Controller) -> list[str]:
    """Completions for the current screen: the listed moves' labels first, then the
    commands."""
    out: list[str] = []
    if c.screen == "table":
        out += [label_of(m) for m in c.table.moves]
    out += [offer for cmd in COMMANDS for offer in cmd.offers]
    return list(dict.fromkeys(out))


def find_moves(c: Controller, line: str) -> list[dict[str, Any]]:
    """The listed moves ``line`` names: by label or kind-and-cards exactly; else the same
    kind with the same cards in any order; else the only label that starts so."""
    moves = c.table.moves if c.screen == "table" else []
    want = normal(line)
    exact = [m for m in moves if want in {normal(w) for w in move_words(m)}]
    if exact:
        return exact
    words = want.split()
    if len(words) > 1:
        kind, cards = words[0], sorted(words[1:])
        same = [m for m in moves if str(m["kind"]).lower() == kind
                and sorted(normal(str(x)) for x in m.get("cards") or ()) == cards]
        if same:
            return same
    starts = [m for m in moves if any(normal(w).startswith(want) for w in move_words(m))]
    return starts if len(starts) == 1 else []


def as_key(action: Action, key: str) -> Run:
    """A command that does what ``key`` does (its action, ``keymap``)."""
    return lambda c, table, rest: action(c, key)


def table_meant(c: Controller) -> Any:
    """The table a command is about: the one on screen, else the one chosen in the lobby."""
    if c.screen == "table":
        return c.table_id
    if c.screen == "room":
        return c.room_id
    return (selected_table(c) or {}).get("id")


def play_moves(c: Controller, line: str, moves: list[dict[str, Any]]) -> None:
    """The listed moves a line named: the one sent, or a choice among several."""
    if len(moves) == 1:
        keys_table.send_move(c, wire_move(moves[0]))
        return
    c.dialog = Choice(_("Which {move}?").format(move=line), [(label_of(m), m) for m in moves],
                      lambda m: keys_table.send_move(c, wire_move(m)))


def run(c: Controller, line: str) -> None:
    """Do ``line`` (see the module docstring); anything else is one line of error."""
    line = line.strip()
    if not line:
        return
    moves = find_moves(c, line)
    if moves:
        play_moves(c, line, moves)
        return
    word, _sep, rest = line.partition(" ")
    found = next((cmd for cmd in COMMANDS if word.lower() in cmd.words), None)
    if found is not None:
        found.run(c, table_meant(c), rest.strip())
        return
    c.error = (_("no move or command {line}: Tab lists what you can type")
               if c.screen == "table" else
               _("no command {line}: Tab lists what you can type")).format(
        line=repr(line[:60]))


# --- the commands ------------------------------------------------------------------------------

@command("chat ", "say", "t", help="say something at this table (in the lobby: to everyone in "
                                   "the lobby)")
def chat(c: Controller, table: Any, rest: str) -> None:
    if rest:             # in the lobby: to everyone there, not to the table chosen
        c.chat(table if c.screen in ("table", "room") else None, rest)


@command("ready", help="ready: the game starts when every seat is taken and ready")
def ready(c: Controller, table: Any, rest: str) -> None:
    c.request("ready", table=table)


@command("bot", help="add a bot to an empty seat: normal (its heuristics), easy (random-ish) "
                     "or hard (it searches for the table's budget)",
         offers=("bot normal", "bot easy", "bot hard"))
def bot(c: Controller, table: Any, rest: str) -> None:
    level = (rest or "normal").lower()
    if level not in BOT_LEVELS:
        c.error = f"bot {rest}: the levels are easy, normal and hard"
        return
    c.request("add_bot", table=table, level=level)


def on_row(c: Controller, rest: str, action: Action, key: str) -> None:
    """Do what ``key`` does in the lobby on the table named ``rest`` (none: the one chosen):
    the cursor goes to its row, so what follows (``ready``, the room that opens) is about
    that table, as after the key."""
    ids = [str(t.get("id")) for t in c.tables]
    if rest and rest not in ids:              # not listed yet (or on a later page): asked
        c.request("sit" if key == "enter" else "spectate", table=rest)
        if key == "enter":
            keys_room.wait_for_room(c, rest)
        return
    if rest:
        c.lobby_cursor = ids.index(rest)
    if c.screen == "room":                    # from one waiting room to another table
        c.screen, c.room_id = "lobby", None
    action(c, key)


@command("sit ", help="sit at a table (its id; none: the chosen one)")
def sit(c: Controller, table: Any, rest: str) -> None:
    on_row(c, rest, keys_lobby.sit, "enter")


@command("watch ", help="watch a table (its id; none: the chosen one)")
def watch(c: Controller, table: Any, rest: str) -> None:
    on_row(c, rest, keys_lobby.watch, "s")


command("create", help="create a table (the form)")(as_key(keys_lobby.create, "c"))


@command("invite ", help="invite players by name to your friends table")
def invite(c: Controller, table: Any, rest: str) -> None:
    keys_room.send_invite(c, table, rest)


@command("remove ", help="your table: free a seat before the start (its number or the name "
                         "there)")
def remove(c: Controller, table: Any, rest: str) -> None:
    """No argument: the choice of ``x``."""
    if table is None:
        c.error = _("{command}: choose a table first").format(command="remove")
    elif not rest:
        keys_room.ask_remove(c, table)
    else:
        want = rest.casefold().lstrip("#")
        found = [i for i, label in keys_room.others_seated(c, table)
                 if want == str(i + 1) or want == label.split(". ", 1)[1].casefold()]
        if found:
            keys_room.remove_seat(c, table, found[0])
        else:
            c.error = _("remove: nobody else sits at seat {seat} of table {table}").format(
                seat=repr(rest[:24]), table=table)


@command("close", help="your table: close it before the start (everyone at it is told)")
def close(c: Controller, table: Any, rest: str) -> None:
    """Asks first, as ``C``."""
    if table is None:
        c.error = _("{command}: choose a table first").format(command="close")
    else:
        keys_room.ask_close(c, table)


@command("strangers ", help="your table: strangers on (anyone may sit) or off (the invited "
                            "only)")
def strangers(c: Controller, table: Any, rest: str) -> None:
    """None: the other way than now."""
    words = {"on": True, "yes": True, "off": False, "no": False}
    if table is None:
        c.error = _("{command}: choose a table first").format(command="strangers")
    elif rest and rest.lower() not in words:
        c.error = _("strangers on (anyone may sit) or strangers off (the invited only)")
    else:
        keys_room.set_strangers(c, table, words.get(rest.lower()))


@command("leave", help="leave the table (a bot plays your seat once the game runs)")
def leave(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        keys_table.leave_table(c)
    elif c.screen == "room":
        keys_room.leave(c, "l")
    else:
        c.request("leave", table=table)


@command("lobby", help="back to the lobby, keeping your seat")
def lobby(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        keys_table.leave_table(c, give_up=False)
    elif c.screen == "room":
        keys_room.keep_seat(c, "q")


@command("again", help="another round, when the round is over")
def again(c: Controller, table: Any, rest: str) -> None:
    c.request("again", table=table)


@command("match", help="the match at this table: places and scores per round, and the totals")
def match(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        keys_table.match(c, "m")
    else:
        c.error = _("the match's scoreboard shows at a table")


command("call", help="the call (Pika!)")(as_key(keys_table.call, "p"))


command("hint", help="what the hard bot would play from your seat, and why (practice tables "
        "and tables with hints)")(as_key(keys_table.ask_hint, "h"))


command("sort", help="sort your hand")(as_key(keys_table.sort, "o"))


command("seek", help="open play: seek a table (the form)")(as_key(keys_lobby.seek, "o"))


command("unseek", help="stop waiting for a table")(as_key(keys_lobby.unseek, "u"))


@command("profile", help="your profile and your recent rewards")
def profile(c: Controller, table: Any, rest: str) -> None:
    keys_economy.open_profile(c)


@command("league", help="the week's league (league 2026-W48: another week)")
def league(c: Controller, table: Any, rest: str) -> None:
    keys_economy.open_league(c, rest or None)


@command("shop", help="the shop: gold booster, VIP pass")
def shop(c: Controller, table: Any, rest: str) -> None:
    keys_economy.open_shop(c)


@command("buy ", help="buy gold (the booster) or vip (the pass)")
def buy(c: Controller, table: Any, rest: str) -> None:
    if rest.lower() not in ("gold", "vip"):
        c.error = _("buy gold (the booster) or buy vip (the pass)")
    else:
        c.request("buy", item=rest.lower())


@command("bell", help="the bell on or off")
def bell(c: Controller, table: Any, rest: str) -> None:
    c.toggle_bell()


@command("help", "?", help="the keys")
def help_(c: Controller, table: Any, rest: str) -> None:
    c.help = 1


@command("quit", "exit", help="quit cardparty")
def quit_(c: Controller, table: Any, rest: str) -> None:
    c.exit()
