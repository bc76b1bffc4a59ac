"""The requests a client may send, as checked by ``protocol.check_request``: one TypedDict
per request type, written from ``protocol.REQUESTS`` by ``typegen`` (do not edit by hand:
``python -m cardparty.net.wire.typegen`` writes it again). A handler takes its request's type,
so mypy sees every field it reads.

Must not know about: sockets, players, tables, terminals.
"""

from __future__ import annotations

from typing import Literal, TypedDict


class HelloRequest(TypedDict):
    """``hello`` (docs/protocol.md)."""

    type: Literal["hello"]
    rid: int | str | None
    name: str
    token: str | None
    key: bytes | str | None
    client: str | None
    features: list[str]
    follow: dict[str, int] | None


class PingRequest(TypedDict):
    """``ping`` (docs/protocol.md)."""

    type: Literal["ping"]
    rid: int | str | None
    at: float | None


class StandbyOkRequest(TypedDict):
    """``standby_ok`` (docs/protocol.md)."""

    type: Literal["standby_ok"]
    rid: int | str | None
    gen: int


class StandbyHelloRequest(TypedDict):
    """``standby_hello`` (docs/protocol.md)."""

    type: Literal["standby_hello"]
    rid: int | str | None
    serves: str | None
    epoch: int
    client: str | None


class ByeRequest(TypedDict):
    """``bye`` (docs/protocol.md)."""

    type: Literal["bye"]
    rid: int | str | None


class GamesRequest(TypedDict):
    """``games`` (docs/protocol.md)."""

    type: Literal["games"]
    rid: int | str | None


class TablesRequest(TypedDict):
    """``tables`` (docs/protocol.md)."""

    type: Literal["tables"]
    rid: int | str | None
    offset: int


class CreateRequest(TypedDict):
    """``create`` (docs/protocol.md)."""

    type: Literal["create"]
    rid: int | str | None
    game: str
    players: int
    settings: dict[str, object]
    variants: list[str]
    idle: float | None
    bot_delay: float
    bot_budget_ms: int | float
    standin_level: str
    title: str
    seed: int | None
    mode: Literal["practice", "friends", "open", "entry"]
    stake: int
    strangers: bool
    hints: bool
    undo: bool


class SeekRequest(TypedDict):
    """``seek`` (docs/protocol.md)."""

    type: Literal["seek"]
    rid: int | str | None
    game: str
    players: int
    stake: int


class UnseekRequest(TypedDict):
    """``unseek`` (docs/protocol.md)."""

    type: Literal["unseek"]
    rid: int | str | None


class ProfileRequest(TypedDict):
    """``profile`` (docs/protocol.md)."""

    type: Literal["profile"]
    rid: int | str | None
    name: str | None


class LeagueRequest(TypedDict):
    """``league`` (docs/protocol.md)."""

    type: Literal["league"]
    rid: int | str | None
    week: str | None


class RewardsRequest(TypedDict):
    """``rewards`` (docs/protocol.md)."""

    type: Literal["rewards"]
    rid: int | str | None
    offset: int


class BuyRequest(TypedDict):
    """``buy`` (docs/protocol.md)."""

    type: Literal["buy"]
    rid: int | str | None
    item: Literal["gold", "vip"]


class SitRequest(TypedDict):
    """``sit`` (docs/protocol.md)."""

    type: Literal["sit"]
    rid: int | str | None
    table: str
    seat: int | None


class LeaveRequest(TypedDict):
    """``leave`` (docs/protocol.md)."""

    type: Literal["leave"]
    rid: int | str | None
    table: str


class BotsRequest(TypedDict):
    """``bots`` (docs/protocol.md)."""

    type: Literal["bots"]
    rid: int | str | None
    table: str
    count: int | None
    level: str


class ReadyRequest(TypedDict):
    """``ready`` (docs/protocol.md)."""

    type: Literal["ready"]
    rid: int | str | None
    table: str
    ready: bool


class StartRequest(TypedDict):
    """``start`` (docs/protocol.md)."""

    type: Literal["start"]
    rid: int | str | None
    table: str


class WatchRequest(TypedDict):
    """``watch`` (docs/protocol.md)."""

    type: Literal["watch"]
    rid: int | str | None
    table: str


class SnapshotRequest(TypedDict):
    """``snapshot`` (docs/protocol.md)."""

    type: Literal["snapshot"]
    rid: int | str | None
    table: str


class MoveRequest(TypedDict):
    """``move`` (docs/protocol.md)."""

    type: Literal["move"]
    rid: int | str | None
    table: str
    move: int | dict[str, object]
    version: int | None


class ReorderRequest(TypedDict):
    """``reorder`` (docs/protocol.md)."""

    type: Literal["reorder"]
    rid: int | str | None
    table: str
    order: list[str]


class ChatRequest(TypedDict):
    """``chat`` (docs/protocol.md)."""

    type: Literal["chat"]
    rid: int | str | None
    table: str | None
    text: str


class InviteRequest(TypedDict):
    """``invite`` (docs/protocol.md)."""

    type: Literal["invite"]
    rid: int | str | None
    table: str
    names: list[str]


class AgainRequest(TypedDict):
    """``again`` (docs/protocol.md)."""

    type: Literal["again"]
    rid: int | str | None
    table: str


class RemoveRequest(TypedDict):
    """``remove`` (docs/protocol.md)."""

    type: Literal["remove"]
    rid: int | str | None
    table: str
    seat: int


class CloseRequest(TypedDict):
    """``close`` (docs/protocol.md)."""

    type: Literal["close"]
    rid: int | str | None
    table: str


class StrangersRequest(TypedDict):
    """``strangers`` (docs/protocol.md)."""

    type: Literal["strangers"]
    rid: int | str | None
    table: str
    allow: bool


class HintRequest(TypedDict):
    """``hint`` (docs/protocol.md)."""

    type: Literal["hint"]
    rid: int | str | None
    table: str


class EventsRequest(TypedDict):
    """``events`` (docs/protocol.md)."""

    type: Literal["events"]
    rid: int | str | None


class EventRequest(TypedDict):
    """``event`` (docs/protocol.md)."""

    type: Literal["event"]
    rid: int | str | None
    event: str


class EventCreateRequest(TypedDict):
    """``event_create`` (docs/protocol.md)."""

    type: Literal["event_create"]
    rid: int | str | None
    game: str
    players: int
    settings: dict[str, object]
    variants: list[str]
    format: Literal["swiss", "robin"]
    rounds: int
    duplicate: bool
    fill: Literal["bots", "byes"]
    late: int
    minutes: float
    start_within: float
    idle: float | None
    bot_delay: float
    level: str
    title: str
    seed: int | None


class EventJoinRequest(TypedDict):
    """``event_join`` (docs/protocol.md)."""

    type: Literal["event_join"]
    rid: int | str | None
    event: str


class EventLeaveRequest(TypedDict):
    """``event_leave`` (docs/protocol.md)."""

    type: Literal["event_leave"]
    rid: int | str | None
    event: str


class EventStartRequest(TypedDict):
    """``event_start`` (docs/protocol.md)."""

    type: Literal["event_start"]
    rid: int | str | None
    event: str


class EventDeadlineRequest(TypedDict):
    """``event_deadline`` (docs/protocol.md)."""

    type: Literal["event_deadline"]
    rid: int | str | None
    event: str
    minutes: float


class RatingsRequest(TypedDict):
    """``ratings`` (docs/protocol.md)."""

    type: Literal["ratings"]
    rid: int | str | None
    game: str | None
    name: str | None
    offset: int


class RecordsRequest(TypedDict):
    """``records`` (docs/protocol.md)."""

    type: Literal["records"]
    rid: int | str | None
    before: float | None
    most: int


class RecordRequest(TypedDict):
    """``record`` (docs/protocol.md)."""

    type: Literal["record"]
    rid: int | str | None
    id: str


class ReplayRequest(TypedDict):
    """``replay`` (docs/protocol.md)."""

    type: Literal["replay"]
    rid: int | str | None
    record: str | None
    table: str | None
    step: int
    seat: int | None


class ReplayLeadRequest(TypedDict):
    """``replay_lead`` (docs/protocol.md)."""

    type: Literal["replay_lead"]
    rid: int | str | None
    table: str
    record: str | None
    step: int
    seat: int | None


class ReplayEndRequest(TypedDict):
    """``replay_end`` (docs/protocol.md)."""

    type: Literal["replay_end"]
    rid: int | str | None
    table: str


class ReviewRequest(TypedDict):
    """``review`` (docs/protocol.md)."""

    type: Literal["review"]
    rid: int | str | None
    id: str


class UndoRequest(TypedDict):
    """``undo`` (docs/protocol.md)."""

    type: Literal["undo"]
    rid: int | str | None
    table: str


class UndoAnswerRequest(TypedDict):
    """``undo_answer`` (docs/protocol.md)."""

    type: Literal["undo_answer"]
    rid: int | str | None
    table: str
    agree: bool


#: Any checked request (``type`` tells which).
Request = (HelloRequest | PingRequest | StandbyOkRequest | StandbyHelloRequest | ByeRequest |
    GamesRequest | TablesRequest | CreateRequest | SeekRequest | UnseekRequest | ProfileRequest
    | LeagueRequest | RewardsRequest | BuyRequest | SitRequest | LeaveRequest | BotsRequest |
    ReadyRequest | StartRequest | WatchRequest | SnapshotRequest | MoveRequest | ReorderRequest
    | ChatRequest | InviteRequest | AgainRequest | RemoveRequest | CloseRequest |
    StrangersRequest | HintRequest | EventsRequest | EventRequest | EventCreateRequest |
    EventJoinRequest | EventLeaveRequest | EventStartRequest | EventDeadlineRequest |
    RatingsRequest | RecordsRequest | RecordRequest | ReplayRequest | ReplayLeadRequest |
    ReplayEndRequest | ReviewRequest | UndoRequest | UndoAnswerRequest)
