"""The messages between the peers of a party: a host, its standby and the peers that wait
(docs/protocol.md, "A standby peer and takeovers").

Owns: the message types peers send each other, how each is built (its shape is
net/peers/messages.py's) and checked on arrival (``read_hello``, ``read_ack``,
``read_from_host``, which gives the shape of the type it checked), the timing both sides keep
(``BEAT``, ``BOUND``, ``LOST``), the bounds of a frame from a host to a peer (``PEER_LIMITS``:
snapshots and records are larger than anything a player is sent), and where a peer says it
will serve players (``serves``). A peer connects to its host's ROUTER like a player, over
CURVE with a key pair of its own; the host lets only the keys of its party speak these
messages (net/host/standby.py).

Sessions: every ``standby_hello`` a peer sends carries a new ``session`` number, and every
message the host sends about that join carries it back. A peer reads the host's word about a
join (a welcome, a snapshot, ``standby_attached``, ``takeover``, ``standby_dropped``,
``standby_wait``) only for its current session: a drop that crossed its new hello on the way
is old news, never a reason to say hello again. Records and beats name the stream they belong
to instead: they are the host's data whatever the session, and a copy that follows that stream
applies them (a record it has is skipped).

Must not know about: sockets, tables, players, SQLite (records are net/peers/replica.py's).
"""

from __future__ import annotations

from typing import Any, Final, cast

from cardparty.net.peers.messages import (
    BeatPush,
    FromHost,
    RecordsPush,
    Remembered,
    SnapshotEndPush,
    SnapshotPush,
    StandbyAckMessage,
    StandbyAttachedPush,
    StandbyDroppedPush,
    StandbyHelloMessage,
    StandbyWaitPush,
    StandbyWelcomePush,
    TakeoverPush,
    Value,
)
from cardparty.net.peers.replica import Record, ReplicaError, read_records
from cardparty.net.trust.keys import public_key
from cardparty.net.wire.address import AddressError, HostAddress, read_address
from cardparty.net.wire.protocol import PROTOCOL, PeerAddress, ProtocolError, decode

#: Seconds between two messages at the least, each way, while nothing else is said: the host
#: sends ``beat``, a peer ``standby_ack``.
BEAT = 0.1
#: Seconds a host waits for its standby's acknowledgement before it drops it and goes on
#: alone (or with the next peer waiting).
BOUND = 1.0
#: Seconds of silence after which a peer takes its host for lost (a closed connection is seen
#: at once).
LOST = 1.0
#: Seconds a host keeps a waiting peer it does not hear from.
WAIT_SILENCE = 5.0
#: The largest frame a peer reads from its host (a snapshot's piece is 256 KiB; a batch of
#: records holds the rows of a flush, whole tables' saves among them).
MAX_PEER_FRAME = 32 * 1024 * 1024
PEER_LIMITS: dict[str, int] = {
    "max_buffer_size": MAX_PEER_FRAME, "max_str_len": 16 * 1024 * 1024,
    "max_bin_len": 16 * 1024 * 1024, "max_array_len": 1024 * 1024, "max_map_len": 64,
    "max_ext_len": 0,
}

#: What a peer sends (besides acknowledging the records it is sent, nothing it says changes
#: the host).
HELLO: Final = "standby_hello"
ACK: Final = "standby_ack"
#: What a host sends a peer.
WELCOME: Final = "standby_welcome"
PIECE: Final = "snapshot"
SNAPSHOT_END: Final = "snapshot_end"
ATTACHED: Final = "standby_attached"
RECORDS: Final = "records"
BEAT_MSG: Final = "beat"
TAKEOVER: Final = "takeover"
DROPPED: Final = "standby_dropped"
WAIT: Final = "standby_wait"
FROM_HOST = frozenset({WELCOME, PIECE, SNAPSHOT_END, ATTACHED, RECORDS, BEAT_MSG, TAKEOVER,
                       DROPPED, WAIT, "error"})
#: The host's word about one join: read only for the peer's current session.
SESSION_BOUND = frozenset({WELCOME, PIECE, SNAPSHOT_END, ATTACHED, TAKEOVER, DROPPED, WAIT})


class PeerError(ValueError):
    """A peer's message that does not say what it must: one line."""


def _whole(value: Any, low: int = 0) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value < 2**62


def _address(raw: Any, field: str) -> HostAddress:
    if not isinstance(raw, str) or len(raw) > 300:
        raise PeerError(f"{field} must be an address (host:port)")
    try:
        return read_address(raw)
    except AddressError as exc:
        raise PeerError(f"{field}: {exc.message}") from None


# --- a peer's messages --------------------------------------------------------------------------

def hello(serves: HostAddress, epoch: int, session: int, stream: str = "", seq: int = -1,
          reach: str = "") -> StandbyHelloMessage:
    """A peer's hello: where it will serve players after a takeover, the newest epoch of the
    party it has known (0: none), this join's session, the stream its copy follows and the
    last record it holds (-1: no copy), and the address it reached this host at (so that the
    host knows where its party finds it)."""
    return {"type": HELLO, "v": PROTOCOL, "serves": serves.shown, "epoch": epoch,
            "session": session, "stream": stream, "seq": seq, "reach": reach,
            "client": "cardparty standby"}


class Hello:
    """A ``standby_hello`` as the host reads it."""

    __slots__ = ("serves", "epoch", "session", "stream", "seq", "reach")

    def __init__(self, serves: HostAddress, epoch: int, session: int, stream: str, seq: int,
                 reach: HostAddress | None) -> None:
        self.serves, self.epoch, self.session = serves, epoch, session
        self.stream, self.seq, self.reach = stream, seq, reach


def read_hello(raw: StandbyHelloMessage) -> Hello:
    """A ``standby_hello`` (as decoded: its fields not yet checked) checked; PeerError
    otherwise."""
    serves = _address(raw.get("serves"), "standby_hello: serves")
    epoch, session, seq = raw.get("epoch", 0), raw.get("session", 0), raw.get("seq", -1)
    stream, reach = raw.get("stream", ""), raw.get("reach", "")
    if not _whole(epoch):
        raise PeerError("standby_hello: epoch must be a whole number")
    if not _whole(session):
        raise PeerError("standby_hello: session must be a whole number")
    if not (_whole(seq) or seq == -1):
        raise PeerError("standby_hello: seq must be a whole number or -1")
    if not isinstance(stream, str) or len(stream) > 64:
        raise PeerError("standby_hello: stream must be a short text")
    where = _address(reach, "standby_hello: reach") if reach else None
    return Hello(serves, epoch, session, stream, seq, where)


def ack(seq: int, session: int, took: bool = False, healed: bool = False
        ) -> StandbyAckMessage:
    """The highest record the peer has committed (also its heartbeat; -1: none); ``took``: it
    takes over now, as the host's ``takeover`` said (the host closes its socket only after
    this); ``healed``: a host of a higher epoch has the files a lower one handed it (a heal)."""
    msg: StandbyAckMessage = {"type": ACK, "v": PROTOCOL, "seq": seq, "session": session}
    if took:
        msg["took"] = True
    if healed:
        msg["healed"] = True
    return msg


def read_ack(raw: StandbyAckMessage) -> tuple[int, int]:
    """(seq, session) of a ``standby_ack`` (as decoded), checked; PeerError otherwise."""
    seq, session = raw.get("seq"), raw.get("session", 0)
    if not (_whole(seq) or seq == -1):
        raise PeerError("standby_ack: seq must be a whole number")
    if not _whole(session):
        raise PeerError("standby_ack: session must be a whole number")
    assert isinstance(seq, int) and isinstance(session, int)
    return seq, session


# --- the host's messages ------------------------------------------------------------------------

def welcome(session: int, epoch: int, name: str, stream: str, seq: int,
            files: list[str] | None, heal: bool = False) -> StandbyWelcomePush:
    """The host took this peer as its standby. ``files``: a snapshot of these files after
    record ``seq`` of ``stream`` follows, then the records after it; None: no snapshot, the
    records after the peer's own ``seq`` follow (it goes on from its copy). ``heal``: a host
    of a lower epoch hands its rows to one of a higher epoch, which called it
    (docs/protocol.md, "No split brain")."""
    msg: StandbyWelcomePush = {"type": WELCOME, "v": PROTOCOL, "session": session,
                               "epoch": epoch, "host": name, "stream": stream, "seq": seq,
                               "files": files}
    if heal:
        msg["heal"] = True
    return msg


def piece(session: int, file: str, table: str, rows: list[list[Value]]) -> SnapshotPush:
    """One piece of a snapshot: rows of ``table`` of ``file``."""
    return {"type": PIECE, "v": PROTOCOL, "session": session, "file": file, "table": table,
            "rows": rows}


def snapshot_end(session: int, seq: int) -> SnapshotEndPush:
    """Every piece of the snapshot as of record ``seq`` was sent."""
    return {"type": SNAPSHOT_END, "v": PROTOCOL, "session": session, "seq": seq}


def records(stream: str, batch: list[Record], replies: list[Remembered] | None = None
            ) -> RecordsPush:
    """A batch of records of ``stream`` and, beside them, the replies the host remembers by
    request id that they hold (so a request sent again after a takeover is answered, never
    carried out twice). A record and its changes are tuples: msgpack packs them as the arrays
    net/peers/replica.py's ``read_records`` reads, as it packs lists."""
    return {"type": RECORDS, "v": PROTOCOL, "stream": stream, "records": batch,
            "replies": replies or []}


def beat(stream: str, seq: int) -> BeatPush:
    """The host is there: the newest record of its stream."""
    return {"type": BEAT_MSG, "v": PROTOCOL, "stream": stream, "seq": seq}


def standby_attached(session: int, seq: int) -> StandbyAttachedPush:
    """The standby has everything anybody was told, up to record ``seq``."""
    return {"type": ATTACHED, "v": PROTOCOL, "session": session, "seq": seq}


def takeover(session: int, epoch: int, seq: int) -> TakeoverPush:
    """A hand-over: the standby serves now as ``epoch``, from record ``seq``."""
    return {"type": TAKEOVER, "v": PROTOCOL, "session": session, "epoch": epoch, "seq": seq}


def wait(session: int, standby: PeerAddress | None) -> StandbyWaitPush:
    """This peer waits: another is the host's standby (``standby``: where it serves once it
    takes over, and its key; None: none yet). A peer that loses the host looks for it there."""
    return {"type": WAIT, "v": PROTOCOL, "session": session, "standby": standby}


def dropped(session: int, why: str, go: PeerAddress | None = None) -> StandbyDroppedPush:
    """The host gave this join up (``why``); ``go``: the party is served there now (a hand-over,
    a stand-down): join it."""
    msg: StandbyDroppedPush = {"type": DROPPED, "v": PROTOCOL, "session": session, "why": why}
    if go is not None:
        msg["go"] = go
    return msg


def read_go(raw: object) -> tuple[HostAddress, bytes] | None:
    """Where a ``go`` or a ``standby`` field points (address, key), or None."""
    if not isinstance(raw, dict):
        return None
    try:
        where = read_address(f"{raw['address']}:{raw['port']}")
        return where, public_key(str(raw["key"]))
    except (KeyError, AddressError, ValueError, TypeError):
        return None


def read_from_host(frame: bytes) -> FromHost:
    """A frame from the host, decoded with the peer's bounds and checked for what its type
    must carry (records as ``Record``s, each change checked against the declared schema), as
    the shape of its type; PeerError otherwise."""
    try:
        msg = decode(frame, PEER_LIMITS)
    except ProtocolError as exc:
        raise PeerError(f"from the host: {exc.message}") from None
    kind = msg["type"]
    if kind not in FROM_HOST:
        raise PeerError(f"from the host: no message {kind!r} for a standby")
    if kind in SESSION_BOUND and not _whole(msg.get("session")):
        raise PeerError(f"{kind}: session is required")
    if kind == WELCOME:
        files = msg.get("files")
        if (not _whole(msg.get("epoch")) or not _whole(msg.get("seq"))
                or not isinstance(msg.get("stream"), str)
                or not (files is None or isinstance(files, list))):
            raise PeerError("standby_welcome: epoch, stream, seq and files are required")
    elif kind == PIECE:
        if (not isinstance(msg.get("file"), str) or not isinstance(msg.get("table"), str)
                or not isinstance(msg.get("rows"), list)):
            raise PeerError("snapshot: file, table and rows are required")
    elif kind == RECORDS:
        if not isinstance(msg.get("stream"), str):
            raise PeerError("records: stream is required")
        try:
            msg["records"] = read_records(msg.get("records"))
        except ReplicaError as exc:
            raise PeerError(str(exc)) from None
        if not isinstance(msg.get("replies", []), list):
            raise PeerError("records: replies must be a list")
    elif kind == TAKEOVER and (not _whole(msg.get("epoch")) or not _whole(msg.get("seq"))):
        raise PeerError("takeover: epoch and seq are required")
    return cast("FromHost", msg)
