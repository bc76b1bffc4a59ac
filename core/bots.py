"""What a bot is, the bots every game gets, and the one vocabulary of their levels.

A bot chooses a move for a seat from what that seat may know: the table's view of the seat and
its legal moves (and, for bots that search, ``Table.sampler``). It never reads the state. A
game can give its bots a better policy with the ``cardparty_bot_move`` hook; without one, or
when that hook answers None, the choice is uniformly random among the legal moves.

Three levels (docs/bots.md), the only names inside core and the games: ``easy`` plays the
game's policy at "easy" (uniformly random, or the random-ish mix a game needs to end),
``normal`` the game's policy at "normal" (its heuristics), ``hard`` searches
(``cardparty.core.search``). The old names ``random`` and ``basic`` (saved tables, scripts,
older clients) are accepted where input enters: ``canonical_level`` turns any accepted name
(``ACCEPTED_LEVELS``) into one of ``LEVELS``, and everything past it speaks only those.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from cardparty.core.contract import Move
from cardparty.core.search import SearchBot
from cardparty.core.table import Table

#: The three levels, easiest first: the only names a bot, a game's policy hook or the search
#: is given.
LEVELS = ("easy", "normal", "hard")
#: The names older saves, scripts and clients send, and the level each means.
OLD_NAMES = {"random": "easy", "basic": "normal"}
#: Every name input may give for a level (a command line, a request on the wire, a save).
ACCEPTED_LEVELS = (*LEVELS, *OLD_NAMES)


def canonical_level(level: str) -> str:
    """``easy``, ``normal`` or ``hard`` for any accepted name; ValueError otherwise.

    Called where a level enters from outside (the command line, the host's requests and
    saves); a bot is then made with the canonical name.
    """
    if level in LEVELS:
        return level
    if level in OLD_NAMES:
        return OLD_NAMES[level]
    raise ValueError(f"bot level must be one of {', '.join(LEVELS)} "
                     f"(or the old names {', '.join(OLD_NAMES)})")


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

    A hard decision takes up to the search budget of CPU: a server that must keep answering
    others runs it off its loop (``cardparty.core.search.decide``).
    """

    def __init__(self, level: str = "normal") -> None:
        if level not in LEVELS:
            raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, not {level!r} "
                             "(canonical_level turns the old names into these)")
        self.level = level
        self.search: Bot | None = SearchBot() if level == "hard" else None

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        if self.search is not None:
            return self.search.choose(table, seat, rng)
        moves = table.legal_moves(seat)
        if self.level == "easy" and not has_policy(table):
            return moves[rng.randrange(len(moves))]
        hook: Any = table.hook
        chosen: Move | None = hook.cardparty_bot_move(view=lambda: table.view(seat),
                                                      moves=moves, rng=rng, level=self.level)
        if chosen is None:
            return moves[rng.randrange(len(moves))]
        return chosen
