"""The client's state machine: which screen shows, what each key does there, and what each
message from the link changes.

Screens: ``start`` (name and host address; the place for hosts found on the LAN), ``lobby``
(tables, create, sit, spectate, bots, ready, invite), ``table`` (one table's view; the end of a
round shows places and scores over it). Over any screen: a dialog (choices, a text field, the
create form) or the help. Keys arrive as prompt-toolkit key names ("enter", "left", "s-left",
"tab", "escape", "c-c", or the typed character) so that the whole client can be driven and
tested without a terminal; ``app`` only draws this state and forwards keys.

Any key in any state is safe: ``key`` catches everything and shows one line instead.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardparty.client.dialog import Choice, CreateForm, TextField, type_key
from cardparty.client.link import Link, Message
from cardparty.client.table_model import Outcome, TableModel
from cardparty.client.theme import pretty_text

Connect = Callable[[str, str], Link]


@dataclass
class StartForm:
    """The start screen: name, address, and the hosts found on the LAN (rows 2 and on)."""

    name: str = ""
    address: str = "127.0.0.1"
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


class Controller:
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
        self.start = StartForm(name=name, address=address or "127.0.0.1")
        self.name = name
        self.host = address
        self.connection = "connecting" if link is not None else ""
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
        self.lobby_chat: deque[str] = deque(maxlen=100)
        self.quit = False
        #: Bugs caught on the way to the screen (kept for tests; the player sees one line).
        self.failures: list[Exception] = []
        #: Tables this player walked away from: their views no longer take the screen.
        self.left_tables: set[Any] = set()
        #: "c" was pressed before the host listed its games: the form opens when they come.
        self.create_waiting = False
        #: Where a link started by ``join`` delivers; the application replaces it with its
        #: thread-safe inbox.
        self.deliver: Callable[[Message], None] = self.receive

    # --- the link's messages --------------------------------------------------------------

    def attach(self, link: Link) -> None:
        """Use ``link`` from now on, and start it."""
        self.link = link
        self.connection = "connecting"
        self.screen = "lobby"
        link.start(self.deliver)

    def receive(self, msg: Message) -> None:
        """One message from the link; never raises (a bad message becomes one line)."""
        try:
            self._receive(msg)
        except Exception as exc:  # the screen must survive anything a host sends
            self.failures.append(exc)
            self.error = f"could not show a message from the host: {type(exc).__name__}: {exc}"

    def _receive(self, msg: Message) -> None:
        kind = msg.get("type")
        if kind == "status":
            self.connection = str(msg.get("state", ""))
            text = str(msg.get("text") or "")
            if self.connection == "connected":
                self.banner = ""
                if text:
                    self.notice = text
            else:
                self.banner = text or self.connection
        elif kind == "welcome":
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
        elif kind == "view":
            table = msg.get("table")
            view = msg.get("view") or {}
            if table in self.left_tables:
                return
            if self.screen == "table" and table != self.table_id:
                # Another table of ours moved on (a seat kept there): say so, stay here.
                if (view.get("moves") or []) and view.get("result") is None:
                    self.notice = f"table {table} waits for your move (q, then Enter on it)"
                return
            if table != self.table_id or self.screen != "table":
                self._open_table(table, view)
            self.table.apply(view, list(msg.get("events") or []), table)
            if self.screen in ("lobby", "start"):
                self.screen = "table"
        elif kind == "error":
            text = " ".join(str(msg.get("text") or "error").split())[:300]
            self.error = pretty_text(text, self.table.hand)
        elif kind == "chat":
            line = f"<{msg.get('from', '?')}> {msg.get('text', '')}"
            if self.screen == "table" and msg.get("table", self.table_id) == self.table_id:
                self.table.log.append(line)
            else:
                self.lobby_chat.append(line)
        elif kind == "invite":
            # One line, never a dialog: a dialog popping up would take the keys the player is
            # typing (an Enter meant for his own game would sit him down elsewhere).
            who, table = msg.get("from") or "someone", msg.get("table")
            where = msg.get("title") or f"table {table}"
            self.notice = f"{who} invites you to {where} — Enter on it in the lobby to sit"
        elif kind == "notice":
            self.notice = str(msg.get("text") or "")
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

    def _open_table(self, table: Any, view: dict[str, Any]) -> None:
        describe = None
        if self.describe_for is not None:
            describe = self.describe_for(str(view.get("game", "")))
        self.table = TableModel(table=table, describe=describe)
        self.table_id = table
        self.screen = "table"
        self.help = 0
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
        if self.help:
            self.help = 2 if name == "?" and self.help == 1 and self.screen == "table" else 0
            return
        if name == "?" and self.screen != "start":
            self.help = 1
            return
        self.error = "" if name not in ("escape",) else self.error
        if self.screen == "start":
            self._key_start(name)
        elif self.screen == "lobby":
            self._key_lobby(name)
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

    def exit(self) -> None:
        self.quit = True
        if self.link is not None:
            with contextlib.suppress(Exception):
                self.link.close()
        self.on_exit()

    def _request(self, action: str, **args: Any) -> None:
        if self.link is None:
            self.error = "not connected to a host"
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
                form.row = 1
                return
            self.join(form.name.strip(), form.address.strip())
        elif name == "escape":
            self.exit()
        else:
            type_key(form, name)

    def join(self, name: str, address: str) -> None:
        """Connect to ``address`` as ``name`` (the start screen's Enter)."""
        if not name or len(name) > 32:
            self.error = "type your name first" if not name else "a name has at most 32 letters"
            self.start.row = 0
            return
        if not address:
            self.error = "type the host's address (for example 192.168.1.20:5555)"
            return
        if self.connect is None:
            self.error = "this client cannot open connections"
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
        self.banner = f"connecting to {address}..."

    # --- lobby -----------------------------------------------------------------------------

    def selected_table(self) -> dict[str, Any] | None:
        if 0 <= self.lobby_cursor < len(self.tables):
            return self.tables[self.lobby_cursor]
        return None

    def _sits_at(self, t: dict[str, Any]) -> bool:
        """This player (by name, as the lobby knows him) has a seat at lobby row ``t``."""
        me = self.name.casefold()
        seats = (t.get("summary") or {}).get("seats") or ()
        return bool(me) and any(isinstance(s, dict) and s.get("kind") == "human"
                                and str(s.get("name", "")).casefold() == me for s in seats)

    def invites_me(self, t: dict[str, Any]) -> bool:
        """Lobby row ``t`` is a table taking seats that invited this player, who has no seat
        there yet: the lobby marks it."""
        me = self.name.casefold()
        return (bool(me) and t.get("status") == "open" and not self._sits_at(t)
                and any(str(n).casefold() == me for n in t.get("invited") or ()))

    def _invite_target(self, t: dict[str, Any]) -> dict[str, Any]:
        """Where ``i`` invites to: the chosen table if it is a friends table this player sits
        at or created, else such a table that still takes seats, else the chosen one (the
        host then says why not)."""
        def mine(x: dict[str, Any]) -> bool:
            return self._sits_at(x) or bool(x.get("creator")) and x.get("creator") == self.name

        if t.get("mode") == "friends" and mine(t):
            return t
        ours = [x for x in self.tables
                if x.get("mode") == "friends" and x.get("status") == "open" and mine(x)]
        return ours[0] if ours else t

    def _invite(self, table: Any, text: str) -> None:
        """Send the names typed (separated by commas, or by spaces when there is no comma)."""
        parts = text.split(",") if "," in text else text.split()
        names = list(dict.fromkeys(p.strip() for p in parts if p.strip()))
        if not names:
            return
        if len(names) > 16 or any(len(n) > 32 for n in names):
            self.error = "invite at most 16 names at once, each of at most 32 letters"
            return
        self._request("invite", table=table, names=names)

    def _key_lobby(self, name: str) -> None:
        t = self.selected_table()
        tid = t.get("id") if t else None
        if name in ("up", "k"):
            self.lobby_cursor = max(0, self.lobby_cursor - 1)
        elif name in ("down", "j"):
            self.lobby_cursor = min(max(0, len(self.tables) - 1), self.lobby_cursor + 1)
        elif name == "c":
            if not self.games:
                self.notice = "the host has not listed its games yet: asking again"
                self.create_waiting = True
                self._request("games")
                return
            self._create_form()
        elif t is None and name in ("enter", "s", "b", "r", "i"):
            self.error = "no table chosen: press c to create one"
        elif name == "enter":
            self._request("sit", table=tid)
        elif name == "s":
            self._request("spectate", table=tid)
        elif name == "b":
            self._request("add_bot", table=tid, level="basic")
        elif name == "r":
            self._request("ready", table=tid)
        elif name == "i":
            target = self._invite_target(t).get("id")
            self.dialog = TextField(f"invite to {target} (names separated by spaces or "
                                    "commas): ", lambda text: self._invite(target, text))
        elif name == "l" and tid is not None:
            self._request("leave", table=tid)
        elif name == "t":
            self.dialog = TextField("say: ", lambda text: text and self._chat(None, text))
        elif name in ("q", "escape"):
            self.dialog = Choice("Quit cardparty?", [("quit", True), ("stay", False)],
                                 lambda yes: yes and self.exit())

    def _create_form(self) -> None:
        self.dialog = CreateForm(self.games, lambda req: self._request("create", **req))

    def _chat(self, table: Any, text: str) -> None:
        if self.link is not None:
            self.link.chat(table, text)

    # --- table -----------------------------------------------------------------------------

    def _key_table(self, name: str) -> None:
        tm = self.table
        if tm.over:
            if name in ("n", "enter"):
                self._request("again", table=self.table_id)
                self.notice = "asked for another round"
                return
            if name in ("l", "q", "escape"):
                self._leave()
                return
        if name == "left":
            tm.move_cursor(-1)
        elif name == "right":
            tm.move_cursor(1)
        elif name in ("space", " "):
            tm.toggle()
        elif name in ("s-left", "<", ","):
            self._reorder(tm.shift(-1))
        elif name in ("s-right", ">", "."):
            self._reorder(tm.shift(1))
        elif name == "o":
            self._reorder(tm.sort_hand())
        elif name == "tab":
            self.notice = "" if tm.suggest(1) else "no move for you now"
        elif name == "s-tab":
            self.notice = "" if tm.suggest(-1) else "no move for you now"
        elif name == "enter":
            self._outcome(tm.enter())
        elif name == "p":
            self._outcome(tm.call())
        elif name.isdigit() and name != "0":
            self._outcome(tm.action(int(name)))
        elif name == "escape":
            tm.clear()
            self.error = ""
            self.notice = ""
        elif name == "t":
            self.dialog = TextField("say: ", lambda text: text and self._chat(self.table_id,
                                                                              text))
        elif name == "q":
            if tm.seat is None:
                options = [("stop watching", "leave"), ("stay", None)]
            else:
                options = [("back to the lobby, keeping my seat", "lobby"),
                           ("leave: a bot plays my seat to the end", "leave"),
                           ("stay", None)]
            self.dialog = Choice("Leave this table?", options, self._leave_as)

    def _leave_as(self, how: str | None) -> None:
        if how == "leave":
            self._leave()
        elif how == "lobby":
            self._leave(give_up=False)

    def _leave(self, give_up: bool = True) -> None:
        """To the lobby. ``give_up``: tell the host (the seat goes to a bot, or is freed
        before the game starts); otherwise the seat stays ours and Enter on the table in the
        lobby brings the game back."""
        if give_up:
            self._request("leave", table=self.table_id)
        self.left_tables.add(self.table_id)
        self.screen = "lobby"
        self.table_id = None

    def _reorder(self, order: list[str] | None) -> None:
        if order is not None and self.link is not None:
            self.link.reorder(self.table_id, order)

    def _outcome(self, out: Outcome) -> None:
        if out.move is not None:
            self.send(out.move)
        elif out.options:
            self.dialog = Choice(out.title, [(str(m.get("label") or m["kind"]), m)
                                             for m in out.options],
                                 lambda m: self.send({"kind": m["kind"],
                                                      "cards": list(m.get("cards") or ()),
                                                      "choice": m.get("choice")}))
        elif out.message:
            self.notice = out.message

    def send(self, move: dict[str, Any]) -> None:
        if self.link is None:
            self.error = "not connected to a host"
            return
        self.table.clear()
        self.notice = ""
        self.error = ""
        self.link.send_move(self.table_id, move)
