"""What a host says of its events (tournaments), as the ``events``, ``event``,
``event_create``, ``event_join``, ``event_leave``, ``event_start`` and ``event_deadline``
replies and the ``event`` and ``event_seat`` pushes carry it (docs/protocol.md, "Replies and
pushed messages", "Events and ratings"): the shapes the host's events build and the player's
side and the client read, so mypy sees every field they read.
``tests/net/test_record_event_reply_types.py`` holds them to what a real host sends.

Must not know about: sockets, players, tables' rules, terminals.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from cardparty.net.wire.record_replies import Answer


class EventBrief(TypedDict):
    """An event as the ``events`` list says it: its id, title, game (and the game's name),
    the size of its tables, its format and whether its deals are duplicate, its status
    (``signup``, ``playing``, ``over``), the round seated last (0 before the start) and how
    many it plays, how many entrants are in, and the organiser's name."""

    id: str
    title: str
    game: str
    game_name: str
    seats: int
    format: str
    duplicate: bool
    status: str
    round: int
    rounds: int
    entrants: int
    organiser: str


class StandingLine(TypedDict):
    """One entrant's line of the standings: rank, name, points, Buchholz, first places,
    rounds played and byes, ``in`` or ``withdrawn``, his rating at the game (None: never
    rated) and his points in each round seated so far (None: no table nor bye of his, or his
    table still plays)."""

    rank: int
    name: str
    points: float
    buchholz: float
    firsts: int
    played: int
    byes: int
    status: str
    rating: float | None
    rounds: list[float | None]


class ResultSeat(TypedDict):
    """A seat of a round's table: its entrant's name (None: a bot's seat), his place and
    points (None until the table is over)."""

    seat: int
    name: str | None
    place: int | None
    points: float | None


class ResultTable(TypedDict):
    """A table of a round: its id, ``playing``, ``over`` or ``stopped``, and its seats."""

    table: str
    state: str
    seats: list[ResultSeat]


class RoundResults(TypedDict):
    """A round seated: its number, the pairs that meet again, the names sitting out with a
    bye, and its tables."""

    round: int
    repeats: int
    byes: list[str]
    tables: list[ResultTable]


class EventWire(EventBrief):
    """An event whole, as the ``event`` message carries it: the fields of its ``events``
    entry and its variants, settings, how seats are filled, the last round a late entry may
    join in, the round's minutes, the seconds a seated table waits for ready, the seconds
    left of the round's deadline (None: none), the standings and every round's results."""

    variants: list[str]
    settings: dict[str, object]
    fill: str
    late: int
    minutes: float
    start_within: float
    deadline: float | None
    standings: list[StandingLine]
    results: list[RoundResults]


class EventsReply(Answer):
    """The reply to ``events``: every event the host keeps, newest first."""

    type: Literal["events"]
    events: list[EventBrief]


class EventPush(TypedDict):
    """``event``, pushed to an event's organiser, entrants and followers after every change
    of it: the event whole."""

    type: Literal["event"]
    v: int
    event: EventWire


class EventReply(EventPush, Answer):
    """The reply to ``event``, ``event_create`` and ``event_join``: the event whole, as its
    push says it."""


class EventLeaveReply(Answer):
    """The reply to ``event_leave``: the event withdrawn from."""

    type: Literal["ok"]
    about: Literal["event_leave"]
    event: str


class EventStartReply(Answer):
    """The reply to ``event_start``: the event and how many rounds it plays."""

    type: Literal["ok"]
    about: Literal["event_start"]
    event: str
    rounds: int


class EventDeadlineReply(Answer):
    """The reply to ``event_deadline``: the event and the round whose deadline was set."""

    type: Literal["ok"]
    about: Literal["event_deadline"]
    event: str
    round: int


class EventSeat(TypedDict):
    """Where a round seats an entrant: the event, the round, the table (its id), his seat,
    the names at its seats in order, and the table's title."""

    event: str
    round: int
    table: str
    seat: int
    names: list[str]
    title: str


class EventSeatPush(EventSeat):
    """``event_seat``, pushed to each entrant when a round is seated (and again after his
    ``hello`` while his table of the round is not over)."""

    type: Literal["event_seat"]
    v: int
