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
state only, so they are tested without a terminal.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import re
from typing import Any

from cardparty.client.dialog import BOT_LEVELS, Choice
from cardparty.client.table_model import wire_move
from cardparty.client.theme import label_of
from cardparty.core.i18n import _

#: Commands with what they do, for completion and ``help``.
COMMANDS: list[tuple[str, str]] = [
    ("chat ", "say something at this table (in the lobby: to everyone in the lobby)"),
    ("ready", "ready: the game starts when every seat is taken and ready"),
    ("bot normal", "add a bot to an empty seat: its heuristics"),
    ("bot easy", "add a bot to an empty seat: random-ish"),
    ("bot hard", "add a bot to an empty seat: it searches (thinks the table's budget)"),
    ("sit ", "sit at a table (its id; none: the chosen one)"),
    ("watch ", "watch a table (its id; none: the chosen one)"),
    ("create", "create a table (the form)"),
    ("invite ", "invite players by name to your friends table"),
    ("remove ", "your table: free a seat before the start (its number or the name there)"),
    ("close", "your table: close it before the start (everyone at it is told)"),
    ("strangers ", "your table: strangers on (anyone may sit) or off (the invited only)"),
    ("leave", "leave the table (a bot plays your seat once the game runs)"),
    ("lobby", "back to the lobby, keeping your seat"),
    ("again", "another round, when the round is over"),
    ("match", "the match at this table: places and scores per round, and the totals"),
    ("call", "the call (Pika!)"),
    ("sort", "sort your hand"),
    ("seek", "open play: seek a table (the form)"),
    ("unseek", "stop waiting for a table"),
    ("league", "the week's league (league 2026-W48: another week)"),
    ("shop", "the shop: gold booster, VIP pass"),
    ("buy ", "buy gold (the booster) or vip (the pass)"),
    ("bell", "the bell on or off"),
    ("help", "the keys"),
    ("quit", "quit cardparty"),
]

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


def candidates(c: Any) -> list[str]:
    """Completions for the current screen: the listed moves' labels first, then the
    commands."""
    out: list[str] = []
    if c.screen == "table":
        out += [label_of(m) for m in c.table.moves]
    out += [name for name, _ in COMMANDS]
    return list(dict.fromkeys(out))


def find_moves(c: Any, line: str) -> list[dict[str, Any]]:
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


def owner(c: Any, verb: str, table: Any, rest: str) -> None:
    """The table owner's commands: ``remove SEAT|NAME`` (no argument: the choice),
    ``close`` (asks first), ``strangers [on|off]`` (none: the other way than now)."""
    if table is None:
        c.error = _("{command}: choose a table first").format(command=verb)
    elif verb == "close":
        c.ask_close(table)
    elif verb == "strangers":
        words = {"on": True, "yes": True, "off": False, "no": False}
        if rest and rest.lower() not in words:
            c.error = _("strangers on (anyone may sit) or strangers off (the invited only)")
        else:
            c.set_strangers(table, words.get(rest.lower()))
    elif not rest:
        c.ask_remove(table)
    else:
        seats = c.others_seated(table)
        want = rest.casefold().lstrip("#")
        found = [i for i, label in seats if want == str(i + 1)
                 or want == label.split(". ", 1)[1].casefold()]
        if found:
            c.remove_seat(table, found[0])
        else:
            c.error = _("remove: nobody else sits at seat {seat} of table {table}").format(
                seat=repr(rest[:24]), table=table)


def run(c: Any, line: str) -> None:
    """Do ``line`` (see the module docstring); anything else is one line of error."""
    line = line.strip()
    if not line:
        return
    word, _sep, rest = line.partition(" ")
    verb, rest = word.lower(), rest.strip()
    if c.screen == "table":
        table = c.table_id
    elif c.screen == "room":
        table = c.room_id
    else:
        table = (c.selected_table() or {}).get("id")
    moves = find_moves(c, line)
    if moves:
        if len(moves) == 1:
            c.send(wire_move(moves[0]))
        else:
            c.dialog = Choice(_("Which {move}?").format(move=line), [(label_of(m), m)
                                                                    for m in moves],
                              lambda m: c.send(wire_move(m)))
        return
    if verb in ("chat", "say", "t"):
        if rest:             # in the lobby: to everyone there, not to the table chosen
            c._chat(table if c.screen in ("table", "room") else None, rest)
    elif verb == "ready":
        c._request("ready", table=table)
    elif verb == "bot":
        level = (rest or "normal").lower()
        if level not in BOT_LEVELS:
            c.error = f"bot {rest}: the levels are easy, normal and hard"
            return
        c._request("add_bot", table=table, level=level)
    elif verb in ("sit", "watch"):
        target = rest or table
        c._request("sit" if verb == "sit" else "spectate", table=target)
    elif verb == "create":
        c._key_lobby("c")
    elif verb == "invite":
        c._invite(table, rest)
    elif verb in ("remove", "close", "strangers"):
        owner(c, verb, table, rest)
    elif verb == "leave":
        if c.screen == "table":
            c._leave()
        elif c.screen == "room":
            c._key_room("l")
        else:
            c._request("leave", table=table)
    elif verb == "lobby":
        if c.screen == "table":
            c._leave(give_up=False)
        elif c.screen == "room":
            c._key_room("q")
    elif verb == "again":
        c._request("again", table=table)
    elif verb == "match":
        if c.screen == "table":
            c.scoreboard = True
        else:
            c.error = _("the match's scoreboard shows at a table")
    elif verb == "call":
        c._outcome(c.table.call())
    elif verb == "sort":
        c._reorder(c.table.sort_hand())
    elif verb == "seek":
        c._key_lobby("o")
    elif verb == "unseek":
        c._request("unseek")
    elif verb == "league":
        c.open_league(rest or None)
    elif verb == "shop":
        c.open_shop()
    elif verb == "buy":
        if rest.lower() not in ("gold", "vip"):
            c.error = _("buy gold (the booster) or buy vip (the pass)")
        else:
            c._request("buy", item=rest.lower())
    elif verb == "bell":
        c.toggle_bell()
    elif verb in ("help", "?"):
        c.help = 1
    elif verb in ("quit", "exit"):
        c.exit()
    else:
        c.error = (_("no move or command {line}: Tab lists what you can type")
                   if c.screen == "table" else
                   _("no command {line}: Tab lists what you can type")).format(
            line=repr(line[:60]))
