"""The host's file descriptors: how many the process may hold, and who may take them.

Every connection to the host is a file descriptor, and a process has a limit of them
(``RLIMIT_NOFILE``, often 1024). Once none is left, ZeroMQ's listener retries ``accept`` in a
loop (a core at 100 %, issue 25), no player can connect, and every other open of the process
fails (the key desk, the store's files, the bots' pipes). So a host splits what it has when it
starts (``plan``): a reserve for the process itself, a share for the key desk (its
connections, ``keydesk.DeskLimits.connections``), and the rest, up to ``GAME_CONNECTIONS``, for
the game socket. The soft limit is raised towards the hard one when the split needs it.

The desk keeps to its share itself. The game socket is a ZeroMQ socket, which cannot refuse a
connection nor close one of them; ``ConnectionCap`` counts its connections through ZeroMQ's
socket monitor (each accepted connection reports its descriptor) and shuts a connection
beyond the share the moment it is accepted (``shutdown`` on its descriptor: ZeroMQ then
closes it as a peer that went away). Neither the desk nor the game socket can then take the
other's descriptors, or the process's last ones.

The same monitor is the host's one source of when a connection ends: ``ConnectionCap`` keeps
each connection's descriptor with the peer's address and port (unique while it is open), and
hands the loop every connection that closed (``closed``, with a byte on ``wake_fd``), so a
routing id is forgotten the moment its connection closes (docs/security.md). It also keeps the
door of the game socket (``Door``): connections at once and new connections a second from one
address, a connection that says no hello within seconds closed (the same whether its routing id
was in use or not), and room kept for connections the host marked as known players'
(``spoke``): near the cap, a connection that never said hello, then one of a stranger, goes
first.

Owns: the split (``Budget``, ``plan``), keeping a ZeroMQ socket to its share and its door
(``ConnectionCap``, ``Door``), which connection a descriptor is (``peer_of_descriptor``), and
how many a process holds (``open_descriptors``).

Must not know about: players, tables, keys, terminals.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass
from typing import Any

import zmq
from zmq.utils.monitor import parse_monitor_message

from cardparty.net.trust.allowance import for_addresses
from cardparty.net.trust.guests import Guests

log = logging.getLogger("cardparty.host")

#: Descriptors kept for the process itself: its store and ledger and their journals, the bots'
#: worker processes and their pipes, ZeroMQ's own, a backup, a log file.
RESERVE = 64
#: The most connections the game socket holds, however many descriptors there are: each costs
#: the host some 25 KB (ZeroMQ's buffers and CURVE's state), and a host has room for 4096
#: players (docs/operating.md).
GAME_CONNECTIONS = 5000
#: Seconds between two warnings that the game socket is at its share.
_WARN_EVERY = 60.0
#: Seconds a new connection has to say hello before it may be closed to make room.
_GRACE = 2.0
#: Descriptors told ``spoke`` before their connection's ``accepted`` event was read, kept at
#: most (the monitor's thread catches up within milliseconds).
_EARLY = 256

#: A connection: the peer's address and port.
Peer = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Door:
    """What the game socket lets in: ``per_address`` connections at once from one address,
    ``accepts`` new ones from it (a burst, then so many a second), ``hello_within`` seconds to
    say hello, ``reserve`` of the cap kept for known players' connections; ``own`` addresses
    are not counted per address. Its numbers are ``guests.Guests``' (``of``), named once
    there: a host and the standby that becomes a host let in the same."""

    per_address: int
    accepts: tuple[float, float]
    hello_within: float
    reserve: float
    own: tuple[str, ...]

    @classmethod
    def of(cls, guests: Guests | None = None) -> Door:
        """The door ``guests`` describe (None: the defaults)."""
        g = guests if guests is not None else Guests()
        return cls(g.connections, g.new_connections, g.hello_within, g.reserve, g.own)


@dataclass(slots=True)
class _Conn:
    peer: Peer
    at: float
    spoke: bool = False
    kept: bool = False
    shut: bool = False


def peer_of_descriptor(fd: int) -> Peer | None:
    """The peer (address, port) of the TCP connection on descriptor ``fd`` (None: not one).
    The descriptor is wrapped, never duplicated, and left open."""
    try:
        conn = socket.socket(fileno=fd)
    except OSError:
        return None
    try:
        peer = conn.getpeername()
        return (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) else None
    except OSError:
        return None
    finally:
        conn.detach()


@dataclass(frozen=True, slots=True)
class Budget:
    """How the host's descriptors are shared: ``limit`` in all, ``used`` when it started,
    ``reserve`` for the process, ``desk`` and ``game`` connections at most."""

    limit: int
    used: int
    reserve: int
    desk: int
    game: int


#: What a host starting takes it holds when /proc cannot tell.
DESCRIPTORS_GUESS = 64


def open_descriptors(pid: int | None = None) -> int | None:
    """Descriptors the process ``pid`` (None: this one) holds now, as /proc says; None where
    it cannot tell (no /proc, a process gone). The one place /proc's descriptors are read:
    the benches and tests count a host's with it too."""
    try:
        return len(os.listdir(f"/proc/{'self' if pid is None else pid}/fd"))
    except OSError:
        return None


def plan(desk: int, game: int = GAME_CONNECTIONS, reserve: int = RESERVE) -> Budget:
    """The split for a host starting now whose desk wants ``desk`` connections and game
    socket ``game``. The soft limit is raised (up to the hard one) when it is short; on a
    small limit the desk gets an eighth of what is free and the game socket the rest."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):       # not a Unix: nothing to count
        return Budget(0, 0, reserve, desk, game)
    held = open_descriptors()
    used = DESCRIPTORS_GUESS if held is None else held
    wanted = used + reserve + desk + 1 + game
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
            soft = top
    limit = soft if soft != resource.RLIM_INFINITY else wanted
    free = max(2, limit - used - reserve)
    desk_share = max(1, min(desk, free // 8))
    # The desk accepts one more before it closes its quietest: one descriptor for that.
    game_share = max(1, min(game, free - desk_share - 1))
    return Budget(limit, used, reserve, desk_share, game_share)


class ConnectionCap(threading.Thread):
    """Keeps the ZeroMQ socket ``sock`` to ``most`` connections and to its ``door``: counted
    from its monitor's accepted and disconnected events, one beyond them shut at once (see the
    module docstring for which). Start it before ``sock`` binds; it ends when the socket
    closes (its monitor stops) or with ``stop``. The loop reads ``closed`` (descriptor and peer
    of each connection that ended, in order) when ``wake_fd`` is readable, and tells
    ``spoke`` which connection said hello and whether it is a known player's."""

    def __init__(self, sock: zmq.Socket[Any], most: int, door: Door | None = None) -> None:
        super().__init__(name="cardparty-connections", daemon=True)
        self.most = most
        self.door = door or Door.of()
        #: connections the socket holds now, and how many were shut (room, door, silence)
        self.held = 0
        self.shut = 0
        #: connections that ended, for the loop (``Server``): (descriptor, peer)
        self.closed: deque[tuple[int, Peer]] = deque()
        self.wake_fd, self._wake_w = os.pipe()
        os.set_blocking(self.wake_fd, False)
        os.set_blocking(self._wake_w, False)
        self._conns: OrderedDict[int, _Conn] = OrderedDict()     # by descriptor, oldest first
        self._unspoken: OrderedDict[int, None] = OrderedDict()   # no hello yet, oldest first
        self._early: dict[int, tuple[Peer, bool]] = {}
        self._per_address: Counter[str] = Counter()
        self._accepts = for_addresses(self.door.accepts)
        self._lock = threading.Lock()
        self._port = 0
        self._warned = 0.0
        self._stopping = threading.Event()
        self._monitor = sock.get_monitor_socket(
            zmq.EVENT_LISTENING | zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED
            | zmq.EVENT_MONITOR_STOPPED)

    def run(self) -> None:
        mon = self._monitor
        try:
            # ZeroMQ's I/O thread waits when the monitor's queue is full: read until the
            # monitor stops, even while stopping.
            while True:
                if not mon.poll(200):
                    self._silent(time.monotonic())
                    if self._stopping.is_set():
                        return
                    continue
                event = parse_monitor_message(mon.recv_multipart())
                kind = event["event"]
                if kind == zmq.EVENT_MONITOR_STOPPED:
                    return
                try:
                    self._note(kind, int(event["value"]), event["endpoint"])
                    self._silent(time.monotonic())
                except Exception:                   # never stop reading the monitor
                    log.exception("counting the host's connections failed")
        finally:
            mon.close(0)
            for fd in (self.wake_fd, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)

    def spoke(self, fd: int, peer: Peer, kept: bool) -> None:
        """(The loop's thread.) The connection ``peer`` on ``fd`` said hello; ``kept``: as a
        known player (near the cap, it is never closed for room)."""
        with self._lock:
            conn = self._conns.get(fd)
            if conn is None or conn.peer != peer:
                if len(self._early) < _EARLY:
                    self._early[fd] = (peer, kept)
                return
            conn.spoke = True
            conn.kept = kept
            self._unspoken.pop(fd, None)

    def _note(self, kind: int, fd: int, endpoint: bytes) -> None:
        if kind == zmq.EVENT_LISTENING:
            self._port = int(endpoint.rsplit(b":", 1)[1])
        elif kind == zmq.EVENT_DISCONNECTED:
            self.held = max(0, self.held - 1)
            with self._lock:
                conn = self._conns.pop(fd, None)
                self._unspoken.pop(fd, None)
                if conn is not None:
                    self._per_address[conn.peer[0]] -= 1
                    if self._per_address[conn.peer[0]] <= 0:
                        del self._per_address[conn.peer[0]]
            if conn is not None:
                self.closed.append((fd, conn.peer))
                with contextlib.suppress(OSError):         # full: the loop is woken already
                    os.write(self._wake_w, b"x")
        elif kind == zmq.EVENT_ACCEPTED:
            self.held += 1
            self._accepted(fd, time.monotonic())

    def _accepted(self, fd: int, now: float) -> None:
        """A new connection on ``fd``: counted, let in or shut (the door, then the cap)."""
        peer = peer_of_descriptor(fd)
        if peer is None:
            if self.held > self.most and self._shut(fd):
                self._refused("room")
            return
        door = self.door
        with self._lock:
            conn = self._conns[fd] = _Conn(peer, now)
            self._unspoken[fd] = None
            early = self._early.pop(fd, None)
            if early is not None and early[0] == peer:
                conn.spoke, conn.kept = True, early[1]
                self._unspoken.pop(fd, None)
            address = peer[0]
            self._per_address[address] += 1
            counted = address not in door.own
            if counted and not self._accepts.spend(address, now):
                victim: int | None = fd               # too many new ones a second from it
            elif counted and self._per_address[address] > door.per_address:
                victim = self._victim(now, address) or fd
            elif self.held > self.room:
                victim = self._victim(now) or (fd if self.held > self.most else None)
            else:
                victim = None
        if victim is not None:
            self._close(victim, "room" if self.held > self.room else "door")

    @property
    def room(self) -> int:
        """Connections held before strangers make room for known players."""
        return max(1, self.most - max(1, int(self.most * self.door.reserve)))

    def _victim(self, now: float, address: str | None = None) -> int | None:
        """(Under the lock.) The connection to close for room (of ``address`` only, when
        given): the oldest that said no hello in ``_GRACE`` seconds, else the oldest of a
        stranger; never a known player's."""
        for fd in self._unspoken:
            conn = self._conns[fd]
            if now - conn.at < _GRACE:
                break
            if not conn.shut and (address is None or conn.peer[0] == address):
                return fd
        for fd, conn in self._conns.items():
            if conn.spoke and not conn.kept and not conn.shut and (
                    address is None or conn.peer[0] == address):
                return fd
        return None

    def _close(self, fd: int, why: str) -> None:
        conn = self._conns.get(fd)
        if conn is not None:
            conn.shut = True
        if self._shut(fd):
            self._refused(why)

    def _refused(self, why: str) -> None:
        self.shut += 1
        now = time.monotonic()
        if why == "room" and now - self._warned > _WARN_EVERY:
            self._warned = now
            log.warning("the host holds %d connections, as many as its file descriptors "
                        "allow: new connections are refused", self.most)

    def _silent(self, now: float) -> None:
        """Close connections that said no hello in ``door.hello_within`` seconds."""
        limit = now - self.door.hello_within
        quiet = []
        with self._lock:
            for fd in self._unspoken:
                conn = self._conns[fd]
                if conn.at > limit:
                    break
                quiet.append(fd)
            for fd in quiet:
                self._unspoken.pop(fd, None)
        for fd in quiet:
            self._close(fd, "silence")

    def _shut(self, fd: int) -> bool:
        """Shut the connection on descriptor ``fd`` if it is still one of this socket's
        (a descriptor closed meanwhile may be another file's by now: only a TCP socket on
        the socket's own port is touched). The descriptor is wrapped, never duplicated: a
        flood may have taken the process's last descriptor, and shutting is what frees
        them; ZeroMQ keeps it and closes it."""
        try:
            conn = socket.socket(fileno=fd)
        except OSError:
            return False
        try:
            if conn.type != socket.SOCK_STREAM or conn.getsockname()[1] != self._port:
                return False
            conn.shutdown(socket.SHUT_RDWR)
            return True
        except OSError:
            return False
        finally:
            conn.detach()

    def stop(self) -> None:
        self._stopping.set()
        self.join(2.0)
