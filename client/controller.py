"""The client's state machine: which screen shows, what each key does there, and what each
message from the link changes.

Screens: ``start`` (name and host address; the place for hosts found on the LAN), ``lobby``
(tables, create, sit, spectate, bots, ready, invite; the player's profile; open play),
``league`` and ``shop`` (``keys_economy``), ``room`` (the waiting room of a table
this player sits at before its game starts), ``table`` (one table's view; the end of a round
shows places and scores over it). Over any screen: a dialog (choices, a text field, the
create form), the help, or the command line (``command_line``). The keys of each screen live
in ``keys_lobby``, ``keys_room`` and ``keys_table``. Keys arrive as prompt-toolkit key names
("enter", "left", "s-left", "tab", "escape", "c-c", or the typed character) so that the whole
client can be driven and tested without a terminal; ``app`` only draws this state and forwards keys.

Any key in any state is safe: ``key`` catches everything and shows one line instead.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardparty.client.command_line import run as run_command
from cardparty.client.dialog import Choice, CreateForm, TextField, type_key
from cardparty.client.keys_economy import EconomyKeys
from cardparty.client.keys_lobby import LobbyKeys
from cardparty.client.keys_room import ROOM_CHAT, RoomKeys
from cardparty.client.keys_table import TableKeys
from cardparty.client.link import Link, Message
from cardparty.client.table_model import TableModel
from cardparty.client.theme import pretty_text
from cardparty.core.i18n import N_, _, translate

Connect = Callable[[str, str], Link]


@dataclass
class StartForm:
    """The start screen: name, address, and the hosts found on the LAN (rows 2 and on)."""

    name: str = ""
    #: Empty: a prefilled address would take an Enter meant for a host listed below.
    address: str = ""
    row: int = 0
    hosts: list[tuple[str, str]] = field(default_factory=list)   # (label, address)
    #: What the LAN search says when it found nothing (searching, unavailable...).
    search: str = ""

    @property
    def text(self) -> str:
        return self.name if self.row == 0 else self.address

    @text.setter
    def text(self, value: str) -> None:
        if self.row == 0:
            self.name = value
        elif self.row == 1:
            self.address = value

    @property
    def rows(self) -> int:
        return 2 + len(self.hosts)

    limit = 64


class Controller(LobbyKeys, RoomKeys, TableKeys, EconomyKeys):
    """See the module docstring."""

    def __init__(self, link: Link | None = None, *, name: str = "", address: str = "",
                 connect: Connect | None = None,
                 describe: Callable[[str], Callable[..., str] | None] | None = None,
                 check_address: Callable[[str], str | None] | None = None,
                 on_change: Callable[[], None] | None = None,
                 on_exit: Callable[[], None] | None = None) -> None:
        self.link = link
        self.connect = connect
        self.check_address = check_address
        #: Called when the start screen connects (the LAN search stops then).
        self.on_join: Callable[[], None] | None = None
        self.describe_for = describe
        self.on_change = on_change or (lambda: None)
        self.on_exit = on_exit or (lambda: None)
        self.screen = "start" if link is None else "lobby"
        self.start = StartForm(name=name, address=address)
        self.name = name
        self.host = address
        self.connection = "connecting" if link is not None else ""
        #: The host has welcomed us at least once on this link (until then, Esc gives up).
        self.welcomed = False
        self.banner = ""
        self.error = ""
        self.notice = ""
        self.tables: list[dict[str, Any]] = []
        self.games: list[dict[str, Any]] = []
        self.lobby_cursor = 0
        self.table = TableModel()
        self.table_id: Any = None
        self.dialog: Choice | TextField | CreateForm | None = None
        #: 0: no help; 1: the keys; 2: the game's rules in short.
        self.help = 0
        #: The match's scoreboard is open over the table (key m; the next key closes it).
        self.scoreboard = False
        self.lobby_chat: deque[str] = deque(maxlen=100)
        self.quit = False
        #: Bugs caught on the way to the screen (kept for tests; the player sees one line).
        self.failures: list[Exception] = []
        #: Tables this player walked away from: their views no longer take the screen.
        self.left_tables: set[Any] = set()
        #: Ring the terminal bell (and set the window title) when it becomes this player's
        #: turn or a call is due: off unless asked for (``--bell``, key B).
        self.bell = False
        #: What ``bell`` rings: the application writes the bell and the title.
        self.on_attention: Callable[[str], None] = lambda why: None
        #: The last thing the bell was rung for (table, kind): each rings once.
        self.rung: tuple[Any, str] | None = None
        #: The waiting room's table (``keys_room``), the table a seat was asked for, the
        #: table ids listed when it was, and the room's chat.
        self.room_id: Any = None
        self.pending_room: Any = None
        self.known_tables: set[Any] = set()
        self.room_chat: deque[str] = deque(maxlen=ROOM_CHAT)
        #: The command line (``:`` or ``/``) is open at the bottom; ``on_command`` focuses it.
        self.command_open = False
        self.on_command: Callable[[], None] = lambda: None
        #: Cards still to send one by one (``TableKeys.go_on``): table, kind, cards, and the
        #: hand when the last one went.
        self.queued: dict[str, Any] | None = None
        #: "c" was pressed before the host listed its games: the form opens when they come.
        self.create_waiting = False
        #: Where a link started by ``join`` delivers; the application replaces it with its
        #: thread-safe inbox.
        self.deliver: Callable[[Message], None] = self.receive
        self.init_economy()

    # --- the link's messages --------------------------------------------------------------

    def attach(self, link: Link) -> None:
        """Use ``link`` from now on, and start it."""
        self.link = link
        self.connection = "connecting"
        self.welcomed = False
        self.screen = "lobby"
        link.start(self.deliver)

    def receive(self, msg: Message) -> None:
        """One message from the link; never raises (a bad message becomes one line)."""
        try:
            self._receive(msg)
        except Exception as exc:  # the screen must survive anything a host sends
            self.failures.append(exc)
            self.error = _("could not show a message from the host: {error}").format(
                error=f"{type(exc).__name__}: {exc}")

    def _receive(self, msg: Message) -> None:
        kind = msg.get("type")
        if kind == "status":
            self.connection = str(msg.get("state", ""))
            text = translate(msg.get("text") or "")
            if self.connection == "connected":
                self.banner = ""
                if text:
                    self.notice = text
            else:
                self.banner = text or self.connection
                if not self.welcomed and self.connect is not None:
                    self.banner += " " + _("(Esc: back to the start screen)")
        elif kind == "welcome":
            self.welcomed = True
            self.name = str(msg.get("name") or self.name)
            self.host = str(msg.get("host") or self.host)
            self.connection = "connected"
            self.banner = ""
            if self.screen == "start":
                self.screen = "lobby"
        elif kind == "lobby":
            self.tables = list(msg.get("tables") or [])
            if msg.get("games"):
                self.games = list(msg["games"])
                if self.create_waiting and self.screen == "lobby" and self.dialog is None:
                    self._create_form()
                self.create_waiting = False
            self.lobby_cursor = max(0, min(self.lobby_cursor, len(self.tables) - 1))
            self.room_from_lobby()
            self._who_is_away()
        elif kind == "view":
            table = msg.get("table")
            view = msg.get("view") or {}
            if table in self.left_tables:
                return
            if self.screen == "table" and table != self.table_id:
                # Another table of ours moved on (a seat kept there): say so, stay here.
                if (view.get("moves") or []) and view.get("result") is None:
                    self.notice = _("table {table} waits for your move (q, then Enter on it)"
                                    ).format(table=table)
                return
            if table != self.table_id or self.screen != "table":
                if self.screen == "room" and table != self.room_id:
                    return                      # another table of ours: the room stays
                self._open_table(table, view)
            self.table.apply(view, list(msg.get("events") or []), table)
            self.go_on()
            self.attention()
            if self.screen in ("lobby", "start", "room"):
                self.screen = "table"
        elif kind == "error":
            self.pending_room = None
            text = " ".join(translate(msg.get("text") or N_("error")).split())[:300]
            self.error = pretty_text(text, self.table.hand)
        elif kind == "chat":
            table = msg.get("table")
            line = f"<{msg.get('from', '?')}> {msg.get('text', '')}"
            if table is None:                    # said to the whole lobby
                self.lobby_chat.append(line)
            elif self.screen == "table" and table == self.table_id:
                self.table.log.append(line)
            elif self.screen == "room" and table == self.room_id:
                self.room_chat.append(line)
            else:                                # a table of ours not on screen: say which
                self.lobby_chat.append(f"[{table}] {line}")
        elif kind == "invite":
            # One line, never a dialog: a dialog popping up would take the keys the player is
            # typing (an Enter meant for his own game would sit him down elsewhere).
            who, table = msg.get("from") or _("someone"), msg.get("table")
            where = msg.get("title") or _("table {table}").format(table=table)
            self.notice = _("{who} invites you to {where} — Enter on it in the lobby to sit"
                            ).format(who=who, where=where)
        elif kind == "notice":
            self.notice = translate(msg.get("text") or "")
        elif kind in ("profile", "league", "reward"):
            self.economy_message(msg)
        elif kind == "hosts":
            self.start.hosts = [(str(label), str(address))
                                for label, address in msg.get("hosts") or ()][:12]
            self.start.search = str(msg.get("text") or "")
            self.start.row = min(self.start.row, self.start.rows - 1)
        elif kind == "left":
            if self.table_id is not None:
                self.left_tables.add(self.table_id)
            self.screen = "lobby"
            self.table_id = None

    def _who_is_away(self) -> None:
        """The table on screen learns from its lobby row who dropped or came back (the
        others' screens say so at once, not at the next move)."""
        if self.screen != "table":
            return
        row = next((t for t in self.tables if t.get("id") == self.table_id), None)
        seats = ((row or {}).get("summary") or {}).get("seats")
        if isinstance(seats, list):
            self.table.away = {i for i, s in enumerate(seats) if isinstance(s, dict)
                               and s.get("kind") == "human" and s.get("connected") is False}

    def match_summary(self) -> dict[str, Any] | None:
        """The host's newest summary of the table on screen (its match: ``round``,
        ``rounds``, ``totals``), or None before the host listed it."""
        row = next((t for t in self.tables if t.get("id") == self.table_id), None)
        summary = (row or {}).get("summary")
        return summary if isinstance(summary, dict) else None

    def _open_table(self, table: Any, view: dict[str, Any]) -> None:
        describe = None
        if self.describe_for is not None:
            describe = self.describe_for(str(view.get("game", "")))
        self.table = TableModel(table=table, describe=describe)
        if table == self.room_id:                 # the waiting room's talk goes on here
            self.table.log.extend(self.room_chat)
        self.room_id = None
        self.table_id = table
        self.screen = "table"
        self.help = 0
        self.scoreboard = False
        if isinstance(self.dialog, Choice | CreateForm):
            self.dialog = None

    # --- keys ------------------------------------------------------------------------------

    def key(self, name: str) -> None:
        """One key press; never raises."""
        try:
            self._key(name)
        except Exception as exc:  # no traceback ever reaches the screen
            self.failures.append(exc)
            self.error = f"{type(exc).__name__}: {exc}"

    def _key(self, name: str) -> None:
        if name in ("c-c", "c-q"):
            self.exit()
            return
        if self.dialog is not None:
            if self.dialog.key(name):
                self.dialog = None
            return
        if self.scoreboard:
            self.scoreboard = False
            return
        if self.help:
            self.help = 2 if name == "?" and self.help == 1 and self.screen == "table" else 0
            return
        if name == "?" and self.screen != "start":
            self.help = 1
            return
        if name in (":", "/") and self.screen != "start":
            self.command_open = True
            self.on_command()
            return
        if name == "B" and self.screen != "start":
            self.toggle_bell()
            return
        if (name == "escape" and self.screen == "lobby" and not self.welcomed
                and self.connect is not None):
            self.give_up()
            return
        self.error = "" if name not in ("escape",) else self.error
        if self.screen == "start":
            self._key_start(name)
        elif self.screen == "lobby":
            self._key_lobby(name)
        elif self.screen == "room":
            self._key_room(name)
        elif self.screen in ("league", "shop"):
            self._key_economy(name)
        else:
            self._key_table(name)

    def key_click(self, index: int) -> None:
        """A mouse click on the ``index``-th card of the hand: select or unselect it."""
        try:
            if self.screen == "table" and self.dialog is None and not self.help:
                self.table.toggle(index)
                self.on_change()
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"

    def command(self, line: str) -> None:
        """A line typed on the command line (``command_line``); never raises."""
        self.command_open = False
        try:
            run_command(self, line)
        except Exception as exc:
            self.failures.append(exc)
            self.error = f"{type(exc).__name__}: {exc}"

    def attention(self) -> None:
        """After a view: ring once when it has just become this player's turn, or a call
        (a listed move of kind ``call``) has just become due; the title says it while it
        lasts (an empty reason puts the title back)."""
        tm = self.table
        if tm.over or not tm.moves:
            why = ""
        elif any(m["kind"] == "call" for m in tm.moves):
            why = "call"
        else:
            why = "move"
        now = (self.table_id, why) if why else None
        if now != self.rung:
            self.rung = now
            if self.bell:
                self.on_attention(why)

    def toggle_bell(self) -> None:
        self.bell = not self.bell
        self.notice = (_("bell on: it rings when it is your turn or a call is due (B: off)")
                       if self.bell else _("bell off (B: on)"))
        if not self.bell:
            self.on_attention("")

    def give_up(self) -> None:
        """Stop trying to reach a host that never answered: back to the start screen, with
        the name and address as typed."""
        link, self.link = self.link, None
        if link is not None:
            with contextlib.suppress(Exception):
                link.close()
        self.screen = "start"
        self.start.row = 1
        self.start.address = self.start.address or self.host
        self.start.name = self.start.name or self.name
        self.banner = ""
        self.connection = ""
        self.error = _("gave up on {host}: no cardparty host answered there").format(
            host=self.host)

    def exit(self) -> None:
        self.quit = True
        if self.link is not None:
            with contextlib.suppress(Exception):
                self.link.close()
        self.on_exit()

    def _request(self, action: str, **args: Any) -> None:
        if self.link is None:
            self.error = _("not connected to a host")
            return
        if action in ("sit", "spectate"):
            self.left_tables.discard(args.get("table"))
        self.link.request(action, **args)

    # --- start screen ----------------------------------------------------------------------

    def _key_start(self, name: str) -> None:
        form = self.start
        if name in ("up", "down", "tab", "s-tab"):
            form.row = (form.row + (-1 if name in ("up", "s-tab") else 1)) % form.rows
        elif name == "enter":
            if form.row >= 2:                          # a host found on the LAN
                form.address = form.hosts[form.row - 2][1]
            elif form.row == 0 and not form.address:
                form.row = 2 if form.hosts else 1      # on to the hosts found, or the address
                return
            self.join(form.name.strip(), form.address.strip())
        elif name == "escape":
            self.exit()
        else:
            type_key(form, name)

    def join(self, name: str, address: str) -> None:
        """Connect to ``address`` as ``name`` (the start screen's Enter)."""
        if not name or len(name) > 32:
            self.error = (_("type your name first") if not name
                          else _("a name has at most 32 letters"))
            self.start.row = 0
            return
        if not address:
            self.error = _("type the host's address (for example 192.168.1.20:5555)")
            return
        if self.connect is None:
            self.error = _("this client cannot open connections")
            return
        if self.check_address is not None:
            problem = self.check_address(address)
            if problem:
                self.error = problem
                return
        self.name, self.host = name, address
        if self.on_join is not None:
            self.on_join()
        self.attach(self.connect(name, address))
        self.banner = _("connecting to {address}... (Esc: back to the start screen)").format(
            address=address)
