"""The wake's cost: a host started afresh with 16, 100 and 1,000 tables in play and nobody
moving (``--idle-tables``; each a player who does not move and a host bot), its CPU per second
of wall time while it only waits: what its loop's wake costs when nothing is due, for this
host and, with ``--baseline DIR``, that tree's (``bench/host.py`` runs it with the rest of the
host's benches). The target: the wake's cost flat from 16 to 1,000 idle tables.

Usage: ``.venv/bin/python bench/host_wake.py [--idle-tables 16,100,1000] [--baseline DIR]``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from typing import Any

from hostload import add_arguments as add_load_arguments
from measure import add_baseline_arguments, cpu_seconds, host_command, speaks_curve, start, stop

from cardparty.net.player.session import Session
from cardparty.net.trust.keydesk import fetch_key
from cardparty.net.trust.keys import KeyPair
from cardparty.net.trust.known_hosts import KnownHosts


def add_arguments(p: argparse.ArgumentParser) -> None:
    """This bench's own options (the game is ``hostload``'s)."""
    p.add_argument("--idle-tables", default="16,100,1000",
                   help="the counts of idle tables the wake's cost is measured with (empty: "
                        "skip it in bench/host.py)")
    p.add_argument("--idle-seconds", type=float, default=5.0,
                   help="how long the idle host's CPU is measured at each count")


def open_idle_tables(address: str, count: int, game: str, curve: bool, tmp: str,
                     clients: int = 4) -> list[Any]:
    """``count`` tables of ``game`` in play and waiting for a person who does not move (one
    network player and one host bot each, no idle timeout): sessions that stay connected (they
    ping, as real clients do), ``clients`` of them with a key each, opening their share of
    the tables side by side."""
    host_key = fetch_key(address)[0] if curve else None
    sessions = [Session(address, f"idle-{i}", keys=KeyPair.generate(), host_key=host_key,
                        known_hosts=KnownHosts(f"{tmp}/known_hosts"), secure=curve)
                for i in range(clients)]
    for s in sessions:
        s.connect(10.0)
    failed: list[BaseException] = []

    def open_share(s: Any, n: int) -> None:
        try:
            for _ in range(n):
                tid = s.create(game, 2, idle=None)["id"]
                s.sit(tid, 0)
                s.add_bots(tid)
                s.ready(tid)
        except BaseException as exc:           # said by the caller
            failed.append(exc)

    shares = [count // clients + (i < count % clients) for i in range(clients)]
    threads = [threading.Thread(target=open_share, args=(s, n))
               for s, n in zip(sessions, shares, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        raise SystemExit(f"could not open {count} idle tables: {failed[0]}")
    return sessions


def idle_wake_cost(cmd: list[str], count: int, args: argparse.Namespace, curve: bool
                   ) -> float:
    """A fresh host from ``cmd`` with ``count`` idle tables in play (``open_idle_tables``):
    its CPU seconds per second of wall time over ``--idle-seconds``, once it is still."""
    tmp = tempfile.mkdtemp(prefix="cardparty-bench-idle-")
    host, address = start(cmd)
    try:
        sessions = open_idle_tables(address, count, args.game, curve, tmp)
        time.sleep(1.0)                          # the last bots' moves, the last replies
        cpu0, t0 = cpu_seconds(host.pid), time.perf_counter()
        time.sleep(args.idle_seconds)
        cpu, took = cpu_seconds(host.pid) - cpu0, time.perf_counter() - t0
        for s in sessions:
            s.abort()
    finally:
        stop(host)
        shutil.rmtree(tmp, ignore_errors=True)
    return cpu / took


def run(args: argparse.Namespace) -> None:
    """The bench (the module docstring): the idle host's CPU with 16, 100 and 1,000 tables in
    play and nobody moving, for this host and the baseline's, each count in turn."""
    counts = [int(n) for n in args.idle_tables.split(",")]
    hosts: list[tuple[str, str | None]] = [("this host", None)]
    if args.baseline:
        hosts.append((f"baseline host ({args.baseline_label or args.baseline})", args.baseline))
    print(f"the wake's cost: an idle host's CPU with tables in play and nobody moving "
          f"({args.game} for 2: a player who does not move and a host bot; "
          f"{args.idle_seconds:g} s each, each host started afresh):")
    got: dict[str, dict[int, float]] = {label: {} for label, _ in hosts}
    for n in counts:
        for label, tree in hosts:
            curve = tree is None or speaks_curve(tree)
            got[label][n] = idle_wake_cost(host_command(None, tree, curve), n,
                                           args, curve)
    for label, _ in hosts:
        row = got[label]
        print(f"  {label}: " + ", ".join(f"{n} tables {row[n] * 1e3:.1f} ms/s" for n in counts)
              + f"  ({row[counts[-1]] / max(row[counts[0]], 1e-6):.1f}x from {counts[0]} to "
              f"{counts[-1]})")
    mine = got["this host"]
    flat = mine[counts[-1]] <= 2 * mine[counts[0]] + 0.002
    print(f"target: the wake's cost flat from {counts[0]} to {counts[-1]} idle tables "
          f"(at most twice, or 2 ms/s more): {mine[counts[0]] * 1e3:.1f} -> "
          f"{mine[counts[-1]] * 1e3:.1f} ms/s -> {'PASS' if flat else 'FAIL'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(p)
    add_baseline_arguments(p)
    add_arguments(p)
    run(p.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
