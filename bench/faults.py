"""Benchmark of a party's peers under a LAN's faults: three peers (``cardparty host``
processes) and eight network players (``cardparty bot-client``), each machine a network
namespace of its own on one bridge, games of all four games, and a schedule of faults drawn
from a seed.

Phases (each one asked for runs, in this order, on the same party: the guest before the
chain, whose hand-overs may leave no standby to follow):

1. ``--faults N`` over ``--minutes``: SIGKILL of a peer (started again a few seconds later
   with its own unchanged command line), SIGSTOP of 0.3-5 s then SIGCONT, packet loss and
   partitions (nftables in the LAN's switch), resets of connections (``ss -K``), graceful
   hand-overs (SIGTERM of the serving host); ``--kinds`` chooses among them. Per fault: the
   standby drops and fresh copies that followed it (target: at most one of each, then
   steady) and each player's pause (the longest gap between the views he saw across it;
   target p99 <= 3 s).
2. ``--guest``: a guest with fresh keys sends ``hello`` following the standby (``follow:
   {epoch}``, as his own welcome told him) every 10 ms for ``--minutes``, while the link
   between the host and its standby is cut and healed every 20 s. Target: 0 takeovers.
3. ``--chain N``: N failures in a row, each of the serving host (a kill, a stall past the
   bound, a hand-over); a killed or exited process is only started again with its own
   command line. Target: after each, a standby attached within 5 s of two peers being up.

Then the checker (bench/faultcheck.py) reads every client's history against the host serving
at the end: moves lost and doubled, two continuations told of one table, the ledger's audit,
rounds paid once, takeovers while every seated player still reached the host.

Every figure comes with the load average. Needs root, iproute2 and nftables; elsewhere it says
why and exits 77. ``--smoke`` is the suite's short run. Usage: ``.venv/bin/python
bench/faults.py [--help]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faultcheck import Reading, Verdict, check, load, pause, view_times
from faultnet import (
    LINES,
    Lan,
    LanError,
    Peer,
    can_make,
    command_lines,
    takes_many_standby_keys,
)
from measure import PY, load_average, percentile  # beside this script

#: Exit status when the bench cannot make its network here.
CANNOT = 77
KINDS = ("kill", "stall", "loss", "partition", "reset", "handover")
PEERS = ("a", "b", "c")
#: (game, seats, settings): one table of each game, two network players at each, the host's
#: bots in the other seats.
GAMES = [("pika", 4, {}), ("pikac", 3, {}), ("kakhead", 3, {}), ("piquet", 2, {"deals": 1})]
PLAYERS = [f"p{i}" for i in range(2 * len(GAMES))]
#: Seconds before a peer that stopped by itself is started again (its laptop's owner).
COMES_BACK = 2.0
#: Seconds at the end of a fault's window with no drop, copy or attach: steady.
STEADY = 3.0
#: Seconds within which a standby must be attached again once two peers are up (the chain).
ATTACH_WITHIN = 5.0
#: Seconds a finished table is looked for on the serving host (none may serve a moment).
READ_FOR = 10.0
#: Times a joiner that ended without sitting tries the table again.
JOIN_TRIES = 10


@dataclass
class Fault:
    n: int
    kind: str
    at: float                      # seconds from the phase's start
    length: float                  # how long it lasts (a kill: until the restart)
    pick: float                    # which target, in [0, 1)
    pct: int = 0                   # a loss's percent
    target: str = ""
    started: float = 0.0           # wall clock
    healed: float = 0.0
    until: float = 0.0             # the next fault's start (the window's end)
    drops: int = 0
    copies: int = 0
    steady: bool = False
    pauses: list[float] = field(default_factory=list)


def players_link(f: Fault) -> bool:
    """Whether ``f`` is a fault of a player's own link (a loss at his machine, a partition
    with him on one side), rather than of the party's peers."""
    return f.kind in ("loss", "partition") and any(
        side.split()[0].startswith("p") for side in f.target.split("|") if side)


def schedule(rng: random.Random, count: int, seconds: float, kinds: list[str]) -> list[Fault]:
    """``count`` faults of ``kinds`` spread over ``seconds``, drawn from ``rng``: each starts
    in its own window and lasts at most half of it, so that the party may settle before the
    next."""
    gap = seconds / max(1, count)
    out = []
    for n in range(count):
        kind = rng.choice(kinds)
        room = max(0.3, gap * 0.5)
        length = {"kill": rng.uniform(0.5, 5.0), "stall": rng.uniform(0.3, 5.0),
                  "loss": rng.uniform(2.0, 15.0), "partition": rng.uniform(1.0, 15.0),
                  "reset": 0.0, "handover": 0.0}[kind]
        out.append(Fault(n + 1, kind, n * gap + rng.uniform(0, gap * 0.2), min(length, room),
                         rng.random(), rng.randint(3, 20)))
    return out


class Party:
    """The LAN, the peers, the players' game loops, and the bench's view of who serves."""

    def __init__(self, base: Path, args: argparse.Namespace) -> None:
        self.base = base
        self.args = args
        self.lan = Lan([*PEERS, *PLAYERS, "guest"])
        self.peers: dict[str, Peer] = {}
        self.down_until: dict[str, float] = {}
        self.exited: dict[str, bool] = {}
        self.procs: set[subprocess.Popen[str]] = set()
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.no_new_games = threading.Event()
        self.loops: list[threading.Thread] = []
        #: table id -> (game, start, end, finished exit codes)
        self.games: dict[str, dict[str, Any]] = {}
        self.readings: dict[str, Reading] = {}
        self.rng = random.Random(args.seed)
        self.epochs: dict[tuple[str, int], int] = {}

    # --- life --------------------------------------------------------------------------------

    def up(self) -> None:
        self.lan.up()
        for name in PEERS:
            self.peers[name] = Peer(name, self.lan, self.base)
        command_lines(list(self.peers.values()), takes_many_standby_keys())
        a = self.peers["a"]
        a.start()
        self.wait_line(a, "serving", 60)
        for name in PEERS[1:]:
            self.peers[name].start()
        self.wait_line(a, "attached", 60)
        threading.Thread(target=self._keeper, daemon=True).start()
        for i, (game, seats, settings) in enumerate(GAMES):
            loop = threading.Thread(target=self._games, args=(game, seats, settings,
                                                              PLAYERS[2 * i:2 * i + 2]),
                                    daemon=True, name=f"games-{game}")
            loop.start()
            self.loops.append(loop)

    def wait_line(self, peer: Peer, kind: str, timeout: float, since: float = 0.0) -> float:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = peer.said(kind, since)
            if found:
                return found[0][0]
            time.sleep(0.05)
        tail = "\n".join(f"  | {line}" for _, line in peer.lines[-15:])
        raise SystemExit(f"peer {peer.name}: no {kind!r} line in {timeout:.0f} s:\n{tail}")

    def close(self) -> None:
        self.stopping.set()
        self.no_new_games.set()
        with self.lock:
            procs = list(self.procs)
        for p in procs:
            if p.poll() is None:
                p.kill()
        for peer in self.peers.values():
            if peer.alive():
                peer.signal(signal.SIGCONT)
                peer.signal(signal.SIGKILL)
            peer.reap(5)
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(5)
        self.lan.close()

    def _keeper(self) -> None:
        """A peer gone (killed, or stopped by itself) is started again with its own command
        line: a killed one when its fault says, one that ended by itself a moment later."""
        while not self.stopping.is_set():
            now = time.time()
            for name, peer in self.peers.items():
                if peer.alive():
                    continue
                if peer.proc is not None and not self.exited.get(name):
                    self.exited[name] = True
                    code = peer.proc.poll()
                    peer.lines.append((now, f"[bench] exited {code}"))
                    self.down_until[name] = max(self.down_until.get(name, 0.0),
                                                now + COMES_BACK)
                if now >= self.down_until.get(name, 0.0) and not self.stopping.is_set():
                    self.exited[name] = False
                    peer.start()
            time.sleep(0.05)

    def kill(self, peer: Peer, down: float) -> None:
        self.down_until[peer.name] = time.time() + down
        peer.signal(signal.SIGCONT)
        peer.signal(signal.SIGKILL)

    # --- who serves --------------------------------------------------------------------------

    def role(self, peer: Peer) -> tuple[str, int]:
        """("host", epoch), ("standby", 0) or ("down", 0), from what the peer said since its
        last start."""
        if not peer.alive():
            return "down", 0
        lines = list(peer.lines)
        start = max((i for i, (_, ln) in enumerate(lines) if ln.startswith("[bench] start")),
                    default=0)
        role, epoch = "down", 0
        for _, line in lines[start:]:
            took = LINES["took_over"](line)
            if took is not None:
                role, epoch = "host", int(took["epoch"])
            elif LINES["serving"](line) is not None:
                key = (peer.name, peer.starts)
                if key not in self.epochs:
                    from party import epoch_of

                    self.epochs[key] = epoch_of(peer.data)
                role, epoch = "host", self.epochs[key]
            elif LINES["standby"](line) is not None:
                role, epoch = "standby", 0
        return role, epoch

    def serving(self) -> Peer | None:
        """The peer that serves now: a host, the highest epoch (None: none does)."""
        best: tuple[int, Peer] | None = None
        for peer in self.peers.values():
            role, epoch = self.role(peer)
            if role == "host" and (best is None or epoch > best[0]):
                best = (epoch, peer)
        return None if best is None else best[1]

    def standby_of(self, host: Peer) -> Peer | None:
        """The peer the host last said was attached (None: none now)."""
        since = max((t for t, m in host.said("bench") if m["what"].startswith("start")),
                    default=0.0)
        att = host.said("attached", since)
        drop = host.said("dropped", since)
        if not att or (drop and drop[-1][0] > att[-1][0]):
            return None
        serves = att[-1][1]["serves"]
        return next((p for p in self.peers.values() if p.address == serves), None)

    # --- the players -------------------------------------------------------------------------

    def _client(self, player: str, extra: list[str]) -> subprocess.Popen[str]:
        host = self.serving() or self.peers["a"]
        env = {**os.environ, "CARDPARTY_HOME": str(self.base / f"home-{player}")}
        argv = [PY, "-m", "cardparty.client.cli", "bot-client", "--connect", host.address,
                "--name", player.upper(), "--json", "--history",
                str(self.base / f"history-{player}.jsonl"), "--delay", str(self.args.pace),
                "--timeout", str(self.args.game_timeout), "--seed",
                str(self.rng.randrange(1 << 30)), *extra]
        proc = subprocess.Popen(self.lan.exec(player, argv), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                                env=env)
        with self.lock:
            self.procs.add(proc)
        return proc

    def _done(self, proc: subprocess.Popen[str], timeout: float) -> int:
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait(5)
        with self.lock:
            self.procs.discard(proc)
        return code

    def _games(self, game: str, seats: int, settings: dict[str, Any], who: list[str]) -> None:
        """Games of ``game`` one after another, ``who`` seated at each, until told to stop."""
        first, second = who
        while not self.no_new_games.is_set():
            extra = ["--create", game, "--players", str(seats)]
            for k, val in settings.items():
                extra += ["--setting", f"{k}={json.dumps(val)}"]
            creator = self._client(first, extra)
            assert creator.stdout is not None
            tid = None
            for line in creator.stdout:
                try:
                    tid = json.loads(line).get("table")
                except (json.JSONDecodeError, AttributeError):
                    continue
                if tid:
                    break
            if tid is None:
                self._done(creator, 5)
                time.sleep(1.0)          # no host answered: a moment, then again
                continue
            started = time.time()
            threading.Thread(target=drain, args=(creator,), daemon=True).start()
            joiner = self._join(second, tid, creator)
            limit = self.args.game_timeout + 30
            codes = (self._done(creator, limit), self._done(joiner, limit))
            self.games[tid] = {"game": game, "start": started, "end": time.time(),
                               "codes": codes}
            self._read(tid)

    def _join(self, who: str, tid: str, creator: subprocess.Popen[str]
              ) -> subprocess.Popen[str]:
        """``who`` sits at ``tid``, as a player would try again: a table made at a host that
        was being succeeded reaches the host serving now only with the heal, and the host
        the joiner was sent to may be going away, so a joiner that ends without having sat
        (told there is no such table, or no host answered at the address it was given,
        however long that took) tries again (``JOIN_TRIES`` times, a second apart) while its
        creator waits."""
        history = self.base / f"history-{who}.jsonl"
        for attempt in range(JOIN_TRIES):
            start = history.stat().st_size if history.exists() else 0
            joiner = self._client(who, ["--table", tid, "--fill-bots"])
            threading.Thread(target=drain, args=(joiner,), daemon=True).start()
            while (code := joiner.poll()) is None and not sat(history, start, tid):
                time.sleep(0.2)
            if code is None or code == 0 or attempt == JOIN_TRIES - 1 or (
                    creator.poll() is not None):
                return joiner                          # seated and playing, or done
            with self.lock:
                self.procs.discard(joiner)
            time.sleep(1.0)
        return joiner

    def _read(self, tid: str) -> None:
        """The table as the host serving now keeps it (the final host may have dropped a
        finished table by the end of a long run: kept 600 s past its end); tried again for
        a few seconds while no host serves or its files cannot be read (a takeover under
        way)."""
        from party import economy_keys, kept_tables

        end = time.monotonic() + READ_FOR
        while True:
            host = self.serving()
            if host is not None:
                try:
                    table = kept_tables(host.data, [tid]).get(tid)
                    key = economy_keys(host.data).get(tid)
                except Exception:
                    table = None
                if table is not None:
                    self.readings[tid] = Reading(table, key, host.name)
                    return
            if time.monotonic() >= end:
                return
            time.sleep(0.5)

    def histories(self) -> dict[str, list[dict[str, Any]]]:
        return {p: load(self.base / f"history-{p}.jsonl") for p in PLAYERS}

    # --- faults ------------------------------------------------------------------------------

    def target(self, f: Fault) -> Peer:
        """The peer a kill or a stall hits: the serving host half the time, else any."""
        host = self.serving()
        peers = list(self.peers.values())
        if host is not None and f.pick < 0.5:
            return host
        return peers[int(f.pick * 2 * len(peers)) % len(peers)]

    def do(self, f: Fault) -> None:
        """Start the fault ``f`` (its heal is ``undo``)."""
        f.started = time.time()
        lan = self.lan
        if f.kind == "kill":
            peer = self.target(f)
            f.target = peer.name
            self.kill(peer, f.length)
        elif f.kind == "stall":
            peer = self.target(f)
            f.target = peer.name
            peer.signal(signal.SIGSTOP)
        elif f.kind == "handover":
            peer = self.serving() or self.peers["a"]
            f.target = peer.name
            peer.signal(signal.SIGTERM)
        elif f.kind == "loss":
            machines = [*PEERS, *PLAYERS]
            m = machines[int(f.pick * len(machines)) % len(machines)]
            if f.pick < 0.5:
                m = (self.serving() or self.peers["a"]).name
            f.target = f"{m} {f.pct}%"
            lan.set_loss(m, f.pct)
        elif f.kind == "partition":
            host = self.serving() or self.peers["a"]
            standby = self.standby_of(host)
            others = [n for n in (*PEERS, *PLAYERS) if n != host.name]
            other = (standby.name if standby is not None and f.pick < 0.6
                     else others[int(f.pick * len(others)) % len(others)])
            f.target = f"{host.name}|{other}"
            lan.cut(host.name, other)
        elif f.kind == "reset":
            names = list(PEERS)
            m = names[int(f.pick * len(names)) % len(names)]
            f.target = f"{m} ({lan.reset(m)} connections)"
            f.healed = f.started

    def undo(self, f: Fault) -> None:
        if f.kind == "stall":
            self.peers[f.target].signal(signal.SIGCONT)
        elif f.kind == "loss":
            self.lan.set_loss(f.target.split()[0], 0)
        elif f.kind == "partition":
            a, b = f.target.split("|")
            self.lan.cut(a, b, False)
        f.healed = time.time()

    def settle(self) -> None:
        """Every fault healed: the network whole, every peer running."""
        self.lan.heal()
        now = time.time()
        for name, peer in self.peers.items():
            if peer.stopped:
                peer.signal(signal.SIGCONT)
            self.down_until[name] = min(self.down_until.get(name, 0.0), now)


def sat(history: Path, start: int, tid: str) -> bool:
    """Whether the client writing ``history`` wrote, past ``start``, that it sat at ``tid``."""
    try:
        with open(history, "rb") as f:
            f.seek(start)
            tail = f.read()
    except OSError:
        return False
    for line in tail.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("kind") == "seated" and r.get("table") == tid:
            return True
    return False


def drain(proc: subprocess.Popen[str]) -> None:
    """Read what a client prints to its end (a full pipe would stop it)."""
    for _ in proc.stdout or ():
        pass


def lines_between(party: Party, kind: str, since: float, until: float) -> list[float]:
    return sorted(t for p in party.peers.values() for t, _ in p.said(kind, since, until))


def run_faults(party: Party, faults: list[Fault], seconds: float) -> None:
    t0 = time.time()
    for i, f in enumerate(faults):
        wait = t0 + f.at - time.time()
        if wait > 0:
            time.sleep(wait)
        party.do(f)
        if f.length and f.kind not in ("kill",):
            time.sleep(f.length)
            party.undo(f)
        else:
            f.healed = time.time() + (f.length if f.kind == "kill" else 0.0)
        f.until = t0 + (faults[i + 1].at if i + 1 < len(faults) else seconds)
        print(f"  fault {f.n}: {f.kind} {f.target}"
              + (f" for {f.length:.1f} s" if f.length else "")
              + f" at {f.started - t0:.1f} s", flush=True)
    rest = t0 + seconds - time.time()
    if rest > 0:
        time.sleep(rest)


def measure_faults(party: Party, faults: list[Fault]) -> None:
    """Each fault's drops, copies, steadiness and players' pauses (its window: from its
    start to the next fault's)."""
    views = view_times(party.histories())
    for f in faults:
        f.drops = len(lines_between(party, "dropped", f.started, f.until))
        f.copies = len(lines_between(party, "copy", f.started, f.until))
        quiet = f.until - STEADY
        busy = [t for kind in ("dropped", "copy", "attached")
                for t in lines_between(party, kind, max(quiet, f.started), f.until)]
        f.steady = not busy and quiet > f.healed
        for times in views.values():
            gap = pause(times, f.started, f.until)
            if gap is not None:
                f.pauses.append(gap)


def run_chain(party: Party, count: int, rng: random.Random, patience: float
              ) -> list[dict[str, Any]]:
    """``count`` failures of the serving host in a row (module docstring, 3), each given
    ``patience`` seconds for a standby to attach again."""
    out = []
    for n in range(count):
        host = party.serving()
        if host is None:
            wait_for(lambda: party.serving() is not None, 30)
            host = party.serving()
        if host is None:
            out.append({"n": n + 1, "kind": "none", "target": "-", "delay": None,
                        "why": "no host served"})
            continue
        kind = rng.choice(["kill", "stall", "handover"])
        t = time.time()
        if kind == "kill":
            party.kill(host, rng.uniform(0.5, 3.0))
        elif kind == "stall":
            host.signal(signal.SIGSTOP)
            time.sleep(rng.uniform(1.5, 4.0))          # past the bound (1 s)
            host.signal(signal.SIGCONT)
        else:
            host.signal(signal.SIGTERM)
        two = wait_for(lambda: sum(p.up() for p in party.peers.values()) >= 2, 30)
        attached = wait_for(lambda t=t: bool(lines_between(party, "attached", t,
                                                           float("inf"))), patience)
        at = lines_between(party, "attached", t, float("inf"))
        delay = None if not (attached and two) else max(0.0, at[0] - max(two, t))
        # A stall the party rode out (no takeover, no drop: its players did not follow in
        # time) leaves the standby attached all along: no new "attached" line is said.
        stayed = delay is None and bool(two) and not any(
            lines_between(party, k, t, float("inf"))
            for k in ("dropped", "taking_over", "handed", "yielded"))
        if stayed:
            delay = 0.0
        out.append({"n": n + 1, "kind": kind, "target": host.name, "delay": delay})
        print(f"  chain {n + 1}: {kind} of the serving host {host.name}: "
              + ("the standby stayed attached (no takeover, no drop)" if stayed else
                 "a standby attached " + (f"not within {patience:.0f} s" if delay is None else
                                          f"{delay:.2f} s after two peers were up")),
              flush=True)
        if n + 1 < count:
            time.sleep(3.0)
    return out


def wait_for(cond: Any, timeout: float) -> float:
    """The wall time ``cond()`` first held (0.0: never within ``timeout``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return time.time()
        time.sleep(0.02)
    return 0.0


def run_guest(party: Party, seconds: float) -> dict[str, Any]:
    """A guest follows the standby with fresh keys while the host-standby link is cut and
    healed every 20 s (module docstring, 3); the takeovers counted."""
    host = party.serving() or party.peers["a"]
    t0 = time.time()
    env = {**os.environ, "CARDPARTY_HOME": str(party.base / "home-guest")}
    guest = subprocess.Popen(party.lan.exec("guest", [PY, __file__, "--as-guest", host.address,
                                                      "--seconds", str(seconds)]),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=env)
    with party.lock:
        party.procs.add(guest)
    cuts = 0
    end = t0 + seconds
    while time.time() < end:
        host = party.serving() or host
        standby = party.standby_of(host)
        if standby is not None:
            party.lan.cut(host.name, standby.name)
            cuts += 1
            time.sleep(min(10.0, max(0.0, end - time.time())))
            party.lan.cut(host.name, standby.name, False)
        time.sleep(min(10.0, max(0.0, end - time.time())))
    try:
        out, _ = guest.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        guest.kill()
        out, _ = guest.communicate()
    hellos = 0
    for line in out.splitlines():
        try:
            hellos = int(json.loads(line).get("hellos", 0))
        except (json.JSONDecodeError, AttributeError, ValueError):
            continue
    took = lines_between(party, "taking_over", t0, time.time())
    return {"seconds": time.time() - t0, "cuts": cuts, "hellos": hellos,
            "takeovers": len(took), "said": out.strip().splitlines()[-3:]}


def as_guest(address: str, seconds: float) -> int:
    """The guest's process (``--as-guest``): a player with fresh keys who learns the epoch
    and the standby's address from his own welcome, then says ``hello`` following that
    standby every 10 ms, each from a fresh key pair."""
    import zmq

    from cardparty.net.player.session import Session, SessionError
    from cardparty.net.wire.protocol import encode, message

    session = Session(address, "Guest", request_timeout=5)
    try:
        session.connect(15)
    except SessionError as exc:
        print(json.dumps({"hellos": 0, "error": str(exc)}), flush=True)
        return 1
    ctx = zmq.Context.instance()
    socks: list[zmq.Socket[Any]] = []
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        succ = session.successor
        if succ is not None:
            public, secret = zmq.curve_keypair()
            sock = ctx.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.curve_publickey, sock.curve_secretkey = public, secret
            sock.curve_serverkey = succ.key
            sock.connect(succ.endpoint)
            try:
                sock.send(encode(message("hello", name=f"Guest{sent % 1000}", client="guest",
                                         follow={"epoch": succ.epoch})), zmq.NOBLOCK)
                sent += 1
            except zmq.Again:
                pass
            socks.append(sock)
            while len(socks) > 50:
                socks.pop(0).close(0)
        time.sleep(0.01)
    for s in socks:
        s.close(0)
    session.abort()
    print(json.dumps({"hellos": sent}), flush=True)
    return 0


def takeovers(party: Party) -> list[dict[str, Any]]:
    """Every takeover the peers said, with whether its old host's process lived then."""
    out = []
    for peer in party.peers.values():
        for t, m in peer.said("taking_over"):
            old = next((p for p in party.peers.values() if p.address == m["old"]), None)
            out.append({"t": t, "why": m["why"], "peer": peer.name, "epoch": int(m["epoch"]),
                        "old": m["old"], "alive": old is not None and lived(old, t)})
    return sorted(out, key=lambda x: x["t"])


def lived(peer: Peer, t: float) -> bool:
    """Whether ``peer``'s process lived at ``t`` (from the bench's notes in its log)."""
    state = False
    for when, m in peer.said("bench"):
        if when > t:
            break
        what = m["what"]
        if what.startswith("start"):
            state = True
        elif what.startswith("exited") or what == "signal SIGKILL":
            state = False
    return state


def verdict_lines(v: Verdict, games: int) -> list[str]:
    audit = "holds" if v.audit else "FAILS" if v.audit is False else "not read"
    return [
        f"tables played: {v.tables} ({games} games ended by the end), finished {v.finished}; "
        f"checked on the final host {v.checked_final}, on the host serving as they ended "
        f"{v.checked_earlier} (the final host had dropped them), unchecked {v.unchecked}",
        f"views checked {v.views}, moves answered {v.acked}: lost {v.lost}, doubled "
        f"{v.doubled}; two continuations told of one table: {v.continuations}",
        f"ledger audit on the final host: {audit}; finished tables paid once: "
        f"{v.paid_once}/{v.paid_of}",
        f"takeovers {v.takeovers} ({v.handed} handed over); while every seated player still "
        f"reached the host: {v.while_served}",
    ]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--minutes", type=float, default=20.0,
                   help="minutes of faults (and of the guest with --guest)")
    p.add_argument("--faults", type=int, default=100, help="faults over --minutes (0: none)")
    p.add_argument("--kinds", default=",".join(KINDS),
                   help=f"the kinds of fault, comma separated (of {', '.join(KINDS)})")
    p.add_argument("--chain", type=int, default=0, metavar="N",
                   help="N failures of the serving host in a row, after the faults")
    p.add_argument("--guest", action="store_true",
                   help="a guest following the standby with fresh keys, after the rest")
    p.add_argument("--pace", type=float, default=0.15,
                   help="seconds a player thinks before each move")
    p.add_argument("--game-timeout", type=float, default=300.0,
                   help="seconds a game may take before its players give up")
    p.add_argument("--finish", type=float, default=120.0,
                   help="seconds the games still going at the end have to finish")
    p.add_argument("--smoke", action="store_true",
                   help="the suite's short run: 4 faults in 16 s, a guest 6 s, a chain of 1")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    p.add_argument("--as-guest", default=None, help=argparse.SUPPRESS)
    p.add_argument("--seconds", type=float, default=0.0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.as_guest:
        return as_guest(args.as_guest, args.seconds)
    kinds = [k for k in args.kinds.split(",") if k]
    if set(kinds) - set(KINDS) or not kinds:
        p.error(f"--kinds: of {', '.join(KINDS)}")
    if args.smoke:
        args.minutes, args.faults, args.chain, args.guest = 16 / 60, 4, 1, True
        args.finish, args.game_timeout, args.pace = 8.0, 60.0, 0.1
    why = can_make()
    if why is not None:
        print(f"fault bench: cannot run here: {why}", flush=True)
        return CANNOT
    return run(args, kinds)


def run(args: argparse.Namespace, kinds: list[str]) -> int:
    base = Path(tempfile.mkdtemp(prefix="cardparty-faults-"))
    os.environ["CARDPARTY_HOME"] = str(base / "home")
    party = Party(base, args)
    rng = random.Random(args.seed)

    def interrupted(sig: int, _: Any) -> None:
        raise SystemExit(128 + sig)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupted)
    print(f"load average before: {load_average()} on {os.cpu_count()} cores; seed {args.seed}",
          flush=True)
    seconds = args.minutes * 60
    faults = schedule(rng, args.faults, seconds, kinds) if args.faults else []
    chain: list[dict[str, Any]] = []
    guest: dict[str, Any] | None = None
    try:
        try:
            party.up()
        except LanError as exc:
            print(f"fault bench: cannot run here: {exc}", flush=True)
            return CANNOT
        many = takes_many_standby_keys()
        approves = ("every other peer" if many else
                    "one standby, b (cardparty host takes one --standby-key)")
        peers = ", ".join(f"{p.name} {p.address}" for p in party.peers.values())
        print(f"party: peers {peers}; the host approves {approves}; {len(PLAYERS)} players "
              f"in {len(GAMES)} games at a time ({', '.join(g[0] for g in GAMES)})", flush=True)
        print(f"LAN: {len(party.lan.made)} namespaces (named fb*{party.lan.tag}), removed at "
              "the end", flush=True)
        t_start = time.time()
        if faults:
            print(f"faults: {len(faults)} over {seconds:.0f} s ({', '.join(kinds)})", flush=True)
            run_faults(party, faults, seconds)
            party.settle()
        if args.guest:
            g_seconds = 6.0 if args.smoke else seconds
            print(f"guest: {g_seconds:.0f} s following the standby, the link cut and healed "
                  "every 20 s", flush=True)
            guest = run_guest(party, g_seconds)
            party.settle()
        if args.chain:
            print(f"chain: {args.chain} failures of the serving host", flush=True)
            chain = run_chain(party, args.chain, rng, 6.0 if args.smoke else 20.0)
            party.settle()
        party.no_new_games.set()
        end = time.monotonic() + args.finish
        while time.monotonic() < end and any(t.is_alive() for t in party.loops):
            time.sleep(0.2)
        time.sleep(1.0)
        took = time.time() - t_start
        final = party.serving()
        if faults:
            measure_faults(party, faults)
        v = check(party.histories(), None if final is None else final.data, party.readings,
                  takeovers(party))
        load = load_average()
        report(party, faults, chain, guest, v, final, took, load)
    finally:
        party.close()
        if args.keep:
            print(f"kept: {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    return 0


def report(party: Party, faults: list[Fault], chain: list[dict[str, Any]],
           guest: dict[str, Any] | None, v: Verdict, final: Peer | None, took: float,
           load: str) -> None:
    print(f"run: {took:.0f} s; the host serving at the end: "
          f"{final.name if final else 'none'}; peers started "
          f"{', '.join(f'{p.name} {p.starts}x' for p in party.peers.values())}")
    for f in faults:
        gaps = f.pauses
        print(f"  fault {f.n:3} {f.kind:9} {f.target:18} drops {f.drops:3} copies "
              f"{f.copies:3} {'steady' if f.steady else 'NOT steady'}; pause max "
              f"{max(gaps, default=0):.2f} s ({len(gaps)} players)")
    for line in verdict_lines(v, len(party.games)):
        print(line)
    for e in v.examples:
        print(f"  e.g. {e}")
    print(f"load average after: {load}")
    print("targets:")
    if faults:
        pauses = [g for f in faults for g in f.pauses]
        good = [f for f in faults if f.drops <= 1 and f.copies <= 1 and f.steady]
        p50, p99 = percentile(pauses, 50), percentile(pauses, 99)
        drops = sum(f.drops for f in faults)
        copies = sum(f.copies for f in faults)
        print(f"  every game finishes: {v.finished}/{v.tables} -> "
              f"{verdict(v.finished == v.tables and v.tables > 0)}")
        print(f"  moves lost 0, doubled 0, one continuation per table: lost {v.lost}, doubled "
              f"{v.doubled}, continuations {v.continuations}, unchecked tables {v.unchecked} "
              f"-> {verdict(not (v.lost or v.doubled or v.continuations or v.unchecked))}")
        print(f"  the audit holds and every round is paid once: audit "
              f"{'holds' if v.audit else 'fails'}, paid once {v.paid_once}/{v.paid_of} -> "
              f"{verdict(bool(v.audit) and v.paid_once == v.paid_of)}")
        print(f"  0 takeovers while the host still served its players: {v.while_served} -> "
              f"{verdict(v.while_served == 0)}")
        print(f"  at most one drop and one copy per fault, then steady: {len(good)}/"
              f"{len(faults)} faults (drops {drops}, copies {copies} in all) -> "
              f"{verdict(len(good) == len(faults))}")
        print(f"  a player's pause p99 <= 3 s: p50 {p50:.2f} s, p99 {p99:.2f} s, max "
              f"{max(pauses, default=0):.2f} s ({len(pauses)} pauses) -> "
              f"{verdict(bool(pauses) and p99 <= 3.0)}")
        # The same pauses by kind of fault (a stall longer than a client's liveness, 3 s,
        # is a failover: its pause is at least that long, whatever the party does).
        for kind in KINDS:
            mine = [g for f in faults if f.kind == kind for g in f.pauses]
            if mine:
                print(f"    {kind:9} p50 {percentile(mine, 50):5.2f} s, p99 "
                      f"{percentile(mine, 99):5.2f} s, max {max(mine):5.2f} s "
                      f"({len(mine)} pauses)")
        short = [g for f in faults if not (f.kind == "stall" and f.length > 3.0)
                 for g in f.pauses]
        if short:
            print(f"    all but stalls over 3 s: p50 {percentile(short, 50):.2f} s, p99 "
                  f"{percentile(short, 99):.2f} s ({len(short)} pauses)")
        # A player's own link cut or lossy pauses his table whatever the peers do; the
        # peers' own faults are what succession must hide.
        own = [g for f in faults if players_link(f) for g in f.pauses]
        peers = [g for f in faults if not players_link(f) for g in f.pauses]
        for what, mine in (("a player's own link (loss, partition)", own),
                           ("the peers' alone", peers)):
            if mine:
                print(f"    faults of {what}: p50 {percentile(mine, 50):.2f} s, p99 "
                      f"{percentile(mine, 99):.2f} s ({len(mine)} pauses)")
    if chain:
        within = [c for c in chain if c["delay"] is not None and c["delay"] <= ATTACH_WITHIN]
        delays = [c["delay"] for c in chain if c["delay"] is not None]
        print(f"  a chain of {len(chain)} failures of the serving host: a standby attached "
              f"within 5 s of two peers up after {len(within)}/{len(chain)} (longest "
              f"{max(delays, default=float('nan')):.2f} s) -> "
              f"{verdict(len(within) == len(chain))}")
    if guest is not None:
        judged = (verdict(guest["takeovers"] == 0) if guest["hellos"] and guest["cuts"] else
                  "NOT JUDGED (no standby was attached for the guest to follow)")
        print(f"  a guest with fresh keys following the standby for {guest['seconds']:.0f} s "
              f"({guest['hellos']} hellos, the link cut {guest['cuts']} times): takeovers "
              f"{guest['takeovers']} -> {judged}")
        for line in guest["said"]:
            print(f"    the guest said: {line[:200]}")


if __name__ == "__main__":
    sys.exit(main())
