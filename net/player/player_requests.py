"""The named requests a player makes of a host, on top of a session's ``request``/``send``.

Owns: one method per request of docs/protocol.md (games, tables, create, sit, invite, leave,
bots, ready, start, watch, snapshot, move, reorder, chat; the events and ratings), with their
defaults and what each
returns. ``Session`` inherits them; they only build messages and read replies: each reads the
reply of its request (a refusal raised SessionError) as that reply's shape.

Must not know about: sockets, threads, keys, any particular game, terminals.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any, TypeVar, cast

from cardparty.core.contract import Move, MoveMap
from cardparty.net.wire.event_replies import (
    EventBrief,
    EventReply,
    EventsReply,
    EventStartReply,
    EventWire,
)
from cardparty.net.wire.play_replies import HostMessage, MoveReply
from cardparty.net.wire.replies import (
    CreateReply,
    GamesReply,
    GameWire,
    SitReply,
    TablesReply,
    TableSummary,
    ViewMessage,
)

R = TypeVar("R")


class PlayerRequests:
    """The requests of docs/protocol.md as methods. Needs ``send``, ``request``, ``views``
    and ``request_timeout`` from the class it is mixed into (``Session``)."""

    views: dict[str, ViewMessage]
    request_timeout: float

    def send(self, type_: str, **fields: Any) -> Future[HostMessage]:
        raise NotImplementedError

    def request(self, type_: str, timeout: float | None = None, **fields: Any
                ) -> HostMessage:
        raise NotImplementedError

    def wait(self, fut: Future[R], what: str, timeout: float | None = None) -> R:
        raise NotImplementedError

    def games(self) -> list[GameWire]:
        """The host's games: each GameInfo.to_wire() plus ``variants`` (VariantInfo maps)."""
        return cast(GamesReply, self.request("games"))["games"]

    def tables(self, most: int = 1000) -> list[TableSummary]:
        """The host's tables (at most ``most``), each a table summary (docs/protocol.md,
        "table"): the host sends them a page at a time; this asks for every page."""
        out: list[TableSummary] = []
        offset: int | None = 0
        while offset is not None and len(out) < most:
            page = cast(TablesReply, self.request("tables", offset=offset))
            out.extend(page["tables"])
            nxt = page.get("next")
            offset = nxt if isinstance(nxt, int) and nxt > offset else None
        return out[:most]

    def create(self, game: str, players: int, settings: dict[str, object] | None = None,
               variants: list[str] | tuple[str, ...] = (), *, idle: float | None = -1.0,
               bot_delay: float = -1.0, title: str = "", seed: int | None = None,
               mode: str = "open") -> TableSummary:
        """Open a table; returns its summary (``id`` is what others join by). ``idle``: the
        idle-turn timeout in seconds (None: never; -1: the host's default); ``bot_delay``:
        seconds a bot waits before it moves (-1: the host's default); ``seed``: the deal's
        seed (a replayable game; None: a fresh one); ``mode``: ``open`` (anyone sits) or
        ``friends`` (only the creator and the players he invites)."""
        return cast(CreateReply, self.request(
            "create", game=game, players=players, settings=settings or {},
            variants=list(variants), idle=idle, bot_delay=bot_delay, title=title, seed=seed,
            mode=mode))["table"]

    def sit(self, table: str, seat: int | None = None) -> int:
        """Take ``seat`` (None: the first free one) at ``table``; returns the seat."""
        return cast(SitReply, self.request("sit", table=table, seat=seat))["seat"]

    def invite(self, table: str, names: list[str] | tuple[str, ...]) -> None:
        """Invite players by username to a friends table: each connected one is told
        (``invited``), and only invitees (and the creator) may sit there."""
        self.request("invite", table=table, names=list(names))

    def leave(self, table: str) -> None:
        """Give up the seat (before the game starts) or stop watching."""
        self.request("leave", table=table)

    def add_bots(self, table: str, count: int | None = None, level: str = "basic") -> None:
        """Seat host bots in ``count`` empty seats (None: all of them)."""
        self.request("bots", table=table, count=count, level=level)

    def ready(self, table: str, ready: bool = True) -> None:
        """Say ready; the game starts by itself once every seat is taken and all are ready."""
        self.request("ready", table=table, ready=ready)

    def start(self, table: str) -> None:
        """Start now (every seat must be taken; every seated player counts as ready)."""
        self.request("start", table=table)

    def watch(self, table: str) -> HostMessage:
        """Watch as a spectator; returns the first view message (also pushed to the inbox),
        or for an open table its ``table`` summary."""
        return self.request("watch", table=table)

    def snapshot(self, table: str) -> HostMessage:
        """A fresh full view message of ``table`` (also pushed to the inbox), or for an open
        table its ``table`` summary."""
        return self.request("snapshot", table=table)

    def send_move(self, table: str, move: int | MoveMap | Move,
                  version: int | None = None) -> Future[MoveReply]:
        """Send a move without waiting: ``move`` is an id from the view's ``moves`` list (then
        ``version`` is required: the view's version), a move map, or a Move. The future holds
        ``ok`` (with the new ``version``) or raises SessionError (``stale``, ``illegal``...)."""
        if isinstance(move, Move):
            move = move.to_wire()
        if version is None:
            view = self.views.get(table)
            version = None if view is None else view["version"]
        # the reply to a move is its ``ok`` (a refusal raises SessionError)
        return cast("Future[MoveReply]", self.send("move", table=table, move=move,
                                                   version=version))

    def move(self, table: str, move: int | MoveMap | Move,
             version: int | None = None) -> MoveReply:
        """``send_move`` and wait for the reply."""
        return self.wait(self.send_move(table, move, version), "move")

    def reorder(self, table: str, order: list[str]) -> None:
        """Put your hand in your own order (a permutation of it)."""
        self.request("reorder", table=table, order=list(order))

    def chat(self, table: str | None, text: str) -> None:
        """Say something to everybody at ``table`` (players and spectators); ``table`` None:
        to everybody in the lobby (every player connected who is not in a game)."""
        if table is None:
            self.request("chat", text=text)
        else:
            self.request("chat", table=table, text=text)

    # --- events and ratings (docs/protocol.md, "Events and ratings") ------------------------

    def events(self) -> list[EventBrief]:
        """Every event the host keeps, newest first (an ``events`` entry each)."""
        return cast(EventsReply, self.request("events"))["events"]

    def event(self, event: str) -> EventWire:
        """The event ``event`` as it is now (its standings and results); from now on its
        changes are pushed as ``event`` too."""
        return cast(EventReply, self.request("event", event=event))["event"]

    def event_create(self, game: str, players: int, **fields: Any) -> EventWire:
        """Create an event (an organiser only): ``fields`` as docs/protocol.md lists them
        (``rounds``, ``format``, ``duplicate``, ``fill``, ...); returns the event."""
        return cast(EventReply, self.request("event_create", game=game, players=players,
                                             **fields))["event"]

    def event_join(self, event: str) -> EventWire:
        """Sign up (or enter late, or come back); returns the event."""
        return cast(EventReply, self.request("event_join", event=event))["event"]

    def event_leave(self, event: str) -> None:
        """Withdraw from ``event`` (before its start: take the sign-up back)."""
        self.request("event_leave", event=event)

    def event_start(self, event: str) -> int:
        """Start ``event`` (its organiser only); the number of rounds it plays."""
        return cast(EventStartReply, self.request("event_start", event=event))["rounds"]

    def event_deadline(self, event: str, minutes: float) -> None:
        """The round in play ends ``minutes`` from now (0: at once); its organiser only."""
        self.request("event_deadline", event=event, minutes=minutes)

    def ratings(self, game: str | None = None, name: str | None = None,
                offset: int = 0) -> HostMessage:
        """A game's ratings (a page from ``offset``), or, without a game, one player's at
        every game (``name``; None: your own): the ``ratings`` reply."""
        return self.request("ratings", game=game, name=name, offset=offset)
