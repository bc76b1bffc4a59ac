"""A peer of the party that does not serve: a copy of the serving host's files kept up to the
row, and the moment it takes over (the zguide's Binary Star, the backup's side).

Owns: ``Standby``, a peer's loop before a takeover: one DEALER to the host it stands by, over
CURVE with the peer's own key pair (the host lets in only its party's keys); the snapshot and
the records it is sent written to its ``Replica`` (``replica.py``) and acknowledged; the replies
the host remembers (``Memo``); how it learns its host is lost (a silence of ``peer.LOST``, or at
once its connection closing) and that it is back (anything it says: a stall or a reset costs
nothing then, and a copy that missed records is sent only those); its own ROUTER bound where it
will serve players, which answers them ``not_host`` while the host lives; and the decision to
take over (``Takeover``), which only a standby the host called attached ever makes
(``standby_attached``: from then on the host told nothing before this standby had it):

- the host hands over (``takeover``): at once, with everything it was sent;
- the host is lost and nothing listens at its address any more (a connection there is
  refused: its process is gone, its machine is not): at once;
- the host is lost and enough of its own seated players come following it (net/peers/witness.py):
  at once. A standby that lost its host and meets no such players does not take over (the host
  may be alive beyond a cut link, serving them): it waits, and goes on when it hears its host.

A peer the host keeps waiting (``standby_wait``: another is the standby) beats, and when its
host is lost looks for whoever serves: the standby the host named, then the party's other peers
(the ``peers`` table of its copy), following any ``not_host`` that names the host it stands
by. A peer the host drops says hello again, once, in a new session: it is taken again from its
copy, or kept waiting.

Must not know about: tables, players, games, how a host is built from the files
(net/party.py, with ``Takeover``), the terminal.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import socket
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zmq
from zmq.utils.monitor import recv_monitor_message

from cardparty.core.i18n import Msg
from cardparty.net.peers.merge import keep_forkpoint
from cardparty.net.peers.messages import FromHost, RecordsPush
from cardparty.net.peers.peer import (
    ATTACHED,
    BEAT,
    BEAT_MSG,
    DROPPED,
    LOST,
    MAX_PEER_FRAME,
    PIECE,
    RECORDS,
    SESSION_BOUND,
    SNAPSHOT_END,
    TAKEOVER,
    WAIT,
    WELCOME,
    PeerError,
    ack,
    hello,
    read_from_host,
    read_go,
)
from cardparty.net.peers.replica import HOST, Replica, ReplicaError
from cardparty.net.peers.witness import LONE, Witnesses
from cardparty.net.store import lock
from cardparty.net.trust.fdbudget import Door
from cardparty.net.trust.guard import Guard, open_router, peer_of
from cardparty.net.trust.guests import Guests
from cardparty.net.trust.keys import KeyPair, public_key
from cardparty.net.wire.address import AddressError, HostAddress, read_address
from cardparty.net.wire.protocol import NotHostReply, ProtocolError, decode, encode, error

log = logging.getLogger("cardparty.standby")
log.addHandler(logging.NullHandler())

#: Replies remembered per player, as the host remembers them (net/host/model.py), and the
#: players remembered (the host's own limit; the one heard of longest ago goes first).
MEMO_PER_PLAYER = 256
MEMO_PLAYERS = 4096
#: Players' messages read in one turn of the loop before the host's get theirs: a flood at
#: the standby's own socket must not keep it from acknowledging its host.
PLAYERS_PER_TURN = 64
#: The host's records messages applied together at most (a standby far behind catches up in
#: transactions of this many, each acknowledged).
RECORDS_PER_TURN = 256
#: Seconds between two hellos to a host that does not answer or refused this peer, and
#: between two looks at another candidate while the host is lost.
RETRY = 1.0
#: Seconds between two hellos to a host that refused this peer (its operator may approve it
#: meanwhile).
REFUSED_AGAIN = 3.0
#: Seconds a standby waits, once its host's connection closed, for what the host sent before.
LAST_WORD = 0.05
#: Seconds a look at the host's port may take (is anything listening there?), and between
#: two looks for the first ``LOOK_AGAIN`` seconds after the host was lost.
PROBE = 0.3
LOOK_AGAIN = 3.0
PROBE_EVERY = 0.1
#: Seconds after a closed connection during which a refused port counts as the host's end
#: (the host's own bound for dropping its standby: within it, this peer is still the one).
CLOSED_LOOK = 1.0
#: Seconds a peer that is not attached waits after losing its host before it looks for whoever
#: serves elsewhere (a stall shorter than this costs nothing).
SEEK_AFTER = 2.0
#: Seconds an attached standby that lost its host goes on counting itself the host's standby:
#: long enough for the players of a host that froze or died to follow here past their own
#: liveness bound (3 s), and for a lone follower of a table to count (``witness.LONE``);
#: past it, the host (if it lives) dropped this peer long ago for its silence and may serve
#: with another standby, so this peer looks for whoever serves, as one that is not
#: attached, and never takes a later closed connection for the host's end.
ATTACHED_LOST = LONE + 5.0


@dataclass
class Takeover:
    """What a standby hands to the host it becomes: its socket and everything it listens
    with, the epoch to serve as, the frames players sent meanwhile (answered by the new host
    first), and why (``handed``: the old host said so; ``certain``: nothing listens at the old
    host's address; else its players followed). Each of those frames comes with its body as
    ZeroMQ read it (it knows its connection: its key, its address, its descriptor)."""

    ctx: zmq.Context[Any]
    guard: Guard
    router: zmq.Socket[Any]
    address: str
    epoch: int
    seq: int
    handed: bool
    certain: bool
    frames: list[tuple[list[bytes], zmq.Frame | None]]
    memo: dict[str, OrderedDict[Any, tuple[str, bytes, str]]]
    #: the copies as they were when the standby took over (what a later heal compares with)
    forkpoint: dict[str, bytes] = field(default_factory=dict)
    #: the old host (its address and key) and where this host serves: a host that took over
    #: without being sure calls its old host until they meet (net/peers/heal.py)
    old_host: HostAddress | None = None
    old_key: bytes | None = None
    serves: HostAddress | None = None
    #: the name the party's host had (the new host serves under it)
    name: str = ""

    @property
    def sure(self) -> bool:
        """Handed over, or nothing listened at the old host's address: no other host."""
        return self.handed or self.certain


@dataclass(frozen=True)
class Alone:
    """What a peer's seek ends with when no peer of its party answered in time: it serves
    from its own files (net/party.py)."""


class Memo:
    """The replies the host remembers by request id, per player handle, as it sent them,
    each with the table it was about ("" none)."""

    def __init__(self) -> None:
        self.by_token: OrderedDict[str, OrderedDict[Any, tuple[str, bytes, str]]] = (
            OrderedDict())

    def add(self, replies: list[Any]) -> None:
        for entry in replies:
            if not (isinstance(entry, list) and len(entry) in (4, 5)):
                continue
            token, rid, kind, frame = entry[:4]
            table = entry[4] if len(entry) == 5 else ""
            if not (isinstance(token, str) and isinstance(kind, str)
                    and isinstance(frame, bytes) and isinstance(table, str)):
                continue
            kept = self.by_token.setdefault(token, OrderedDict())
            self.by_token.move_to_end(token)
            while len(self.by_token) > MEMO_PLAYERS:
                self.by_token.popitem(last=False)
            kept[rid] = (kind, frame, table)
            kept.move_to_end(rid)
            while len(kept) > MEMO_PER_PLAYER:
                kept.popitem(last=False)

    def clear(self) -> None:
        self.by_token.clear()

    def without(self, tables: set[str]) -> None:
        """The replies about ``tables`` forgotten (a heal kept this host's side of them: what
        the other host answered about them never was here)."""
        for kept in self.by_token.values():
            for rid in [r for r, (_, _, t) in kept.items() if t in tables]:
                del kept[rid]


def peer_socket(ctx: zmq.Context[Any], keys: KeyPair, server_key: bytes,
                address: HostAddress, immediate: bool = True) -> zmq.Socket[Any]:
    """A DEALER from one peer to another (``address``, proving ``server_key``), over CURVE
    with this side's ``keys``: frames as large as a peer sends, nothing queued while the
    connection is down (``immediate``; a question sent at once to a peer not connected yet
    needs it off, and it must be set before the connection is made), and reconnecting
    quickly."""
    sock: zmq.Socket[Any] = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_PEER_FRAME)
    sock.setsockopt(zmq.RCVHWM, 0)
    sock.setsockopt(zmq.RECONNECT_IVL, 50)
    sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
    sock.setsockopt(zmq.IMMEDIATE, 1 if immediate else 0)
    sock.curve_secretkey = keys.secret
    sock.curve_publickey = keys.public
    sock.curve_serverkey = server_key
    if address.ipv6:
        sock.setsockopt(zmq.IPV6, 1)
    sock.connect(address.endpoint)
    return sock


def refused(address: HostAddress, timeout: float = PROBE) -> bool:
    """Whether the host's machine answers that nothing listens on its port (its process is
    gone): a connection refused. A timeout or an unreachable network says nothing."""
    try:
        with socket.create_connection((address.host, address.port), timeout):
            return False
    except ConnectionRefusedError:
        return True
    except OSError as exc:
        return exc.errno == errno.ECONNREFUSED


class Standby:
    """A peer standing by the host at ``host`` (whose key is ``host_key``), keeping its copies
    in ``directory``, speaking with ``keys``, and serving players at ``serves`` after a
    takeover (its ROUTER is bound to ``bind`` from the start, letting players in as
    ``guests`` say: the same ``config.Guests`` as the host it becomes). ``epoch``: the newest
    epoch of the party it knows of; ``others``: other peers of the party to look at when the
    host is lost ((address, key), besides those its copy names).

    ``run`` returns the ``Takeover`` once it takes over, ``Alone`` when no host of its party
    answered within ``alone_after`` seconds, or None once ``stop`` is called."""

    def __init__(self, host: HostAddress, host_key: bytes, directory: str | Path,
                 keys: KeyPair, serves: HostAddress, bind: str, name: str = "cardparty",
                 *, lost: float = LOST, beat: float = BEAT, guests: Guests | None = None,
                 epoch: int = 0, others: list[tuple[HostAddress, bytes]] | None = None,
                 alone_after: float | None = None) -> None:
        self.host = host
        self.host_key = host_key
        self.keys = keys
        self.serves = serves
        self.name = name
        self.lost_after = lost
        self.beat = beat
        self.others = list(others or [])
        #: seconds after which a peer no host ever answered serves from its own files (None:
        #: it waits for a host, however long)
        self.alone_after = alone_after
        self._started = time.monotonic()
        self._ever_heard = False
        #: one host or peer per directory (net/store.py's lock), until the takeover hands
        #: the directory to the host it becomes
        self._lock = lock(Path(directory))
        self.replica = Replica(directory)
        self.memo = Memo()
        self.witnesses = Witnesses()
        #: the host's epoch (from its welcome), the name it gave
        self.epoch = epoch
        self.host_name = ""
        #: this join's session (each hello a new one) and what the host said of it
        self.session = int(time.time() * 1000) % (1 << 40)
        #: the host made this peer its standby and called it attached (``standby_attached``)
        self.attached = False
        #: the host keeps this peer waiting; the standby it named (address, key), if any
        self.waiting = False
        self.successor: tuple[HostAddress, bytes] | None = None
        #: when the host was last heard (None: not since the start or a loss)
        self.heard: float | None = None
        #: the host is lost (since when, and whether as its connection closing), and whether
        #: nothing listens at its address
        self.lost_at: float | None = None
        self._closed = False
        self.certain = False
        self._probe_due = 0.0
        self.stopping = False
        self._last_ack = 0.0
        #: when to say hello (again): at once when the connection is up (the monitor), and in
        #: a second anyway (the connection may be up before the monitor watches it)
        self._hello_due: float | None = time.monotonic() + RETRY
        #: a snapshot is on its way (a hello now would start it over)
        self._syncing = False
        #: the candidates looked at while the host is lost, and when to look at the next
        self._seek: list[tuple[HostAddress, bytes]] = []
        self._seek_due = 0.0
        #: when this peer began to call its current host (a host that never answers is
        #: lost too), the last refusal logged, whether the poller must be made again
        self._since_target = time.monotonic()
        self._last_refusal: object = None
        #: a peer said it stands by this machine: it is the party's host (``Alone``)
        self._serve_self = False
        self._poller_stale = False
        #: counters the fault bench reads from the log
        self.drops = 0
        self.copies = 0
        self.ctx: zmq.Context[Any] = zmq.Context(io_threads=1)
        # The door the host this standby becomes lets players in by: its ROUTER is bound now.
        self.guard = Guard(self.ctx, keys, name, Door.of(guests))
        self.router, self.address = open_router(self.ctx, bind, self.guard)
        self.dealer, self.monitor = self._dealer()

    def _dealer(self) -> tuple[zmq.Socket[Any], zmq.Socket[Any]]:
        dealer = peer_socket(self.ctx, self.keys, self.host_key, self.host)
        monitor: zmq.Socket[Any] = dealer.get_monitor_socket(
            zmq.EVENT_DISCONNECTED | zmq.EVENT_HANDSHAKE_SUCCEEDED)
        return dealer, monitor

    @property
    def behind(self) -> int | None:
        """The highest record committed here (None: no copy yet)."""
        return self.replica.seq

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> Takeover | Alone | None:
        poller = self._poller()
        while not self.stopping:
            now = time.monotonic()
            if (self._hello_due is not None and now >= self._hello_due
                    and not self._syncing):
                self._say_hello(now)
            events = dict(poller.poll(int(self.beat * 1000)))
            now = time.monotonic()
            if self.dealer in events:          # what the host sent before it went, first
                done = self._from_host(now)
                if done is not None:
                    return done
            if self.monitor in events:
                done = self._monitor(now)
                if done is not None:
                    return done
            if self.router in events:
                done = self._from_players(now)
                if done is not None:
                    return done
            done = self._keep_up(now)
            if done is not None:
                return done
            if self._serve_self and self.replica.seq is None:
                self.close()
                return Alone()
            if (self.alone_after is not None and not self._ever_heard
                    and now - self._started > self.alone_after):
                log.warning("no peer of the party answered in %.0f s: this peer serves from "
                            "its own files", self.alone_after)
                self.close()
                return Alone()
            if self._poller_stale:
                poller = self._poller()
        self.close()
        return None

    def _poller(self) -> zmq.Poller:
        poller = zmq.Poller()
        for sock in (self.dealer, self.router, self.monitor):
            poller.register(sock, zmq.POLLIN)
        self._poller_stale = False
        return poller

    def stop(self) -> None:
        self.stopping = True

    def _say_hello(self, now: float) -> None:
        """A hello in a new session: where this peer serves, its copy, where it reached the
        host."""
        self.session += 1
        seq = self.replica.seq
        msg = hello(self.serves, self.epoch, self.session, self.replica.stream if seq is not None
                    else "", -1 if seq is None else seq, self.host.shown)
        with contextlib.suppress(zmq.Again):
            self.dealer.send(encode(msg), zmq.NOBLOCK)
        self._hello_due = now + RETRY

    def _keep_up(self, now: float) -> Takeover | None:
        """Acknowledge when quiet (the host's heartbeat of this peer), notice a silent host,
        and, once lost, what may be done about it."""
        if self.heard is not None and self.lost_at is None and now - self._last_ack >= self.beat:
            self._ack(now)
        if (self.heard is not None and self.lost_at is None
                and now - self.heard > self.lost_after):
            self._lost(now, "silent for %.1f s" % (now - self.heard))
        elif (self.heard is None and self.lost_at is None
              and now - self._since_target > SEEK_AFTER + RETRY):
            self._lost(now, "it does not answer")
        if self.lost_at is None:
            return None
        if (not self.certain and self._closed and now - self.lost_at < CLOSED_LOOK
                and now >= self._probe_due):
            # A killed host's listener may close a moment after its connections: look again.
            self._probe_due = now + PROBE_EVERY
            self.certain = refused(self.host, 0.05)
        if self.attached and now - self.lost_at >= ATTACHED_LOST:
            log.warning("the host at %s is lost for %.0f s: this peer no longer counts itself "
                        "its standby, and looks for whoever serves", self.host.shown,
                        now - self.lost_at)
            self.attached = False
            self.certain = False
            self._seek_due = now
        if self.attached and self.certain:
            elsewhere = self._serving_elsewhere()
            if elsewhere is not None:
                # Nothing listens where the host was, but another peer serves (the host
                # stood down or handed over, and its word was lost): join it.
                log.warning("nothing listens at %s, but the peer at %s serves: joining it",
                            self.host.shown, elsewhere[0].shown)
                self._retarget(*elsewhere, now)
                return None
            return self._take_over(handed=False, frames=[])
        if self.attached and self.witnesses.enough(now, now - self.lost_at):
            return self._take_over(handed=False, frames=[])
        if not self.attached and now - self.lost_at >= SEEK_AFTER and now >= self._seek_due:
            self._look_elsewhere(now)
        return None

    def _ack(self, now: float) -> None:
        seq = self.replica.seq
        with contextlib.suppress(zmq.Again):
            self.dealer.send(encode(ack(-1 if seq is None or self.waiting else seq,
                                        self.session)), zmq.NOBLOCK)
        self._last_ack = now

    def _lost(self, now: float, why: str, closed: bool = False) -> None:
        """The host is lost: look whether anything still listens at its address. Only a
        loss that came as the connection closing counts a refused port as the host's end,
        and only for ``CLOSED_LOOK`` seconds: a peer that lost its host by silence longer
        than the host's own bound may have been dropped and replaced meanwhile (beyond a cut
        link), and a port that refuses later says nothing of who serves now."""
        self.lost_at = now
        self._closed = closed
        self._probe_due = now + PROBE_EVERY
        self.certain = closed and refused(self.host, 0.05)
        self._seek = []
        self._seek_due = now + SEEK_AFTER
        log.warning("the host at %s is lost (%s)%s", self.host.shown, why,
                    ": nothing listens there any more" if self.certain else "")

    def _found(self, now: float) -> None:
        """The host is heard again, without a takeover: nothing is started over (what it
        sent meanwhile follows; a drop it made meanwhile is answered by a hello)."""
        if self.lost_at is not None:
            log.info("the host at %s answers again after %.1f s", self.host.shown,
                     now - self.lost_at)
        self.lost_at = None
        self._closed = False
        self.certain = False
        self.witnesses.forget()

    def _monitor(self, now: float) -> Takeover | None:
        while True:
            try:
                event = recv_monitor_message(self.monitor, zmq.NOBLOCK)
            except zmq.Again:
                return None
            if event["event"] == zmq.EVENT_DISCONNECTED and self.heard is not None \
                    and not self._closed:
                # What the host sent before its connection closed (a hand-over's last word)
                # may reach the socket a moment after the news of the close: first that.
                until = now + LAST_WORD
                while True:
                    done = self._from_host(now)
                    if done is not None:
                        return done
                    left = until - time.monotonic()
                    if left <= 0 or not self.dealer.poll(int(left * 1000) + 1):
                        break
                if self.lost_at is None or (not self._closed
                                            and now - self.lost_at <= CLOSED_LOOK):
                    # (After a silence too, within the host's bound for dropping this peer:
                    # what the host sent before it went came first. A close after a longer
                    # silence says nothing of who serves now: the players' following does.)
                    self._lost(now, "its connection closed", closed=True)
            elif event["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED and not self._syncing:
                # A new connection (the first, or after a reset): the host is told where this
                # peer's copy is, and sends what it lacks.
                self._say_hello(now)

    # --- the host ----------------------------------------------------------------------------

    def _from_host(self, now: float) -> Takeover | None:
        """What the host sent, in order: its records read in one turn applied together (one
        transaction a file, one acknowledgement: a peer behind catches up in few)."""
        batch: list[RecordsPush] = []
        while True:
            try:
                frame = self.dealer.recv(zmq.NOBLOCK)
            except zmq.Again:
                break
            self.heard = now
            self._ever_heard = True
            if self.lost_at is not None:
                self._found(now)
            try:
                msg = read_from_host(frame)
                if msg["type"] == RECORDS and len(batch) < RECORDS_PER_TURN:
                    batch.append(msg)
                    continue
                self._records(batch, now)
                if msg["type"] == RECORDS:
                    batch, done = [msg], None
                else:
                    batch, done = [], self._host_said(msg, now)
            except (PeerError, ReplicaError) as exc:
                with contextlib.suppress(ReplicaError):
                    self._records(batch, now)     # what came before it was good
                self._cannot_go_on(exc, now)
                batch = []
                continue
            if done is not None:
                return done
        try:
            self._records(batch, now)
        except ReplicaError as exc:
            self._cannot_go_on(exc, now)
        return None

    def _cannot_go_on(self, exc: Exception, now: float) -> None:
        log.error("the copy of the host cannot go on (%s): asking for a fresh one", exc)
        self.replica.abandon()
        self.replica.seq = None
        self.attached = False
        self._syncing = False
        self.memo.clear()
        self._say_hello(now)

    def _records(self, messages: list[RecordsPush], now: float) -> None:
        """Records messages of the host, in order: applied, and acknowledged once (those of
        another stream than the copy's are the old news of a host that restarted: left)."""
        replica = self.replica
        messages = [m for m in messages if m["stream"] == replica.stream]
        if not messages or replica.seq is None:
            return
        replica.apply([r for m in messages for r in m["records"]])
        for m in messages:
            self.memo.add(m["replies"])
        self._ack(now)

    def _host_said(self, msg: FromHost, now: float) -> Takeover | None:
        kind = msg["type"]
        if (kind in SESSION_BOUND and msg.get("session") != self.session
                and not (msg["type"] == DROPPED and msg.get("go"))):
            # About an earlier hello of this peer: old news. (Not a hand-over's or a stand-down's
            # word of where the party went: the host says it once, as it leaves.)
            log.debug("the host's %s of an earlier session is left", kind)
            return None
        replica = self.replica
        if msg["type"] == BEAT_MSG:
            pass
        elif msg["type"] == WELCOME:
            self._hello_due = None
            self.epoch = max(self.epoch, int(msg["epoch"]))
            self.host_name = str(msg.get("host", ""))
            self.attached = self.waiting = False
            files = msg.get("files")
            if files is None:
                if replica.seq is None or replica.stream != msg["stream"]:
                    raise ReplicaError("the host goes on from a copy this peer does not have")
                log.info("the host at %s goes on from this copy at record %d",
                         self.host.shown, replica.seq)
            else:
                self._syncing = True
                self.memo.clear()
                replica.begin(str(msg["stream"]), int(msg["seq"]), files)
        elif msg["type"] == PIECE:
            replica.piece(msg["file"], msg["table"], msg["rows"])
        elif msg["type"] == SNAPSHOT_END:
            replica.end()
            self._syncing = False
            self.copies += 1
            assert replica.seq is not None
            log.info("a copy of the host at %s as of record %d", self.host.shown, replica.seq)
            self._ack(now)
        elif msg["type"] == ATTACHED:
            self.attached = replica.seq is not None
            self.waiting = False
            log.info("attached to the host at %s (epoch %d): nothing is told before this "
                     "standby has it", self.host.shown, self.epoch)
        elif msg["type"] == WAIT:
            self._hello_due = None
            self.waiting, self.attached = True, False
            self.successor = read_go(msg.get("standby"))
            log.info("waits as a peer of the host at %s (its standby: %s)", self.host.shown,
                     self.successor[0].shown if self.successor else "none yet")
        elif msg["type"] == TAKEOVER:
            if replica.seq is not None and self.attached and replica.seq >= int(msg["seq"]):
                self.epoch = int(msg["epoch"]) - 1
                with contextlib.suppress(zmq.Again):
                    self.dealer.send(encode(ack(replica.seq, self.session, took=True)),
                                     zmq.NOBLOCK)
                return self._take_over(handed=True, frames=[])
            log.error("the host handed over at record %s but this copy is at %s",
                      msg["seq"], replica.seq)
        elif msg["type"] == DROPPED:
            self.drops += 1
            self.attached = self.waiting = False
            go = read_go(msg.get("go"))
            if go is not None:
                log.warning("the host at %s says the party moved to %s: joining it",
                            self.host.shown, go[0].shown)
                self._retarget(go[0], go[1], now)
            else:
                log.warning("the host dropped this standby (%s): joining it again",
                            msg.get("why", ""))
                self._hello_due = now
        elif msg["type"] == "error":
            self._refused(msg, now)
        return None

    def _refused(self, msg: NotHostReply, now: float) -> None:
        code = msg.get("code")
        if code == "not_host":
            # A peer that is not the host, naming the host it stands by: go there; and if
            # that host is this machine (restarted before its standby took over), serve.
            found = self._named(msg)
            if found is not None and found[1] == self.keys.public:
                # Unless another peer serves already: the one that said so may not have heard
                # of a takeover since this machine stopped (a waiting peer, not the standby).
                elsewhere = self._serving_elsewhere()
                if elsewhere is not None:
                    log.warning("the peer at %s stands by this machine, but the peer at %s "
                                "serves: joining it", self.host.shown, elsewhere[0].shown)
                    self._retarget(*elsewhere, now)
                    return
                log.warning("the peer at %s stands by this machine: it serves again from its "
                            "files", self.host.shown)
                self._serve_self = True
                return
            if found is not None and found[0] != self.host:
                self._retarget(*found, now)
                return
        if code != self._last_refusal:
            log.error("the host at %s refuses this peer: %s%s", self.host.shown,
                      msg.get("message", code),
                      f" (its operator takes it with --standby-key {self.keys.fingerprint})"
                      if code == "not_standby" else "")
            self._last_refusal = code
        # Refused is not lost: the host is there and says no. Asked again now and then (and
        # taken for lost only if it then stops answering at all).
        self.heard = None
        self._since_target = now + REFUSED_AGAIN
        self._hello_due = now + REFUSED_AGAIN

    @staticmethod
    def _named(msg: NotHostReply) -> tuple[HostAddress, bytes] | None:
        try:
            return read_address(str(msg["host"])), public_key(str(msg["key"]))
        except (KeyError, AddressError, ValueError):
            return None

    # --- when the host is lost and this peer is not its standby ---------------------------

    def candidates(self) -> list[tuple[HostAddress, bytes]]:
        """Where a peer that lost its host looks for whoever serves: the standby the host
        named, the peers its copy knows, the others it was told of; never itself."""
        out: list[tuple[HostAddress, bytes]] = []
        if self.successor is not None:
            out.append(self.successor)
        db = self.replica.db(HOST)
        if db is not None:
            with contextlib.suppress(Exception):
                for key, serves in db.execute(
                        "SELECT key, serves FROM peers WHERE key != '' AND serves != ''"):
                    out.append((read_address(serves), public_key(key)))
        out += self.others
        mine = self.keys.public
        seen: set[str] = set()
        found = []
        for where, key in out:
            if key == mine or where.shown in seen:
                continue
            seen.add(where.shown)
            found.append((where, key))
        return found

    def _serving_elsewhere(self, wait: float = PROBE) -> tuple[HostAddress, bytes] | None:
        """Another peer of the party that serves now (it answers a hello with a welcome or
        with ``standby_wait``), asked of every candidate at once for ``wait`` seconds; None:
        none does. Asked before a takeover for a refused port: a host that stood down or
        handed over closes its port too, and one of its peers serves already."""
        found: tuple[HostAddress, bytes] | None = None
        socks: list[tuple[zmq.Socket[Any], tuple[HostAddress, bytes]]] = []
        try:
            for where, key in self.candidates():
                if where == self.host:
                    continue
                sock = peer_socket(self.ctx, self.keys, key, where, immediate=False)
                with contextlib.suppress(zmq.ZMQError):
                    sock.send(encode(hello(self.serves, self.epoch, self.session + 1)),
                              zmq.NOBLOCK)
                socks.append((sock, (where, key)))
            end = time.monotonic() + wait
            while socks and found is None and time.monotonic() < end:
                poller = zmq.Poller()
                for sock, _ in socks:
                    poller.register(sock, zmq.POLLIN)
                ready = dict(poller.poll(max(1, int((end - time.monotonic()) * 1000))))
                for sock, peer in socks:
                    if sock in ready:
                        with contextlib.suppress(PeerError, zmq.ZMQError):
                            kind = read_from_host(sock.recv(zmq.NOBLOCK))["type"]
                            if kind in (WELCOME, WAIT):
                                found = peer
                                break
        finally:
            for sock, _ in socks:
                sock.close(0)
        return found

    def _look_elsewhere(self, now: float) -> None:
        """The next candidate tried (the host among them again, last)."""
        if not self._seek:
            self._seek = self.candidates() + [(self.host, self.host_key)]
        where, key = self._seek.pop(0)
        self._seek_due = now + RETRY
        # The host itself: a hello again, since it may serve on and have dropped this peer
        # without a word reaching it (its server started again after a heal, a cut link).
        self._retarget(where, key, now, keep_lost=True)

    def _retarget(self, where: HostAddress, key: bytes, now: float,
                  keep_lost: bool = False) -> None:
        """Stand by the peer at ``where`` (proving ``key``) from now on: a new DEALER, a hello
        at once."""
        if where == self.host and key == self.host_key:
            self._hello_due = now
            return
        log.info("looks for the party's host at %s", where.shown)
        self._close_host_side()
        self.host, self.host_key = where, key
        self.dealer, self.monitor = self._dealer()
        self._poller_stale = True
        self.heard = None
        self._since_target = now
        self.attached = self.waiting = False
        self._closed = False
        if not keep_lost:
            self.lost_at = None
        self._hello_due = now

    # --- players -----------------------------------------------------------------------------

    def _from_players(self, now: float) -> Takeover | None:
        """Who came here: enough followers of a lost host make this standby take over (their
        hellos are answered by the new host); anyone else is told this is a standby."""
        router = self.router
        for _ in range(PLAYERS_PER_TURN):
            try:
                route = router.recv(zmq.NOBLOCK)
            except zmq.Again:
                return None
            frames = [route]
            body: zmq.Frame | None = None
            while router.getsockopt(zmq.RCVMORE):
                part = router.recv(zmq.NOBLOCK, copy=False)
                if body is None:
                    body = part
                if len(frames) < 3:
                    frames.append(part.bytes)
            if self._follows(frames, body, now) and self.lost_at is not None and self.attached \
                    and self.witnesses.enough(now, now - self.lost_at):
                return self._take_over(handed=False, frames=[(frames, body)])
            self._not_host(route, frames)
        return None

    def _follows(self, frames: list[bytes], body: zmq.Frame | None, now: float) -> bool:
        """A ``hello`` that follows this peer's host (its epoch), from a key and name seated
        at one of its tables in play (net/peers/witness.py); only looked at while it is lost."""
        if len(frames) != 2 or self.lost_at is None or body is None:
            return False
        try:
            msg = decode(frames[1])
        except ProtocolError:
            return False
        follow = msg.get("follow")
        if not (msg.get("type") == "hello" and isinstance(follow, dict)
                and follow.get("epoch") == self.epoch):
            return False
        user, _ = peer_of(body)
        seq = self.replica.seq
        self.witnesses.seated(self.replica.db(HOST),
                              (self.replica.stream, -1 if seq is None else seq))
        return self.witnesses.heard(user, msg.get("name"), now)

    def _not_host(self, route: bytes, frames: list[bytes]) -> None:
        rid = None
        with contextlib.suppress(ProtocolError, IndexError):
            rid = decode(frames[1]).get("rid")
        where = self.host.shown
        text = (Msg("this is the standby of the host at {host}, which still serves: connect "
                    "there", host=where) if self.lost_at is None else
                Msg("this is the standby of the host at {host}; it takes over once the "
                    "players of that host follow it here", host=where))
        reply: NotHostReply = {**error("not_host", text, rid if isinstance(rid, int | str)
                                        else None), "host": where,
                               "key": self.host_key.decode()}
        with contextlib.suppress(zmq.ZMQError):
            self.router.send_multipart([route, encode(reply)], zmq.NOBLOCK)

    # --- the takeover ------------------------------------------------------------------------

    def _take_over(self, handed: bool, frames: list[tuple[list[bytes], zmq.Frame | None]]
                   ) -> Takeover:
        replica = self.replica
        assert replica.seq is not None
        seq = replica.seq
        forkpoint = replica.serialize()
        replica.close()
        self._close_host_side()
        self._unlock()
        why = ("handed over" if handed else "nothing listens there" if self.certain
               else "its players followed")
        log.warning("taking over from the host at %s as epoch %d at record %d (%s)",
                    self.host.shown, self.epoch + 1, seq, why)
        if not (handed or self.certain):
            keep_forkpoint(self.replica.directory, forkpoint)
        return Takeover(self.ctx, self.guard, self.router, self.address, self.epoch + 1,
                        seq, handed, self.certain, frames, self.memo.by_token, forkpoint,
                        self.host, self.host_key, self.serves, self.host_name)

    def _close_host_side(self) -> None:
        with contextlib.suppress(zmq.ZMQError):
            self.dealer.disable_monitor()
        self.monitor.close(0)
        self.dealer.close(200)          # a last acknowledgement (``took``) still goes

    def _unlock(self) -> None:
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1

    def close(self) -> None:
        """Everything closed (a standby stopped without taking over)."""
        self._unlock()
        self.replica.abandon()
        self.replica.close()
        self._close_host_side()
        self.router.close(0)
        self.guard.close()
        self.ctx.destroy(linger=0)

