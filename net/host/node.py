"""``Host``: a host node as its users start it (the command line, the client's local game,
the tests, the benches): the parts, a socket, a thread.

Owns: the composition of a host with a socket (its ``HostConfig``, the objects it depends on,
opened from paths when it is given paths: the store, the ledger, its key pair; the
``gate.CommitGate`` its parts send through, with the store as its durability source; the
parts, ``parts.build_host``; the ``server.Server``), ``listen``/``start``/``stop``/``run``,
the context manager, and the few attributes callers read (``address``, ``port``,
``tables``, ``players``, ``store``, ``keys``). A host speaks CURVE (net/trust/guard.py) on a ZeroMQ
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
from cardparty.net.host.clock import Clock, SystemClock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.gate import CommitGate
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.parts import StrPath, build_host, open_ledger, open_store
from cardparty.net.host.play import Observer
from cardparty.net.host.server import Server
from cardparty.net.host.standby import Higher, Standbys
from cardparty.net.peers.heal import Caller
from cardparty.net.peers.merge import drop_forkpoint
from cardparty.net.peers.peer import SNAPSHOT_END, piece, records, welcome
from cardparty.net.peers.replica import CHUNK, ECONOMY, HOST, SCHEMAS
from cardparty.net.peers.standby import Memo, Takeover
from cardparty.net.store import Store
from cardparty.net.trust.fdbudget import Door
from cardparty.net.trust.guard import Guard, open_router
from cardparty.net.trust.keys import KeyPair, host_keys
from cardparty.net.wire.address import HostAddress
from cardparty.net.wire.play_replies import MovedPush
from cardparty.net.wire.protocol import PROTOCOL, PeerAddress, encode, message

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger("cardparty.host")

#: Seconds a host that yields waits for the other to take its files.
HEAL_WAIT = 30.0
#: Seconds a host that took over without being sure takes no standby while it calls its old
#: host (a laptop that stalled answers within a few; one cut off for longer may never: a
#: standby is taken then anyway).
HEAL_HOLD = 10.0


@dataclass(frozen=True)
class Heal:
    """A host's end: the old host handed its rows over (as copies in memory) and its memory of
    replies by request id (a request its players send again here is answered, never done
    twice); carry them in."""

    copies: dict[str, sqlite3.Connection]
    memo: Memo


@dataclass(frozen=True)
class StoodDown:
    """A host's end: it yielded to the host at ``serves`` (whose key is ``key``)."""

    serves: HostAddress
    key: bytes


@dataclass(frozen=True)
class HandedOver:
    """A host's end: it handed the party over to its standby, now the host at ``serves``
    (whose key is ``key``)."""

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
                 data: StrPath | None = None, economy: StrPath | None = None,
                 takeover: Takeover | None = None, **settings: Any) -> None:
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
        self.keys = keys or host_keys(data)
        if takeover is not None:
            # The new generation is written first: every part is built knowing it.
            assert store is not None, "a host that takes over keeps a store"
            store.put_epoch(takeover.epoch)
            store.drain()
        self.parts = build_host(config, store=store, ledger=ledger, clock=self.clock,
                                catalog=catalog, observer=observer,
                                identity=self.keys.public, higher=(self._higher,))
        gate = self.parts.outbox
        assert isinstance(gate, CommitGate)
        self.gate = gate
        self.takeover = takeover
        #: how the host ended, for the party's roles (net/party.py): None (stopped),
        #: ``HandedOver`` (to the standby), ``Heal`` (to carry an old host's rows in and
        #: start again), ``StoodDown`` (to be the other's standby)
        self.outcome: Heal | StoodDown | HandedOver | None = None
        self._yield_to: Higher | None = None
        #: a host that took over without being sure calls its old host (net/peers/heal.py)
        self.caller: Caller | None = None
        if takeover is not None:
            self._took_over(takeover)
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
        if (takeover is not None and not takeover.sure and takeover.old_host is not None
                and takeover.old_key is not None and takeover.serves is not None):
            self.caller = Caller(takeover.old_host, takeover.old_key, self.keys,
                                 takeover.serves, takeover.epoch,
                                 lambda why: self.call(lambda: self._sure(why)),
                                 lambda copies, memo: self.call(
                                     lambda: self._healed(copies, memo)))
            self.caller.start()
            if self.parts.standbys is not None:
                self.parts.standbys.hold_copies(HEAL_HOLD, "before the old host is heard of")
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

    @property
    def standbys(self) -> Standbys | None:
        """The party's peers: the standby and those waiting (None: the host keeps nothing)."""
        return self.parts.standbys

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
        """The host's key fingerprint, for players to compare (net/trust/keys.py)."""
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
                self.server.answer_first(sock, cap, self.takeover.frames)
                self.takeover.frames = []
            self.server.run(sock, self._stopping, cap, hand_over=self._at_end)
        finally:
            if isinstance(self.outcome, Heal):
                # The socket goes on: the host carries the old host's files in and is
                # built again from them, on the same socket (the command line does it).
                self.parts.close()
                self.gate.close()
            else:
                # A host that handed over told its players and peers where the party went
                # just now: a loaded machine's I/O thread gets a second to send those last
                # frames (the socket's own linger is 0.2 s).
                sock.close(linger=1000 if isinstance(self.outcome, HandedOver) else None)
                self._release()

    def call(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the host's loop, at its next turn (from any thread: the console)."""
        self.server.tasks.put(work)

    def keep_socket(self) -> Takeover:
        """After a ``Heal``: this host's socket and what it listens with, for the host built
        again from the merged files to serve on (net/party.py), as a takeover that is sure
        (its old host stood down) at this host's epoch, with this host's memory of replies and
        the old host's."""
        assert self._sock is not None and self._guard is not None
        memo: dict[str, OrderedDict[Any, tuple[str, bytes, str]]] = {}
        if isinstance(self.outcome, Heal):
            memo.update(self.outcome.memo.by_token)
        for p in self.parts.players.by_token.values():
            if p.replies:
                memo.setdefault(p.token, OrderedDict()).update(p.replies)
        return Takeover(self._ctx, self._guard, self._sock, self.address,
                        self.parts.succession.word.epoch, 0, True, True, [], memo,
                        name=self.name)

    # --- the party ---------------------------------------------------------------------------

    def _took_over(self, take: Takeover) -> None:
        """This host is its old host's standby that took over: the old host's memory of
        replies its own (a request sent again is answered, never done twice), and the tables
        held that a player must claim (``succession``)."""
        parts = self.parts
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
            self._stand_down(self._yield_to)
        elif self.hand_over and self.outcome is None:
            self._hand_over()

    def _higher(self, higher: Higher) -> None:
        """A host of a higher epoch called (``PeerEvents.higher``): this host stops serving at
        once and hands it its rows (``_stand_down``, when the loop has stopped)."""
        if self._yield_to is None:
            log.warning("the host at %s serves as epoch %d, after this one's %d: this host "
                        "yields to it", higher.serves.shown, higher.epoch,
                        self.parts.succession.word.epoch)
            self._yield_to = higher
            self._stopping.set()

    def _stand_down(self, higher: Higher) -> None:
        """The heal, this host's side: everything written, its rows sent to the higher host
        over its call, and once it has them, every player told to go there; this host then
        becomes its standby (``outcome``, net/party.py)."""
        store, ledger, standbys = self.store, self.parts.economy.ledger, self.standbys
        assert store is not None and standbys is not None
        server = self.server
        server.flush()
        self.gate.drain()
        # The peers first (the standby above all): told now where the party goes, they never
        # take this host's place when its port closes in a moment.
        go: PeerAddress = {"address": higher.serves.host, "port": higher.serves.port,
                           "key": higher.key.decode()}
        standbys.release(go, "the two hosts met again", standby=True)
        server.send()
        route = higher.route
        dbs = {HOST: store.db} if ledger is None else {HOST: store.db, ECONOMY: ledger.db}
        session = 0
        sent = server.send_now(route, encode(welcome(
            session, self.parts.succession.word.epoch, self.name, "", 0, list(dbs),
            heal=True)))
        for name, db in dbs.items():
            for table, rows in SCHEMAS[name].dump(db, CHUNK):
                sent = sent and server.send_now(route, encode(piece(session, name, table,
                                                                    rows)))
        # Its memory of replies by request id: a request sent again at the other host is
        # answered as here, never carried out twice.
        replies = [[p.token, rid, kind, frame, table]
                   for p in self.parts.players.by_token.values()
                   for rid, (kind, frame, table) in p.replies.items()]
        for i in range(0, len(replies), 4096):
            sent = sent and server.send_now(route, encode(records("", [], replies[i:i + 4096])))
        sent = sent and server.send_now(route, encode(message(SNAPSHOT_END, session=session,
                                                              seq=0)))
        if not sent or not server.peers_only(lambda: higher.key in standbys.healed,
                                             HEAL_WAIT):
            log.error("the host at %s did not take this host's rows: serving on",
                      higher.serves.shown)
            self._yield_to = None
            return
        moved = message("moved", address=higher.serves.host, port=higher.serves.port,
                        key=higher.key.decode(), epoch=higher.epoch,
                        why="the two hosts met again: one serves")
        frame = encode(moved)
        for player in self.parts.succession.connected():
            if player.route is not None:
                server.send_now(player.route, frame)
        standbys.release(go, "the two hosts met again", standby=True)     # any since
        server.send()
        self.outcome = StoodDown(higher.serves, higher.key)
        log.warning("stood down: the host at %s has this host's rows and serves",
                    higher.serves.shown)

    def _healed(self, copies: dict[str, sqlite3.Connection], memo: Memo) -> None:
        """The old host stood down and handed its rows over (net/peers/heal.py): this host stops,
        keeping its socket, to carry them in and start again (net/party.py)."""
        self.outcome = Heal(copies, memo)
        self.hand_over = False
        self._stopping.set()

    def _sure(self, why: str) -> None:
        self.parts.succession.sure(why)
        if self.parts.standbys is not None:
            self.parts.standbys.release_copies()
        if self.store is not None:
            drop_forkpoint(self.store.path.parent)

    def _hand_over(self) -> bool:
        """Stopping with a standby attached: the party goes to it (``Server.hand_over``)."""
        standbys = self.standbys
        cur = None if standbys is None else standbys.attached
        if cur is None:
            return False
        epoch = self.parts.succession.word.epoch + 1
        moved: MovedPush = {"type": "moved", "v": PROTOCOL, "address": cur.serves.host,
                            "port": cur.serves.port, "key": cur.key.decode(), "epoch": epoch,
                            "why": "the host's operator handed the party over"}
        if self.server.hand_over(epoch, moved, self.parts.succession.connected()):
            self.outcome = HandedOver(cur.serves, cur.key)
            return True
        return False

    def _release(self) -> None:
        """What the host opened besides its socket: the store (and its threads), the ledger,
        the bots' workers, the wake-up pipe, ZeroMQ's context and the key desk."""
        self.parts.close()
        self.gate.close()
        self._close_context()
