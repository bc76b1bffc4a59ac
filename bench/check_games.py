"""The random-simulation checker at full size: thousands of seeded games of every game, every
invariant of ``core/simcheck.py`` checked after every move.

The test suite runs the same checks over fewer games so that it stays within five minutes on
two cores (tests/*/test_*_simulation.py); this script plays the full counts the rules files
promise and prints, per run, the games, moves, outcomes and time, then one verdict line. A
failing seed stops the run and is printed with its move number: a bug to fix, then a scenario
test.

    python bench/check_games.py                  # every run below (tens of minutes)
    python bench/check_games.py --only kakhead   # one game's runs
    python bench/check_games.py --scale 0.01     # a tiny smoke run (the bench-script test)
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from cardparty.core.simcheck import check_random_games
from cardparty.core.simulate import SimulationFailure

# (label, game, player counts, games per count, variants, settings)
RUNS: list[tuple[str, str, tuple[int, ...], int, tuple[str, ...], dict[str, Any]]] = [
    ("pika", "pika", (2, 3, 4), 680, (), {}),
    ("pika strict +4", "pika", (4,), 300, ("pika-strict-plus4",), {}),
    ("pikac", "pikac", (2, 3, 4, 5, 6, 7, 8), 286, (), {}),
    ("pikac play-drawn", "pikac", (3,), 200, ("pikac-play-drawn",), {}),
    ("pikac live-starter", "pikac", (3,), 200, ("pikac-live-starter",), {}),
    ("kakhead", "kakhead", (2, 3, 4, 5, 6, 7, 8), 286, (), {}),
    ("kakhead offer_after 10", "kakhead", (4,), 2000, (), {"offer_after": 10}),
    ("kakhead four-in-a-row", "kakhead", (4,), 300, ("kakhead-four-in-a-row",), {}),
    ("piquet deals", "piquet", (2,), 2000, (), {"deals": 1}),
    ("piquet matches", "piquet", (2,), 200, (), {}),
    ("piquet classic deals, spoken", "piquet", (2,), 2000, ("piquet-classic",), {"deals": 1}),
    ("piquet classic parties", "piquet", (2,), 200, ("piquet-classic",), {}),
    ("piquet Czech, spoken", "piquet", (2,), 500, (), {"deals": 1, "spoken": True}),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=None, help="run only the runs of this game id")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every count by this (at least one game per count)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed of every run")
    args = parser.parse_args(argv)
    total_games = total_moves = 0
    start = time.perf_counter()
    for label, game, counts, per, variants, settings in RUNS:
        if args.only and game != args.only:
            continue
        games = max(1, round(per * args.scale))
        for players in counts:
            t0 = time.perf_counter()
            try:
                report = check_random_games(game, players, games,
                                            seed=args.seed + 10_000 * players,
                                            variants=variants, settings=settings or None)
            except SimulationFailure as failure:
                print(f"{label}, {players} players: FAILED: {failure}")
                print("verdict: FAIL")
                return 1
            seconds = time.perf_counter() - t0
            outcomes = ", ".join(f"{k} {v}" for k, v in sorted(report.outcomes.items()))
            print(f"{label}, {players} players: {report.games} games, {report.moves} moves "
                  f"checked in {seconds:.1f} s ({outcomes})", flush=True)
            total_games += report.games
            total_moves += report.moves
    print(f"all: {total_games} games, {total_moves} moves checked in "
          f"{time.perf_counter() - start:.0f} s")
    print("verdict: every invariant held in every game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
