"""The waiting room.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.client import keys_room
from cardparty.client.command_line import command
from cardparty.client.drawing import Fragments, plain, text_lines
from cardparty.client.keys_room import ROOM, room_of
from cardparty.client.render_screens import settings_text
from cardparty.client.screen import Narration, Screen
from cardparty.client.screens.lobby import LobbyNarration
from cardparty.client.words import variants_text
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer


class RoomScreen(Screen):
    name = "room"
    keys = (ROOM,)
    wrap = True

    def title(self, r: Renderer) -> str:
        t = room_of(self.c) or {}
        return _("{game} · table {table} · waiting room · you: {name}").format(
            game=r.game_name(str(t.get("game", "?"))), table=self.c.room_id,
            name=self.c.name or "?")

    def draw(self, r: Renderer) -> Fragments:
        return r.room()

    def prompt(self) -> str:
        return _("waiting room {table}: ").format(table=self.c.room_id)

    def table_meant(self) -> Any:
        return self.c.room_id

    def narration(self, n: Narrator) -> Narration:
        return RoomNarration(self, n)

    def leave(self, table: Any) -> None:
        keys_room.leave(self.c, "l")

    def to_lobby(self) -> None:
        keys_room.keep_seat(self.c, "q")


# --- the owner's commands -------------------------------------------------------------------

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


class RoomNarration(Narration):
    """The waiting room in the line mode: its seats, settings and what it waits for, then
    what changes."""

    def __init__(self, screen: Screen, n: Narrator) -> None:
        super().__init__(screen, n)
        self.room: list[str] = []

    def now(self) -> list[str]:
        """The waiting room in lines: its table, seats, settings and what it waits for."""
        c = self.screen.c
        t = room_of(c)
        if t is None:
            return [_("waiting for the host to list the table...")]
        summary = t.get("summary") or {}
        seats, waiting = self.n.r.room_seats(summary.get("seats") or ())
        lobby = self.n.narration(LobbyNarration)
        lines = [lobby.row_words(t), *text_lines(seats)[1:]]
        game = next((g for g in c.games if g.get("id") == t.get("game")), {})
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
        now = self.now()
        if not self.room:
            self.room = now
            return [*now, _("Type ready when you are; help says the rest.")]
        out = [line for line in now if line not in self.room]
        self.room = now
        return out

    def where(self) -> list[str]:
        return self.now()
