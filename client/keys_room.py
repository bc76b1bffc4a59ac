"""The waiting room: the screen of a table this player sits at before its game starts. It
opens as soon as the seat is taken (sitting in the lobby, or creating a table) and shows the
table as the lobby knows it (seats, who is ready, settings, variants, mode) with the table's
chat; its keys ready the player, add a bot, invite, chat, leave, and the table's owner's
(its creator's, before the start): remove a player or a bot, close the table, let strangers
sit or not. The host judges who may: anyone else gets its one-line refusal. The game's first
view replaces it with the table.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.client.dialog import Choice, TextField, bot_dialog, invite_prompt
from cardparty.client.keymap import Keys
from cardparty.client.lobby_rows import created, may_add_bot, sits_at
from cardparty.client.table_model import Said
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

#: Chat lines a waiting room keeps.
ROOM_CHAT = 100

ROOM = Keys("room")


def room_of(c: Controller) -> dict[str, Any] | None:
    """The waiting room's table as the lobby lists it (None if the lobby lost it)."""
    return next((t for t in c.tables if t.get("id") == c.room_id), None)


def enter_room(c: Controller, table: Any) -> None:
    if table != c.room_id:
        c.room_chat = Said(ROOM_CHAT)
    c.room_id = table
    c.pending_room = None
    c.show("room")
    c.left_tables.discard(table)


def wait_for_room(c: Controller, table: Any) -> None:
    """A seat was asked for at ``table`` ("new": the table being created): the room opens
    once the lobby shows this player in it."""
    c.pending_room = table
    c.known_tables = {t.get("id") for t in c.tables}


def room_from_lobby(c: Controller) -> None:
    """After a lobby listing: open the room a seat was asked for, once it is ours; leave a
    room whose table is gone or that no longer seats this player."""
    if c.screen == "room":
        t = room_of(c)
        if t is not None and t.get("status") == "cancelled":
            # An entry table not full in time: nothing more happens there.
            tid = c.room_id
            c.show("lobby")
            c.room_id = None
            c.notice = c.cancelled.get(tid) or _("table {table} was cancelled").format(
                table=tid)
        elif t is None or t.get("status") == "closed":
            c.show("lobby")
            c.room_id = None
            c.notice = _("the table was closed")
        elif not sits_at(c, t):
            c.show("lobby")
            c.room_id = None
            c.notice = _("you no longer sit at that table")
        return
    want = c.pending_room
    if want is None or c.screen != "lobby":
        return
    for t in c.tables:
        new = want == "new" and t.get("id") not in c.known_tables
        if (new or t.get("id") == want) and t.get("status") == "open" and sits_at(c, t):
            enter_room(c, t.get("id"))
            return


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
    c.dialog = bot_dialog(table, lambda t, level: c.request("add_bot", table=t, level=level))



# --- the keys ----------------------------------------------------------------------------------

def taking_seats(c: Controller) -> bool:
    """The room's table still takes seats (a cancelled one does not: nothing to ready)."""
    return (room_of(c) or {}).get("status") == "open"


def bot_allowed(c: Controller) -> bool:
    return may_add_bot(c, room_of(c))


def owner(c: Controller) -> bool:
    """This player created the room's table, which has not started: its owner's keys."""
    return taking_seats(c) and created(c, room_of(c))


@ROOM.add("r", help=N_("ready: the game starts when every seat is taken and every player is "
                       "ready"), footer=N_("r: ready"), when=taking_seats)
def ready(c: Controller, key: str) -> None:
    """ready"""
    c.request("ready", table=c.room_id)


@ROOM.add("b", help=N_("add a bot to an empty seat"), footer=N_("b: bot"), when=bot_allowed)
def add_bot(c: Controller, key: str) -> None:
    """a bot in an empty seat, of the level the dialog asks: normal, easy or hard (at a
    friends table, only its creator may)"""
    ask_for_a_bot(c, c.room_id)


@ROOM.add("t", help=N_("chat with the table"), footer=N_("t: chat"))
def talk(c: Controller, key: str) -> None:
    """chat with the table"""
    tid = c.room_id
    c.dialog = TextField(_("say: "), lambda text: c.chat(tid, text) if text else None)


@ROOM.add("i", help=N_("invite players by username (a friends table)"))
def invite(c: Controller, key: str) -> None:
    """invite players by username (a friends table)"""
    tid = c.room_id
    c.dialog = TextField(invite_prompt(tid), lambda text: send_invite(c, tid, text))


@ROOM.add("l", help=N_("leave the table (the seat is freed)"), footer=N_("l: leave"))
def leave(c: Controller, key: str) -> None:
    """leave the table: the seat is freed"""
    c.request("leave", table=c.room_id)
    c.show("lobby")
    c.room_id = None


@ROOM.add("x", help=N_("your table: remove a player or a bot before the start"), when=owner)
def remove(c: Controller, key: str) -> None:
    """your table (you created it), before the start: remove a player or a bot (a choice of
    the taken seats); the player removed is back in his lobby with a line saying so"""
    ask_remove(c, c.room_id)


@ROOM.add("C", help=N_("your table: close it (everyone at it is told)"), when=owner)
def close(c: Controller, key: str) -> None:
    """your table, before the start: close it, after a yes/no question (no is the default);
    everyone at it goes back to the lobby with *the table was closed*"""
    ask_close(c, c.room_id)


@ROOM.add("s", help=N_("your table: let strangers sit or not (the invited always may)"),
          when=owner)
def strangers(c: Controller, key: str) -> None:
    """your table: strangers may sit or not (the other way than now; the invited and you
    always may); the lobby shows a table closed to strangers as *invited*"""
    set_strangers(c, c.room_id)


@ROOM.add("q", "escape", help=N_("back to the lobby, keeping the seat (Enter on it comes back)"),
          footer=N_("q: lobby"))
def keep_seat(c: Controller, key: str) -> None:
    """back to the lobby keeping the seat; Enter on the table comes back"""
    tid = c.room_id
    c.show("lobby")
    c.room_id = None
    c.notice = _("your seat at {table} is kept: Enter on it (or sit {table}) comes "
                 "back").format(table=tid)


# --- the owner's requests ------------------------------------------------------------------------

def others_seated(c: Controller, tid: Any) -> list[tuple[int, str]]:
    """The taken seats of ``tid`` but this player's: (seat index, "2. Bob")."""
    t = next((t for t in c.tables if t.get("id") == tid), None) or {}
    me = c.name.casefold()
    return [(i, f"{i + 1}. {s.get('name')}")
            for i, s in enumerate((t.get("summary") or {}).get("seats") or ())
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
        t = next((t for t in c.tables if t.get("id") == tid), None) or {}
        allow = (t.get("summary") or {}).get("strangers") is False
    c.request("strangers", table=tid, allow=allow)
