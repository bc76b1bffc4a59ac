"""The host's latency, against the floors of this machine: how long from a move to every
seat's view of it, while the host is saturated, while one table moves alone, and at a paced
party's rate (``bench/host.py`` runs it with the rest of the host's benches).

1. The floors: a raw pyzmq DEALER/ROUTER echo round trip (a ROUTER in its own process sending
   every frame straight back), p50 and p99: back to back, and paced with the same gaps as the
   paced phase below. On a virtual machine a process that slept 50 ms takes far longer to
   wake than one that is busy, so the paced echo is the floor that a paced table really has;
   both ratios are printed.
   And the machine's own CPU stalls: the same short pure-Python work timed again and again.
   On a virtual machine whose CPU is taken away in bursts, that work's p99 / p50 is the
   spread that every latency measured here carries in its tail.
2. N network bot clients (``hostload``: default 16 tables x 4 players = 64 clients) playing
   Pika through a host in its own process (``cardparty host``):
   - **flat out**: every client moves as soon as its view lets it: the host's moves/s, and the
     latency from sending a move to the moment the LAST seat of that table holds a view of the
     new version (p50, p99);
   - **one table**: one table flat out while the other clients stay connected and idle (they
     ping, as real clients do): the same latency when no process sleeps and the host is
     not saturated, with all the connections open;
   - **paced**: each table moves at most every ``--pace-ms`` ms (a busy LAN party), the same
     latency: what a player feels while the host is not saturated.
   Each phase starts after half a second at its pace, so the moves queued by the previous
   phase are not counted in it.

Then the ratios to the echo floor and the targets: p50 at most 4x the echo round trip; p99
under 10 ms.

Usage: ``.venv/bin/python bench/host_latency.py [--help]``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from typing import Any

import zmq
from hostload import Load
from hostload import add_arguments as add_load_arguments
from measure import PY, cpu_seconds, host_command, load_average, percentile, start, stop

from cardparty.net.wire.protocol import decode, encode, message


def add_arguments(p: argparse.ArgumentParser) -> None:
    """This bench's own options (the load's are ``hostload``'s)."""
    p.add_argument("--seconds", type=float, default=8.0, help="length of each load phase")
    p.add_argument("--pace-ms", type=float, default=50.0,
                   help="paced phase: one move per table every this many ms")
    p.add_argument("--echo-rounds", type=int, default=3000)
    p.add_argument("--paced-echo-rounds", type=int, default=150,
                   help="echo round trips with the paced phase's gaps between them")
    p.add_argument("--stall-seconds", type=float, default=5.0,
                   help="how long to time the machine's own CPU stalls")
    p.add_argument("--host-cmd", default="", help=argparse.SUPPRESS)


# --- the echo floor ----------------------------------------------------------------------------

def echo_server() -> None:
    """A ROUTER that sends every message straight back (run in its own process)."""
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.ROUTER)
    sock.bind("tcp://127.0.0.1:*")
    print(sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    while True:
        sock.send_multipart(sock.recv_multipart())


def echo_round_trips(address: str, rounds: int, pace: float = 0.0,
                     seed: int = 1) -> list[float]:
    """Round trips of a message the size of a move request, one at a time: back to back, or
    with a gap of ``pace`` seconds (0.5x to 1.5x, as the paced tables) before each, so that
    both ends sleep between messages as the host and its players do at a real table."""
    gaps = random.Random(seed)
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(address)
    frame = encode(message("move", rid=123456789, table="t1", move=3, version=42))
    for _ in range(200):                     # warm up the connection
        sock.send(frame)
        sock.recv()
    out = []
    for _ in range(rounds):
        if pace:
            time.sleep(pace * gaps.uniform(0.5, 1.5))
        t0 = time.perf_counter()
        sock.send(frame)
        decode(sock.recv())
        out.append(time.perf_counter() - t0)
    sock.close()
    return out


# --- the machine's own stalls --------------------------------------------------------------------

def _spin(n: int) -> int:
    x = 0
    for i in range(n):
        x += i * i
    return x


def cpu_stalls(seconds: float, work_us: float = 250.0, gap: float = 0.002
               ) -> tuple[float, list[tuple[float, float]]]:
    """The same pure-Python work, again and again with ``gap`` of sleep between, no memory
    allocated and no I/O: on a machine whose CPU is taken away in bursts (a virtual machine
    on a busy host), the slow rounds show how often and by how much. Any latency measured
    here carries the same bursts in its tail. Returns the work's median and (start, seconds)
    of every round."""
    n = 2000
    for _ in range(20):                      # warm up first: the first rounds run slow
        _spin(n)
    trial = sorted(_timed(_spin, n) for _ in range(41))
    n = max(100, int(n * work_us / 1e6 / trial[len(trial) // 2]))
    rounds = []
    t_start = time.perf_counter()
    end = t_start + seconds
    while (t0 := time.perf_counter()) < end:
        _spin(n)
        rounds.append((t0 - t_start, time.perf_counter() - t0))
        time.sleep(gap)
    return percentile([r for _, r in rounds], 50), rounds


def _timed(f: Any, *args: Any) -> float:
    t0 = time.perf_counter()
    f(*args)
    return time.perf_counter() - t0


def stall_summary(median: float, rounds: list[tuple[float, float]]) -> tuple[str, float]:
    """One line on the slow rounds (over 4x the median), grouped into bursts (slow rounds
    under 0.2 s apart); and the p99 / p50 ratio of the work."""
    slow = [t for t, r in rounds if r > 4 * median]
    bursts: list[float] = []
    for t in slow:
        if not bursts or t - bursts[-1] > 0.2:
            bursts.append(t)
        else:
            bursts[-1] = t
    times = [r for _, r in rounds]
    p99 = percentile(times, 99)
    every = ""
    if len(bursts) > 1:
        span = rounds[-1][0] - rounds[0][0]
        every = f", a burst every {span / len(bursts):.1f} s on average"
    return (f"p50 {median * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us ({p99 / median:.1f}x), "
            f"max {max(times) * 1e6:.0f} us; {len(slow) / len(rounds) * 100:.1f}% of rounds "
            f"over 4x the median, in {len(bursts)} bursts{every}"), p99 / median


# --- the bench ----------------------------------------------------------------------------------

def run(args: argparse.Namespace) -> None:
    """The bench (the module docstring): the floors, the load's phases and their targets."""
    print(f"load average before: {load_average()} on {os.cpu_count()} cores")
    echo_proc, echo_addr = start([PY, __file__, "--echo-server"])
    try:
        echo = echo_round_trips(echo_addr, args.echo_rounds)
        echo_paced = echo_round_trips(echo_addr, args.paced_echo_rounds, args.pace_ms / 1000)
    finally:
        stop(echo_proc)
    e50, e99 = percentile(echo, 50), percentile(echo, 99)
    q50, q99 = percentile(echo_paced, 50), percentile(echo_paced, 99)
    print(f"raw pyzmq DEALER/ROUTER echo round trip ({args.echo_rounds} rounds): "
          f"p50 {e50 * 1e6:.0f} us, p99 {e99 * 1e6:.0f} us")
    print(f"the same, paced: one round every {args.pace_ms:.0f} ms "
          f"({args.paced_echo_rounds} rounds): p50 {q50 * 1e6:.0f} us, p99 {q99 * 1e6:.0f} us "
          f"(waking a sleeping process costs this much on this machine)")

    median, rounds = cpu_stalls(args.stall_seconds)
    stalls, stall_ratio = stall_summary(median, rounds)
    print(f"the machine's CPU: the same pure Python work every 2 ms for "
          f"{args.stall_seconds:.0f} s ({len(rounds)} rounds): {stalls}")

    data_dir = ""
    if args.data:
        data_dir = tempfile.mkdtemp(prefix="cardparty-bench-")
        print(f"the host keeps every table in SQLite after every move ({data_dir})")
    host_cmd = host_command(data_dir or None)
    if args.host_cmd:
        host_cmd = args.host_cmd.split()
    host, address = start(host_cmd)
    results: dict[str, tuple[float, float, float]] = {}
    try:
        clients = args.tables * args.players
        load = Load(address, args.tables, args.players, args.game, {}, args.seed)
        load.connect()
        load.run(1.0, 0, measure=False)                     # warm up
        phases: list[tuple[str, float, int | None]] = [
            ("flat out", 0.0, None), ("one table", 0.0, 1), ("paced", args.pace_ms, None)]
        for phase, pace, active in phases:
            load.run(0.5, pace, measure=False, active=active)   # the previous queue drains
            cpu0, mine0 = cpu_seconds(host.pid), time.process_time()
            took = load.run(args.seconds, pace, active=active)
            cpu, mine = cpu_seconds(host.pid) - cpu0, time.process_time() - mine0
            lat = load.latencies
            l50, l99 = percentile(lat, 50), percentile(lat, 99)
            rate = load.moves / took
            results[phase] = (rate, l50, l99)
            label = (f"paced, 1 move per table every {pace:.0f} ms" if pace else
                     f"one table flat out, the other {clients - args.players} clients "
                     f"connected and idle" if active else phase)
            print(f"{clients} clients, {args.tables} tables of {args.game} ({label}): "
                  f"{load.moves} moves in {took:.1f} s = {rate:.0f} moves/s; "
                  f"move -> all {args.players} views p50 {l50 * 1e3:.2f} ms "
                  f"({l50 / e50:.1f}x echo"
                  + (f", {l50 / q50:.1f}x paced echo" if pace else "")
                  + f"), p99 {l99 * 1e3:.2f} ms; "
                  f"host CPU {cpu / max(1, load.moves) * 1e6:.0f} us per move "
                  f"({cpu / took * 100:.0f}% of a core; the {clients} clients "
                  f"{mine / took * 100:.0f}%)")
        games = sum(g.games for g in load.groups)
        print(f"games finished during the run: {games}; error replies: "
              f"{dict(sorted(load.errors.items())) or 'none'} (stale: a seat moved first)")
        load.close()
    finally:
        stop(host)
        if args.data:
            shutil.rmtree(data_dir, ignore_errors=True)
    print(f"load average after: {load_average()}")
    rate, p50, p99 = results["paced"]
    _, f50, f99 = results["flat out"]
    _, o50, _ = results["one table"]
    print("targets:")
    print(f"  paced p50 <= 4x echo: {p50 / e50:.1f}x the back-to-back echo -> "
          f"{'PASS' if p50 <= 4 * e50 else 'FAIL'}; {p50 / q50:.1f}x the echo paced alike -> "
          f"{'PASS' if p50 <= 4 * q50 else 'FAIL'}  (flat out: {f50 / e50:.1f}x; one table moving "
          f"among {args.tables * args.players} connected clients: {o50 / e50:.1f}x)")
    print(f"  paced p99 < 10 ms: {p99 * 1e3:.2f} ms -> {'PASS' if p99 < 0.010 else 'FAIL'}"
          f"  (flat out: {f99 * 1e3:.2f} ms; paced p99/p50 {p99 / p50:.1f}x, the machine's "
          f"own CPU work p99/p50 {stall_ratio:.1f}x)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(p)
    add_arguments(p)
    p.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.echo_server:
        echo_server()
        return 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
