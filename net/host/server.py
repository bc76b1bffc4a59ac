"""The host's socket: the ROUTER, its loop, and what happens to a frame before a handler.

Owns: the loop around the ROUTER socket (opened by ``net/trust/guard.open_router``, the one
place its options are set), reading with each message the key ZeroMQ authenticated for its
connection (the identity of the request: never its routing id, a name or a token), the
receive loop (requests, then due
timers, then liveness), reading a message (at most two frames of a hostile many-part one),
the per-key rate limit (a token bucket per ``model.quota_key``, refused before the
frame is even unpacked; a new name or connection of the key does not refill it), a client that
stops reading disconnected when its queue is full, the
memory of replies by request id (a repeated move is answered, never played twice),
dispatching a checked request to its handler and turning any failure into one ``error``
reply, and writing to the socket the frames the ``gate.CommitGate`` lets go (after each
request when nothing needs to be durable; else after the writes of a few requests are handed
to the store, ``HostParts.flush``, and once they are durable), back to back: a move's ok and
views sent together wake ZeroMQ's I/O thread once.

Everything runs on ONE thread (the receive loop), so tables need no locks; a request is
handled to the end before the next is read.

Must not know about: what a request does (``HostParts.handlers``), tables, games, the store
or the ledger (the gate and its sources say when a frame may go).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import zmq

from cardparty.core.i18n import Msg
from cardparty.net.host.clock import Clock
from cardparty.net.host.gate import CommitGate
from cardparty.net.host.model import BURST, RATE, Player, quota_key
from cardparty.net.host.parts import HostParts
from cardparty.net.host.standby import Standbys
from cardparty.net.host.succession import SETTLE
from cardparty.net.trust.allowance import Allowances, for_addresses
from cardparty.net.trust.fdbudget import ConnectionCap, Peer, peer_of_descriptor
from cardparty.net.trust.guard import peer_of
from cardparty.net.wire.play_replies import MovedPush
from cardparty.net.wire.protocol import (
    ErrorReply,
    Outgoing,
    PeerAddress,
    ProtocolError,
    check_request,
    decode,
    encode,
    error,
    rid_of,
)
from cardparty.net.wire.requests import Request

log = logging.getLogger("cardparty.host")
log.addHandler(logging.NullHandler())   # silent in-process (under a terminal UI) unless asked

#: Requests answered from memory when their rid repeats: every request that changes
#: something. The others (``ping``, ``games``, ``tables``, ``watch``, ``snapshot``,
#: ``profile``, ``league``, ``rewards``, ``events``, ``event``, ``ratings``, ``records``,
#: ``record``, ``replay``, ``review``; ``hello`` is the roster's) only read, so a repeat is
#: carried out again and answered afresh; their rid is not kept, but one a remembered request
#: holds is refused to them as to any other type (docs/protocol.md, "Request ids").
REMEMBERED = frozenset({"create", "sit", "leave", "bots", "ready", "start", "move", "reorder",
                        "chat", "bye", "invite", "again", "seek", "unseek", "buy", "remove",
                        "close", "strangers", "event_create", "event_join", "event_leave",
                        "event_start", "event_deadline", "replay_lead", "replay_end", "undo",
                        "undo_answer"})
#: Connections whose allowance is remembered (the least recently heard forgotten first: an
#: allowance unused for ``BURST / RATE`` seconds is full again anyway).
MAX_ALLOWANCES = 16384
#: Seconds past its wait a turn of the loop may take before the host counts itself frozen
#: (its standby takes a host silent for 1 s for lost).
FROZEN = 1.0
#: Messages read in one go before timers get their turn.
BATCH = 256
#: Seconds of reading in one go before timers, commits and replies get their turn: a pass
#: is bounded in time, not only in messages, so a flood of costly requests (a hello storm,
#: ``tables`` never read) delays another player's ping by a few milliseconds at most.
#: ZeroMQ's ROUTER reads its connections in turn (fair queueing), so a flooding
#: connection gets its share of a pass, never the whole of it.
PASS_BUDGET = 0.005
#: Requests that cost the host more than one (a ``tables`` page is twenty summaries; a
#: hello, a watch or a create makes a player, a snapshot or a table) take more from the
#: sender's allowance, so that the rate limit bounds the host's work, not only a count.
COSTS = {"tables": 10, "hello": 4, "watch": 4, "create": 4}
#: With a store, messages handled before their changes are written in one transaction and
#: what they said is sent: fewer commits, against the wait of the first message's replies.
FLUSH_EVERY = 8
#: A request is one message of at most two frames: the route and the body; with the key and
#: the address ZeroMQ authenticated for its connection.
Message = tuple[list[bytes], bytes | None, str | None]

_MORE = int(zmq.SNDMORE | zmq.NOBLOCK)
_LAST = int(zmq.NOBLOCK)
_RCVMORE = int(zmq.RCVMORE)
_EVENTS = int(zmq.EVENTS)
_POLLIN = int(zmq.POLLIN)
#: pyzmq's own send, without the Python layer above it (group, copy threshold): the host
#: sends several frames per move, and that layer was a tenth of the cost of each.
_base: Any = zmq.Socket.__mro__[1]
_send = _base.send
_recv = _base.recv
_get = _base.get


class Server:
    """The loop around one ROUTER socket, handing checked requests to ``parts`` and writing
    to the socket what ``gate`` lets go."""

    def __init__(self, parts: HostParts, gate: CommitGate, clock: Clock) -> None:
        self.parts = parts
        self.gate = gate
        self.clock = clock
        self.roster = parts.roster
        self.handlers = parts.handlers
        self.sock: zmq.Socket[Any] | None = None
        self._slow_down = encode(error("slow_down", Msg(
            "more than {n} requests a second from you: this one was not read; slow down",
            n=int(RATE))))
        self.handled = 0
        #: whether the socket speaks CURVE (each message then carries its sender's key)
        self.curve = True
        #: allowance of requests by ``quota_key`` (a token bucket per key), and by address
        self.allowances: Allowances[Any] = Allowances(RATE, BURST, MAX_ALLOWANCES)
        #: the party's peers (net/host/standby.py): their keys' frames go to it, before any
        #: allowance (a standby acknowledges every flush), and it is looked after at every turn
        self.standbys: Standbys | None = parts.standbys
        #: work handed to the loop from another thread (the host's console): run at each turn
        self.tasks: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.guests = parts.config.guests
        self.by_address = for_addresses(self.guests.requests)
        self._slow_address = encode(error("slow_down", Msg(
            "more requests a second from your address than the host reads from one machine: "
            "this one was not read; slow down")))
        #: the body of the message being handled (a hello asks it for its connection)
        self.frame: zmq.Frame | None = None
        #: the socket's connections (None: no monitor, a host without CURVE); the connection
        #: each route said hello on, and the route of each connection (by its descriptor)
        self.cap: ConnectionCap | None = None
        self.conn_of: dict[bytes, tuple[int, Peer]] = {}
        self.route_on: dict[int, tuple[bytes, Peer]] = {}
        #: the peers' routes whose connections the cap was told are kept (``_to_standby``)
        self._peer_routes: set[bytes] = set()

    # --- the loop ----------------------------------------------------------------------------

    def run(self, sock: zmq.Socket[Any], stopping: threading.Event,
            cap: ConnectionCap | None = None,
            hand_over: Callable[[], None] | None = None) -> None:
        """Requests, then due timers, then liveness, until ``stopping`` is set; then
        ``hand_over`` (the party goes to the standby, when one is attached). ``cap``: the
        socket's connections, whose ends forget their routes (``ended``)."""
        self.sock = sock
        self.cap = cap
        self.curve = bool(sock.getsockopt(zmq.CURVE_SERVER))
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        if cap is not None:
            poller.register(cap.wake_fd, zmq.POLLIN)
        durable = self.gate.fds()
        for fd in durable:
            poller.register(fd, zmq.POLLIN)
        clock, parts = self.clock, self.parts
        woken: frozenset[int] = frozenset()
        turned = time.monotonic()
        while not stopping.is_set():
            woken = self._watch(poller, woken, parts.wake_fds())
            wait = min(max(0.0, parts.next_due() - clock.now()), 0.1)
            events = poller.poll(math.ceil(wait * 1000))
            now = time.monotonic()
            if now - turned - wait > FROZEN and self.standbys is not None:
                # This loop did not turn for longer than its standby's bound: the laptop
                # hung, and the standby may have taken over (``Succession.froze``).
                parts.succession.froze(now - turned - wait)
                # Nor does it copy its rows to a waiting peer meanwhile: its standby may be
                # the party's host now, and this host yields as soon as it calls.
                self.standbys.hold_copies(SETTLE, "while this host settles after its freeze")
            turned = now
            if events:
                if durable and any(fd in durable for fd, _ in events):
                    self.gate.woken()
                self.send()                 # what the store's commits since let go
                self._read(sock)
            try:
                parts.tick(clock.now())
            except Exception:          # a host bug must not end the loop
                log.exception("host loop")
            self.flush()
            while not self.tasks.empty():
                try:
                    self.tasks.get_nowait()()
                except Exception:      # a console's command must not end the loop
                    log.exception("a task on the host's loop failed")
                self.flush()
            if self.standbys is not None:
                self.standbys.tick()    # after a flush: a snapshot holds whole requests
                self.send()
        self.flush()
        if hand_over is not None:
            hand_over()
        self.gate.drain()                 # the last writes, then what they told
        self.send()

    def answer_first(self, sock: zmq.Socket[Any], cap: ConnectionCap | None,
                     frames: list[tuple[list[bytes], zmq.Frame | None]]) -> None:
        """Messages read before this loop ran (what players sent a standby before it took
        over and became this host), handled first, each as read from the connection it came
        by (its body knows its key and descriptor: a hello binds its route there)."""
        self.sock, self.cap = sock, cap
        for parts, body in frames:
            self.frame = body
            self.frames(parts, *(peer_of(body) if body is not None else (None, None)))
            self.frame = None

    def hand_over(self, epoch: int, moved: MovedPush, players: list[Player]) -> bool:
        """The host stops with its standby attached (docs/operating.md, "A party's peers"):
        what it did is written and acknowledged, every frame that waited for that goes out,
        the standby is told to serve as ``epoch``, and every connected player is told where
        (``moved``), as is every peer waiting. Requests that come meanwhile are not read here:
        the players send them again to the new host, which answers them from the memory it
        was sent."""
        standbys = self.standbys
        if self.sock is None or standbys is None or standbys.attached is None:
            return False
        cur = standbys.attached
        stream = standbys.stream
        self.flush()
        self.gate.drain()
        standbys.pump()
        self.peers_only(lambda: cur.acked >= stream.seq and not self.gate.waiting)
        if cur.acked < stream.seq or not standbys.hand_over(epoch):
            log.error("the standby did not acknowledge in time: no hand-over")
            return False
        # Closing the socket at once may lose the last frame: wait for the standby's word
        # that it takes over (its ``took``), asking again once.
        if not self.peers_only(lambda: cur.took, 0.3):
            standbys.hand_over(epoch)
            self.peers_only(lambda: cur.took, 0.5)
        frame = encode(moved)
        for player in players:
            if player.route is not None:
                self.send_now(player.route, frame)
        go: PeerAddress = {"address": moved["address"], "port": moved["port"], "key": moved["key"]}
        standbys.release(go, "the host handed the party over")
        self.send()
        log.warning("the party is handed over to the standby at %s (epoch %d)",
                    cur.serves.shown, epoch)
        return True

    def peers_only(self, done: Callable[[], bool], seconds: float | None = None) -> bool:
        """Read only the peers' frames (the players' wait for the new host) and send what
        the gate lets go, until ``done`` or ``seconds`` (default: the standby's bound);
        ``done()``."""
        sock, standbys = self.sock, self.standbys
        assert sock is not None and standbys is not None
        until = time.monotonic() + (standbys.bound if seconds is None else seconds)
        while not done() and time.monotonic() < until:
            if sock.poll(10):
                for _ in range(BATCH):
                    if not _get(sock, _EVENTS) & _POLLIN:
                        break
                    frames, user, _ = self._recv(sock)
                    if (user is not None and len(frames) == 2
                            and standbys.peer_of(user) is not None):
                        self._to_standby(standbys, frames[0], user, frames[1])
                    self.frame = None
            self.send()
        return done()

    def _to_standby(self, standbys: Standbys, route: bytes, user: bytes, body: bytes) -> None:
        """A frame of a peer's key goes to the party's part before any allowance: a standby
        acknowledges every flush, so it is neither slowed down nor counted with its
        address's guests. Its connection is marked a known player's once (a peer says no
        player's hello), so that the connection cap never closes it for silence or for
        room."""
        if route not in self._peer_routes and self.cap is not None:
            conn = self.connection()
            if conn is not None:
                if len(self._peer_routes) > 64:
                    self._peer_routes.clear()
                self._peer_routes.add(route)
                self.cap.spoke(conn[0], conn[1], True)
        standbys.frame(route, user, body)

    @staticmethod
    def _watch(poller: zmq.Poller, woken: frozenset[int], fds: frozenset[int]
               ) -> frozenset[int]:
        """Poll ``fds`` (hard bots' workers: an answer wakes the loop) instead of ``woken``."""
        if fds != woken:
            for fd in woken - fds:
                poller.unregister(fd)
            for fd in fds - woken:
                poller.register(fd, zmq.POLLIN)
        return fds

    def _read(self, sock: zmq.Socket[Any]) -> None:
        """Read while the socket says a message waits (a recv that finds none raises, and
        that exception cost more than the rest of reading a message), at most ``BATCH``
        messages and ``PASS_BUDGET`` seconds; what each says goes out after it, or after
        every ``FLUSH_EVERY`` when it must be durable first."""
        holds = self.gate.holds
        until = time.perf_counter() + PASS_BUDGET
        for n in range(1, BATCH + 1):
            if not _get(sock, _EVENTS) & _POLLIN:
                break
            self.frames(*self._recv(sock))
            self.frame = None
            every = n % FLUSH_EVERY == 0
            if every or not holds:
                self.flush()
            if every and time.perf_counter() > until:
                break

    def flush(self) -> None:
        """What was handled since the last flush is handed to the store, and what it said
        goes out as soon as the gate lets it (at once when nothing must be durable)."""
        self.parts.flush()
        self.send()

    def send(self) -> None:
        """Write what the gate lets go, back to back. A client whose queue turns out full is
        disconnected then (``Roster.gone``), and the news of it goes before the rest, as it
        would have had each frame gone out at once."""
        self.ended()                       # never a frame to a route whose connection ended
        standbys = self.standbys
        if standbys is not None and standbys.outgoing:
            sock = self.sock
            assert sock is not None
            for route, frame in standbys.take():
                try:
                    _send(sock, route, _MORE)
                    _send(sock, frame, _LAST)
                except zmq.Again:               # its queue is full: it stopped reading
                    standbys.cannot_send(route)
                except zmq.ZMQError:            # EHOSTUNREACH: its connection is gone
                    standbys.unreachable(route)
        frames = self.gate.released()
        i = 0
        while i < len(frames):
            route, frame = frames[i]
            i += 1
            if not self.send_now(route, frame):
                self.roster.gone(route)
                self.parts.flush()
                frames[i:i] = self.gate.released()

    def ended(self) -> None:
        """Forget the route of every connection that ended (the monitor says so, through
        ``cap``): its player is disconnected at once, so nothing of his goes to whoever
        connects next with that routing id."""
        cap = self.cap
        if cap is None or not cap.closed:
            return
        with contextlib.suppress(OSError):
            os.read(cap.wake_fd, 4096)
        closed = cap.closed
        while closed:
            fd, peer = closed.popleft()
            bound = self.route_on.get(fd)
            if bound is not None and bound[1] == peer:
                self._unbind(fd, bound[0])

    def _unbind(self, fd: int, route: bytes) -> None:
        del self.route_on[fd]
        if self.conn_of.get(route, (None,))[0] == fd:
            del self.conn_of[route]
        self.roster.gone(route)

    def bind(self, route: bytes, player: Player) -> None:
        """``route`` said hello on the connection the message came by: remember which, so
        that its end forgets the route; a route left on that descriptor by a connection that
        has ended (its end not read yet) is forgotten now."""
        conn = self.connection()
        if conn is None:
            return
        fd, peer = conn
        old = self.route_on.get(fd)
        if old is not None and old[1] != peer:
            self._unbind(fd, old[0])            # that descriptor is another connection now
        prev = self.conn_of.get(route)
        if prev is not None and prev != conn and self.route_on.get(prev[0], (None,))[0] == route:
            del self.route_on[prev[0]]
        self.conn_of[route] = conn
        self.route_on[fd] = (route, peer)
        if self.cap is not None:
            self.cap.spoke(fd, peer, player.known or bool(player.tables or player.owns))

    def send_now(self, route: bytes, frame: bytes) -> bool:
        sock = self.sock
        assert sock is not None
        try:
            _send(sock, route, _MORE)        # ROUTER_MANDATORY fails here, never half-way
            _send(sock, frame, _LAST)
            return True
        except zmq.ZMQError:
            # zmq.Again: that client's queue is full (it stopped reading): holding more for
            # it would grow the host; it resumes with a snapshot on its hello. Otherwise
            # EHOSTUNREACH: the client is gone.
            return False

    def _recv(self, sock: zmq.Socket[Any]) -> Message:
        """One message: the route and its frames, keeping at most two frames of a hostile
        many-part message (the count is kept as empty frames, for the ``frames`` error), and
        the key ZeroMQ authenticated for the connection it came by (None without CURVE:
        asking a frame for a key it cannot have raises, which cost more than the rest of
        reading the message)."""
        frames = [_recv(sock, _LAST)]
        user = address = None
        if _get(sock, _RCVMORE):
            if self.curve:
                body = _recv(sock, _LAST, False)      # a Frame: it knows its connection's key
                user, address = peer_of(body)
                self.frame = body
                frames.append(body.bytes)
            else:
                frames.append(_recv(sock, _LAST))
        while _get(sock, _RCVMORE):
            part = _recv(sock, _LAST)
            frames.append(part if len(frames) < 3 else b"")
            if len(frames) > 64:
                while _get(sock, _RCVMORE):
                    _recv(sock, _LAST)
        return frames, user, address

    # --- one message -------------------------------------------------------------------------

    def frames(self, frames: list[bytes], user: bytes | None = None,
               address: str | None = None) -> None:
        """One message from a client, whose connection ZeroMQ authenticated as ``user`` coming
        from ``address``: checked, handled, answered (or refused in words)."""
        route = frames[0]
        self.handled += 1
        standbys = self.standbys
        if (standbys is not None and user is not None and len(frames) == 2
                and standbys.peer_of(user) is not None):
            self._to_standby(standbys, route, user, frames[1])
            return
        player = self.roster.at(route, user)
        now = self.clock.now()
        if not self.allowances.spend(quota_key(route, user), now):
            # Refused before it is even unpacked: a flood costs the host as little as can be.
            self.gate.to_route(route, self._slow_down)
            return
        counted = self.guests.counted(address)
        if counted and not self.by_address.spend(address, now):    # type: ignore[arg-type]
            self.gate.to_route(route, self._slow_address)          # new keys do not refill it
            return
        if player is not None:
            self.roster.heard(player, now)
        req: Request | None = None
        raw = None            # the decoded map, before it is known to be a request
        try:
            if len(frames) != 2:
                raise ProtocolError("frames", f"a message must be one frame, not {len(frames) - 1}")
            raw = decode(frames[1])
            req = check_request(raw)
            reply = self.handle(route, user, player, req, raw, address if counted else None)
        except ProtocolError as exc:
            reply = self._error_for(exc.code, exc.message, raw)
        except Exception as exc:  # a host bug must cost one request, never the host
            log.exception("request failed")
            reply = self._error_for("internal", f"the host failed: {type(exc).__name__}: {exc}",
                                    raw)
        if reply is not None:
            self.answer(route, player, req, reply)

    def handle(self, route: bytes, user: bytes | None, player: Player | None,
               req: Request, raw: dict[str, Any], address: str | None = None
               ) -> Outgoing | None:
        """A checked request: its handler's reply (None: nothing more to answer). A hello
        needs no player; anything else does, and a repeated request id is answered from the
        player's memory, never done twice. ``address``: the sender's, when it is counted;
        ``raw``: the message as decoded (decode's map of any fields, which a refusal's
        ``_error_for`` reads as it came)."""
        kind = req["type"]
        cost = COSTS.get(kind)
        if cost is not None:
            self.allowances.charge(quota_key(route, user), cost - 1)
            if address is not None:
                self.by_address.charge(address, cost - 1)
        if req["type"] == "hello":
            self.bind(route, self.roster.hello(route, req, user, address))
            return None
        if kind == "standby_hello":          # a key that is not one of the party's peers
            return (Standbys.no_party(user) if self.standbys is None
                    else self.standbys.refusal(user))
        if player is None:
            if self.roster.replaced(route):
                raise ProtocolError("replaced", Msg("you said hello again from another "
                                                    "connection; this one is closed"))
            raise ProtocolError("hello_first", Msg("say hello first"))
        self.parts.check_held(req)
        rid = req["rid"]
        if rid is not None:
            old = player.replies.get(rid)
            if old is not None:
                if old[0] != kind:       # refused, and the first reply stays remembered
                    self.gate.to_route(route, encode(self._error_for(
                        "bad_field", Msg("{request}: rid {rid} was already used by a "
                                         "{other}: use a new rid", request=kind,
                                         rid=repr(rid), other=old[0]), raw)))
                else:                    # only a remembered request is kept: a repeat
                    self.gate.to_route(route, old[1])
                return None
        return self.handlers[kind](player, req)

    def answer(self, route: bytes, player: Player | None, req: Request | None,
               reply: Outgoing) -> None:
        """Send ``reply`` to ``req`` (None: it could not be read) on ``route``, with the
        request's id, and remember it when a repeat must get the same answer."""
        rid = None if req is None else req.get("rid")
        if rid is not None and reply.get("rid") is None:
            reply = {**reply, "rid": rid}
        frame = encode(reply)
        if player is not None and rid is not None and req is not None and (
                req["type"] in REMEMBERED) and reply.get("code") != "held":
            # (``held`` is no answer: the request is asked again once the table is served,
            # and answered then; what was remembered for it before stays.)
            table = req.get("table")
            table = table if isinstance(table, str) else ""
            player.remember(rid, req["type"], frame, table)
            if self.standbys is not None:
                self.standbys.remembered(player.token, rid, req["type"], frame, table)
        # A pong tells of nothing kept: it goes at once, so a client hears its host while a
        # slow disk or a silent standby holds the rest (else it would take the host for gone,
        # and follow its standby, a second before the standby is dropped).
        if (reply["type"] == "pong" and self.gate.holds and self.sock is not None
                and self.send_now(route, frame)):
            return
        self.gate.to_route(route, frame)

    def connection(self) -> tuple[int, tuple[str, int]] | None:
        """The connection the message being handled came by: its descriptor (ZeroMQ's
        ``SRCFD``) and the peer's address and port (unique while it is open), or None."""
        frame = self.frame
        if frame is None:
            return None
        try:
            fd = frame.get(zmq.SRCFD)
        except zmq.ZMQError:
            return None
        peer = peer_of_descriptor(int(fd))
        return None if peer is None else (int(fd), peer)

    @staticmethod
    def _error_for(code: str, text: str, raw: dict[str, Any] | None) -> ErrorReply:
        """The error reply, with the rid, type and table of the message when it has them
        (``raw``: the message as decoded, whatever it holds; None: it could not be)."""
        if raw is None:
            return error(code, text)
        table = raw.get("table")
        return error(code, text, rid_of(raw), raw["type"],
                     table if isinstance(table, str) and len(table) <= 16 else None)


