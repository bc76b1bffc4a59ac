"""The wire protocol: message types, the msgpack codec with its limits, and the schema check.

Owns: PROTOCOL (the version every message carries), the size and decode limits, the table of
message types a client may send with each field's type and bounds (``REQUESTS``), the error
codes (``ERRORS``) and the ``error`` reply's shape (``ErrorReply``, ``NotHostReply``), the
shapes of the host's word to its players about its succession (``PeerAddress``,
``SuccessionWord``, ``StandbyPush``, ``StandbyStatus``: a player's side reads them, and it
may not import the peers'), and ``encode``/``decode``/``check_request``. docs/protocol.md
documents every message and field; this module is its executable form and the two must agree.

Every message on the wire is ONE ZeroMQ frame holding ONE msgpack map with at least
``type`` (a short string) and ``v`` (the protocol version). Untrusted input is bounded twice:
ZeroMQ drops a frame larger than HARD_FRAME before it reaches Python (``zmq.MAXMSGSIZE``), a
frame larger than MAX_FRAME is answered ``too_big`` unread, and
msgpack is told the largest string, array and map it may build; ext types (msgpack's
extension escape hatch, e.g. timestamps) and binary blobs are refused from clients outright.
Anything malformed, unknown or out of bounds becomes a ProtocolError with an error code and a
sentence, which the host sends back as an ``error`` message: a bad message costs the sender
one reply and never the host.

Must not know about: any particular game, sockets (the host and the session own those),
terminals.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

import msgpack

from cardparty.core.bots import LEVELS, OLD_NAMES, canonical_level
from cardparty.core.economy.rewards import read_week
from cardparty.core.i18n import Msg
from cardparty.net.names.safetext import CHAT_MAX, TITLE_MAX, line_problem, name_problem, shown_name
from cardparty.net.wire.address import DEFAULT_PORT as DEFAULT_PORT  # the port hosts default to

if TYPE_CHECKING:
    from cardparty.net.wire.requests import Request

#: The protocol version: every message carries it as ``v``. A host refuses any other.
PROTOCOL = 1

#: The largest frame a host reads from a client; a larger one gets a ``too_big`` reply.
MAX_FRAME = 64 * 1024
#: ZeroMQ's MAXMSGSIZE on the host: a frame larger than this drops the connection unread.
HARD_FRAME = 1024 * 1024
#: The largest frame a client accepts from a host (views of big games, lists of tables).
MAX_HOST_FRAME = 4 * 1024 * 1024

#: msgpack limits for frames from clients: nothing in a request needs more.
CLIENT_LIMITS: dict[str, int] = {
    "max_buffer_size": MAX_FRAME, "max_str_len": 4096, "max_bin_len": 256,
    "max_array_len": 256, "max_map_len": 64, "max_ext_len": 0,
}
#: msgpack limits for frames from a host: trusted more, still bounded.
HOST_LIMITS: dict[str, int] = {
    "max_buffer_size": MAX_HOST_FRAME, "max_str_len": 1024 * 1024, "max_bin_len": 0,
    "max_array_len": 64 * 1024, "max_map_len": 4096, "max_ext_len": 0,
}

#: Every error code a host may send, with what it means (docs/protocol.md lists them too).
ERRORS: dict[str, str] = {
    "malformed": "the frame is not one msgpack map (or uses ext types, or is too deep)",
    "too_big": "the frame is larger than the host accepts",
    "frames": "a message must be exactly one frame",
    "version": "the message's protocol version is not the host's",
    "unknown_type": "no such message type",
    "bad_field": "a field is missing, of the wrong type, or out of bounds",
    "hello_first": "this connection has not said hello (or the host restarted)",
    "no_game": "no such game or variant is installed",
    "bad_table": "the table cannot be opened with these players, settings or variants",
    "no_table": "no such table",
    "no_seat": "no such seat, or no free seat",
    "seat_taken": "that seat is taken",
    "not_seated": "you have no seat at that table",
    "seated": "you already have a seat at that table",
    "not_open": "the table is no longer taking seats or bots (the game started)",
    "not_full": "the game cannot start: seats are empty",
    "not_ready": "the game cannot start: a seated player is not ready",
    "not_playing": "the table is not playing (not started, over, or broken)",
    "not_over": "another round is asked for once a round is over",
    "stale": "the move was made on an old view: the table has moved on",
    "no_move": "no move with that id in your list",
    "illegal": "the rules refuse the move (the message says why)",
    "game_failed": "the game's rules plugin failed; the table is stopped",
    "busy": "the host has too many tables or players",
    "slow_down": "the player sent more requests a second than a host reads from one player",
    "internal": "the host failed on this request (a bug); nothing was done",
    "replaced": "the same player said hello from another connection, which now has the seat",
    "not_invited": "only the creator and the players he invited may sit at a friends table",
    "not_creator": "only the table's creator may do that (bots at a friends table, remove, "
                   "close, strangers)",
    "too_many": "you have as many open tables as one player's key may have",
    "not_friends": "invitations are for friends tables; anyone may sit at an open table",
    "name_taken": "the name belongs to another player's key at this host (MO-1)",
    "testing_only": "a deal's seed and deck are chosen by the host, unless it runs for tests",
    "no_coins": "not enough coins for the stake or the item",
    "no_economy": "this host keeps no coins (it plays practice tables only)",
    "economy": "the economy refused the request (the message says why)",
    "practice": "a practice table is its creator and bots",
    "humans_only": "entry tables are for humans only: no bots",
    "too_fast": "more lobby chat lines than the host passes on from one player: wait a moment",
    "not_host": "this is a standby: its host still serves (or no player of it followed yet)",
    "not_standby": "the host takes no standby, or not this key as its standby",
    "held": "the table waits: a player of it may be playing it with the host's standby",
    "no_hints": "hints are given at practice tables and at friends tables whose creator "
                "turned them on",
    "hinting": "a hint for this seat is being worked out: its answer comes first",
    "no_event": "no such event",
    "not_organiser": "only an organiser the host's operator named creates events, and only "
                     "an event's organiser starts it or sets a round's deadline",
    "not_entered": "you are not entered in that event",
    "event_state": "the event's rules refuse it now (sign-ups closed, not started, over, or "
                   "a seat an event gave: the message says why)",
    "no_record": "no such record of a round you played or are at the table of",
    "no_replay": "the record cannot be replayed with the game plugins this host has",
    "not_leader": "another player leads the shared replay: take the lead first",
    "reviewing": "a review of yours is being worked out: its answer comes first",
    "no_undo": "moves are taken back at practice tables and at friends tables whose creator "
               "allowed it",
    "cannot_undo": "that move cannot be taken back (the message says why)",
    "undoing": "a request to take back a move waits for the table's answers",
    "not_asked": "nobody asked to take back a move at that table",
}


class ProtocolError(ValueError):
    """A message that cannot be accepted: ``code`` (one of ERRORS) and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERRORS, code
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


# --- the codec -------------------------------------------------------------------------------

_packers = threading.local()


#: A message as a part hands it over to be sent: its own TypedDict (``requests.py``,
#: ``replies.py``) or ``message``'s map. The codec, the outboxes and a handler's reply take
#: any; only the one who builds a message knows its fields.
Outgoing = Mapping[str, object]


def encode(message: Outgoing) -> bytes:
    """One message as one frame. Adds ``v`` when missing.

    Each thread keeps one Packer: ``msgpack.packb`` builds a new one per call, which was a
    tenth of the host's time per message. A pack that fails empties the Packer's buffer
    itself, so the next message starts clean."""
    if "v" not in message:
        message = {**message, "v": PROTOCOL}
    packer = getattr(_packers, "packer", None)
    if packer is None:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
    return packer.pack(message)


def pack(value: Any) -> bytes:
    """``value`` packed as ``encode`` packs it (the same Packer): a part of a frame built from
    parts (``map_frame``)."""
    packer = getattr(_packers, "packer", None)
    if packer is None:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
    return packer.pack(value)


def map_frame(pairs: int, *parts: bytes) -> bytes:
    """One frame of a map of ``pairs`` entries whose keys and values are already packed, in
    ``parts`` (``pack``ed maps without their header byte, see ``pairs_of``): the frame
    ``encode`` would give for the same map, but what many frames share is packed once."""
    head = bytes((0x80 | pairs,)) if pairs < 16 else b"\xde" + pairs.to_bytes(2, "big")
    return head + b"".join(parts)


def pairs_of(fields: Outgoing) -> bytes:
    """The packed entries of ``fields`` (at most 15) without the map's header: a part for
    ``map_frame``."""
    assert len(fields) < 16
    return pack(fields)[1:]


def array_of(items: list[bytes]) -> bytes:
    """A packed array of already packed ``items``."""
    n = len(items)
    head = bytes((0x90 | n,)) if n < 16 else b"\xdc" + n.to_bytes(2, "big")
    return head + b"".join(items)


def message(type_: str, **fields: Any) -> dict[str, Any]:
    """A message map: ``{"type": type_, "v": PROTOCOL, **fields}``.

    The one generic builder (its map is any message's): a message whose shape is declared
    is built as its own TypedDict instead (``ErrorReply``, ``replies.py``, the peers'
    ``messages.py``), so mypy sees its fields."""
    return {"type": type_, "v": PROTOCOL, **fields}


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError("ext types are not accepted")


def decode(frame: bytes, limits: dict[str, int] | None = None) -> dict[str, Any]:
    """The map in ``frame``, checked for size, shape, ``type`` and ``v``; ProtocolError if not.

    ``limits`` defaults to CLIENT_LIMITS (the host decoding a client's frame). The map is
    any map until its reader has checked its type (and gets it as that type's TypedDict,
    ``check_request``, ``peers.peer.read_from_host``): only its ``type`` and ``v`` are known.
    """
    limits = CLIENT_LIMITS if limits is None else limits
    most = limits["max_buffer_size"]
    if len(frame) > most:
        raise ProtocolError("too_big", f"a frame may hold at most {most} bytes, this one "
                                       f"holds {len(frame)}")
    try:
        data = msgpack.unpackb(frame, raw=False, strict_map_key=True, use_list=True,
                               ext_hook=_refuse_ext, timestamp=0,
                               max_str_len=limits["max_str_len"],
                               max_bin_len=limits["max_bin_len"],
                               max_array_len=limits["max_array_len"],
                               max_map_len=limits["max_map_len"],
                               max_ext_len=limits["max_ext_len"])
    except Exception as exc:  # msgpack raises many types for bad input; all mean the same
        raise ProtocolError("malformed", f"not a msgpack message ({type(exc).__name__})"
                            ) from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be a msgpack map")
    # msgpack's strict map keys allow strings and binary; binary is packed behind these
    # markers, so a frame without any holds no binary key (most frames: no walk at all).
    if (b"\xc4" in frame or b"\xc5" in frame or b"\xc6" in frame) and _binary_key(data):
        raise ProtocolError("malformed", "map keys must be strings")
    kind = data.get("type")
    if not isinstance(kind, str) or not 0 < len(kind) <= 32:
        raise ProtocolError("bad_field", "a message needs a type (a short string)")
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL:    # not 1.0, not true
        raise ProtocolError("version", f"this host speaks protocol {PROTOCOL}, "
                                       f"the message says {version!r}")
    return data


def _binary_key(data: object) -> bool:
    """Whether any map in ``data`` (a decoded value), however deep, has a key that is not a
    string."""
    stack: list[object] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(type(k) is str for k in item):
                return True
            stack.extend(v for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, dict | list))
    return False


# --- the schema of client requests ---------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Field:
    """One field of a request: a check (value -> normalised value or ValueError) and whether
    the field must be present. The check says the Python type of what it returns
    (``typed``): ``net/wire/requests.py``'s TypedDicts are written from these declarations
    (``python -m cardparty.net.wire.typegen``), and a test holds the two together."""

    check: Callable[[Any], Any]
    required: bool = False
    default: Any = None

    @property
    def type(self) -> str:
        """The field's type in a checked request: its check's, or None where it may be
        absent and has no default."""
        shape = wire_type(self.check)
        if not self.required and self.default is None and "None" not in shape.split(" | "):
            shape += " | None"
        return shape


Check = Callable[[Any], Any]


def typed(shape: str) -> Callable[[Check], Check]:
    """Say that a check returns values of the Python type ``shape`` (a type expression as
    ``requests.py`` writes it)."""
    def mark(check: Check) -> Check:
        check.wire_type = shape             # type: ignore[attr-defined]
        return check
    return mark


def wire_type(check: Check) -> str:
    """The Python type of what ``check`` returns (``typed``)."""
    shape = getattr(check, "wire_type", None)
    assert isinstance(shape, str), f"{check!r} says no type (typed)"
    return shape


def text(max_len: int, min_len: int = 0, nullable: bool = False) -> Callable[[Any], Any]:
    @typed("str | None" if nullable else "str")
    def check(value: Any) -> str | None:
        if value is None and nullable:
            return None
        if not isinstance(value, str) or not min_len <= len(value) <= max_len:
            raise ValueError(f"must be a string of {min_len} to {max_len} characters")
        return value
    return check


def integer(lo: int, hi: int, nullable: bool = False) -> Callable[[Any], Any]:
    @typed("int | None" if nullable else "int")
    def check(value: Any) -> int | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"must be a whole number from {lo} to {hi}")
        return value
    return check


def number(lo: float, hi: float, nullable: bool = False) -> Callable[[Any], Any]:
    @typed("float | None" if nullable else "float")
    def check(value: Any) -> float | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not (
                lo <= value <= hi):
            raise ValueError(f"must be a number from {lo} to {hi}")
        return float(value)
    return check


@typed("bool")
def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def strings(max_items: int, max_len: int) -> Callable[[Any], Any]:
    @typed("list[str]")
    def check(value: Any) -> list[str]:
        if not isinstance(value, list) or len(value) > max_items or not all(
                isinstance(s, str) and 0 < len(s) <= max_len for s in value):
            raise ValueError(f"must be a list of at most {max_items} short strings")
        return value
    return check


def one_of(*choices: str) -> Callable[[Any], Any]:
    @typed("Literal[" + ", ".join(repr(c).replace("'", '"') for c in choices) + "]")
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(f"must be one of {', '.join(repr(c) for c in choices)}")
        return value
    return check


@typed("str")
def username(value: Any) -> str:
    """A username: safetext.name_problem says what a name may hold; the host keeps it as
    ``shown_name`` has it (NFC)."""
    if not isinstance(value, str):
        raise ValueError("must be a string")
    why = name_problem(value)
    if why is not None:
        raise ValueError(why)
    return shown_name(value)


def line(max_len: int, min_len: int = 0) -> Callable[[Any], Any]:
    """One line of text shown to others (a title, a chat line): safetext.line_problem."""
    @typed("str")
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError("must be a string")
        why = line_problem(value, max_len, min_len=min_len)
        if why is not None:
            raise ValueError(why)
        return value
    return check


def names(max_items: int) -> Callable[[Any], Any]:
    """A list of 1 to ``max_items`` usernames (each as ``hello`` allows a name)."""
    @typed("list[str]")
    def check(value: Any) -> list[str]:
        if not isinstance(value, list) or not 0 < len(value) <= max_items:
            raise ValueError(f"must be a list of 1 to {max_items} names")
        for s in value:            # the host trims names (docs/protocol.md, invitations)
            if not isinstance(s, str) or not 0 < len(s) <= 64:
                raise ValueError("must hold names")
            if s.strip():
                username(s.strip())
        return value
    return check


def plain_map(max_items: int) -> Callable[[Any], Any]:
    @typed("dict[str, object]")
    def check(value: Any) -> dict[str, object]:
        if not isinstance(value, dict) or len(value) > max_items:
            raise ValueError(f"must be a map of at most {max_items} entries")
        return value
    return check


@typed("int | str")
def request_id(value: Any) -> int | str:
    if isinstance(value, bool) or not (
            (isinstance(value, int) and 0 <= value < 2**63)
            or (isinstance(value, str) and 0 < len(value) <= 64)):
        raise ValueError("must be a whole number or a short string")
    return value


@typed("int | dict[str, object]")
def move_field(value: Any) -> int | dict[str, object]:
    """A move: its id in the view's ``moves`` list, or a full move map (Move.from_wire)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100_000:
        return value
    if isinstance(value, dict) and len(value) <= 8:
        return value
    raise ValueError("must be a move id (a whole number) or a move map")


@typed("bytes | str")
def bytes_or_text(value: Any) -> Any:
    if not isinstance(value, bytes | str) or len(value) > 128:
        raise ValueError("must be a short string or byte string")
    return value


@typed("str")
def bot_level(value: Any) -> str:
    """A bot's level, as ``core.bots`` names it (``easy``, ``normal``, ``hard``): the old names
    it accepts become those where they enter, so the host keeps and shows only the three."""
    try:
        return canonical_level(value) if isinstance(value, str) else canonical_level("")
    except ValueError:
        raise ValueError(f"must be one of {', '.join(map(repr, LEVELS))} (or the old names "
                         f"{', '.join(map(repr, OLD_NAMES))})") from None


@typed("dict[str, int] | None")
def follow_field(value: Any) -> dict[str, int] | None:
    """``follow``: the epoch of the host a client lost and follows to its standby."""
    if value is None:
        return None
    epoch = value.get("epoch") if isinstance(value, dict) else None
    if isinstance(epoch, bool) or not isinstance(epoch, int) or not 0 < epoch < 2**62:
        raise ValueError("must be a map with the epoch of the host followed")
    return {"epoch": epoch}


def or_default(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``check``, or -1: "the host's default"."""
    @typed(" | ".join(dict.fromkeys([*wire_type(check).split(" | "), "float"])))
    def either(value: Any) -> Any:
        if value == -1 and not isinstance(value, bool):
            return -1.0
        return check(value)
    return either


def or_null(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``check``, or null: "the default this field's doc names" (your own profile, this
    week)."""
    @typed(" | ".join(dict.fromkeys([*wire_type(check).split(" | "), "None"])))
    def either(value: Any) -> Any:
        return None if value is None else check(value)
    return either


@typed("str")
def iso_week(value: Any) -> str:
    """A league week (MO-10) as ``core.economy.rewards.read_week`` reads one: a real ISO week
    (``2026-W48``; ``2026-w48`` is the same), normalised; ValueError saying how to write one."""
    if not isinstance(value, str) or len(value) > 16:
        raise ValueError("must be a week such as 2026-W48")
    try:
        return read_week(value)
    except ValueError as exc:
        raise ValueError(exc.args[0]) from None


def rid_of(data: Any) -> Any:
    """The request id of a decoded message if it has a valid one (for an error reply to a
    message that fails the schema), else None."""
    if isinstance(data, dict) and "rid" in data:
        try:
            return request_id(data["rid"])
        except ValueError:
            return None
    return None


TABLE_ID = Field(text(16, 1), required=True)
NAME = username
#: A table's mode (modes.md): ``practice`` (the creator and bots, pays nothing), ``friends``
#: (only invitees sit), ``open`` (anyone sits) or ``entry`` (open, with a stake).
MODES = ("practice", "friends", "open", "entry")
#: The shop's items (MO-8).
ITEMS = ("gold", "vip")
#: What a client may ask for in its ``hello`` (docs/protocol.md, "Changes within version
#: 1"): ``timers``, views without the game's ``deadlines``, whose facts the host's ``timers``
#: already carry with the seconds left (one path on the wire for each fact).
FEATURES = frozenset({"timers"})
#: An event's formats and what fills its rounds (docs/rules/tournament.md, TO-2, TO-6).
EVENT_FORMATS = ("swiss", "robin")
EVENT_FILLS = ("bots", "byes")
EVENT_ID = Field(text(16, 1), required=True)
#: The milliseconds a table may give a hard bot to think per move (``bot_budget_ms``).
BOT_BUDGET_MS = (10, 5000)
#: The seconds a table's bots may wait before they move (``bot_delay``).
BOT_DELAY = (0, 10)

#: Every request a client may send: type -> fields (besides ``type``, ``v`` and ``rid``).
REQUESTS: dict[str, dict[str, Field]] = {
    "hello": {"name": Field(NAME, required=True), "token": Field(text(64, 1)),
              "key": Field(bytes_or_text), "client": Field(line(64)),
              "features": Field(strings(8, 32), default=[]),
              "follow": Field(follow_field)},
    "ping": {"at": Field(number(0, 1e12))},
    "standby_ok": {"gen": Field(integer(0, 2**62), required=True)},
    # Only the host's approved standby key says it (net/peers/peer.py); from any other, refused.
    "standby_hello": {"serves": Field(text(300)), "epoch": Field(integer(0, 2**62), default=0),
                      "client": Field(line(64))},
    "bye": {},
    "games": {},
    "tables": {"offset": Field(integer(0, 1_000_000), default=0)},
    "create": {"game": Field(text(32, 1), required=True),
               "players": Field(integer(1, 16), required=True),
               "settings": Field(plain_map(32), default={}),
               "variants": Field(strings(16, 64), default=[]),
               "idle": Field(or_default(number(0.05, 86_400, nullable=True)), default=-1.0),
               "bot_delay": Field(or_default(number(*BOT_DELAY)), default=-1.0),
               "bot_budget_ms": Field(or_default(integer(*BOT_BUDGET_MS)), default=-1.0),
               "standin_level": Field(bot_level, default="normal"),
               "title": Field(line(TITLE_MAX), default=""),
               "seed": Field(integer(0, 2**63 - 1, nullable=True)),
               "mode": Field(one_of(*MODES), default="open"),
               "stake": Field(integer(0, 10**9), default=0),
               "strangers": Field(boolean, default=True),
               "hints": Field(boolean, default=False),
               "undo": Field(boolean, default=False)},
    "seek": {"game": Field(text(32, 1), required=True),
             "players": Field(integer(2, 16), required=True),
             "stake": Field(integer(0, 10**9), default=0)},
    "unseek": {},
    "profile": {"name": Field(or_null(NAME))},
    "league": {"week": Field(or_null(iso_week))},
    "rewards": {"offset": Field(integer(0, 1_000_000), default=0)},
    "buy": {"item": Field(one_of(*ITEMS), required=True)},
    "sit": {"table": TABLE_ID, "seat": Field(integer(0, 15, nullable=True))},
    "leave": {"table": TABLE_ID},
    "bots": {"table": TABLE_ID, "count": Field(integer(1, 16, nullable=True)),
             "level": Field(bot_level, default="normal")},
    "ready": {"table": TABLE_ID, "ready": Field(boolean, default=True)},
    "start": {"table": TABLE_ID},
    "watch": {"table": TABLE_ID},
    "snapshot": {"table": TABLE_ID},
    "move": {"table": TABLE_ID, "move": Field(move_field, required=True),
             "version": Field(integer(0, 2**62, nullable=True))},
    "reorder": {"table": TABLE_ID, "order": Field(strings(128, 8), required=True)},
    # No table (or null): the lobby (net/host/lobby_chat.py).
    "chat": {"table": Field(text(16, 1, nullable=True)),
             "text": Field(line(CHAT_MAX, 1), required=True)},
    "invite": {"table": TABLE_ID, "names": Field(names(16), required=True)},
    "again": {"table": TABLE_ID},
    "remove": {"table": TABLE_ID, "seat": Field(integer(0, 15), required=True)},
    "close": {"table": TABLE_ID},
    "strangers": {"table": TABLE_ID, "allow": Field(boolean, required=True)},
    "hint": {"table": TABLE_ID},
    # Events (net/host/tourney.py, docs/rules/tournament.md) and ratings (net/host/ratings.py).
    "events": {},
    "event": {"event": EVENT_ID},
    "event_create": {"game": Field(text(32, 1), required=True),
                     "players": Field(integer(2, 16), required=True),
                     "settings": Field(plain_map(32), default={}),
                     "variants": Field(strings(16, 64), default=[]),
                     "format": Field(one_of(*EVENT_FORMATS), default="swiss"),
                     "rounds": Field(integer(1, 20), default=5),
                     "duplicate": Field(boolean, default=False),
                     "fill": Field(one_of(*EVENT_FILLS), default="bots"),
                     "late": Field(integer(-1, 20), default=-1),
                     "minutes": Field(number(0, 1440), default=0.0),
                     "start_within": Field(number(0, 600), default=60.0),
                     "idle": Field(or_default(number(0.05, 86_400, nullable=True)),
                                   default=-1.0),
                     "bot_delay": Field(or_default(number(*BOT_DELAY)), default=-1.0),
                     "level": Field(bot_level, default="normal"),
                     "title": Field(line(TITLE_MAX), default=""),
                     "seed": Field(integer(0, 2**63 - 1, nullable=True))},
    "event_join": {"event": EVENT_ID},
    "event_leave": {"event": EVENT_ID},
    "event_start": {"event": EVENT_ID},
    "event_deadline": {"event": EVENT_ID, "minutes": Field(number(0, 1440), required=True)},
    "ratings": {"game": Field(text(32, 1, nullable=True)), "name": Field(or_null(NAME)),
                "offset": Field(integer(0, 1_000_000), default=0)},
    "records": {"before": Field(number(0, 1e12, nullable=True)),
                "most": Field(integer(1, 50), default=20)},
    "record": {"id": Field(text(24, 1), required=True)},
    "replay": {"record": Field(text(24, 1, nullable=True)),
               "table": Field(text(16, 1, nullable=True)),
               "step": Field(integer(0, 1_000_000), default=0),
               "seat": Field(integer(0, 15, nullable=True))},
    "replay_lead": {"table": TABLE_ID, "record": Field(text(24, 1, nullable=True)),
                    "step": Field(integer(0, 1_000_000), default=0),
                    "seat": Field(integer(0, 15, nullable=True))},
    "replay_end": {"table": TABLE_ID},
    "review": {"id": Field(text(24, 1), required=True)},
    "undo": {"table": TABLE_ID},
    "undo_answer": {"table": TABLE_ID, "agree": Field(boolean, required=True)},
}

#: Requests whose ``rid`` is required (a move must be answerable exactly once).
RID_REQUIRED = frozenset({"move"})


def check_request(data: dict[str, Any]) -> Request:
    """A decoded client message (``decode``'s map: its type not yet known) checked against
    REQUESTS: a new map holding ``type``, ``rid`` (or None) and every declared field
    (defaults filled in), of its request's type (``requests.py``). ProtocolError if not.

    Unknown extra fields are ignored (a newer client may send more; additive changes only).
    """
    kind = data["type"]
    spec = REQUESTS.get(kind)
    if spec is None:
        raise ProtocolError("unknown_type", f"no message type {kind!r} "
                                            f"(requests: {', '.join(sorted(REQUESTS))})")
    # Filled from the declaration of ``kind``: which TypedDict it is is known only at run
    # time, from ``kind`` (the one cast below).
    out: dict[str, Any] = {"type": kind, "rid": None}
    if "rid" in data:
        try:
            out["rid"] = request_id(data["rid"])
        except ValueError as exc:
            raise bad_field(kind, "rid", exc) from None
    elif kind in RID_REQUIRED:
        raise bad_field(kind, "rid", None)
    for name, field_ in spec.items():
        if name not in data:
            if field_.required:
                raise bad_field(kind, name, None)
            out[name] = field_.default
            continue
        try:
            out[name] = field_.check(data[name])
        except ValueError as exc:
            raise bad_field(kind, name, exc) from None
    return cast("Request", out)


def bad_field(kind: str, name: str, exc: ValueError | None) -> ProtocolError:
    """The ``bad_field`` refusal of field ``name`` of a ``kind`` request (``exc``: what its
    check said; None: the field is missing), as a message: a check that explains itself in a
    message (a name's problem, a week) is translated inside it, the others' words stay
    English."""
    if exc is None:
        return ProtocolError("bad_field", Msg("{request}: field {field} is required",
                                              request=kind, field=name))
    said = exc.args[0] if exc.args else ""
    return ProtocolError("bad_field", Msg("{request}: field {field} {problem}", request=kind,
                                          field=name,
                                          problem=said if isinstance(said, Msg) else str(exc)))


class ErrorReply(TypedDict):
    """The ``error`` reply (docs/protocol.md, "Error codes"): a code from ERRORS, one line of
    words (``msg``: the same as a message, each client says it in its language), the request
    id and type it answers (None: a frame that is no request), and the table it was about."""

    type: Literal["error"]
    v: int
    code: str
    message: str
    rid: int | str | None
    about: str | None
    msg: NotRequired[dict[str, object]]
    table: NotRequired[str]


class NotHostReply(ErrorReply, total=False):
    """An ``error`` as a peer that does not serve says it (``not_host``): the host it stands
    by, its address (``host``) and key (``key``)."""

    host: str
    key: str


def error(code: str, text_: str, rid: int | str | None = None, about: str | None = None,
          table: str | None = None) -> ErrorReply:
    """The ``error`` reply: a code from ERRORS and one line of words."""
    out: ErrorReply = {"type": "error", "v": PROTOCOL, "code": code, "message": text_,
                       "rid": rid, "about": about}
    if isinstance(text_, Msg):              # the rules' words as an id: see docs/protocol.md
        out["msg"] = text_.to_wire()
    if table is not None:
        out["table"] = table
    return out


# --- the host's word to its players about its succession ------------------------------------

class PeerAddress(TypedDict):
    """Where a peer of the party serves players, and its public key (Z85): the standby a
    host names (``welcome``, the ``standby`` push, ``standby_wait``), where the party goes
    (``standby_dropped``'s ``go``)."""

    address: str
    port: int
    key: str


class SuccessionWord(TypedDict):
    """What every ``welcome`` tells of the host's succession: its epoch, the standby attached
    (None: none) and the number of this word (it grows with each change)."""

    epoch: int
    standby: PeerAddress | None
    standby_gen: int


class StandbyPush(TypedDict):
    """The ``standby`` push: the host's new word about its standby (attached, or dropped,
    then with ``why``), numbered ``gen``."""

    type: Literal["standby"]
    v: int
    epoch: int
    standby: PeerAddress | None
    gen: int
    why: NotRequired[str]


class StandbyStatus(TypedDict):
    """How the host's standby is doing (``pong``'s ``standby``, the host's console): its
    state (``none`` without one), where it serves, records not yet acknowledged and since
    when the oldest of them was sent, and how many peers wait."""

    state: str
    serves: str | None
    behind: int | None
    lag_ms: float
    waiting: int

