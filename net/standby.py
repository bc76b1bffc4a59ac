"""A standby peer: a copy of a host's files kept up to the row, and the moment it takes over
(the zguide's Binary Star, the backup's side).

Owns: ``Standby``, the process's loop before a takeover: one DEALER to its host over CURVE
with the standby's own key pair (the host lets in only the key its operator approved), the
snapshot and the records it is sent written to its ``Replica`` (net/replica.py) and
acknowledged, the replies the host remembers (``Memo``), how it learns its host is lost (a
silence of ``peer.LOST``, or at once its connection closing), its own ROUTER bound where it
will serve players, which answers them ``not_host`` while the host lives; and the decision to
take over (``Takeover``):

- the host hands over (``takeover``): at once, with everything it was sent;
- the host is lost and nothing listens at its address any more (the connection is refused:
  its process is gone, its machine is not): at once;
- the host is lost and a player comes following it (a ``hello`` with ``follow``: his client
  was told this standby by the host and lost the host too): at once. A standby that lost its
  host and meets no such player does not take over (the host may be alive beyond a cut link,
  serving them): it waits, and joins its host again when it hears it.

Only a standby the host called attached (``standby_attached``: from then on the host told
nothing before this standby acknowledged it) ever takes over: a copy still catching up may
lack what players were told.

Must not know about: tables, players, games, how a host is built from the files (the command
line's, with ``Takeover``), the terminal.
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
from cardparty.net.address import HostAddress
from cardparty.net.fdbudget import Door
from cardparty.net.guard import Guard
from cardparty.net.host.config import Guests
from cardparty.net.host.server import open_router
from cardparty.net.keys import KeyPair
from cardparty.net.merge import keep_forkpoint
from cardparty.net.peer import (
    ATTACHED,
    BEAT,
    BEAT_MSG,
    DROPPED,
    LOST,
    MAX_PEER_FRAME,
    PIECE,
    RECORDS,
    SNAPSHOT_END,
    TAKEOVER,
    WELCOME,
    PeerError,
    ack,
    hello,
    read_from_host,
)
from cardparty.net.protocol import ProtocolError, decode, encode, error
from cardparty.net.replica import Replica, ReplicaError
from cardparty.net.store import lock

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
#: Seconds between two hellos to a host that does not answer or refused this standby.
RETRY = 1.0
#: Seconds a standby waits, once its host's connection closed, for what the host sent before.
LAST_WORD = 0.05
#: Seconds a look at the host's port may take (is anything listening there?), and between
#: two looks for the first ``LOOK_AGAIN`` seconds after the host was lost.
PROBE = 0.3
LOOK_AGAIN = 3.0
PROBE_EVERY = 0.1


@dataclass
class Takeover:
    """What a standby hands to the host it becomes: its socket and everything it listens
    with, the epoch to serve as, the frames players sent meanwhile (answered by the new host
    first), and why (``handed``: the old host said so; ``certain``: nothing listens at the
    old host's address; else a player followed). Each of those frames comes with its body
    as ZeroMQ read it (it knows its connection: its key, its address, its descriptor)."""

    ctx: zmq.Context[Any]
    guard: Guard
    router: zmq.Socket[Any]
    address: str
    epoch: int
    seq: int
    handed: bool
    certain: bool
    frames: list[tuple[list[bytes], zmq.Frame | None]]
    memo: dict[str, OrderedDict[Any, tuple[str, bytes]]]
    #: the copies as they were when the standby took over (what a later heal compares with)
    forkpoint: dict[str, bytes] = field(default_factory=dict)
    #: the old host (its address and key) and where this host serves: a host that took over
    #: without being sure calls its old host until they meet (net/heal.py)
    old_host: HostAddress | None = None
    old_key: bytes | None = None
    serves: HostAddress | None = None

    @property
    def sure(self) -> bool:
        """Handed over, or nothing listened at the old host's address: no other host."""
        return self.handed or self.certain


class Memo:
    """The replies the host remembers by request id, per player handle, as it sent them."""

    def __init__(self) -> None:
        self.by_token: OrderedDict[str, OrderedDict[Any, tuple[str, bytes]]] = OrderedDict()

    def add(self, replies: list[list[Any]]) -> None:
        for entry in replies:
            if not (isinstance(entry, list) and len(entry) == 4):
                continue
            token, rid, kind, frame = entry
            if not (isinstance(token, str) and isinstance(kind, str)
                    and isinstance(frame, bytes)):
                continue
            kept = self.by_token.setdefault(token, OrderedDict())
            self.by_token.move_to_end(token)
            while len(self.by_token) > MEMO_PLAYERS:
                self.by_token.popitem(last=False)
            kept[rid] = (kind, frame)
            kept.move_to_end(rid)
            while len(kept) > MEMO_PER_PLAYER:
                kept.popitem(last=False)

    def clear(self) -> None:
        self.by_token.clear()


def peer_socket(ctx: zmq.Context[Any], keys: KeyPair, server_key: bytes,
                address: HostAddress) -> zmq.Socket[Any]:
    """A DEALER from one host or standby to another (``address``, proving ``server_key``),
    over CURVE with this side's ``keys``: frames as large as a peer sends, nothing queued
    while the connection is down, and reconnecting quickly."""
    sock: zmq.Socket[Any] = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_PEER_FRAME)
    sock.setsockopt(zmq.RCVHWM, 0)
    sock.setsockopt(zmq.RECONNECT_IVL, 50)
    sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
    sock.setsockopt(zmq.IMMEDIATE, 1)            # nothing queued for a peer not connected
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
    """A standby of the host at ``host`` (whose key is ``host_key``), keeping its copies in
    ``directory``, speaking with ``keys``, and serving players at ``serves`` after a
    takeover (its ROUTER is bound to ``bind`` from the start, letting players in as
    ``guests`` say: the same ``config.Guests`` as the host it becomes).

    ``run`` returns the ``Takeover`` once it takes over, or None once ``stop`` is called."""

    def __init__(self, host: HostAddress, host_key: bytes, directory: str | Path,
                 keys: KeyPair, serves: HostAddress, bind: str, name: str = "cardparty",
                 *, lost: float = LOST, beat: float = BEAT, guests: Guests | None = None
                 ) -> None:
        self.host = host
        self.host_key = host_key
        self.keys = keys
        self.serves = serves
        self.name = name
        self.lost_after = lost
        self.beat = beat
        #: one host or standby per directory (net/store.py's lock), until the takeover hands
        #: the directory to the host it becomes
        self._lock = lock(Path(directory))
        self.replica = Replica(directory)
        self.memo = Memo()
        #: the host's epoch (from its welcome), the name it gave
        self.epoch = 0
        self.host_name = ""
        #: the host made this standby one of its durability sources (``standby_attached``)
        self.attached = False
        #: when the host was last heard (None: not since the start or a loss)
        self.heard: float | None = None
        #: the host is lost (since when), and whether nothing listens at its address
        self.lost_at: float | None = None
        self.certain = False
        self._probe_due = 0.0
        self.stopping = False
        self._last_ack = 0.0
        #: when to say hello (again): at once when the connection is up (the monitor), and in a
        #: second anyway (the connection may be up before the monitor watches it)
        self._hello_due: float | None = time.monotonic() + RETRY
        #: a snapshot is on its way (a hello now would start it over)
        self._syncing = False
        self.ctx: zmq.Context[Any] = zmq.Context(io_threads=1)
        # The door the host this standby becomes lets players in by: its ROUTER is bound now.
        self.guard = Guard(self.ctx, keys, name, Door.of(guests))
        self.router, self.address = open_router(self.ctx, bind, self.guard)
        self.dealer = self._dealer()
        self.monitor: zmq.Socket[Any] = self.dealer.get_monitor_socket(
            zmq.EVENT_DISCONNECTED | zmq.EVENT_HANDSHAKE_SUCCEEDED)

    def _dealer(self) -> zmq.Socket[Any]:
        return peer_socket(self.ctx, self.keys, self.host_key, self.host)

    @property
    def behind(self) -> int | None:
        """The highest record committed here (None: no copy yet)."""
        return self.replica.seq

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> Takeover | None:
        poller = zmq.Poller()
        for sock in (self.dealer, self.router, self.monitor):
            poller.register(sock, zmq.POLLIN)
        while not self.stopping:
            now = time.monotonic()
            if (self._hello_due is not None and now >= self._hello_due and not self._syncing
                    and self.replica.seq is None and self.lost_at is None):
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
        self.close()
        return None

    def stop(self) -> None:
        self.stopping = True

    def _say_hello(self, now: float) -> None:
        with contextlib.suppress(zmq.Again):
            self.dealer.send(encode(hello(self.serves, self.epoch)), zmq.NOBLOCK)
        self._hello_due = now + RETRY

    def _keep_up(self, now: float) -> Takeover | None:
        """Acknowledge when quiet (the host's heartbeat of this standby), and notice a silent
        host."""
        seq = self.replica.seq
        if seq is not None and self.lost_at is None and now - self._last_ack >= self.beat:
            self._ack(seq, now)
        if (self.heard is not None and self.lost_at is None
                and now - self.heard > self.lost_after):
            self._lost(now, "silent for %.1f s" % (now - self.heard))
        if (self.lost_at is not None and not self.certain and now - self.lost_at < LOOK_AGAIN
                and now >= self._probe_due):
            # A killed host's listener may close a moment after its connections: look again.
            self._probe_due = now + PROBE_EVERY
            self.certain = refused(self.host, 0.05)
        if self.lost_at is not None and self.attached and self.certain:
            return self._take_over(handed=False, frames=[])
        return None

    def _ack(self, seq: int, now: float) -> None:
        with contextlib.suppress(zmq.Again):
            self.dealer.send(encode(ack(seq)), zmq.NOBLOCK)
        self._last_ack = now

    def _lost(self, now: float, why: str) -> None:
        """The host is lost: look whether anything still listens at its address."""
        self.lost_at = now
        self._probe_due = now + PROBE_EVERY
        self.certain = refused(self.host, 0.05)
        log.warning("the host at %s is lost (%s)%s", self.host.shown, why,
                    ": nothing listens there any more" if self.certain else "")

    def _monitor(self, now: float) -> Takeover | None:
        while True:
            try:
                event = recv_monitor_message(self.monitor, zmq.NOBLOCK)
            except zmq.Again:
                return None
            if event["event"] == zmq.EVENT_DISCONNECTED and self.lost_at is None \
                    and self.heard is not None:
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
                self._lost(now, "its connection closed")
            elif event["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                if self.lost_at is not None:
                    # The host answers again without a takeover: start over as its standby
                    # (what was sent meanwhile may be lost: a fresh snapshot).
                    self._rejoin(now)
                elif self.replica.seq is None and not self._syncing:
                    self._say_hello(now)

    def _rejoin(self, now: float) -> None:
        log.info("the host at %s answers again: joining it afresh", self.host.shown)
        self.lost_at = None
        self.certain = False
        self.attached = False
        self.heard = None
        self._start_over(now)

    def _start_over(self, now: float) -> None:
        """This copy is given up: a fresh snapshot is asked for."""
        self.attached = False
        self._syncing = False
        self.replica.close()
        self.replica.seq = None
        self.memo.clear()
        self._say_hello(now)

    # --- the host ----------------------------------------------------------------------------

    def _from_host(self, now: float) -> Takeover | None:
        """What the host sent, in order: its records read in one turn applied together (one
        transaction a file, one acknowledgement: a standby behind catches up in few)."""
        records: list[dict[str, Any]] = []
        while True:
            try:
                frame = self.dealer.recv(zmq.NOBLOCK)
            except zmq.Again:
                break
            if self.lost_at is not None:
                self._rejoin(now)
            self.heard = now
            try:
                msg = read_from_host(frame)
                if msg["type"] == RECORDS and len(records) < RECORDS_PER_TURN:
                    records.append(msg)
                    continue
                self._records(records, now)
                records = [msg] if msg["type"] == RECORDS else []
                done = None if records else self._host_said(msg, now)
            except (PeerError, ReplicaError) as exc:
                self._cannot_go_on(exc, now)
                records = []
                continue
            if done is not None:
                return done
        try:
            self._records(records, now)
        except ReplicaError as exc:
            self._cannot_go_on(exc, now)
        return None

    def _cannot_go_on(self, exc: Exception, now: float) -> None:
        log.error("the copy of the host cannot go on (%s): asking for a fresh one", exc)
        self._start_over(now)

    def _records(self, messages: list[dict[str, Any]], now: float) -> None:
        """Records messages of the host, in order: applied, and acknowledged once."""
        replica = self.replica
        if not messages or replica.seq is None:
            return                          # for a copy given up: a fresh one is coming
        seq = replica.apply([r for m in messages for r in m["records"]])
        for m in messages:
            self.memo.add(m["replies"])
        self._ack(seq, now)

    def _host_said(self, msg: dict[str, Any], now: float) -> Takeover | None:
        kind = msg["type"]
        replica = self.replica
        if kind == BEAT_MSG:
            pass
        elif kind == WELCOME:
            self.epoch = int(msg["epoch"])
            self.host_name = str(msg.get("host", ""))
            self.attached = False
            self._syncing = True
            self.memo.clear()
            replica.begin(int(msg["seq"]), dict(msg["sizes"]))
        elif kind == PIECE:
            replica.piece(str(msg["file"]), int(msg["offset"]), msg["data"])
        elif kind == SNAPSHOT_END:
            replica.end()
            self._syncing = False
            assert replica.seq is not None
            log.info("a copy of the host at %s as of record %d", self.host.shown, replica.seq)
            self._ack(replica.seq, now)
        elif kind == ATTACHED:
            self.attached = replica.seq is not None
            log.info("attached to the host at %s (epoch %d): nothing is told before this "
                     "standby has it", self.host.shown, self.epoch)
        elif kind == TAKEOVER:
            if replica.seq is not None and self.attached and replica.seq >= int(msg["seq"]):
                self.epoch = int(msg["epoch"]) - 1
                with contextlib.suppress(zmq.Again):
                    self.dealer.send(encode(ack(replica.seq, took=True)), zmq.NOBLOCK)
                return self._take_over(handed=True, frames=[])
            log.error("the host handed over at record %s but this copy is at %s",
                      msg["seq"], replica.seq)
        elif kind == DROPPED:
            log.warning("the host dropped this standby (%s): joining it afresh",
                        msg.get("why", ""))
            self._start_over(now)
        elif kind == "error":
            log.error("the host at %s refuses this standby: %s", self.host.shown,
                      msg.get("message", msg.get("code")))
            self._hello_due = now + RETRY
        return None

    # --- players -----------------------------------------------------------------------------

    def _from_players(self, now: float) -> Takeover | None:
        """Players who came here: a follower of a lost host makes this standby take over
        (its hello is answered by the new host); anyone else is told this is a standby."""
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
            if self._follows(frames) and self.lost_at is not None and self.attached:
                return self._take_over(handed=False, frames=[(frames, body)])
            self._not_host(route, frames)
        return None

    def _follows(self, frames: list[bytes]) -> bool:
        """A ``hello`` that follows this standby's host (its epoch)."""
        if len(frames) != 2:
            return False
        try:
            msg = decode(frames[1])
        except ProtocolError:
            return False
        follow = msg.get("follow")
        return (msg.get("type") == "hello" and isinstance(follow, dict)
                and follow.get("epoch") == self.epoch)

    def _not_host(self, route: bytes, frames: list[bytes]) -> None:
        rid = None
        with contextlib.suppress(ProtocolError, IndexError):
            rid = decode(frames[1]).get("rid")
        where = self.host.shown
        text = (Msg("this is the standby of the host at {host}, which still serves: connect "
                    "there", host=where) if self.lost_at is None else
                Msg("this is the standby of the host at {host}; it takes over once a player "
                    "of that host follows it here", host=where))
        reply = error("not_host", text, rid if isinstance(rid, int | str) else None)
        reply["host"] = where
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
        log.warning("taking over from the host at %s as epoch %d at record %d (%s)",
                    self.host.shown, self.epoch + 1, seq,
                    "handed over" if handed else "nothing listens there" if self.certain
                    else "a player followed")
        if not (handed or self.certain):
            keep_forkpoint(self.replica.directory, forkpoint)
        return Takeover(self.ctx, self.guard, self.router, self.address, self.epoch + 1,
                        seq, handed, self.certain, frames, self.memo.by_token, forkpoint,
                        self.host, self.host_key, self.serves)

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
        self.replica.close()
        self._close_host_side()
        self.router.close(0)
        self.guard.close()
        self.ctx.destroy(linger=0)
