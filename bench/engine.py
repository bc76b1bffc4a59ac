"""Engine speed: random playouts of every installed game, against RLCard's Uno in the same run,
and the search bot's rollouts (normal bots on determinized states, ``core.playout``).

Each game is played by random bots through the embedding API (``Table``: legal moves, play with
its legality check, apply, result, deadlines: every hook in the loop), as the simulator plays
them: ``play_out``, the referee's any-order mode. For Pika the same
playouts are also run with every hook called through pluggy's own callers (no direct dispatch),
to show what the driver's hook resolution buys. RLCard's Uno environment with random agents
(``env.run`` with ``RandomAgent``, RLCard's own loop) is the baseline of the target
(``pip install -e '.[bench]'``); a bare ``env.step`` loop is printed as a stricter floor.

    python bench/engine.py [--seconds 3] [--games pika,pikac]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

from cardparty.core.discovery import load_catalog
from cardparty.core.playout import Rules
from cardparty.core.simulate import play_out
from cardparty.core.table import Table

#: Players per game for the figures, and the issue targets in moves per second.
PLAYERS = {"pika": 4, "pikac": 4, "kakhead": 4, "piquet": 2}
TARGETS = {"pikac": 40_000, "kakhead": 40_000, "piquet": 20_000}
PIKA_VS_UNO_TARGET = 3.0


def measure(run_one: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Run games until ``seconds`` pass; return (games, moves, elapsed)."""
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += run_one(games)
        games += 1
    return games, moves, time.perf_counter() - start


def cardparty_game(game: str, players: int, through_pluggy: bool = False
                   ) -> Callable[[int], int]:
    def run_one(i: int) -> int:
        table = Table(game, players, seed=i)
        if through_pluggy:
            table.hook = table.pm.hook  # type: ignore[assignment]
        play_out(table, random.Random(i))
        return len(table.journal)
    return run_one


def search_rollouts(game: str, players: int, fast: bool) -> Callable[[int], int]:
    """The hard bot's rollouts (``core.playout.Rules``): the normal policy in every seat on a
    determinized state, as the search plays them, with the game's policy read from the state
    (``cardparty_bot_rollout``, ``fast``) or from a view built at every move."""
    def run_one(i: int) -> int:
        table = Table(game, players, seed=i)
        rules = Rules(table)
        if not fast:
            rules.fast = None
        state = table.determinize(table.to_move()[0], random.Random(i))
        rng = random.Random(i)
        moves = 0
        while rules.result(state=state) is None and moves < 2000:
            actor = rules.actor(state, rng)
            if actor is None:
                break
            legal = rules.legal(state=state, seat=actor)
            rules.apply(state=state, seat=actor, move=rules.choose(state, actor, legal, rng),
                        rng=rng)
            moves += 1
        return moves
    return run_one


def rlcard_uno(lean: bool) -> Callable[[int], int] | None:
    """RLCard's Uno with random agents, counted in decisions.

    ``lean=False`` is RLCard's own way to play it: ``env.run`` with ``RandomAgent`` in every
    seat (it also records the trajectories). ``lean=True`` drives ``env.step`` directly with a
    uniformly random legal action: the fastest RLCard can be made to go, a stricter floor.
    """
    try:
        import rlcard  # type: ignore[import-untyped]
        from rlcard.agents import RandomAgent  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(0)
    if not lean:
        env.set_agents([RandomAgent(num_actions=env.num_actions)
                        for _ in range(env.num_players)])

        def run_agents(i: int) -> int:
            trajectories, _ = env.run(is_training=False)
            return sum((len(t) - 1) // 2 for t in trajectories)   # state, action, ..., state
        return run_agents

    def run_one(i: int) -> int:
        state, _ = env.reset()
        decisions = 0
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"].keys()))
            state, _ = env.step(action)
            decisions += 1
        return decisions
    return run_one


def row(name: str, games: int, moves: int, elapsed: float) -> float:
    rate = moves / elapsed
    print(f"{name:<34} {games:>7} games {moves:>9} moves {elapsed:6.2f} s "
          f"{rate:>10,.0f} moves/s {games / elapsed:>9,.1f} games/s")
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per row, in total")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()
    catalog = load_catalog()
    wanted = [g for g in args.games.split(",") if g] or sorted(catalog.games)
    rows: list[tuple[str, str, Callable[[int], int]]] = []
    for game in wanted:
        info = catalog.game(game)
        players = PLAYERS.get(game, min(4, info.max_players))
        rows.append((game, f"{game} ({players}p, random bots)", cardparty_game(game, players)))
    for game in wanted:
        info = catalog.game(game)
        players = PLAYERS.get(game, min(4, info.max_players))
        if Rules(Table(game, players, seed=0)).fast is not None:
            rows.append((f"{game}-rollout", f"{game} ({players}p, search rollouts)",
                         search_rollouts(game, players, fast=True)))
            rows.append((f"{game}-viewed", f"{game} ({players}p, rollouts via views)",
                         search_rollouts(game, players, fast=False)))
    if "pika" in wanted:
        rows.append(("pika-2p", "pika (2p, random bots)", cardparty_game("pika", 2)))
        rows.append(("pika-pluggy", "pika (4p) every hook via pluggy",
                     cardparty_game("pika", 4, through_pluggy=True)))
    uno = rlcard_uno(lean=False)
    if uno is not None:
        rows.append(("uno", "rlcard uno (2p, env.run RandomAgent)", uno))
        rows.append(("uno-lean", "rlcard uno (2p, bare env.step loop)",
                     rlcard_uno(lean=True)))  # type: ignore[arg-type]
    # Rows take turns in short slices, so a load that comes and goes on the machine weighs on
    # every row alike and the ratios stay fair.
    slices = max(1, round(args.seconds / 0.5))
    totals = {key: [0, 0, 0.0] for key, _, _ in rows}
    for _ in range(slices):
        for key, _, run_one in rows:
            games, moves, elapsed = measure(lambda i, r=run_one, k=key: r(i + totals[k][0]),
                                            args.seconds / slices)
            totals[key][0] += games
            totals[key][1] += moves
            totals[key][2] += elapsed
    print(f"cardparty engine benchmark - Python {platform.python_version()}, "
          f"{platform.machine()}, {args.seconds:.1f} s per row in {slices} slices")
    rates = {key: row(name, *totals[key]) for key, name, _ in rows}  # type: ignore[arg-type]
    if uno is None:
        print("rlcard uno: not installed (pip install -e '.[bench]')")
    print()
    ok = True
    if "pika" in rates and "uno" in rates:
        ratio = rates["pika"] / rates["uno"]
        verdict = "ok" if ratio >= PIKA_VS_UNO_TARGET else "BELOW TARGET"
        print(f"pika / rlcard uno: {ratio:.2f}x (target >= {PIKA_VS_UNO_TARGET}x) {verdict}")
        ok &= ratio >= PIKA_VS_UNO_TARGET
        print(f"pika 2p / rlcard uno 2p: {rates['pika-2p'] / rates['uno']:.2f}x; "
              f"pika via pluggy / rlcard uno: {rates['pika-pluggy'] / rates['uno']:.2f}x")
        print(f"stricter floor, pika / rlcard's bare step loop: "
              f"{rates['pika'] / rates['uno-lean']:.2f}x")
    for game in wanted:
        if f"{game}-rollout" in rates:
            gain = rates[f"{game}-rollout"] / rates[f"{game}-viewed"]
            print(f"{game}: the search's rollouts {gain:.2f}x as fast with the policy read "
                  "from the state as through a view")
    for game, target in TARGETS.items():
        if game in rates:
            verdict = "ok" if rates[game] >= target else "BELOW TARGET"
            print(f"{game}: {rates[game]:,.0f} moves/s (target >= {target:,}) {verdict}")
            ok &= rates[game] >= target
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
