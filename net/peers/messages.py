"""The shapes of the messages between the peers of a party (docs/protocol.md, "Between the
host and its peers"): what a peer says (``StandbyHelloMessage``, ``StandbyAckMessage``) and what
a host says to a peer (``...Push``; ``FromHost``, the peer's reading of any of them), so mypy
sees every field a builder writes and a reader reads. net/peers/peer.py builds them and checks
them on arrival; ``tests/net/test_peer_message_types.py`` holds them to what a real host and a
real peer send.

Each declares its ``type`` as a literal: a reader that compares ``msg["type"]`` with one of
``peer.py``'s names has the message as that shape from then on.

Must not know about: sockets, tables, players, SQLite.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from cardparty.net.peers.replica import Record
from cardparty.net.wire.protocol import ErrorReply, NotHostReply, PeerAddress

#: A column's value in a row of a snapshot, as SQLite keeps it.
Value = int | float | str | bytes | None
#: A reply the host remembers by request id, as ``records`` carries it: the player's handle,
#: the request id, the request's type, the reply's frame, the table it was about ("" none).
Remembered = list[str | int | bytes]


# --- what a peer says ---------------------------------------------------------------------------

class StandbyHelloMessage(TypedDict):
    """``standby_hello``: where the peer serves players after a takeover (``host:port``), the
    newest epoch of the party it knew (0 none), this join's session, the stream its copy
    follows ("" none) and the last record it holds (-1 none), and the address it reached this
    host at."""

    type: Literal["standby_hello"]
    v: int
    serves: str
    epoch: int
    session: int
    stream: str
    seq: int
    reach: str
    client: str


class StandbyAckMessage(TypedDict):
    """``standby_ack``: the highest record the peer committed (-1 none) in this session; it
    takes over now (``took``); it has the rows a host of a lower epoch handed it
    (``healed``)."""

    type: Literal["standby_ack"]
    v: int
    seq: int
    session: int
    took: NotRequired[bool]
    healed: NotRequired[bool]


# --- what a host says to a peer -----------------------------------------------------------------

class StandbyWelcomePush(TypedDict):
    """``standby_welcome``: the host (its name) took the peer as its standby; ``files``: a
    snapshot of these follows, as of record ``seq`` of ``stream`` (None: the records after the
    peer's own follow); ``heal``: a host of a lower epoch hands its rows over."""

    type: Literal["standby_welcome"]
    v: int
    session: int
    epoch: int
    host: str
    stream: str
    seq: int
    files: list[str] | None
    heal: NotRequired[bool]


class SnapshotPush(TypedDict):
    """``snapshot``: one piece of a snapshot, rows of one table of one file (``host`` or
    ``economy``), each row its columns in declared order."""

    type: Literal["snapshot"]
    v: int
    session: int
    file: str
    table: str
    rows: list[list[Value]]


class SnapshotEndPush(TypedDict):
    """``snapshot_end``: every piece of the snapshot as of record ``seq`` was sent."""

    type: Literal["snapshot_end"]
    v: int
    session: int
    seq: int


class RecordsPush(TypedDict):
    """``records``: records of ``stream`` in order (net/peers/replica.py's ``Record``s; each
    an array on the wire) and the replies the host remembers that they hold."""

    type: Literal["records"]
    v: int
    stream: str
    records: list[Record]
    replies: list[Remembered]


class BeatPush(TypedDict):
    """``beat``: the host is there; the newest record of its stream."""

    type: Literal["beat"]
    v: int
    stream: str
    seq: int


class StandbyAttachedPush(TypedDict):
    """``standby_attached``: the standby has everything anybody was told (up to ``seq``)."""

    type: Literal["standby_attached"]
    v: int
    session: int
    seq: int


class StandbyWaitPush(TypedDict):
    """``standby_wait``: another peer is the standby (where it serves and its key; None: none
    attached yet): this one waits."""

    type: Literal["standby_wait"]
    v: int
    session: int
    standby: PeerAddress | None


class TakeoverPush(TypedDict):
    """``takeover``: a hand-over: serve now as ``epoch``, from record ``seq``."""

    type: Literal["takeover"]
    v: int
    session: int
    epoch: int
    seq: int


class StandbyDroppedPush(TypedDict):
    """``standby_dropped``: the host gave this join up (``why``); ``go``: the party is served
    there now."""

    type: Literal["standby_dropped"]
    v: int
    session: int
    why: str
    go: NotRequired[PeerAddress]


#: What a host says to a peer besides an error.
HostPush = (StandbyWelcomePush | SnapshotPush | SnapshotEndPush | RecordsPush | BeatPush
            | StandbyAttachedPush | StandbyWaitPush | TakeoverPush | StandbyDroppedPush)
#: What a host sends a peer.
ToPeer = HostPush | ErrorReply
#: A host's message as a peer reads it (``peer.read_from_host``): an error may be another
#: peer's ``not_host``, naming the host it stands by.
FromHost = HostPush | NotHostReply
