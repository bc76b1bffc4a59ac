"""The host's socket: the ROUTER, its loop, and what happens to a frame before a handler.

Owns: opening the ROUTER socket (``open_router``, the one place its options are set:
CURVE with the host's key pair and its ZAP handler (net/guard.py), ROUTER_MANDATORY so a send
to a vanished client fails loudly instead of vanishing, no ROUTER_HANDOVER (a connection
claiming a routing id in use is refused, never handed another's route), an explicit linger,
ZeroMQ's own frame limit), reading with each message the key ZeroMQ authenticated for its
connection (the identity of the request: never its routing id, a name or a token), the
receive loop (requests, then due
timers, then liveness), reading a message (at most two frames of a hostile many-part one),
the per-key rate limit (a token bucket per ``Roster.quota_key``, refused before the
frame is even unpacked; a new name or connection of the key does not refill it), a client that
stops reading disconnected when its queue is full, the
memory of replies by request id (a repeated move is answered, never played twice),
dispatching a checked request to its handler and turning any failure into one ``error``
reply, and ``SocketOutbox``: a frame to a player's route. With a store, nothing is sent
before the store (and the ledger, whose commits its writer syncs) has what it tells of.

Everything runs on ONE thread (the receive loop), so tables need no locks; a request is
handled to the end before the next is read.

Must not know about: what a request does (``HostParts.handlers``), tables, games.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import logging
import math
import os
import threading
import time
from typing import Any

import zmq

from cardparty.core.economy.ledger import Ledger
from cardparty.net.guard import Guard, user_of
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import BURST, RATE, Allowance, Player
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.parts import HostParts
from cardparty.net.protocol import (
    HARD_FRAME,
    ProtocolError,
    check_request,
    decode,
    encode,
    error,
    rid_of,
)

log = logging.getLogger("cardparty.host")
log.addHandler(logging.NullHandler())   # silent in-process (under a terminal UI) unless asked

#: Seconds a host keeps trying to bind a port that is still in use (see ``open_router``).
BIND_RETRY = 2.0
#: Requests answered from memory when their rid repeats (the others are harmless to redo).
REMEMBERED = frozenset({"create", "sit", "leave", "bots", "ready", "start", "move", "reorder",
                        "chat", "bye", "invite", "again", "seek", "unseek", "buy", "remove",
                        "close", "strangers"})
#: Connections whose allowance is remembered (the least recently heard forgotten first: an
#: allowance unused for ``BURST / RATE`` seconds is full again anyway).
MAX_ALLOWANCES = 16384
#: Frames the host queues to one client (ZeroMQ's send high-water mark, per connection).
#: Every frame is bounded (the largest, a ``tables`` page, is a few tens of KB), so this
#: bounds the bytes one client that stops reading can hold in the host; past it the client
#: is disconnected and resumes with a snapshot when it says hello again.
SNDHWM = 2000
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

_MORE = int(zmq.SNDMORE | zmq.NOBLOCK)
_LAST = int(zmq.NOBLOCK)
_RCVMORE = int(zmq.RCVMORE)
_EVENTS = int(zmq.EVENTS)
_POLLIN = int(zmq.POLLIN)
#: pyzmq's own send, without the Python layer above it (group, copy threshold): the host
#: sends several frames per move, and that layer was a tenth of the cost of each.
_send = zmq.Socket.__mro__[1].send
_recv = zmq.Socket.__mro__[1].recv
_get = zmq.Socket.__mro__[1].get


def open_router(ctx: zmq.Context[Any], bind: str, guard: Guard | None = None
                ) -> tuple[zmq.Socket[Any], str]:
    """The host's ROUTER socket, bound to ``bind`` (port 0: the system picks), and the
    bound address; a CURVE server when ``guard`` is given. A host stopped a moment ago on
    this port may still hold it (ZeroMQ closes a listener in its I/O thread, after the
    socket's close returns): try again for BIND_RETRY seconds before saying the port is
    taken."""
    sock = ctx.socket(zmq.ROUTER)
    sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
    if guard is not None:
        guard.secure(sock)
    sock.setsockopt(zmq.LINGER, 200)
    sock.setsockopt(zmq.MAXMSGSIZE, HARD_FRAME)
    sock.setsockopt(zmq.SNDHWM, SNDHWM)
    endpoint = bind
    if endpoint.startswith("tcp://") and endpoint.endswith(":0"):
        endpoint = endpoint[:-2] + ":*"
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
    return sock, sock.getsockopt_string(zmq.LAST_ENDPOINT)


class SocketOutbox(Outbox):
    """Frames to players' routes on the ROUTER socket (set once it is bound).

    While ``holding``, frames wait in order until ``release``: the server holds a turn of
    its loop's frames until the store has the changes they tell of."""

    def __init__(self) -> None:
        self.sock: zmq.Socket[Any] | None = None
        #: called with a route the socket says is unreachable
        self.gone: Any = lambda route: None
        self.holding = False
        self.held: list[tuple[bytes, bytes]] = []
        #: frames of the request being handled, sent together by ``burst``
        self.queued: list[tuple[bytes, bytes]] = []
        #: frames waiting for the store: (its ticket, the frames), oldest first
        self.waiting: collections.deque[tuple[int, list[tuple[bytes, bytes]]]] = (
            collections.deque())

    def deliver(self, player: Player, frame: bytes) -> bool:
        assert player.route is not None
        return self.to_route(player.route, frame)

    def hold_until(self, ticket: int) -> None:
        """The frames held so far go out once the store's ticket is written (at once when
        nothing is: but never before frames held earlier)."""
        held, self.held = self.held, []
        if ticket:
            self.waiting.append((ticket, held))
        elif self.waiting:
            self.waiting[-1][1].extend(held)
        else:
            for route, frame in held:
                self.send_now(route, frame)

    def release(self, done: int) -> None:
        """Send the frames whose writes are committed (tickets up to ``done``)."""
        waiting = self.waiting
        while waiting and waiting[0][0] <= done:
            for route, frame in waiting.popleft()[1]:
                self.send_now(route, frame)

    def to_route(self, route: bytes, frame: bytes) -> bool:
        """Queue ``frame`` for ``route``: it goes out with the other frames of the same
        request (``burst``), or once the store has what it tells of (``holding``). A client
        whose queue turns out full is disconnected then (``gone``), as at once."""
        if self.holding:
            self.held.append((route, frame))
        else:
            self.queued.append((route, frame))
        return True

    def burst(self) -> None:
        """Send the queued frames one after the other. A move's ok and views sent back to
        back wake ZeroMQ's I/O thread once, not once per frame with the next view's work in
        between: flat out, that was a third of the host's cost in ZeroMQ."""
        while self.queued:
            queued, self.queued = self.queued, []
            for i, (route, frame) in enumerate(queued):
                self.send_now(route, frame)
                if self.queued:
                    # A client turned out gone, and the roster queued the news of it: that
                    # goes before the rest, as it did when each frame went out at once.
                    self.queued.extend(queued[i + 1:])
                    break

    def send_now(self, route: bytes, frame: bytes) -> bool:
        sock = self.sock
        assert sock is not None
        try:
            _send(sock, route, _MORE)        # ROUTER_MANDATORY fails here, never half-way
            _send(sock, frame, _LAST)
            return True
        except zmq.Again:
            # That client's queue is full: it stopped reading. Holding more for it would
            # grow the host; it is disconnected and resumes with a snapshot on its hello.
            self.gone(route)
            return False
        except zmq.ZMQError:
            self.gone(route)       # EHOSTUNREACH: the client is gone
            return False


class Server:
    """The loop around one ROUTER socket, handing checked requests to ``parts``."""

    def __init__(self, parts: HostParts, outbox: SocketOutbox, clock: Clock) -> None:
        self.parts = parts
        self.outbox = outbox
        self.clock = clock
        self.roster = parts.roster
        self.handlers = parts.handlers
        outbox.gone = self.roster.gone
        self._slow_down = encode(error("slow_down", f"more than {RATE:.0f} requests a second "
                                       "from you: this one was not read; slow down"))
        self.handled = 0
        #: whether the socket speaks CURVE (each message then carries its sender's key)
        self.curve = True
        #: allowance of requests by ``roster.quota_key`` (see ``Allowance``)
        self.allowances: collections.OrderedDict[Any, Allowance] = collections.OrderedDict()
        self.persistence = parts.persistence
        self.store = self.persistence.store
        self._wake_r = self._wake_w = -1
        self.ledger: Ledger | None = None
        if self.store is not None:
            # The writes of a few requests in one transaction on the store's writer thread,
            # and nothing they tell of sent before it is committed; the loop is woken by a
            # byte on a pipe when it is.
            self._wake_r, self._wake_w = os.pipe()
            os.set_blocking(self._wake_r, False)
            os.set_blocking(self._wake_w, False)
            self.persistence.batching = outbox.holding = True
            self.store.start_writer(self._written)
            # The ledger's commits are synced on the writer too, before the tables' rows and
            # before anything telling of them is sent: a payout no longer holds up the loop
            # for the disk (a few milliseconds at every round's end).
            self.ledger = parts.economy.ledger
            if self.ledger is not None:
                self.ledger.defer_sync()

    def _written(self) -> None:
        """(On the store's writer thread.) A commit is done: wake the loop."""
        with contextlib.suppress(OSError):       # a full pipe is awake enough
            os.write(self._wake_w, b"w")

    def run(self, sock: zmq.Socket[Any], stopping: threading.Event) -> None:
        """Requests, then due timers, then liveness, until ``stopping`` is set."""
        self.curve = bool(sock.getsockopt(zmq.CURVE_SERVER))
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        if self._wake_r >= 0:
            poller.register(self._wake_r, zmq.POLLIN)
        clock = self.clock
        parts = self.parts
        woken: frozenset[int] = frozenset()
        outbox = self.outbox
        perf = time.perf_counter
        while not stopping.is_set():
            fds = parts.wake_fds()          # hard bots' workers: an answer wakes the loop
            if fds != woken:
                for fd in woken - fds:
                    poller.unregister(fd)
                for fd in fds - woken:
                    poller.register(fd, zmq.POLLIN)
                woken = fds
            now = clock.now()
            wait = min(max(0.0, parts.next_due() - now), 0.1)
            if poller.poll(math.ceil(wait * 1000)):
                self._committed()
                # Read while the socket says a message waits: a recv that finds none raises,
                # and that exception cost more than the rest of reading a message.
                until = perf() + PASS_BUDGET
                for n in range(1, BATCH + 1):
                    if not _get(sock, _EVENTS) & _POLLIN:
                        break
                    self.frames(*self._recv(sock))
                    outbox.burst()
                    if n % FLUSH_EVERY == 0:
                        self.flush()
                        self._committed(look=False)  # replies whose writes are in go now
                        if perf() > until:
                            break
            try:
                parts.tick(clock.now())
            except Exception:          # a host bug must not end the loop
                log.exception("host loop")
            outbox.burst()
            self.flush()
        outbox.burst()
        self.flush()
        if self.store is not None:               # the last writes, then what they told
            self.store.drain()
            self.outbox.release(self.store.done)
        self.close()

    def close(self) -> None:
        """The store's wake-up pipe closed (at the end of ``run``; a host whose loop never
        ran closes it here too)."""
        for fd in (self._wake_r, self._wake_w):
            if fd >= 0:
                os.close(fd)
        self._wake_r = self._wake_w = -1

    def flush(self) -> None:
        """Queue the writes of what was handled since the last flush; what it said goes out
        once they are committed."""
        if self.outbox.holding:
            assert self.store is not None
            ledger = self.ledger
            if ledger is not None and ledger.unsynced:
                ledger.unsynced = False
                with self.store.batch():
                    self.store.before(ledger.sync)
            self.persistence.flush(self.parts.play.fail)
            # Whatever was queued (a table, a player's row) is committed before any of it.
            self.outbox.hold_until(self.store.queued if self.store.queued > self.store.done
                                   else 0)

    def _committed(self, look: bool = True) -> None:
        """Send what the store's commits since the last look let go (``look``: and empty
        the wake-up pipe; without, only the store's count of commits is read)."""
        if self._wake_r < 0:
            return
        if look:
            with contextlib.suppress(OSError):
                while os.read(self._wake_r, 4096):
                    pass
        assert self.store is not None
        waiting = self.outbox.waiting
        if waiting and waiting[0][0] <= self.store.done:
            self.outbox.release(self.store.done)

    def _recv(self, sock: zmq.Socket[Any]) -> tuple[list[bytes], bytes | None]:
        """One message: the route and its frames, keeping at most two frames of a hostile
        many-part message (the count is kept as empty frames, for the ``frames`` error), and
        the key ZeroMQ authenticated for the connection it came by (None without CURVE:
        asking a frame for a key it cannot have raises, which cost more than the rest of
        reading the message)."""
        frames = [_recv(sock, _LAST)]
        user = None
        if _get(sock, _RCVMORE):
            if self.curve:
                body = _recv(sock, _LAST, False)      # a Frame: it knows its connection's key
                user = user_of(body)
                frames.append(body.bytes)
            else:
                frames.append(_recv(sock, _LAST))
        while _get(sock, _RCVMORE):
            part = _recv(sock, _LAST)
            frames.append(part if len(frames) < 3 else b"")
            if len(frames) > 64:
                while _get(sock, _RCVMORE):
                    _recv(sock, _LAST)
        return frames, user

    def frames(self, frames: list[bytes], user: bytes | None = None) -> None:
        """One message from a client, whose connection ZeroMQ authenticated as ``user``:
        checked, handled, answered (or refused in words)."""
        route = frames[0]
        self.handled += 1
        roster = self.roster
        player = roster.at(route, user)
        now = self.clock.now()
        if not self._spend(route, user, now):
            # Refused before it is even unpacked: a flood costs the host as little as can be.
            self.outbox.to_route(route, self._slow_down)
            return
        if player is not None:
            roster.heard(player, now)
        req: dict[str, Any] | None = None
        raw: dict[str, Any] | None = None
        try:
            if len(frames) != 2:
                raise ProtocolError("frames", f"a message must be one frame, not {len(frames) - 1}")
            raw = decode(frames[1])
            req = check_request(raw)
            kind = req["type"]
            cost = COSTS.get(kind)
            if cost is not None:
                self._charge(route, user, cost - 1)
            if kind == "hello":
                roster.hello(route, req, user)
                return
            if player is None:
                if roster.replaced(route):
                    raise ProtocolError("replaced", "you said hello again from another "
                                                    "connection; this one is closed")
                raise ProtocolError("hello_first", "say hello first")
            rid = req["rid"]
            if rid is not None and kind in REMEMBERED:
                old = player.replies.get(rid)
                if old is not None:
                    if old[0] != kind:       # refused, and the first reply stays remembered
                        self.outbox.to_route(route, encode(self._error_for(
                            "bad_field", f"{kind}: rid {rid!r} was already used by a "
                            f"{old[0]}: use a new rid", raw)))
                        return
                    self.outbox.to_route(route, old[1])
                    return
            reply = self.handlers[kind](player, req)
        except ProtocolError as exc:
            reply = self._error_for(exc.code, exc.message, raw)
        except Exception as exc:  # a host bug must cost one request, never the host
            log.exception("request failed")
            reply = self._error_for("internal", f"the host failed: {type(exc).__name__}: {exc}",
                                    raw)
        if reply is None:
            return
        rid = None if req is None else req.get("rid")
        if rid is not None and reply.get("rid") is None:
            reply["rid"] = rid
        frame = encode(reply)
        if player is not None and rid is not None and req is not None and (
                req["type"] in REMEMBERED):
            player.remember(rid, req["type"], frame)
        self.outbox.to_route(route, frame)

    def _spend(self, route: bytes, user: bytes | None, now: float) -> bool:
        """One request from the allowance of whoever sent it (``Roster.quota_key``: the key
        ZeroMQ authenticated, not the name it says nor the connection it came by)."""
        key = self.roster.quota_key(route, user)
        allowances = self.allowances
        allowance = allowances.get(key)
        if allowance is None:
            allowance = allowances[key] = Allowance(now)
            # The least recently heard go once their allowance would be full again anyway:
            # the memory follows the connections of the last seconds, not of all time.
            for _ in range(2):
                oldest = next(iter(allowances.values()))
                if len(allowances) > MAX_ALLOWANCES or now - oldest.at > BURST / RATE:
                    allowances.popitem(last=False)
                else:
                    break
        else:
            allowances.move_to_end(key)
        return allowance.spend(now)

    def _charge(self, route: bytes, user: bytes | None, more: float) -> None:
        """A costly request takes ``more`` from its sender's allowance (which may go below
        zero: his next requests wait until it is paid back)."""
        allowance = self.allowances.get(self.roster.quota_key(route, user))
        if allowance is not None:
            allowance.left -= more

    @staticmethod
    def _error_for(code: str, text: str, raw: dict[str, Any] | None) -> dict[str, Any]:
        """The error reply, with the rid, type and table of the message when it has them."""
        if raw is None:
            return error(code, text)
        table = raw.get("table")
        return error(code, text, rid_of(raw), raw["type"],
                     table if isinstance(table, str) and len(table) <= 16 else None)
