"""The host node: the authoritative engine for many tables, served over one ROUTER socket.

Owns: the ROUTER socket (ROUTER_MANDATORY so a send to a vanished client fails loudly instead
of vanishing, ROUTER_HANDOVER so a reconnecting client with the same routing id takes its route
over at once, an explicit linger), players and their session tokens, the lobby (create, sit,
leave, bots, ready, start, watch; friends tables and their invitations, MO-4), the per-seat
views pushed after every change, moves with request ids and versions, the host's timers (game
deadlines, idle turns, bot moves), heartbeats, chat, and the persistence of live tables
(``store``).

Patterns (zguide):
- **Clone**: every view pushed to a client carries the table's ``version`` and ``prev`` (the
  version of the previous view sent to that client); a client that sees a gap or reconnects
  asks for a snapshot (``snapshot``), which is the whole view plus the recent events.
- **Paranoid Pirate**: the host answers every ``ping`` and counts any message as a heartbeat;
  a player silent for ``heartbeat * liveness`` seconds is shown to the others as disconnected,
  and his turns time out to a bot after the table's idle timeout; his token gives the seat back.

Everything runs on ONE thread (the receive loop), so tables need no locks; a request is
handled to the end before the next is read. Untrusted input is checked by ``protocol``; a bad
frame costs its sender an ``error`` reply. Every call into a game's plugin is guarded: a plugin
that raises stops its own table (status ``broken``) and nothing else.

Must not know about: any particular game (everything goes through ``core.table.Table``),
terminals.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import logging
import math
import os
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import zmq

from cardparty.core.bots import LEVELS, PolicyBot
from cardparty.core.contract import SYSTEM, Deadline, Move
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.narrate import describe
from cardparty.core.table import IllegalMove, Table, TableError
from cardparty.net.protocol import (
    HARD_FRAME,
    PROTOCOL,
    ProtocolError,
    check_request,
    decode,
    encode,
    error,
    message,
    rid_of,
)
from cardparty.net.store import Store

log = logging.getLogger("cardparty.host")
log.addHandler(logging.NullHandler())   # silent in-process (under a terminal UI) unless asked

#: Replies a host remembers per player, to answer a repeated request id without acting twice.
REPLY_MEMORY = 256
#: Events a snapshot repeats, so a client that comes back can tell what happened.
SNAPSHOT_EVENTS = 20
#: Requests a second one player may send, and how many at once: far above any person or bot
#: (a flat-out bench client sends about 550 a second), low enough that a client sending as
#: fast as it can takes a small share of the host's one thread from the other tables.
RATE = 1000.0
BURST = 2 * RATE
#: Seconds a host keeps trying to bind a port that is still in use (see ``listen``).
BIND_RETRY = 2.0
#: Requests answered from memory when their rid repeats (the others are harmless to redo).
REMEMBERED = frozenset({"create", "sit", "leave", "bots", "ready", "start", "move", "reorder",
                        "chat", "bye", "invite"})
#: Names a friends table may invite in all (MO-4), so that invitations cannot grow unbounded.
MAX_INVITED = 64


_MORE = int(zmq.SNDMORE | zmq.NOBLOCK)
_LAST = int(zmq.NOBLOCK)


@dataclass(eq=False)
class Player:
    """One person (or bot client) at this host, across connections: found by token."""

    id: str
    token: str
    name: str
    route: bytes | None = None
    connected: bool = False
    last_seen: float = 0.0
    tables: set[str] = field(default_factory=set)
    replies: OrderedDict[Any, bytes] = field(default_factory=OrderedDict)
    #: requests this player may still send at once (a token bucket, see ``RATE``)
    allowance: float = BURST
    allowance_at: float = 0.0

    def spend(self, now: float) -> bool:
        """Take one request from the player's allowance; False when it is used up. The
        allowance refills at ``RATE`` requests a second up to ``BURST``."""
        self.allowance = min(BURST, self.allowance + (now - self.allowance_at) * RATE)
        self.allowance_at = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    def remember(self, rid: Any, frame: bytes) -> None:
        self.replies[rid] = frame
        if len(self.replies) > REPLY_MEMORY:
            self.replies.popitem(last=False)


@dataclass(eq=False)
class Seat:
    """One seat of a host table: empty, a human (a player) or a host bot."""

    kind: str = "empty"
    player: Player | None = None
    name: str = ""
    ready: bool = False
    standin: bool = False
    level: str = "basic"


@dataclass(eq=False)
class HostTable:
    """A table as the host keeps it: the game (a core Table), seats, watchers, timers."""

    id: str
    seq: int
    title: str
    table: Table
    idle: float | None
    bot_delay: float
    seats: list[Seat]
    status: str = "open"
    spectators: set[str] = field(default_factory=set)
    #: player id -> [version of the last view sent, events cursor]
    streams: dict[str, list[Any]] = field(default_factory=dict)
    deadlines: dict[tuple[Any, ...], tuple[float, Deadline]] = field(default_factory=dict)
    changed_at: float = 0.0
    bot_due: float | None = None
    idle_due: float | None = None
    ended_at: float | None = None
    failure: str = ""
    rng: random.Random = field(default_factory=random.Random)
    #: (event index, redacted?) -> the event in words, so each is narrated once, not per seat
    texts: dict[tuple[int, bool], str] = field(default_factory=dict)
    #: ``friends`` (MO-4: only the creator and invitees sit) or ``open`` (anyone sits).
    mode: str = "open"
    #: Who created the table: his token (identity, survives a restart) and name (words).
    creator_token: str = ""
    creator_name: str = ""
    #: Usernames invited to a friends table (as first spelt; matched without regard to case)
    #: -> the name of who invited them, to say so again when the invitee comes back.
    invited: dict[str, str] = field(default_factory=dict)

    def inviter_of(self, name: str) -> str | None:
        """Who invited ``name`` here (None: nobody did)."""
        wanted = name.casefold()
        return next((by for n, by in self.invited.items() if n.casefold() == wanted), None)

    def invitation_pending(self, player: Player) -> bool:
        """``player`` is invited here and may still come: the table takes seats and nobody
        of his name sits there yet (names, not key pairs, are what v1 invites)."""
        name = player.name.casefold()
        return (self.mode == "friends" and self.status == "open"
                and player.token != self.creator_token and self.inviter_of(name) is not None
                and not any(s.kind == "human" and s.name.casefold() == name
                            for s in self.seats))

    def seat_of(self, player: Player) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player is player:
                return i
        return None

    def next_due(self) -> float | None:
        if self.status != "playing":
            return None
        dues = [due for due, _ in self.deadlines.values()]
        if self.bot_due is not None:
            dues.append(self.bot_due)
        if self.idle_due is not None:
            dues.append(self.idle_due)
        return min(dues) if dues else None


class Host:
    """A host node. ``start()`` runs it on a background thread and returns its address;
    ``run()`` runs it on the calling thread until ``stop()``.

    ``bind`` is a ZeroMQ endpoint; port 0 (``tcp://127.0.0.1:0``) lets the system choose.
    ``data`` is a directory for the SQLite file of live tables (None: nothing is kept).
    ``observer(table_id, table)`` is called on the host's thread after every change of a
    playing table (tests use it to check what each seat may see).
    """

    def __init__(self, bind: str = "tcp://127.0.0.1:0", name: str = "cardparty", *,
                 data: str | os.PathLike[str] | None = None, heartbeat: float = 1.0,
                 liveness: int = 3, idle: float | None = 120.0, bot_delay: float = 0.0,
                 keep_over: float = 600.0, max_tables: int = 1000, max_players: int = 4096,
                 catalog: Catalog | None = None,
                 observer: Callable[[str, Table], None] | None = None) -> None:
        self.bind = bind
        self.name = name
        self.heartbeat = heartbeat
        self._slow_down = encode(error("slow_down", f"more than {RATE:.0f} requests a second "
                                       "from you: this one was not read; slow down"))
        self.liveness = liveness
        self.idle = idle
        self.bot_delay = bot_delay
        self.keep_over = keep_over
        self.max_tables = max_tables
        self.max_players = max_players
        self.catalog = catalog or load_catalog()
        self.observer = observer
        self.store = Store(data) if data is not None else None
        self.address = ""
        self.port = 0
        self.tables: dict[str, HostTable] = {}
        #: the tables in play, the only ones with timers: the loop looks at these alone, as
        #: finished tables are kept for a while and would cost it a scan per message
        self.live: dict[str, HostTable] = {}
        self.players: dict[str, Player] = {}   # by token
        self.by_id: dict[str, Player] = {}
        self.routes: dict[bytes, Player] = {}
        #: Routes whose player said hello again from another connection (oldest first).
        self.superseded: dict[bytes, None] = {}
        self._ids = itertools.count(1)
        self._table_seq = itertools.count(1)
        self._ctx = zmq.Context.instance()
        self._sock: zmq.Socket | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._bound = threading.Event()
        self._failure: BaseException | None = None
        self.handled = 0
        if self.store is not None:
            self._load()

    # --- life ------------------------------------------------------------------------------

    def listen(self) -> str:
        """Bind the ROUTER socket now (``run`` does it when not done) and return the bound
        address, e.g. ``tcp://127.0.0.1:54321``."""
        if self._sock is not None:
            return self.address
        sock = self._ctx.socket(zmq.ROUTER)
        sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
        sock.setsockopt(zmq.ROUTER_HANDOVER, 1)
        sock.setsockopt(zmq.LINGER, 200)
        sock.setsockopt(zmq.MAXMSGSIZE, HARD_FRAME)
        sock.setsockopt(zmq.SNDHWM, 10_000)
        endpoint = self.bind
        if endpoint.startswith("tcp://") and endpoint.endswith(":0"):
            endpoint = endpoint[:-2] + ":*"
        # A host stopped a moment ago on this port may still hold it: ZeroMQ closes a
        # listener in its I/O thread, after the socket's close returns. Try again for a
        # short while before saying the port is taken.
        give_up = time.monotonic() + BIND_RETRY
        while True:
            try:
                sock.bind(endpoint)
                break
            except zmq.ZMQError as exc:
                if exc.errno != errno.EADDRINUSE or time.monotonic() > give_up:
                    sock.close(0)
                    raise
                time.sleep(0.05)
        self.address = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        self.port = int(self.address.rsplit(":", 1)[1]) if "tcp://" in self.address else 0
        self._sock = sock
        return self.address

    def start(self, timeout: float = 5.0) -> str:
        """Bind, run on a background thread, and return the bound address."""
        self._thread = threading.Thread(target=self._thread_main, name="cardparty-host",
                                        daemon=True)
        self._thread.start()
        if not self._bound.wait(timeout):
            raise RuntimeError("the host did not start")
        if self._failure is not None:
            raise RuntimeError(f"the host could not start: {self._failure}")
        return self.address

    def _thread_main(self) -> None:
        try:
            self.run()
        except BaseException as exc:
            if self._bound.is_set():
                raise
            self._failure = exc          # start() raises it, in words, to its caller
            self._bound.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the loop and close the socket (and the store)."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def __enter__(self) -> Host:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def run(self) -> None:
        """The receive loop: requests, then due timers, then liveness, until ``stop()``."""
        self.listen()
        self._bound.set()
        sock = self._sock
        assert sock is not None
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        next_sweep = time.monotonic()
        try:
            while not self._stopping.is_set():
                now = time.monotonic()
                due = min((d for t in self.live.values() if (d := t.next_due()) is not None),
                          default=now + 0.1)
                wait = min(max(0.0, due - now), 0.1, max(0.0, next_sweep - now))
                if poller.poll(math.ceil(wait * 1000)):
                    for _ in range(256):
                        try:
                            frames = self._recv(sock)
                        except zmq.Again:
                            break
                        self._frames(frames)
                now = time.monotonic()
                try:
                    self._timers(now)
                    if now >= next_sweep:
                        next_sweep = now + min(self.heartbeat / 2, 1.0)
                        self._sweep(now)
                except Exception:          # a host bug must not end the loop
                    log.exception("host loop")
        finally:
            sock.close()
            if self.store is not None:
                self.store.close()

    # --- receiving -------------------------------------------------------------------------

    @staticmethod
    def _recv(sock: zmq.Socket) -> list[bytes]:
        """One message: the route and its frames, keeping at most two frames of a hostile
        many-part message (the count is kept as empty frames, for the ``frames`` error)."""
        frames = [sock.recv(zmq.NOBLOCK)]
        while sock.getsockopt(zmq.RCVMORE):
            part = sock.recv(zmq.NOBLOCK)
            frames.append(part if len(frames) < 3 else b"")
            if len(frames) > 64:
                while sock.getsockopt(zmq.RCVMORE):
                    sock.recv(zmq.NOBLOCK)
        return frames

    def _frames(self, frames: list[bytes]) -> None:
        route = frames[0]
        self.handled += 1
        player = self.routes.get(route)
        now = time.monotonic()
        if player is not None:
            if not player.spend(now):
                # Refused before it is even unpacked: a flood costs the host as little as can be.
                self._send_raw(route, self._slow_down)
                return
            player.last_seen = now
            if not player.connected:
                self._set_connected(player, True)
        req: dict[str, Any] | None = None
        raw: dict[str, Any] | None = None
        try:
            if len(frames) != 2:
                raise ProtocolError("frames", f"a message must be one frame, not {len(frames) - 1}")
            raw = decode(frames[1])
            req = check_request(raw)
            kind = req["type"]
            if kind == "hello":
                self._hello(route, req)
                return
            if player is None:
                if route in self.superseded:
                    raise ProtocolError("replaced", "you said hello again from another "
                                                    "connection; this one is closed")
                raise ProtocolError("hello_first", "say hello first")
            rid = req["rid"]
            if rid is not None and kind in REMEMBERED:
                old = player.replies.get(rid)
                if old is not None:
                    self._send_raw(route, old)
                    return
            reply = getattr(self, f"_on_{kind}")(player, req)
        except ProtocolError as exc:
            reply = self._error_for(exc.code, exc.message, raw)
        except Exception as exc:  # a host bug must cost one request, never the host
            log.exception("request failed")
            reply = self._error_for("internal", f"the host failed: {type(exc).__name__}: {exc}",
                                    raw)
        if reply is None:
            return
        if req is not None and req.get("rid") is not None and reply.get("rid") is None:
            reply["rid"] = req["rid"]
        frame = encode(reply)
        if (player is not None and req is not None and req.get("rid") is not None
                and req["type"] in REMEMBERED):
            player.remember(req["rid"], frame)
        self._send_raw(route, frame)

    @staticmethod
    def _error_for(code: str, text: str, raw: dict[str, Any] | None) -> dict[str, Any]:
        """The error reply, with the rid, type and table of the message when it has them."""
        if raw is None:
            return error(code, text)
        table = raw.get("table")
        return error(code, text, rid_of(raw), raw["type"],
                     table if isinstance(table, str) and len(table) <= 16 else None)

    def _send_raw(self, route: bytes, frame: bytes) -> bool:
        sock = self._sock
        assert sock is not None
        try:
            sock.send(route, _MORE)          # ROUTER_MANDATORY fails here, never half-way
            sock.send(frame, _LAST)
            return True
        except zmq.Again:
            return False           # that client's queue is full: it will ask for a snapshot
        except zmq.ZMQError:
            player = self.routes.pop(route, None)   # EHOSTUNREACH: the client is gone
            if player is not None and player.route == route:
                player.route = None
                self._set_connected(player, False)
            return False

    def _send(self, player: Player, msg: dict[str, Any]) -> bool:
        if player.route is None:
            return False
        return self._send_raw(player.route, encode(msg))

    # --- players ---------------------------------------------------------------------------

    def _hello(self, route: bytes, req: dict[str, Any]) -> None:
        token = req.get("token")
        player = self.players.get(token) if token else None
        known = self.routes.get(route)
        if player is None and known is not None and known.name == req["name"]:
            player = known               # the same connection saying hello again (a retry)
        resumed = player is not None
        if player is None:
            if len(self.players) >= self.max_players:
                self._send_raw(route, encode(error("busy", "this host has too many players",
                                                   req["rid"], "hello")))
                return
            player = Player(id=f"p{next(self._ids)}", token=secrets.token_hex(16),
                            name=req["name"])
            self.players[player.token] = player
            self.by_id[player.id] = player
            if self.store is not None:
                self.store.put_player(player.token, player.id, player.name)
        old = self.routes.get(route)
        if old is not None and old is not player:
            old.route = None
            self._set_connected(old, False)
        if player.route is not None and player.route != route:
            self.routes.pop(player.route, None)
            self.superseded[player.route] = None        # answered "replaced" from now on
            while len(self.superseded) > 4096:
                del self.superseded[next(iter(self.superseded))]
        player.route = route
        self.routes[route] = player
        self.superseded.pop(route, None)
        player.last_seen = time.monotonic()
        self._send_raw(route, encode(message(
            "welcome", rid=req["rid"], host=self.name, token=player.token, player=player.id,
            name=player.name, resumed=resumed, heartbeat=self.heartbeat,
            liveness=self.liveness, protocol=PROTOCOL, games=sorted(self.catalog.games))))
        self._set_connected(player, True, force=True)
        # Resume: he is back, so no bot plays for him any more; a fresh picture of every table.
        for tid in sorted(player.tables):
            ht = self.tables.get(tid)
            if ht is None:
                continue
            seat = ht.seat_of(player)
            if seat is not None and ht.seats[seat].standin:
                ht.seats[seat].standin = False
                self._schedule(ht)
            if seat is not None or player.id in ht.spectators:
                self._send(player, message("table", table=self._summary(ht)))
                if ht.status != "open":
                    self._push_view(ht, player, seat, snapshot=True)
        # MO-4: invitations still pending are told again, so one missed while away is not lost.
        for ht in self.tables.values():
            if ht.invitation_pending(player):
                self._send(player, self._invitation(ht, ht.inviter_of(player.name) or ""))

    def _set_connected(self, player: Player, connected: bool, force: bool = False) -> None:
        if player.connected == connected and not force:
            return
        changed = player.connected != connected
        player.connected = connected
        if changed:
            log.info("%s (%s) %s", player.name, player.id,
                     "connected" if connected else "disconnected")
        if changed:
            for tid in list(player.tables):
                ht = self.tables.get(tid)
                if ht is not None and ht.seat_of(player) is not None:
                    self._push_summary(ht)

    def _sweep(self, now: float) -> None:
        """Liveness (Paranoid Pirate) and forgetting what nobody needs any more."""
        silent = now - self.heartbeat * self.liveness
        forgotten = now - self.keep_over
        for player in list(self.players.values()):
            if player.connected and player.last_seen < silent:
                self._set_connected(player, False)
            elif not player.connected and not player.tables and player.last_seen < forgotten:
                self._forget(player)       # gone for long, at no table: his token expires
        for ht in list(self.tables.values()):
            if ht.ended_at is not None and now - ht.ended_at > self.keep_over:
                self._drop_table(ht)
            elif (ht.status == "open" and now - ht.changed_at > self.keep_over
                  and not any(s.kind == "human" and s.player is not None
                              and s.player.connected for s in ht.seats)):
                self._drop_table(ht)       # an open table nobody present cares about

    def _forget(self, player: Player) -> None:
        self.players.pop(player.token, None)
        self.by_id.pop(player.id, None)
        if player.route is not None:
            self.routes.pop(player.route, None)
        if self.store is not None:
            self.store.drop_player(player.token)

    def _make_room(self) -> bool:
        """At the table limit, drop the table that ended longest ago: a finished table is
        kept only so that its players can still read the result, and a busy host (a room of
        bot clients playing game after game) must not refuse new tables because of old
        ones. Tables open or in play are never dropped for room."""
        ended = [ht for ht in self.tables.values() if ht.ended_at is not None]
        if not ended:
            return False
        self._drop_table(min(ended, key=lambda ht: ht.ended_at or 0.0))
        return True

    def _drop_table(self, ht: HostTable) -> None:
        self.tables.pop(ht.id, None)
        self.live.pop(ht.id, None)
        for player in self.players.values():
            player.tables.discard(ht.id)
        if self.store is not None:
            self.store.drop_table(ht.id)

    # --- lobby requests --------------------------------------------------------------------

    def _on_ping(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        return message("pong", at=req.get("at"), time=time.time())

    def _on_bye(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        route = player.route
        reply = message("ok", about="bye")
        if route is not None:
            self._send_raw(route, encode({**reply, "rid": req["rid"]}))
            self.routes.pop(route, None)
        player.route = None
        self._set_connected(player, False)
        return None  # type: ignore[return-value]

    def _on_games(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        games = []
        for info in sorted(self.catalog.games.values(), key=lambda g: g.id):
            games.append({**info.to_wire(), "variants": [
                v.to_wire() for v in self.catalog.variants_of(info.id)]})
        return message("games", games=games)

    def _on_tables(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        return message("tables", tables=[self._summary(ht) for ht in self.tables.values()])

    def _on_create(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        if len(self.tables) >= self.max_tables and not self._make_room():
            raise ProtocolError("busy", "this host has too many tables")
        game = req["game"]
        if game not in self.catalog.games:
            raise ProtocolError("no_game", f"no game {game!r} is installed here (installed: "
                                           f"{', '.join(sorted(self.catalog.games))})")
        for v in req["variants"]:
            try:
                self.catalog.variant(game, v)
            except KeyError as exc:
                raise ProtocolError("no_game", exc.args[0]) from None
        players = req["players"]
        try:
            table = Table(game, players, req["settings"], req["variants"], seed=req["seed"],
                          names=[f"Seat {i + 1}" for i in range(players)],
                          catalog=self.catalog)
        except TableError as exc:
            raise ProtocolError("bad_table", str(exc)) from None
        except Exception as exc:  # a plugin failing at setup must not reach the loop
            raise ProtocolError("game_failed", f"the game failed to set up: {exc}") from None
        idle = self.idle if req["idle"] == -1.0 else req["idle"]
        bot_delay = self.bot_delay if req["bot_delay"] == -1.0 else req["bot_delay"]
        seq = next(self._table_seq)
        ht = HostTable(id=f"t{seq}", seq=seq, title=req["title"] or f"{table.info.name} #{seq}",
                       table=table, idle=idle, bot_delay=bot_delay,
                       seats=[Seat() for _ in range(players)], changed_at=time.monotonic(),
                       rng=random.Random(table.seed ^ 0x5EED), mode=req["mode"],
                       creator_token=player.token, creator_name=player.name)
        self.tables[ht.id] = ht
        self._persist(ht)
        log.info("%s opened table %s: %s for %d (%s)", player.name, ht.id, game, players,
                 ht.mode)
        return message("table", table=self._summary(ht))

    def _table(self, req: dict[str, Any]) -> HostTable:
        ht = self.tables.get(req["table"])
        if ht is None:
            raise ProtocolError("no_table", f"there is no table {req['table']!r}")
        return ht

    def _on_sit(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self._table(req)
        if ht.seat_of(player) is not None:
            raise ProtocolError("seated", f"you already sit at seat {ht.seat_of(player)}")
        if ht.status != "open":
            raise ProtocolError("not_open", "the game at this table has started")
        if (ht.mode == "friends" and player.token != ht.creator_token
                and ht.inviter_of(player.name) is None):
            raise ProtocolError("not_invited", f"{ht.creator_name} created this friends table: "
                                               "only the players invited may sit")
        seat = req["seat"]
        if seat is None:
            free = [i for i, s in enumerate(ht.seats) if s.kind == "empty"]
            if not free:
                raise ProtocolError("no_seat", "every seat at this table is taken")
            seat = free[0]
        elif not 0 <= seat < len(ht.seats):
            raise ProtocolError("no_seat", f"this table has seats 0 to {len(ht.seats) - 1}")
        elif ht.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken by {ht.seats[seat].name}")
        ht.seats[seat] = Seat("human", player, player.name)
        ht.spectators.discard(player.id)
        player.tables.add(ht.id)
        self._lobby_changed(ht)
        return message("seated", table=ht.id, seat=seat)

    def _on_leave(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self._table(req)
        seat = ht.seat_of(player)
        if seat is None:
            if player.id not in ht.spectators:
                raise ProtocolError("not_seated", "you are neither seated nor watching here")
            ht.spectators.discard(player.id)
        elif ht.status == "open":
            ht.seats[seat] = Seat()
            for s in ht.seats:
                s.ready = False if s.kind == "human" else s.ready
        elif ht.status == "playing":
            old = ht.seats[seat]            # a bot plays his seat to the end
            ht.seats[seat] = Seat("bot", None, f"{old.name} (bot)", True)
            self._schedule(ht)
        else:
            ht.seats[seat].player = None
        player.tables.discard(ht.id)
        ht.streams.pop(player.id, None)
        self._lobby_changed(ht)
        return message("ok", about="leave")

    def _on_bots(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self._table(req)
        if ht.mode == "friends":
            if player.token != ht.creator_token:        # MO-4: bots only if the creator adds them
                raise ProtocolError("not_creator", f"only {ht.creator_name}, who created this "
                                                   "friends table, may add bots to it")
        elif ht.seat_of(player) is None:
            raise ProtocolError("not_seated", "only a seated player may add bots")
        if ht.status != "open":
            raise ProtocolError("not_open", "the game at this table has started")
        if req["level"] not in LEVELS:
            raise ProtocolError("bad_field", f"bots: field level must be one of "
                                             f"{', '.join(LEVELS)}")
        empty = [i for i, s in enumerate(ht.seats) if s.kind == "empty"]
        if not empty:
            raise ProtocolError("no_seat", "there is no empty seat for a bot")
        count = len(empty) if req["count"] is None else req["count"]
        for i in empty[:count]:
            ht.seats[i] = Seat("bot", None, f"Bot {i + 1}", True, level=req["level"])
        self._lobby_changed(ht)
        return message("ok", about="bots")

    def _on_invite(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        """MO-4: a player seated at a friends table (or its creator) invites others by
        username. The names are kept with the table; every connected player of that name is
        told now, and again on his next hello while the invitation is pending."""
        ht = self._table(req)
        if player.token != ht.creator_token and ht.seat_of(player) is None:
            raise ProtocolError("not_seated", "only a player seated at this table or its "
                                              "creator may invite")
        if ht.mode != "friends":
            raise ProtocolError("not_friends", "this table is open: anyone may sit, no "
                                               "invitation is needed")
        if ht.status != "open":
            raise ProtocolError("not_open", "the game at this table has started")
        wanted = {n.strip().casefold() for n in req["names"]} - {""}
        if not wanted:
            raise ProtocolError("bad_field", "invite: field names holds no name")
        fresh: dict[str, str] = {}
        for name in req["names"]:
            name = name.strip()
            if name and ht.inviter_of(name) is None and name.casefold() not in (
                    n.casefold() for n in fresh):
                fresh[name] = player.name
        if len(ht.invited) + len(fresh) > MAX_INVITED:
            raise ProtocolError("bad_field", f"invite: a table invites at most {MAX_INVITED} "
                                             f"players ({len(ht.invited)} so far)")
        ht.invited.update(fresh)
        frame = encode(self._invitation(ht, player.name))
        for p in self.players.values():
            if (p is not player and p.route is not None and p.name.casefold() in wanted
                    and ht.seat_of(p) is None):
                self._send_raw(p.route, frame)
        log.info("%s invites %s to table %s", player.name, ", ".join(sorted(wanted)), ht.id)
        self._lobby_changed(ht)
        return message("ok", about="invite")

    def _invitation(self, ht: HostTable, sender: str) -> dict[str, Any]:
        """The ``invited`` push: which table, its game and title, and who invites."""
        return message("invited", table=ht.id, game=ht.table.game, title=ht.title,
                       **{"from": sender})

    def _on_ready(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self._table(req)
        seat = ht.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", "you have no seat at this table")
        if ht.status != "open":
            raise ProtocolError("not_open", "the game at this table has started")
        ht.seats[seat].ready = req["ready"]
        self._lobby_changed(ht)
        return message("ok", about="ready")

    def _on_start(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self._table(req)
        if ht.seat_of(player) is None:
            raise ProtocolError("not_seated", "only a seated player may start the game")
        if ht.status != "open":
            raise ProtocolError("not_open", "the game at this table has started")
        empty = sum(s.kind == "empty" for s in ht.seats)
        if empty:
            raise ProtocolError("not_full", f"{empty} seat{'s are' if empty > 1 else ' is'} "
                                            "empty: wait for players or add bots")
        for s in ht.seats:
            s.ready = True
        self._start(ht)
        return message("ok", about="start")

    def _on_watch(self, player: Player, req: dict[str, Any]) -> dict[str, Any] | None:
        ht = self._table(req)
        if ht.seat_of(player) is None:
            ht.spectators.add(player.id)
            player.tables.add(ht.id)
        if ht.status == "open":
            self._push_summary(ht)
            return message("table", table=self._summary(ht))
        self._send(player, message("table", table=self._summary(ht)))
        self._push_view(ht, player, ht.seat_of(player), snapshot=True, rid=req["rid"])
        return None

    def _on_snapshot(self, player: Player, req: dict[str, Any]) -> dict[str, Any] | None:
        ht = self._table(req)
        seat = ht.seat_of(player)
        if seat is None and player.id not in ht.spectators:
            raise ProtocolError("not_seated", "sit or watch first")
        if ht.status == "open":
            return message("table", table=self._summary(ht))
        self._back(ht, seat)
        self._push_view(ht, player, seat, snapshot=True, rid=req["rid"])
        return None

    def _on_chat(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self._table(req)
        seat = ht.seat_of(player)
        if seat is None and player.id not in ht.spectators:
            raise ProtocolError("not_seated", "sit or watch to talk at this table")
        self._back(ht, seat)
        said = message("chat", table=ht.id, seat=seat, player=player.id, name=player.name,
                       text=req["text"], time=time.time())
        frame = encode(said)
        for p in self._recipients(ht):
            if p.route is not None:
                self._send_raw(p.route, frame)
        return message("ok", about="chat")

    # --- game requests ---------------------------------------------------------------------

    def _playing(self, player: Player, req: dict[str, Any]) -> tuple[HostTable, int]:
        ht = self._table(req)
        seat = ht.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", "you have no seat at this table")
        if ht.status != "playing":
            raise ProtocolError("not_playing", f"the table is {ht.status}")
        return ht, seat

    def _on_move(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht, seat = self._playing(player, req)
        table = ht.table
        self._back(ht, seat)
        version = req["version"]
        if version is not None and version != table.version:
            raise ProtocolError("stale", f"the table has moved on (version {table.version}); "
                                         f"your move was made on version {version}")
        wanted = req["move"]
        try:
            if isinstance(wanted, int):
                if version is None:
                    raise ProtocolError("bad_field", "move: a move id needs the view's version")
                moves = table.legal_moves(seat)
                if wanted >= len(moves):
                    raise ProtocolError("no_move", f"there is no move {wanted} in your list "
                                                   f"({len(moves)} moves)")
                move = moves[wanted]
            else:
                try:
                    move = Move.from_wire(wanted)
                except ValueError as exc:
                    raise ProtocolError("bad_field", f"move: {exc}") from None
            events = table.play(seat, move)
        except IllegalMove as exc:
            raise ProtocolError("illegal", str(exc)) from None
        except ProtocolError:
            raise
        except Exception as exc:
            self._fail(ht, exc)
            raise ProtocolError("game_failed", f"the game failed: {exc}") from None
        del events
        self._changed(ht)
        return message("ok", about="move", version=table.version)

    def _on_reorder(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht, seat = self._playing(player, req)
        self._back(ht, seat)
        try:
            ht.table.reorder(seat, req["order"])
        except IllegalMove as exc:
            raise ProtocolError("illegal", exc.reason) from None
        except Exception as exc:
            self._fail(ht, exc)
            raise ProtocolError("game_failed", f"the game failed: {exc}") from None
        self._changed(ht)
        return message("ok", about="reorder", version=ht.table.version)

    def _back(self, ht: HostTable, seat: int | None) -> None:
        """The player at ``seat`` did something at this table: no bot stands in for him."""
        if seat is not None and ht.seats[seat].standin:
            ht.seats[seat].standin = False
            self._push_summary(ht)
            self._schedule(ht)

    # --- the table's life ------------------------------------------------------------------

    def _lobby_changed(self, ht: HostTable) -> None:
        ht.changed_at = time.monotonic()
        if (ht.status == "open" and all(s.kind != "empty" for s in ht.seats)
                and all(s.ready for s in ht.seats)):
            self._start(ht)
            return
        self._persist(ht)
        self._push_summary(ht)

    def _start(self, ht: HostTable) -> None:
        log.info("table %s starts: %s", ht.id, ", ".join(s.name for s in ht.seats))
        ht.status = "playing"
        self.live[ht.id] = ht
        ht.table.names = [s.name for s in ht.seats]
        ht.changed_at = time.monotonic()
        self._push_summary(ht)
        self._changed(ht, snapshot=True)

    def _changed(self, ht: HostTable, snapshot: bool = False) -> None:
        """After every change of a playing table: keep it, tell everybody, reset timers."""
        table = ht.table
        ht.changed_at = time.monotonic()
        try:
            result = table.result()
        except Exception as exc:
            self._fail(ht, exc)
            return
        if result is not None and ht.status == "playing":
            ht.status = "over"
            self.live.pop(ht.id, None)
            ht.ended_at = time.monotonic()
            log.info("table %s is over: places %s", ht.id, list(result.places))
        self._persist(ht)
        if self.observer is not None:
            self.observer(ht.id, table)
        if ht.status == "over":
            ht.deadlines.clear()
            ht.bot_due = ht.idle_due = None
        else:
            self._schedule(ht)           # before the views: they show the timers
        shared = self._shared(ht)
        for player in self._recipients(ht):
            self._push_view(ht, player, ht.seat_of(player), snapshot=snapshot, shared=shared)
        if ht.status == "over":
            self._push_summary(ht)

    def _fail(self, ht: HostTable, exc: BaseException) -> None:
        """A game's plugin raised: stop this table only, and say so to everybody at it."""
        log.error("table %s stopped: its game failed", ht.id, exc_info=exc)
        ht.status = "broken"
        self.live.pop(ht.id, None)
        ht.failure = f"{type(exc).__name__}: {exc}"
        ht.ended_at = time.monotonic()
        ht.deadlines.clear()
        ht.bot_due = ht.idle_due = None
        self._push_summary(ht)

    def _schedule(self, ht: HostTable) -> None:
        """Recompute the table's timers after a change (see docs/protocol.md, "Timers")."""
        if ht.status != "playing":
            return
        now = time.monotonic()
        table = ht.table
        try:
            listed = table.deadlines()
            to_move = table.to_move()
        except Exception as exc:
            self._fail(ht, exc)
            return
        fresh: dict[tuple[Any, ...], tuple[float, Deadline]] = {}
        for d in listed:
            key = (d.name, d.seat, d.move.kind, d.move.cards, d.move.choice)
            old = ht.deadlines.get(key)
            fresh[key] = old if old is not None else (now + d.seconds, d)
        ht.deadlines = fresh
        bots = [s for s in to_move if ht.seats[s].kind == "bot" or ht.seats[s].standin]
        ht.bot_due = ht.changed_at + ht.bot_delay if bots else None
        humans = [s for s in to_move if ht.seats[s].kind == "human" and not ht.seats[s].standin]
        ht.idle_due = ht.changed_at + ht.idle if humans and ht.idle is not None else None

    def _timers(self, now: float) -> None:
        """Fire what is due: at most one action per table per turn of the loop, so a table of
        bots never starves the others or the socket."""
        for ht in list(self.live.values()):
            due = ht.next_due()
            if due is None or due > now:
                continue
            try:
                self._fire(ht, now)
            except Exception as exc:
                self._fail(ht, exc)

    def _fire(self, ht: HostTable, now: float) -> None:
        table = ht.table
        for key, (due, d) in list(ht.deadlines.items()):
            if due <= now:
                del ht.deadlines[key]
                try:
                    table.play(SYSTEM, d.move)
                except IllegalMove:
                    continue
                self._changed(ht)
                return
        if ht.bot_due is not None and ht.bot_due <= now:
            to_move = table.to_move()
            for seat in to_move:
                s = ht.seats[seat]
                if s.kind == "bot" or s.standin:
                    move = PolicyBot(s.level).choose(table, seat, ht.rng)
                    table.play(seat, move)
                    self._changed(ht)
                    return
            ht.bot_due = None
            return
        if ht.idle_due is not None and ht.idle_due <= now:
            for seat in table.to_move():
                s = ht.seats[seat]
                if s.kind == "human":
                    s.standin = True          # a bot plays for him until he is back
            ht.idle_due = None
            self._push_summary(ht)
            self._schedule(ht)
            ht.bot_due = now

    # --- telling -----------------------------------------------------------------------------

    def _recipients(self, ht: HostTable) -> list[Player]:
        out = [s.player for s in ht.seats if s.kind == "human" and s.player is not None]
        for pid in ht.spectators:
            p = self.by_id.get(pid)
            if p is not None:
                out.append(p)
        return out

    def _summary(self, ht: HostTable) -> dict[str, Any]:
        table = ht.table
        result = None
        if ht.status in ("over", "playing"):
            with contextlib.suppress(Exception):
                r = table.result()
                result = None if r is None else r.to_wire()
        return {
            "id": ht.id, "title": ht.title, "game": table.game, "game_name": table.info.name,
            "mode": ht.mode, "creator": ht.creator_name or None, "invited": list(ht.invited),
            "players": table.players, "settings": table.settings,
            "variants": list(table.variant_ids), "status": ht.status, "idle": ht.idle,
            "version": table.version, "spectators": len(ht.spectators),
            "failure": ht.failure or None, "result": result,
            "seats": [{"seat": i, "kind": s.kind, "name": s.name,
                       "player": None if s.player is None else s.player.id,
                       "ready": s.ready, "standin": s.standin,
                       "connected": s.kind == "bot" or (s.player is not None
                                                        and s.player.connected)}
                      for i, s in enumerate(ht.seats)],
        }

    def _push_summary(self, ht: HostTable) -> None:
        frame = encode(message("table", table=self._summary(ht)))
        for p in self._recipients(ht):
            if p.route is not None:
                self._send_raw(p.route, frame)

    def _timers_shown(self, ht: HostTable, now: float) -> list[dict[str, Any]]:
        shown = [{"name": d.name, "seat": d.seat, "seconds": d.seconds,
                  "remaining": round(max(0.0, due - now), 3)}
                 for due, d in ht.deadlines.values()]
        if ht.idle_due is not None and ht.idle is not None:
            with contextlib.suppress(Exception):
                for seat in ht.table.to_move():
                    if ht.seats[seat].kind == "human" and not ht.seats[seat].standin:
                        shown.append({"name": "idle", "seat": seat, "seconds": ht.idle,
                                      "remaining": round(max(0.0, ht.idle_due - now), 3)})
        return shown

    def _shared(self, ht: HostTable) -> dict[str, Any]:
        """The parts of a view message that are the same for every recipient."""
        return {"timers": self._timers_shown(ht, time.monotonic()),
                "players": [{"connected": s.kind == "bot" or (
                    s.player is not None and s.player.connected), "standin": s.standin}
                    for s in ht.seats]}

    def _push_view(self, ht: HostTable, player: Player, seat: int | None,
                   snapshot: bool = False, rid: Any = None,
                   shared: dict[str, Any] | None = None) -> None:
        """Send ``player`` the view of ``seat`` with the events since his last view (Clone:
        ``version`` and ``prev``; a snapshot repeats the recent events instead)."""
        if player.route is None:
            return
        table = ht.table
        stream = ht.streams.get(player.id)
        if stream is None or stream[1] > len(table.events):
            stream = [None, len(table.events)]      # a restored table starts a new journal
            ht.streams[player.id] = stream
            snapshot = True
        try:
            view = table.view(seat)
            start = max(0, len(table.events) - SNAPSHOT_EVENTS) if snapshot else stream[1]
            events = []
            texts = ht.texts
            for i, e in enumerate(table.events_for(seat, start), start):
                # Told in words once per way of seeing it: whole, or another seat's private
                # event shown as a count (never the owner's words to the others).
                key = (i, bool(e.get("private")) and e.get("seat") != seat)
                text = texts.get(key)
                if text is None:
                    try:
                        text = describe(e, table.names, table.hook)
                    except Exception:
                        text = describe(e, table.names)
                    if len(texts) > 512:
                        texts.clear()
                    texts[key] = text
                events.append({**e, "text": text})
        except Exception as exc:
            if ht.status == "playing":
                self._fail(ht, exc)
            return
        msg = message("view", table=ht.id, seat=seat, version=table.version, prev=stream[0],
                      snapshot=snapshot, view=view, events=events,
                      **(shared or self._shared(ht)))
        if rid is not None:
            msg["rid"] = rid
        if self._send_raw(player.route, encode(msg)):
            stream[0] = table.version
            stream[1] = len(table.events)

    # --- persistence -----------------------------------------------------------------------

    def _persist(self, ht: HostTable) -> None:
        if self.store is None:
            return
        meta = {"title": ht.title, "idle": ht.idle, "bot_delay": ht.bot_delay,
                "status": ht.status, "failure": ht.failure, "mode": ht.mode,
                "creator": [ht.creator_token, ht.creator_name],
                "invited": [[name, by] for name, by in ht.invited.items()],
                "seats": [{"kind": s.kind, "token": None if s.player is None else s.player.token,
                           "name": s.name, "ready": s.ready, "level": s.level}
                          for s in ht.seats],
                "spectators": [p.token for p in self.players.values()
                               if p.id in ht.spectators]}
        try:
            save = ht.table.save()
        except Exception as exc:
            if ht.status == "playing":
                self._fail(ht, exc)
            return
        self.store.put_table(ht.id, ht.seq, meta, save)

    def _load(self) -> None:
        """Reload players and live tables from the store (a host restarted with ``--data``)."""
        assert self.store is not None
        top = 0
        for token, pid, name in self.store.players():
            self.players[token] = self.by_id[pid] = Player(id=pid, token=token, name=name)
            with contextlib.suppress(ValueError):
                top = max(top, int(pid[1:]))
        self._ids = itertools.count(top + 1)
        by_token = self.players
        seq = 0
        now = time.monotonic()
        for tid, tseq, meta, save in self.store.tables():
            try:
                table = Table.restore(save, self.catalog)
            except TableError as exc:
                log.error("table %s could not be restored: %s", tid, exc)
                continue
            seats = []
            for s in meta["seats"]:
                player = by_token.get(s["token"]) if s["token"] else None
                seats.append(Seat(s["kind"], player, s["name"], s["ready"], False, s["level"]))
                if player is not None:
                    player.tables.add(tid)
            ht = HostTable(id=tid, seq=tseq, title=meta["title"], table=table,
                           idle=meta["idle"], bot_delay=meta["bot_delay"], seats=seats,
                           status=meta["status"], changed_at=now, failure=meta["failure"],
                           rng=random.Random(table.seed ^ tseq))
            # Rows written before tables had modes are open tables without a creator.
            ht.mode = meta.get("mode", "open")
            ht.creator_token, ht.creator_name = meta.get("creator", ("", ""))
            ht.invited = {name: by for name, by in meta.get("invited", ())}
            for token in meta.get("spectators", ()):
                if token in by_token:
                    ht.spectators.add(by_token[token].id)
                    by_token[token].tables.add(tid)
            if ht.status in ("over", "broken"):
                ht.ended_at = now
            self.tables[tid] = ht
            if ht.status == "playing":
                self.live[tid] = ht
            seq = max(seq, tseq)
            self._schedule(ht)
        self._table_seq = itertools.count(seq + 1)
