"""The race: the game's own move against the others, paired by sample (``Budget.method``
"race", the search's default; docs/bots.md has the measurements).

Each round draws one determinization (the seat's samples, ``Table.sampler``) and one rollout
seed, and scores every move still in the race on that same sample (its own copy of the
determinization, made by the game's clone, and the same rollout rng): the luck of the hidden
cards and of the rollout is then shared, and the difference between two moves' scores measures
the moves, not the luck (common random numbers). After ``warmup`` rounds a move drops out when
its mean gain over the policy's move plus ``drop`` standard errors is not above zero; the race
ends when only the policy's move is left or the budget is spent (``iterations`` counts
rollouts). The policy's move is played unless another gains on it by more than ``confidence``
standard errors (and ``trust``), on at least ``min_samples`` samples: with a few dozen samples
a heuristic that is usually right is worth more than a small, noisy lead.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardparty.core.contract import Move
from cardparty.core.playout import Rules

if TYPE_CHECKING:
    from cardparty.core.search import Budget


def gain_bounds(n: int, total: float, squares: float, z: float) -> tuple[float, float, float]:
    """From ``n`` paired gains' sum and sum of squares: their mean, and the mean plus and
    minus ``z`` standard errors (no samples: no gain, anything possible)."""
    if n < 2:
        return (total / n if n else 0.0), 1.0, -1.0
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, mean + half, mean - half


@dataclass
class Verdict:
    """What the race found: the move to play, the policy's move, and per move its samples,
    mean score and mean paired gain over the policy's move."""

    move: Move
    own: Move
    samples: list[int]
    means: list[float]
    gains: list[float]


class Race:
    """One decision's race (see the module docstring): running sums per move, rounds, the
    verdict."""

    def __init__(self, rules: Rules, seat: int, moves: list[Move], own: Move,
                 redraw: Callable[[random.Random], Any], budget: Budget) -> None:
        self.rules, self.seat, self.moves, self.budget = rules, seat, moves, budget
        self.redraw = redraw
        self.base = next(i for i, m in enumerate(moves) if m is own)
        self.others = [i for i in range(len(moves)) if i != self.base]
        # Per move: samples, their sum, and the sum and sum of squares of its gains over the
        # policy's move on the same samples (running sums: the race checks them every round).
        self.count = [0] * len(moves)
        self.total = [0.0] * len(moves)
        self.gains = [0.0] * len(moves)
        self.squares = [0.0] * len(moves)
        self.spent = 0
        self.rounds = 0

    def run(self, rng: random.Random, started: float | None = None) -> Verdict:
        """Rounds until only the policy's move is left or the budget is spent (its seconds
        counted from ``started``, ``time.perf_counter()``'s, when the decision began)."""
        budget = self.budget
        if started is None:
            started = time.perf_counter()
        deadline = None if budget.seconds is None else started + budget.seconds
        while self.others:
            if budget.iterations is not None and \
                    self.spent + 1 + len(self.others) > budget.iterations:
                break
            if not self.round(rng.getrandbits(64), rng.getrandbits(64), deadline):
                break                                            # out of time
            self.rounds += 1
            if self.rounds >= budget.warmup:
                self.prune()
        return self.verdict()

    def round(self, det_seed: int, roll_seed: int, deadline: float | None) -> bool:
        """Every move still in the race on one sample; False when time ran out midway (the
        samples taken are kept: each is paired with the policy's move, sampled first)."""
        mine = 0.0
        sample = self.redraw(random.Random(det_seed))
        for i in [self.base, *self.others]:
            if self.spent and deadline is not None and time.perf_counter() >= deadline:
                return False
            score = self.score(i, self.rules.clone(sample), roll_seed)
            self.spent += 1
            self.count[i] += 1
            self.total[i] += score
            if i == self.base:
                mine = score
            else:
                self.gains[i] += score - mine
                self.squares[i] += (score - mine) ** 2
        return True

    def score(self, i: int, state: Any, roll_seed: int) -> float:
        """The deciding seat's share after move ``i`` on (a copy of) the round's sample."""
        sample = random.Random(roll_seed)
        self.rules.apply(state=state, seat=self.seat, move=self.moves[i], rng=sample)
        return self.rules.rollout(state, sample, self.budget.rollout_moves)[self.seat]

    def bounds(self, i: int, z: float) -> tuple[float, float, float]:
        return gain_bounds(self.count[i], self.gains[i], self.squares[i], z)

    def prune(self) -> None:
        """Drop the moves that cannot beat the policy's by ``drop`` standard errors."""
        drop = self.budget.drop
        self.others = [i for i in self.others if self.bounds(i, drop)[1] > 0]

    def verdict(self) -> Verdict:
        """The policy's move, unless another still in the race gains on it clearly."""
        budget = self.budget
        best, best_gain = self.base, 0.0
        for i in self.others:
            gain, _, low = self.bounds(i, budget.confidence)
            enough = self.count[i] >= budget.min_samples
            if enough and low > 0 and gain > budget.trust and gain > best_gain:
                best, best_gain = i, gain
        n = len(self.moves)
        return Verdict(self.moves[best], self.moves[self.base], list(self.count),
                       [self.total[i] / self.count[i] if self.count[i] else 0.0
                        for i in range(n)],
                       [self.gains[i] / self.count[i] if self.count[i] else 0.0
                        for i in range(n)])
