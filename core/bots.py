"""What a bot is, and the bots every game gets.

A bot chooses a move for a seat from what that seat may know: the table's view of the seat and
its legal moves (and, for bots that search, ``Table.determinize``). It never reads the state.
A game can give its bots a better policy with the ``cardparty_bot_move`` hook; without one, or
when that hook answers None, the choice is uniformly random among the legal moves.

Three levels (docs/bots.md): ``easy`` plays the game's policy at "random" (uniformly random,
or the random-ish mix a game needs to end), ``normal`` the game's policy at "basic" (its
heuristics), ``hard`` searches (``cardparty.core.search``: the policy's move raced against
the others on sampled deals, the game's policy in the rollouts). The old names ``random`` and
``basic`` are accepted for ``easy`` and ``normal``.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import random
from typing import Protocol

from cardparty.core.contract import Move
from cardparty.core.search import SearchBot
from cardparty.core.table import Table

#: Every level name a bot accepts: the three levels, then the old names kept for ``easy`` and
#: ``normal`` (saved tables, scripts and older clients send them).
LEVELS = ("easy", "normal", "hard", "random", "basic")
ALIASES = {"random": "easy", "basic": "normal"}
#: The ``level`` the game's ``cardparty_bot_move`` hook is asked at, per level.
HOOK_LEVEL = {"easy": "random", "normal": "basic", "hard": "basic"}


def canonical_level(level: str) -> str:
    """``easy``, ``normal`` or ``hard`` for any accepted name; ValueError otherwise."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS[:3])} "
                         f"(or the old names {', '.join(ALIASES)})")
    return ALIASES.get(level, level)


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
    """A bot at any level: the game's own policy (``cardparty_bot_move``) for easy and normal,
    random where it has none; the search (``SearchBot``, default budget) for hard.

    Games whose random play can cycle for ever (Kakhead) use the policy hook to offer and accept
    a draw after a long stretch without progress.

    A hard decision takes up to the search budget (0.15 s by default) of CPU: a server that
    must keep answering others runs it off its loop (``cardparty.core.search.decide``).
    """

    def __init__(self, level: str = "basic") -> None:
        self.level = canonical_level(level)
        self.hook_level = HOOK_LEVEL[self.level]
        self.search: Bot | None = SearchBot() if self.level == "hard" else None

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        if self.search is not None:
            return self.search.choose(table, seat, rng)
        moves = table.legal_moves(seat)
        if self.hook_level == "random" and not has_policy(table):
            return moves[rng.randrange(len(moves))]
        chosen = table.hook.cardparty_bot_move(view=lambda: table.view(seat), moves=moves,
                                               rng=rng, level=self.hook_level)
        if chosen is None:
            return moves[rng.randrange(len(moves))]
        return chosen
