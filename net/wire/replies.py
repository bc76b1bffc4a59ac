"""What a host says in the lobby and of its tables and games (docs/protocol.md, "Replies and
pushed messages"): the ``table``, ``tables`` and ``games`` replies and pushes, the answers to
the requests about seats, invitations, seeking and another round, and the ``chat`` and
``invited`` pushes. The host's handlers build them, the player's side and the client read
them, so mypy sees every field either side touches. ``tests/net/test_reply_types.py`` and
``tests/net/test_lobby_reply_types.py`` hold them to what a real host sends.

Must not know about: sockets, players, tables' rules, terminals.
"""

from __future__ import annotations

from typing import Literal, Required, TypedDict

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


class RoundWire(TypedDict):
    """One finished round of a table's match (the summary's ``rounds``, oldest first): its
    number, each seat's place and score (None: the game keeps none), and who deals next."""

    round: int
    places: list[int]
    scores: list[int] | None
    next_dealer: int | None


class Totals(TypedDict):
    """A match's totals (the summary's ``totals``): per seat the rounds won and, when the
    game keeps a score, the scores summed over every round (else None)."""

    wins: list[int]
    scores: list[int] | None


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
    rounds: list[RoundWire]
    again: bool
    event: str | None
    totals: Totals | None
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


# --- the lobby's replies and pushes ----------------------------------------------------------

class Answered(TypedDict, total=False):
    """What every reply carries besides its own fields: the request's id (``rid``), which the
    host adds to a copy of the handler's reply (``Server.answer``), absent when the request
    had none."""

    rid: int | str | None


class OkReply(Answered):
    """``ok``: the request (``about``) was done; the answer to ``leave``, ``bots``,
    ``ready``, ``start``, ``chat``, ``remove`` and ``strangers``."""

    type: Literal["ok"]
    v: int
    about: str


class AgainReply(OkReply):
    """The ``ok`` to ``again``: the round now (the one just finished while others have not
    asked yet; the new one once the last has) and the names of the seated humans still to
    ask."""

    round: int
    waiting: list[str]


class InviteReply(OkReply):
    """The ``ok`` to ``invite``: the names invited, each as its player spells it."""

    names: list[str]


class UnseekReply(OkReply):
    """The ``ok`` to ``unseek``: the table left."""

    table: str


class TablePush(Answered):
    """``table``: one table's summary, pushed to its people whenever it changes, and the
    answer to ``create``, ``close`` (``status: "closed"``) and to ``watch`` and
    ``snapshot`` of an open table."""

    type: Literal["table"]
    v: int
    table: TableSummary


#: The answer to ``create``: the new table's summary.
CreateReply = TablePush
#: The answer to ``close``: the summary with ``status: "closed"``.
CloseReply = TablePush


class GamesReply(Answered):
    """``games``: every game the host runs, with its variants."""

    type: Literal["games"]
    v: int
    games: list[GameWire]


class TablesReply(Answered):
    """``tables``: a page of summaries from the request's ``offset``, how many tables the
    host has, and the offset of the next page (None after the last)."""

    type: Literal["tables"]
    v: int
    tables: list[TableSummary]
    total: int
    next: int | None


class SitReply(Answered):
    """``seated``: the seat taken at the table (the answer to ``sit``)."""

    type: Literal["seated"]
    v: int
    table: str
    seat: int


class SeekReply(Answered):
    """``seeking``: where the seeker waits, seated, for which game, player count and stake,
    and the seconds until bots fill the table or an entry table is cancelled (None: this seek
    filled it and its game started)."""

    type: Literal["seeking"]
    v: int
    table: str
    seat: int
    game: str
    players: int
    stake: int
    fill_in: float | None


class ChatPush(TypedDict):
    """``chat``: a line said at a table (to its seated players and spectators) or, with
    ``table`` and ``seat`` None, to the lobby; who said it (his player id and name) and the
    host's wall clock when he did."""

    type: Literal["chat"]
    v: int
    table: str | None
    seat: int | None
    player: str
    name: str
    text: str
    time: float


#: ``invited``: a friends table invites its receiver (which table, its game and title, and
#: the name of who invited; ``from`` is a keyword, hence the functional form).
InvitedPush = TypedDict("InvitedPush", {
    "type": Literal["invited"], "v": int, "table": str, "game": str, "title": str,
    "from": str})
