"""The waiting room: the screen of a table this player sits at before its game starts. It
opens as soon as the seat is taken (sitting in the lobby, or creating a table) and shows the
table as the lobby knows it (seats, who is ready, settings, variants, mode) with the table's
chat; its keys ready the player, add a bot, invite, chat, leave, and the table's owner's
(its creator's, before the start): remove a player or a bot, close the table, let strangers
sit or not. The host judges who may: anyone else gets its one-line refusal. The game's first
view replaces it with the table. A mixin of ``Controller``.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from cardparty.client.dialog import Choice, TextField, bot_dialog, invite_prompt
from cardparty.core.i18n import _

#: Chat lines a waiting room keeps.
ROOM_CHAT = 100


class RoomKeys:
    """See the module docstring."""

    def room(self) -> dict[str, Any] | None:
        """The waiting room's table as the lobby lists it (None if the lobby lost it)."""
        return next((t for t in self.tables if t.get("id") == self.room_id), None)

    def enter_room(self, table: Any) -> None:
        if table != self.room_id:
            self.room_chat = deque(maxlen=ROOM_CHAT)
        self.room_id = table
        self.pending_room = None
        self.screen = "room"
        self.left_tables.discard(table)

    def wait_for_room(self, table: Any) -> None:
        """A seat was asked for at ``table`` ("new": the table being created): the room
        opens once the lobby shows this player in it."""
        self.pending_room = table
        self.known_tables = {t.get("id") for t in self.tables}

    def room_from_lobby(self) -> None:
        """After a lobby listing: open the room a seat was asked for, once it is ours; leave
        a room whose table is gone or that no longer seats this player."""
        if self.screen == "room":
            t = self.room()
            if t is None or t.get("status") == "closed":
                self.screen, self.room_id = "lobby", None
                self.notice = _("the table was closed")
            elif not self._sits_at(t):
                self.screen, self.room_id = "lobby", None
                self.notice = _("you no longer sit at that table")
            return
        want = self.pending_room
        if want is None or self.screen != "lobby":
            return
        for t in self.tables:
            new = want == "new" and t.get("id") not in self.known_tables
            if (new or t.get("id") == want) and t.get("status") == "open" \
                    and self._sits_at(t):
                self.enter_room(t.get("id"))
                return

    def _key_room(self, name: str) -> None:
        tid = self.room_id
        if name == "r":
            self._request("ready", table=tid)
        elif name == "b":
            self.dialog = bot_dialog(tid, lambda t, level: self._request(
                "add_bot", table=t, level=level))
        elif name == "i":
            self.dialog = TextField(invite_prompt(tid), lambda text: self._invite(tid, text))
        elif name == "t":
            self.dialog = TextField(_("say: "), lambda text: text and self._chat(tid, text))
        elif name == "l":
            self._request("leave", table=tid)
            self.screen, self.room_id = "lobby", None
        elif name in ("q", "escape"):
            self.screen, self.room_id = "lobby", None
            self.notice = _("your seat at {table} is kept: Enter on it comes back").format(
                table=tid)
        elif name == "x":
            self.ask_remove(tid)
        elif name == "C":
            self.ask_close(tid)
        elif name == "s":
            self.set_strangers(tid)

    # --- the owner's requests ----------------------------------------------------------------

    def others_seated(self, tid: Any) -> list[tuple[int, str]]:
        """The taken seats of ``tid`` but this player's: (seat index, "2. Bob")."""
        t = next((t for t in self.tables if t.get("id") == tid), None) or {}
        me = self.name.casefold()
        return [(i, f"{i + 1}. {s.get('name')}")
                for i, s in enumerate((t.get("summary") or {}).get("seats") or ())
                if s.get("kind") == "bot" or (s.get("kind") == "human"
                                              and str(s.get("name")).casefold() != me)]

    def ask_remove(self, tid: Any) -> None:
        """Choose whom to remove from ``tid`` (the owner frees a seat before the start)."""
        seats = self.others_seated(tid)
        if not seats:
            self.error = _("nobody else sits at this table")
            return
        self.dialog = Choice(_("remove from table {table}:").format(table=tid),
                             [(label, i) for i, label in seats],
                             lambda seat: self.remove_seat(tid, seat))

    def remove_seat(self, tid: Any, seat: int) -> None:
        self._request("remove", table=tid, seat=seat)

    def ask_close(self, tid: Any) -> None:
        """Close ``tid`` once confirmed: everyone at it is told, and it goes."""
        self.dialog = Choice(_("close table {table}? everyone at it is told").format(table=tid),
                             [(_("no, keep it"), False), (_("yes, close it"), True)],
                             lambda yes: yes and self._request("close", table=tid))

    def set_strangers(self, tid: Any, allow: bool | None = None) -> None:
        """Let strangers (neither invited nor the creator) sit at ``tid`` or not; None: the
        other way than now."""
        if allow is None:
            t = next((t for t in self.tables if t.get("id") == tid), None) or {}
            allow = (t.get("summary") or {}).get("strangers") is False
        self._request("strangers", table=tid, allow=allow)
