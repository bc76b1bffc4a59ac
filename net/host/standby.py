"""The host's side of its party's peers: the standby it keeps and the peers that wait
(docs/protocol.md, "A standby peer and takeovers"; the zguide's Binary Star, the primary's side).

Owns: ``Standbys``, a part of the host (``parts.build_host`` builds it when the host keeps a
store): which keys are the party's peers (the ``peers`` table of the store, replicated, so
every host of the party knows them; the operator's approvals, ``--standby-key``, are written
there), the one peer that is this host's **standby** and the others that **wait**, the
replication stream (net/peers/replica.py's ``Stream``) and what each join is sent: a snapshot of
rows, or, for a peer whose copy follows this stream and is still within the records kept, only the
records it lacks (a stall or a reset costs no copy); its acknowledgements; and its state:

- ``syncing``: the snapshot on its way: what is told does not wait for it;
- ``catching``: its copy is written: what is told now waits for it too, and it is not yet known
  to have all that was told before;
- ``attached``: it has everything anybody was told: it may take over, and players are told of
  it;
- waiting peers are told who the standby is (``standby_wait``) and kept while they beat; when
  the standby is dropped (silent for ``peer.BOUND``, not reading, too slow to catch up), the
  peer that waited longest is the next standby.

A peer that says hello again (its own session: a reset connection, a stall it came back from)
is never dropped for it: it is taken again from its copy, with the records it lacks. A hello
with a higher epoch than this host's is a host that succeeded this one (a takeover beyond a cut
link): ``PeerEvents.higher``.

As a durability source of the host's gate (``gate.Durability``) its ticket is the stream's
newest record and what it has reached is the standby's acknowledgement. What it sends goes out
at once, outside the gate: the server writes ``outgoing`` at each turn (and tells
``cannot_send`` when a peer's queue is full).

Must not know about: tables, players (a reply is a handle, an id and bytes), the economy,
when frames go (the gate), the socket (the server).
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from cardparty.core.economy.ledger import Ledger
from cardparty.core.i18n import Msg
from cardparty.net.host.clock import Clock
from cardparty.net.peers.messages import (
    Remembered,
    StandbyAckMessage,
    StandbyHelloMessage,
    ToPeer,
)
from cardparty.net.peers.peer import (
    ACK,
    BEAT,
    BOUND,
    HELLO,
    WAIT_SILENCE,
    Hello,
    PeerError,
    beat,
    dropped,
    piece,
    read_ack,
    read_hello,
    records,
    snapshot_end,
    standby_attached,
    takeover,
    wait,
    welcome,
)
from cardparty.net.peers.replica import CHUNK, Record, Stream, weight
from cardparty.net.store import Store
from cardparty.net.trust.keys import fingerprint, plain_fingerprint
from cardparty.net.wire.address import HostAddress
from cardparty.net.wire.protocol import (
    ErrorReply,
    PeerAddress,
    ProtocolError,
    StandbyStatus,
    decode,
    encode,
    error,
)

log = logging.getLogger("cardparty.host")

#: Seconds a standby may take to write its snapshot and catch up before it is given up (a
#: standby that never gets there must not hold the party's next copy for ever).
CATCH_UP = 30.0
#: Records and bytes of them sent in one message at most (a standby far behind catches up
#: in several).
RECORDS_PER_MESSAGE = 512
BYTES_PER_MESSAGE = 8 * 1024 * 1024
#: Seconds a host of a party goes without any peer before its console says what to do.
ALONE_SAY = 10.0
#: Peers kept waiting at most, and keys refused that are logged (each once).
MAX_WAITING = 8
MAX_REFUSED = 64


@dataclass(frozen=True, slots=True)
class Attached:
    """The standby players are told of: where it serves, its key (Z85)."""

    serves: HostAddress
    key: bytes

    def wire(self) -> PeerAddress:
        return {"address": self.serves.host, "port": self.serves.port,
                "key": self.key.decode()}


@dataclass(frozen=True, slots=True)
class Higher:
    """A host of a higher epoch called (it took over beyond a cut link and the two meet
    again): where it is (its route on this socket), its key and address, its epoch."""

    route: bytes
    key: bytes
    serves: HostAddress
    epoch: int


@dataclass(frozen=True)
class PeerEvents:
    """Who is told what the party's peers do (the host's own parts, given at construction):
    a standby ``attached``; the standby ``dropped`` (why, the last record it acknowledged:
    only an attached one, which may have taken over); the standby dropped ``returned`` as a
    peer (so it never took over); a ``higher`` host calls."""

    attached: Sequence[Callable[[Attached], None]] = ()
    dropped: Sequence[Callable[[str, int], None]] = ()
    higher: Sequence[Callable[[Higher], None]] = ()
    #: the standby last dropped said hello again as a peer of this host's epoch: it did not
    #: take over (what a drop held may go on)
    returned: Sequence[Callable[[], None]] = ()


@dataclass(eq=False)
class Join:
    """One peer's join: its key and fingerprint, the route its hello came by, its session,
    where it serves, the copy it said it holds (stream and last record), and how it is
    doing."""

    key: bytes
    fingerprint: str
    route: bytes
    session: int
    serves: HostAddress
    stream: str
    seq: int
    heard: float
    since: float
    #: "wanted" (to be sent its start at the next turn), "syncing", "catching", "attached",
    #: or "waiting"
    state: str = "wanted"
    acked: int = 0
    #: the newest record sent to it
    sent: int = 0
    #: the snapshot's record (acknowledged once its copy is written)
    snapshot: int = 0
    #: it said it takes over (after ``hand_over``)
    took: bool = False
    #: when it was last sent anything (a waiting peer is sent a beat now and then)
    beaten: float = 0.0
    #: (the last record of a batch, when it was sent), oldest first
    batches: deque[tuple[int, float]] = field(default_factory=deque)


class Standbys:
    """See the module docstring. ``approved``: fingerprints (or whole keys) the operator
    approved on the command line; ``own``: this host's public key (it is a peer of its party
    too: the others find it by its row); ``epoch``: this host's generation, ``name`` its name."""

    def __init__(self, store: Store, ledger: Ledger | None, approved: Sequence[str],
                 own: bytes | None, epoch: int, name: str, clock: Clock, events: PeerEvents,
                 *, bound: float = BOUND, beat: float = BEAT) -> None:
        self.store = store
        self.stream = Stream(store, ledger)
        self.epoch = epoch
        self.name = name
        self.clock = clock
        self.events = events
        self.bound = bound
        self.beat = beat
        self.own = own
        #: the party's peers by fingerprint: their key (Z85, "" until seen) and where they
        #: serve (as the store keeps them)
        self.peers: dict[str, tuple[str, str]] = {
            f: (k, s) for f, k, _n, s in store.peers()}
        now = clock.wall()
        for text in approved:
            fp = plain_fingerprint(text)
            if fp not in self.peers:
                self.peers[fp] = ("", "")
                store.put_peer(fp, since=now)
        self.own_fp = plain_fingerprint(fingerprint(own)) if own is not None else ""
        if self.own_fp and self.own_fp not in self.peers:
            self.peers[self.own_fp] = (own.decode() if own else "", "")
            store.put_peer(self.own_fp, key=own.decode() if own else "", name=name, since=now)
        #: the standby (None: none), and the peers waiting, the longest first
        self.current: Join | None = None
        self.waiting: OrderedDict[bytes, Join] = OrderedDict()
        #: what goes to the peers at once (the server writes it)
        self.outgoing: list[tuple[bytes, bytes]] = []
        self._last_sent = 0.0
        #: replies remembered since the gate last sealed (what they tell of not yet handed to
        #: the store), then sealed: each with the record that holds what it tells of, which
        #: the store's writer may fill later; it goes with that record, never before it (a
        #: reply at the standby without its record is an ``ok`` its successor tells about a
        #: move it never had)
        self._replies: list[Remembered] = []
        self._sealed: deque[tuple[int, Remembered]] = deque()
        #: the newest record something told without waiting for the standby may tell of
        self._told = 0
        #: routes the server could not send to (dropped at the next turn)
        self._failed: set[bytes] = set()
        #: routes whose connection is gone (``unreachable``), while a peer still holds them
        self._gone: set[bytes] = set()
        self._refused: set[bytes] = set()
        self._judged: dict[bytes, str | None] = {}
        #: what an attached standby dropped had acknowledged, until the gate asks
        self._gave_up: int | None = None
        #: the keys of hosts of a higher epoch that said they have this host's rows (a heal)
        self.healed: set[bytes] = set()
        #: the key of the attached standby last dropped (it may have taken over, until it
        #: says hello again as a peer of this epoch)
        self.last_dropped: bytes | None = None
        #: until when (this clock) no standby is taken, its peers wait (``hold_copies``)
        self.copies_held_until = 0.0
        #: why, in the console's words
        self.copies_held_why = ""
        #: since when no peer is here (None: one is), and whether the console was told
        self._alone_since: float | None = clock.now()
        self._said_alone = False

    # --- who may speak -----------------------------------------------------------------------

    @property
    def party(self) -> bool:
        """Whether the host has peers besides itself (else it takes no standby)."""
        return any(fp != self.own_fp for fp in self.peers)

    def peer_of(self, user: bytes | None) -> str | None:
        """The fingerprint of the party's peer whose key ZeroMQ authenticated as ``user``
        (None: not a peer). Each key is judged once."""
        if user is None:
            return None
        if user in self._judged:
            return self._judged[user]
        try:
            fp: str | None = plain_fingerprint(fingerprint(user))
        except ValueError:
            fp = None
        if fp not in self.peers or fp == self.own_fp:
            fp = None
        if len(self._judged) >= 4096:
            self._judged.clear()
        self._judged[user] = fp
        return fp

    def refusal(self, user: bytes | None) -> ErrorReply:
        """The reply to a ``standby_hello`` from a key that is not one of the party's peers,
        logged once per key with the one thing the operator may do."""
        if user is not None and user not in self._refused and len(self._refused) < MAX_REFUSED:
            self._refused.add(user)
            fp = fingerprint(user) if len(user) == 40 else "?"
            log.warning("a peer with key %s asked to join; it is not one of this party's "
                        "peers: to take it, start this host with --standby-key %s", fp, fp)
        return error("not_standby", Msg(
            "this host's operator did not approve your key as one of its party's peers"),
            about=HELLO)

    @staticmethod
    def no_party(user: bytes | None) -> ErrorReply:
        """The reply to a ``standby_hello`` at a host that keeps nothing (no ``--data``)."""
        return error("not_standby", Msg("this host keeps nothing (no --data): it takes no "
                                        "standby"), about=HELLO)

    # --- what the peers say ------------------------------------------------------------------

    def frame(self, route: bytes, user: bytes, body: bytes) -> None:
        """One frame from a peer's key."""
        now = self.clock.now()
        try:
            msg = decode(body)
            kind = msg["type"]
            if kind == HELLO:
                self._hello(route, user, read_hello(cast("StandbyHelloMessage", msg)), now)
            elif kind == ACK:
                said = cast("StandbyAckMessage", msg)
                seq, session = read_ack(said)
                self._ack(route, user, seq, session, said, now)
        except (ProtocolError, PeerError) as exc:
            self._send(route, error("bad_field", str(exc)))

    def _hello(self, route: bytes, user: bytes, h: Hello, now: float) -> None:
        fp = self.peer_of(user)
        assert fp is not None
        if h.epoch > self.epoch:
            # Not a standby: the host it became, of a later generation (net/peers/heal.py). This
            # host yields to it.
            for listener in self.events.higher:
                listener(Higher(route, user, h.serves, h.epoch))
            return
        self._learn(fp, user, h)
        if user == self.last_dropped:
            # The standby this host dropped is a peer of this epoch: it never took over.
            self.last_dropped = None
            for back in self.events.returned:
                back()
        if not self.stream.on:
            self.stream.start()
        join = Join(user, fp, route, h.session, h.serves, h.stream, h.seq, now, now)
        current = self.current
        if current is not None and current.key == user:
            self._again(current, join, now)
            return
        old = self.waiting.pop(user, None)
        held = now < self.copies_held_until
        if current is None and not held:
            self.current = join
            log.info("a peer (%s) joins as this host's standby, to serve at %s",
                     fingerprint(user), h.serves.shown)
            return
        join.state = "waiting"
        self.waiting[user] = join
        while len(self.waiting) > MAX_WAITING:
            self.waiting.popitem(last=False)
        if old is None:
            log.info("a peer (%s) waits, to serve at %s (%s)", fingerprint(user),
                     h.serves.shown, f"no copy is made {self.copies_held_why}"
                     if current is None else f"the standby is {current.serves.shown}")
        self._send(route, wait(join.session, self._word()))

    def _learn(self, fp: str, user: bytes, h: Hello) -> None:
        """What a peer's hello tells of the party (its key, where it serves; where it reached
        this host) kept in the store when it is news: every host of the party then knows."""
        key, serves = self.peers.get(fp, ("", ""))
        if key != user.decode() or serves != h.serves.shown:
            self.peers[fp] = (user.decode(), h.serves.shown)
            self.store.put_peer(fp, key=user.decode(), serves=h.serves.shown)
        if h.reach is not None and self.own_fp:
            key, serves = self.peers.get(self.own_fp, ("", ""))
            if serves != h.reach.shown:
                self.peers[self.own_fp] = (key, h.reach.shown)
                self.store.put_peer(self.own_fp, serves=h.reach.shown, name=self.name)

    def _again(self, current: Join, join: Join, now: float) -> None:
        """The standby said hello again (a reset connection, a stall, a drop it saw): taken
        again from its copy when the stream still holds what it lacks, without a drop;
        else (another copy: it needs a snapshot) it is dropped and taken afresh."""
        if join.session == current.session and join.route == current.route:
            return                                  # the same hello twice
        copy = join.stream == self.stream.id and self.stream.after(join.seq) is not None
        resumable = copy and current.state in ("catching", "attached") and (
            join.seq >= current.acked)
        if copy and not resumable:
            # Not attached yet, and a copy this host can go on from: its start again, for the
            # new session (no snapshot).
            self.current = join
            self._start(join, now)
            return
        if resumable:
            log.info("the standby said hello again with its copy at record %d: it goes on "
                     "from there", join.seq)
            current.route, current.session, current.heard = join.route, join.session, now
            current.serves, current.stream, current.seq = join.serves, join.stream, join.seq
            current.sent = current.acked = join.seq
            self._failed.discard(join.route)
            self._send(current.route, welcome(current.session, self.epoch, self.name,
                                              self.stream.id, join.seq, None))
            if current.state == "attached":
                self._send(current.route, standby_attached(current.session, current.acked))
            self.pump()
            return
        if current.state == "attached":
            self._dropped(current, "it came back without its copy", tell=False)
        self.current = join
        log.info("the standby said hello again without a copy this host can go on from: a "
                 "snapshot")

    def _ack(self, route: bytes, user: bytes, seq: int, session: int, msg: StandbyAckMessage,
             now: float) -> None:
        if msg.get("healed") is True:
            # A host of a higher epoch has the rows this host handed it (a heal).
            self.healed.add(user)
            return
        waiting = self.waiting.get(user)
        if waiting is not None:
            if session == waiting.session:
                waiting.heard = now
            return
        cur = self.current
        if cur is None or cur.key != user or session != cur.session:
            return
        cur.heard = now
        if route != cur.route:
            cur.route = route
        stream = self.stream
        if seq > cur.acked:
            cur.acked = min(seq, stream.filled)
        if msg.get("took") is True:
            cur.took = True
        if cur.state == "syncing" and cur.acked >= cur.snapshot:
            # The copy is written: from now on what is told waits for the standby too; it
            # is attached once it has what was told before (``_told``).
            cur.state = "catching"
            self._told = stream.seq
        if cur.state == "catching" and cur.acked >= self._told:
            cur.state = "attached"
            self._send(cur.route, standby_attached(cur.session, cur.acked))
            log.info("the standby at %s is attached: nothing is told before it has it",
                     cur.serves.shown)
            attached = Attached(cur.serves, cur.key)
            for listener in self.events.attached:
                listener(attached)
            for other in self.waiting.values():
                self._send(other.route, wait(other.session, attached.wire()))

    # --- the loop's turns --------------------------------------------------------------------

    def tick(self) -> None:
        """At each turn of the host's loop, after its writes were handed to the store (so a
        snapshot holds whole requests): a standby's start sent, records sent, a beat when
        quiet, a standby silent for the bound dropped and the next waiting peer taken, and
        waiting peers long silent forgotten."""
        now = self.clock.now()
        for key, other in list(self.waiting.items()):
            if now - other.heard > WAIT_SILENCE or other.route in self._failed:
                del self.waiting[key]
                log.info("the waiting peer %s is gone", fingerprint(key))
        cur = self.current
        if self._gone:
            held = {j.route for j in self.waiting.values()}
            if cur is not None:
                held.add(cur.route)
            self._gone &= held
        self._alone(now, cur is None and not self.waiting)
        if cur is None:
            if now >= self.copies_held_until:
                self._promote(now)
            self._beat_waiting(now)
            return
        if cur.route in self._failed:
            self.drop("it stopped reading")
            return
        if cur.state == "wanted":
            self._start(cur, now)
            return
        self._seal()
        self.pump()
        if self.current is not cur:
            return
        if cur.state in ("catching", "attached"):
            if now - cur.heard > self.bound:
                self.drop(f"no acknowledgement for {now - cur.heard:.1f} s")
                return
        elif now - cur.since > CATCH_UP:
            self.drop("it did not catch up in time")
            return
        if now - self._last_sent >= self.beat:
            self._send(cur.route, beat(self.stream.id, self.stream.seq))
            cur.beaten = now
        self._beat_waiting(now)

    def _beat_waiting(self, now: float) -> None:
        """A beat to each waiting peer now and then: it hears its host is there (it takes a
        silent host for lost, and looks for another)."""
        for other in self.waiting.values():
            if now - other.beaten >= 3 * self.beat:
                other.beaten = now
                self._send(other.route, beat(self.stream.id, self.stream.seq))

    def _alone(self, now: float, alone: bool) -> None:
        """A party's host with no peer for ``ALONE_SAY`` seconds says, once, in one line, what
        gives it a standby again."""
        if not alone:
            self._alone_since, self._said_alone = None, False
            return
        if self._alone_since is None:
            self._alone_since = now
        if self.party and not self._said_alone and now - self._alone_since > ALONE_SAY:
            self._said_alone = True
            where = self.peers.get(self.own_fp, ("", ""))[1] or "THIS-HOST:PORT"
            log.warning("no peer of the party is here: the party has no standby; start one on "
                        "another machine with: cardparty host --standby-for %s --data DIR",
                        where)

    def _promote(self, now: float) -> None:
        """No standby: the peer that waited longest (and was heard lately) is the next."""
        while self.waiting:
            key, join = self.waiting.popitem(last=False)
            if (now - join.heard <= WAIT_SILENCE and join.route not in self._failed
                    and join.route not in self._gone):
                join.state, join.since = "wanted", now
                self.current = join
                log.info("the waiting peer %s is this host's standby now", fingerprint(key))
                self._start(join, now)
                return

    def _start(self, join: Join, now: float) -> None:
        """What a new standby is sent first: the records its copy lacks (it follows this
        stream and they are kept), or a snapshot of rows."""
        stream = self.stream
        join.since = now
        join.batches.clear()
        if (join.stream == stream.id and join.seq >= 0
                and stream.after(join.seq) is not None):
            join.state, join.snapshot = "syncing", join.seq
            join.sent = join.acked = join.seq
            self._send(join.route, welcome(join.session, self.epoch, self.name, stream.id,
                                           join.seq, None))
            log.info("the standby goes on from its copy at record %d (%d records behind)",
                     join.seq, stream.filled - join.seq)
            self.pump()
            return
        snap = stream.snapshot(CHUNK)
        join.state, join.snapshot = "syncing", snap.seq
        join.sent = snap.seq
        join.acked = 0
        self._replies = []
        self._sealed.clear()
        ok = self._send(join.route, welcome(join.session, self.epoch, self.name, snap.stream,
                                            snap.seq, list(snap.files)))
        count = 0
        for file, table, rows in snap.pieces:
            if ok:
                ok = self._send(join.route, piece(join.session, file, table, rows))
            count += len(rows)
        if ok:
            self._send(join.route, snapshot_end(join.session, snap.seq))
        log.info("a snapshot of %d rows as of record %d is sent to the standby", count,
                 snap.seq)

    def pump(self) -> None:
        """The records the standby lacks sent, each message with the sealed replies whose
        record it carries or follows."""
        cur = self.current
        if cur is None or cur.state in ("wanted", "waiting"):
            return
        batch = self.stream.after(cur.sent)
        if batch is None:
            self.drop("it fell behind the records this host keeps")
            return
        sealed = self._sealed
        if not batch and not (sealed and sealed[0][0] <= cur.sent):
            return
        for part in _split(batch):
            if not self._send(cur.route, records(self.stream.id, part,
                                                 self._due(part[-1][0]))):
                return
            cur.sent = part[-1][0]
            cur.batches.append((cur.sent, self.clock.now()))
        if sealed and sealed[0][0] <= cur.sent:
            self._send(cur.route, records(self.stream.id, [], self._due(cur.sent)))
        while cur.batches and (cur.batches[0][0] <= cur.acked or len(cur.batches) > 4096):
            cur.batches.popleft()

    def _seal(self) -> None:
        """The replies remembered since the last seal tied to the newest record reserved: the
        host's writes of what they answered were handed to the store by now."""
        if self._replies:
            seq = self.stream.seq
            self._sealed.extend((seq, reply) for reply in self._replies)
            self._replies = []

    def _due(self, upto: int) -> list[Remembered]:
        """The sealed replies whose record is ``upto`` or older, taken."""
        sealed = self._sealed
        out: list[Remembered] = []
        while sealed and sealed[0][0] <= upto:
            out.append(sealed.popleft()[1])
        return out

    def _send(self, route: bytes, msg: ToPeer) -> bool:
        if route in self._failed or route in self._gone:
            return False
        self.outgoing.append((route, encode(msg)))
        self._last_sent = self.clock.now()
        return True

    def take(self) -> list[tuple[bytes, bytes]]:
        """What goes to the peers now (the server writes it, in order)."""
        out, self.outgoing = self.outgoing, []
        return out

    def cannot_send(self, route: bytes) -> None:
        """The server could not write to ``route`` (its queue is full: it stopped reading):
        that peer is dropped at the next turn (never in the middle of a seal)."""
        self._failed.add(route)

    def unreachable(self, route: bytes) -> None:
        """The connection of ``route`` is gone (a reset, a restart): nothing more is sent
        there, and nobody is dropped for it. A peer that lives says hello again on a new
        connection within moments and goes on from its copy; a standby that does not is
        dropped by the silence of its acknowledgements, as any other. (Dropping it at once,
        and the waiting peer taken in its place, whose connection a reset of every connection
        closed too, cost two drops for one fault.)"""
        self._gone.add(route)

    def remembered(self, token: str, rid: Any, kind: str, frame: bytes, table: str = ""
                   ) -> None:
        """A reply the host remembers by request id (and the table it was about): it goes
        with the next records."""
        if self.current is not None:
            self._replies.append([token, rid, kind, frame, table])

    def drop(self, why: str, go: PeerAddress | None = None) -> None:
        """The standby is given up (and told so, with where the party goes, ``go``, when it
        goes anywhere): the host goes on alone or with the next peer waiting."""
        cur = self.current
        if cur is None:
            return
        self._dropped(cur, why, tell=True, go=go)

    def _dropped(self, cur: Join, why: str, tell: bool,
                 go: PeerAddress | None = None) -> None:
        if tell and cur.route not in self._failed:
            self._send(cur.route, dropped(cur.session, why, go))
        log.warning("the standby at %s is dropped: %s", cur.serves.shown, why)
        self.current = None
        self._replies = []
        self._sealed.clear()
        self._failed.discard(cur.route)
        if cur.state == "attached":
            self.last_dropped = cur.key
            self._gave_up = cur.acked if self._gave_up is None else min(self._gave_up,
                                                                        cur.acked)
            for listener in self.events.dropped:
                listener(why, cur.acked)

    def release(self, go: PeerAddress | None, why: str, standby: bool = False) -> None:
        """Every peer waiting (and, with ``standby``, the standby too: a stand-down) told the
        party goes elsewhere (``go``): none of them takes this host's place when it closes."""
        where = "nowhere" if go is None else f"{go['address']}:{go['port']}"
        for other in self.waiting.values():
            self._send(other.route, dropped(other.session, why, go))
            log.info("the waiting peer %s is told the party goes to %s",
                     fingerprint(other.key), where)
        self.waiting.clear()
        cur = self.current
        if standby and cur is not None:
            self.current = None
            self._send(cur.route, dropped(cur.session, why, go))
            log.info("the standby at %s is told the party goes to %s", cur.serves.shown, where)

    def hand_over(self, epoch: int) -> bool:
        """Graceful: everything sent, then ``takeover`` (the standby serves as ``epoch``
        from the last record). False when no standby is attached."""
        cur = self.current
        if cur is None or cur.state != "attached":
            return False
        self.pump()
        return self._send(cur.route, takeover(cur.session, epoch, self.stream.seq))

    @property
    def attached(self) -> Join | None:
        cur = self.current
        return cur if cur is not None and cur.state == "attached" else None

    def hold_copies(self, seconds: float, why: str) -> None:
        """No standby taken for ``seconds``, or until ``release_copies``: a host that took
        over without being sure may yet have its old host's rows handed over and start again
        from the files they make, and a copy sent before that is lost: a second copy for one
        fault. Peers wait meanwhile; the one that waited longest is taken after."""
        self.copies_held_until = self.clock.now() + seconds
        self.copies_held_why = why

    def release_copies(self) -> None:
        """The old host is gone for good: a standby is taken at the next turn."""
        self.copies_held_until = 0.0

    def _word(self) -> PeerAddress | None:
        cur = self.attached
        return None if cur is None else Attached(cur.serves, cur.key).wire()

    def status(self) -> StandbyStatus:
        """What the lobby and the console show: whether a standby is attached, where, how far
        behind it is (records not yet acknowledged, and since when the oldest of them was sent,
        in milliseconds), and how many peers wait."""
        cur = self.current
        stream = self.stream
        if cur is None:
            return {"state": "none", "serves": None, "behind": None, "lag_ms": 0.0,
                    "waiting": len(self.waiting)}
        behind = max(0, stream.filled - cur.acked)
        while cur.batches and cur.batches[0][0] <= cur.acked:
            cur.batches.popleft()
        lag = (self.clock.now() - cur.batches[0][1]) * 1000 if cur.batches and behind else 0.0
        return {"state": cur.state, "serves": cur.serves.shown, "behind": behind,
                "lag_ms": round(lag, 1), "waiting": len(self.waiting)}

    # --- as a durability source (gate.Durability) --------------------------------------------

    def ticket(self) -> int:
        """The newest record, once the records collected are sent (0 while no standby is
        past its snapshot: what is told then does not wait for one). The gate asks as it
        seals, after the host's writes were handed to the store: the replies remembered
        since are sealed with it."""
        self._seal()
        self.pump()
        cur = self.current
        if cur is None or cur.state not in ("catching", "attached"):
            return 0
        return self.stream.seq

    def reached(self) -> int:
        cur = self.current
        if cur is not None and cur.state in ("catching", "attached"):
            return cur.acked
        return self.stream.seq

    def fds(self) -> frozenset[int]:
        return frozenset()          # acknowledgements come on the host's own socket

    def woken(self) -> None:
        pass

    def drain(self) -> None:
        pass

    def gave_up(self) -> int | None:
        out, self._gave_up = self._gave_up, None
        return out

    def close(self) -> None:
        pass


def _split(batch: list[Record]) -> list[list[Record]]:
    """Records in messages of at most ``RECORDS_PER_MESSAGE`` and about
    ``BYTES_PER_MESSAGE``."""
    out: list[list[Record]] = []
    part: list[Record] = []
    used = 0
    for record in batch:
        size = weight(record[2])
        if part and (len(part) >= RECORDS_PER_MESSAGE or used + size > BYTES_PER_MESSAGE):
            out.append(part)
            part, used = [], 0
        part.append(record)
        used += size
    if part:
        out.append(part)
    return out
