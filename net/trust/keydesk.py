"""The host's key desk: a plain socket that tells anyone the host's public key.

A client that has only an address (``cardparty join 192.168.1.20``) needs the host's public key
before it can open a CURVE connection at all. The host answers that one question on the port
after its own (``port + 1``, unencrypted); the client asks once, checks the answer against its
known hosts (a changed key is refused) or against a fingerprint it was given (``--key``), and
remembers it after the host proved it in the CURVE handshake. The risk (docs/security.md): on
the very first contact, someone who can answer in the host's place gives his own key, exactly
as with ssh; the fingerprint the host prints at start is what a careful player compares.

The desk is open to anyone who can reach the port, so what it may cost the host is bounded
(``DeskLimits``): connections at once (all addresses, and one address), seconds a connection
may stay without asking, answers a second to one address, new connections a second. A ZeroMQ
socket cannot be bounded that way (it accepts every connection until the process has no file
descriptor left, cannot close one of its connections, and then spins a core on its listener),
so the desk is a small TCP server of its own, on one thread with a selector, that speaks just
what a ZeroMQ DEALER or REQ (or any client written from docs/protocol.md) needs: ZMTP 3.0's
greeting with the NULL mechanism, its READY command, and frames (RFC 23; a REQ's question and
answer come after an empty delimiter frame). When the desk is full, the
connection that has been quiet the longest makes room: a guest who opens connections and
says nothing only pushes out his own kind, never a newcomer who asks at once. Over its budget
of new connections the desk stops listening for a moment (the kernel holds the rest), and a
source address over its rate of answers is not read until it has one due (TCP holds it back):
neither a full desk nor a flood keeps a core busy.

Owns: the desk (``KeyDesk``, ``DeskLimits``), its answer (``KeyReply``), the client's question
(``fetch_key``), and which port the desk uses (``desk_endpoint``).

Must not know about: players, tables, terminals.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import selectors
import socket
import struct
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, cast

import zmq

from cardparty.net.trust.allowance import Allowances
from cardparty.net.trust.keys import KeyPair, public_key
from cardparty.net.wire.address import ipv6_endpoint
from cardparty.net.wire.protocol import HOST_LIMITS, PROTOCOL, ProtocolError, decode, encode

log = logging.getLogger("cardparty.host")

#: What a client sends; anything else gets no answer.
QUESTION = b"cardparty key?"


class KeyReply(TypedDict):
    """The desk's answer (``key``): the host's public key (Z85) and its name."""

    type: Literal["key"]
    v: int
    key: str
    name: str


@dataclass(frozen=True, slots=True)
class DeskLimits:
    """What the desk may cost. A client asks once when it joins (and once more when a
    handshake fails), within milliseconds of connecting: a party of a few dozen laptops,
    one address each, is far inside every number."""

    #: connections at once, every address together (each is a file descriptor)
    connections: int = 64
    #: connections at once from one address
    per_address: int = 8
    #: seconds a connection may stay without asking (or since its last answer)
    idle: float = 5.0
    #: answers a second to one address, after a first ``burst`` of them
    answers: float = 10.0
    burst: int = 20
    #: new connections accepted a second, every address together (a first ``accept_burst``):
    #: a flood of new connections pushes the quietest out no faster than this, so a
    #: newcomer's question (milliseconds after he connects) comes before his turn to go
    accepts: float = 200.0
    accept_burst: int = 16
    #: the listener's queue in the kernel (connections not yet accepted)
    backlog: int = 64


#: The limits a host's desk runs with (tests lower them).
LIMITS = DeskLimits()

#: The greeting of ZMTP 3.0 (RFC 23): signature, version 3.0, mechanism NULL, not a server.
GREETING = (b"\xff" + bytes(8) + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\0") + b"\0"
            + bytes(31))
#: The ROUTER's side of the NULL handshake.
_SOCKET_TYPE = b"Socket-Type"
#: Socket types a ROUTER talks to (ZeroMQ refuses the others).
_PEERS = frozenset({b"DEALER", b"REQ", b"ROUTER"})
#: The largest frame read after the handshake: a question is 14 bytes (ZeroMQ's MAXMSGSIZE
#: of 64 on the desk before it had its own server).
_MAX_FRAME = 64
#: The largest READY command read (its metadata: a socket type and an identity of up to 255).
_MAX_COMMAND = 1024
#: Frames of one message, and bytes waiting to be sent to one connection, at most.
_MAX_FRAMES = 4
_MAX_OUT = 8192
#: Seconds the listener rests after the process ran out of file descriptors.
_NO_FDS_REST = 0.5

_GREETING, _READY, _MESSAGES = 0, 1, 2


def desk_endpoint(address: str) -> str:
    """The desk of the host at ``tcp://h:p``: ``tcp://h:p+1``."""
    head, port = address.rsplit(":", 1)
    return f"{head}:{int(port) + 1}"


def zmtp_frame(body: bytes, *, command: bool = False, more: bool = False) -> bytes:
    """One ZMTP 3 frame: flags, size (one byte, or eight for a long one), body."""
    flags = (0x04 if command else 0) | (0x01 if more else 0)
    if len(body) > 255:
        return bytes([flags | 0x02]) + struct.pack(">Q", len(body)) + body
    return bytes([flags, len(body)]) + body


def ready_command(socket_type: bytes) -> bytes:
    """The READY command of the NULL mechanism, naming the socket type."""
    body = (b"\x05READY" + bytes([len(_SOCKET_TYPE)]) + _SOCKET_TYPE
            + struct.pack(">I", len(socket_type)) + socket_type)
    return zmtp_frame(body, command=True)


def _socket_type(body: bytes) -> bytes | None:
    """The Socket-Type a READY command's body names (None: not a READY, or none named)."""
    if body[:6] != b"\x05READY":
        return None
    i = 6
    while i < len(body):
        n = body[i]
        name = body[i + 1:i + 1 + n]
        i += 1 + n
        if i + 4 > len(body):
            return None
        (size,) = struct.unpack(">I", body[i:i + 4])
        value = body[i + 4:i + 4 + size]
        i += 4 + size
        if name.lower() == _SOCKET_TYPE.lower():
            return value
    return None


def _split(endpoint: str) -> tuple[int, str, int]:
    """(family, host, port) of ``tcp://host:port`` (``*`` any address or any port)."""
    head, port = endpoint.removeprefix("tcp://").rsplit(":", 1)
    number = 0 if port in ("*", "0") else int(port)
    if head.startswith("["):
        return socket.AF_INET6, head.strip("[]"), number
    return socket.AF_INET, "0.0.0.0" if head == "*" else head, number


class _Conn:
    """One connection to the desk and where its handshake is."""

    __slots__ = ("addr", "frames", "inbuf", "last", "out", "paused", "phase", "req", "sock",
                 "waiting")

    def __init__(self, sock: socket.socket, addr: str, now: float) -> None:
        self.sock = sock
        self.addr = addr
        self.inbuf = bytearray()
        self.out = bytearray()
        self.phase = _GREETING
        self.frames: list[bytes] = []
        #: when it connected, last asked or was last answered: the quietest makes room first
        self.last = now
        #: a question waits for its address's next answer, due then (None: not waiting),
        #: since ``waiting``: an address's questions are answered in the order they came
        self.paused: float | None = None
        self.waiting = 0.0
        #: the peer is a REQ socket: its question and the answer come after an empty frame
        self.req = False


class KeyDesk:
    """Answers QUESTION with the host's public key and name until ``close()``, within
    ``limits``. ``address`` is where it listens (``tcp://h:p``, the port chosen)."""

    def __init__(self, endpoint: str, keys: KeyPair, name: str,
                 limits: DeskLimits | None = None) -> None:
        self.limits = limits or LIMITS
        said: KeyReply = {"type": "key", "v": PROTOCOL, "key": keys.public.decode(),
                          "name": name}
        self.answer = zmtp_frame(encode(said))
        #: the same to a REQ socket, behind the empty delimiter frame it expects
        self.req_answer = zmtp_frame(b"", more=True) + self.answer
        family, host, port = _split(endpoint)
        listener = socket.socket(family, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((host, port))
            listener.listen(self.limits.backlog)
            listener.setblocking(False)
        except OSError:
            listener.close()
            raise
        bound = listener.getsockname()
        shown = f"[{bound[0]}]" if family == socket.AF_INET6 else bound[0]
        self.address = f"tcp://{shown}:{bound[1]}"
        self._listener = listener
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._conns: dict[int, _Conn] = {}
        self._per_address: dict[str, int] = {}
        #: answers to each address, and new connections of the whole desk (one bucket)
        self._rates: Allowances[str] = Allowances(self.limits.answers, self.limits.burst,
                                                  4 * self.limits.connections)
        self._accepts: Allowances[None] = Allowances(self.limits.accepts,
                                                     self.limits.accept_burst, 1)
        #: when the listener, resting, is read again (None: it is read now)
        self._listen_at: float | None = None
        self._sel.register(listener, selectors.EVENT_READ, "listen")
        self._warned = 0.0
        #: what the desk did (tests and benches read it)
        self.answered = 0
        self.waited = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardparty-keydesk", daemon=True)
        self._thread.start()

    @property
    def held(self) -> int:
        """Connections open now."""
        return len(self._conns)

    # --- the loop ----------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                for key, mask in self._sel.select(self._timeout()):
                    now = time.monotonic()
                    if key.data == "listen":
                        self._accept(now)
                    elif key.data == "wake":
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(64)
                    else:
                        conn = self._conns.get(key.fd)
                        if conn is None:
                            continue
                        if mask & selectors.EVENT_WRITE:
                            self._flush(conn)
                        if mask & selectors.EVENT_READ and key.fd in self._conns:
                            self._read(conn, now)
                self._expire(time.monotonic())
        except Exception:
            log.exception("the key desk failed; it is closed")
        finally:
            for conn in list(self._conns.values()):
                self._drop(conn)
            self._sel.close()
            self._listener.close()
            self._wake_r.close()
            self._wake_w.close()

    def _timeout(self) -> float | None:
        """Seconds to the next thing due (an idle connection, a paused question, the
        listener's rest), or None."""
        due = [c.paused if c.paused is not None else c.last + self.limits.idle
               for c in self._conns.values()]
        if self._listen_at is not None:
            due.append(self._listen_at)
        return max(0.0, min(due) - time.monotonic()) if due else None

    def _expire(self, now: float) -> None:
        idle = self.limits.idle
        due = []
        for conn in list(self._conns.values()):
            if conn.paused is not None:
                if conn.paused <= now:
                    due.append(conn)
            elif conn.last + idle <= now:
                self._drop(conn)
        for conn in sorted(due, key=lambda c: c.waiting):
            self._resume(conn, now)
        if self._listen_at is not None and self._listen_at <= now:
            self._listen_at = None
            self._sel.register(self._listener, selectors.EVENT_READ, "listen")

    def _rest(self, until: float) -> None:
        """Stop reading the listener until ``until`` (the kernel queues, then refuses)."""
        if self._listen_at is None:
            self._sel.unregister(self._listener)
        self._listen_at = until

    # --- connections -------------------------------------------------------------------------

    def _accept(self, now: float) -> None:
        for _ in range(self.limits.accept_burst):
            if not self._accepts.spend(None, now):
                self._rest(self._accepts.due(None, now))
                return
            try:
                sock, peer = self._listener.accept()
            except BlockingIOError:
                self._accepts.refund(None)       # nobody came: not spent
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    if now - self._warned > 60:
                        self._warned = now
                        log.warning("the key desk cannot accept a connection (%s); it rests "
                                    "%.1f s", exc.strerror, _NO_FDS_REST)
                    self._rest(now + _NO_FDS_REST)
                return                       # ECONNABORTED and the like: the next wake
            self._admit(sock, str(peer[0]), now)

    def _admit(self, sock: socket.socket, addr: str, now: float) -> None:
        """A new connection: room is made first (the quietest of its address when that
        address is at its share, else the quietest of all when the desk is full)."""
        limits = self.limits
        if self._per_address.get(addr, 0) >= limits.per_address:
            self._drop(min((c for c in self._conns.values() if c.addr == addr),
                           key=lambda c: c.last))
        elif len(self._conns) >= limits.connections:
            self._drop(min(self._conns.values(), key=lambda c: c.last))
        sock.setblocking(False)
        conn = _Conn(sock, addr, now)
        self._conns[sock.fileno()] = conn
        self._per_address[addr] = self._per_address.get(addr, 0) + 1
        self._sel.register(sock, selectors.EVENT_READ, "conn")
        self._send(conn, GREETING + ready_command(b"ROUTER"))

    def _drop(self, conn: _Conn) -> None:
        fd = conn.sock.fileno()
        if self._conns.pop(fd, None) is None:
            return
        with contextlib.suppress(KeyError, ValueError):
            self._sel.unregister(conn.sock)
        conn.sock.close()
        left = self._per_address.get(conn.addr, 1) - 1
        if left:
            self._per_address[conn.addr] = left
        else:
            self._per_address.pop(conn.addr, None)

    def _send(self, conn: _Conn, data: bytes) -> None:
        conn.out += data
        if len(conn.out) > _MAX_OUT:            # it asks and never reads
            self._drop(conn)
            return
        self._flush(conn)

    def _flush(self, conn: _Conn) -> None:
        try:
            sent = conn.sock.send(conn.out)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._drop(conn)
            return
        del conn.out[:sent]
        self._watch(conn)

    def _watch(self, conn: _Conn) -> None:
        """Read unless a question waits for its answer; write while bytes wait."""
        events = (0 if conn.paused is not None else selectors.EVENT_READ) | (
            selectors.EVENT_WRITE if conn.out else 0)
        key = self._sel.get_map().get(conn.sock.fileno())
        if events == 0:
            if key is not None:
                self._sel.unregister(conn.sock)
        elif key is None:
            self._sel.register(conn.sock, events, "conn")
        elif key.events != events:
            self._sel.modify(conn.sock, events, "conn")

    # --- what a connection says --------------------------------------------------------------

    def _read(self, conn: _Conn, now: float) -> None:
        try:
            data = conn.sock.recv(1024)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop(conn)
            return
        conn.inbuf += data
        self._parse(conn, now)

    def _parse(self, conn: _Conn, now: float) -> None:
        """As much of the connection's bytes as can be understood now; anything that is not
        ZMTP as a DEALER speaks it closes the connection."""
        buf = conn.inbuf
        while conn.paused is None and conn.sock.fileno() in self._conns:
            if conn.phase == _GREETING:
                if buf and buf[0] != 0xFF:              # not ZMTP 3 (nor 2)
                    self._drop(conn)
                    return
                if len(buf) < 64:
                    return
                greeting = bytes(buf[:64])
                del buf[:64]
                if (greeting[9] & 1) == 0 or greeting[10] < 3 or \
                        greeting[12:32].rstrip(b"\0") != b"NULL":
                    self._drop(conn)
                    return
                conn.phase = _READY
                continue
            frame = self._frame(conn)
            if frame is None:
                return
            flags, body = frame
            if conn.phase == _READY:
                peer = _socket_type(body)
                if not flags & 0x04 or peer not in _PEERS:
                    self._drop(conn)
                    return
                conn.req = peer == b"REQ"
                conn.phase = _MESSAGES
                continue
            if flags & 0x04:                     # a command after the handshake
                self._drop(conn)
                return
            conn.frames.append(body)
            if len(conn.frames) > _MAX_FRAMES:
                self._drop(conn)
                return
            if not flags & 0x01:
                frames, conn.frames = conn.frames, []
                if frames == ([b"", QUESTION] if conn.req else [QUESTION]):
                    conn.last = now              # it spoke: not the quietest any more
                    self._ask(conn, now)

    def _frame(self, conn: _Conn) -> tuple[int, bytes] | None:
        """The next whole frame of the connection's bytes (None: not all there yet, or it
        was too big and the connection is closed)."""
        buf = conn.inbuf
        if len(buf) < 2:
            return None
        flags = buf[0]
        if flags & 0x02:
            if len(buf) < 9:
                return None
            (size,) = struct.unpack(">Q", bytes(buf[1:9]))
            head = 9
        else:
            size, head = buf[1], 2
        most = _MAX_COMMAND if conn.phase == _READY else _MAX_FRAME
        if size > most or flags & 0xF8:
            self._drop(conn)
            return None
        if len(buf) < head + size:
            return None
        body = bytes(buf[head:head + size])
        del buf[:head + size]
        return flags, body

    def _ask(self, conn: _Conn, now: float) -> None:
        """Answer, if the connection's address has an answer due; else wait for it without
        reading further."""
        if self._rates.spend(conn.addr, now):
            conn.paused = None
            conn.last = now
            self.answered += 1
            self._send(conn, self.req_answer if conn.req else self.answer)
            return
        self.waited += 1
        if conn.paused is None:
            conn.waiting = now
        conn.paused = self._rates.due(conn.addr, now)
        self._watch(conn)

    def _resume(self, conn: _Conn, now: float) -> None:
        self._ask(conn, now)
        if conn.sock.fileno() in self._conns and conn.paused is None:
            self._watch(conn)
            self._parse(conn, now)

    def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        self._thread.join(2)


def fetch_key(address: str, timeout: float = 3.0,
              ctx: zmq.Context[Any] | None = None) -> tuple[bytes, str]:
    """Ask the desk of the host at ``address`` (``tcp://h:p``) for its key: (key, name).
    ConnectionError when nothing sensible answers within ``timeout``."""
    ctx = ctx or zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, 4096)
    if ipv6_endpoint(address):
        sock.setsockopt(zmq.IPV6, 1)
    try:
        try:
            sock.connect(desk_endpoint(address))
        except zmq.ZMQError as exc:     # an endpoint ZeroMQ cannot even try
            raise ConnectionError(f"cannot reach {address}: {exc}") from None
        sock.send(QUESTION)
        if not sock.poll(int(timeout * 1000)):
            raise ConnectionError(f"no cardparty host told its key at {address}")
        decoded = decode(sock.recv(), HOST_LIMITS)
        if decoded["type"] != "key":
            raise ProtocolError("unknown_type", f"a {decoded['type']!r} message, not its key")
        # Its fields are still a stranger's words: each is checked as it is read.
        reply = cast("KeyReply", decoded)
        key = public_key(reply.get("key", ""))
        name = reply.get("name", "")
        return key, name if isinstance(name, str) else ""
    except (ProtocolError, ValueError) as exc:
        raise ConnectionError(f"the host at {address} sent no usable key ({exc})") from None
    finally:
        sock.close(0)
