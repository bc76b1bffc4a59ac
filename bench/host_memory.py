"""The host's memory per open table: its RSS before and after ``--memory-tables`` tables,
each with a game under way (one network player, three host bots), measured on a host of its
own (``bench/host.py`` runs it with the rest of the host's benches). The target: under 1 MB a
table.

Usage: ``.venv/bin/python bench/host_memory.py [--memory-tables 200] [--data]``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time

from hostload import add_arguments as add_load_arguments
from measure import host_command, rss_kb, start, stop

from cardparty.net.player.session import Session
from cardparty.net.trust.keys import KeyPair


def add_arguments(p: argparse.ArgumentParser) -> None:
    """This bench's own options (the game and ``--data`` are ``hostload``'s)."""
    p.add_argument("--memory-tables", type=int, default=200)


def memory_per_table(address: str, pid: int, tables: int, game: str) -> tuple[float, int]:
    """KB of host RSS per table with a game under way (one network player, the rest bots)."""
    s = Session(address, "memory", keys=KeyPair.generate())
    s.connect()
    warm = s.create(game, 4, idle=None)["id"]        # load the plugin and warm caches first
    s.sit(warm)
    s.add_bots(warm)
    s.ready(warm)
    time.sleep(0.5)
    before = rss_kb(pid)
    for _ in range(tables):
        tid = s.create(game, 4, idle=None)["id"]
        s.sit(tid)
        s.add_bots(tid)
        s.ready(tid)
    time.sleep(1.0)
    after = rss_kb(pid)
    playing = sum(1 for t in s.tables() if t["status"] == "playing")
    s.close()
    return (after - before) / tables, playing


def run(args: argparse.Namespace) -> None:
    """The bench (the module docstring), on a host started for it."""
    data_dir = tempfile.mkdtemp(prefix="cardparty-bench-") if args.data else None
    host, address = start(host_command(data_dir))
    try:
        per_table, playing = memory_per_table(address, host.pid, args.memory_tables, args.game)
    finally:
        stop(host)
        if data_dir is not None:
            shutil.rmtree(data_dir, ignore_errors=True)
    print(f"host memory: {per_table:.0f} KB per open table "
          f"({args.memory_tables} tables, {playing} with a game under way)")
    print(f"target: < 1 MB per open table: {per_table:.0f} KB -> "
          f"{'PASS' if per_table < 1024 else 'FAIL'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(p)
    add_arguments(p)
    run(p.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
