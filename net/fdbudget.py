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

Owns: the split (``Budget``, ``plan``) and keeping a ZeroMQ socket to its share
(``ConnectionCap``).

Must not know about: players, tables, keys, terminals.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

import zmq
from zmq.utils.monitor import parse_monitor_message

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


@dataclass(frozen=True, slots=True)
class Budget:
    """How the host's descriptors are shared: ``limit`` in all, ``used`` when it started,
    ``reserve`` for the process, ``desk`` and ``game`` connections at most."""

    limit: int
    used: int
    reserve: int
    desk: int
    game: int


def open_descriptors() -> int:
    """Descriptors the process holds now (an estimate where /proc is missing)."""
    with contextlib.suppress(OSError):
        return len(os.listdir("/proc/self/fd"))
    return 64


def plan(desk: int, game: int = GAME_CONNECTIONS, reserve: int = RESERVE) -> Budget:
    """The split for a host starting now whose desk wants ``desk`` connections and game
    socket ``game``. The soft limit is raised (up to the hard one) when it is short; on a
    small limit the desk gets an eighth of what is free and the game socket the rest."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):       # not a Unix: nothing to count
        return Budget(0, 0, reserve, desk, game)
    used = open_descriptors()
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
    """Keeps the ZeroMQ socket ``sock`` to ``most`` connections: counted from its monitor's
    accepted and disconnected events, one accepted beyond them shut at once. Start it before
    ``sock`` binds; it ends when the socket closes (its monitor stops) or with ``stop``."""

    def __init__(self, sock: zmq.Socket[Any], most: int) -> None:
        super().__init__(name="cardparty-connections", daemon=True)
        self.most = most
        #: connections the socket holds now, and how many were shut for want of room
        self.held = 0
        self.shut = 0
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
                    if self._stopping.is_set():
                        return
                    continue
                event = parse_monitor_message(mon.recv_multipart())
                kind = event["event"]
                if kind == zmq.EVENT_MONITOR_STOPPED:
                    return
                try:
                    self._note(kind, int(event["value"]), event["endpoint"])
                except Exception:                   # never stop reading the monitor
                    log.exception("counting the host's connections failed")
        finally:
            mon.close(0)

    def _note(self, kind: int, fd: int, endpoint: bytes) -> None:
        if kind == zmq.EVENT_LISTENING:
            self._port = int(endpoint.rsplit(b":", 1)[1])
        elif kind == zmq.EVENT_DISCONNECTED:
            self.held = max(0, self.held - 1)
        elif kind == zmq.EVENT_ACCEPTED:
            self.held += 1
            if self.held > self.most and self._shut(fd):
                self.shut += 1
                now = time.monotonic()
                if now - self._warned > _WARN_EVERY:
                    self._warned = now
                    log.warning("the host holds %d connections, as many as its file "
                                "descriptors allow: new connections are refused", self.most)

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
