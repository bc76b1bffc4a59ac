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

import logging
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import zmq

from cardparty.core.discovery import Catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.net.address import HostAddress
from cardparty.net.fdbudget import Door
from cardparty.net.guard import Guard, peer_of
from cardparty.net.heal import Caller
from cardparty.net.host.clock import Clock, SystemClock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.gate import CommitGate, Durability, StoreDurability
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.parts import StrPath, build_host, open_ledger, open_store
from cardparty.net.host.play import Observer
from cardparty.net.host.server import Server, open_router
from cardparty.net.host.standby import StandbyLink
from cardparty.net.keys import KeyPair, host_keys
from cardparty.net.merge import drop_forkpoint
from cardparty.net.peer import SNAPSHOT_END, piece, welcome
from cardparty.net.protocol import encode, message
from cardparty.net.replica import ECONOMY, HOST, Snapshot, Stream
from cardparty.net.store import Store

if TYPE_CHECKING:
    from cardparty.net.standby import Takeover

log = logging.getLogger("cardparty.host")

#: Seconds a host that yields waits for the other to take its files.
HEAL_WAIT = 30.0


@dataclass(frozen=True)
class Heal:
    """A host's end: the old host handed its files over (their images); carry them in."""

    images: dict[str, bytes]


@dataclass(frozen=True)
class StoodDown:
    """A host's end: it yielded to the host at ``serves`` (whose key is ``key``)."""

    serves: HostAddress
    key: bytes

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
                 economy: StrPath | None = None, takeover: Takeover | None = None,
                 **settings: Any) -> None:
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
        #: the standby's side (net/host/standby.py): with a store, and a standby approved
        self.link: StandbyLink | None = None
        if store is not None and config.standby_key:
            self.link = StandbyLink(Stream(store, ledger), config.standby_key, self._to_peer,
                                    store.epoch(), config.name)
            durable = (*durable, self.link)
        sources: tuple[Durability, ...] = (
            () if store is None else (StoreDurability(store),)) + durable
        self.gate = CommitGate(sources)
        self.parts = build_host(config, store=store, ledger=ledger, outbox=self.gate,
                                clock=self.clock, catalog=catalog, observer=observer)
        self.takeover = takeover
        #: how the host ended, for the command line: None (stopped), ``Heal`` (to carry an
        #: old host's files in and start again), ``StoodDown`` (to be the other's standby)
        self.outcome: Heal | StoodDown | None = None
        self._yield_to: tuple[bytes, bytes, HostAddress, int] | None = None
        #: a host that took over without being sure calls its old host (net/heal.py)
        self.caller: Caller | None = None
        if takeover is not None:
            self._took_over(takeover)
        if self.link is not None:
            link, succession = self.link, self.parts.succession
            link.epoch = succession.word.epoch
            link.on_attached = lambda a: succession.attached(a.wire())
            link.on_higher = self._higher
            succession.word.status = link.status
            link.on_dropped = self._standby_dropped
        if store is not None and ledger is not None:
            # The ledger's commits are synced on the store's writer, before the tables' rows
            # and before anything telling of them is sent: a payout no longer holds up the
            # loop for the disk (a few milliseconds at every round's end).
            ledger.defer_sync()
        self.server = Server(self.parts, self.gate, self.clock)
        self.server.peer = self.link
        self.catalog = self.parts.catalog
        self.bind = config.bind
        self.name = config.name
        self.heartbeat = config.heartbeat
        self.curve = config.curve
        self.testing = config.testing
        self.address = ""
        self.port = 0
        self.keys = keys or host_keys(data)
        if (takeover is not None and not takeover.sure and takeover.old_host is not None
                and takeover.old_key is not None and takeover.serves is not None):
            self.caller = Caller(takeover.old_host, takeover.old_key, self.keys,
                                 takeover.serves, takeover.epoch,
                                 lambda why: self.call(lambda: self._sure(why)),
                                 lambda images: self.call(lambda: self._healed(images)))
            self.caller.start()
        self._ctx: zmq.Context[Any] = (zmq.Context(io_threads=IO_THREADS) if takeover is None
                                       else takeover.ctx)
        self._guard: Guard | None = None if takeover is None else takeover.guard
        #: ``stop`` hands the party over to the attached standby (else it just stops)
        self.hand_over = True
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
        system is chosen again until the next one is free too). A host that took over serves
        on the socket it listened on as a standby."""
        take = self.takeover
        if take is not None:
            if (self._guard is not None and self._guard.desk is None
                    and not self._guard.open_desk(take.address)):
                log.warning("the port after %s is taken: this host tells its key only to "
                            "players its old host told", take.address)
            return take.router, take.address
        if not self.curve:
            return open_router(self._ctx, self.bind)
        if self._guard is None:
            self._guard = Guard(self._ctx, self.keys, self.name,
                                Door.of(self.config.guests))
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
            cap = None if self._guard is None else self._guard.cap
            if self.takeover is not None:
                # What players sent the standby before it took over: answered first, each
                # by the connection it came by (so its hello binds its route there).
                server = self.server
                server.sock, server.cap = sock, cap
                for frames, body in self.takeover.frames:
                    server.frame = body
                    server.frames(frames, *(peer_of(body) if body is not None else (None, None)))
                    server.frame = None
                self.takeover.frames = []
            self.server.run(sock, self._stopping, cap, hand_over=self._at_end)
        finally:
            if isinstance(self.outcome, Heal):
                # The socket goes on: the host carries the old host's files in and is
                # built again from them, on the same socket (the command line does it).
                self.parts.close()
                self.gate.close()
            else:
                sock.close()
                self._release()

    def call(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the host's loop, at its next turn (from any thread: the console)."""
        self.server.tasks.put(work)

    # --- the standby ------------------------------------------------------------------------

    def _to_peer(self, route: bytes, frame: bytes) -> bool:
        """A frame to the standby now, outside the gate (False: it could not go)."""
        return self.server.sock is not None and self.server._send_now(route, frame)

    def _standby_dropped(self, why: str, acked: int) -> None:
        """What waited for the standby is withdrawn; then the players are told, and the
        tables that may be served there wait (``succession``)."""
        assert self.link is not None
        gone = self.gate.withdraw(self.link, acked)
        if gone:
            log.warning("%d frames that waited for the standby are withdrawn", gone)
        self.parts.succession.dropped(why)

    def _took_over(self, take: Takeover) -> None:
        """This host is its old host's standby that took over: its epoch written first, the
        old host's memory of replies its own (a request sent again is answered, never done
        twice), and the tables held that a player must claim (``succession``)."""
        store = self.store
        assert store is not None
        store.put_epoch(take.epoch)
        parts = self.parts
        parts.succession.word.epoch = take.epoch
        by_token = parts.players.by_token
        for token, replies in take.memo.items():
            player = by_token.get(token)
            if player is not None:
                player.replies = OrderedDict(replies)
        parts.succession.took_over(sure=take.sure)
        parts.flush()

    def _at_end(self) -> None:
        """The loop stopped: yield to a host of a higher epoch, or hand the party over."""
        if self.caller is not None:
            if isinstance(self.outcome, Heal):
                self.caller.ready()        # nothing more is served: the old host may yield
            self.caller.stop()
        if self._yield_to is not None:
            self._stand_down(*self._yield_to)
        elif self.hand_over and self.outcome is None:
            self._hand_over()

    def _higher(self, route: bytes, key: bytes, serves: HostAddress, epoch: int) -> None:
        """A host of a higher epoch called (``link.on_higher``): this host stops serving at
        once and hands it its files (``_stand_down``, when the loop has stopped)."""
        if self._yield_to is None:
            log.warning("the host at %s serves as epoch %d, after this one's %d: this host "
                        "yields to it", serves.shown, epoch, self.parts.succession.word.epoch)
            self._yield_to = (route, key, serves, epoch)
            self._stopping.set()

    def _stand_down(self, route: bytes, key: bytes, serves: HostAddress, epoch: int) -> None:
        """The heal, this host's side: everything written, its files sent to the higher
        host over its call, and once it has them, every player told to go there; this host
        then becomes its standby (``outcome``, the command line)."""
        store, ledger, link = self.store, self.parts.economy.ledger, self.link
        assert store is not None and link is not None
        server = self.server
        server.flush()
        self.gate.drain()
        images = {HOST: store.db.serialize()}
        if ledger is not None:
            images[ECONOMY] = ledger.db.serialize()
        sent = self._to_peer(route, encode(welcome(
            self.parts.succession.word.epoch, self.name, 0,
            {n: len(d) for n, d in images.items()}, heal=True)))
        for name, offset, data in Snapshot(0, images).chunks():
            sent = sent and self._to_peer(route, encode(piece(name, offset, data)))
        sent = sent and self._to_peer(route, encode(message(SNAPSHOT_END, seq=0)))
        if not sent or not server._standby_only(link, lambda: link.healed, HEAL_WAIT):
            log.error("the host at %s did not take this host's files: serving on", serves.shown)
            self._yield_to = None
            return
        moved = message("moved", address=serves.host, port=serves.port, key=key.decode(),
                        epoch=epoch, why="the two hosts met again: one serves")
        frame = encode(moved)
        for player in self.parts.succession.connected():
            if player.route is not None:
                server._send_now(player.route, frame)
        self.outcome = StoodDown(serves, key)
        log.warning("stood down: the host at %s has this host's files and serves", serves.shown)

    def _healed(self, images: dict[str, bytes]) -> None:
        """The old host stood down and handed its files over (net/heal.py): this host stops,
        keeping its socket, to carry them in and start again (the command line)."""
        self.outcome = Heal(images)
        self.hand_over = False
        self._stopping.set()

    def _sure(self, why: str) -> None:
        self.parts.succession.sure(why)
        if self.store is not None:
            drop_forkpoint(self.store.path.parent)

    def _hand_over(self) -> bool:
        """Stopping with a standby attached: the party goes to it (``Server.hand_over``)."""
        link = self.link
        if link is None or not link.attached or link.serves is None or link.key is None:
            return False
        epoch = self.parts.succession.word.epoch + 1
        moved = message("moved", address=link.serves.host, port=link.serves.port,
                        key=link.key.decode(), epoch=epoch,
                        why="the host's operator handed the party over")
        return self.server.hand_over(link, epoch, moved, self.parts.succession.connected())

    def _release(self) -> None:
        """What the host opened besides its socket: the store (and its threads), the ledger,
        the bots' workers, the wake-up pipe, ZeroMQ's context and the key desk."""
        self.parts.close()
        self.gate.close()
        self._close_context()
