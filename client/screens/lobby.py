"""The lobby.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from cardparty.client import keys_lobby, keys_room
from cardparty.client.command_line import as_key, command
from cardparty.client.drawing import Fragments, text_lines
from cardparty.client.keymap import Action
from cardparty.client.keys_lobby import LOBBY
from cardparty.client.lobby_rows import invites_me, selected_table
from cardparty.client.render_screens import mode_text, status_text
from cardparty.client.screen import Narration, Screen
from cardparty.core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer


class LobbyScreen(Screen):
    name = "lobby"
    heading = N_("lobby")
    keys = (LOBBY,)

    def title(self, r: Renderer) -> str:
        return _("cardparty · lobby · {name} at {host}").format(
            name=self.c.name or "?", host=self.c.host or "?")

    def draw(self, r: Renderer) -> Fragments:
        return r.lobby()

    def table_meant(self) -> Any:
        return (selected_table(self.c) or {}).get("id")

    def narration(self, n: Narrator) -> Narration:
        return LobbyNarration(self, n)


# --- the lobby's commands -------------------------------------------------------------------

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
        c.show("lobby")
        c.room_id = None
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


command("seek", help=N_("open play: seek a table (the form)"),
        where=("lobby",))(as_key(keys_lobby.seek, "o"))


command("unseek", help=N_("stop waiting for a table"),
        where=("lobby",))(as_key(keys_lobby.unseek, "u"))


class LobbyNarration(Narration):
    """The lobby in the line mode: its tables when it opens, then only what changes."""

    def __init__(self, screen: Screen, n: Narrator) -> None:
        super().__init__(screen, n)
        self.rows: dict[Any, str] = {}
        self.profile = ""

    def state(self) -> Any:
        return self.screen.c.welcomed

    def opened(self) -> list[str]:
        c = self.screen.c
        self.rows = {}
        if c.link is not None and not c.welcomed:
            return []                              # the banner says what is tried
        out = [_("Lobby of {host}, as {name}.").format(host=c.host or "?", name=c.name or "?")]
        if c.profile or c.no_economy:
            self.profile = text_lines(self.n.r.screen("lobby"))[0]    # the profile line
            out.append(self.profile)
        out += self.tables()
        out.append(_("Type help for what you can do here."))
        return out

    def where(self) -> list[str]:
        return self.opened()

    def row_words(self, t: dict[str, Any]) -> str:
        """A table of the lobby in one sentence: its id, game, seats, mode and status."""
        seats = ", ".join(str(s) if s else _("(free)") for s in t.get("seats") or ())
        status = _("invited") if invites_me(self.screen.c, t) else status_text(t)
        return _("{table}: {game}, {seats}; {mode}; {status}").format(
            table=t.get("id"), game=self.n.r.game_name(str(t.get("game", "?"))), seats=seats,
            mode=mode_text(t), status=status)

    def tables(self) -> list[str]:
        """Every table of the lobby, one a line (and as said, for what changes next)."""
        c = self.screen.c
        self.rows = {t.get("id"): self.steady(t) for t in c.tables}
        if not c.tables:
            return [_("No tables yet: type create to make one, or seek for open play.")]
        out = [ngettext("{n} table:", "{n} tables:", len(c.tables)).format(n=len(c.tables))]
        return out + [self.row_words(t) for t in c.tables]

    def steady(self, t: dict[str, Any]) -> str:
        """A row's words without its countdown (``open 28s``): a table is said again when
        it changes, not every second."""
        return re.sub(r"\s\d+s\b", "", self.row_words(t))

    def changed(self) -> list[str]:
        c = self.screen.c
        if c.link is not None and not c.welcomed:
            return []
        out: list[str] = []
        if c.profile or c.no_economy:          # the profile line, when it came or changed
            line = text_lines(self.n.r.screen("lobby"))[0]
            if line != self.profile:
                self.profile = line
                out.append(line)
        now = {t.get("id"): self.steady(t) for t in c.tables}
        out += [self.row_words(t) for t in c.tables if self.rows.get(t.get("id")) != now[
            t.get("id")]]
        out += [_("table {table} is gone").format(table=tid) for tid in self.rows
                if tid not in now]
        self.rows = now
        return out
