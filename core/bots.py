"""What a bot is, and the bots every game gets.

A bot chooses a move for a seat from what that seat may know: the table's view of the seat and
its legal moves (and, for bots that search, ``Table.determinize``). It never reads the state.
A game can give its bots a better policy with the ``cardparty_bot_move`` hook; without one, or
when that hook answers None, the choice is uniformly random among the legal moves.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import random
from typing import Protocol

from cardparty.core.contract import Move
from cardparty.core.table import Table

LEVELS = ("random", "basic")


class Bot(Protocol):
    """Anything that picks one of ``table.legal_moves(seat)``."""

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move: ...


class RandomBot:
    """Uniformly random among the legal moves: the random-simulation checker's player."""

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        moves = table.legal_moves(seat)
        return moves[rng.randrange(len(moves))]


_HAS_POLICY: dict[int, bool] = {}


def has_policy(table: Table) -> bool:
    """Whether the table's game (or a variant) implements ``cardparty_bot_move`` (asked once
    per plugin manager: managers never change)."""
    known = _HAS_POLICY.get(id(table.pm))
    if known is None:
        known = _HAS_POLICY[id(table.pm)] = bool(
            table.pm.hook.cardparty_bot_move.get_hookimpls())
    return known


class PolicyBot:
    """The game's own bot policy (``cardparty_bot_move``) at a level, random where it has none.

    Games whose random play can cycle for ever (Kakhead) use the policy hook to offer and accept
    a draw after a long stretch without progress.
    """

    def __init__(self, level: str = "basic") -> None:
        if level not in LEVELS:
            raise ValueError(f"bot level must be one of {', '.join(LEVELS)}")
        self.level = level

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        moves = table.legal_moves(seat)
        if self.level == "random" and not has_policy(table):
            return moves[rng.randrange(len(moves))]
        chosen = table.hook.cardparty_bot_move(view=lambda: table.view(seat), moves=moves,
                                               rng=rng, level=self.level)
        if chosen is None:
            return moves[rng.randrange(len(moves))]
        return chosen
