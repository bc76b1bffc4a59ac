"""The host's side of its standby peer (docs/protocol.md, "A standby"; the zguide's Binary
Star, the primary's side).

Owns: ``StandbyLink``: which key may be this host's standby (the one its operator approved:
``--standby-key FINGERPRINT``), the standby's connection (its route on the host's ROUTER),
the snapshot it is sent when it says hello and the records after it (net/replica.py's
``Stream``), its acknowledgements, and its state: syncing (the snapshot on its way: what is
told does not wait for it), catching up (its copy is written: what is told now waits for it
too, and it is not yet known to have all that was told before), attached (it has everything
anybody was told: it may take over, and players are told of it), dropped (silent for
``peer.BOUND``: the host goes on alone).
As a durability source of the host's gate (``gate.Durability``) its ticket is the stream's
newest record and what it has reached is the standby's acknowledgement; cutting the records
at each ticket is what sends them, so the records of one flush go in one message, with the
replies remembered by request id that the flush holds (``remembered``).

Attaching and dropping are told through the ``on_attached`` and ``on_dropped`` callbacks
(the host tells its players); what a drop means for what waits to be told is the gate's
(``CommitGate.withdraw``).

Must not know about: tables, players (a reply is a handle, an id and bytes), the economy,
when frames go (the gate).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardparty.core.i18n import Msg
from cardparty.net.address import HostAddress
from cardparty.net.keys import fingerprint, same_fingerprint
from cardparty.net.peer import (
    ACK,
    ATTACHED,
    BEAT,
    BEAT_MSG,
    BOUND,
    DROPPED,
    HELLO,
    SNAPSHOT_END,
    TAKEOVER,
    PeerError,
    piece,
    read_ack,
    read_hello,
    records,
    welcome,
)
from cardparty.net.protocol import ProtocolError, decode, encode, error, message
from cardparty.net.replica import CHUNK, Stream

log = logging.getLogger("cardparty.host")

#: Seconds a standby may take to write its snapshot and catch up before it is given up (a
#: standby that never gets there must not make the stream collect for ever).
CATCH_UP = 30.0
#: Records a standby may be behind while it catches up before it is given up.
MAX_BEHIND = 200_000

#: How a link sends a frame to a route at once, outside the gate: False when it cannot.
Send = Callable[[bytes, bytes], bool]


@dataclass(frozen=True, slots=True)
class Attached:
    """The standby players are told of: where it serves, its key (Z85)."""

    serves: HostAddress
    key: bytes

    def wire(self) -> dict[str, Any]:
        return {"address": self.serves.host, "port": self.serves.port,
                "key": self.key.decode()}


class StandbyLink:
    """See the module docstring. ``approved``: the fingerprint (or whole key) the host's
    operator approved (None: no standby is taken). ``send`` writes a frame to a route at
    once. ``epoch``: this host's generation (net/store.py keeps it)."""

    def __init__(self, stream: Stream | None, approved: str | None, send: Send, epoch: int,
                 name: str, clock: Callable[[], float] = time.monotonic, *,
                 bound: float = BOUND, beat: float = BEAT) -> None:
        self.stream = stream
        self.approved = approved
        self.send = send
        self.epoch = epoch
        self.name = name
        self.clock = clock
        self.bound = bound
        self.beat = beat
        self.on_attached: Callable[[Attached], None] = lambda a: None
        #: told the reason and the last record the standby acknowledged
        self.on_dropped: Callable[[str, int], None] = lambda why, acked: None
        #: a host of a higher epoch called (the standby took over, the link was cut, and
        #: they meet again): its route, key, address and epoch (the heal: this host yields)
        self.on_higher: Callable[[bytes, bytes, HostAddress, int], None] = (
            lambda route, key, serves, epoch: None)
        #: the host of the higher epoch has this host's files (``standby_ack`` ``healed``)
        self.healed = False
        #: "" (none), "wanted" (a hello to answer at the next turn), "syncing", "catching",
        #: "attached"
        self.state = ""
        self.route: bytes | None = None
        self.key: bytes | None = None
        self.serves: HostAddress | None = None
        self.acked = 0
        self.heard = 0.0
        self.since = 0.0
        self._snapshot_seq = 0
        #: the standby said it takes over (after ``hand_over``)
        self.took = False
        #: the newest record something told without waiting for the standby may tell of
        self._told = 0
        self._last_sent = 0.0
        self._replies: list[list[Any]] = []
        #: (the last record of a batch, when it was sent), the oldest not yet acknowledged
        #: first: how far behind the standby is in time
        self._sent: deque[tuple[int, float]] = deque()
        #: why the standby could not be sent to (dropped at the next turn, not in the middle
        #: of a seal)
        self._failed: str | None = None
        #: keys already refused, each logged once; each key judged standby or not
        self._refused: set[bytes] = set()
        self._judged: dict[bytes, bool] = {}

    # --- who may speak -----------------------------------------------------------------------

    def is_standby(self, user: bytes | None) -> bool:
        """Whether a message from the connection ZeroMQ authenticated as ``user`` is the
        standby's: its key is the approved one (each key is judged once)."""
        if user is None or self.approved is None:
            return False
        known = self._judged.get(user)
        if known is None:
            try:
                known = same_fingerprint(self.approved, fingerprint(user)) or (
                    self.approved.encode() == user)
            except ValueError:
                known = False
            if len(self._judged) >= 4096:
                self._judged.clear()
            self._judged[user] = known
        return known

    @staticmethod
    def refusal(link: StandbyLink | None, user: bytes | None) -> dict[str, Any]:
        """The reply to a ``standby_hello`` from a key that is not the standby's (``link``:
        None on a host that takes no standby)."""
        if link is not None and user is not None and user not in link._refused and len(
                link._refused) < 64:
            link._refused.add(user)
            log.warning("a standby with key %s asked to join; this host takes only %s "
                        "(--standby-key)", fingerprint(user) if len(user) == 40 else "?",
                        link.approved or "none")
        why = (Msg("this host takes no standby (its operator starts it with --standby-key)")
               if link is None or link.approved is None else
               Msg("this host's operator did not approve your key as its standby"))
        if link is not None and link.stream is None:
            why = Msg("this host keeps nothing (no --data): it takes no standby")
        return error("not_standby", why, about=HELLO)

    # --- what the standby says ---------------------------------------------------------------

    def frame(self, route: bytes, user: bytes, body: bytes) -> None:
        """One frame from the standby's key."""
        now = self.clock()
        try:
            msg = decode(body)
            kind = msg["type"]
            if kind == HELLO:
                self._hello(route, user, msg, now)
            elif kind == ACK:
                if msg.get("healed") is True:
                    self.healed = True
                    return
                self._ack(route, read_ack(msg), now)
                if msg.get("took") is True and route == self.route:
                    self.took = True
        except (ProtocolError, PeerError) as exc:
            self.send(route, encode(error("bad_field", str(exc))))

    def _hello(self, route: bytes, user: bytes, msg: dict[str, Any], now: float) -> None:
        serves, epoch = read_hello(msg)
        if self.stream is None:
            self.send(route, encode(self.refusal(self, user)))
            return
        if epoch > self.epoch:
            # Not a standby: the host it became, of a later generation (module docstring of
            # net/heal.py). This host yields to it.
            self.on_higher(route, user, serves, epoch)
            return
        if self.state:
            self.drop("it said hello again" if route == self.route else
                      "another connection of it said hello")
        self.state, self.route, self.key, self.serves = "wanted", route, user, serves
        self.heard = self.since = now
        log.info("a standby (%s) joins, to serve at %s", fingerprint(user), serves.shown)

    def _ack(self, route: bytes, seq: int, now: float) -> None:
        if route != self.route or self.stream is None:
            return
        self.heard = now
        if seq > self.acked:
            self.acked = min(seq, self.stream.seq)
        if self.state == "syncing" and self.acked >= self._snapshot_seq:
            # The copy is written: from now on what is told waits for the standby too; it
            # is attached once it has what was told before (``_told``).
            self.state = "catching"
            self._told = self.stream.seq
        if self.state == "catching" and self.acked >= self._told:
            self.state = "attached"
            self._send(message(ATTACHED, seq=self.acked))
            log.info("the standby at %s is attached: nothing is told before it has it",
                     self.serves.shown if self.serves else "?")
            assert self.serves is not None and self.key is not None
            self.on_attached(Attached(self.serves, self.key))

    # --- the loop's turns --------------------------------------------------------------------

    def tick(self) -> None:
        """At each turn of the host's loop, after its writes were handed to the store (so a
        snapshot holds whole requests): a wanted snapshot sent, records cut and sent, a beat
        when quiet, and a standby silent for the bound dropped."""
        if not self.state:
            return
        if self._failed is not None:
            self.drop(self._failed)
            return
        now = self.clock()
        if self.state == "wanted":
            self._sync(now)
            return
        self.pump()
        if self.state in ("catching", "attached"):
            if now - self.heard > self.bound:
                self.drop(f"no acknowledgement for {now - self.heard:.1f} s")
                return
        elif now - self.since > CATCH_UP or (
                self.stream is not None and self.stream.seq - self.acked > MAX_BEHIND):
            self.drop("it did not catch up in time")
            return
        if now - self._last_sent >= self.beat and self.stream is not None:
            self._send(message(BEAT_MSG, seq=self.stream.seq))

    def _sync(self, now: float) -> None:
        assert self.stream is not None
        snap = self.stream.start()
        self._snapshot_seq = snap.seq
        self.acked = 0
        self._replies = []
        sizes = {n: len(d) for n, d in snap.files.items()}
        self.state = "syncing"
        self.since = now
        if not self._send(welcome(self.epoch, self.name, snap.seq, sizes)):
            return
        for name, offset, data in snap.chunks(CHUNK):
            if not self._send(piece(name, offset, data)):
                return
        self._send(message(SNAPSHOT_END, seq=snap.seq))

    def pump(self) -> None:
        """The records collected since the last cut sent (with the replies they hold)."""
        stream = self.stream
        if stream is None or self.state in ("", "wanted"):
            return
        batch = stream.cut()
        if batch or self._replies:
            replies, self._replies = self._replies, []
            self._send(records(batch, replies))
            if batch:
                sent = self._sent
                sent.append((batch[-1][0], self.clock()))
                while sent and (sent[0][0] <= self.acked or len(sent) > 4096):
                    sent.popleft()

    def _send(self, msg: dict[str, Any]) -> bool:
        """A message to the standby now; a standby that cannot take it (its queue is full:
        it stopped reading) is dropped."""
        if self.route is None:
            return False
        if self._failed is None and self.send(self.route, encode(msg)):
            self._last_sent = self.clock()
            return True
        if self.state and self._failed is None:
            self._failed = "it stopped reading"
        return False

    def remembered(self, token: str, rid: Any, kind: str, frame: bytes) -> None:
        """A reply the host remembers by request id: it goes with the next records."""
        if self.state:
            self._replies.append([token, rid, kind, frame])

    def drop(self, why: str) -> None:
        """The standby is given up: the host goes on alone (and says so, ``on_dropped``, when
        the standby was attached: only then may it have taken over, and only then were
        players told of it)."""
        was, acked = self.state, self.acked
        if self.route is not None and self._failed is None:
            self.send(self.route, encode(message(DROPPED, why=why)))
        log.warning("the standby is dropped: %s; this host goes on alone", why)
        self.state, self.route, self.serves = "", None, None
        self.key = None
        self._failed = None
        if self.stream is not None:
            self.stream.stop()
        self._replies = []
        if was == "attached":
            self.on_dropped(why, acked)

    def hand_over(self, epoch: int) -> bool:
        """Graceful: everything sent, then ``takeover`` (the standby serves as ``epoch``
        from the last record). False when no standby is attached."""
        if self.state != "attached" or self.stream is None:
            return False
        self.pump()
        return self._send(message(TAKEOVER, epoch=epoch, seq=self.stream.seq))

    @property
    def attached(self) -> bool:
        return self.state == "attached"

    def status(self) -> dict[str, Any]:
        """What the lobby and the console show: whether a standby is attached, where, and how
        far behind it is: records not yet acknowledged, and since when the oldest of them
        was sent (milliseconds)."""
        stream = self.stream
        behind = 0 if stream is None else stream.seq - self.acked
        lag = 0.0
        sent = self._sent
        while sent and sent[0][0] <= self.acked:
            sent.popleft()
        if sent and behind:
            lag = (self.clock() - sent[0][1]) * 1000
        return {"state": self.state or "none",
                "serves": self.serves.shown if self.serves else None,
                "behind": behind if self.state else None, "lag_ms": round(lag, 1)}

    # --- as a durability source (gate.Durability) --------------------------------------------

    def ticket(self) -> int:
        """The newest record, once the records collected are sent (0 while the snapshot is on
        its way: what is told then does not wait for the standby)."""
        self.pump()
        if self.state not in ("catching", "attached") or self.stream is None:
            return 0
        return self.stream.seq

    def reached(self) -> int:
        if self.state in ("catching", "attached"):
            return self.acked
        return 0 if self.stream is None else self.stream.seq

    def fds(self) -> frozenset[int]:
        return frozenset()          # acknowledgements come on the host's own socket

    def woken(self) -> None:
        pass

    def drain(self) -> None:
        pass

    def close(self) -> None:
        pass
