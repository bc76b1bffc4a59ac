"""``Host``: a host node as its users start it (the command line, the client's local game,
the tests, the benches): the parts, a socket, a thread.

Owns: the composition of a host with a socket (its ``HostConfig``, the objects it depends on,
opened from paths when it is given paths: the store, the ledger, its key pair; the
``gate.CommitGate`` its parts send through, with the store as its durability source; the
parts, ``parts.build_host``; the ``server.Server``), ``listen``/``start``/``stop``/``run``,
the context manager, and the few attributes callers read (``address``, ``port``,
``tables``, ``players``, ``store``, ``keys``). A host speaks CURVE (net/guard.py) on a ZeroMQ
context of its own (one ZAP handler per context), with its key desk on the next port.

Patterns (zguide): Clone for views (``views``), Paranoid Pirate for liveness (``roster``).

Must not know about: what any request does (``parts``), the socket's options (``server``),
any particular game, terminals.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import zmq

from cardparty.core.discovery import Catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.net.fdbudget import Door
from cardparty.net.guard import Guard
from cardparty.net.host.clock import Clock, SystemClock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.gate import CommitGate, Durability, StoreDurability
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.parts import StrPath, build_host, open_ledger, open_store
from cardparty.net.host.play import Observer
from cardparty.net.host.server import Server, open_router
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

    ``config`` is what the host is told (``config.HostConfig``: its bind endpoint, name,
    liveness, defaults and limits). The short form gives the bind endpoint (port 0,
    ``tcp://127.0.0.1:0``, lets the system choose) and the name instead, and any field of
    ``HostConfig`` as a keyword: ``Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None)``.

    What the host depends on is handed in, or opened from paths: ``store`` (or ``data``, a
    directory for the SQLite file of live tables; neither: nothing is kept), ``ledger`` (or
    ``economy``, the ledger's SQLite file: profiles, coins, the league; ":memory:" for one
    that lasts as long as the host; neither: no coins, tables pay nothing, as ``cardparty
    play``), ``clock`` (the machine's unless given), ``catalog`` (the installed games),
    ``keys`` (the host's key pair; default: kept in ``data``, else in the user's data
    directory). ``durable``: more durability sources the frames wait for besides the store
    (``gate.Durability``). ``observer(table_id, table)`` is called on the host's thread
    after every change of a playing table (tests use it to check what each seat may see).
    """

    def __init__(self, config: HostConfig | str | None = None, name: str | None = None, *,
                 store: Store | None = None, ledger: Ledger | None = None,
                 clock: Clock | None = None, catalog: Catalog | None = None,
                 keys: KeyPair | None = None, observer: Observer | None = None,
                 durable: tuple[Durability, ...] = (), data: StrPath | None = None,
                 economy: StrPath | None = None, **settings: Any) -> None:
        if not isinstance(config, HostConfig):
            if config is not None:
                settings["bind"] = config
            if name is not None:
                settings["name"] = name
            config = HostConfig.of(**settings)
        elif name is not None or settings:
            raise TypeError("a Host given a HostConfig takes no other settings")
        self.config = config
        self.clock = clock or SystemClock()
        store = store if store is not None else open_store(data)
        ledger = ledger if ledger is not None else open_ledger(economy, config, self.clock)
        sources: tuple[Durability, ...] = (
            () if store is None else (StoreDurability(store),)) + durable
        self.gate = CommitGate(sources)
        self.parts = build_host(config, store=store, ledger=ledger, outbox=self.gate,
                                clock=self.clock, catalog=catalog, observer=observer)
        if store is not None and ledger is not None:
            # The ledger's commits are synced on the store's writer, before the tables' rows
            # and before anything telling of them is sent: a payout no longer holds up the
            # loop for the disk (a few milliseconds at every round's end).
            ledger.defer_sync()
        self.server = Server(self.parts, self.gate, self.clock)
        self.catalog = self.parts.catalog
        self.bind = config.bind
        self.name = config.name
        self.heartbeat = config.heartbeat
        self.curve = config.curve
        self.testing = config.testing
        self.address = ""
        self.port = 0
        self.keys = keys or host_keys(data)
        self._ctx: zmq.Context[Any] = zmq.Context(io_threads=IO_THREADS)
        self._guard: Guard | None = None
        self._sock: zmq.Socket[Any] | None = None
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
        return self.parts.players.by_token

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
        return self.address

    def _open(self) -> tuple[zmq.Socket[Any], str]:
        """The ROUTER (and, with CURVE, the key desk on the next port: a port chosen by the
        system is chosen again until the next one is free too)."""
        if not self.curve:
            return open_router(self._ctx, self.bind)
        if self._guard is None:
            g = self.config.guests
            self._guard = Guard(self._ctx, self.keys, self.name, Door(
                g.connections, g.new_connections, g.hello_within, g.reserve, g.own))
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
            self.server.run(sock, self._stopping,
                            None if self._guard is None else self._guard.cap)
        finally:
            sock.close()
            self._release()

    def _release(self) -> None:
        """What the host opened besides its socket: the store (and its threads), the ledger,
        the bots' workers, the wake-up pipe, ZeroMQ's context and the key desk."""
        self.parts.close()
        self.gate.close()
        self._close_context()
