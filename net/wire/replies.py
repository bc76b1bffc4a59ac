"""What a host says of a table and of its games, as the ``table``, ``tables`` and ``games``
replies and pushes carry it (docs/protocol.md, "Replies and pushed messages"): the shapes the
player's side and the client read, so mypy sees every field they read.
``tests/net/test_reply_types.py`` holds them to what a real host sends.

Must not know about: sockets, players, tables' rules, terminals.
"""

from __future__ import annotations

from typing import Required, TypedDict

from cardparty.core.contract import View, WireEvent


class SeatSummary(TypedDict, total=False):
    """One seat of a table summary: who sits there (``kind``: empty, human, bot), ready,
    connected, stood in for by a bot; a bot's level; a player's rating at the game."""

    seat: int
    kind: str
    name: str
    player: str | None
    level: str | None
    ready: bool
    connected: bool
    standin: bool
    rating: float | None


class UndoAsked(TypedDict, total=False):
    """A table summary's ``undo_asked``: a request to take back a move waiting for the
    seated humans' agreement (who asked, how many moves, the version it was asked on, whose
    answer it still waits for)."""

    seat: int
    name: str
    moves: int
    version: int
    waiting: list[str]


class TableSummary(TypedDict, total=False):
    """A table as the host describes it in the lobby (the ``table`` push, the ``tables``
    reply, the reply to ``create``)."""

    id: Required[str]
    title: str
    game: Required[str]
    game_name: str
    mode: str
    creator: str | None
    invited: list[str]
    strangers: bool
    hints: bool
    undo: bool
    undo_asked: UndoAsked | None
    stake: int
    seeking: bool
    bots_filled: bool
    fill_in: float | None
    players: int
    settings: dict[str, object]
    variants: list[str]
    plugins: dict[str, str]
    status: str
    idle: float | None
    bot_delay: float
    bot_budget_ms: int
    standin_level: str
    version: int
    spectators: int
    failure: str | None
    result: dict[str, object] | None
    summary_msg: dict[str, object]
    testing: bool
    round: int
    rounds: list[dict[str, object]]
    again: bool
    event: str | None
    totals: dict[str, object] | None
    seats: list[SeatSummary]


class SettingInfo(TypedDict, total=False):
    """One setting a game offers (``Setting.to_wire``)."""

    default: object
    kind: str
    min: float | None
    max: float | None
    choices: list[object]
    help: str
    label: str


class VariantWire(TypedDict, total=False):
    """A house rule a host runs (``VariantInfo.to_wire`` and its ``plugin``)."""

    id: str
    game: str
    name: str
    description: str
    plugin: str


class GameWire(TypedDict, total=False):
    """A game a host runs (``GameInfo.to_wire``, its ``plugin`` and ``variants``)."""

    id: Required[str]
    name: str
    min_players: int
    max_players: int
    summary: str
    settings: dict[str, SettingInfo]
    plugin: str
    variants: list[VariantWire]


class Timer(TypedDict, total=False):
    """A timer the host runs at a table (a game's deadline, or ``idle``): its name, the seat
    it waits for, its length and the seconds left when the view was sent."""

    name: str
    seat: int | None
    seconds: float
    remaining: float


class Presence(TypedDict, total=False):
    """Who is away at a seat, as data: connected, and whether a bot stands in."""

    connected: bool
    standin: bool


class ViewMessage(TypedDict, total=False):
    """The ``view`` push (and the reply to ``watch`` and ``snapshot``): one seat's (None: a
    spectator's) view of a table at one version, the events since the previous one, the
    host's timers and who is away."""

    type: Required[str]
    v: int
    rid: int | str | None
    table: Required[str]
    seat: int | None
    version: Required[int]
    prev: int | None
    snapshot: bool
    view: Required[View]
    events: list[WireEvent]
    timers: list[Timer]
    players: list[Presence]
