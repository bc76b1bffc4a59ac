"""The messages between a host and its standby peer (docs/protocol.md, "A standby").

Owns: the message types a standby and its host send each other, their fields and how each is
checked on arrival (``read_hello``, ``read_ack``, ``read_from_host``), the timing both sides
keep (``BEAT``, ``BOUND``, ``LOST``), the bounds of a frame from a host to its standby
(``PEER_LIMITS``: snapshots and records are larger than anything a player is sent), and where
a standby says it will serve players (``serves``). The standby connects to its host's ROUTER
like a player, over CURVE with a key pair of its own; the host lets only the key its operator
approved speak these messages (net/host/standby.py).

Must not know about: sockets, tables, players, SQLite (records are net/replica.py's).
"""

from __future__ import annotations

from typing import Any

from cardparty.net.address import AddressError, HostAddress, read_address
from cardparty.net.protocol import ProtocolError, decode, message
from cardparty.net.replica import (
    FILE_NAMES,
    MAX_FILE,
    Record,
    ReplicaError,
    read_records,
    wire_records,
)

#: Seconds between two messages at the least, each way, while nothing else is said: the host
#: sends ``beat``, the standby ``standby_ack``.
BEAT = 0.1
#: Seconds a host waits for its standby's acknowledgement before it drops it and goes on
#: alone (issue 29: "a standby that stops acknowledging within a bound is dropped").
BOUND = 1.0
#: Seconds of silence after which a standby takes its host for lost (a closed connection is
#: seen at once).
LOST = 1.0
#: The largest frame a standby reads from its host (a snapshot's piece is 256 KiB; a batch of
#: records holds the rows of a flush, whole tables' saves among them).
MAX_PEER_FRAME = 32 * 1024 * 1024
PEER_LIMITS: dict[str, int] = {
    "max_buffer_size": MAX_PEER_FRAME, "max_str_len": 16 * 1024 * 1024,
    "max_bin_len": 16 * 1024 * 1024, "max_array_len": 1024 * 1024, "max_map_len": 64,
    "max_ext_len": 0,
}

#: What a standby sends (besides the records it is sent, nothing it says changes the host).
HELLO, ACK = "standby_hello", "standby_ack"
#: What a host sends its standby.
WELCOME, PIECE, SNAPSHOT_END, ATTACHED, RECORDS, BEAT_MSG, TAKEOVER, DROPPED = (
    "standby_welcome", "snapshot", "snapshot_end", "standby_attached", "records", "beat",
    "takeover", "standby_dropped")
FROM_HOST = frozenset({WELCOME, PIECE, SNAPSHOT_END, ATTACHED, RECORDS, BEAT_MSG, TAKEOVER,
                       DROPPED, "error"})


class PeerError(ValueError):
    """A peer's message that does not say what it must: one line."""


# --- the standby's messages ------------------------------------------------------------------

def hello(serves: HostAddress, epoch: int) -> dict[str, Any]:
    """A standby's hello: where it will serve players after a takeover, and the newest epoch
    of this host it has known (0: none)."""
    return message(HELLO, serves=serves.shown, epoch=epoch, client="cardparty standby")


def read_hello(raw: dict[str, Any]) -> tuple[HostAddress, int]:
    """(where the standby will serve, the epoch it knew) of a ``standby_hello``;
    PeerError otherwise."""
    serves, epoch = raw.get("serves"), raw.get("epoch", 0)
    if not isinstance(serves, str) or len(serves) > 300:
        raise PeerError("standby_hello: serves must be an address (host:port)")
    try:
        where = read_address(serves)
    except AddressError as exc:
        raise PeerError(f"standby_hello: serves {exc.message}") from None
    if isinstance(epoch, bool) or not isinstance(epoch, int) or not 0 <= epoch < 2**62:
        raise PeerError("standby_hello: epoch must be a whole number")
    return where, epoch


def ack(seq: int, took: bool = False, healed: bool = False) -> dict[str, Any]:
    """The highest record the standby has committed (also its heartbeat); ``took``: it takes
    over now, as the host's ``takeover`` said (the host closes its socket only after this);
    ``healed``: a host of a higher epoch has the files a lower one handed it (a heal)."""
    msg = message(ACK, seq=seq)
    if took:
        msg["took"] = True
    if healed:
        msg["healed"] = True
    return msg


def read_ack(raw: dict[str, Any]) -> int:
    seq = raw.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2**62:
        raise PeerError("standby_ack: seq must be a whole number")
    return seq


# --- the host's messages ---------------------------------------------------------------------

def welcome(epoch: int, name: str, seq: int, sizes: dict[str, int],
            heal: bool = False) -> dict[str, Any]:
    """The host took its standby: a snapshot taken after record ``seq`` of files of these
    sizes follows, then the records after it. ``heal``: a host of a lower epoch hands its
    files to one of a higher epoch, which called it (docs/protocol.md, "No split brain")."""
    msg = message(WELCOME, epoch=epoch, host=name, seq=seq, sizes=sizes)
    if heal:
        msg["heal"] = True
    return msg


def piece(name: str, offset: int, data: bytes) -> dict[str, Any]:
    return message(PIECE, file=name, offset=offset, data=data)


def records(batch: list[Record], replies: list[list[Any]] | None = None) -> dict[str, Any]:
    """A batch of records (net/replica.py's wire form) and, beside them, the replies the host
    remembers by request id that they hold (so a request sent again after a takeover is
    answered, never carried out twice)."""
    return message(RECORDS, records=wire_records(batch), replies=replies or [])


def read_from_host(frame: bytes) -> dict[str, Any]:
    """A frame from the host, decoded with the peer's bounds and checked for what its type
    must carry (records as ``Record``s in ``records``); PeerError otherwise."""
    try:
        msg = decode(frame, PEER_LIMITS)
    except ProtocolError as exc:
        raise PeerError(f"from the host: {exc.message}") from None
    kind = msg["type"]
    if kind not in FROM_HOST:
        raise PeerError(f"from the host: no message {kind!r} for a standby")
    if kind == WELCOME:
        sizes = msg.get("sizes")
        if (not isinstance(msg.get("epoch"), int) or not isinstance(msg.get("seq"), int)
                or not isinstance(sizes, dict) or not all(
                    n in FILE_NAMES and isinstance(s, int) and 0 <= s <= MAX_FILE
                    for n, s in sizes.items())):
            raise PeerError("standby_welcome: epoch, seq and sizes are required")
    elif kind == PIECE:
        if (msg.get("file") not in FILE_NAMES or not isinstance(msg.get("offset"), int)
                or not isinstance(msg.get("data"), bytes)):
            raise PeerError("snapshot: file, offset and data are required")
    elif kind == RECORDS:
        try:
            msg["records"] = read_records(msg.get("records"))
        except ReplicaError as exc:
            raise PeerError(str(exc)) from None
        replies = msg.get("replies", [])
        if not isinstance(replies, list):
            raise PeerError("records: replies must be a list")
    elif kind == TAKEOVER and (not isinstance(msg.get("epoch"), int)
                               or not isinstance(msg.get("seq"), int)):
        raise PeerError("takeover: epoch and seq are required")
    return msg
