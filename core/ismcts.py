"""Single-observer ISMCTS, the search's ``Budget.method`` "tree" (measured against the race
in docs/bots.md; the race is the default).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012:
one tree whose nodes are the deciding seat's information sets (reached by sequences of
(actor, move) edges). Every iteration

1. draws a determinization for the seat;
2. descends the tree on that state, choosing among the children whose move is legal in this
   determinization by UCB1 with availability counts (a child's exploration term counts the
   iterations in which it could have been chosen, not the parent's visits); the other seats
   choose by the game's policy (``Budget.opponents``, "policy") or, as in the paper, by nodes
   of their own ("tree": they then choose as if they saw the determinization);
3. adds one new child, then plays the game on with the game's own policy (``Rules.rollout``);
4. credits each node with the share of the seat that moved into it.

It plays the root's most visited child, unless the game's own policy chose a move rated less
than ``Budget.trust`` below it. SYSTEM moves are chance: played at random, not in the tree.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardparty.core.contract import SYSTEM, Move
from cardparty.core.playout import Rules

if TYPE_CHECKING:
    from cardparty.core.search import Budget


class Node:
    """One information set of the deciding seat's tree, reached by (actor, move)."""

    __slots__ = ("actor", "children", "visits", "avail", "score")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[tuple[int, Move], Node] = {}
        self.visits = 0
        self.avail = 0
        self.score = 0.0

    def mean(self, seat: int, move: Move) -> float:
        child = self.children.get((seat, move))
        return child.score / child.visits if child is not None and child.visits else 0.0

    def rank(self, seat: int, move: Move) -> tuple[int, float]:
        child = self.children.get((seat, move))
        if child is None:
            return (-1, 0.0)
        return (child.visits, child.score / child.visits if child.visits else 0.0)


def tree_search(rules: Rules, sample: Callable[[random.Random], Any], seat: int,
                moves: list[Move], own: Move | None, rng: random.Random, budget: Budget,
                stats: dict[Move, tuple[int, float]] | None) -> Move:
    """The tree's move among ``moves`` (``own``: the game's policy's, kept unless clearly
    beaten)."""
    root = Node(seat)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    limit = budget.iterations
    done = 0
    while limit is None or done < limit:
        _iterate(sample, rules, root, seat, moves, rng, budget)
        done += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
    if stats is not None:
        for m in moves:
            stats[m] = (root.rank(seat, m)[0], root.mean(seat, m))
    best = max(moves, key=lambda m: root.rank(seat, m))
    if own is not None and budget.trust > 0 and own is not best and \
            root.mean(seat, best) - root.mean(seat, own) < budget.trust:
        return own
    return best


def _iterate(sample: Callable[[random.Random], Any], rules: Rules, root: Node, seat: int,
             root_moves: list[Move], rng: random.Random, budget: Budget) -> None:
    state = sample(rng)
    node = root
    path: list[Node] = []
    actor: int | None = seat
    moves = root_moves
    expanded = False
    # Selection and expansion: the root's actor is the deciding seat; below it, whoever the
    # game says moves next in this determinization.
    while actor is not None:
        if actor == SYSTEM:
            rules.apply(state=state, seat=SYSTEM, move=moves[rng.randrange(len(moves))],
                        rng=rng)
        elif actor != seat and budget.opponents == "policy":
            rules.apply(state=state, seat=actor, move=rules.choose(state, actor, moves, rng),
                        rng=rng)
        else:
            node, move, expanded = _descend(node, actor, moves, rng, budget.exploration)
            path.append(node)
            rules.apply(state=state, seat=actor, move=move, rng=rng)
        if rules.result(state=state) is not None or expanded or len(path) >= budget.depth:
            break
        actor = rules.actor(state, rng)
        if actor is not None:
            moves = rules.legal(state=state, seat=actor)
    scores = rules.rollout(state, rng, budget.rollout_moves)
    for n in path:
        n.visits += 1
        n.score += scores[n.actor]


def _descend(node: Node, actor: int, moves: list[Move], rng: random.Random,
             c: float) -> tuple[Node, Move, bool]:
    """The child to go down to and its move: a new one if a legal move is untried (True),
    else the best by UCB1 with availability counts."""
    children = node.children
    untried = [m for m in moves if (actor, m) not in children]
    if untried:
        move = untried[rng.randrange(len(untried))]
        child = children[(actor, move)] = Node(actor)
        child.avail = 1
        for m in moves:
            sibling = children.get((actor, m))
            if sibling is not None and sibling is not child:
                sibling.avail += 1
        return child, move, True
    best_child: Node | None = None
    best_move = moves[0]
    best_value = -1.0
    for m in moves:
        ch = children[(actor, m)]
        ch.avail += 1
        value = ch.score / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
        if value > best_value:
            best_value, best_child, best_move = value, ch, m
    assert best_child is not None
    return best_child, best_move, False
