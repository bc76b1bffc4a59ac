"""The host's benches, over real sockets on 127.0.0.1: the whole set in one run, each part in
turn, or one part (``--only``). Each part is a script of its own that also runs alone with the
same options:

1. ``host_latency.py``: the floors (a raw pyzmq echo round trip, back to back and paced; the
   machine's own CPU stalls) and the latency from a move to every seat's view, flat out, one
   table alone among the connected clients, and paced;
2. ``host_memory.py``: the host's memory per open table;
3. ``host_cost.py``: the host's CPU per move flat out, without and with ``--data``, without
   encryption, and against ``--baseline DIR`` (another checkout's host, in the same run); the
   floor of a move's messages, the game's own work and the least host (``--only compare``);
4. ``host_wake.py``: an idle host's CPU with 16, 100 and 1,000 tables in play, against the
   baseline's too (``--only wake``);
5. ``host_standby.py``: a standby's cost in throughput, CPU and latency (``--only standby``;
   ``--no-standby`` skips it).

With ``--hard-tables N`` it runs instead ``hard_bots.py``: N tables of hard bots playing flat
out and another player's ping, the bots off the host's loop and on it.

Each part prints its figures and its targets' PASS or FAIL (docs/performance.md says what
each measures and why); the load (``hostload.py``) and what the parts read of a process
(``measure.py``) are shared.

Usage: ``.venv/bin/python bench/host.py [--help]``.
"""

from __future__ import annotations

import argparse
import sys

import hard_bots
import host_cost
import host_latency
import host_memory
import host_standby
import host_wake
import hostload
from measure import add_baseline_arguments

#: ``--only``'s parts, by name.
ONLY = {"compare": host_cost, "wake": host_wake, "standby": host_standby}


def arguments() -> argparse.ArgumentParser:
    """Every part's options, each given once."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    hostload.add_arguments(p)
    host_latency.add_arguments(p)
    host_memory.add_arguments(p)
    add_baseline_arguments(p)
    host_wake.add_arguments(p)
    p.add_argument("--only", choices=sorted(ONLY), default=None,
                   help="run only the cost per move (compare), the wake's cost (wake), each "
                        "with the baseline, or a standby's cost (standby)")
    p.add_argument("--standby", action=argparse.BooleanOptionalAction, default=True,
                   help="a host with a standby attached against one without")
    p.add_argument("--hard-tables", type=int, default=0, metavar="N",
                   help="instead of the above: N tables of hard bots flat out and another "
                        "player's ping, bots off and on the host's loop (bench/hard_bots.py; "
                        "uses --game, --players, --seconds, --seed)")
    hard_bots.add_arguments(p, "hard-")
    return p


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    if args.hard_tables:
        args.tables = args.hard_tables
        return hard_bots.hard_bots(args)
    if args.only:
        ONLY[args.only].run(args)
        return 0
    host_latency.run(args)
    host_memory.run(args)
    if args.compare_seconds > 0:
        host_cost.run(args)
    if args.idle_tables:
        host_wake.run(args)
    if args.standby and args.compare_seconds > 0:
        host_standby.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
