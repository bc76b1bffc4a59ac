"""What a host says of its economy and of its ratings (docs/protocol.md, "Replies and pushed
messages"): the ``profile`` reply (also the answer to ``buy``), the ``league``, ``rewards``
and ``ratings`` replies, and the ``reward`` and ``cancelled`` pushes. The host's economy and
ratings build them; the player's side and the client read them, so mypy sees every field
either writes or reads. ``tests/net/test_economy_reply_types.py`` holds them to what a real
host sends.

A reply has the ``rid`` of its request (the server answers with a copy that carries it: the
handler never writes it), so each reply declares it as a key it may lack.

Must not know about: sockets, players, the ledger, how a rating is computed, terminals.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class Prices(TypedDict, total=False):
    """A profile's ``prices``: the coins the gold booster and the VIP pass cost here."""

    gold: int
    vip: int


class Boosts(TypedDict, total=False):
    """A profile's ``boosts``: how long a bought gold booster (minutes) and VIP pass (days)
    last here."""

    gold_minutes: float
    vip_days: float


class ProfileWire(TypedDict, total=False):
    """A player's profile (the ``profile`` reply's ``profile``, and a ``reward``'s): coins,
    XP and level with the XP of the level reached and of the next, the seconds left of the
    gold booster and the VIP pass (0: not active), this week's league points and the week,
    the shop's prices and boosts, the entry tables' stakes; in the reply to ``profile``,
    ``ratings``: his rating at each game he was rated at, by game id.

    Every key may be absent (``total=False``): the client keeps the newest one it was told
    and reads each key for itself, a host that sent less showing less."""

    name: str
    coins: int
    xp: int
    level: int
    level_xp: int
    next_xp: int
    gold_left: float
    vip_left: float
    league: int
    week: str
    prices: Prices
    boosts: Boosts
    stakes: list[int]
    ratings: dict[str, float]


class ProfileReply(TypedDict):
    """The answer to ``profile``: the profile asked for (one's own, or anyone's here)."""

    type: Literal["profile"]
    v: int
    rid: NotRequired[int | str | None]
    profile: ProfileWire


class BuyReply(ProfileReply):
    """The answer to ``buy``: a ``profile`` message with the player's profile after he paid
    and ``bought``, the item."""

    bought: str


class LeagueRow(TypedDict):
    """One line of a league week's standings: rank (1 the best), name, points."""

    rank: int
    name: str
    points: int


class LeagueReply(TypedDict):
    """The answer to ``league``: the week shown and this week, the weeks with standings
    (newest first), the first standings, the asker's own line (None: he has no points that
    week) and how many have points."""

    type: Literal["league"]
    v: int
    rid: NotRequired[int | str | None]
    week: str
    current: str
    weeks: list[str]
    standings: list[LeagueRow]
    me: LeagueRow | None
    players: int


class RewardFields(TypedDict):
    """What the wire says of one kept reward (a row of the ``rewards`` reply, and the
    ``reward`` push's own fields): the payout's ``id`` (None at a table that paid nothing),
    where and when (the host's wall time, ``at``), the mode, seat and place, what it paid
    (an entry table's stake and pot besides), whether the league points were halved and a
    level was reached."""

    id: str | None
    table: str
    round: int
    mode: str
    seat: int
    place: int
    coins: int
    xp: int
    league: int
    stake: int
    pot: int
    halved: bool
    level_up: bool
    at: float


class RewardPush(RewardFields):
    """The ``reward`` push: one kept reward, the player's profile now (None where the table
    paid nothing) and whether it is told on his return (``missed``)."""

    type: Literal["reward"]
    v: int
    profile: ProfileWire | None
    missed: bool


class RewardsReply(TypedDict):
    """The answer to ``rewards``: a page of the asker's own rewards, newest first, how many
    the host keeps for him, and the ``offset`` of the next page (None after the last)."""

    type: Literal["rewards"]
    v: int
    rid: NotRequired[int | str | None]
    rewards: list[RewardFields]
    total: int
    next: int | None


class CancelledPush(TypedDict):
    """The ``cancelled`` push: an entry table not full by its fill timeout is cancelled and
    its stake given back; the reason in words (English) and as a message (each client says
    it in its language)."""

    type: Literal["cancelled"]
    v: int
    table: str
    refund: int
    reason: str
    reason_msg: dict[str, object]


class RatingLine(TypedDict):
    """A player's rating at a game: what he is shown (μ − 3σ, one decimal), OpenSkill's μ
    and σ, the rounds rated; ``rank`` (1 the best) in a game's list only."""

    game: str
    name: str
    rating: float
    mu: float
    sigma: float
    rounds: int
    rank: NotRequired[int]


class RatingsReply(TypedDict):
    """The answer to ``ratings``: a game's list (``game``; a page, best first, with the
    asker's own line as ``me``) or one player's lines at every game (``game`` None,
    ``name``); how many there are and the ``offset`` of the next page."""

    type: Literal["ratings"]
    v: int
    rid: NotRequired[int | str | None]
    game: str | None
    name: str | None
    ratings: list[RatingLine]
    total: int
    next: int | None
    me: RatingLine | None
