"""Benchmark of a standby taking over (issue 29): real host and standby processes on
127.0.0.1, network players in every human seat and host bots beside them, at tables of all
four games; the host killed (SIGKILL) at random moments, and then stopped (SIGTERM: a
hand-over), each time with the old host's machine coming back as the new host's standby for
the next.

What it measures, and checks:

1. ``--kills`` kills, each at a random moment of a fresh set of games (Pika 4 seats, Pikáč 3
   and Kakhead 3 with two players each and bots beside them, Piquet's one deal with one
   player and a bot): every game finishes on the standby; moves lost (a move a player was
   told ``ok`` to that the final table does not hold at its version) and doubled (moves of a
   player's seat in the final table beyond those he was answered or never heard back
   about) are 0; the ledger's audit holds on the old host's files and the new host's; the
   coins in play are the same on both (the new host counted as it took over, before any
   round it finishes pays); the pause each player sees (his last view before the kill to
   his first after) p50 <= 1.5 s and p99 <= 3 s.
2. ``--handovers`` hand-overs the same way: the pause p99 <= 1 s.

Every figure comes with the load average: the machine is shared, and a pause's tail may be
the load, not the design. Run under ``nice``. Usage: ``.venv/bin/python bench/failover.py
[--help]`` (``--kills 2 --handovers 1``: the smoke test's short run).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from measure import PY, load_average, percentile  # beside this script
from party import audit_holds, coins_in_play, kept, ledger_rows, payouts_of  # beside it too

#: (game, seats, humans, settings): tables of all four games, humans and bots beside them.
TABLES = [("pika", 4, 2, {}), ("pikac", 3, 2, {}), ("kakhead", 3, 2, {}),
          ("piquet", 2, 1, {"deals": 1})]


def free_port() -> int:
    for _ in range(200):
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", 0))
            port = int(a.getsockname()[1])
            try:
                b.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port
    raise SystemExit("no free pair of ports")


class Node:
    """One machine of the party: a data directory and a port, a host or standby process on
    them (``cardparty host``)."""

    def __init__(self, base: Path, name: str) -> None:
        self.data = base / name
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.lines: list[str] = []

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def fingerprint(self) -> str:
        from cardparty.net.trust.keys import host_keys

        return host_keys(self.data).fingerprint

    def _spawn(self, *args: str) -> None:
        self.lines = []
        self.proc = subprocess.Popen(
            [PY, "-m", "cardparty.client.cli", "host", "--bind", "127.0.0.1", "--port",
             str(self.port), "--data", str(self.data), "--idle", "0", "--log-level", "info",
             "--no-advertise", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.append(line.rstrip())

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            if time.monotonic() > end or (self.proc is not None and self.proc.poll() is not None
                                          and not any(text in ln for ln in self.lines)):
                raise SystemExit(f"{self.address}: no {text!r}:\n" + "\n".join(self.lines[-20:]))
            time.sleep(0.02)

    def host(self, standby: Node) -> None:
        self._spawn("--standby-key", standby.fingerprint())
        self.wait_for("listening on")

    def standby_of(self, host: Node) -> None:
        self._spawn("--standby-for", host.address)
        self.wait_for("attached to the host")

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)

    def reap(self) -> None:
        if self.proc is not None:
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@dataclass
class Seat:
    """One player at one table: what he was told and when."""

    table: str = ""
    acked: dict[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    unanswered: int = 0
    last_view: float = 0.0
    first_after: float | None = None
    over: bool = False
    seat: int | None = None


#: The moves by which a player ends a game that cycles (KH-12: a draw offered and accepted).
ENDING = ("offer", "accept")


def choose(moves: list[dict[str, Any]]) -> int:
    """The move a bench player makes: the first one offered, or, in a game that cycles, the
    draw (KH-12: offered once the table allows it, and accepted). Always the first move, two
    such players and a bot can play a game of Kakhead round and round without end (one
    went past 31,000 moves): a person offers the draw."""
    return next((i for i, m in enumerate(moves) if m["kind"] in ENDING), 0)


class Player(threading.Thread):
    """A network player (a ``Session``) who moves the first move offered whenever he may
    (``choose``)."""

    def __init__(self, address: str, name: str) -> None:
        super().__init__(daemon=True, name=f"player-{name}")
        from cardparty.net.player.session import Session

        self.session = Session(address, name, request_timeout=15)
        self.session.connect(15)
        self.seat = Seat()
        self.kill_at: float | None = None
        #: the epoch of the host when it was stopped: a view of a higher one is the new host's
        self.epoch_at_kill = 0
        #: seconds between two of his moves until the new host serves him (a person's pace
        #: keeps the games going across the kill), then none (they finish quickly)
        self.pace = 0.0
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        from cardparty.net.player.session import SessionError

        s = self.session
        while not self.stopping.is_set():
            msg = s.next_message(0.1)
            if msg is None or msg["type"] != "view":
                continue
            seat = self.seat
            if msg.get("table") != seat.table:
                continue
            now = time.monotonic()
            with self.lock:
                if self.kill_at is not None and s.epoch > self.epoch_at_kill:
                    if seat.first_after is None:
                        seat.first_after = now
                else:
                    seat.last_view = now
            view = msg["view"]
            seat.seat = msg.get("seat")
            if view.get("result"):
                seat.over = True
                continue
            if not view["moves"] or msg["version"] != s.views[seat.table]["version"]:
                continue
            pick = choose(view["moves"])
            m = view["moves"][pick]
            if seat.first_after is None and self.pace:
                time.sleep(self.pace * random.uniform(0.5, 1.5))
                if msg["version"] != s.views[seat.table]["version"]:
                    continue
            try:
                ok = s.move(seat.table, pick, msg["version"])
            except SessionError as exc:
                if exc.code in ("timeout", "closed"):
                    seat.unanswered += 1
                continue
            seat.acked[ok["version"]] = (m["kind"], tuple(m["cards"]))

    def close(self) -> None:
        self.stopping.set()
        self.join(5)
        self.session.abort()


def deal(players: list[Player]) -> list[list[Player]]:
    """A fresh table of each game, its players seated, bots beside them, started."""
    groups, i = [], 0
    for game, seats, humans, settings in TABLES:
        group = players[i:i + humans]
        i += humans
        first = group[0].session
        tid = first.create(game, seats, settings)["id"]
        for p in group:
            p.seat = Seat(table=tid)
            p.session.sit(tid)
        first.add_bots(tid)
        for p in group:
            p.session.ready(tid)
        groups.append(group)
    return groups


def coins_at_takeover(old: Path, new: Path) -> tuple[int, int]:
    """(the coins in play on the old host's files at the kill, on the new host's as it took
    over). The new host serves at once (its bots may finish a round before anything here
    reads its files), so what it had as it took over is its ledger's rows up to the last one
    both hosts hold alike: the stream is a prefix of the old host's, and every row the new
    host writes after the takeover differs (its time)."""
    before, after = ledger_rows(old), ledger_rows(new)
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    return coins_in_play(before), coins_in_play(after[:common])


@dataclass
class Tally:
    pauses: list[float] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    lost: int = 0
    doubled: int = 0
    audits: int = 0
    audits_ok: int = 0
    coins_same: int = 0
    paid_once: int = 0
    cycles: int = 0
    #: seconds from the stop to the new host's word that it took over, per cycle
    took: list[float] = field(default_factory=list)


def one_failover(rng: random.Random, players: list[Player], host: Node, standby: Node,
                 sig: int, tally: Tally, args: argparse.Namespace) -> None:
    """A fresh set of games, the host stopped by ``sig`` at a random moment, the games
    played to their end on the standby, checked; then the old host's machine comes back as
    the new host's standby."""
    for p in players:
        with p.lock:
            p.kill_at = None
            p.pace = args.pace
            p.epoch_at_kill = p.session.epoch
    groups = deal(players)
    time.sleep(rng.uniform(0.3, args.within))          # a random moment of the games
    kill_at = time.monotonic()
    for p in players:
        with p.lock:
            p.kill_at = kill_at
    live = [p for p in players if not p.seat.over]
    host.signal(sig)
    host.reap()
    ok_before = audit_holds(host.data)
    standby.wait_for("took over from", 30)
    tally.took.append(time.monotonic() - kill_at)
    ok_after = audit_holds(standby.data)
    coins_before, coins_after = coins_at_takeover(host.data, standby.data)
    tally.audits += 2
    tally.audits_ok += ok_before + ok_after
    tally.coins_same += coins_before == coins_after
    end = time.monotonic() + args.finish
    while time.monotonic() < end and not all(p.seat.over for p in players):
        time.sleep(0.05)
    cycle = [p.seat.first_after - p.seat.last_view for p in live
             if p.seat.first_after is not None]
    tally.pauses.extend(cycle)
    if args.verbose:
        with contextlib.closing(sqlite3.connect(f"file:{standby.data / 'host.sqlite3'}?mode=ro",
                                                uri=True)) as db:
            kept_tables = db.execute("SELECT COUNT(*) FROM tables").fetchone()
        print(f"  cycle {tally.cycles + 1}: the new host said it took over "
              f"{tally.took[-1]:.2f} s after the stop; pauses {len(cycle)}, longest "
              f"{max(cycle, default=0):.2f} s; tables kept {kept_tables[0]}", flush=True)
    ok_end = audit_holds(standby.data)
    tally.audits += 1
    tally.audits_ok += ok_end
    for group in groups:
        tally.games += 1
        # A game still going (the load): what each player was told before the table is read
        # must be in it, and what the table holds after must be what they were told since.
        told = {}
        for p in group:
            with p.lock:
                told[p.name] = dict(p.seat.acked)
        table = kept(standby.data, group[0].seat.table)
        if table is None:
            continue
        tally.finished += table.result() is not None
        if table.result() is None and args.verbose:
            unfinished(table, group, standby)
        tally.paid_once += payouts_of(standby.data, group[0].seat.table) == 1
        base = table.version - len(table.journal)
        for p in group:
            for v, (kind, cards) in told[p.name].items():
                at = v - base - 1
                if not (0 <= at < len(table.journal)) or (
                        table.journal[at][1].kind, table.journal[at][1].cards) != (kind, cards):
                    tally.lost += 1
            made = sum(1 for s, _ in table.journal if s == p.seat.seat)
            with p.lock:
                tally.doubled += max(0, made - len(p.seat.acked) - p.seat.unanswered)
    tally.cycles += 1
    host.standby_of(standby)                           # the old machine comes back
    told_of(players, host.port)


def unfinished(table: Any, group: list[Player], standby: Node) -> None:
    """``--verbose``: what a game the new host did not finish was waiting for."""
    due = [(seat, [m.kind for m in table.legal_moves(seat)])
           for seat in range(table.players) if table.legal_moves(seat)]
    print(f"  not finished: {group[0].seat.table} ({table.game}) at version "
          f"{table.version}, due: {due}", flush=True)
    for p in group:
        s = p.session
        print(f"    {p.name}: seat {p.seat.seat}, over {p.seat.over}, view after "
              f"{p.seat.first_after is not None}, epoch {s.epoch}, unanswered "
              f"{p.seat.unanswered}, his view's version "
              f"{s.views.get(p.seat.table, {}).get('version')}", flush=True)
    for line in standby.lines[-8:]:
        print(f"    | {line[:300]}", flush=True)


def told_of(players: list[Player], port: int, timeout: float = 20.0) -> None:
    """Every player's host told him of its standby at ``port`` (else a kill would strand
    him: he follows only what he was told)."""
    end = time.monotonic() + timeout
    while not all(p.session.successor is not None
                  and p.session.successor.endpoint.endswith(f":{port}") for p in players):
        if time.monotonic() > end:
            raise SystemExit("the players were never told of the standby")
        time.sleep(0.02)


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    base = Path(tempfile.mkdtemp(prefix="cardparty-failover-"))
    os.environ["CARDPARTY_HOME"] = str(base / "home")
    a, b = Node(base, "a"), Node(base, "b")
    print(f"load average before: {load_average()} on "
          f"{os.cpu_count()} cores")
    players: list[Player] = []
    try:
        a.host(b)
        b.standby_of(a)
        players = [Player(a.address, f"P{i}") for i in range(sum(t[2] for t in TABLES))]
        for p in players:
            p.start()
        told_of(players, b.port)
        host, standby = a, b
        kills, handovers = Tally(), Tally()
        t0 = time.perf_counter()
        for n in range(args.kills):
            one_failover(rng, players, host, standby, signal.SIGKILL, kills, args)
            host, standby = standby, host
            if args.verbose:
                print(f"  kill {n + 1}: pauses so far p50 "
                      f"{percentile(kills.pauses, 50):.2f} s", flush=True)
        took_kills = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(args.handovers):
            one_failover(rng, players, host, standby, signal.SIGTERM, handovers, args)
            host, standby = standby, host
        took_handovers = time.perf_counter() - t0
    finally:
        for p in players:
            p.close()
        for node in (a, b):
            node.signal(signal.SIGKILL)
            node.reap()
        shutil.rmtree(base, ignore_errors=True)
    load = load_average()
    report("killed (SIGKILL)", kills, took_kills)
    report("handed over (SIGTERM)", handovers, took_handovers)
    print(f"load average after: {load}")
    k50, k99 = percentile(kills.pauses, 50), percentile(kills.pauses, 99)
    h99 = percentile(handovers.pauses, 99)
    print("targets:")
    good = (kills.finished == kills.games and kills.lost == 0 and kills.doubled == 0
            and kills.audits_ok == kills.audits and kills.paid_once == kills.games)
    print(f"  every game finishes on the standby, moves lost 0, doubled 0, the audit holds, "
          f"every round paid exactly once: {kills.finished}/{kills.games} finished, lost "
          f"{kills.lost}, doubled {kills.doubled}, audits {kills.audits_ok}/{kills.audits}, "
          f"paid once {kills.paid_once}/{kills.games} -> {'PASS' if good else 'FAIL'}")
    print(f"  (coins in play on the old host's files at the kill and on the new host as it "
          f"took over: equal {kills.coins_same}/{kills.cycles}; where not, the old host had "
          "committed a round's payout that its standby never acknowledged, so nobody was told "
          "of it, and the new host paid that round itself: see 'paid once')")
    print(f"  a kill's pause p50 <= 1.5 s: {k50:.2f} s -> {'PASS' if k50 <= 1.5 else 'FAIL'}; "
          f"p99 <= 3 s: {k99:.2f} s -> {'PASS' if k99 <= 3.0 else 'FAIL'}")
    if handovers.cycles:
        print(f"  a hand-over's pause p99 <= 1 s: {h99:.2f} s -> "
              f"{'PASS' if h99 <= 1.0 else 'FAIL'}")
    return 0


def report(what: str, tally: Tally, took: float) -> None:
    if not tally.cycles:
        return
    p = tally.pauses
    print(f"{tally.cycles} times {what} in {took:.0f} s, {tally.games} games "
          f"({', '.join(t[0] for t in TABLES)}): {tally.finished} finished on the new host; "
          f"moves lost {tally.lost}, doubled {tally.doubled}; ledger audits "
          f"{tally.audits_ok}/{tally.audits}, rounds paid once {tally.paid_once}/"
          f"{tally.games}, coins in play equal at the takeover {tally.coins_same}/"
          f"{tally.cycles}; a player's pause ({len(p)}): p50 {percentile(p, 50):.2f} s, "
          f"p90 {percentile(p, 90):.2f} s, p99 {percentile(p, 99):.2f} s, "
          f"max {max(p, default=float('nan')):.2f} s")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kills", type=int, default=50)
    p.add_argument("--handovers", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--finish", type=float, default=60.0,
                   help="seconds the games have to finish on the new host")
    p.add_argument("--pace", type=float, default=0.15,
                   help="seconds between a player's moves until the new host serves him")
    p.add_argument("--within", type=float, default=3.0,
                   help="the host is stopped at a random moment this many seconds into the "
                        "games at most")
    p.add_argument("--verbose", action="store_true")
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
