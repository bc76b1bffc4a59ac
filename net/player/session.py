"""The client side of the wire: one Session is one player's connection to one host.

Owns: the DEALER socket and the thread that drives it, hello/welcome, the CURVE keys of the
connection (the player's pair and the host's key this session holds the host to:
net/trust/hostkey.py chooses it, trust on first use), requests with replies (futures keyed by
request id; the named ones are in net/player/player_requests.py), the stream of pushed messages
(views, table updates, chat, unsolicited errors, connection changes), heartbeats, and automatic
reconnect with backoff and resume.

Patterns (zguide):
- **Paranoid Pirate** for liveness: any message from the host counts as a heartbeat; when the
  session has sent nothing for one heartbeat interval it sends ``ping`` (the host answers
  ``pong``). When nothing arrives for ``liveness`` intervals the host is taken for gone: the
  session says so (``connection``/``lost``), drops the socket, and reconnects with exponential
  backoff (a fresh DEALER: the host knows the player by his key, whatever the connection),
  says hello again and, when welcomed, says ``restored``.
- **Clone** for state: every view carries its table ``version`` and ``prev``, the version of the
  previous view this client was sent; a view whose ``prev`` is not the last version seen means
  something was missed, and the session asks for a ``snapshot``. Requests still unanswered when
  the connection was lost are sent again with the same request id: the host answers a repeated
  id from its memory instead of acting twice.

Threading: the socket lives on one background thread; every public method is safe to call from
any other thread. Incoming pushed messages go to ``on_message(msg)`` when given (called on the
session's thread: keep it short, e.g. ``loop.call_soon_threadsafe`` into asyncio), otherwise
into ``inbox`` (a ``queue.Queue``; ``next_message(timeout)`` reads it). Requests return
``concurrent.futures.Future`` objects (``send``; ``asyncio.wrap_future`` makes them awaitable)
or block for the reply (``request`` and the named helpers), raising SessionError for an
``error`` reply.

Must not know about: any particular game, terminals.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import zmq
from zmq.utils.monitor import recv_monitor_message

from cardparty.core.i18n import N_, Msg, from_wire
from cardparty.net.player.player_requests import PlayerRequests
from cardparty.net.trust.hostkey import Expected, diagnose, expect
from cardparty.net.trust.keys import KeyFileError, KeyPair, client_keys, public_key
from cardparty.net.trust.known_hosts import HostKeyError, KnownHosts
from cardparty.net.wire.address import AddressError, ipv6_endpoint, read_address
from cardparty.net.wire.play_replies import (
    ConnectionPush,
    HostMessage,
    MovedPush,
    WelcomeReply,
)
from cardparty.net.wire.protocol import (
    HOST_LIMITS,
    MAX_HOST_FRAME,
    PROTOCOL,
    ErrorReply,
    NotHostReply,
    Outgoing,
    ProtocolError,
    StandbyPush,
    decode,
    encode,
    message,
)
from cardparty.net.wire.replies import ViewMessage

log = logging.getLogger("cardparty.session")
log.addHandler(logging.NullHandler())

#: A reply's shape, as the request that asked for it knows it (``wait``).
R = TypeVar("R")

#: SessionError codes of a connection refused for good: trying again cannot help (the host's
#: key is not the one expected, or the host refused the hello, e.g. ``name_taken``).
REFUSALS = frozenset({"key_changed", "key_mismatch", "bad_key", "name_taken", "bad_field",
                      "version", "busy", "bad_address"})

#: Message types the session puts in ``inbox`` (or hands to ``on_message``).
PUSHED = ("view", "table", "chat", "invited", "error", "connection", "ok", "closed",
          "standby")
#: Seconds after it lost its host a client still follows the host's standby there
#: (docs/protocol.md, "What a client does at a takeover").
FOLLOW = 30.0
#: Seconds before a standby that answered ``not_host`` is tried again (meanwhile the host).
STANDBY_AGAIN = 0.15
#: Seconds a session whose connection closed (the host's port still open: a reset) gives its
#: host to welcome it again before it follows the host's standby.
HOST_FIRST = 1.0
#: Seconds a look at the host's port may take (does it still take connections?).
PORT_LOOK = 0.2
#: Seconds before a request answered ``held`` is sent again (the table waits for one of its
#: players to answer a drop or to follow a takeover: docs/protocol.md, "No split brain"). A
#: held request is not refused: it was maybe done already, and its reply is kept for when the
#: table is served again.
HELD_AGAIN = 0.5
#: What a player reads when his party moved to another host.
MOVED = N_("host moved to {address}")
#: Requests made on what the player saw at that moment (a move, on a view): never kept for a
#: host that answers again later, when the table may be another and the player has long
#: stopped waiting; one made while the host is gone, or left unanswered when it was lost,
#: fails with ``gone`` (the host's snapshot, once it is back, shows what became of it). Not
#: while the session follows the host's standby: the party goes on there within seconds,
#: and the move is sent there, exactly once (docs/protocol.md, "A standby peer").
OF_THE_MOMENT = frozenset({"move"})
GONE = N_("the host is gone: your move was not sent; make it again once the host is back")
LOST = N_("the host went away before it answered your move: once it is back, the table "
          "shows whether it was played")


def port_refuses(endpoint: str) -> bool:
    """Whether the machine at ``endpoint`` (``tcp://host:port``) answers that nothing listens
    on the port (the host's process is gone); a timeout or an unreachable network says
    nothing (False)."""
    import errno
    import socket

    try:
        where = read_address(endpoint)
    except AddressError:
        return False
    try:
        with socket.create_connection((where.host, where.port), PORT_LOOK):
            return False
    except ConnectionRefusedError:
        return True
    except OSError as exc:
        return exc.errno == errno.ECONNREFUSED


@dataclass(frozen=True, slots=True)
class Successor:
    """Where the host said its party goes if it is lost: the endpoint, the key it proves,
    and the epoch of the host that said so."""

    endpoint: str
    key: bytes
    epoch: int


class SessionError(Exception):
    """An ``error`` reply (``code`` from protocol.ERRORS, ``message`` in words), or a session
    failure: ``unreachable`` (no welcome in time), ``closed`` (the session was closed),
    ``timeout`` (no reply in time)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{message} ({code})")


class _Wire:
    """What the session's thread keeps between two turns of its loop: the socket and its
    poller, when it last heard and sent, its hello's time, and the backoff."""

    def __init__(self, sock: zmq.Socket[Any], now: float, backoff: float) -> None:
        self.sock = sock
        self.poller = zmq.Poller()
        self.poller.register(sock, zmq.POLLIN)
        self.last_recv = self.last_sent = self.hello_sent = now
        #: when to say hello on this socket (once per fresh socket); None: said
        self.hello_due: float | None = now
        self.backoff = backoff
        #: the socket's monitor: a closed connection is seen at once (a killed host)
        self.monitor: zmq.Socket[Any] | None = None


class Session(PlayerRequests):
    """One player's connection to a host. See the module docstring for threads and patterns.

    ``address`` is what a player types (``host``, ``host:port``, ``tcp://host:port``: see
    net/wire/address.py); anything else is SessionError ``bad_address`` at once. The player is his
    key and his name: the same pair resumes his seats and views from any connection, after
    this process or the host restarted. ``token`` is sent for hosts of protocol 1 that knew
    players by it; a host with CURVE ignores it.
    """

    def __init__(self, address: str, name: str, *, token: str | None = None,
                 on_message: Callable[[HostMessage], None] | None = None,
                 reconnect: bool = True, backoff: tuple[float, float] = (0.05, 2.0),
                 request_timeout: float = 10.0, client: str = "cardparty",
                 keys: KeyPair | None = None, host_key: str | bytes | None = None,
                 known_hosts: KnownHosts | None = None, secure: bool = True,
                 features: tuple[str, ...] = ()) -> None:
        try:
            self.address = read_address(address).endpoint
        except AddressError as exc:
            raise SessionError("bad_address", exc.message) from None
        #: CURVE (docs/security.md): ``keys`` is the player's pair (the user's own unless
        #: given), ``host_key`` a key or fingerprint the host must show (an announcement's,
        #: or ``join --key``), ``known_hosts`` the file of hosts met before.
        self.secure = secure
        self.keys = keys
        self.host_key = host_key
        self.known_hosts = known_hosts
        #: The host's key this session holds the host to (set by ``connect``).
        self.expected: Expected | None = None
        self.name = name
        self.token = token
        self.on_message = on_message
        self.reconnect = reconnect
        self.backoff = backoff
        self.request_timeout = request_timeout
        self.client = client
        #: what the hello asks for (``protocol.FEATURES``; the welcome says what was granted)
        self.features = features
        #: Pushed messages when no ``on_message`` is given.
        self.inbox: queue.Queue[HostMessage] = queue.Queue()
        #: The last view message per table id (what the client should show now).
        self.views: dict[str, ViewMessage] = {}
        #: The welcome message of the current connection (host name, player, heartbeat).
        self.welcome: WelcomeReply | None = None
        self.connected = False
        self.heartbeat = 1.0
        self.liveness = 3
        self._ctx: zmq.Context[Any] = zmq.Context.instance()
        self._lock = threading.Lock()
        #: requests unanswered, by rid: the request (sent again after a reconnect) and the
        #: future its reply resolves
        self._pending: dict[int | str, tuple[Outgoing, Future[HostMessage]]] = {}
        #: requests answered ``held``, by rid: when to send each again
        self._held: dict[int | str, float] = {}
        self._outq: queue.Queue[Outgoing] = queue.Queue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._next_rid = random.getrandbits(40) << 20
        self._thread: threading.Thread | None = None
        self._running = False
        self._welcomed = threading.Event()
        self._refusal: SessionError | None = None
        self._closed = False
        #: the highest epoch a host welcomed this session with (never one lower after it)
        self.epoch = 0
        #: where the host's word says the party goes (None: nowhere: do not follow)
        self.successor: Successor | None = None
        #: when the host was lost while a successor was named, and whether the socket now
        #: goes to that successor (to say hello following the host)
        self._lost_at: float | None = None
        self._at_successor = False
        self._successor_due = 0.0
        #: the endpoint and key of the host before the last move (to go back to one whose
        #: copy of a table turns out older than what was seen)
        self._before: tuple[str, bytes] | None = None
        self._wire: _Wire | None = None

    # --- life ------------------------------------------------------------------------------

    def connect(self, timeout: float = 5.0) -> WelcomeReply:
        """Say hello and wait for the welcome; start the session's thread. Returns the welcome
        message. SessionError ``unreachable`` when no welcome comes within ``timeout``: the
        session keeps trying in the background (with backoff), so calling ``connect`` again
        waits on; ``close`` gives up."""
        if self._thread is None:
            if self.secure:
                self._expect(timeout)
            self._running = True
            self._thread = threading.Thread(target=self._run, name="cardparty-session",
                                            daemon=True)
            self._thread.start()
        welcomed = self._welcomed.wait(timeout)
        if self._refusal is not None:
            self._stop()
            raise self._refusal
        if not welcomed:
            if self.expected is not None:
                wrong = diagnose(self.address, self.expected)
                if wrong is not None:
                    self._stop()
                    raise SessionError(wrong.code, wrong.message)
            raise SessionError("unreachable", f"no cardparty host answered at {self.address}")
        assert self.welcome is not None
        return self.welcome

    def _expect(self, timeout: float) -> None:
        """Choose the host's key (hostkey.expect) and this player's pair before any socket
        opens; SessionError when the host must be refused or its key cannot be learnt."""
        if self.known_hosts is None:
            self.known_hosts = KnownHosts()
        try:
            if self.keys is None:
                self.keys = client_keys()
            self.expected = expect(self.address, self.host_key, self.known_hosts,
                                   min(timeout, 3.0))
        except HostKeyError as exc:
            self._closed = True
            raise SessionError(exc.code, exc.message) from None
        except KeyFileError as exc:
            self._closed = True
            raise SessionError("bad_key", str(exc)) from None
        except ConnectionError as exc:
            raise SessionError("unreachable", str(exc)) from None

    def close(self) -> None:
        """Say bye and stop (seats stay the player's until the host times them out)."""
        if self._running and self.connected:
            with contextlib.suppress(SessionError):
                self._enqueue(message("bye"))
            time.sleep(0.01)
        self._stop()

    def abort(self) -> None:
        """Stop at once without a word to the host, as if the process had been killed."""
        self._stop()

    def _stop(self) -> None:
        self._running = False
        self._closed = True
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self._fail_pending("the session was closed")

    def _drop_of_the_moment(self) -> None:
        """The host is lost: the requests of the moment still unanswered fail (``LOST``)
        rather than wait for it to come back (``OF_THE_MOMENT``)."""
        with self._lock:
            dropped = [rid for rid, (m, _) in self._pending.items()
                       if m.get("type") in OF_THE_MOMENT]
            futures = [self._pending.pop(rid)[1] for rid in dropped]
        for fut in futures:
            if not fut.done():
                fut.set_exception(SessionError("unanswered", Msg(LOST)))

    def _fail_pending(self, why: str) -> None:
        """Every request still unanswered fails with SessionError ``closed`` (``why``)."""
        with self._lock:
            pending = list(self._pending.values())
            self._pending.clear()
        for _, fut in pending:
            if not fut.done():
                fut.set_exception(SessionError("closed", why))

    def __enter__(self) -> Session:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- requests --------------------------------------------------------------------------

    def send(self, type_: str, **fields: Any) -> Future[HostMessage]:
        """Send a request; the future holds the reply, or SessionError for an error reply.
        A request id (``rid``) is added unless given. The reply is the one of ``type_``
        (docs/protocol.md): the caller, who knows which, reads it as that reply's shape."""
        if self._closed:
            raise SessionError("closed", "the session was closed")
        msg = message(type_, **fields)
        fut: Future[HostMessage] = Future()
        if type_ in OF_THE_MOMENT and not self.connected and self.successor is None:
            fut.set_exception(SessionError("gone", Msg(GONE)))
            return fut
        with self._lock:
            if msg.get("rid") is None:
                self._next_rid += 1
                msg["rid"] = self._next_rid
            self._pending[msg["rid"]] = (msg, fut)
        if self.connected:
            self._enqueue(msg)
        return fut

    def request(self, type_: str, timeout: float | None = None, **fields: Any
                ) -> HostMessage:
        """Send a request and wait for its reply (SessionError for an error reply)."""
        return self.wait(self.send(type_, **fields), type_, timeout)

    def wait(self, fut: Future[R], what: str, timeout: float | None = None) -> R:
        """The reply in ``fut`` (SessionError ``timeout`` when none comes in time)."""
        try:
            return fut.result(timeout or self.request_timeout)
        except TimeoutError:
            raise SessionError("timeout", f"no reply to {what} in time") from None

    async def arequest(self, type_: str, timeout: float | None = None, **fields: Any
                       ) -> HostMessage:
        """``request`` for asyncio code (prompt-toolkit's loop): awaits the reply without
        blocking the loop."""
        import asyncio

        fut = asyncio.wrap_future(self.send(type_, **fields))
        try:
            return await asyncio.wait_for(fut, timeout or self.request_timeout)
        except TimeoutError:
            raise SessionError("timeout", f"no reply to {type_} in time") from None

    def next_message(self, timeout: float | None = None) -> HostMessage | None:
        """The next pushed message from ``inbox``, or None after ``timeout`` seconds."""
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    # --- the session's thread --------------------------------------------------------------

    def _enqueue(self, msg: Outgoing) -> None:
        self._outq.put(msg)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def _deliver(self, msg: HostMessage) -> None:
        if self.on_message is not None:
            try:
                self.on_message(msg)
            except Exception:  # the application's callback must not kill the session
                log.exception("on_message callback failed")
        else:
            self.inbox.put(msg)

    def _say(self, msg: ConnectionPush | ErrorReply) -> None:
        """A message of the session's own (what became of its connection, a frame from the
        host it could not read), delivered as the host's are."""
        self._deliver(cast(HostMessage, msg))     # its literal ``type`` is a HostMessage's

    def _socket(self, to: Successor | None = None) -> zmq.Socket[Any]:
        """A DEALER to the host (or to ``to``, its successor, with the key it was told)."""
        address = self.address if to is None else to.endpoint
        sock: zmq.Socket[Any] = self._ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.MAXMSGSIZE, MAX_HOST_FRAME)
        sock.setsockopt(zmq.RECONNECT_IVL, 50)
        if ipv6_endpoint(address):
            sock.setsockopt(zmq.IPV6, 1)
        if self.expected is not None and self.keys is not None:
            sock.curve_secretkey = self.keys.secret
            sock.curve_publickey = self.keys.public
            sock.curve_serverkey = self.expected.key if to is None else to.key
        sock.connect(address)
        return sock

    def _plug(self, w: _Wire, sock: zmq.Socket[Any]) -> None:
        """``sock`` is the wire's socket from now on, watched by a monitor of its own."""
        if w.monitor is not None:
            w.poller.unregister(w.monitor)
            with contextlib.suppress(zmq.ZMQError):
                w.sock.disable_monitor()
            w.monitor.close(0)
            w.monitor = None
        w.poller.unregister(w.sock)
        w.sock.close(0)
        w.sock = sock
        w.poller.register(sock, zmq.POLLIN)
        self._watch(w)

    def _watch(self, w: _Wire) -> None:
        w.monitor = w.sock.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        w.poller.register(w.monitor, zmq.POLLIN)

    def _patience(self) -> float:
        """How long to wait for a welcome before starting over on a fresh socket."""
        return max(self.heartbeat * self.liveness, self.backoff[1])

    def _hello(self, sock: zmq.Socket[Any]) -> None:
        hello = message("hello", name=self.name, client=self.client)
        if self.token:
            hello["token"] = self.token
        if self.features:
            hello["features"] = list(self.features)
        if self._at_successor and self.successor is not None:
            hello["follow"] = {"epoch": self.successor.epoch}
        sock.send(encode(hello), zmq.NOBLOCK)

    def _run(self) -> None:
        """The session's thread: hello, then messages both ways and heartbeats, reconnecting
        on a fresh socket when the host falls silent, until the session stops."""
        w = _Wire(self._socket(), time.monotonic(), self.backoff[0])
        self._wire = w
        self._watch(w)
        w.poller.register(self._wake_r.fileno(), zmq.POLLIN)
        try:
            while self._running:
                now = time.monotonic()
                if not self.connected and w.hello_due is not None and now >= w.hello_due:
                    # No IMMEDIATE: the hello waits in the socket until the TCP link is up.
                    with contextlib.suppress(zmq.Again):
                        self._hello(w.sock)
                    w.hello_due = None
                    w.hello_sent = w.last_sent = now
                events = dict(w.poller.poll(max(1, int(self._wait(w, now) * 1000) + 1)))
                if self._wake_r.fileno() in events:
                    with contextlib.suppress(BlockingIOError):
                        self._wake_r.recv(4096)
                if self._stopped():
                    break
                if w.sock in events:
                    self._read(w)
                if w.monitor is not None and w.monitor in events:
                    self._monitored(w, time.monotonic())
                if not self._keep_up(w, time.monotonic()):
                    break
        finally:
            if w.monitor is not None:
                with contextlib.suppress(zmq.ZMQError):
                    w.sock.disable_monitor()
                w.monitor.close(0)
            self._ended(w.sock)

    def _stopped(self) -> bool:
        """``close`` or a refusal stopped the session (from another thread, or a message)."""
        return not self._running

    def _wait(self, w: _Wire, now: float) -> float:
        """Seconds until the thread must look again without a message: the next heartbeat,
        the host's silence, the hello's time, or the patience for a welcome."""
        if self.connected:
            return max(0.0, min(w.last_sent + self.heartbeat - now,
                                w.last_recv + self.heartbeat * self.liveness - now,
                                *(due - now for due in self._held.values())))
        if w.hello_due is not None:
            return max(0.0, w.hello_due - now)
        due = w.hello_sent + self._patience()
        if self._follows(now) and not self._at_successor:
            # Back at the lost host while its successor said it does not serve yet: the
            # successor is asked again when due, not after a whole patience.
            due = min(due, self._successor_due)
        return max(0.0, due - now)

    def _read(self, w: _Wire) -> None:
        """Every message waiting on the socket, handled."""
        while True:
            try:
                frame = w.sock.recv(zmq.NOBLOCK)
            except zmq.Again:
                break
            w.last_recv = time.monotonic()
            self._incoming(frame, w.sock)
        if self.connected:
            w.backoff = self.backoff[0]

    def _keep_up(self, w: _Wire, now: float) -> bool:
        """Send what waits, ping when quiet, and start over on a fresh socket when the host
        fell silent (Paranoid Pirate) or no welcome came in time; False: the session ends
        (the host was lost and it does not reconnect)."""
        if not self.connected:
            if self._follows(now) and not self._at_successor and now >= self._successor_due:
                self._to_successor(w, now)
            elif w.hello_due is None and now - w.hello_sent > self._patience():
                self._fresh(w, now)     # no welcome in time: start over, waiting longer
                # (the host again, if the successor did not answer: a while before trying it
                # once more)
                self._successor_due = now + self._patience()
            return True
        self._held_again(now)
        self._send_queued(w, now)
        if now - w.last_recv > self.heartbeat * self.liveness:
            return self._host_lost(w, now)
        elif now - w.last_sent >= self.heartbeat:
            with contextlib.suppress(zmq.Again):
                w.sock.send(encode(message("ping")), zmq.NOBLOCK)
            w.last_sent = now
        return True

    def _held_again(self, now: float) -> None:
        """Requests answered ``held`` sent again, with their rid, once due: the host answers
        them from its memory once the table is served again (a move done before the hold is
        told ``ok`` then, never done twice)."""
        if not self._held:
            return
        for rid, due in list(self._held.items()):
            if now < due:
                continue
            with self._lock:
                entry = self._pending.get(rid)
            if entry is None or entry[1].done():
                del self._held[rid]
                continue
            self._held[rid] = now + HELD_AGAIN
            self._outq.put(entry[0])

    def _send_queued(self, w: _Wire, now: float) -> None:
        while True:
            try:
                msg = self._outq.get_nowait()
            except queue.Empty:
                return
            try:
                w.sock.send(encode(msg), zmq.NOBLOCK)
                w.last_sent = now
            except zmq.Again:
                self._outq.put(msg)
                return

    def _fresh(self, w: _Wire, now: float) -> None:
        """A fresh DEALER (the host knows the player by his key, whatever the connection),
        its hello after the backoff, which doubles up to its most."""
        self._at_successor = False
        self._plug(w, self._socket())
        w.hello_due = now + w.backoff
        w.backoff = min(w.backoff * 2, self.backoff[1])

    # --- a takeover (docs/protocol.md, "What a client does at a takeover") ---------------

    def _host_lost(self, w: _Wire, now: float, closed: bool = False) -> bool:
        """The host is gone (silent, or its connection ``closed``): say so, then follow its
        word (its successor) or reconnect; False: the session ends (no reconnecting). A
        connection that closed while the host's port still takes connections is a reset (a
        flaky link, the host's machine alive): the host is tried again first, and its
        successor only if it does not welcome this session within ``HOST_FIRST`` seconds
        (following at once would make the standby take over a host that serves)."""
        self.connected = False
        self._welcomed.clear()
        if self.successor is None:
            self._drop_of_the_moment()
        self._say(connection("lost"))
        if not self.reconnect:
            return False
        if self.successor is not None:
            self._lost_at = now
            if closed and not port_refuses(self.address):
                self._fresh(w, now)
                w.hello_due = now
                self._successor_due = now + HOST_FIRST
            else:
                self._to_successor(w, now)
        else:
            self._fresh(w, now)
        return True

    def _follows(self, now: float) -> bool:
        """Whether this session still follows its lost host's successor."""
        return (self.successor is not None and self._lost_at is not None
                and now - self._lost_at < FOLLOW)

    def _to_successor(self, w: _Wire, now: float) -> None:
        """A socket to the successor, and a hello following the lost host at once."""
        assert self.successor is not None
        self._at_successor = True
        self._plug(w, self._socket(self.successor))
        w.hello_due = now

    def _monitored(self, w: _Wire, now: float) -> None:
        """The socket's connection closed: a killed host is seen at once, not after the
        heartbeats' silence."""
        assert w.monitor is not None
        closed = False
        while True:
            try:
                event = recv_monitor_message(w.monitor, zmq.NOBLOCK)
            except zmq.Again:
                break
            closed = closed or event["event"] == zmq.EVENT_DISCONNECTED
        if closed and self.connected and self.successor is not None:
            self._host_lost(w, now, closed=True)

    def _not_host(self, now: float, msg: NotHostReply) -> None:
        """The successor says it does not serve (yet): back to the host meanwhile, and the
        successor again in a moment, while the host is followed. At the host's own address,
        a peer that does not serve any more (it handed over, stood down, or came back as a
        peer after a failure) names the host it stands by: the party is there (the peer
        proved the key this session holds its host to, as a host's ``moved`` does)."""
        w = self._wire
        if w is None:
            return
        if not self._at_successor:
            try:
                where = read_address(str(msg["host"])).endpoint
                key = public_key(str(msg["key"]))
            except (AddressError, ValueError, KeyError, TypeError):
                return
            if where == self.address:
                return
            self.successor = Successor(where, key, max(1, self.epoch))
            self._lost_at = now
            self._to_successor(w, now)
            return
        self._successor_due = now + STANDBY_AGAIN
        self._fresh(w, now)
        w.hello_due = now

    def _moved(self, msg: MovedPush) -> None:
        """The host hands over (``moved``): its successor is where it says, at once."""
        try:
            where = read_address(f"{msg['address']}:{msg['port']}").endpoint
            key = public_key(str(msg["key"]))
            epoch = int(msg["epoch"])
        except (AddressError, ValueError, KeyError, TypeError):
            return
        self.successor = Successor(where, key, max(1, epoch - 1))
        w = self._wire
        if w is not None:
            now = time.monotonic()
            self.connected = False
            self._welcomed.clear()
            self._lost_at = now
            self._to_successor(w, now)

    def _word(self, msg: WelcomeReply | StandbyPush, epoch: int) -> None:
        """The host's word about its standby (a ``welcome`` or a ``standby`` push): kept,
        and answered (``standby_ok``), so the host knows this player will not follow a
        standby it dropped."""
        standby = msg.get("standby")
        if msg.get("type") == "standby" and standby is None and self.successor is not None:
            # A drop withdraws what waited for the standby: the replies to requests still
            # unanswered may never come as they were; asked again (same ids), they are
            # answered from the host's memory, or refused ``held``.
            with self._lock:
                pending = [m for m, _ in self._pending.values()]
            for m in pending:
                self._outq.put(m)
        self.successor = None
        if isinstance(standby, dict):
            try:
                where = read_address(f"{standby['address']}:{standby['port']}").endpoint
                self.successor = Successor(where, public_key(str(standby["key"])), epoch)
            except (AddressError, ValueError, KeyError, TypeError):
                self.successor = None
        gen = msg.get("standby_gen", msg.get("gen"))
        if isinstance(gen, int) and not isinstance(gen, bool):
            self._outq.put(message("standby_ok", gen=gen))
            self._wake()

    def _ended(self, sock: zmq.Socket[Any]) -> None:
        """The thread ends: every request still unanswered fails, the socket and the wake-up
        pair are closed."""
        self.connected = False
        self._closed = True
        sock.close(0)
        self._fail_pending("the session has stopped")
        with contextlib.suppress(OSError):
            self._wake_r.close()
            self._wake_w.close()

    def _incoming(self, frame: bytes, sock: zmq.Socket[Any]) -> None:
        try:
            decoded = decode(frame, HOST_LIMITS)
        except ProtocolError as exc:
            unread: ErrorReply = {"type": "error", "v": PROTOCOL, "code": exc.code,
                                  "message": f"from the host: {exc.message}", "rid": None,
                                  "about": None}
            self._say(unread)
            return
        # decode checked that it is a map with a type: a message, read as its type's shape
        # once that type is looked at
        msg = cast(HostMessage, decoded)
        kind = msg["type"]
        if kind == "error" and self._refused(cast(ErrorReply, msg), sock):
            return
        if kind == "moved":
            self._moved(cast(MovedPush, msg))
            return
        if kind == "standby":
            push = cast(StandbyPush, msg)
            epoch = push.get("epoch")
            self._word(push, epoch if isinstance(epoch, int) else self.epoch)
            self._deliver(msg)
            return
        if kind == "welcome":
            self._welcomed_by(cast(WelcomeReply, msg), sock)
            return
        if kind == "pong":
            return
        if kind == "view" and not self._view(msg):
            return
        rid = msg.get("rid")
        rid = rid if isinstance(rid, int | str) else None      # a reply's; None: a push
        refusal = cast(ErrorReply, msg) if kind == "error" else None
        fut = None
        if refusal is not None and refusal.get("code") == "held" and rid is not None:
            with self._lock:
                waiting = rid in self._pending
            if waiting:                 # not refused: asked again once the table is back
                log.debug("request %s about table %s is held: asked again", rid,
                          refusal.get("table"))
                self._held.setdefault(rid, time.monotonic() + HELD_AGAIN)
                return
        if rid is not None:
            self._held.pop(rid, None)
            with self._lock:
                entry = self._pending.pop(rid, None)
            if entry is not None:
                fut = entry[1]
        if fut is not None:
            if refusal is not None:
                fut.set_exception(SessionError(refusal.get("code", "error"),
                                               from_wire(refusal.get("msg"))
                                               or refusal.get("message", "")))
            else:
                fut.set_result(msg)
            if kind != "view":
                return
        if kind == "pong" or kind in ("games", "tables", "seated") and fut is None:
            return
        self._deliver(msg)

    def _refused(self, msg: ErrorReply, sock: zmq.Socket[Any]) -> bool:
        """An ``error`` about the connection itself, handled here (True): a peer that does
        not serve, a hello refused, a host that forgot this session, or this player's
        connection replaced by another; False for any other, which answers its request."""
        code = msg.get("code")
        if code == "not_host":
            self._not_host(time.monotonic(), cast(NotHostReply, msg))
            return True
        if msg.get("about") == "hello" and not self.connected:
            # The host refused the hello itself (a name owned by another key...): say why.
            self._refusal = SessionError(str(msg.get("code", "error")),
                                         from_wire(msg.get("msg"))
                                         or str(msg.get("message", "")))
            self._running = False
            self._welcomed.set()
            return True
        if code == "hello_first":
            # The host forgot us (it restarted): say hello again.
            if self.connected:
                self.connected = False
                self._welcomed.clear()
                self._drop_of_the_moment()
                self._say(connection("lost"))
            with contextlib.suppress(zmq.Again):
                self._hello(sock)
            w = self._wire
            if w is not None and sock is w.sock:
                # The welcome is awaited from now: without this the loop took the hello for
                # long unanswered and said hello again on a fresh connection, and the host,
                # taking the two in either order, answered the live one ``replaced``.
                w.hello_sent, w.hello_due = time.monotonic(), None
            return True
        if code == "replaced":
            # The same player connected from elsewhere: that connection has the seat now.
            self.connected = False
            self.reconnect = False
            self._running = False
            replaced = connection("replaced")
            replaced["resumed"] = False
            self._say(replaced)
            return True
        return False

    def _view(self, msg: HostMessage) -> bool:
        """Keep a view (Clone); False for one refused as older than what was seen."""
        table = msg.get("table")
        if not isinstance(table, str):
            return True
        view = cast(ViewMessage, msg)           # a view of a table
        last = self.views.get(table)
        if (last is not None and not view.get("snapshot")
                and view.get("prev") != last.get("version")):
            # Clone: a view went missing; ask for the whole picture again.
            self._outq.put(message("snapshot", table=table))
        if (last is not None and view.get("snapshot") and self._before is not None
                and view.get("version", 0) < last.get("version", 0)):
            # A host that took over whose copy of this table is older than what was seen:
            # never taken (docs/protocol.md, "No split brain"): said, and the view kept.
            older: ConnectionPush = {"type": "connection", "v": PROTOCOL, "state": "older",
                                     "table": table, "version": view.get("version"),
                                     "seen": last.get("version")}
            self._say(older)
            return False
        if last is None or view.get("version", 0) >= last.get("version", 0) or view.get(
                "snapshot"):
            self.views[table] = view
        return True

    def _welcomed_by(self, msg: WelcomeReply, sock: zmq.Socket[Any]) -> None:
        if self.connected:
            return                        # a second answer to a hello sent twice
        epoch = msg.get("epoch", 0)
        epoch = epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else 0
        if epoch < self.epoch:
            # A host of an older generation (one that dropped out of a split, or restarted
            # from old data): never back to it; the successor, if there is one.
            log.warning("a host of epoch %d welcomed this session, which was at %d: refused",
                        epoch, self.epoch)
            if self.successor is not None and self._wire is not None:
                self._lost_at = time.monotonic()
                self._to_successor(self._wire, self._lost_at)
            return
        first = self.welcome is None
        moved = self._at_successor and self.successor is not None
        if moved:
            assert self.successor is not None
            if self.expected is not None:
                self._before = (self.address, self.expected.key)
            self.address = self.successor.endpoint
            self.expected = Expected(self.successor.key, "given", "known")
            self._at_successor = False
            self._lost_at = None
            if self.known_hosts is not None:
                # The old host told this key over its authenticated connection: no question
                # of trust on first use for the new one.
                with contextlib.suppress(OSError, HostKeyError, ValueError):
                    self.known_hosts.remember(self.address, self.successor.key,
                                              str(msg.get("host", "")))
        elif first and self.expected is not None and self.known_hosts is not None:
            # The host proved its key in the CURVE handshake: remember it (trust on first use).
            with contextlib.suppress(OSError):
                if self.expected.source != "known":
                    self.known_hosts.remember(self.address, self.expected.key,
                                              str(msg.get("host", "")))
        self.epoch = max(self.epoch, epoch)
        self.welcome = msg
        self.token = msg.get("token", self.token)
        self.heartbeat = float(msg.get("heartbeat", self.heartbeat))
        self.liveness = int(msg.get("liveness", self.liveness))
        self.connected = True
        self._word(msg, epoch)
        # Resend every request still unanswered, with its request id: the host answers a
        # repeated id from memory and never acts twice (a host that took over has its old
        # host's memory).
        with self._lock:
            pending = [m for m, _ in self._pending.values()]
        for m in pending:
            self._outq.put(m)
        self._welcomed.set()
        if moved:
            where = self.address.removeprefix("tcp://")
            text = Msg(MOVED, address=where)
            moved_to: ConnectionPush = {
                "type": "connection", "v": PROTOCOL, "state": "moved",
                "resumed": bool(msg.get("resumed")), "address": where, "epoch": epoch,
                "text": str(text), "msg": text.to_wire()}
            self._say(moved_to)
        elif not first:
            restored = connection("restored")
            restored["resumed"] = bool(msg.get("resumed"))
            self._say(restored)


def connection(state: str) -> ConnectionPush:
    """The session's own ``connection`` message: what became of its connection (the fields
    each state adds are set by who says it)."""
    return {"type": "connection", "v": PROTOCOL, "state": state}
