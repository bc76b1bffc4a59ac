"""CURVE for a host: its key pair on its ROUTER, a ZAP handler, and its key desk.

Owns: opening a host's ROUTER socket (``open_router``, the one place its options are set:
CURVE with the host's key pair and this ZAP handler, ROUTER_MANDATORY so a send to a vanished
client fails loudly instead of vanishing, no ROUTER_HANDOVER (a connection claiming a routing
id in use is refused, never handed another's route), an explicit linger, ZeroMQ's own frame
limit, the send queue of one client bounded; the host and a standby both open theirs here),
turning a host's ROUTER into a CURVE server (``secure``), the ZAP handler that lets
every client key in (anyone may play) and names each connection by its key and the address
it comes from, so that every message carries the key ZeroMQ authenticated and the peer's
address as its "User-Id" property (``peer_of``: the limits a new key does not refill are
counted per address, docs/operating.md),
binding the key desk next to the ROUTER (``open_desk``: on the port after the host's), and
keeping both to their shares of the host's file descriptors (``net/trust/fdbudget.py``).

A client's identity at a host is that key: never its routing id, a name or a token it sends.

Must not know about: players, tables, games, terminals.
"""

from __future__ import annotations

import dataclasses
import errno
import threading
import time
from typing import Any

import zmq
from zmq.utils import z85

from cardparty.net.trust import keydesk
from cardparty.net.trust.fdbudget import Budget, ConnectionCap, Door, plan
from cardparty.net.trust.keydesk import KeyDesk, desk_endpoint
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import HARD_FRAME

#: Seconds a host keeps trying to bind a port that is still in use (see ``open_router``).
BIND_RETRY = 2.0
#: Frames the host queues to one client (ZeroMQ's send high-water mark, per connection).
#: Every frame is bounded (the largest, a ``tables`` page, is a few tens of KB), so this
#: bounds the bytes one client that stops reading can hold in the host; past it the client
#: is disconnected and resumes with a snapshot when it says hello again.
SNDHWM = 2000
#: The ZAP domain of a cardparty host.
DOMAIN = "cardparty"
#: Where ZeroMQ asks a context's ZAP handler (RFC 27).
ZAP_ENDPOINT = "inproc://zeromq.zap.01"


#: Between the key and the address in a connection's User-Id (Z85 has no space).
_AT = b" "


def zap_reply(request: list[bytes]) -> list[bytes]:
    """The answer to one ZAP request (RFC 27): any CURVE client key of the host's domain is
    let in, named as the connection's User-Id by its key (Z85) and the address ZeroMQ saw
    it come from (``KEY ADDRESS``); anything else is refused."""
    rid = request[1] if len(request) > 1 else b""
    if (len(request) == 7 and request[0] == b"1.0" and request[2] == DOMAIN.encode()
            and request[5] == b"CURVE" and len(request[6]) == 32):
        return [b"1.0", rid, b"200", b"OK", z85.encode(request[6]) + _AT + request[3][:64],
                b""]
    return [b"1.0", rid, b"400", b"not a cardparty client", b"", b""]


class ZapHandler(threading.Thread):
    """The context's ZAP handler: a plain loop on a REP socket. It shares the host's
    interpreter with the host's loop, and a crowd of connections opened at once (a hostile
    guest) asks it once each, so it does as little per request as can be (pyzmq's own
    authenticator runs an asyncio loop and logs every request: several times the cost)."""

    def __init__(self, ctx: zmq.Context[Any]) -> None:
        super().__init__(name="cardparty-zap", daemon=True)
        self.sock = ctx.socket(zmq.REP)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.bind(ZAP_ENDPOINT)        # before any CURVE socket of the context accepts
        self.stopping = threading.Event()

    def run(self) -> None:
        sock = self.sock
        try:
            while not self.stopping.is_set():
                if sock.poll(100):
                    sock.send_multipart(zap_reply(sock.recv_multipart()))
        finally:
            sock.close(0)

    def stop(self) -> None:
        self.stopping.set()
        self.join(5.0)


class Guard:
    """The host's CURVE side on ``ctx`` (a context of the host's own: ZeroMQ allows one ZAP
    handler per context). ``close()`` stops the handler and the desk (after the ROUTER
    closed)."""

    def __init__(self, ctx: zmq.Context[Any], keys: KeyPair, name: str,
                 door: Door | None = None) -> None:
        self.ctx = ctx
        self.keys = keys
        self.name = name
        #: what the game socket lets in (``fdbudget.Door``)
        self.door = door
        self.desk: KeyDesk | None = None
        #: the host's descriptors: the desk's share and the game socket's
        self.budget: Budget = plan(keydesk.LIMITS.connections)
        self.caps: list[ConnectionCap] = []
        # Any client key is let in (anyone may play); the User-Id ZAP sets is the key (Z85).
        self.auth = ZapHandler(ctx)
        self.auth.start()

    def secure(self, sock: zmq.Socket[Any]) -> None:
        """Make ``sock`` (before it binds) a CURVE server authenticated by this guard."""
        sock.curve_server = True
        sock.curve_secretkey = self.keys.secret
        sock.curve_publickey = self.keys.public
        sock.zap_domain = DOMAIN.encode()
        cap = ConnectionCap(sock, self.budget.game, self.door)
        cap.start()
        self.caps = [c for c in self.caps if c.is_alive()] + [cap]

    @property
    def cap(self) -> ConnectionCap | None:
        """The connections of the socket secured last (the host's ROUTER)."""
        return self.caps[-1] if self.caps else None

    def open_desk(self, address: str) -> bool:
        """Bind the key desk on the port after ``address``'s; False when that port is taken."""
        try:
            limits = dataclasses.replace(keydesk.LIMITS, connections=self.budget.desk)
            self.desk = KeyDesk(desk_endpoint(address), self.keys, self.name, limits)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return False
            raise
        return True

    def close(self) -> None:
        if self.desk is not None:
            self.desk.close()
            self.desk = None
        for cap in self.caps:
            cap.stop()
        self.caps = []
        self.auth.stop()


def peer_of(frame: zmq.Frame) -> tuple[bytes | None, str | None]:
    """The key ZeroMQ authenticated for the connection ``frame`` came by (Z85) and the address
    the ZAP handler saw it come from; (None, None) on a socket without CURVE."""
    try:
        user = frame.get("User-Id")
    except zmq.ZMQError:
        return None, None
    if not isinstance(user, str) or not user:
        return None, None
    key, _, address = user.partition(" ")
    return key.encode(), address or None


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
