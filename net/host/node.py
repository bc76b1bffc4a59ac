"""``Host``: a host node as its users start it (the command line, the client's local game,
the tests, the benches): the parts, a socket, a thread.

Owns: the constructor's arguments and their meaning, ``listen``/``start``/``stop``/``run``,
the context manager, and the few attributes callers read (``address``, ``port``,
``tables``, ``players``, ``store``, ``keys``). A host speaks CURVE (net/guard.py) on a ZeroMQ
context of its own (one ZAP handler per context), with its key desk on the next port.

Patterns (zguide): Clone for views (``views``), Paranoid Pirate for liveness (``roster``).

Must not know about: what any request does (``parts``), the socket's options (``server``),
any particular game, terminals.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

import zmq

from cardparty.core.discovery import Catalog
from cardparty.core.table import Table
from cardparty.net.guard import Guard
from cardparty.net.host.clock import Clock, SystemClock
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.parts import HostParts
from cardparty.net.host.server import Server, SocketOutbox, open_router
from cardparty.net.host.settings import HostSettings
from cardparty.net.keys import KeyPair, host_keys
from cardparty.net.store import Store

#: ZeroMQ's I/O threads for the host's context: CURVE's handshakes and encryption run there
#: (in C, outside the interpreter). With one, a crowd of connections opened at once (a
#: hostile guest: each handshake is a few public-key operations) queues every other
#: player's messages behind their handshakes; with two, connections are spread over both.
IO_THREADS = 2
#: Seconds a thread of this process may hold the interpreter before another that waits gets
#: it (Python's default is 0.005). The store's writer thread gives the interpreter up around
#: each SQLite call of a commit and must get it back each time: while the loop is busy (a
#: flood), a commit of ten calls waited up to ten default intervals, and every reply held
#: for that commit with it.
SWITCH_INTERVAL = 0.001


class Host:
    """A host node. ``start()`` runs it on a background thread and returns its address;
    ``run()`` runs it on the calling thread until ``stop()``.

    ``bind`` is a ZeroMQ endpoint; port 0 (``tcp://127.0.0.1:0``) lets the system choose.
    ``data`` is a directory for the SQLite file of live tables (None: nothing is kept).
    ``economy`` is the ledger's SQLite file (profiles, coins, the league; ":memory:" for one
    that lasts as long as the host; None: no coins, tables pay nothing, as ``cardparty
    play``); ``settings`` the modes' and the economy's settings (``settings.HostSettings``).
    ``observer(table_id, table)`` is called on the host's thread after every change of a
    playing table (tests use it to check what each seat may see).
    ``keys``: the host's key pair (default: kept in ``data``, else in the user's data
    directory); ``curve=False`` serves without encryption (benchmarks only: no client
    connects to it); ``testing`` lets clients choose a deal's seed and deck, which every
    player is shown. ``bot_workers``: the most worker processes hard bots think in (None:
    one fewer than the machine's cores, at least one; 0: on the host's loop, for comparing
    only); they start with the first hard bot and stop with the host.
    """

    def __init__(self, bind: str = "tcp://127.0.0.1:0", name: str = "cardparty", *,
                 data: str | os.PathLike[str] | None = None, heartbeat: float = 1.0,
                 liveness: int = 3, idle: float | None = 120.0, bot_delay: float = 0.0,
                 keep_over: float = 600.0, max_tables: int = 1000, max_players: int = 4096,
                 catalog: Catalog | None = None,
                 observer: Callable[[str, Table], None] | None = None,
                 clock: Clock | None = None, economy: str | os.PathLike[str] | None = None,
                 settings: HostSettings | None = None, keys: KeyPair | None = None,
                 curve: bool = True, testing: bool = False,
                 bot_workers: int | None = None) -> None:
        self.bind = bind
        self.name = name
        self.clock = clock or SystemClock()
        self.outbox = SocketOutbox()
        self.parts = HostParts(self.outbox, self.clock, name=name, data=data,
                               heartbeat=heartbeat, liveness=liveness, idle=idle,
                               bot_delay=bot_delay, keep_over=keep_over,
                               max_tables=max_tables, max_players=max_players,
                               catalog=catalog, observer=observer, economy=economy,
                               settings=settings, testing=testing,
                               bot_workers=bot_workers)
        self.server = Server(self.parts, self.outbox, self.clock)
        self.catalog = self.parts.catalog
        self.heartbeat = heartbeat
        self.address = ""
        self.port = 0
        self.keys = keys or host_keys(data)
        self.curve = curve
        self.testing = testing
        self._ctx: zmq.Context = zmq.Context(io_threads=IO_THREADS)
        self._guard: Guard | None = None
        self._sock: zmq.Socket | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._bound = threading.Event()
        self._failure: BaseException | None = None

    # --- what callers read -------------------------------------------------------------------

    @property
    def tables(self) -> dict[str, HostTable]:
        return self.parts.tables.all

    @property
    def players(self) -> dict[str, Player]:
        """Players by handle (``Player.token``: their key and name)."""
        return self.parts.roster.players

    @property
    def store(self) -> Store | None:
        return self.parts.persistence.store

    @property
    def handled(self) -> int:
        return self.server.handled

    # --- life --------------------------------------------------------------------------------

    def listen(self) -> str:
        """Bind the ROUTER socket now (``run`` does it when not done) and return the bound
        address, e.g. ``tcp://127.0.0.1:54321``."""
        if self._sock is not None:
            return self.address
        self._sock, self.address = self._open()
        self.port = int(self.address.rsplit(":", 1)[1]) if "tcp://" in self.address else 0
        self.outbox.sock = self._sock
        return self.address

    def _open(self) -> tuple[zmq.Socket, str]:
        """The ROUTER (and, with CURVE, the key desk on the next port: a port chosen by the
        system is chosen again until the next one is free too)."""
        if not self.curve:
            return open_router(self._ctx, self.bind)
        if self._guard is None:
            self._guard = Guard(self._ctx, self.keys, self.name)
        any_port = self.bind.endswith((":0", ":*"))
        for _ in range(50):
            sock, address = open_router(self._ctx, self.bind, self._guard)
            if self._guard.open_desk(address):
                return sock, address
            sock.close(0)
            if not any_port:
                break
        self._close_context()
        raise RuntimeError(f"the port after {self.bind} (where the host tells its key) is "
                           "taken")

    def _close_context(self) -> None:
        if self._guard is not None:
            self._guard.close()
            self._guard = None
        self._ctx.destroy(linger=0)

    @property
    def fingerprint(self) -> str:
        """The host's key fingerprint, for players to compare (net/keys.py)."""
        return self.keys.fingerprint

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
        """The receive loop on this thread until ``stop()``."""
        try:
            self.listen()
        except BaseException:
            self._release()       # a port taken: nothing ran, and what the host opened closes
            raise
        if self.store is not None:
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self._bound.set()
        sock = self._sock
        assert sock is not None
        try:
            self.server.run(sock, self._stopping)
        finally:
            sock.close()
            self._release()

    def _release(self) -> None:
        """What the host opened besides its socket: the store (and its threads), the ledger,
        the bots' workers, the wake-up pipe, ZeroMQ's context and the key desk."""
        self.server.close()
        self.parts.close()
        self._close_context()
