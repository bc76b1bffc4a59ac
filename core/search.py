"""The search bot (the hard level): how long it thinks, where its samples come from, and its
entry points for a table (``search``), a worker process (``decide``) and a practising player
(``hint``).

It sees only what the seat may know: the seat's legal moves and view, and determinizations
(``Table.sampler``: full states consistent with the seat's view, the unseen cards dealt by the
search's own rng as far as the public history allows, ``core.infer``). It never reads
``table.state``; it never plays a move on the table it is given. With an iteration budget and
no time budget it is a pure function of the seat's view and the rng, which is what the tests
hold it to.

Two methods (``Budget.method``): the **race** (``core.race``, the default): the game's own
move raced against the others on paired samples, a lookahead that improves on the game's
policy instead of replacing it; the **tree** (``core.ismcts``): single-observer ISMCTS.
Rollouts and scores are ``core.playout``'s.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.ismcts import tree_search
from cardparty.core.playout import Rules, first_shares, firsts_of, pairwise_shares, scores_of
from cardparty.core.race import Race, Verdict
from cardparty.core.table import Table

__all__ = ["DEFAULT_BUDGET", "EXPLORATION", "Budget", "SearchBot", "Verdict", "decide",
           "first_shares", "firsts_of", "pairwise_shares", "race_verdict", "scores_of",
           "search"]

#: UCB1's exploration constant for scores in [0, 1] (sqrt(2)/2 works well for card games in
#: Cowling et al.; tuned in docs/bots.md).
EXPLORATION = 0.7


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the search may think: it stops at whichever limit comes first.

    ``iterations`` None or ``seconds`` None means no such limit (one must be set). A budget of
    iterations alone makes the search deterministic for a given rng (tests, replays);
    ``seconds`` bounds the wall time on a slow or loaded machine. ``rollout_moves`` cuts every
    rollout after that many moves and asks the game for an estimate (``None``: play to the end).
    Every field is a plain value: a host sends a budget to its worker processes as a map.
    """

    iterations: int | None = 300
    seconds: float | None = 0.15
    rollout_moves: int | None = 25
    exploration: float = EXPLORATION
    #: The deepest the tree grows, in moves from the root (1: flat Monte Carlo over the
    #: root's moves, each judged by rollouts alone).
    depth: int = 64
    #: How much better (in mean score, 0..1) a move must look than the game's own policy's
    #: choice for the search to play it instead: with a few hundred noisy rollouts, a small
    #: lead is as likely luck as insight, and then the policy's judgement is kept.
    trust: float = 0.04
    #: How the other seats choose inside the tree: "tree" (their own UCB nodes, as in
    #: Cowling et al.: they choose as if they saw the determinization) or "policy" (the game's
    #: policy, as in the rollouts: the tree branches on the deciding seat's moves only).
    opponents: str = "policy"
    #: "race" (default): the game's own move against each other legal move, on the same
    #: determinizations and rollout seeds, dropping the moves that cannot beat it and playing
    #: another only when it wins by a clear margin; "tree": the ISMCTS tree.
    method: str = "race"
    #: The race's margin: a move replaces the policy's when its mean gain over it, paired by
    #: sample, exceeds ``confidence`` standard errors.
    confidence: float = 0.3
    #: The race's drop: after the first rounds a move drops out when its paired gain over the
    #: policy's move plus ``drop`` standard errors is not above zero (larger: a longer race).
    drop: float = 0.3
    #: The race's first rounds: every move is sampled this often before any drops out.
    warmup: int = 4
    #: The fewest paired samples on which the race plays another move than the policy's:
    #: with many moves and few samples each, the best-looking one is mostly the luckiest.
    min_samples: int = 8
    #: Whether the determinizations respect what the seat saw happen (the game's
    #: ``cardparty_bot_sampler``: a player who had to draw held nothing that fitted); False:
    #: the plain ``cardparty_determinize`` (measured against in docs/bots.md).
    infer: bool = True
    #: What a seat's share of a game is: "place" (first 1, last 0, linear between) or
    #: "first" (the chance of first place alone); the same at two players.
    objective: str = "place"

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a search budget needs at least one iteration")
        if self.opponents not in ("tree", "policy"):
            raise ValueError("a search budget's opponents are 'tree' or 'policy'")
        if self.method not in ("race", "tree"):
            raise ValueError("a search budget's method is 'race' or 'tree'")
        if self.objective not in ("place", "first"):
            raise ValueError("a search budget's objective is 'place' or 'first'")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a search budget's seconds must be positive")


DEFAULT_BUDGET = Budget()


def search(table: Table, seat: int, rng: random.Random, budget: Budget = DEFAULT_BUDGET,
           stats: dict[Move, tuple[int, float]] | None = None) -> Move:
    """The search bot's move for ``seat``: one of ``table.legal_moves(seat)`` (the very object).

    Of the table it reads only the seat's legal moves and view, and determinizations for the
    seat (``table.sampler(seat)``, from its view and the events as it saw them); it plays on
    those, never on ``table``, which is left unchanged. ``stats``, when given, receives each
    move's samples (visits in the tree) and mean score.
    """
    moves = table.legal_moves(seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    if len(moves) == 1:
        return moves[0]
    if budget.method == "race":
        verdict = race_verdict(table, seat, rng, budget)
        if verdict is not None:
            if stats is not None:
                for i, m in enumerate(moves):
                    stats[m] = (verdict.samples[i], verdict.means[i])
            return verdict.move
    rules = Rules(table, budget.objective, me=seat)
    return tree_search(rules, _sampler(table, seat, budget), seat, moves,
                       _own_move(table, rules, seat, moves), rng, budget, stats)


def race_verdict(table: Table, seat: int, rng: random.Random, budget: Budget = DEFAULT_BUDGET
                 ) -> Verdict | None:
    """The race's whole verdict for ``seat`` (``core.race``: the move, the policy's move and
    every move's samples, mean and paired gain), or None for a game without a policy. The
    seat must have at least two legal moves."""
    started = time.perf_counter()        # reading the history counts against the budget
    moves = table.legal_moves(seat)
    rules = Rules(table, budget.objective, me=seat)
    if rules.policy is None:
        return None
    own = _own_move(table, rules, seat, moves) or moves[0]
    return Race(rules, seat, moves, own, _sampler(table, seat, budget), budget).run(
        rng, started)


def _own_move(table: Table, rules: Rules, seat: int, moves: list[Move]) -> Move | None:
    """The move the race starts from: the game's hard habit where it has one
    (``cardparty_bot_hard_move``), else its policy's move at "normal" (each from its own rng:
    the same every time); None where the policy leaves the choice to chance (or the game has
    no policy)."""
    if rules.policy is None:
        return None
    if rules.hard is not None and rules.me == seat:
        hard = rules.hard(view=lambda: table.view(seat), moves=moves, rng=random.Random(0))
        if hard is not None:
            return hard
    return rules.policy(view=lambda: table.view(seat), moves=moves, rng=random.Random(0),
                        level="normal")


def _sampler(table: Table, seat: int, budget: Budget) -> Callable[[random.Random], Any]:
    """The determinizations of the seat: asked once per decision, sampled every round."""
    if budget.infer:
        return table.sampler(seat)
    return lambda rng: table.determinize(seat, rng)


class SearchBot:
    """The "hard" level: the search with the game's policy in the rollouts (``search``)."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET) -> None:
        self.budget = budget

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        return search(table, seat, rng, self.budget)


def decide(snapshot: bytes, seat: int, seed: int, budget: Budget = DEFAULT_BUDGET) -> int:
    """The search bot's move for ``seat`` of the table saved in ``snapshot`` (``Table.save()``),
    as an index into that table's ``legal_moves(seat)``.

    A pure function of its arguments (up to the time limit of ``budget``): it restores its own
    table, so it shares nothing with the caller and may run in a worker thread or process while
    the caller goes on serving. The caller plays ``legal_moves(seat)[index]`` if its table is
    still at the snapshot's version, and asks again otherwise.
    """
    table = Table.restore(snapshot)
    move = search(table, seat, random.Random(seed), budget)
    for i, m in enumerate(table.legal_moves(seat)):
        if m.same(move):
            return i
    raise AssertionError("the search chose a move that is not listed")
