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

``--churn SECONDS`` runs instead the key-churn attack of issue 25 ("What was seen" 1-5):
a hostile guest from ``--guest`` (127.0.0.2 when not given) makes fresh CURVE keys as fast as
it can (a key pair costs about a millisecond) and, with each, connects, says hello, and with
every key let in claims more names, opens tables, pings flat out, talks in the lobby, invites
and watches the veteran, and asks for pages of ``tables`` it never reads; it holds up to
``--connections`` connections at once, asks the key desk flat out from 8 connections, and
every 5 s opens 50 more connections to the desk and 50 to the game socket that finish the
handshake and say nothing. Meanwhile a veteran (from 127.0.0.3, whose game began before the
attack) plays whole games against a bot, and a newcomer (from 127.0.0.4, a key the host never
saw) arrives half-way, takes the host's key from the desk and plays a whole game; the pinger
measures another table's ping. It prints the guest's counts, the host's RSS and descriptors,
the ping p50/p99 (and before the guest came), both players' games, and
the issue's targets as PASS or FAIL.
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
from measure import (  # noqa: E402
    cpu_seconds,
    descriptors,
    host_command,
    load_average,
    percentile,
    rss_kb,
    start,
)
from soak import _alone  # noqa: E402

from cardparty.net.player.netbot import BotGone, play_table  # noqa: E402
from cardparty.net.player.session import Session, SessionError  # noqa: E402
from cardparty.net.trust.keydesk import GREETING, QUESTION, fetch_key, ready_command  # noqa: E402
from cardparty.net.trust.keys import KeyPair, host_keys  # noqa: E402
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message  # noqa: E402

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
    the desk flat out, 16 questions outstanding each (asked again after a second without an
    answer: the desk closed it, and its questions went with that connection); the answers
    received, and the seconds they were asked for, are put on ``out``."""
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
    last = dict.fromkeys(socks, began)
    try:
        while not stop.is_set():
            now = time.monotonic()
            for s, _ in poller.poll(50):
                for _ in range(64):             # a bounded read: a desk that answers as
                    try:                        # fast as it is asked never keeps ``stop`` unread
                        s.recv(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    answers += 1
                    last[s] = now
                    with contextlib.suppress(zmq.Again):
                        s.send(QUESTION, zmq.NOBLOCK)
            for s, at in last.items():          # closed by the desk and reconnected: its
                if now - at > 1.0:              # questions went with the old connection
                    last[s] = now
                    for _ in range(16):
                        with contextlib.suppress(zmq.Again):
                            s.send(QUESTION, zmq.NOBLOCK)
    finally:
        # The seconds first: ``drain`` may read between the two, and the rate needs both.
        out.put(("asked for", time.monotonic() - began))
        out.put(("answers", answers))
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
        self.figures: dict[str, float] = {}     # what a phase's ``end`` adds to its line

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
        self.figures = {}
        held = end(state)
        other = self.drain()
        for what, value in self.figures.items():
            other[what] = other.get(what, 0) + value
        pings = self.pings
        p50, p99 = 1000 * percentile(pings, 50), 1000 * percentile(pings, 99)
        extra = (f"; {other['answers']:.0f} answers "
                 f"({other['answers'] / max(other['asked for'], 1e-3):.0f}/s)"
                 if "answers" in other and "asked for" in other else "")
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
            # The askers' own figures on a queue of this process: what a thread puts on the
            # spawned queue reaches it through a feeder thread, maybe after the phase read it.
            asked_figures: queue.Queue[tuple[str, float]] = queue.Queue()

            def ask() -> threading.Thread:
                thread = threading.Thread(target=askers, args=(
                    self.port + 1, args.askers, guest, ask_stop, asked_figures), daemon=True)
                thread.start()
                return thread

            def asked(thread: threading.Thread) -> str:
                ask_stop.set()
                thread.join(10)
                while not asked_figures.empty():
                    what, value = asked_figures.get()
                    self.figures[what] = self.figures.get(what, 0) + value
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


# --- key churn (issue 25, item 1) ------------------------------------------------------------

VETERAN, NEWCOMER = "127.0.0.3", "127.0.0.4"
#: The guest's desk askers, and its quiet connections opened every few seconds to each port.
ASKERS, QUIET = 8, 50


class From(Session):
    """A session whose connections come from the loopback address ``source`` (each player
    of a LAN is a machine of his own)."""

    def __init__(self, source: str, address: str, name: str, **kw: Any) -> None:
        super().__init__(address, name, **kw)
        self.source = source

    def _socket(self) -> Any:
        plain = self.address
        self.address = f"tcp://{self.source}:0;{plain[len('tcp://'):]}"
        try:
            return super()._socket()
        finally:
            self.address = plain


def player_games(source: str, address: str, key: bytes, name: str, delay: float,
                 stop: Any, began: Any, out: Any, games: int | None) -> None:
    """(In a process of its own.) A player from ``source`` who plays whole games of Pika
    against a host bot, ``delay`` seconds a move, until ``stop`` (or ``games`` of them); says
    ``began`` once his first game is under way; puts each game's figures on ``out``."""
    played = 0
    s = From(source, address, name, keys=KeyPair.generate(), host_key=key,
             request_timeout=10.0)
    try:
        if games is not None:                 # a newcomer: the key from the desk, as a client
            got = fetch_key(address, timeout=10.0)[0]
            out.put((f"{name} key from the desk", got == key))
        s.connect(timeout=10.0)
        out.put((f"{name} welcomed", 1))
        while not stop.is_set() and (games is None or played < games):
            t0 = time.monotonic()
            tid = s.create("pika", 2, mode="practice", idle=None, bot_delay=0.0)["id"]
            s.sit(tid)
            s.add_bots(tid, 1)
            s.ready(tid)
            began.set()
            result = play_table(s, tid, delay=delay, timeout=240.0)
            played += 1
            out.put((f"{name} game", (time.monotonic() - t0, result.get("places"))))
    except (SessionError, BotGone, ConnectionError) as exc:
        out.put((f"{name} failed", str(exc)))
    finally:
        s.abort()


class Guest:
    """The hostile guest: fresh keys as fast as it can, every one let in doing all it may."""

    def __init__(self, address: str, key: bytes, source: str, most: int) -> None:
        self.endpoint = f"tcp://{source}:0;{address[len('tcp://'):]}"
        self.source = source
        self.desk: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.key = key
        self.most = most
        self.ctx = zmq.Context()
        self.ctx.set(zmq.MAX_SOCKETS, 4 * most + 64)     # closed ones are reaped late
        self.socks: dict[zmq.Socket[Any], int] = {}   # -> 0 hello sent, 1 let in
        self.poller = zmq.Poller()
        self.counts: dict[str, int] = {}
        self.n = 0

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def fresh(self) -> None:
        keys = KeyPair.generate()
        self.count("keys made")
        s = self.ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RECONNECT_IVL, 60_000)
        s.setsockopt(zmq.SNDHWM, 1000)
        s.curve_secretkey = keys.secret
        s.curve_publickey = keys.public
        s.curve_serverkey = self.key
        s.connect(self.endpoint)
        self.n += 1
        s.send(encode(message("hello", rid=0, name=f"Churn{self.n}")), zmq.NOBLOCK)
        self.socks[s] = 0
        self.poller.register(s, zmq.POLLIN)
        while len(self.socks) > self.most:           # the oldest goes
            old = next(iter(self.socks))
            self.poller.unregister(old)
            del self.socks[old]
            old.close(0)

    def let_in(self, s: zmq.Socket[Any]) -> None:
        """A key the host welcomed: everything it may ask, at once."""
        self.count("keys let in")
        msgs = [message("hello", rid=1 + i, name=f"Churn{self.n}x{i}") for i in range(16)]
        msgs += [message("create", rid=100 + i, game="pika", players=4, mode="friends")
                 for i in range(8)]
        msgs += [message("chat", rid=200 + i, text=f"spam {i}") for i in range(5)]
        msgs += [message("watch", rid=300, table="t1"), message("watch", rid=301, table="t2")]
        msgs += [message("tables", rid=400 + i) for i in range(20)]
        msgs += [message("ping", rid=500 + i) for i in range(200)]
        for m in msgs:
            with contextlib.suppress(zmq.Again):
                s.send(encode(m), zmq.NOBLOCK)

    def read(self, s: zmq.Socket[Any]) -> None:
        for _ in range(64):
            try:
                raw = s.recv(zmq.NOBLOCK)
            except zmq.Again:
                return
            msg = decode(raw, HOST_LIMITS)
            kind = msg["type"]
            if kind == "welcome":
                if self.socks.get(s) == 0:
                    self.socks[s] = 1
                    self.let_in(s)
            elif kind == "table" and isinstance(msg.get("rid"), int) and msg["rid"] >= 100:
                self.count("tables opened")
                tid = msg["table"]["id"]
                with contextlib.suppress(zmq.Again):
                    s.send(encode(message("invite", rid=600, table=tid,
                                          names=["Veteran", "Newcomer"])), zmq.NOBLOCK)
            elif kind == "error":
                self.count(f"refused {msg.get('code')}")
            else:
                self.count(kind)

    def quiet(self, port: int, held: list[socket.socket]) -> None:
        """Every few seconds, ``QUIET`` more connections to the desk and to the game socket
        that finish ZeroMQ's handshake and say nothing (item 3: probing routing ids, filling
        descriptors); the oldest closed beyond ``QUIET`` × 4."""
        for target in (port, port + 1):
            held += open_plain(target, QUIET, self.source, handshake=True, seconds=0.2)
        self.count("quiet connections opened", 2 * QUIET)
        while len(held) > 4 * QUIET:
            held.pop(0).close()

    def run(self, stop: Any, out: Any, port: int) -> None:
        ask_stop = threading.Event()
        asking = threading.Thread(target=askers, args=(port + 1, ASKERS, self.source, ask_stop,
                                                       self.desk), daemon=True)
        asking.start()
        held: list[socket.socket] = []
        next_quiet = 0.0
        try:
            while not stop.is_set():
                if time.monotonic() >= next_quiet:
                    self.quiet(port, held)
                    next_quiet = time.monotonic() + 5.0
                try:
                    self.fresh()
                except zmq.ZMQError:
                    self.count("sockets the guest could not open")
                    self.most = max(16, len(self.socks) - 16)
                for s, _ in self.poller.poll(0):
                    self.read(s)
        finally:
            ask_stop.set()
            asking.join(5)
            while not self.desk.empty():
                what, value = self.desk.get()
                if what == "answers":
                    self.count("desk answers", value)
            for q in held:
                q.close()
            out.put(("guest", dict(self.counts)))
            for s in self.socks:
                s.close(0)
            self.ctx.destroy(0)


def guest_churn(address: str, key: bytes, source: str, most: int, nice: int, stop: Any,
                out: Any) -> None:
    """(In a process of its own, ``nice`` steps nicer.) The hostile guest until ``stop``."""
    os.nice(nice)
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)     # a socket holds two or three
    want = 12 * most + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, want), hard))
    Guest(address, key, source, most).run(stop, out, int(address.rsplit(":", 1)[1]))


def churn(address: str, pid: int, key: bytes, args: argparse.Namespace) -> int:
    """The key-churn run (see the module docstring); 1 when a target is missed."""
    spawn = multiprocessing.get_context("spawn")
    out: Any = spawn.Queue()
    stop, quit_players = spawn.Event(), spawn.Event()
    pinger = spawn.Process(target=_alone, args=("pinger", address, args, stop, out, None),
                           daemon=True)
    pinger.start()
    began = spawn.Event()
    veteran = spawn.Process(target=player_games, args=(
        VETERAN, address, key, "Veteran", args.move_delay, quit_players, began, out, None),
        daemon=True)
    veteran.start()
    if not began.wait(30):
        print("churn: the veteran's game did not begin", flush=True)
    time.sleep(min(2.0, args.churn / 10))         # his game under way, the pinger warm
    rss0 = rss_kb(pid) / 1024
    pings: list[float] = []
    other: dict[str, Any] = {}

    def drain() -> None:
        while True:
            try:
                what, value = out.get_nowait()
            except queue.Empty:
                return
            if what == "ping":
                pings.append(value)
            else:
                other.setdefault(what, []).append(value)

    give_up = time.monotonic() + 60              # the pinger's first pongs (a spawned
    while not pings and time.monotonic() < give_up and pinger.is_alive():   # process on a
        time.sleep(0.1)                                                  # loaded machine)
        drain()
    pings.clear()
    time.sleep(min(10.0, args.churn / 10))        # the baseline: the same, no guest
    drain()
    b50, b99, nb = 1000 * percentile(pings, 50), 1000 * percentile(pings, 99), len(pings)
    pings.clear()
    base = rss_kb(pid) / 1024
    guest = spawn.Process(target=guest_churn, args=(
        address, key, args.guest, args.connections, args.load_nice, stop, out), daemon=True)
    t0 = time.monotonic()
    cpu0 = cpu_seconds(pid)
    guest.start()
    newcomer_began = spawn.Event()
    newcomer: Any = None
    peak_rss, peak_fds = 0.0, 0
    minute = 0
    while (elapsed := time.monotonic() - t0) < args.churn:
        time.sleep(1.0)
        drain()
        peak_rss = max(peak_rss, rss_kb(pid) / 1024)
        peak_fds = max(peak_fds, descriptors(pid))
        if newcomer is None and elapsed >= args.churn / 2:
            newcomer = spawn.Process(target=player_games, args=(
                NEWCOMER, address, key, "Newcomer", args.move_delay / 2, quit_players,
                newcomer_began, out, 1), daemon=True)
            newcomer.start()
        if int(elapsed // 60) > minute:
            minute = int(elapsed // 60)
            p99 = 1000 * percentile(pings, 99) if pings else float("nan")
            print(f"  minute {minute}: host RSS {rss_kb(pid) / 1024:.1f} MB, "
                  f"{descriptors(pid)} descriptors; ping p99 so far {p99:.2f} ms "
                  f"({len(pings)} pings); veteran games {len(other.get('Veteran game', []))}",
                  flush=True)
    cpu = 100 * (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
    stop.set()
    guest.join(20)
    if newcomer is not None:
        newcomer.join(120)                    # his one game, if still going
    quit_players.set()
    veteran.join(60)
    pinger.join(10)
    drain()
    for proc in (guest, veteran, pinger, newcomer):
        if proc is not None and proc.is_alive():
            proc.kill()
    p50, p99 = 1000 * percentile(pings, 50), 1000 * percentile(pings, 99)
    counts = (other.get("guest") or [{}])[0]
    print(f"churn: {args.churn:g} s of a guest from {args.guest} making fresh keys "
          f"(holding up to {args.connections} connections), the host at nice 0, the guest "
          f"{args.load_nice} nicer; load average {load_average()}")
    print("  the guest: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"  host: RSS {rss0:.1f} MB before, {base:.1f} at the start, peak {peak_rss:.1f}, "
          f"{rss_kb(pid) / 1024:.1f} MB at the end; peak {peak_fds} descriptors; CPU "
          f"{cpu:.0f} %")
    print(f"  another table's ping: p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(pings)} pings); "
          f"before the guest came: p50 {b50:.2f} ms, p99 {b99:.2f} ms ({nb} pings)")
    verdicts = []
    for who in ("Veteran", "Newcomer"):
        games = other.get(f"{who} game", [])
        failed = other.get(f"{who} failed", [])
        said = "; ".join(f"{t:.0f} s, places {places}" for t, places in games)
        desk = other.get(f"{who} key from the desk")
        print(f"  {who}: {len(games)} whole games ({said or 'none'})"
              + ("" if desk is None else f"; the desk gave him the host's key: {desk[0]}")
              + (f"; failed: {failed}" if failed else ""))
        verdicts.append((f"{who} played a whole game", bool(games) and not failed))
    verdicts += [(f"RSS < {RSS_MB:g} MB (peak {peak_rss:.1f})", peak_rss < RSS_MB),
                 (f"ping p99 < {PING_P99_MS:g} ms ({p99:.1f})", p99 < PING_P99_MS)]
    print("targets: " + "; ".join(f"{what} -> {'PASS' if ok else 'FAIL'}"
                                  for what, ok in verdicts), flush=True)
    return 0 if all(ok for _, ok in verdicts) else 1


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
    p.add_argument("--guest", default=None,
                   help="the guest's source address, a loopback one (default 127.0.0.1, "
                        "the host's own machine, which is not counted per address; with "
                        "--churn 127.0.0.2, a guest's machine)")
    p.add_argument("--load-nice", type=int, default=10,
                   help="how much nicer than the host and the pinger the attacks run "
                        "(default 10)")
    p.add_argument("--move-delay", type=float, default=0.5, metavar="SECONDS",
                   help="with --churn, the veteran's seconds a move (the newcomer's half)")
    p.add_argument("--churn", type=float, default=None, metavar="SECONDS",
                   help="run the key-churn attack for SECONDS instead of the phases "
                        "(--connections: the most the guest holds at once)")
    args = p.parse_args(argv)
    if args.guest is None:
        args.guest = "127.0.0.2" if args.churn else "127.0.0.1"
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
            if args.churn:
                return churn(address, proc.pid, key, args)
            Attack(address, proc.pid, key, args).run()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
