"""Bot-only games through the embedding API: the simulator behind ``cardparty simulate``,
the benchmarks and the random-simulation checker.

The referee decides who acts, in its "any order" mode (``core.referee``): drawn at random among
the seats that may move, plus SYSTEM while a deadline runs, so that a timer may run out at any
point it is listed, which exercises every interleaving of calls and timeouts that real time
could produce.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardparty.core.bots import Bot, PolicyBot
from cardparty.core.contract import Event, Move, Result
from cardparty.core.referee import Referee
from cardparty.core.table import Table
from cardparty.core.turns import draw_actor


class SimulationFailure(AssertionError):
    """A rule or invariant failed; carries what is needed to replay it."""

    def __init__(self, game: str, players: int, seed: int, move_no: int, message: str,
                 variants: tuple[str, ...] = ()) -> None:
        self.game, self.players, self.seed, self.move_no = game, players, seed, move_no
        self.variants = variants
        self.detail = message
        extra = f" variants={','.join(variants)}" if variants else ""
        super().__init__(f"{game} players={players} seed={seed}{extra} move {move_no}: "
                         f"{message}")

    def __reduce__(self) -> tuple[type[SimulationFailure], tuple[Any, ...]]:
        """Rebuilt from its own fields (a check run in worker processes sends it back)."""
        return (SimulationFailure, (self.game, self.players, self.seed, self.move_no,
                                    self.detail, self.variants))


def next_actor(table: Table, rng: random.Random) -> int | None:
    """A seat that may move now, or SYSTEM while a deadline is listed, drawn with ``rng`` as
    the referee's any-order mode draws it (``turns.draw_actor``); None when nobody can."""
    return draw_actor(table.to_move(), bool(table.deadlines()), rng)


class Observer(Protocol):
    """Watches a simulated game: the invariant checker is one."""

    def start(self, table: Table) -> None: ...

    def after_move(self, table: Table, seat: int, move: Move,
                   events: list[Event]) -> None: ...

    def finish(self, table: Table, result: Result) -> None: ...


def play_out(table: Table, rng: random.Random, bot: Bot | None = None,
             observer: Observer | None = None) -> Result:
    """Play ``table`` to its end with ``bot`` in every seat; return the result.

    ``observer`` sees the start, every move and the end. Raises SimulationFailure if the game
    does not end within its ``max_moves`` or nobody can move.
    """
    referee = Referee.any_order(table, rng, bot or PolicyBot("easy"))
    if observer is not None:
        observer.start(table)
    limit = table.info.max_moves
    moves = 0
    while True:
        result = table.result()
        if result is not None:
            if observer is not None:
                observer.finish(table, result)
            return result
        played = referee.fire(0.0)
        if played is None:
            raise SimulationFailure(table.game, table.players, table.seed, moves,
                                    "nobody can move but the game is not over",
                                    table.variant_ids)
        moves += 1
        if observer is not None:
            assert played.move is not None
            observer.after_move(table, played.seat, played.move, played.events)
        if moves > limit:
            raise SimulationFailure(table.game, table.players, table.seed, moves,
                                    f"the game did not end within {limit} moves",
                                    table.variant_ids)


@dataclass
class SimulationReport:
    game: str
    players: int
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    places: list[list[int]] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)

    def add(self, table: Table, result: Result) -> None:
        """Count one finished game: its moves, each seat's place, its outcome."""
        self.games += 1
        self.moves += len(table.journal)
        for s, place in enumerate(result.places):
            self.places[s][place - 1] += 1
        self.outcomes[result.outcome] = self.outcomes.get(result.outcome, 0) + 1

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "games": self.games,
            "moves": self.moves, "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "moves_per_second": round(self.moves / self.seconds, 1) if self.seconds else None,
            "average_length": round(self.moves / self.games, 2) if self.games else None,
            "places": self.places, "outcomes": self.outcomes,
        }


def simulate(game: str, players: int, games: int, seed: int, variants: Iterable[str] = (),
             settings: dict[str, Any] | None = None, observer: Observer | None = None,
             ) -> SimulationReport:
    """Play ``games`` bot games, seeds ``seed``, ``seed + 1``, ...; gather places per seat.

    Any exception inside a game becomes a SimulationFailure naming the seed and move number.
    """
    variants = tuple(variants)
    report = SimulationReport(game, players, places=[[0] * players for _ in range(players)])
    start = time.perf_counter()
    for g in range(games):
        report.add(*seeded_game(game, players, settings, variants, seed + g,
                                observer=observer))
    report.seconds = time.perf_counter() - start
    return report


def seeded_game(game: str, players: int, settings: dict[str, Any] | None,
                variants: tuple[str, ...], seed: int, bot: Bot | None = None,
                observer: Observer | None = None) -> tuple[Table, Result]:
    """One bot game of ``seed`` played out (the bots' stream is ``seed ^ 0x5EED``): the
    simulator's and the tournaments' game. Any exception inside becomes a SimulationFailure
    naming the seed and move number."""
    table = Table(game, players, settings, variants, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    try:
        return table, play_out(table, rng, bot=bot, observer=observer)
    except SimulationFailure:
        raise
    except Exception as exc:
        raise SimulationFailure(game, players, seed, len(table.journal) + 1,
                                f"{type(exc).__name__}: {exc}", variants) from exc
