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

from cardparty.client import (
    keys_economy,
    keys_events,
    keys_lobby,
    keys_records,
    keys_room,
    keys_table,
)
from cardparty.client.dialog import BOT_LEVELS, Choice
from cardparty.client.keymap import Action
from cardparty.client.lobby_rows import selected_table
from cardparty.client.table_model import wire_move
from cardparty.client.theme import label_of
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


@command("pick ", help=N_("choose a table of the lobby by its id: ready, bot, invite and leave "
                          "are about it then"),
         where=("lobby",))
def pick(c: Controller, table: Any, rest: str) -> None:
    """What up and down do in the lobby, by the table's id."""
    ids = [str(t.get("id")) for t in c.tables]
    if rest not in ids:
        c.error = _("no table {table} in the lobby (tables lists them)").format(
            table=repr(rest[:24]))
    else:
        c.lobby_cursor = ids.index(rest)
        c.notice = _("table {table} chosen").format(table=rest)


@command("sit ", help=N_("sit at a table (its id; none: the chosen one)"),
         where=("lobby", "room"))
def sit(c: Controller, table: Any, rest: str) -> None:
    on_row(c, rest, keys_lobby.sit, "enter")


@command("watch ", help=N_("watch a table (its id; none: the chosen one)"),
         where=("lobby", "room"))
def watch(c: Controller, table: Any, rest: str) -> None:
    on_row(c, rest, keys_lobby.watch, "s")


command("create", help=N_("create a table (the form)"),
        where=("lobby",))(as_key(keys_lobby.create, "c"))


@command("invite ", help=N_("invite players by name to your friends table"),
         where=("lobby", "room"))
def invite(c: Controller, table: Any, rest: str) -> None:
    keys_room.send_invite(c, table, rest)


@command("remove ", help=N_("your table: free a seat before the start (its number or the name "
                            "there)"),
         where=("room",))
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


@command("close", help=N_("your table: close it before the start (everyone at it is told)"),
         where=("room",))
def close(c: Controller, table: Any, rest: str) -> None:
    """Asks first, as ``C``."""
    if table is None:
        c.error = _("{command}: choose a table first").format(command="close")
    else:
        keys_room.ask_close(c, table)


@command("strangers ", help=N_("your table: strangers on (anyone may sit) or off (the invited "
                               "only)"),
         where=("room",))
def strangers(c: Controller, table: Any, rest: str) -> None:
    """None: the other way than now."""
    words = {"on": True, "yes": True, "off": False, "no": False}
    if table is None:
        c.error = _("{command}: choose a table first").format(command="strangers")
    elif rest and rest.lower() not in words:
        c.error = _("strangers on (anyone may sit) or strangers off (the invited only)")
    else:
        keys_room.set_strangers(c, table, words.get(rest.lower()))


@command("leave", help=N_("leave the table (a bot plays your seat once the game runs)"),
         where=("lobby", "room", "table"))
def leave(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        keys_table.leave_table(c)
    elif c.screen == "room":
        keys_room.leave(c, "l")
    else:
        c.request("leave", table=table)


@command("lobby", help=N_("back to the lobby, keeping your seat"),
         where=("room", "table", "profile", "league", "shop", "events"))
def lobby(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and c.table.over:
        keys_table.back_to_lobby(c, "l")
    elif c.screen == "table":
        keys_table.leave_table(c, give_up=False)
    elif c.screen == "room":
        keys_room.keep_seat(c, "q")
    elif c.screen in ("profile", "league", "shop"):
        keys_economy.back_to_lobby(c, "q")
    elif c.screen == "events":
        keys_events.back_to_lobby(c, "q")


@command("again", help=N_("another round, when the round is over"),
         where=("table",))
def again(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and keys_table.plays_again(c):
        keys_table.again(c, "n")
    else:
        c.request("again", table=table)


@command("back", help=N_("take your seat back from the bot that plays it (your turn timed out)"),
         where=("table",))
def back(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and table is not None:
        keys_table.take_seat_back(c, "enter")
    else:
        c.error = _("{command}: at a table where a bot plays for you").format(command="back")


@command("put ", help=N_("put a card of your hand at a place: put 7h 1 (the first), the order "
                         "is yours"),
         where=("table",))
def put(c: Controller, table: Any, rest: str) -> None:
    words = rest.split()
    hand = c.table.hand if c.screen == "table" else []
    found = [i for i, code in enumerate(hand)
             if words and normal(label_of({"kind": "", "cards": [code], "label": code})
                                 ) == normal(words[0])
             or words and normal(code) == normal(words[0])]
    if len(words) != 2 or not words[1].isdigit() or not found:
        c.error = _("put CARD PLACE: a card of your hand and its place, e.g. put 7h 1")
        return
    order = list(hand)
    card = order.pop(found[0])
    order.insert(max(0, min(len(order), int(words[1]) - 1)), card)
    keys_table.reorder(c, order)


@command("match", help=N_("the match at this table: places and scores per round, and the totals"),
         where=("table",))
def match(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        keys_table.match(c, "m")
    else:
        c.error = _("the match's scoreboard shows at a table")


command("call", help=N_("the call (Pika!)"),
        where=("table",))(as_key(keys_table.call, "p"))


command("hint", help=N_("what the hard bot would play from your seat, and why (practice tables "
                        "and tables with hints)"),
        where=("table",))(as_key(keys_table.ask_hint, "h"))


command("sort", help=N_("sort your hand"),
        where=("table",))(as_key(keys_table.sort, "o"))


command("seek", help=N_("open play: seek a table (the form)"),
        where=("lobby",))(as_key(keys_lobby.seek, "o"))


command("unseek", help=N_("stop waiting for a table"),
        where=("lobby",))(as_key(keys_lobby.unseek, "u"))


@command("profile", help=N_("your profile and your recent rewards"),
         where=LOBBY_SIDE)
def profile(c: Controller, table: Any, rest: str) -> None:
    keys_economy.open_profile(c)


@command("league", help=N_("the week's league (league 2026-W48, league older, league newer: "
                           "another week)"),
         where=LOBBY_SIDE)
def league(c: Controller, table: Any, rest: str) -> None:
    """``league older`` and ``league newer``: the weeks beside the one shown (left, right)."""
    if c.screen == "league" and rest.lower() in ("older", "newer"):
        keys_economy.other_week(c, "left" if rest.lower() == "older" else "right")
    else:
        keys_economy.open_league(c, rest or None)


@command("shop", help=N_("the shop: gold booster, VIP pass"),
         where=LOBBY_SIDE)
def shop(c: Controller, table: Any, rest: str) -> None:
    keys_economy.open_shop(c)


@command("buy ", help=N_("buy gold (the booster) or vip (the pass)"),
         where=("shop", "profile"))
def buy(c: Controller, table: Any, rest: str) -> None:
    if rest.lower() not in ("gold", "vip"):
        c.error = _("buy gold (the booster) or buy vip (the pass)")
    else:
        c.request("buy", item=rest.lower())


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


@command("events", help=N_("the host's events: sign up, standings"), where=LOBBY_SIDE)
def events(c: Controller, table: Any, rest: str) -> None:
    keys_events.open_events(c)


@command("history", help=N_("your finished rounds at this host (Enter replays one)"),
         where=LOBBY_SIDE)
def history(c: Controller, table: Any, rest: str) -> None:
    keys_records.open_history(c)


@command("signup", help=N_("sign up for the event shown (or enter late, or come back)"),
         where=("events",))
def signup(c: Controller, table: Any, rest: str) -> None:
    keys_events.join(c, "enter")


@command("withdraw", help=N_("withdraw from the event shown"), where=("events",))
def withdraw(c: Controller, table: Any, rest: str) -> None:
    keys_events.withdraw(c, "w")


@command("export", help=N_("write the standings of the event shown as CSV and as a web page"),
         where=("events",))
def export(c: Controller, table: Any, rest: str) -> None:
    keys_events.export(c, "x")
