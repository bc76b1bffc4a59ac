"""Bot tournaments: bots of several levels at one table, and duplicate play.

Levels are given one per seat and cycle (``easy,hard`` at four seats is easy, hard, easy,
hard). In duplicate play every deal (one seed: the same deck, the same dealer, the same table
rng) is played once per rotation of the levels around the table, so that each level meets
every hand from every seat and the luck of the deal cancels out. Each game is played by
``simulate.play_out``, the simulator's own loop; this module only chooses who sits where and
counts.

A level's ``won`` counts its first places; a first place shared by k seats counts 1/k (a
shared first place of two counts half).

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.bots import Bot, PolicyBot, canonical_level
from cardparty.core.contract import SYSTEM, Move, Result
from cardparty.core.simulate import SimulationReport, seeded_game
from cardparty.core.table import Table


def seat_levels(levels: Sequence[str], players: int) -> list[str]:
    """One level per seat, ``levels`` cycling; each checked and given its canonical name."""
    if not levels:
        raise ValueError("at least one bot level is needed")
    canon = [canonical_level(level) for level in levels]
    return [canon[s % len(canon)] for s in range(players)]


def parse_levels(text: str) -> list[str]:
    """``LEVEL[,LEVEL...]`` as given on a command line; ValueError naming a bad level."""
    parts = [canonical_level(part.strip()) for part in text.split(",") if part.strip()]
    if not parts:
        raise ValueError("at least one bot level is needed")
    return parts


class SeatBots:
    """A ``Bot`` that is a different bot in each seat; SYSTEM (a deadline running out) plays a
    uniformly random timeout move, as in every simulation."""

    def __init__(self, bots: Sequence[Bot], clock: dict[int, list[float]] | None = None) -> None:
        self.bots = list(bots)
        #: Seconds per decision, by seat, for the seats listed in ``clock`` (timing the hard
        #: level in the benchmark).
        self.clock = clock

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        if seat == SYSTEM:
            moves = table.legal_moves(seat)
            return moves[rng.randrange(len(moves))]
        if self.clock is not None and seat in self.clock:
            start = time.perf_counter()
            move = self.bots[seat].choose(table, seat, rng)
            self.clock[seat].append(time.perf_counter() - start)
            return move
        return self.bots[seat].choose(table, seat, rng)


@dataclass
class LevelScore:
    games: int = 0
    won: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "won": round(self.won, 3),
                "win_rate": round(self.won / self.games, 4) if self.games else None}


@dataclass
class TournamentReport:
    """A simulation report, plus each level's games and wins, each deal's wins by level (for
    confidence intervals that respect the pairing of duplicate deals) and the time of each
    decision of the timed levels."""

    report: SimulationReport
    levels: list[str]
    duplicate: bool
    by_level: dict[str, LevelScore] = field(default_factory=dict)
    per_deal: list[dict[str, float]] = field(default_factory=list)
    decision_seconds: dict[str, list[float]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        data = self.report.as_json()
        data["levels"] = self.levels
        data["duplicate"] = self.duplicate
        data["by_level"] = {k: v.as_json() for k, v in sorted(self.by_level.items())}
        return data

    def share(self, level: str) -> tuple[float, float, float]:
        """``level``'s share of first places per game, with a 95% confidence interval.

        Each deal counts once (its rotations' mean), since the rotations of a duplicate deal
        are not independent; the interval is the normal one over deals (mean +- 1.96 standard
        errors), clipped to [0, 1].
        """
        return deal_interval([d[level] for d in self.per_deal if level in d])


def deal_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of per-deal shares with its normal 95% interval (mean +- 1.96 standard
    errors over deals), clipped to [0, 1]; NaNs when there is no deal. Tournaments played
    in pieces (the benchmark's workers) pool their deals' values and ask here."""
    if not values:
        return (math.nan, math.nan, math.nan)
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return (mean, 0.0, 1.0)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (mean, max(0.0, mean - half), min(1.0, mean + half))


def first_place_shares(result: Result) -> list[float]:
    """Each seat's share of the win: 1/k for each of k seats sharing first place, else 0."""
    firsts = [s for s, p in enumerate(result.places) if p == 1]
    return [1.0 / len(firsts) if s in firsts else 0.0 for s in range(len(result.places))]


def tournament(game: str, players: int, games: int, seed: int, levels: Sequence[str],
               duplicate: bool = False, variants: Iterable[str] = (),
               settings: dict[str, Any] | None = None, bots: dict[str, Bot] | None = None,
               timed: Iterable[str] = ()) -> TournamentReport:
    """Play ``games`` deals (seeds ``seed``, ``seed + 1``, ...) with one level per seat
    (``levels`` cycling); with ``duplicate`` each deal once per rotation of the seats.

    ``bots`` overrides the bot of a level (a search bot with another budget); ``timed`` names
    the levels whose decisions are timed. Any exception inside a game becomes a
    SimulationFailure naming the seed and move number.
    """
    variants = tuple(variants)
    order = seat_levels(levels, players)
    made = {lv: (bots or {}).get(lv) or PolicyBot(lv) for lv in set(order)}
    timed = set(timed)
    out = TournamentReport(SimulationReport(game, players,
                                            places=[[0] * players for _ in range(players)]),
                           order, duplicate,
                           decision_seconds={lv: [] for lv in sorted(timed)})
    rotations = range(players) if duplicate else range(1)
    start = time.perf_counter()
    for g in range(games):
        deal_seed = seed + g
        deal: dict[str, list[float]] = {}
        for r in rotations:
            here = [order[(s + r) % players] for s in range(players)]
            clock: dict[int, list[float]] = {s: [] for s in range(players) if here[s] in timed}
            bot = SeatBots([made[lv] for lv in here], clock)
            table, result = seeded_game(game, players, settings, variants, deal_seed, bot=bot)
            out.report.add(table, result)
            for s, share in enumerate(first_place_shares(result)):
                score = out.by_level.setdefault(here[s], LevelScore())
                score.games += 1
                score.won += share
                deal.setdefault(here[s], []).append(share)
            for s, times in clock.items():
                out.decision_seconds[here[s]].extend(times)
        out.per_deal.append({lv: sum(v) / len(v) for lv, v in deal.items()})
    out.report.seconds = time.perf_counter() - start
    return out
