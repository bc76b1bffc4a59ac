"""What a host says to a player who plays, as the replies and pushes of docs/protocol.md
carry it: the welcome and the pong, the answers to ``move``, ``reorder``, ``bye``, ``hint``,
``review``, ``undo`` and ``undo_answer``, the ``undo_dropped`` and ``moved`` pushes, and the
session's own ``connection`` message (docs/protocol.md, "The Python client"). The host builds
each as its shape; the player's side (``net/player``) holds a decoded frame as
``HostMessage`` until it has looked at its ``type``, then reads it as that type's shape, so
mypy sees every field either side touches. ``tests/net/test_play_reply_types.py`` holds them
to what a real host sends.

Each declares its ``type`` as a literal. A message in words (``msg``, ``reason_msg``) is the
map ``Msg.to_wire`` makes (docs/protocol.md, "Words in the player's language"), read with
``core.i18n.from_wire``. The shapes of a table, a game and a view are ``replies.py``'s, a
round's result ``record_replies.RecordResult``; the ``error`` reply's and the host's word
about its standby (``ErrorReply``, ``StandbyPush``, ``PeerAddress``, ``StandbyStatus``) are
``protocol.py``'s.

Must not know about: sockets, players, tables' rules, terminals.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from cardparty.net.wire.protocol import PeerAddress, StandbyStatus


class HostMessage(TypedDict):
    """Any message a host sends (a reply or a push), as the player's side holds it before it
    has looked at its ``type``: what every one carries (a reply also its request's ``rid``).
    A reader checks ``type`` and reads the message as that type's shape from then on
    (``ErrorReply``, ``replies.ViewMessage``...)."""

    type: str
    v: int


class WelcomeReply(TypedDict):
    """``welcome``, the answer to ``hello``: the host, who the player is to it, the heartbeat,
    the games installed, whether it runs for tests, the features granted, and its word about
    its succession (``epoch``, ``standby``, ``standby_gen``). ``token``: what a host of
    protocol 1 that knew players by a token handed out (a host with CURVE sends none)."""

    type: Literal["welcome"]
    v: int
    rid: int | str | None
    host: str
    player: str
    name: str
    resumed: bool
    heartbeat: float
    liveness: int
    protocol: int
    games: list[str]
    testing: bool
    features: list[str]
    epoch: int
    standby: PeerAddress | None
    standby_gen: int
    token: NotRequired[str]


class PongReply(TypedDict):
    """``pong``, the answer to ``ping``: its ``at`` echoed, the host's wall clock, and on a
    host that keeps a store how its standby is doing."""

    type: Literal["pong"]
    v: int
    rid: NotRequired[int | str | None]
    at: float | None
    time: float
    standby: NotRequired[StandbyStatus]


class ByeReply(TypedDict):
    """``ok`` to ``bye``."""

    type: Literal["ok"]
    v: int
    rid: int | str | None
    about: Literal["bye"]


class MoveReply(TypedDict):
    """``ok`` to ``move``: the table's version once the move is played."""

    type: Literal["ok"]
    v: int
    rid: NotRequired[int | str | None]
    about: Literal["move"]
    version: int


class ReorderReply(TypedDict):
    """``ok`` to ``reorder``: the table's version once the hand is in its new order."""

    type: Literal["ok"]
    v: int
    rid: NotRequired[int | str | None]
    about: Literal["reorder"]
    version: int


class UndoReply(TypedDict):
    """``ok`` to ``undo``: how many moves go back, the names of the seated humans still to
    agree (``[]``: the table went back at once) and the table's version."""

    type: Literal["ok"]
    v: int
    rid: NotRequired[int | str | None]
    about: Literal["undo"]
    moves: int
    waiting: list[str]
    version: int


class UndoAnswerReply(TypedDict):
    """``ok`` to ``undo_answer``: the names still to agree."""

    type: Literal["ok"]
    v: int
    rid: NotRequired[int | str | None]
    about: Literal["undo_answer"]
    waiting: list[str]


class HintReply(TypedDict):
    """``hint``: the move the hard bot would play from the seat, by its id in the seat's
    ``moves`` of ``version``, its label, and why (in English, and as a message; None when the
    search gives no reason)."""

    type: Literal["hint"]
    v: int
    rid: NotRequired[int | str | None]
    table: str
    version: int
    move: int
    label: str
    reason: str | None
    reason_msg: dict[str, object] | None


class ReviewMark(TypedDict):
    """One decision a review marks: its step, the share of the round's outcome it lost, the
    move played and the better one (their labels), and why."""

    step: int
    loss: float
    played: str
    better: str
    reason: str | None
    reason_msg: dict[str, object] | None


class ReviewReply(TypedDict):
    """``review``: the record judged, the player's seat in it, how many decisions were judged,
    the margin below which none is marked, and the marked ones."""

    type: Literal["review"]
    v: int
    rid: NotRequired[int | str | None]
    record: str
    seat: int
    decisions: int
    margin: float
    marks: list[ReviewMark]


class UndoDroppedPush(TypedDict):
    """``undo_dropped``: a request to take back a move ended without the table going back:
    who asked (seat and name), who said no (None: nobody did) and why."""

    type: Literal["undo_dropped"]
    v: int
    table: str
    seat: int
    name: str
    by: str | None
    reason: str
    reason_msg: dict[str, object] | None


class MovedPush(TypedDict):
    """``moved``: the host hands its party over; connect to ``address``:``port``, which
    proves ``key``, serving as ``epoch``."""

    type: Literal["moved"]
    v: int
    address: str
    port: int
    key: str
    epoch: int
    why: str


class ConnectionPush(TypedDict):
    """The session's own ``connection`` message (it never comes from a host): ``state`` is
    ``lost``, ``restored``, ``replaced``, ``moved`` (to ``address`` as ``epoch``, said in
    ``text``/``msg``) or ``older`` (a view of ``table`` at ``version`` older than the one
    ``seen`` was not taken); ``resumed`` as in the welcome."""

    type: Literal["connection"]
    v: int
    state: str
    resumed: NotRequired[bool]
    address: NotRequired[str]
    epoch: NotRequired[int]
    text: NotRequired[str]
    msg: NotRequired[dict[str, object]]
    table: NotRequired[str]
    version: NotRequired[int | None]
    seen: NotRequired[int | None]
