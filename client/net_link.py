"""The link to a real host: a thin adapter from the screens' ``Link`` onto
``cardparty.net.player.session.Session`` (docs/protocol.md).

It turns the host's pushed messages into the client's messages (``link``): views with their
events and the host's timers as countdowns (a timer's ``remaining`` is the truth: a Pika warning
that started two moves ago has less left than its full length; the link asks the host for
views without the game's own ``deadlines``, so each fact comes by one path), who is away or
stood in for as data in each player's row (``connected``, ``standin``: the screen says it in
the player's language), table summaries into the lobby list, the session's ``connection``
lost/restored into the connection banner, and any refused request into one line. A move goes
out as its id in the view's list with the view's version, as the host listed it (the host
still judges it). Requests go out as futures: the screen never waits on the network.

The mode the creator picks (``friends`` or ``open``) travels as the table's ``mode``; an
invitation goes out as ``invite`` with usernames, and one received (the host's ``invited``)
becomes the client's ``invite`` message.

The lobby is polled every two seconds (``tables``), since a host pushes table changes only to
the players at that table. ``autoplay`` makes the link set up a table against bots by itself
once welcomed (``cardparty play``): create, sit, bots in the empty seats, ready (with a
``seed`` in it, the deal and the host's bots are the same every time: the client's tests).

Must not know about: game rules, terminals.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar, cast

from cardparty.client import economy_link, event_link, records_link
from cardparty.client.dialog import TableChoice
from cardparty.client.hosttext import host_text
from cardparty.client.link import Deliver, LobbyRow, Message
from cardparty.client.names import name_problem
from cardparty.client.tokens import TokenStore
from cardparty.core.contract import MoveMap, PlayerRow, View
from cardparty.core.i18n import N_, _, from_wire, shown
from cardparty.net.names.safetext import CHAT_MAX, LOBBY_CHAT_MAX
from cardparty.net.player.session import REFUSALS, Session, SessionError
from cardparty.net.trust.hostkey import diagnose
from cardparty.net.trust.known_hosts import HostKeyError, KnownHosts
from cardparty.net.wire.play_replies import (
    ConnectionPush,
    HintReply,
    HostMessage,
    UndoDroppedPush,
    UndoReply,
    WelcomeReply,
)
from cardparty.net.wire.protocol import ErrorReply
from cardparty.net.wire.replies import (
    ChatPush,
    CreateReply,
    GamesReply,
    GameWire,
    InvitedPush,
    InviteReply,
    SeatSummary,
    TablePush,
    TablesReply,
    TableSummary,
    ViewMessage,
)

LOBBY_POLL = 2.0
#: Requests that change no row of the lobby (the table's own pushes keep its row): asking
#: for every table after each of them cost a move ten times over at the host.
AT_THE_TABLE = frozenset({"move", "reorder", "chat", "hint", "snapshot", "undo",
                          "undo_answer"})

#: What a future of the session holds (a ``HostMessage``, a ``MoveReply``), for a callback
#: that only looks at its refusal. One that reads the reply casts it once to the reply of
#: its request, where it takes it.
R = TypeVar("R")


def seat_label(seat: SeatSummary) -> str | None:
    """One seat of a table summary as the lobby shows it."""
    kind = seat.get("kind")
    if kind == "empty":
        return None
    name = str(seat.get("name") or "?")
    if kind == "bot":
        return f"{name} (bot)" if "bot" not in name.lower() else name
    rating = seat.get("rating")
    if isinstance(rating, int | float) and not isinstance(rating, bool):
        name += f" [{rating:g}]"                  # his rating at the game (TO-26)
    marks = []
    if seat.get("ready"):
        marks.append(_("ready"))
    if seat.get("connected") is False:
        marks.append(_("away"))
    return name + (f" ({', '.join(marks)})" if marks else "")


#: The owner's requests, with the notice each one's ``ok`` becomes.
OWNER_NOTICES = {"remove": N_("seat {seat} of table {table} is free"),
                 "close": N_("table {table} is closed"),
                 "strangers": N_("strangers may sit at table {table}"),
                 "no strangers": N_("strangers may not sit at table {table}")}


def shown_summary(summary: TableSummary) -> TableSummary:
    """A host's table summary with its free text as it may be drawn (``host_text``): the
    title, the creator's and the seats' names, the names invited."""
    out = summary.copy()
    if "title" in out:
        out["title"] = host_text(out["title"], 64)
    creator = out.get("creator")
    if creator is not None:
        out["creator"] = host_text(creator, name=True)
    if isinstance(out.get("invited"), list):
        out["invited"] = [host_text(n, name=True) for n in out["invited"]]
    if isinstance(out.get("seats"), list):
        out["seats"] = [named_seat(s) for s in out["seats"]]
    return out


def named_seat(seat: SeatSummary) -> SeatSummary:
    """A seat of a summary with its name as it may be drawn."""
    if not isinstance(seat, dict) or seat.get("name") is None:
        return seat
    out = seat.copy()
    out["name"] = host_text(seat["name"], name=True)
    return out


def lobby_row(summary: TableSummary) -> LobbyRow:
    summary = shown_summary(summary)
    seats = [seat_label(s) for s in summary.get("seats") or ()]
    invited = summary.get("invited")
    return {"id": str(summary.get("id", "")), "game": str(summary.get("game", "")),
            "players": int(summary.get("players") or 0), "seats": seats,
            # an open table its creator closed to strangers shows as "invited" (docs/protocol.md)
            "mode": "invited" if summary.get("mode") == "open" and summary.get(
                "strangers") is False else str(summary.get("mode") or "-"),
            "stake": int(summary.get("stake") or 0), "seeking": bool(summary.get("seeking")),
            "hints": summary.get("hints") is True,
            "fill_in": summary.get("fill_in"),
            "status": str(summary.get("status", "")), "title": summary.get("title", ""),
            "creator": summary.get("creator"),
            "invited": [str(n) for n in invited] if isinstance(invited, list) else [],
            "summary": summary}


#: What the link asks the host for in its hello (docs/protocol.md): views without the game's
#: deadlines, which come in the host's ``timers`` with the seconds left.
FEATURES = ("timers",)


class ShownRow(PlayerRow, total=False):
    """A player's row of a view as the link passes it on: the game's, and whether he is
    connected and whether a bot stands in for him (the view message's ``players``)."""

    connected: bool
    standin: bool


def view_message(msg: ViewMessage) -> Message:
    """A host ``view`` as the client's view message: its deadlines are the host's timers
    (with the seconds really left), and each player's row says, as data, whether he is
    connected and whether a bot stands in for him (``connected``, ``standin``)."""
    given = msg.get("view")
    # A message without its view (a host's bug) still gives the screen one, empty.
    view: View = given.copy() if given else cast(View, {})
    timers = msg.get("timers")
    if isinstance(timers, list):
        view["deadlines"] = [{"name": t.get("name"), "seat": t.get("seat"),
                              "seconds": t.get("remaining", t.get("seconds", 0))}
                             for t in timers if isinstance(t, dict)]
    rows = view.get("players")
    if isinstance(rows, list):
        rows = [named_row(p) for p in rows]
        presence = msg.get("players")
        if isinstance(presence, list):
            rows = [with_presence(p, a) for p, a in zip(rows, presence + [{}] * len(rows),
                                                        strict=False)]
        view["players"] = rows
    return {"type": "view", "table": msg.get("table"), "view": view,
            "events": list(msg.get("events") or []), "snapshot": bool(msg.get("snapshot"))}


def named_row(row: PlayerRow) -> PlayerRow:
    """A player's row of a view with his name as it may be drawn."""
    if not isinstance(row, dict) or row.get("name") is None:
        return row
    return {**row, "name": host_text(row["name"], name=True)}


def with_presence(row: PlayerRow, presence: object) -> PlayerRow:
    """A player's row of a view with his seat's presence as data (``ShownRow``): a
    ``Presence`` of the message's ``players``, or nothing (anything else: a host's bug, or
    a seat the list misses) adds nothing."""
    if not isinstance(presence, dict):
        return row.copy()
    shown: ShownRow = {**row, "connected": presence.get("connected") is not False,
                       "standin": bool(presence.get("standin"))}
    return shown


class NetLink:
    """See the module docstring. ``address`` as for ``Session`` ("host", "host:port")."""

    def __init__(self, address: str, name: str, *, autoplay: TableChoice | None = None,
                 tokens: TokenStore | None = None, session_factory: Any = Session,
                 **session_args: Any) -> None:
        self.address = address
        self.name = name
        self.autoplay = autoplay
        self.tokens = tokens
        self.deliver: Deliver = lambda msg: None
        token = tokens.load(address, name) if tokens is not None else None
        session_args.setdefault("features", FEATURES)
        self.session_factory = session_factory
        self.session_args = session_args
        self.session: Session = session_factory(address, name, on_message=self._pushed,
                                                token=token, **session_args)
        #: The host shows another key than the one this session holds it to (found while it
        #: did not answer): said on the screen until the player trusts it again.
        self.key_refusal: HostKeyError | None = None
        self.tables: dict[str, LobbyRow] = {}
        self.games: list[GameWire] = []
        self.closed = threading.Event()
        self.thread: threading.Thread | None = None
        self.my_tables: dict[str, TableChoice] = {}

    # --- Link -------------------------------------------------------------------------------

    def start(self, deliver: Deliver) -> None:
        self.deliver = deliver
        deliver({"type": "connection", "state": "connecting",
                 "text": _("connecting to {address}...").format(address=self.address)})
        self.thread = threading.Thread(target=self._run, name="cardparty-client-link",
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self.closed.is_set():
            return
        self.closed.set()
        with contextlib.suppress(Exception):
            self.session.close()

    def send_move(self, table: Any, move: MoveMap,
                  listed: tuple[int, int] | None = None) -> None:
        """Send a move by its id in the view that listed it, with that view's version
        (``listed``; None: the move as it is, for the host to judge). If another seat or a
        timer moved first (``stale``), the player still means it -- a «Pika!» pressed while a
        bot draws and plays -- so it goes again once as it is (kind, cards, choice), on the
        newest view the link holds: the host plays it if its rules still allow it, and a
        refusal then is dropped without a word, as the new view shows why."""
        fut = (self.session.send_move(table, move) if listed is None
               else self.session.send_move(table, *listed))

        def done(f: Future[R]) -> None:
            exc = f.exception()
            if isinstance(exc, SessionError) and exc.code == "stale" and listed is not None:
                again = self.session.send_move(table, move)
                again.add_done_callback(lambda g: self._future(
                    g, quiet={"stale", "illegal", "not_playing"}, lobby=False))
                return
            self._future(f, quiet={"stale"}, lobby=False)
        fut.add_done_callback(done)

    def reorder(self, table: Any, order: list[str]) -> None:
        self._send("reorder", table=table, order=list(order))

    def chat(self, table: Any, text: str) -> None:
        """Say ``text`` at ``table``, or to the whole lobby (``table`` None), cut to what the
        host takes (a longer line would be refused whole)."""
        if table is None:
            self._send("chat", text=text[:LOBBY_CHAT_MAX])
            return
        self._send("chat", table=table, text=text[:CHAT_MAX])

    def request(self, action: str, **args: Any) -> None:
        table = args.get("table")
        if action == "create":
            # The screen's keywords are its form's TableChoice (``CreateForm.request``).
            self._create(cast(TableChoice, args))
        elif action == "sit":
            self._sit(table, args.get("seat"))
        elif action == "watch":
            self._send("watch", table=table)
        elif action == "bots":
            self._send("bots", table=table, count=1, level=args.get("level", "basic"))
        elif action == "ready":
            self._send("ready", table=table, ready=True)
        elif action == "leave":
            fut = self.session.send("leave", table=table)
            fut.add_done_callback(lambda f: self._poll_tables())
        elif action == "again":
            self._again(table)
        elif action == "games":
            self._fetch_games()
        elif action == "invite":
            self._invite(table, list(args.get("names") or ()))
        elif action == "remove":
            self._owner(action, table, seat=int(args["seat"]))
        elif action == "strangers":
            self._owner(action, table, allow=bool(args["allow"]))
        elif action == "close":
            self._owner(action, table)
        elif action == "hint":
            self._hint(table)
        elif action == "undo":
            self._undo(table)
        elif action == "undo_answer":
            self._send("undo_answer", table=table, agree=bool(args.get("agree")))
        elif action == "back":
            # Any request at the table ends a stand-in (docs/protocol.md, "Timers the host
            # owns"): a snapshot is the one that changes nothing else.
            self._send("snapshot", table=table)
        elif action in economy_link.ACTIONS:
            economy_link.request(self, action, **args)
        elif action in event_link.ACTIONS:
            event_link.request(self, action, args)
        elif action in records_link.ACTIONS:
            records_link.request(self, action, args)
        else:
            self.deliver({"type": "error", "text": _("unknown request {action}").format(
                action=action)})

    # --- requests ---------------------------------------------------------------------------

    def _send(self, kind: str, *, answered: Callable[[HostMessage], None] | None = None,
              **fields: Any) -> None:
        """Send a ``kind`` request; its refusal is said (``_future``), and its reply, when it
        is one, goes to ``answered`` (which casts it to the reply of ``kind``)."""
        try:
            fut = self.session.send(kind, **fields)
        except SessionError as exc:
            self.deliver({"type": "error", "text": exc.message})
            return
        self._future(fut, lobby=kind not in AT_THE_TABLE)
        if answered is not None:
            then = answered

            def done(f: Future[HostMessage]) -> None:
                if f.exception() is None:
                    then(f.result())
            fut.add_done_callback(done)

    def _future(self, fut: Future[R], quiet: set[str] | None = None,
                lobby: bool = True) -> None:
        """Report a refusal in words; after a request that changes the lobby (``lobby``), ask
        for the tables again."""
        def done(f: Future[R]) -> None:
            exc = f.exception()
            if isinstance(exc, SessionError):
                if exc.code not in (quiet or set()):
                    self.deliver({"type": "error", "text": exc.message})
            elif exc is not None:
                self.deliver({"type": "error", "text": f"{type(exc).__name__}: {exc}"})
            elif lobby:
                self._poll_tables()
        fut.add_done_callback(done)

    def _invite(self, table: Any, names: list[str]) -> None:
        """Invite ``names`` to ``table``; the host's ``ok`` becomes a one-line notice."""
        def done(reply: HostMessage) -> None:
            # The names as their players spell them, when the host says (docs/protocol.md)
            said = cast(InviteReply, reply).get("names")
            shown = ([host_text(str(n), name=True) for n in said[:16]]
                     if isinstance(said, list) and said else names)
            self.deliver({"type": "notice", "table": table,
                          "text": _("invited {names} to table {table}").format(
                              names=", ".join(shown), table=table)})
        self._send("invite", answered=done, table=table, names=names)

    def _owner(self, action: str, table: Any, seat: int | None = None,
               allow: bool | None = None) -> None:
        """The table owner's ``remove`` (``seat``), ``close`` and ``strangers``
        (``allow``); the host's answer becomes a one-line notice, its refusal an error."""
        which = "no strangers" if allow is False else action
        text = _(OWNER_NOTICES[which]).format(table=table, seat=(seat or 0) + 1)

        def done(reply: HostMessage) -> None:    # true while the table takes seats
            self.deliver({"type": "notice", "text": text,
                          "table": None if action == "close" else table})
        if seat is not None:
            self._send(action, answered=done, table=table, seat=seat)
        elif allow is not None:
            self._send(action, answered=done, table=table, allow=allow)
        else:
            self._send(action, answered=done, table=table)

    def _sit(self, table: Any, seat: int | None) -> None:
        """Sit; already seated there (back from the lobby to a game going on): the table's
        snapshot brings the player back to it."""
        try:
            fut = self.session.send("sit", table=table, seat=seat)
        except SessionError as exc:
            self.deliver({"type": "error", "text": exc.message})
            return

        def back(f: Future[R], refused: SessionError) -> None:
            if isinstance(f.exception(), SessionError):       # not ours: say why sit failed
                self.deliver({"type": "error", "text": refused.message})

        def done(f: Future[R]) -> None:
            exc = f.exception()
            if isinstance(exc, SessionError) and exc.code in ("seated", "not_open"):
                try:
                    snap = self.session.send("snapshot", table=table)
                except SessionError:
                    return
                snap.add_done_callback(functools.partial(back, refused=exc))
            elif isinstance(exc, SessionError):
                self.deliver({"type": "error", "text": exc.message})
            elif (row := self.tables.get(table)) is not None and row["stake"]:
                economy_link.fetch_profile(self)      # the stake was taken: coins changed
            self._poll_tables()

        fut.add_done_callback(done)

    def _create(self, args: TableChoice, bots: str | None = None,
                invite: list[str] | None = None) -> None:
        """Create, then sit the creator (a player who creates a table means to play at it);
        with ``bots``, fill the other seats with bots and say ready; with ``invite``, invite
        those names (another round of a friends table)."""
        def work() -> None:
            try:
                summary = cast(CreateReply, self.session.request(
                    "create", game=args["game"], players=int(args["players"]),
                    settings=args.get("settings") or {}, variants=args.get("variants") or [],
                    title=args.get("title") or "", mode=args.get("mode") or "open",
                    stake=int(args.get("stake") or 0), seed=args.get("seed"),
                    bot_delay=float(args.get("bot_delay", -1.0)),
                    bot_budget_ms=int(args.get("bot_budget_ms", -1)),
                    standin_level=str(args.get("standin_level") or "normal"),
                    hints=bool(args.get("hints")), undo=bool(args.get("undo"))))["table"]
                tid = summary["id"]
                self.my_tables[tid] = args.copy()
                try:
                    self.session.sit(tid)
                except SessionError:
                    # The creator cannot sit (the stake is more than his coins): the table
                    # was made for him alone, so it goes, rather than wait empty in every
                    # lobby.
                    with contextlib.suppress(SessionError):
                        self.session.request("close", table=tid)
                    raise
                if args.get("stake"):                 # the stake was taken: coins changed
                    economy_link.fetch_profile(self)
                if invite and summary.get("mode") == "friends":
                    self.session.invite(tid, invite)
                if bots:
                    self.session.add_bots(tid, None, bots)
                    self.session.ready(tid)
            except SessionError as exc:
                self.deliver({"type": "error", "text": exc.message})
            except Exception as exc:
                self.deliver({"type": "error", "text": f"{type(exc).__name__}: {exc}"})
            self._poll_tables()
        threading.Thread(target=work, daemon=True).start()

    def _hint(self, table: Any) -> None:
        """Ask what the hard bot would play from our seat (protocol ``hint``); the answer,
        for the view we still have, becomes the client's ``hint`` message; one for a view
        that has moved on is dropped (the new view is what the player looks at)."""
        def done(reply: HostMessage) -> None:       # its refusal is said by ``_send``
            got = cast(HintReply, reply)
            newest = self.session.views.get(table)
            if newest is None or got.get("version") != newest["version"] or not isinstance(
                    got.get("move"), int):
                return
            self.deliver({"type": "hint", "table": table, "move": got["move"],
                          "label": host_text(str(got.get("label") or ""), 80),
                          "reason": host_text(shown(got.get("reason"), got.get("reason_msg")),
                                              200)})
        self._send("hint", answered=done, table=table)

    def _undo(self, table: Any) -> None:
        """Ask to take back our last move (protocol ``undo``): while the others are still to
        agree, a notice says whom the table waits for; once it went back, the view with the
        ``undo`` event says so."""
        def done(reply: HostMessage) -> None:       # its refusal is said by ``_send``
            got = cast(UndoReply, reply)
            waiting = [host_text(str(n), name=True) for n in got.get("waiting") or ()]
            if waiting:
                self.deliver({"type": "notice", "text": _(
                    "you asked to take back your move: waiting for {names} to agree").format(
                    names=", ".join(waiting[:16]))})
        self._send("undo", answered=done, table=table)

    def _again(self, table: Any) -> None:
        """Another round: the host deals it at this very table once every seated human has
        asked (protocol ``again``); the new round comes as a fresh view of the same table."""
        self._send("again", table=table)

    # --- the session's thread and pushed messages -------------------------------------------

    def _keep_token(self) -> None:
        """On disk, so that this client started again resumes its seats (``tokens``), with
        the name the host welcomed, which the next start screen offers."""
        if self.tokens is not None:
            self.tokens.save(self.address, self.name, self.session.token)
            self.tokens.remember_name(self.name)

    def _refused(self, exc: SessionError) -> None:
        """A hello refused for good, said in the player's words (the wire's own wording of a
        name it does not take is not his)."""
        code, text = exc.code, exc.message
        if code == "bad_field":
            code = "bad_name"
            text = name_problem(self.name) or _(
                "the host does not take the name {name}: choose another").format(
                name=repr(self.name[:40]))
        self.deliver({"type": "connection", "state": "refused", "code": code, "text": text})

    def _run(self) -> None:
        while not self.closed.is_set():
            try:
                welcome = self.session.connect(timeout=3.0)
                break
            except SessionError as exc:
                if self.closed.is_set():         # given up on meanwhile: say nothing more
                    return
                if exc.code in REFUSALS:         # a host that must not be trusted, a name taken
                    self._refused(exc)
                    return
                self.deliver({"type": "connection", "state": "reconnecting",
                              "text": _("no cardparty host answers at {address}: still "
                                        "trying").format(address=self.address)})
        else:
            return
        self._welcomed(welcome)
        while not self.closed.wait(LOBBY_POLL):
            if self.session.connected:
                if not self.games:                    # the first answer was lost: ask again
                    self._fetch_games()
                self._poll_tables(wait=True)
            else:
                self._watch_key()

    def _watch_key(self) -> None:
        """While the host does not answer: if its key desk shows another key than the one
        this session holds it to, say so (the session alone would say "reconnecting" for
        ever); once the player trusts the host again (``cardparty hosts --forget``: the key
        remembered is gone or another), connect afresh, learning its key."""
        expected = self.session.expected
        if expected is None:
            return
        if self.key_refusal is None:
            wrong = diagnose(self.session.address, expected)
            if wrong is not None:
                self.key_refusal = wrong
                self.deliver({"type": "connection", "state": "refused", "code": wrong.code,
                              "text": wrong.message})
            return
        known = self.session.known_hosts or KnownHosts()
        if known.key_of(self.session.address) == expected.key:
            return                                   # still the old key: still refused
        old = self.session
        old.abort()
        self.session = self.session_factory(self.address, self.name, on_message=self._pushed,
                                            token=old.token, **self.session_args)
        try:
            self.session.connect(timeout=3.0)
        except SessionError as exc:
            if exc.code in REFUSALS:
                self.deliver({"type": "connection", "state": "refused", "code": exc.code,
                              "text": exc.message})
            return
        self.key_refusal = None
        self._keep_token()
        self._poll_tables(wait=True)
        self.deliver({"type": "connection", "state": "connected",
                      "text": _("reconnected to the host")})

    def _welcomed(self, welcome: WelcomeReply) -> None:
        """The first welcome: the token kept, the games and tables asked for, the profile,
        and ``autoplay``'s table."""
        self._keep_token()
        with contextlib.suppress(SessionError):
            self.games = self.session.games()
        self.deliver({"type": "welcome",
                      "name": host_text(welcome.get("name", self.name), name=True),
                      "host": host_text(welcome.get("host", self.address), 64)})
        self._poll_tables(wait=True)
        testing = (_("this host runs for tests: a player may have chosen a deal")
                   if welcome.get("testing") else "")
        self.deliver({"type": "connection", "state": "connected", "text": testing})
        economy_link.fetch_profile(self)
        if self.autoplay:
            self._create(self.autoplay, bots=self.autoplay.get("bots", "basic"))

    def _fetch_games(self) -> None:
        fut = self.session.send("games")

        def done(f: Future[HostMessage]) -> None:
            if f.exception() is None:
                self.games = list(cast(GamesReply, f.result()).get("games") or [])
                self._lobby([t["summary"] for t in self.tables.values()])

        fut.add_done_callback(done)

    def refresh_lobby(self) -> None:
        """Ask the host for the lobby's tables now, not at the next poll: a request changed a
        row (a seek, a purchase, a cancelled table)."""
        self._poll_tables()

    def _poll_tables(self, wait: bool = False) -> None:
        if self.closed.is_set() or not self.session.connected:
            return
        try:
            fut = self.session.send("tables")
        except SessionError:
            return

        def done(f: Future[HostMessage]) -> None:
            if f.exception() is None:
                self._lobby(cast(TablesReply, f.result()).get("tables") or [])

        fut.add_done_callback(done)
        if wait:
            with contextlib.suppress(Exception):
                fut.result(5.0)

    def _lobby(self, summaries: list[TableSummary]) -> None:
        rows = [lobby_row(s) for s in summaries if isinstance(s, dict)]
        self.tables = {r["id"]: r for r in rows}
        self.deliver({"type": "tables", "tables": rows, "games": self.games})

    def _pushed(self, msg: HostMessage) -> None:
        """A message the host pushed (on the session's thread): translate and pass on. A
        message this client cannot read becomes one line, never a traceback."""
        try:
            self._translate(msg)
        except Exception as exc:
            self.deliver({"type": "error", "text": _(
                "unreadable {kind} message from the host ({error})").format(
                kind=repr(msg.get("type")), error=type(exc).__name__)})

    def _translate(self, msg: HostMessage) -> None:
        """``msg`` as the client's message: each kind read as its shape once its ``type``
        says which (the economy's, the events' and the records' links read theirs)."""
        kind = msg.get("type")
        if (economy_link.pushed(self, msg) or event_link.pushed(self, msg)
                or records_link.pushed(self, msg)):
            return
        if kind == "view":
            self.deliver(view_message(cast(ViewMessage, msg)))
        elif kind == "table":
            # The push's summary (a push without one, a host's bug, is an unreadable message).
            row = lobby_row(cast(TablePush, msg)["table"])
            self.tables[row["id"]] = row
            self.deliver({"type": "tables", "tables": list(self.tables.values()),
                          "games": self.games})
        elif kind == "undo_dropped":
            dropped = cast(UndoDroppedPush, msg)
            self.deliver({"type": "notice", "text": _(
                "{name}'s request to take back a move is dropped: {reason}").format(
                name=host_text(str(dropped.get("name") or "?"), name=True),
                reason=host_text(shown(dropped.get("reason"), dropped.get("reason_msg")),
                                 200))})
        elif kind == "chat":
            said = cast(ChatPush, msg)
            self.deliver({"type": "chat", "from": host_text(said.get("name", "?"), name=True),
                          "text": host_text(said.get("text", "")), "table": said.get("table")})
        elif kind == "invited":
            invited = cast(InvitedPush, msg)
            self.deliver({"type": "invited",
                          "from": host_text(invited.get("from") or "someone", name=True),
                          "table": invited.get("table"),
                          "title": host_text(invited.get("title") or "", 64),
                          "game": invited.get("game")})
            self._poll_tables()               # the lobby lists the table without waiting
        elif kind == "error":
            refusal = cast(ErrorReply, msg)
            if refusal.get("code") != "stale":
                self.deliver({"type": "error", "text": host_text(
                    from_wire(refusal.get("msg")) or str(refusal.get("message") or "error"),
                    300)})
        elif kind == "connection":
            self._connection(cast(ConnectionPush, msg))
        elif kind == "closed":
            self.deliver({"type": "connection", "state": "disconnected",
                          "text": _("the connection is closed")})

    def _connection(self, msg: ConnectionPush) -> None:
        """The session's word about its connection, as the client's ``connection``."""
        if msg.get("state") == "lost":
            self.deliver({"type": "connection", "state": "reconnecting",
                          "text": _("the host at {address} is gone: reconnecting...")
                          .format(address=self.address)})
        elif msg.get("state") == "moved":
            self.deliver({"type": "connection", "state": "connected",
                          "text": from_wire(msg.get("msg")) or str(msg.get("text", ""))})
        elif msg.get("state") == "older":
            # A host that took over showed one of our tables older than we saw it: the
            # session kept what we saw (docs/protocol.md, "What a client does").
            self.deliver({"type": "connection", "state": "connected", "text": _(
                "the new host's copy of table {table} is older than what you saw (move "
                "{version}, not {seen}): your view of it is kept").format(
                table=host_text(str(msg.get("table", "")), 40),
                version=host_text(str(msg.get("version")), 12),
                seen=host_text(str(msg.get("seen")), 12))})
        elif msg.get("state") == "replaced":
            self.deliver({"type": "connection", "state": "disconnected",
                          "text": _("you joined this host from another window, which "
                                    "has your seats now")})
        else:
            self._keep_token()                 # a host that forgot us gave a new one
            self.deliver({"type": "connection", "state": "connected",
                          "text": _("reconnected to the host")})
