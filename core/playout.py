"""Playing a game on from a bare state, for the search bot: the rule hooks, rollouts, scores.

The search (``cardparty.core.search``) works on determinized states it owns, so it calls the
table's hooks directly (``Rules``: no journal, no event list, no legality re-check of moves
taken from the legal list, no ``Table`` per sample). A rollout plays on with the game's own
policy at "normal" (random where it has none) and scores the end for every seat, or, once cut
short, asks the game's ``cardparty_bot_estimate``.

Two ways to count a seat's share of a game (``Budget.objective``): ``"place"``, first place 1,
last 0, linear between (``scores_of``); ``"first"``, the chance of first place alone
(``first_shares``). At two players they are the same.

Timeouts (SYSTEM moves while a deadline runs) and several seats able to move at once are
handled as the simulator handles them: the actor is drawn at random among those who may move.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardparty.core.contract import SYSTEM, Move, Result
from cardparty.core.table import Table
from cardparty.core.turns import draw_actor

#: How far past its cut a rollout plays on when the game cannot judge yet (a Piquet deal half
#: played) before it is called even.
OVERTIME = 400


def scores_of(result: Result) -> list[float]:
    """Each seat's score of a finished game in [0, 1]: first place 1, last 0, linear between;
    tied seats share their place (competition ranking), so a shared first counts as first."""
    n = len(result.places)
    if n < 2:
        return [1.0] * n
    return [(n - p) / (n - 1) for p in result.places]


def firsts_of(result: Result) -> list[float]:
    """Each seat's share of first place: 1/k for each of k seats sharing it, else 0."""
    firsts = [s for s, p in enumerate(result.places) if p == 1]
    return [1.0 / len(firsts) if s in firsts else 0.0 for s in range(len(result.places))]


def pairwise_shares(strength: Sequence[float], scale: float) -> list[float]:
    """Each seat's expected score (as ``scores_of`` counts it) when seat i beats seat j with
    probability logistic((strength[i] - strength[j]) / scale): a helper for a game's
    ``cardparty_bot_estimate``. At two players it is the chance of winning."""
    n = len(strength)
    if n < 2:
        return [1.0] * n
    out = []
    for i, a in enumerate(strength):
        total = 0.0
        for j, b in enumerate(strength):
            if i != j:
                x = max(-30.0, min(30.0, (a - b) / scale))
                total += 1.0 / (1.0 + math.exp(-x))
        out.append(total / (n - 1))
    return out


def first_shares(shares: Sequence[float]) -> list[float]:
    """Each seat's chance of first place from its expected score as ``pairwise_shares``
    counts it (the mean of its chances of beating each other seat): beating all of the
    n - 1 others taken as that mean to the power n - 1, then normalised. At two players
    the shares themselves."""
    n = len(shares)
    if n <= 2:
        return list(shares)
    raw = [max(0.0, s) ** (n - 1) for s in shares]
    total = sum(raw)
    if total <= 0.0:
        return [1.0 / n] * n
    return [r / total for r in raw]


class Rules:
    """The game's rule hooks on a bare state: what the search needs, nothing more."""

    def __init__(self, table: Table, objective: str = "place", me: int | None = None) -> None:
        hook: Any = table.hook
        pm: Any = table.pm
        self.to_move: Callable[..., tuple[int, ...]] = hook.cardparty_to_move
        self.legal: Callable[..., list[Move]] = hook.cardparty_legal_moves
        self.apply: Callable[..., Any] = hook.cardparty_apply_move
        self.result: Callable[..., Result | None] = hook.cardparty_result
        self.view: Callable[..., dict[str, Any]] = hook.cardparty_view
        self.deadlines: Callable[..., Any] | None = None
        if pm.hook.cardparty_deadlines.get_hookimpls():
            self.deadlines = hook.cardparty_deadlines
        self.policy: Callable[..., Move | None] | None = None
        policies = pm.hook.cardparty_bot_move.get_hookimpls()
        if policies:
            self.policy = hook.cardparty_bot_move
        # The game's policy read from the state, unless a variant changes the policy.
        self.fast: Callable[..., Move | None] | None = None
        if len(policies) == 1 and pm.hook.cardparty_bot_rollout.get_hookimpls():
            self.fast = hook.cardparty_bot_rollout
        self.estimator: Callable[..., list[float] | None] | None = None
        if pm.hook.cardparty_bot_estimate.get_hookimpls():
            self.estimator = hook.cardparty_bot_estimate
        self.clone_hook: Callable[..., Any] = hook.cardparty_clone
        self.save: Callable[..., Any] = hook.cardparty_save
        self.restore: Callable[..., Any] = hook.cardparty_restore
        self.players = table.players
        self.first = objective == "first"
        # The deciding seat ``me`` plays the game's hard habit in the rollouts too, where the
        # game has one (``cardparty_bot_hard_move``): the race values a move by how this seat
        # will really go on. Every other seat plays the normal policy.
        self.me = me
        self.hard: Callable[..., Move | None] | None = None
        if me is not None and pm.hook.cardparty_bot_hard_move.get_hookimpls():
            self.hard = hook.cardparty_bot_hard_move

    def clone(self, state: Any) -> Any:
        """An independent copy of ``state`` (the game's clone, else through its save)."""
        twin = self.clone_hook(state=state)
        return twin if twin is not None else self.restore(data=self.save(state=state))

    def actor(self, state: Any, rng: random.Random) -> int | None:
        """Who acts next, drawn as the simulator draws it (SYSTEM while a deadline runs)."""
        deadline = self.deadlines is not None and bool(self.deadlines(state=state))
        return draw_actor(tuple(self.to_move(state=state)), deadline, rng)

    def choose(self, state: Any, seat: int, moves: list[Move], rng: random.Random) -> Move:
        """The game's policy at "normal" for ``seat`` in ``state`` (random where it has none,
        and for SYSTEM)."""
        if len(moves) == 1:
            return moves[0]
        if self.hard is not None and seat == self.me:
            chosen = self.hard(view=lambda: self._light_view(state, seat), moves=moves, rng=rng)
            if chosen is not None:
                return chosen
        if self.fast is not None and seat != SYSTEM:
            chosen = self.fast(state=state, seat=seat, moves=moves, rng=rng)
            if chosen is not None:
                return chosen
        elif self.policy is not None and seat != SYSTEM:
            chosen = self.policy(view=lambda: self._light_view(state, seat), moves=moves,
                                 rng=rng, level="normal")
            if chosen is not None:
                return chosen
        return moves[rng.randrange(len(moves))]

    def _light_view(self, state: Any, seat: int) -> dict[str, Any]:
        """The seat's view of a bare state, for a policy (the game's keys and ``seat``)."""
        view = self.view(state=state, seat=seat)
        view["seat"] = seat
        return view

    def scores(self, result: Result) -> list[float]:
        """Each seat's share of a finished game, as the objective counts it."""
        return firsts_of(result) if self.first else scores_of(result)

    def estimate(self, state: Any) -> list[float] | None:
        """Each seat's expected share of an unfinished game, from the game's estimate of the
        spectator's view; None when the game asks to play on (a Piquet deal half played); an
        even share where the game has no estimate."""
        if self.estimator is None:
            return [1.0 / self.players if self.first else 0.5] * self.players
        guess = self.estimator(view=self.view(state=state, seat=None))
        if guess is None:
            return None
        shares = [min(1.0, max(0.0, float(g))) for g in guess]
        return first_shares(shares) if self.first else shares

    def even(self) -> list[float]:
        """The share of a game nobody can judge."""
        return [1.0 / self.players if self.first else 0.5] * self.players

    def rollout(self, state: Any, rng: random.Random, cap: int | None) -> list[float]:
        """Play on with the game's policy; each seat's share of the end (or the estimate once
        ``cap`` moves are played, when the game can judge)."""
        played = 0
        while True:
            result = self.result(state=state)
            if result is not None:
                return self.scores(result)
            if cap is not None and played >= cap:
                guess = self.estimate(state)
                if guess is not None:
                    return guess
                if played >= cap + OVERTIME:
                    return self.even()
            actor = self.actor(state, rng)
            if actor is None:
                return self.even()
            moves = self.legal(state=state, seat=actor)
            self.apply(state=state, seat=actor, move=self.choose(state, actor, moves, rng),
                       rng=rng)
            played += 1
