"""The waiting room: the screen of a table this player sits at before its game starts. It
opens as soon as the seat is taken (sitting in the lobby, or creating a table) and shows the
table as the lobby knows it (seats, who is ready, settings, variants, mode) with the table's
chat; its keys ready the player, add a bot, invite, chat, leave, and the table's owner's
(its creator's, before the start): remove a player or a bot, close the table, let strangers
sit or not. The host judges who may: anyone else gets its one-line refusal. The game's first
view replaces it with the table.

It owns which table it is the room of, the seat asked for before the room opens, and the
room's chat.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardparty.client.command_line import command
from cardparty.client.dialog import Choice, TextField, bot_dialog, invite_prompt
from cardparty.client.drawing import Fragments, plain, text_lines
from cardparty.client.keymap import Keys
from cardparty.client.link import LobbyRow, Message
from cardparty.client.lobby_rows import (
    created,
    game_of,
    may_add_bot,
    seats_of,
    sits_at,
    summary_of,
)
from cardparty.client.render_screens import settings_text
from cardparty.client.screen import Narration, Receiver, Screen
from cardparty.client.table_model import Said
from cardparty.client.words import variants_text
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer

#: Chat lines a waiting room keeps.
ROOM_CHAT = 100

ROOM = Keys("room")

class RoomScreen(Screen):
    """See the module docstring."""

    name = "room"
    keys = (ROOM,)
    wrap = True

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: The table this is the waiting room of (its id; None: no room).
        self.table: Any = None
        #: The table a seat was asked for ("new": the one being created), and the table ids
        #: listed when it was: the room opens once the lobby shows this player there.
        self.asked: Any = None
        self.listed: set[Any] = set()
        #: The room's chat (the table's log takes it in when the game starts).
        self.said = Said(ROOM_CHAT)

    def row(self) -> LobbyRow | None:
        """The room's table as the lobby lists it (None if the lobby lost it)."""
        return next((t for t in self.c.tables if t.get("id") == self.table), None)

    def enter(self, table: Any) -> None:
        """Show the waiting room of ``table`` (a seat there is ours)."""
        if table != self.table:
            self.said = Said(ROOM_CHAT)
        self.table = table
        self.asked = None
        self.c.show(self.name)
        self.c.came_back(table)

    def wait_for(self, table: Any) -> None:
        """A seat was asked for at ``table``: the room opens once the lobby shows it."""
        self.asked = table
        self.listed = {t.get("id") for t in self.c.tables}

    def close(self) -> None:
        """Back to the lobby: no room shows any more (a seat there may be kept)."""
        self.c.show("lobby")
        self.table = None

    def handed_over(self, table: Any) -> list[str]:
        """The game of ``table`` starts: the room's talk, if it was this room's (the table's
        log goes on with it), and the room closes."""
        said = list(self.said) if table == self.table else []
        self.table = None
        return said

    def receivers(self) -> Mapping[str, Receiver]:
        return {"tables": self._tables, "error": self._error}

    def _error(self, msg: Message) -> None:
        self.asked = None

    def _tables(self, msg: Message) -> None:
        """After a lobby listing: open the room a seat was asked for, once it is ours; leave
        a room whose table is gone or that no longer seats this player."""
        c = self.c
        if c.current is self:
            t = self.row()
            tid = self.table
            if t is not None and t.get("status") == "cancelled":
                # An entry table not full in time: nothing more happens there.
                self.close()
                c.notice = c.cancelled.get(tid) or _("table {table} was cancelled").format(
                    table=tid)
            elif t is None or t.get("status") == "closed":
                self.close()
                c.notice = _("the table was closed")
            elif not sits_at(c, t):
                self.close()
                c.notice = _("you no longer sit at that table")
            return
        want = self.asked
        if want is None or c.screen != "lobby":
            return
        for t in c.tables:
            new = want == "new" and t.get("id") not in self.listed
            if (new or t.get("id") == want) and t.get("status") == "open" and sits_at(c, t):
                self.enter(t.get("id"))
                return

    def chat(self, table: Any, line: str) -> bool:
        if table != self.table:
            return False
        self.said.append(line)
        return True

    def title(self, r: Renderer) -> str:
        t = self.row()
        return _("{game} · table {table} · waiting room · you: {name}").format(
            game=r.game_name(t["game"] if t is not None else "?"), table=self.table,
            name=self.c.name or "?")

    def draw(self, r: Renderer) -> Fragments:
        """The waiting room: the table's lobby row, its seats one per line with who is ready,
        its settings and variants, and its chat."""
        t = self.row()
        if t is None:
            return r.asciify([("class:dim", " " + _("waiting for the host to list the "
                                                     "table..."))])
        seats, waiting = r.room_seats(seats_of(t))
        top = [*r.room_row(t), *seats, *r.room_rules(t, t["summary"]), *r.room_start(waiting)]
        return r.asciify([*top, *r.room_chat(self.said, r.lines_in(top))])

    def prompt(self) -> str:
        return _("waiting room {table}: ").format(table=self.table)

    def table_meant(self) -> Any:
        return self.table

    def narration(self, n: Narrator) -> Narration:
        return RoomNarration(self, n)

    def leave(self, table: Any) -> None:
        leave(self.c, "l")

    def to_lobby(self) -> None:
        keep_seat(self.c, "q")





def room_of(c: Controller) -> LobbyRow | None:
    """The waiting room's table as the lobby lists it (None if the lobby lost it)."""
    return c.get(RoomScreen).row()


def enter_room(c: Controller, table: Any) -> None:
    """Show the waiting room of ``table`` (a seat there is ours)."""
    c.get(RoomScreen).enter(table)


def wait_for_room(c: Controller, table: Any) -> None:
    """A seat was asked for at ``table`` ("new": the table being created): the room opens
    once the lobby shows this player in it."""
    c.get(RoomScreen).wait_for(table)


def send_invite(c: Controller, table: Any, text: str) -> None:
    """Send the names typed (separated by commas, or by spaces when there is no comma)."""
    parts = text.split(",") if "," in text else text.split()
    names = list(dict.fromkeys(p.strip() for p in parts if p.strip()))
    if not names:
        return
    if len(names) > 16 or any(len(n) > 32 for n in names):
        c.error = _("invite at most 16 names at once, each of at most 32 letters")
        return
    c.request("invite", table=table, names=names)


def ask_for_a_bot(c: Controller, table: Any) -> None:
    """The level dialog, then a bot of that level at ``table`` (the lobby's and the room's
    ``b``)."""
    c.dialog = bot_dialog(table, lambda t, level: c.request("bots", table=t, level=level))



# --- the keys ----------------------------------------------------------------------------------

def taking_seats(c: Controller) -> bool:
    """The room's table still takes seats (a cancelled one does not: nothing to ready)."""
    t = room_of(c)
    return t is not None and t["status"] == "open"


def bot_allowed(c: Controller) -> bool:
    return may_add_bot(c, room_of(c))


def owner(c: Controller) -> bool:
    """This player created the room's table, which has not started: its owner's keys."""
    return taking_seats(c) and created(c, room_of(c))


@ROOM.add("r", help=N_("ready: the game starts when every seat is taken and every player is "
                       "ready"), footer=N_("r: ready"), when=taking_seats)
def ready(c: Controller, key: str) -> None:
    """ready"""
    c.request("ready", table=c.get(RoomScreen).table)


@ROOM.add("b", help=N_("add a bot to an empty seat"), footer=N_("b: bot"), when=bot_allowed)
def add_bot(c: Controller, key: str) -> None:
    """a bot in an empty seat, of the level the dialog asks: normal, easy or hard (at a
    friends table, only its creator may)"""
    ask_for_a_bot(c, c.get(RoomScreen).table)


@ROOM.add("t", help=N_("chat with the table"), footer=N_("t: chat"))
def talk(c: Controller, key: str) -> None:
    """chat with the table"""
    tid = c.get(RoomScreen).table
    c.dialog = TextField(_("say: "), lambda text: c.chat(tid, text) if text else None)


@ROOM.add("i", help=N_("invite players by username (a friends table)"))
def invite(c: Controller, key: str) -> None:
    """invite players by username (a friends table)"""
    tid = c.get(RoomScreen).table
    c.dialog = TextField(invite_prompt(tid), lambda text: send_invite(c, tid, text))


@ROOM.add("l", help=N_("leave the table (the seat is freed)"), footer=N_("l: leave"))
def leave(c: Controller, key: str) -> None:
    """leave the table: the seat is freed"""
    c.request("leave", table=c.get(RoomScreen).table)
    c.get(RoomScreen).close()


@ROOM.add("x", help=N_("your table: remove a player or a bot before the start"), when=owner)
def remove(c: Controller, key: str) -> None:
    """your table (you created it), before the start: remove a player or a bot (a choice of
    the taken seats); the player removed is back in his lobby with a line saying so"""
    ask_remove(c, c.get(RoomScreen).table)


@ROOM.add("C", help=N_("your table: close it (everyone at it is told)"), when=owner)
def close(c: Controller, key: str) -> None:
    """your table, before the start: close it, after a yes/no question (no is the default);
    everyone at it goes back to the lobby with *the table was closed*"""
    ask_close(c, c.get(RoomScreen).table)


@ROOM.add("s", help=N_("your table: let strangers sit or not (the invited always may)"),
          when=owner)
def strangers(c: Controller, key: str) -> None:
    """your table: strangers may sit or not (the other way than now; the invited and you
    always may); the lobby shows a table closed to strangers as *invited*"""
    set_strangers(c, c.get(RoomScreen).table)


@ROOM.add("q", "escape", help=N_("back to the lobby, keeping the seat (Enter on it comes back)"),
          footer=N_("q: lobby"))
def keep_seat(c: Controller, key: str) -> None:
    """back to the lobby keeping the seat; Enter on the table comes back"""
    tid = c.get(RoomScreen).table
    c.get(RoomScreen).close()
    c.notice = _("your seat at {table} is kept: Enter on it (or sit {table}) comes "
                 "back").format(table=tid)


# --- the owner's requests ------------------------------------------------------------------------

def others_seated(c: Controller, tid: Any) -> list[tuple[int, str]]:
    """The taken seats of ``tid`` but this player's: (seat index, "2. Bob")."""
    me = c.name.casefold()
    return [(i, f"{i + 1}. {s.get('name')}")
            for i, s in enumerate((summary_of(c, tid) or {"id": tid, "game": ""}).get("seats")
                                  or ())
            if s.get("kind") == "bot" or (s.get("kind") == "human"
                                          and str(s.get("name")).casefold() != me)]


def ask_remove(c: Controller, tid: Any) -> None:
    """Choose whom to remove from ``tid`` (the owner frees a seat before the start)."""
    seats = others_seated(c, tid)
    if not seats:
        c.error = _("nobody else sits at this table")
        return
    c.dialog = Choice(_("remove from table {table}:").format(table=tid),
                      [(label, i) for i, label in seats],
                      lambda seat: remove_seat(c, tid, seat))


def remove_seat(c: Controller, tid: Any, seat: int) -> None:
    c.request("remove", table=tid, seat=seat)


def ask_close(c: Controller, tid: Any) -> None:
    """Close ``tid`` once confirmed: everyone at it is told, and it goes."""
    c.dialog = Choice(_("close table {table}? everyone at it is told").format(table=tid),
                      [(_("no, keep it"), False), (_("yes, close it"), True)],
                      lambda yes: c.request("close", table=tid) if yes else None)


def set_strangers(c: Controller, tid: Any, allow: bool | None = None) -> None:
    """Let strangers (neither invited nor the creator) sit at ``tid`` or not; None: the
    other way than now."""
    if allow is None:
        summary = summary_of(c, tid)
        allow = summary is not None and summary.get("strangers") is False
    c.request("strangers", table=tid, allow=allow)


# --- the owner's commands -------------------------------------------------------------------

@command("remove ", help=N_("your table: free a seat before the start (its number or the name "
                            "there)"),
         where=("room",))
def remove_command(c: Controller, table: Any, rest: str) -> None:
    """No argument: the choice of ``x``."""
    if table is None:
        c.error = _("{command}: choose a table first").format(command="remove")
    elif not rest:
        ask_remove(c, table)
    else:
        want = rest.casefold().lstrip("#")
        found = [i for i, label in others_seated(c, table)
                 if want == str(i + 1) or want == label.split(". ", 1)[1].casefold()]
        if found:
            remove_seat(c, table, found[0])
        else:
            c.error = _("remove: nobody else sits at seat {seat} of table {table}").format(
                seat=repr(rest[:24]), table=table)


@command("close", help=N_("your table: close it before the start (everyone at it is told)"),
         where=("room",))
def close_command(c: Controller, table: Any, rest: str) -> None:
    """Asks first, as ``C``."""
    if table is None:
        c.error = _("{command}: choose a table first").format(command="close")
    else:
        ask_close(c, table)


@command("strangers ", help=N_("your table: strangers on (anyone may sit) or off (the invited "
                               "only)"),
         where=("room",))
def strangers_command(c: Controller, table: Any, rest: str) -> None:
    """None: the other way than now."""
    words = {"on": True, "yes": True, "off": False, "no": False}
    if table is None:
        c.error = _("{command}: choose a table first").format(command="strangers")
    elif rest and rest.lower() not in words:
        c.error = _("strangers on (anyone may sit) or strangers off (the invited only)")
    else:
        set_strangers(c, table, words.get(rest.lower()))


class RoomNarration(Narration):
    """The waiting room in the line mode: its seats, settings and what it waits for, then
    what changes."""

    def __init__(self, screen: Screen, n: Narrator) -> None:
        super().__init__(screen, n)
        self.room: list[str] = []
        self.chat_seen: Said | None = None
        self.total = 0

    def chat(self) -> list[str]:
        """The room's chat said since the last call (a new room's: none of it before)."""
        said = self.c.get(RoomScreen).said
        if said is not self.chat_seen:
            self.chat_seen, self.total = said, said.total
            return []
        out = said.since(self.total)
        self.total = said.total
        return out

    def now(self) -> list[str]:
        """The waiting room in lines: its table, seats, settings and what it waits for."""
        c = self.screen.c
        t = c.get(RoomScreen).row()
        if t is None:
            return [_("waiting for the host to list the table...")]
        summary = t["summary"]
        seats, waiting = self.n.r.room_seats(seats_of(t))
        lines = [self.n.r.row_words(t), *text_lines(seats)[1:]]
        game = game_of(c, t.get("game"))
        lines.append(_("Settings:") + " " + (settings_text(summary.get("settings") or {}, game)
                                            or _("the game's defaults")))
        variants = variants_text(summary.get("variants") or (), game)
        if variants:
            lines.append(_("Variants:") + " " + variants)
        lines += text_lines(self.n.r.room_start(waiting))
        return lines

    def opened(self) -> list[str]:
        self.room = []
        return [plain(self.n.r.title()[0][1]), *self.changed()]

    def changed(self) -> list[str]:
        chat = self.chat()
        now = self.now()
        if not self.room:
            self.room = now
            return [*chat, *now, _("Type ready when you are; help says the rest.")]
        out = [line for line in now if line not in self.room]
        self.room = now
        return [*chat, *out]

    def where(self) -> list[str]:
        return self.now()
