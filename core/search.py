"""The search bot: the game's own move raced against the others on sampled deals, or ISMCTS.

Two methods (``Budget.method``), both seeing only what the seat may know:

**race** (the default, docs/bots.md has the measurements): a one-move lookahead that improves
on the game's policy. Each round draws a determinization (``Table.sampler`` for the deciding
seat: a full state consistent with its view, the unseen cards redealt by the search's own rng
as far as the public history allows, ``core.infer``) and a rollout seed, and scores every move
still in the race on that same sample: the move, then the game's policy for every seat
(``cardparty_bot_move`` at "normal") for ``rollout_moves`` moves, then the game's
``cardparty_bot_estimate``. Because all moves share the sample (common random numbers), the
difference of two moves' scores measures the moves rather than the luck of the deal. Moves
that cannot beat the policy's move drop out after a few rounds; the race ends when only it is
left or the budget is spent; another move is played only when its paired gain is clear
(``confidence`` standard errors, ``min_samples`` samples): a heuristic that is usually right
is not thrown away on a few lucky rollouts.

**tree**: single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 2012): one tree whose nodes are the deciding seat's
information sets (reached by sequences of (actor, move) edges). Every iteration

1. draws a determinization for the seat;
2. descends the tree on that state, choosing among the children whose move is legal in this
   determinization by UCB1 with availability counts (a child's exploration term counts the
   iterations in which it could have been chosen, not the parent's visits); the other seats
   choose by the game's policy (``Budget.opponents``, "policy") or, as in the paper, by nodes
   of their own ("tree": they then choose as if they saw the determinization);
3. adds one new child, then plays the game on to its end (or to ``Budget.rollout_moves``) with
   the game's own policy, random where it has none;
4. scores the end for every seat (first place 1, last 0, shared places share) or, when the
   rollout was cut, asks the game's ``cardparty_bot_estimate`` for each seat's share, and
   credits each node with the score of the seat that moved into it.

The tree plays the root's most visited child, unless the game's own policy chose a move
rated less than ``Budget.trust`` below it. The bot sees only what the seat may know: the
seat's legal moves, and determinizations. It never reads ``table.state``; it never plays a
move on the table it is given. With an iteration budget and no time budget it is a pure
function of the seat's view and the rng, which is what the tests hold it to.

Timeouts (SYSTEM moves while a deadline runs) and several seats able to move at once are
handled as the simulator handles them: the actor is drawn at random among those who may move.
SYSTEM moves are chance: played at random and not part of the tree.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardparty.core.contract import SYSTEM, Move, Result
from cardparty.core.table import Table
from cardparty.core.turns import draw_actor

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
    #: another only when it wins by a clear margin; "tree": the ISMCTS tree above.
    method: str = "race"
    #: The race's margin: a move replaces the policy's when its mean gain over it, paired by
    #: sample, exceeds ``confidence`` standard errors (and a move whose gain plus that many
    #: standard errors is not above zero drops out).
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

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a search budget needs at least one iteration")
        if self.opponents not in ("tree", "policy"):
            raise ValueError("a search budget's opponents are 'tree' or 'policy'")
        if self.method not in ("race", "tree"):
            raise ValueError("a search budget's method is 'race' or 'tree'")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a search budget's seconds must be positive")


DEFAULT_BUDGET = Budget()


class _Node:
    """One information set of the deciding seat's tree, reached by (actor, move)."""

    __slots__ = ("actor", "children", "visits", "avail", "score")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[tuple[int, Move], _Node] = {}
        self.visits = 0
        self.avail = 0
        self.score = 0.0


def scores_of(result: Result) -> list[float]:
    """Each seat's score of a finished game in [0, 1]: first place 1, last 0, linear between;
    tied seats share their place (competition ranking), so a shared first counts as first."""
    n = len(result.places)
    if n < 2:
        return [1.0] * n
    return [(n - p) / (n - 1) for p in result.places]


def pairwise_shares(strength: list[float], scale: float) -> list[float]:
    """Each seat's expected score (as ``scores_of`` counts it) when seat i beats seat j with
    probability logistic((strength[i] - strength[j]) / scale): a helper for a game's
    ``cardparty_bot_estimate``. At two seats it is the chance of winning."""
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


class _Game:
    """The game's rule hooks on a bare state: what the search needs, nothing more.

    The search works on determinized states it owns, so it calls the table's hooks directly
    (no journal, no event list, no legality re-check of moves taken from the legal list).
    """

    def __init__(self, table: Table) -> None:
        hook = table.hook
        self.to_move: Callable[..., Any] = hook.cardparty_to_move
        self.legal: Callable[..., Any] = hook.cardparty_legal_moves
        self.apply: Callable[..., Any] = hook.cardparty_apply_move
        self.result: Callable[..., Any] = hook.cardparty_result
        self.deadlines: Callable[..., Any] | None = None
        if table.pm.hook.cardparty_deadlines.get_hookimpls():
            self.deadlines = hook.cardparty_deadlines
        self.view: Callable[..., Any] = hook.cardparty_view
        self.policy: Callable[..., Any] | None = None
        self.estimate: Callable[..., Any] | None = None
        if table.pm.hook.cardparty_bot_move.get_hookimpls():
            self.policy = hook.cardparty_bot_move
        if table.pm.hook.cardparty_bot_estimate.get_hookimpls():
            self.estimate = hook.cardparty_bot_estimate
        self.players = table.players

    def actor(self, state: Any, rng: random.Random) -> int | None:
        """Who acts next, drawn as the simulator draws it (SYSTEM while a deadline runs)."""
        deadline = self.deadlines is not None and bool(self.deadlines(state=state))
        return draw_actor(tuple(self.to_move(state=state)), deadline, rng)

    def rollout_move(self, state: Any, seat: int, moves: list[Move],
                     rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        if self.policy is not None and seat != SYSTEM:
            def light_view() -> dict[str, Any]:
                view = self.view(state=state, seat=seat)
                view["seat"] = seat
                return view
            chosen = self.policy(view=light_view, moves=moves, rng=rng, level="normal")
            if chosen is not None:
                return chosen
        return moves[rng.randrange(len(moves))]


def search(table: Table, seat: int, rng: random.Random, budget: Budget = DEFAULT_BUDGET,
           stats: dict[Move, tuple[int, float]] | None = None) -> Move:
    """The search bot's move for ``seat``: one of ``table.legal_moves(seat)`` (the very object).

    Of the table it reads only the seat's legal moves and view, and determinizations for the
    seat (``table.sampler(seat)``, from its view and the events as it saw them); it plays on
    those, never on ``table``, which is left unchanged. ``stats``, when given, receives each
    root move's visits and mean score.
    """
    moves = table.legal_moves(seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    if len(moves) == 1:
        return moves[0]
    game = _Game(table)
    if budget.method == "race" and game.policy is not None:
        return _race(table, game, seat, moves, rng, budget, stats)
    root = _Node(seat)
    sample = _sampler(table, seat, budget)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    limit = budget.iterations
    done = 0
    while limit is None or done < limit:
        _iterate(sample, game, root, seat, moves, rng, budget)
        done += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
    if stats is not None:
        for m in moves:
            stats[m] = (_root_rank(root, seat, m)[0], _mean(root, seat, m))
    best = max(moves, key=lambda m: _root_rank(root, seat, m))
    if game.policy is not None and budget.trust > 0:
        own = game.policy(view=lambda: table.view(seat), moves=moves, rng=random.Random(0),
                          level="normal")
        if own is not None and own is not best and _mean(root, seat, best) - _mean(
                root, seat, own) < budget.trust:
            return own
    return best


def _sampler(table: Table, seat: int, budget: Budget) -> Callable[[random.Random], Any]:
    """The determinizations of the seat: asked once per decision, sampled every round."""
    if budget.infer:
        return table.sampler(seat)
    return lambda rng: table.determinize(seat, rng)


def _race(table: Table, game: _Game, seat: int, moves: list[Move], rng: random.Random,
          budget: Budget, stats: dict[Move, tuple[int, float]] | None) -> Move:
    """The game's own move against the others, paired by sample (common random numbers).

    Each round draws one determinization and one rollout seed, and scores every move still in
    the race on that same sample (its own copy of the determinization, the same rollout rng):
    the luck of the hidden cards and of the rollout is then shared, and the difference between
    two moves' scores measures the moves, not the luck. After ``warmup`` rounds a move drops
    out when its mean gain over the policy's move plus ``confidence`` standard errors is not
    above zero; the race ends when only the policy's move is left or the budget is spent
    (``iterations`` counts rollouts). The policy's move is played unless another gains on it
    by more than ``confidence`` standard errors (and ``trust``): with a few dozen samples a
    heuristic that is usually right is worth more than a small, noisy lead.
    """
    own = game.policy(view=lambda: table.view(seat), moves=moves, rng=random.Random(0),
                      level="normal")
    redraw = _sampler(table, seat, budget)
    if own is None:
        own = moves[0]
    base = next(i for i, m in enumerate(moves) if m is own)
    others = [i for i in range(len(moves)) if i != base]
    # Per move: samples, their sum, and the sum and sum of squares of its gains over the
    # policy's move on the same samples (running sums: the race checks them every round).
    count = [0] * len(moves)
    total = [0.0] * len(moves)
    gains = [0.0] * len(moves)
    squares = [0.0] * len(moves)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    spent = 0
    rounds = 0
    while others:
        if budget.iterations is not None and spent + 1 + len(others) > budget.iterations:
            break
        det_seed = rng.getrandbits(64)
        roll_seed = rng.getrandbits(64)
        mine = 0.0
        for i in [base, *others]:
            if spent and deadline is not None and time.perf_counter() >= deadline:
                break
            state = redraw(random.Random(det_seed))
            sample = random.Random(roll_seed)
            game.apply(state=state, seat=seat, move=moves[i], rng=sample)
            score = _rollout(game, state, sample, budget.rollout_moves)[seat]
            spent += 1
            count[i] += 1
            total[i] += score
            if i == base:
                mine = score
            else:
                gains[i] += score - mine
                squares[i] += (score - mine) ** 2
        else:
            rounds += 1
            if rounds >= budget.warmup:
                others = [i for i in others
                          if _gain(count[i], gains[i], squares[i], budget.drop)[1] > 0]
            continue
        break                                           # out of time
    if stats is not None:
        for i, m in enumerate(moves):
            stats[m] = (count[i], total[i] / count[i] if count[i] else 0.0)
    best, best_gain = base, 0.0
    for i in others:
        gain, _, low = _gain(count[i], gains[i], squares[i], budget.confidence)
        enough = count[i] >= budget.min_samples
        if enough and low > 0 and gain > budget.trust and gain > best_gain:
            best, best_gain = i, gain
    return moves[best]


def _gain(n: int, total: float, squares: float, z: float) -> tuple[float, float, float]:
    """From ``n`` paired gains' sum and sum of squares: their mean, and the mean plus and
    minus ``z`` standard errors (no samples: no gain, anything possible)."""
    if n < 2:
        return (total / n if n else 0.0), 1.0, -1.0
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, mean + half, mean - half


def _mean(root: _Node, seat: int, move: Move) -> float:
    child = root.children.get((seat, move))
    return child.score / child.visits if child is not None and child.visits else 0.0


def _root_rank(root: _Node, seat: int, move: Move) -> tuple[int, float]:
    child = root.children.get((seat, move))
    if child is None:
        return (-1, 0.0)
    return (child.visits, child.score / child.visits if child.visits else 0.0)


def _iterate(sample: Callable[[random.Random], Any], game: _Game, root: _Node, seat: int,
             root_moves: list[Move], rng: random.Random, budget: Budget) -> None:
    state = sample(rng)
    node = root
    path: list[_Node] = []
    actor: int | None = seat
    moves = root_moves
    c = budget.exploration
    expanded = False
    # Selection and expansion: the root's actor is the deciding seat; below it, whoever the
    # game says moves next in this determinization.
    while True:
        if actor is None:
            break
        if actor == SYSTEM:
            game.apply(state=state, seat=SYSTEM, move=moves[rng.randrange(len(moves))],
                       rng=rng)
        elif actor != seat and budget.opponents == "policy":
            game.apply(state=state, seat=actor,
                       move=game.rollout_move(state, actor, moves, rng), rng=rng)
        else:
            children = node.children
            untried = [m for m in moves if (actor, m) not in children]
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[(actor, move)] = _Node(actor)
                child.avail = 1
                for m in moves:
                    sibling = children.get((actor, m))
                    if sibling is not None and sibling is not child:
                        sibling.avail += 1
                node = child
                path.append(child)
                game.apply(state=state, seat=actor, move=move, rng=rng)
                expanded = True
            else:
                best_child: _Node | None = None
                best_move = moves[0]
                best_value = -1.0
                for m in moves:
                    ch = children[(actor, m)]
                    ch.avail += 1
                    value = ch.score / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if value > best_value:
                        best_value, best_child, best_move = value, ch, m
                assert best_child is not None
                node = best_child
                path.append(best_child)
                game.apply(state=state, seat=actor, move=best_move, rng=rng)
        if game.result(state=state) is not None or expanded or len(path) >= budget.depth:
            break
        actor = game.actor(state, rng)
        if actor is not None:
            moves = game.legal(state=state, seat=actor)
    scores = _rollout(game, state, rng, budget.rollout_moves)
    for n in path:
        n.visits += 1
        n.score += scores[n.actor]


def _rollout(game: _Game, state: Any, rng: random.Random, cap: int | None) -> list[float]:
    """Play on with the game's policy; each seat's score of the end (or the estimate)."""
    played = 0
    while True:
        result = game.result(state=state)
        if result is not None:
            return scores_of(result)
        if cap is not None and played >= cap:
            guess = _estimate(game, state)
            if guess is not None:
                return guess
            if played >= cap + 400:
                return [0.5] * game.players
        actor = game.actor(state, rng)
        if actor is None:
            return [0.5] * game.players
        moves = game.legal(state=state, seat=actor)
        game.apply(state=state, seat=actor, move=game.rollout_move(state, actor, moves, rng),
                   rng=rng)
        played += 1


def _estimate(game: _Game, state: Any) -> list[float] | None:
    """Each seat's expected score of an unfinished game, from the game's estimate of the
    spectator's view; None when the game asks to play on (a Piquet deal half played); an even
    share where the game has no estimate."""
    if game.estimate is None:
        return [0.5] * game.players
    guess = game.estimate(view=game.view(state=state, seat=None))
    if guess is None:
        return None
    return [min(1.0, max(0.0, float(g))) for g in guess]


class SearchBot:
    """The "hard" level: ISMCTS with the game's policy in the rollouts (see ``search``)."""

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
