"""A soak of one host: games, joins, leaves, watchers, a slow reader (and, with
``--hostile``, one hostile guest), for a chosen time; every interval it prints the host's
RSS, its CPU and the ping latency of a player at a table of his own.

The host runs as ``cardparty host --data`` in a child process (its RSS and CPU are read from
/proc); the pinger and the hostile guest each run in a process of their own (threads of one
Python process share its interpreter lock: a busy load generator would delay the pinger's own
thread, and the latency printed would be the bench's, not the host's); the rest of the crowd
runs as threads of this process, on 127.0.0.1. On a LAN every client runs on a machine of its
own; here they share the host's cores, so the crowd and the hostile guest run ``--load-nice``
steps nicer than the host and the pinger (the host's latency is measured, not how the
system shares two cores between it and the load):

- ``--games`` players, each playing pika at a table of his own against host bots, one game
  after another (every other game goes on with ``again``, the others at a new table);
- a joiner: every half second a new name connects, lists the tables, sits at an open table
  or watches a game for a moment, leaves and says bye;
- ``--watchers`` spectators, watching the games as they come;
- a slow reader: a raw socket watching a game and reading one message every 0.2 s;
- a pinger: a player at a table of his own who pings every 50 ms (the latency printed);
- ``--hostile``: one guest mixing every attack of issue 15 (a hello storm, tables made and
  left, ``tables`` never read, a crowd of watchers, invitations spammed, rids reused).

``python bench/soak.py --minutes 30`` (the figures of docs/performance.md); the tests run it
for seconds (``--minutes 0.05 --interval 1``).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import queue
import random
import signal
import sys
import tempfile
import threading
import time
from typing import Any

import zmq

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from measure import cpu_seconds, host_command, percentile, rss_kb, start  # noqa: E402

from cardparty.net.player.netbot import BotGone, play_table  # noqa: E402
from cardparty.net.player.session import Session, SessionError  # noqa: E402
from cardparty.net.trust.keydesk import fetch_key  # noqa: E402
from cardparty.net.trust.keys import KeyPair  # noqa: E402
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message  # noqa: E402


def refilling(s: Session, tid: str) -> Any:
    """For ``play_table``: when a summary of ``tid`` shows it open with a seat empty (a joiner
    sat before the bots and left again), bots fill it and the gamer says ready again (the
    host asks everybody to be ready again when the seats change), as the player at a real
    table would. Without it the table waited for a player for ever: the soaks' one
    unexplained "game lost" in 30 minutes (``did not finish in 120 s``), with the table
    found open, a seat empty and the gamer no longer ready."""
    def look(msg: dict[str, Any]) -> None:
        table = msg.get("table")
        if (msg.get("type") == "table" and isinstance(table, dict) and table.get("id") == tid
                and table.get("status") == "open"
                and any(seat.get("kind") == "empty" for seat in table.get("seats", ()))):
            # taken again meanwhile, or started: nothing to fill
            with contextlib.suppress(SessionError):
                s.add_bots(tid)
                s.ready(tid)
    return look


class Soak:
    def __init__(self, address: str, args: argparse.Namespace) -> None:
        self.address = address
        self.args = args
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.pings: list[float] = []
        self.games = 0
        self.joins = 0
        self.errors: dict[str, int] = {}
        self.playing: list[str] = []
        self.names = itertools.count(1)
        #: the host's key (from its desk): every client speaks CURVE as a real one does
        self.host_key = fetch_key(address)[0]
        #: the latest table in play, shared with the hostile guest's process
        self.latest: Any = None
        #: where a pinger in a process of its own sends ("ping", seconds) and ("error", what)
        self.out: Any = None

    def dealer(self, keys: KeyPair | None = None, rcvhwm: int = 1000) -> zmq.Socket[Any]:
        """A raw CURVE DEALER connected to the host, as ``keys`` (None: a key of its own)."""
        keys = keys or KeyPair.generate()
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVHWM, rcvhwm)
        sock.curve_secretkey = keys.secret
        sock.curve_publickey = keys.public
        sock.curve_serverkey = self.host_key
        sock.connect(self.address)
        return sock

    def count_error(self, what: str) -> None:
        if self.out is not None:
            self.out.put(("error", what))
            return
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1

    def session(self, prefix: str) -> Session:
        # A key of its own for each player: the host's limits are per key.
        s = Session(self.address, f"{prefix}{next(self.names)}", backoff=(0.05, 1.0),
                    keys=KeyPair.generate(), host_key=self.host_key)
        s.connect()
        return s

    # --- the crowd ---------------------------------------------------------------------------

    def gamer(self, n: int) -> None:
        rng = random.Random(n)
        s = self.session("Gamer")
        tid = None
        try:
            while not self.stop.is_set():
                if tid is None or rng.random() < 0.5:
                    if tid is not None:
                        s.leave(tid)
                    tid = s.create("pika", 3, {"hand_size": 5}, idle=None)["id"]
                    s.sit(tid)
                    s.add_bots(tid)
                    s.ready(tid)
                else:
                    s.request("again", table=tid)      # his again is his ready
                with self.lock:
                    self.playing = [*self.playing[-20:], tid]
                if self.latest is not None:
                    self.latest.value = tid.encode()
                try:
                    play_table(s, tid, rng=rng, timeout=120, delay=self.args.think,
                               on_message=refilling(s, tid))
                    with self.lock:
                        self.games += 1
                except BotGone as exc:
                    # With its reason: a lost game is a bug to find, and the count alone
                    # never said which way it was lost.
                    self.count_error(f"game lost ({str(exc)[:80]})")
                    tid = None
        except (SessionError, RuntimeError) as exc:
            if not self.stop.is_set():
                self.count_error(f"gamer: {exc}")
        finally:
            s.close()

    def joiner(self) -> None:
        """Now and then sits at an open table and leaves it again, or watches a game for a
        moment. Sitting between a gamer's ``create`` and his ``bots``, it leaves the table a
        seat short once it goes: the gamer fills it again (``refilling``)."""
        rng = random.Random(99)
        while not self.stop.wait(0.5):
            try:
                s = self.session("Joiner")
                try:
                    tables = s.tables()
                    free = [t for t in tables if t["status"] == "open" and t["strangers"]
                            and t["mode"] == "open"
                            and any(x["kind"] == "empty" for x in t["seats"])]
                    if free and rng.random() < 0.3:
                        tid = rng.choice(free)["id"]
                        s.sit(tid)
                        s.leave(tid)
                    elif self.playing:
                        tid = rng.choice(self.playing)
                        s.watch(tid)
                        time.sleep(0.2)
                        s.leave(tid)
                    with self.lock:
                        self.joins += 1
                finally:
                    s.close()
            except (SessionError, RuntimeError) as exc:
                if not self.stop.is_set() and getattr(exc, "code", "") not in (
                        "no_table", "not_open", "seat_taken", "no_seat", "not_seated"):
                    self.count_error(f"joiner: {exc}")

    def watcher(self, n: int) -> None:
        s = self.session("Watcher")
        watching: str | None = None
        try:
            while not self.stop.wait(2.0):
                with self.lock:
                    latest = self.playing[-1 - n % max(1, len(self.playing))] \
                        if self.playing else None
                if latest and latest != watching:
                    try:
                        if watching:
                            s.leave(watching)
                        s.watch(latest)
                        watching = latest
                    except SessionError:
                        watching = None
                while s.next_message(timeout=0) is not None:
                    pass
        finally:
            s.close()

    def slow_reader(self) -> None:
        sock = self.dealer(rcvhwm=10)
        sock.send(encode(message("hello", name="Slow")))
        watching = None
        try:
            while not self.stop.wait(0.2):
                if sock.poll(0):
                    msg = decode(sock.recv(), HOST_LIMITS)
                    if msg.get("code") == "hello_first":     # dropped for not reading: back
                        sock.send(encode(message("hello", name="Slow")))
                with self.lock:
                    latest = self.playing[-1] if self.playing else None
                if latest and latest != watching:
                    sock.send(encode(message("watch", table=latest)))
                    watching = latest
                sock.send(encode(message("ping")))
        finally:
            sock.close()

    def pinger(self) -> None:
        """A player seated at a table of his own, pinging on a raw socket (a Session keeps
        pongs to itself)."""
        sock = self.dealer()

        def ask(msg: dict[str, Any]) -> dict[str, Any] | None:
            sock.send(encode(msg))
            end = time.monotonic() + 5
            while sock.poll(max(0, int(1000 * (end - time.monotonic())))):
                got = decode(sock.recv(), HOST_LIMITS)
                if got.get("rid") == msg.get("rid") or got["type"] == "welcome":
                    return got
            return None

        try:
            ask(message("hello", name="Pinger"))
            created = ask(message("create", rid="c", game="pika", players=2, idle=None))
            if created and created["type"] == "table":
                ask(message("sit", rid="s", table=created["table"]["id"]))
            for n in itertools.count():
                if self.stop.wait(0.05):
                    break
                began = time.perf_counter()
                if ask(message("ping", rid=n)) is None:
                    self.count_error("ping lost")
                    continue
                took = time.perf_counter() - began
                if self.out is not None:
                    self.out.put(("ping", took))
                    continue
                with self.lock:
                    self.pings.append(took)
        finally:
            sock.close()

    # --- the hostile guest -------------------------------------------------------------------

    def hostile(self) -> None:
        """One guest (one key, on every connection he opens), every attack in turn, as fast
        as the host lets him."""
        rng = random.Random(7)
        socks: list[zmq.Socket[Any]] = []
        guest = KeyPair.generate()

        def raw(rcvhwm: int = 1000) -> zmq.Socket[Any]:
            sock = self.dealer(guest, rcvhwm)
            socks.append(sock)
            return sock

        main = raw(rcvhwm=1)                  # never reads
        try:
            while not self.stop.is_set():
                attack = rng.choice(("storm", "tables", "create", "watchers", "invite", "rid"))
                if attack == "storm":
                    for i in range(2000):
                        main.send(encode(message("hello", name=f"S{i}-{rng.random():.6f}")))
                elif attack == "tables":
                    main.send(encode(message("hello", name="Hog")))
                    for _ in range(1500):
                        main.send(encode(message("tables")))
                elif attack == "create":
                    for _ in range(20):
                        main.send(encode(message("create", game="pika", players=4,
                                                 title="x" * 64)))
                elif attack == "watchers":
                    tid = (self.latest.value.decode() if self.latest is not None
                           else None) or "t1"
                    for _ in range(200):
                        w = raw(rcvhwm=1)
                        w.send(encode(message("hello", name=f"W{rng.random():.6f}")))
                        w.send(encode(message("watch", table=tid)))
                    time.sleep(1.0)
                    for w in socks[1:]:
                        w.close()
                    del socks[1:]
                elif attack == "invite":
                    main.send(encode(message("create", game="pika", players=2,
                                             mode="friends", rid=1)))
                    for _ in range(500):
                        main.send(encode(message("invite", table="t1", names=["Gamer1"])))
                else:
                    for i in range(500):
                        main.send(encode(message("chat", rid=i, table="t1", text="x")))
                        main.send(encode(message("move", rid=i, table="t1", move=0,
                                                 version=0)))
                self.stop.wait(0.5)
        finally:
            for sock in socks:
                sock.close()

    # --- the report --------------------------------------------------------------------------

    def run(self, pid: int) -> list[tuple[float, float]]:
        args = self.args
        spawn = multiprocessing.get_context("spawn")     # no ZeroMQ context crosses a fork
        stop = spawn.Event()
        out = spawn.Queue()
        self.latest = spawn.Array("c", 32)
        procs = [spawn.Process(target=_alone, args=("pinger", self.address, args, stop, out,
                                                    self.latest), daemon=True)]
        if args.hostile:
            procs.append(spawn.Process(target=_alone, args=(
                "hostile", self.address, args, stop, out, self.latest), daemon=True))
        procs[0].start()                                  # the pinger, at the host's priority
        os.nice(args.load_nice)                           # the crowd, and the hostile guest
        for proc in procs[1:]:
            proc.start()
        threads = [threading.Thread(target=self.gamer, args=(i,), daemon=True)
                   for i in range(args.games)]
        threads += [threading.Thread(target=self.watcher, args=(i,), daemon=True)
                    for i in range(args.watchers)]
        threads += [threading.Thread(target=f, daemon=True)
                    for f in (self.joiner, self.slow_reader)]
        for t in threads:
            t.start()
        began = time.monotonic()
        curve: list[tuple[float, float]] = []
        cpu = cpu_seconds(pid)
        at = began
        print(f"soak: {args.games} games, {args.watchers} watchers, a joiner, a slow reader, "
              f"a pinger{', one hostile guest' if args.hostile else ''} (the load "
              f"{args.load_nice} nicer than the host); every "
              f"{args.interval:g} s:", flush=True)
        while time.monotonic() - began < args.minutes * 60:
            time.sleep(min(args.interval, max(0.0, began + args.minutes * 60
                                               - time.monotonic())))
            now = time.monotonic()
            self._drain(out)
            used = cpu_seconds(pid)
            rss = rss_kb(pid) / 1024
            with self.lock:
                pings, self.pings = self.pings, []
                games, joins, errors = self.games, self.joins, dict(self.errors)
            minute = (now - began) / 60
            curve.append((minute, rss))
            load = 100 * (used - cpu) / (now - at)
            print(f"  minute {minute:5.1f}: RSS {rss:6.1f} MB, CPU {load:5.1f} %, "
                  f"ping p50 {1000 * percentile(pings, 50):5.2f} ms, p99 "
                  f"{1000 * percentile(pings, 99):6.2f} ms, max "
                  f"{1000 * max(pings, default=float('nan')):6.2f} ms ({len(pings)} pings); "
                  f"{games} games, {joins} joins"
                  + (f"; errors {errors}" if errors else ""), flush=True)
            cpu, at = used, now
        self.stop.set()
        stop.set()
        for t in threads:
            t.join(10)
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
        return curve

    def _drain(self, out: Any) -> None:
        """What the processes of the pinger and the hostile guest sent since the last look."""
        while True:
            try:
                what, value = out.get_nowait()
            except queue.Empty:
                return
            with self.lock:
                if what == "ping":
                    self.pings.append(value)
                else:
                    self.errors[value] = self.errors.get(value, 0) + 1


def _alone(role: str, address: str, args: argparse.Namespace, stop: Any, out: Any,
           latest: Any) -> None:
    """(In a process of its own.) The pinger or the hostile guest, until ``stop`` is set."""
    soak = Soak(address, args)
    soak.stop = stop
    soak.out = out
    soak.latest = latest
    getattr(soak, role)()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0, help="how long (default 30)")
    p.add_argument("--interval", type=float, default=60.0,
                   help="seconds between two reports (default 60)")
    p.add_argument("--games", type=int, default=6, help="players each at a game (default 6)")
    p.add_argument("--watchers", type=int, default=4, help="spectators (default 4)")
    p.add_argument("--think", type=float, default=0.05,
                   help="seconds a player thinks before each move (default 0.05)")
    p.add_argument("--hostile", action="store_true", help="add one hostile guest")
    p.add_argument("--load-nice", type=int, default=10,
                   help="how much nicer than the host and the pinger the crowd and the "
                        "hostile guest run (default 10; 0: as the host)")
    args = p.parse_args(argv)
    # Stopped by SIGTERM: the host and the data directory go too, as at the end.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with tempfile.TemporaryDirectory(prefix="cardparty-soak-") as data:
        proc, address = start(host_command(data))
        try:
            curve = Soak(address, args).run(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    if curve:
        peak = max(r for _, r in curve)
        fifth = next((r for m, r in curve if m >= 5), curve[0][1])
        print(f"soak: RSS at the end {curve[-1][1]:.1f} MB, at minute 5 (or first) "
              f"{fifth:.1f} MB ({100 * (curve[-1][1] - fifth) / fifth:+.1f} %), peak "
              f"{peak:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
