"""Attacks of a hostile guest on a host, on 127.0.0.1 (issue 25), each for a bounded time, with
the figures a player would feel: another player's ping, and whether a newcomer still gets in.

The host runs as ``cardparty host --data`` in a child process (its RSS, CPU and open file
descriptors are read from /proc), optionally with a limit of file descriptors (``--limit``,
the 1,024 many systems give a process) or from another tree (``--tree DIR``: a checkout of an
older commit, for the figures before a change). A pinger, a player at a table of his own who
pings every 50 ms, runs in a process of its own at the host's priority; the attacks run
``--load-nice`` steps nicer (on a LAN they run on the guest's own machine: the host's latency
is measured, not how this machine shares its two cores).

Phases, each ``--seconds`` long, after a baseline with the pinger alone:

1. **desk, quiet connections**: ``--connections`` TCP connections to the key desk that finish
   ZeroMQ's NULL handshake and say nothing (issue 25, "What was seen" 1);
2. **desk, askers**: ``--askers`` connections asking the desk for its key as fast as it
   answers, 16 questions outstanding each (on a thread of the bench: its process runs as
   nice as the attacks);
3. **game socket, plain connections**: ``--connections`` TCP connections to the host's port
   that never start a handshake.

For each: connections opened and still held by the host at the end, the host's descriptors,
RSS and CPU, the pinger's p50/p99, and a newcomer during the attack (the key from the desk,
then a welcome) with how long each took; then the issue's targets (ping p99 under 50 ms, RSS
under 200 MB) as PASS or FAIL.

``python bench/attack.py --seconds 10 --connections 3000`` (the tests run it for a moment).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import queue
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import zmq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from host import cpu_seconds, host_command, percentile, rss_kb, start  # noqa: E402
from soak import _alone  # noqa: E402

from cardparty.net.keydesk import GREETING, QUESTION, fetch_key, ready_command  # noqa: E402
from cardparty.net.keys import host_keys  # noqa: E402
from cardparty.net.session import Session, SessionError  # noqa: E402

#: ``cardparty host`` under a limit of file descriptors: ``python -c LIMITED N cmd...``.
LIMITED = """
import os, resource, sys
n = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
os.execv(sys.argv[2], sys.argv[2:])
"""

#: The issue's targets under attack.
PING_P99_MS = 50.0
RSS_MB = 200.0


def descriptors(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def open_plain(port: int, count: int, source: str, handshake: bool,
               seconds: float = 2.0) -> list[socket.socket]:
    """``count`` connections to ``port``, opened at once (non-blocking: a host that queues
    them is not waited for); ``handshake``: each sends ZMTP's greeting and a DEALER's READY
    once it is through, then stays quiet."""
    out: list[socket.socket] = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((source, 0))
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            s.close()
            break
        out.append(s)
    if handshake:
        pending = list(out)
        end = time.monotonic() + seconds
        while pending and time.monotonic() < end:
            left = []
            for s in pending:
                try:
                    s.send(GREETING + ready_command(b"DEALER"))
                except BlockingIOError:
                    left.append(s)
                except OSError:
                    pass
            pending = left
            time.sleep(0.05)
    return out


def still_held(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the host accepted (it greeted them: the desk and ZeroMQ both
    speak first) and has not closed; one the kernel still queues for it is not counted."""
    held = 0
    for s in socks:
        greeted = False
        try:
            while True:
                if not s.recv(65536):
                    break
                greeted = True
        except BlockingIOError:
            # A connection greeted before this look was read by it already: the bench reads
            # only here, at the end, so what a live one was sent is still waiting.
            held += greeted
        except OSError:
            pass
    return held


def askers(port: int, count: int, source: str, stop: threading.Event, out: Any) -> None:
    """(On a thread of the bench, which runs nicer than the host.) ``count`` DEALERs asking
    the desk flat out, 16 questions outstanding each; the answers received, and the seconds
    they were asked for, are put on ``out``."""
    ctx = zmq.Context()
    socks = []
    for _ in range(count):
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.SNDHWM, 100000)
        s.connect(f"tcp://{source}:0;127.0.0.1:{port}")
        for _ in range(16):
            s.send(QUESTION)
        socks.append(s)
    poller = zmq.Poller()
    for s in socks:
        poller.register(s, zmq.POLLIN)
    answers = 0
    began = time.monotonic()
    try:
        while not stop.is_set():
            for s, _ in poller.poll(50):
                while True:
                    try:
                        s.recv(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    answers += 1
                    with contextlib.suppress(zmq.Again):
                        s.send(QUESTION, zmq.NOBLOCK)
    finally:
        out.put(("answers", answers))
        out.put(("asked for", time.monotonic() - began))
        for s in socks:
            s.close(0)
        ctx.term()


def newcomer(address: str, key: bytes, name: str) -> str:
    """A player who arrives now: the key from the desk, then a welcome (how long each took)."""
    began = time.perf_counter()
    try:
        got = fetch_key(address, timeout=3.0)[0]
        said = f"key in {1000 * (time.perf_counter() - began):.0f} ms"
        if got != key:
            return said + " (another key!)"
    except ConnectionError:
        said = "no key from the desk in 3 s"
    began = time.perf_counter()
    s = Session(address, name, host_key=key)
    try:
        s.connect(timeout=5.0)
        return said + f", welcomed in {1000 * (time.perf_counter() - began):.0f} ms"
    except SessionError as exc:
        return said + f", not welcomed ({exc.code})"
    finally:
        s.abort()


class Attack:
    def __init__(self, address: str, pid: int, key: bytes, args: argparse.Namespace) -> None:
        self.address = address
        self.port = int(address.rsplit(":", 1)[1])
        self.pid = pid
        self.key = key
        self.args = args
        self.spawn = multiprocessing.get_context("spawn")   # no ZeroMQ context across a fork
        self.out = self.spawn.Queue()
        self.pings: list[float] = []
        self.verdicts: list[str] = []

    def drain(self) -> dict[str, float]:
        other: dict[str, float] = {}
        while True:
            try:
                what, value = self.out.get_nowait()
            except queue.Empty:
                return other
            if what == "ping":
                self.pings.append(value)
            else:
                other[what] = other.get(what, 0) + value

    def phase(self, label: str, begin: Any, end: Any) -> None:
        """One phase: ``begin()`` starts the attack (its state returned), the figures of
        ``--seconds`` under it, then ``end(state)`` says what it held and stops it."""
        args = self.args
        rss0 = rss_kb(self.pid) / 1024
        state = begin()
        self.drain()
        self.pings = []
        cpu0, t0 = cpu_seconds(self.pid), time.monotonic()
        time.sleep(args.seconds / 2)
        came = newcomer(self.address, self.key, f"Newcomer{len(self.verdicts)}")
        time.sleep(max(0.0, t0 + args.seconds - time.monotonic()))
        cpu = 100 * (cpu_seconds(self.pid) - cpu0) / (time.monotonic() - t0)
        fds, rss = descriptors(self.pid), rss_kb(self.pid) / 1024
        held = end(state)
        other = self.drain()
        pings = self.pings
        p50, p99 = 1000 * percentile(pings, 50), 1000 * percentile(pings, 99)
        extra = (f"; {other['answers']:.0f} answers "
                 f"({other['answers'] / max(other['asked for'], 1e-3):.0f}/s)"
                 if "answers" in other else "")
        print(f"  {label}: {held}; host: {fds} descriptors, RSS {rss0:.1f} -> {rss:.1f} MB, "
              f"CPU {cpu:.0f} %{extra}; ping p50 {p50:.2f} ms, p99 {p99:.2f} ms "
              f"({len(pings)} pings); a newcomer: {came}", flush=True)
        self.verdicts.append(
            f"  {label.split(':')[0]}: ping p99 < {PING_P99_MS:g} ms: {p99:.1f} ms -> "
            f"{'PASS' if p99 < PING_P99_MS else 'FAIL'}; RSS < {RSS_MB:g} MB: {rss:.1f} MB -> "
            f"{'PASS' if rss < RSS_MB else 'FAIL'}; newcomer "
            f"{'PASS' if 'welcomed in' in came else 'FAIL'}")
        time.sleep(0.5)                     # what the attack left goes before the next

    def warm(self, pinger: Any, patience: float = 60.0) -> None:
        """Wait for the pinger's first pongs: a spawned process on a loaded machine takes
        seconds to import and connect, and a baseline measured before it pings has no pings
        at all. Then as long again as a phase would, for the connection to settle."""
        give_up = time.monotonic() + patience
        while not self.pings and time.monotonic() < give_up and pinger.is_alive():
            try:
                what, value = self.out.get(timeout=0.1)
            except queue.Empty:
                continue
            if what == "ping":
                self.pings.append(value)
        time.sleep(min(1.0, self.args.seconds))

    def run(self) -> None:
        args = self.args
        stop = self.spawn.Event()
        pinger = self.spawn.Process(target=_alone, args=("pinger", self.address, args, stop,
                                                         self.out, None), daemon=True)
        pinger.start()
        os.nice(args.load_nice)                      # the attacks, nicer than the host
        try:
            self.warm(pinger)                        # the pinger seated and pinging
            self.phase("baseline: the pinger alone", lambda: None, lambda _: "no attack")
            n, guest = args.connections, args.guest

            def quiet() -> list[socket.socket]:
                return open_plain(self.port + 1, n, guest, handshake=True)

            def plain() -> list[socket.socket]:
                return open_plain(self.port, n, guest, handshake=False)

            def closing(socks: list[socket.socket]) -> str:
                held = still_held(socks)
                for s in socks:
                    s.close()
                return f"{len(socks)} opened, {held} held by the host"

            self.phase(f"desk, {n} quiet connections", quiet, closing)
            ask_stop = threading.Event()

            def ask() -> threading.Thread:
                thread = threading.Thread(target=askers, args=(
                    self.port + 1, args.askers, guest, ask_stop, self.out), daemon=True)
                thread.start()
                return thread

            def asked(thread: threading.Thread) -> str:
                ask_stop.set()
                thread.join(10)
                return f"{args.askers} connections asking flat out"

            self.phase(f"desk, {args.askers} askers", ask, asked)
            self.phase(f"game socket, {n} plain connections", plain, closing)
        finally:
            stop.set()
            pinger.join(10)
            if pinger.is_alive():
                pinger.kill()
        print(f"targets under each attack (the guest from {guest}; a newcomer from "
              "127.0.0.1):")
        for line in self.verdicts[1:]:
            print(line)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="each phase (default 5)")
    p.add_argument("--connections", type=int, default=2000,
                   help="connections a flood opens (default 2000)")
    p.add_argument("--askers", type=int, default=8, help="connections asking the desk "
                                                          "(default 8, as in issue 25)")
    p.add_argument("--limit", type=int, default=None, metavar="N",
                   help="the host's limit of file descriptors (default: this shell's)")
    p.add_argument("--tree", default=None, metavar="DIR",
                   help="run the host of another checkout (the figures before a change)")
    p.add_argument("--guest", default="127.0.0.1",
                   help="the guest's source address, a loopback one (default 127.0.0.1; "
                        "127.0.0.2 makes it another address than the newcomer's)")
    p.add_argument("--load-nice", type=int, default=10,
                   help="how much nicer than the host and the pinger the attacks run "
                        "(default 10)")
    args = p.parse_args(argv)
    if not args.guest.startswith("127."):
        p.error("the guest stays on this machine: a 127.x.y.z address")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with tempfile.TemporaryDirectory(prefix="cardparty-attack-") as data:
        cmd = host_command(data, args.tree)
        if args.limit:
            cmd = [sys.executable, "-c", LIMITED, str(args.limit), *cmd]
        proc, address = start(cmd)
        try:
            key = host_keys(data).public
            print(f"attack: the host at {address} ({args.tree or 'this tree'}, limit "
                  f"{args.limit or 'as this shell'}), {args.seconds:g} s a phase, the guest "
                  f"from {args.guest}, {args.load_nice} nicer:", flush=True)
            Attack(address, proc.pid, key, args).run()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
