"""Hard bots playing flat out at a host, and another player's ping (``bench/host.py
--hard-tables N`` runs it; so does this file alone).

The target (issue 14): a host with 8 tables of hard bots playing flat out still answers a
ping from another player within 50 ms (p99).

- The host runs in its own process (``cardparty host``), as a LAN party runs it.
- The load, in this process: N tables of ``--game`` for ``--players``, each opened by one
  client who sits, seats hard bots in the other seats and says ready, and never moves: after
  the table's idle timeout (50 ms) a stand-in at the table's stand-in level, hard, plays his
  seat too. So every seat of every table is a hard bot thinking its full budget, and a table
  whose game ends is opened again at once.
- The pinger, in a process of its own (it shares no interpreter lock with the load): another
  player, seated nowhere, pings the host one ping at a time with a random gap (10 to 30 ms)
  and times each round trip.

Two runs, each with a host started afresh: the hard bots off the loop (the host's worker
processes, its default) and, for comparison, on the loop (``--bot-workers 0``). Each prints
the pings' p50, p99 and max and the hard moves made; then the PASS/FAIL line of the target,
for the bots off the loop.

Usage: ``.venv/bin/python bench/hard_bots.py [--tables 8] [--seconds 8]``.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import time
from typing import Any

import zmq

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from measure import PY, host_command, load_average, percentile, start  # noqa: E402

from cardparty.net.host.model import DEFAULT_BOT_BUDGET_MS  # noqa: E402
from cardparty.net.trust.keydesk import fetch_key  # noqa: E402
from cardparty.net.trust.keys import KeyPair  # noqa: E402
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message  # noqa: E402

#: The target: another player's ping answered within this (p99), seconds.
TARGET = 0.050


def dealer(ctx: zmq.Context[Any], address: str, host_key: bytes) -> zmq.Socket[Any]:
    """A client's DEALER speaking CURVE with a key pair of its own."""
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    mine = KeyPair.generate()
    sock.curve_secretkey = mine.secret
    sock.curve_publickey = mine.public
    sock.curve_serverkey = host_key
    sock.connect(address)
    return sock


def reply(sock: zmq.Socket[Any], rid: int, timeout: float = 30.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        if sock.poll(int(left * 1000) + 1):
            msg = decode(sock.recv(), HOST_LIMITS)
            if msg.get("rid") == rid:
                return msg
    raise SystemExit(f"no reply to request {rid} in {timeout:.0f} s")


def pinger(address: str, seconds: float, seed: int) -> None:
    """(Its own process.) Ping for ``seconds``; print the round trips (JSON, seconds)."""
    host_key = fetch_key(address)[0]
    sock = dealer(zmq.Context.instance(), address, host_key)
    sock.send(encode(message("hello", rid=1, name=f"pinger-{seed}")))
    reply(sock, 1)
    gaps = random.Random(seed)
    trips: list[float] = []
    end = time.monotonic() + seconds
    rid = 1
    while time.monotonic() < end:
        time.sleep(gaps.uniform(0.010, 0.030))
        rid += 1
        t0 = time.perf_counter()
        sock.send(encode(message("ping", rid=rid)))
        reply(sock, rid)
        trips.append(time.perf_counter() - t0)
    sock.close()
    print(json.dumps(trips), flush=True)


class HardLoad:
    """N tables of hard bots, each opened again when its game ends."""

    def __init__(self, address: str, tables: int, game: str, players: int,
                 budget_ms: int) -> None:
        self.ctx = zmq.Context.instance()
        host_key = fetch_key(address)[0]
        self.game, self.players, self.budget_ms = game, players, budget_ms
        self.socks = [dealer(self.ctx, address, host_key) for _ in range(tables)]
        self.poller = zmq.Poller()
        for s in self.socks:
            self.poller.register(s, zmq.POLLIN)
        self.table: dict[zmq.Socket[Any], str | None] = {}
        self.version: dict[zmq.Socket[Any], int] = {}
        self.moves = 0
        self.games = 0
        self.rid = 100

    def send(self, sock: zmq.Socket[Any], kind: str, **fields: Any) -> None:
        self.rid += 1
        sock.send(encode(message(kind, rid=self.rid, **fields)))

    def connect(self) -> None:
        for i, s in enumerate(self.socks):
            s.send(encode(message("hello", rid=1, name=f"hard-{i}")))
            reply(s, 1)
            self.open(s)

    def open(self, sock: zmq.Socket[Any]) -> None:
        """Create, sit, hard bots in the other seats, ready: all in one go (the host
        answers them in order)."""
        self.rid += 1
        sock.send(encode(message("create", rid=self.rid, game=self.game,
                                 players=self.players, idle=0.05, standin_level="hard",
                                 bot_budget_ms=self.budget_ms)))
        self.table[sock] = None

    def run(self, until: Any) -> None:
        """Read and reopen tables until ``until()`` is true."""
        while not until():
            for sock, _ in self.poller.poll(20):
                while True:
                    try:
                        msg = decode(sock.recv(zmq.NOBLOCK), HOST_LIMITS)
                    except zmq.Again:
                        break
                    self.incoming(sock, msg)

    def incoming(self, sock: zmq.Socket[Any], msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "table" and msg.get("rid") is not None and self.table.get(sock) is None:
            tid = msg["table"]["id"]
            self.table[sock] = tid
            self.version[sock] = 0
            self.send(sock, "sit", table=tid, seat=0)
            self.send(sock, "bots", table=tid, level="hard")
            self.send(sock, "ready", table=tid)
        elif kind == "view" and msg["table"] == self.table.get(sock):
            self.moves += max(0, msg["version"] - self.version[sock])
            self.version[sock] = max(self.version[sock], msg["version"])
            if msg["view"]["result"]:
                self.games += 1
                self.open(sock)
        elif kind == "error":
            raise SystemExit(f"the host refused the load: {msg['code']}: {msg['message']}")

    def close(self) -> None:
        for s in self.socks:
            s.close()


def one_run(workers: int | None, args: argparse.Namespace) -> dict[str, Any]:
    """A host started afresh, the load warmed up, then the pinger's run under it."""
    cmd = host_command(None)
    if workers is not None:
        cmd += ["--bot-workers", str(workers)]
    host, address = start(cmd)
    try:
        load = HardLoad(address, args.tables, args.game, args.players, args.budget_ms)
        load.connect()
        warm = time.monotonic() + 1.0
        load.run(lambda: time.monotonic() > warm)
        moves0 = load.moves
        ping = subprocess.Popen([PY, __file__, "--pinger", address, "--seconds",
                                 str(args.seconds), "--seed", str(args.seed)],
                                stdout=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        load.run(lambda: ping.poll() is not None)
        took = time.monotonic() - t0
        out, _ = ping.communicate()
        trips = json.loads(out.strip().splitlines()[-1]) if ping.returncode == 0 else []
        moves = load.moves - moves0
        games = load.games
        load.close()
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(10)
    return {"trips": trips, "moves": moves, "took": took, "games": games}


def report(label: str, got: dict[str, Any]) -> str:
    trips = got["trips"]
    if not trips:
        return f"  {label}: the pinger failed"
    return (f"  {label}: {len(trips)} pings: p50 {percentile(trips, 50) * 1e3:.2f} ms, "
            f"p99 {percentile(trips, 99) * 1e3:.2f} ms, max {max(trips) * 1e3:.2f} ms; "
            f"{got['moves']} hard moves ({got['moves'] / got['took']:.1f}/s), "
            f"{got['games']} games over")


def hard_bots(args: argparse.Namespace) -> int:
    """The measurement (see the module docstring); the exit code is 0 (the verdict is in
    the output)."""
    import os

    print(f"hard bots flat out and another player's ping: {args.tables} tables of "
          f"{args.game} for {args.players}, every seat a hard bot ({args.budget_ms} ms a move), "
          f"a pinger in its own process (one ping every 10-30 ms), {args.seconds:g} s a run, "
          f"each host started afresh; {os.cpu_count()} cores, load "
          f"{load_average()}")
    off = one_run(None, args)
    print(report("off the loop (the host's worker processes)", off))
    on = one_run(0, args) if args.compare else None
    if on is not None:
        print(report("on the loop (--bot-workers 0), for comparison", on))
    if not off["trips"]:
        print("  ping p99 <= 50 ms with hard bots flat out: no pings -> FAIL")
        return 0
    p99 = percentile(off["trips"], 99)
    also = "" if on is None or not on["trips"] else (
        f"  (on the loop: {percentile(on['trips'], 99) * 1e3:.2f} ms)")
    print(f"  ping p99 <= 50 ms with {args.tables} tables of hard bots flat out: "
          f"{p99 * 1e3:.2f} ms -> {'PASS' if p99 <= TARGET else 'FAIL'}{also}")
    return 0


def add_arguments(p: argparse.ArgumentParser, prefix: str = "") -> None:
    """The options, also under ``bench/host.py`` (with ``prefix`` "hard-")."""
    if not prefix:
        p.add_argument("--tables", type=int, default=8)
        p.add_argument("--game", default="pika")
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--seconds", type=float, default=8.0, help="length of each run")
        p.add_argument("--seed", type=int, default=1)
    p.add_argument(f"--{prefix}budget-ms", dest="budget_ms", type=int,
                   default=DEFAULT_BOT_BUDGET_MS, help="a hard bot's thinking time a move")
    p.add_argument(f"--{prefix}compare", dest="compare",
                   action=argparse.BooleanOptionalAction, default=True,
                   help="also run the hard bots on the host's loop, for comparison")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--pinger", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.pinger:
        pinger(args.pinger, args.seconds, args.seed)
        return 0
    return hard_bots(args)


if __name__ == "__main__":
    sys.exit(main())
