"""The reward rules of the economy (docs/economy.md, MO-3 ... MO-10), as pure functions.

What a finished table pays is decided here from the mode, the places and each player's
boosters; ``ledger`` then moves the coins. Keeping the arithmetic pure makes every rule a plain
test and leaves the database code nothing to decide.

Must not know about: SQLite, sockets, terminals, any game.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cardparty.core.i18n import Msg

PRACTICE = "practice"      # MO-3 against the machine
FRIENDS = "friends"        # MO-4
OPEN = "open"              # MO-5
ENTRY = "entry"            # MO-6 open tables with a stake
MODES = (PRACTICE, FRIENDS, OPEN, ENTRY)

BASE_COINS = (100, 60, 30, 10)     # MO-7
BASE_XP = (50, 30, 20, 10)
BASE_LEAGUE = (10, 6, 3, 1)
STAKES = (100, 250, 500, 1000)     # MO-6
NEW_PROFILE_COINS = 1000           # MO-1
BOOSTER_PRICE, BOOSTER_MINUTES = 200, 60          # MO-8
VIP_PRICE, VIP_DAYS = 1000, 7


@dataclass(frozen=True, slots=True)
class Rules:
    """Every number of modes.md marked (default), as one host's settings (``--config``).

    The module's constants are the defaults; a host may change any of them, and the ledger
    and ``rewards`` read them from here, never from the constants."""

    new_profile_coins: int = NEW_PROFILE_COINS
    base_coins: tuple[int, ...] = BASE_COINS
    base_xp: tuple[int, ...] = BASE_XP
    base_league: tuple[int, ...] = BASE_LEAGUE
    stakes: tuple[int, ...] = STAKES
    booster_price: int = BOOSTER_PRICE
    booster_minutes: float = BOOSTER_MINUTES
    vip_price: int = VIP_PRICE
    vip_days: float = VIP_DAYS

    def __post_init__(self) -> None:
        for name in ("base_coins", "base_xp", "base_league", "stakes"):
            value = getattr(self, name)
            if not value or any(not isinstance(v, int) or v < 0 for v in value):
                raise ValueError(f"{name} must be a list of whole numbers from 0 up")
            object.__setattr__(self, name, tuple(value))
        for name in ("new_profile_coins", "booster_price", "vip_price"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 0:
                raise ValueError(f"{name} must be a whole number from 0 up")
        if any(s <= 0 for s in self.stakes):
            raise ValueError("stakes must be positive")
        if self.booster_minutes <= 0 or self.vip_days <= 0:
            raise ValueError("booster_minutes and vip_days must be positive")


DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Boosts:
    """What multiplies one player's rewards at payout time (MO-8)."""

    gold: bool = False     # coins x2
    vip: bool = False      # coins and XP x1.5


@dataclass(frozen=True, slots=True)
class Reward:
    coins: int = 0
    xp: int = 0
    league: int = 0


def by_place(base: Sequence[int], places: Sequence[int]) -> list[int]:
    """MO-7: each seat's share of ``base`` (the first n entries for n players); seats sharing a
    place split the sum of the places they cover, rounded down."""
    table = list(base[:len(places)]) + [0] * max(0, len(places) - len(base))
    out = []
    for place in places:
        tied = sum(1 for p in places if p == place)
        covered = table[place - 1:place - 1 + tied]
        out.append(sum(covered) // tied)
    return out


def boosted(reward: Reward, boosts: Boosts) -> Reward:
    """MO-8: the gold booster doubles coins; the VIP pass multiplies coins and XP by 1.5; both
    together multiply (x3 coins). Rounded down. League points are never boosted."""
    coins, xp = reward.coins, reward.xp
    if boosts.gold:
        coins *= 2
    if boosts.vip:
        coins = coins * 3 // 2
        xp = xp * 3 // 2
    return Reward(coins, xp, reward.league)


def rewards(mode: str, places: Sequence[int], humans: Sequence[bool],
            boosts: Sequence[Boosts], bots_filled: bool = False,
            rules: Rules = DEFAULT_RULES) -> list[Reward]:
    """What each seat earns for a finished table (bots earn nothing).

    MO-3 practice pays nothing. MO-4 friends pays only first place, coins and XP at half the
    base reward (tied winners halve their split share), no league points. MO-5 open pays every
    place and league points, halved when bots filled empty seats. MO-6 entry tables are open
    tables: XP and league points as MO-5, but their coins are the pot (``pot_shares``), never a
    base reward (**Decision**). Boosters (MO-8) apply to coins and XP, never in practice and
    never to a pot.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    n = len(places)
    if mode == PRACTICE:
        return [Reward() for _ in range(n)]
    coins = by_place(rules.base_coins, places)
    xp = by_place(rules.base_xp, places)
    league = by_place(rules.base_league, places)
    out = []
    for seat in range(n):
        if not humans[seat]:
            out.append(Reward())
            continue
        if mode == FRIENDS:
            base = Reward(coins[seat] // 2, xp[seat] // 2, 0) if places[seat] == 1 \
                else Reward()
        else:
            points = league[seat] // 2 if bots_filled else league[seat]
            base = Reward(0 if mode == ENTRY else coins[seat], xp[seat], points)
        out.append(boosted(base, boosts[seat]))
    return out


def pot_shares(pot: int, places: Sequence[int]) -> list[int]:
    """MO-6: the whole pot to the winners, no commission. Tied first places split it; the
    indivisible coins go one each to the tied winners in seat order. Sums to ``pot`` exactly."""
    winners = [s for s, p in enumerate(places) if p == 1]
    if not winners:
        raise ValueError("a finished table has a first place")
    share, left = divmod(pot, len(winners))
    out = [0] * len(places)
    for i, seat in enumerate(winners):
        out[seat] = share + (1 if i < left else 0)
    return out


def level(xp: int) -> int:
    """MO-9: level n needs 100 * n * (n + 1) / 2 XP in total; level 0 below 100 XP."""
    n = 0
    while 100 * (n + 1) * (n + 2) // 2 <= xp:
        n += 1
    return n


def level_xp(n: int) -> int:
    """MO-9: the total XP level ``n`` needs (0 for level 0)."""
    return 100 * n * (n + 1) // 2


def league_week(moment: dt.datetime) -> str:
    """MO-10: the ISO week of ``moment`` in the host's time zone, e.g. "2026-W49"; standings
    reset each Monday because the key changes then."""
    local = moment.astimezone() if moment.tzinfo else moment
    year, week, _ = local.isocalendar()
    return f"{year}-W{week:02d}"


_WEEK = re.compile(r"(\d{4})-[Ww](\d{2})")


def read_week(text: str) -> str:
    """MO-10: a week as a player writes it (``2026-W48``, ``2026-w48``) as the league's key;
    ValueError unless it is a real ISO week (``2026-W53`` is one, ``2025-W53`` and
    ``2026-W99`` are none)."""
    found = _WEEK.fullmatch(text.strip())
    if found is not None:
        year, week = int(found.group(1)), int(found.group(2))
        try:
            dt.date.fromisocalendar(year, week, 1)
        except ValueError:
            pass
        else:
            return f"{year}-W{week:02d}"
    raise ValueError(Msg("{text} is not a week: a week is written as 2026-W48, from W01 to "
                         "W52 or W53", text=repr(text)))
