"""What a host says of its game records and replays, as the ``records``, ``record``,
``replay``, ``replay_lead`` and ``replay_end`` replies and the ``replay_shared`` and
``replay_ended`` pushes carry it (docs/protocol.md, "Replies and pushed messages", "Game
records", "The shared replay" and "Record files"): the shapes the host's records build and the
player's side and the client read, so mypy sees every field they read.
``tests/net/test_record_event_reply_types.py`` holds them to what a real host sends.

Must not know about: sockets, players, tables' rules, terminals.
"""

from __future__ import annotations

from typing import Literal, NotRequired, Required, TypedDict

from cardparty.core.contract import MoveMap, View, WireEvent


class Answer(TypedDict):
    """What every reply of a host carries besides its own fields: the protocol version and,
    when the request had one, its ``rid`` (the server adds it to the handler's reply)."""

    v: int
    rid: NotRequired[int | str | None]


class RecordEntry(TypedDict):
    """One of a player's rounds as ``records`` lists it: the record's id, the game, when it
    ended (wall clock), its table, title, round of the match and mode, the names by seat, the
    asking player's seat (None: he is not one of them), how many steps, the places and scores
    (None: a record without a result) and the plugins that played it."""

    id: str
    game: str
    ended: float
    table: str
    title: str
    round: int
    mode: str
    names: list[str]
    seat: int | None
    steps: int
    places: list[int] | None
    scores: list[int] | None
    plugins: dict[str, str]


class RecordsReply(Answer):
    """The reply to ``records``: a page of the player's records, newest first, and whether
    older ones remain (asked for with ``before``: the last one's ``ended``)."""

    type: Literal["records"]
    records: list[RecordEntry]
    more: bool


class RecordSeat(TypedDict, total=False):
    """A seat of a record: who sat there (``kind``: human or bot), a bot's level, whether a
    bot stood in for the player (a record kept before stand-ins were noted has none)."""

    name: Required[str]
    kind: Required[str]
    level: str | None
    standin: bool


class RecordStep(TypedDict):
    """A step of a record: the seat, seconds into the round (None: not known) and either the
    move it made or the order it put its hand in (a reorder)."""

    seat: int
    at: float | None
    move: NotRequired[MoveMap]
    order: NotRequired[list[str]]


class RecordResult(TypedDict):
    """A record's result, as a view's ``result`` (``Result.to_wire``): places by seat, the
    scores (None: the game keeps none), who deals next, the summary (``summary_msg``: the same
    as a message map) and how the round ended."""

    places: list[int]
    scores: list[int] | None
    next_dealer: int | None
    summary: str
    outcome: str
    summary_msg: NotRequired[dict[str, object]]


class RecordPaid(TypedDict):
    """What a finished round paid one human seat: coins, XP, league points and, at an entry
    table, the stake and the pot."""

    seat: int
    name: str
    coins: int
    xp: int
    league: int
    stake: int
    pot: int


class RecordWire(TypedDict):
    """A whole record as the ``record`` reply carries it and a record file holds it
    (``GameRecord.to_wire``; docs/protocol.md, "Record files")."""

    format: str
    format_version: int
    id: str
    game: str
    variants: list[str]
    plugins: dict[str, str]
    players: int
    seed: int
    settings: dict[str, object]
    seats: list[RecordSeat]
    version: int
    skips: list[list[int]]
    steps: list[RecordStep]
    result: RecordResult | None
    paid: list[RecordPaid]
    table: str
    title: str
    mode: str
    round: int
    started: float
    ended: float


class RecordReply(Answer):
    """The reply to ``record``: the record whole."""

    type: Literal["record"]
    record: RecordWire


class ReplayStep(TypedDict):
    """One step of a round as one seat saw it, the fields of ``replay`` and
    ``replay_shared``: the record (None: the round in play at ``table``), the step shown and
    how many the round has, the seat (None: the spectators'), whether the round is in play,
    who made the step (None at the deal) and when (seconds into the round), the very view
    that seat was sent and that step's events as it saw them."""

    record: str | None
    table: str
    step: int
    steps: int
    seat: int | None
    live: bool
    mover: int | None
    at: float | None
    view: View
    events: list[WireEvent]


class ReplayReply(ReplayStep, Answer):
    """The reply to ``replay``."""

    type: Literal["replay"]


class ReplaySharedPush(ReplayStep):
    """``replay_shared``, pushed to everybody at a table each time its shared replay's
    leader moves it: the step, and who leads (his player id and name)."""

    type: Literal["replay_shared"]
    v: int
    leader: str
    leader_name: str


class ReplayLeadReply(Answer):
    """The reply to ``replay_lead``: the record now shown to the table."""

    type: Literal["ok"]
    about: Literal["replay_lead"]
    record: str


class ReplayEndReply(Answer):
    """The reply to ``replay_end``."""

    type: Literal["ok"]
    about: Literal["replay_end"]


class ReplayEndedPush(TypedDict):
    """``replay_ended``, pushed to everybody at the table: its shared replay ended, by the
    leader's name."""

    type: Literal["replay_ended"]
    v: int
    table: str
    record: str
    by: str
