"""The client's render path: from a received view to the screen, per installed game.

The real application (``cardparty.client.app``) runs on an 80x24 VT100 output kept in memory,
with prompt-toolkit's pipe input. Views are real: each game is played by bots through the
embedding API and the referee, and every view of seat 0 (with its events) is recorded. Each
recorded view is then handed to the application's inbox by a link thread, exactly as the link
delivers a host's message, and the time is taken from that hand-over until prompt-toolkit has
written the new screen (its ``after_render`` event). The CPU column is the application
thread's own time for the same span, which a busy machine does not inflate. Target: 20 ms (the
issue's "the screen reflects a received view within 20 ms").

A control closes the run: the same pure Python work, as long as the median redraw, timed as
often as the redraws were. Its spread is the machine's own: on a shared virtual CPU the same
5 ms of work now and then takes three or four times as long, in CPU time too.

With ``--lang en,cs`` each game's views are drawn once per language, in the same run and the
same order, and the CPU medians are compared with the first language's (the target: Czech costs
no more than 10% more than English).

    python bench/client_render.py [--views 300] [--games pika,kakhead] [--lang en,cs]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import os
import platform
import queue
import random
import statistics
import sys
import threading
import time
from typing import Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from cardparty.client.app import build_app, run_async
from cardparty.client.controller import Controller
from cardparty.client.words import describer
from cardparty.core.bots import PolicyBot
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import LANGUAGES, set_language
from cardparty.core.referee import Referee
from cardparty.core.table import open_table

TARGET_MS = 20.0
PLAYERS = {"pika": 4, "pikac": 4, "kakhead": 4, "piquet": 2}


class Screen(io.StringIO):
    encoding = "utf-8"


class NoLink:
    """The bench feeds the inbox itself; the application needs a link only to send."""

    def start(self, deliver: Any) -> None: ...
    def close(self) -> None: ...
    def send_move(self, table: Any, move: dict[str, Any]) -> None: ...
    def reorder(self, table: Any, order: list[str]) -> None: ...
    def chat(self, table: Any, text: str) -> None: ...
    def request(self, action: str, **args: Any) -> None: ...


def record_views(game: str, players: int, count: int, seed: int) -> list[dict[str, Any]]:
    """Seat 0's view message after every move of bot games, until ``count`` are recorded. The
    referee runs the games as the simulator does (any order: a deadline may run out wherever
    it is listed), so the views include warnings, penalties and the ends of rounds."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    names = [f"Player {i + 1}" for i in range(players)]
    while len(out) < count:
        table = open_table(game, players, seed=rng.randrange(2**31), names=names)
        referee = Referee.any_order(table, rng, PolicyBot("normal"))
        seen = 0
        for _ in range(5000):
            if referee.fire(0.0) is None:
                break
            out.append({"type": "view", "table": "t1", "view": table.view(0),
                        "events": table.events_for(0, seen)})
            seen = len(table.events)
            if len(out) >= count:
                break
    return out


def measure(views: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """Milliseconds from handing each view to the inbox (from another thread) to the end of
    the screen's redraw: wall-clock time, and the CPU time the client's thread spent on it
    (which a busy machine does not inflate)."""
    controller = Controller(NoLink(), name="Player 1", address="bench", describe=describer)
    screen = Screen()
    output = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm-256color")
    times: list[float] = []
    cpu: list[float] = []

    async def main() -> None:
        with create_pipe_input() as pipe:
            app, inbox = build_app(controller, input=pipe, output=output)
            rendered = asyncio.Event()
            done_at = [0.0, 0.0]

            def after_render(_: object) -> None:
                # The screen has been written: the moment the player sees the view.
                done_at[0] = time.perf_counter()
                done_at[1] = time.thread_time()
                rendered.set()

            app.after_render += after_render

            # The link's thread (the session's, for a real host): it stamps the moment it
            # hands a received view to the application.
            todo: queue.Queue[dict[str, Any] | None] = queue.Queue()
            stamps: list[tuple[float, float]] = []

            def link_thread() -> None:
                while (msg := todo.get()) is not None:
                    stamps.append((time.perf_counter(), 0.0))
                    inbox.deliver(msg)

            worker = threading.Thread(target=link_thread, daemon=True)
            worker.start()

            async def drive() -> None:
                while not app.is_running:
                    await asyncio.sleep(0.01)
                todo.put(views[0])
                await asyncio.sleep(0.1)
                for msg in views:
                    rendered.clear()
                    stamps.clear()
                    start_cpu = time.thread_time()
                    todo.put(msg)
                    await rendered.wait()
                    times.append((done_at[0] - stamps[0][0]) * 1000)
                    cpu.append((done_at[1] - start_cpu) * 1000)
                    await asyncio.sleep(0.002)
                todo.put(None)
                app.exit()

            task = asyncio.ensure_future(drive())
            await run_async(app, inbox)
            await task

    asyncio.run(main())
    return times, cpu


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def control(cpu_ms: float, rounds: int) -> list[float]:
    """The machine's own jitter, measured in the same run: a fixed piece of pure Python work
    as long as the median redraw, repeated ``rounds`` times with the same 2 ms pauses
    between. Every round does exactly the same work, so whatever spread its CPU times show
    is the machine's (a virtual CPU shared with other guests), not the client's."""
    def timed(n: int) -> float:
        t = time.thread_time()
        _spin(n)
        return (time.thread_time() - t) * 1000

    n = 20000
    for _ in range(3):                  # scale the work until its median is the redraw's
        n = max(1000, int(n * cpu_ms / statistics.median(timed(n) for _ in range(30))))
    out = []
    for _ in range(rounds):
        t = time.thread_time()
        _spin(n)
        out.append((time.thread_time() - t) * 1000)
        time.sleep(0.002)
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", type=int, default=300, help="views per game (default 300)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", default="en",
                        help="comma-separated languages, each drawing the same views "
                             f"({', '.join(LANGUAGES)}; default en)")
    args = parser.parse_args(argv)
    langs = [x for x in args.lang.split(",") if x]
    if not langs or any(x not in LANGUAGES for x in langs):
        parser.error(f"--lang: choose from {', '.join(LANGUAGES)}")
    catalog = load_catalog()
    games = [g for g in (args.games.split(",") if args.games else sorted(catalog.games))
             if g in catalog.games]
    print(f"client render path, 80x24 VT100 in memory; python {platform.python_version()} "
          f"on {platform.machine()}; target {TARGET_MS:.0f} ms from a received view to the "
          "redrawn screen")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average when starting: {load:.2f} on {os.cpu_count()} cpus (wall-clock "
          "figures grow with it; CPU figures do not)")
    print(f"{'game':<12}{'views':>6}  {'wall ms: median':>15}{'p95':>7}{'p99':>7}{'max':>7}"
          f"{'<=20ms':>8}   {'cpu ms: median':>14}{'p95':>7}{'p99':>7}")
    worst = worst_cpu = 0.0
    all_cpu: list[float] = []
    by_lang: dict[str, list[float]] = {lang: [] for lang in langs}
    for game in games:
        players = min(PLAYERS.get(game, 4), catalog.game(game).max_players)
        views = record_views(game, players, args.views, args.seed)
        for lang in langs:
            set_language(lang)
            wall, cpu = (sorted(x) for x in measure(copy.deepcopy(views)))
            all_cpu += cpu
            by_lang[lang] += cpu
            within = sum(t <= TARGET_MS for t in wall) / len(wall)
            worst = max(worst, pct(wall, 0.99))
            worst_cpu = max(worst_cpu, pct(cpu, 0.99))
            name = game if len(langs) == 1 else f"{game} {lang}"
            print(f"{name:<12}{len(wall):>6}  {statistics.median(wall):>15.2f}"
                  f"{pct(wall, .95):>7.2f}{pct(wall, .99):>7.2f}{wall[-1]:>7.2f}{within:>8.1%}   "
                  f"{statistics.median(cpu):>14.2f}{pct(cpu, .95):>7.2f}{pct(cpu, .99):>7.2f}")
    set_language("en")
    if len(langs) > 1:
        base = statistics.median(by_lang[langs[0]])
        for lang in langs[1:]:
            m = statistics.median(by_lang[lang])
            print(f"language {lang} against {langs[0]}: CPU median per redraw {m:.2f} ms "
                  f"against {base:.2f} ms ({(m / base - 1):+.1%}; target at most +10%)")
    verdict = "OK" if worst <= TARGET_MS else "MISSED"
    print(f"p99 over all games: wall {worst:.2f} ms -> {verdict}; CPU {worst_cpu:.2f} ms")
    median = statistics.median(all_cpu)
    same = control(median, len(all_cpu))
    print(f"control, the same pure Python work every time ({median:.2f} ms of CPU, the median "
          f"redraw; {len(same)} rounds): median {statistics.median(same):.2f}, "
          f"p95 {pct(same, .95):.2f}, p99 {pct(same, .99):.2f}, max {same[-1]:.2f} ms CPU "
          "(the spread this machine adds to any work of that size)")
    every = sorted(all_cpu)
    print(f"p99 / median, CPU: redraws {pct(every, .99) / median:.1f}x, "
          f"the control {pct(same, .99) / statistics.median(same):.1f}x")
    return 0 if worst <= TARGET_MS else 1


def pct(sorted_values: list[float], q: float) -> float:
    return sorted_values[max(0, int(len(sorted_values) * q) - 1)]


if __name__ == "__main__":
    sys.exit(main())
