"""A game's hard habit alone against its normal policy: what ``cardparty_bot_hard_move`` is worth.

Duplicate tournaments (every deal once per rotation of the seats) of one seat playing the
game's hard habit where it answers, and the normal policy elsewhere, against normal bots in
every other seat; no search. Prints the habit's share of first places with a 95% interval
over deals, against the normal policy's own share in the same tournaments (1/players by
symmetry: every seat plays normal there, so its line is the baseline measured, not assumed).
A policy tournament costs milliseconds a game, so thousands of deals tell a point apart: the
place to try a habit before the search is run on it (docs/bots.md, "Hard's own habits").

    python bench/habits.py [--game kakhead] [--players 4] [--deals 2000] [--seed 20000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.table import Table
from cardparty.core.tournament import deal_interval, tournament


class Habit:
    """The hard habit where the game has one for this decision, the normal policy otherwise."""

    def __init__(self) -> None:
        self.normal = PolicyBot("normal")
        self.used = 0

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        hook: Any = table.hook
        moves = table.legal_moves(seat)
        chosen: Move | None = hook.cardparty_bot_hard_move(
            view=lambda: table.view(seat), moves=moves, rng=rng)
        if chosen is None:
            return self.normal.choose(table, seat, rng)
        self.used += 1
        return chosen


def share(game: str, players: int, deals: int, seed: int, bot: Any) -> str:
    rep = tournament(game, players, deals, seed, ["hard"] + ["normal"] * (players - 1),
                     duplicate=True, bots={"hard": bot})
    mean, low, high = deal_interval([d["hard"] for d in rep.per_deal])
    return f"{100 * mean:5.1f}% [{100 * low:5.1f}, {100 * high:5.1f}]"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kakhead")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20000)
    args = ap.parse_args()
    start = time.perf_counter()
    habit = Habit()
    print(f"{args.game} for {args.players}, {args.deals} duplicate deals from seed {args.seed}, "
          "one seat against normal bots, no search:")
    print(f"  the hard habit: {share(args.game, args.players, args.deals, args.seed, habit)} "
          f"of the first places ({habit.used} decisions by the habit)")
    normal = share(args.game, args.players, args.deals, args.seed, PolicyBot("normal"))
    print(f"  the normal policy in the same seat: {normal}  (fair share "
          f"{100 / args.players:.1f}%)")
    print(f"took {time.perf_counter() - start:.0f} s")
    if not habit.used:
        print(f"{args.game} has no hard habit (cardparty_bot_hard_move): it plays as normal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
