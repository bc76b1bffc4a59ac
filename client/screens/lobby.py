"""The lobby: the host's tables, one a row (up and down choose one), and its chat; its keys
sit, watch, create, add a bot, ready, invite, leave, chat with the whole lobby and quit, and
open play (o: seek, u: stop waiting). The profile, the league and the shop declare the keys
here that open them.

It owns the row chosen, and whether the create form waits for the host's games.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardparty.client.command_line import as_key, command
from cardparty.client.dialog import (
    Choice,
    CreateForm,
    SeekForm,
    TableChoice,
    TextField,
    invite_prompt,
)
from cardparty.client.drawing import Fragments, text_lines
from cardparty.client.economy_words import profile_line
from cardparty.client.keymap import Action, Keys
from cardparty.client.link import LobbyRow, Message
from cardparty.client.lobby_rows import invite_target, invites_me, may_add_bot, sits_at
from cardparty.client.render_screens import seats_width, table_heading
from cardparty.client.screen import Narration, Receiver, Screen
from cardparty.client.screens.room import (
    RoomScreen,
    ask_for_a_bot,
    enter_room,
    send_invite,
    wait_for_room,
)
from cardparty.client.screens.start import give_up
from cardparty.core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer

LOBBY = Keys("lobby")


class LobbyScreen(Screen):
    """See the module docstring."""

    name = "lobby"
    heading = N_("lobby")
    keys = (LOBBY,)

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: The row chosen (up and down), kept within the rows listed.
        self.cursor = 0
        #: "c" was pressed before the host listed its games: the form opens when they come.
        self.create_waiting = False

    def receivers(self) -> Mapping[str, Receiver]:
        return {"tables": self._tables}

    def _tables(self, msg: Message) -> None:
        c = self.c
        if msg.get("games"):
            if self.create_waiting and c.current is self and c.dialog is None:
                open_create_form(c)
            self.create_waiting = False
        self.cursor = max(0, min(self.cursor, len(c.tables) - 1))

    def title(self, r: Renderer) -> str:
        return _("cardparty · lobby · {name} at {host}").format(
            name=self.c.name or "?", host=self.c.host or "?")

    def draw(self, r: Renderer) -> Fragments:
        """The player's line, the tables (the cursor's, and a friends table waiting for him,
        marked), then as much of the lobby's chat as the screen has lines for."""
        c = self.c
        if c.link is not None and not c.welcomed and not c.tables:
            # Nothing is known of a host that never answered: no coins, no tables, no keys
            # of its lobby are stated (the banner says what is being tried).
            return r.asciify([("class:me", f" {c.name or '?'}\n\n"),
                              *r.wrapped("class:dim", _(
                                  "waiting for the host at {host} to answer: nothing to show "
                                  "yet").format(host=c.host or "?")), ("", "\n")])
        out: Fragments = [("class:me", f" {profile_line(c.profile, c.name, c.no_economy)}\n"),
                          ("class:dim", " " + _("o: open play · L: league · $: shop") + "\n\n"),
                          ("class:heading", table_heading(seats_width(r.width()))),
                          ("", "\n")]
        if not c.tables:
            out.append(("class:dim", " " + _("no tables yet: press c to create one") + "\n"))
        for i, t in enumerate(c.tables):
            style = "class:dialog.cursor" if i == self.cursor else ""
            status = None
            if invites_me(c, t):                  # a friends table waiting for this player
                status = _("invited")
                style = style or "class:notice"
            out.append((style, r.table_row(t, status) + "\n"))
        out.append(("", "\n"))
        out.append(("class:heading", " " + _("Lobby chat")))
        out.append(("class:dim", " " + _("(t: talk to everyone in the lobby)") + "\n"))
        # As many of the newest lines as the screen has rows left (the title, the banner and
        # the bottom line around the lobby), each wrapped between words.
        used = "".join(f[1] for f in out).count("\n") + 2 + (1 if c.banner else 0)
        return r.asciify(out + [("class:chat", f"{line}\n")
                                for line in r.newest_lines(c.lobby_chat, r.height() - used)])

    def table_meant(self) -> Any:
        t = selected_table(self.c)
        return t["id"] if t is not None else None

    def narration(self, n: Narrator) -> Narration:
        return LobbyNarration(self, n)


def selected_table(c: Controller) -> LobbyRow | None:
    """The table on the row chosen (None: no table listed)."""
    cursor = c.get(LobbyScreen).cursor
    if 0 <= cursor < len(c.tables):
        return c.tables[cursor]
    return None


def chosen(c: Controller) -> LobbyRow | None:
    """The table chosen; with none, the line that says how to make one."""
    t = selected_table(c)
    if t is None:
        c.error = _("no table chosen: press c to create one")
    return t


def request_chosen(c: Controller, action: str) -> None:
    """Ask the host for ``action`` at the table chosen (none: the line that says how to make
    one)."""
    t = chosen(c)
    if t is not None:
        c.request(action, table=t.get("id"))


def short_of_coins(c: Controller, req: TableChoice) -> str | None:
    """Why an entry table of ``req``'s stake cannot seat its creator, as the host would say
    it (None: it can, or the profile is not known here: the host judges)."""
    coins = (c.profile or {}).get("coins")
    stake = int(req.get("stake") or 0)
    if req.get("mode") == "entry" and isinstance(coins, int) and stake > coins:
        return _("not enough coins: the stake is {stake} and you have {have}").format(
            stake=stake, have=coins)
    return None


def open_create_form(c: Controller) -> None:
    def create(req: TableChoice) -> None:
        problem = short_of_coins(c, req)
        if problem:                           # no table made for nobody to sit at
            c.error = problem
            return
        c.request("create", **req)
        wait_for_room(c, "new")               # the creator sits at once: his room opens

    stakes = tuple((c.profile or {}).get("stakes") or (100, 250, 500, 1000))
    c.dialog = CreateForm(c.games, create, stakes=stakes)


def seek_form(c: Controller) -> None:
    stakes = tuple((c.profile or {}).get("stakes") or (100, 250, 500, 1000))
    c.dialog = SeekForm(c.games, lambda req: c.request("seek", **req), stakes=stakes)


# --- the keys ----------------------------------------------------------------------------------

@LOBBY.add("up", "down", "k", "j", help=N_("choose a table"))
def choose_table(c: Controller, key: str) -> None:
    """choose a table"""
    step = -1 if key in ("up", "k") else 1
    lobby = c.get(LobbyScreen)
    lobby.cursor = max(0, min(max(0, len(c.tables) - 1), lobby.cursor + step))


@LOBBY.add("c", help=N_("create a table (game, players, mode, stake, settings, variants)"),
           footer=N_("c: create"))
def create(c: Controller, key: str) -> None:
    """create a table (the form below); you sit at it and its waiting room opens at once"""
    if not c.games:
        c.notice = _("the host has not listed its games yet: asking again")
        c.get(LobbyScreen).create_waiting = True
        c.request("games")
        return
    open_create_form(c)


@LOBBY.add("enter", help=N_("sit at the table"), footer=N_("Enter: sit"))
def sit(c: Controller, key: str) -> None:
    """sit at the chosen table (the first free seat): its waiting room opens; on a table you
    sit at, back to its waiting room or game"""
    t = chosen(c)
    if t is None:
        return
    if t.get("status") == "open" and sits_at(c, t):
        enter_room(c, t.get("id"))            # back to the waiting room of our seat
        return
    c.request("sit", table=t.get("id"))
    wait_for_room(c, t.get("id"))


@LOBBY.add("s", help=N_("spectate the table"), footer=N_("s: watch"))
def watch(c: Controller, key: str) -> None:
    """watch the table as a spectator (you see no hand)"""
    request_chosen(c, "watch")


@LOBBY.add("o", help=N_("open play: seek a table (bots fill it after the wait)"))
def seek(c: Controller, key: str) -> None:
    """open play: seek a table of a game, a number of players and a stake; the host seats
    together those who ask the same, and bots fill the table after the wait (an entry table
    is cancelled and refunded instead)"""
    if not c.games:
        c.error = _("the host has not listed its games yet: try again in a moment")
        return
    seek_form(c)


@LOBBY.add("u", help=N_("open play: stop waiting"))
def unseek(c: Controller, key: str) -> None:
    """open play: stop waiting for a table"""
    c.request("unseek")


def bot_allowed(c: Controller) -> bool:
    return may_add_bot(c, selected_table(c))


@LOBBY.add("b", help=N_("add a bot to the table"), when=bot_allowed)
def add_bot(c: Controller, key: str) -> None:
    """add a bot to an empty seat of the chosen table: a dialog asks its level, normal
    (Enter), easy or hard (you must be seated there; at a friends table only its creator
    may)"""
    t = chosen(c)
    if t is not None:
        ask_for_a_bot(c, t.get("id"))


@LOBBY.add("r", help=N_("ready"))
def ready(c: Controller, key: str) -> None:
    """ready: the game starts by itself when every seat is taken and every player is ready"""
    request_chosen(c, "ready")


@LOBBY.add("i", help=N_("invite players by username to your friends table"))
def invite(c: Controller, key: str) -> None:
    """invite players by username to your friends table (see below)"""
    t = chosen(c)
    if t is not None:
        target = invite_target(c, t).get("id")
        c.dialog = TextField(invite_prompt(target), lambda text: send_invite(c, target, text))


@LOBBY.add("l", help=N_("leave the table"))
def leave(c: Controller, key: str) -> None:
    """leave the chosen table"""
    t = selected_table(c)
    if t is not None and t.get("id") is not None:
        c.request("leave", table=t.get("id"))


@LOBBY.add("t", help=N_("chat with everyone in the lobby"), footer=N_("t: chat"))
def talk(c: Controller, key: str) -> None:
    """chat with everyone in the lobby (below)"""
    # The lobby's talk, to everybody in the lobby; a table's is in its room.
    c.dialog = TextField(_("say to everyone in the lobby: "),
                         lambda text: c.chat(None, text) if text else None)


@LOBBY.add("q", "escape", help=N_("quit (asks first)"), footer=N_("q: quit"))
def quit_lobby(c: Controller, key: str) -> None:
    """quit (asks first)"""
    c.dialog = Choice(_("Quit cardparty?"), [(_("quit"), True), (_("stay"), False)],
                      lambda yes: c.exit() if yes else None)


def unanswered(c: Controller) -> bool:
    """The host this start screen connected to has not answered yet."""
    return not c.welcomed and c.connect is not None


@LOBBY.add("escape", help=N_("back to the start screen (the host has not answered yet)"),
           when=unanswered)
def back_to_start(c: Controller, key: str) -> None:
    """while the host has not answered yet: back to the start screen, with what you typed"""
    give_up(c)


# --- the lobby's commands -------------------------------------------------------------------

def on_row(c: Controller, rest: str, action: Action, key: str) -> None:
    """Do what ``key`` does in the lobby on the table named ``rest`` (none: the one chosen):
    the cursor goes to its row, so what follows (``ready``, the room that opens) is about
    that table, as after the key."""
    ids = [str(t.get("id")) for t in c.tables]
    if rest and rest not in ids:              # not listed yet (or on a later page): asked
        c.request("sit" if key == "enter" else "watch", table=rest)
        if key == "enter":
            wait_for_room(c, rest)
        return
    if rest:
        c.get(LobbyScreen).cursor = ids.index(rest)
    if c.screen == "room":                    # from one waiting room to another table
        c.get(RoomScreen).close()
    action(c, key)


@command("pick ", help=N_("choose a table of the lobby by its id: ready, bot, invite and leave "
                          "are about it then"),
         where=("lobby",))
def pick_command(c: Controller, table: Any, rest: str) -> None:
    """What up and down do in the lobby, by the table's id."""
    ids = [str(t.get("id")) for t in c.tables]
    if rest not in ids:
        c.error = _("no table {table} in the lobby (tables lists them)").format(
            table=repr(rest[:24]))
    else:
        c.get(LobbyScreen).cursor = ids.index(rest)
        c.notice = _("table {table} chosen").format(table=rest)


@command("sit ", help=N_("sit at a table (its id; none: the chosen one)"),
         where=("lobby", "room"))
def sit_command(c: Controller, table: Any, rest: str) -> None:
    on_row(c, rest, sit, "enter")


@command("watch ", help=N_("watch a table (its id; none: the chosen one)"),
         where=("lobby", "room"))
def watch_command(c: Controller, table: Any, rest: str) -> None:
    on_row(c, rest, watch, "s")


command("create", help=N_("create a table (the form)"),
        where=("lobby",))(as_key(create, "c"))


@command("invite ", help=N_("invite players by name to your friends table"),
         where=("lobby", "room"))
def invite_command(c: Controller, table: Any, rest: str) -> None:
    send_invite(c, table, rest)


command("seek", help=N_("open play: seek a table (the form)"),
        where=("lobby",))(as_key(seek, "o"))


command("unseek", help=N_("stop waiting for a table"),
        where=("lobby",))(as_key(unseek, "u"))


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

    def row_words(self, t: LobbyRow) -> str:
        """A table of the lobby in one sentence: its id, game, seats, mode and status."""
        return self.n.r.row_words(t)

    def tables(self) -> list[str]:
        """Every table of the lobby, one a line (and as said, for what changes next)."""
        c = self.screen.c
        self.rows = {t.get("id"): self.steady(t) for t in c.tables}
        if not c.tables:
            return [_("No tables yet: type create to make one, or seek for open play.")]
        out = [ngettext("{n} table:", "{n} tables:", len(c.tables)).format(n=len(c.tables))]
        return out + [self.row_words(t) for t in c.tables]

    def steady(self, t: LobbyRow) -> str:
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
