"""Benchmark of the host node over real sockets on 127.0.0.1.

What it measures, in one run:

1. The floor: a raw pyzmq DEALER/ROUTER echo round trip (a ROUTER in its own process sending
   every frame straight back), p50 and p99: back to back, and paced with the same gaps as the
   paced phase below. On a virtual machine a process that slept 50 ms takes far longer to
   wake than one that is busy, so the paced echo is the floor that a paced table really has;
   both ratios are printed.
   And the machine's own CPU stalls: the same short pure-Python work timed again and again.
   On a virtual machine whose CPU is taken away in bursts, that work's p99 / p50 is the
   spread that every latency measured here carries in its tail.
2. N network bot clients (default 16 tables x 4 players = 64 clients, all DEALER sockets in this
   process, one poller) playing Pika through a host in its own process (``cardparty host``):
   - **flat out**: every client moves as soon as its view lets it: the host's moves/s, and the
     latency from sending a move to the moment the LAST seat of that table holds a view of the
     new version (p50, p99);
   - **one table**: one table flat out while the other clients stay connected and idle (they
     ping, as real clients do): the same latency when no process sleeps and the host is
     not saturated, with all the connections open;
   - **paced**: each table moves at most every ``--pace-ms`` ms (a busy LAN party), the same
     latency: what a player feels while the host is not saturated.
   When a table's game ends, its first client opens a new one, so the load stays steady. Each
   phase starts after half a second at its pace, so the moves queued by the previous phase
   are not counted in it.
3. The host's memory per open table: the host's RSS before and after ``--memory-tables``
   tables, each with a game under way (one network player, three host bots).
4. The host's cost per move, flat out, in the same run: this host without and with ``--data``
   (a save in SQLite after every move), this host without encryption (``--no-curve``, a flag
   for this measurement only: every client of a real host speaks CURVE, as the bench's clients
   do in every other phase), and, with ``--baseline DIR`` (a checkout of an older
   commit, e.g. ``git worktree add /work/wt/hostbase 1b85ff8``), the host of that tree alike,
   imported from DIR in its own process: moves/s and the host's CPU per move of each (the
   host's process, its ZeroMQ I/O thread included), each host started afresh for its phase.
   And the floor of a move's messages: a bare ROUTER in its own process that only receives
   each move and sends its ``ok`` and the table's views (``floor_server``), at the rate this
   host reached without encryption: what protocol v1's messages cost before any work of
   the host's own. And the game's own work (``game_work_cost``, in this process): the rules'
   moves, every seat's view packed and the events told, which any host of these games owes
   every move whatever its own design. And the least host (``least_server``, its own process,
   under the same load): protocol v1's requests read and checked as this host reads them,
   the game played and every seat's view and events sent, nothing else (no identity, no
   allowances, no timers, no lobby, no economy): what any Python host of these games costs a
   move at the least, set against half the baseline. A baseline whose host speaks CURVE (a
   checkout of main: ``git archive main | tar -x -C /tmp/main``) runs with CURVE, as this
   host does, and the two are compared like for like.
5. The wake's cost: a host started afresh with 16, 100 and 1,000 tables in play and nobody
   moving (``--idle-tables``; each a player who does not move and a host bot), its CPU per
   second of wall time while it only waits: what its loop's wake costs when nothing is due,
   for this host and the baseline's. ``--only compare`` or ``--only wake`` runs part 4 or
   part 5 alone.
6. A standby's cost: this host with ``--data`` without and with a standby attached (its own
   process: nothing is told before it acknowledged what tells of it), each started afresh,
   in turn: moves/s flat out and the CPU a move of the host and of the standby (what the
   throughput lost comes to on a machine they saturate, whatever else it runs), and a
   move's latency to every seat's view with one table moving alone. ``--only standby`` runs
   it alone; ``--no-standby`` skips it.

With ``--hard-tables N`` it measures instead N tables of hard bots playing flat out and
another player's ping, in a process of its own: p50 and p99, with the bots off the host's loop
and on it, and the target's verdict (bench/hard_bots.py says how).

Then the ratios to the echo floor and the targets (p50 at most 4x the echo round trip;
p99 under 10 ms; under 1 MB per table; host CPU per move flat out at most half the
baseline's; persistence costing at most 25% of the flat-out throughput; the wake's cost flat
from 16 to 1,000 idle tables; a standby costing a move at most 1 ms at p50 and at most 30%
of the flat-out throughput).
Usage: ``.venv/bin/python bench/host.py [--help]``.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import zmq

from cardparty.core.i18n import Msg
from cardparty.core.narrate import describe
from cardparty.net.trust.keydesk import fetch_key
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import HOST_LIMITS, PROTOCOL, decode, encode, message, pack

PY = sys.executable


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- the echo floor ----------------------------------------------------------------------------

def echo_server() -> None:
    """A ROUTER that sends every message straight back (run in its own process)."""
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.ROUTER)
    sock.bind("tcp://127.0.0.1:*")
    print(sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    while True:
        sock.send_multipart(sock.recv_multipart())


def start(cmd: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"tcp://127\.0\.0\.1:\d+", line)
    if not found:
        proc.kill()
        raise SystemExit(f"could not start {cmd}: {line!r}")
    return proc, found.group(0)


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


# --- the floor of a move's messages ------------------------------------------------------------

#: Bytes of the view frame the floor server sends (a Pika view with one event, as this host
#: packs it, is 600-900 bytes).
FLOOR_VIEW = 700


#: pyzmq's socket calls without its Python layer, as the host makes them, and their flags
_send = zmq.Socket.__mro__[1].send
_recv = zmq.Socket.__mro__[1].recv
_get = zmq.Socket.__mro__[1].get
_MORE, _LAST = int(zmq.SNDMORE | zmq.NOBLOCK), int(zmq.NOBLOCK)


def bound_router() -> zmq.Socket:
    """A ROUTER on a free port of 127.0.0.1 whose address is printed for ``start``."""
    sock = zmq.Context.instance().socket(zmq.ROUTER)
    sock.bind("tcp://127.0.0.1:*")
    print(sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    return sock


def floor_server(view_bytes: int) -> None:
    """(Its own process.) A ROUTER doing only what a move costs in messages, with no game and
    no checks: a client's first message names its group (its table); every later one (a
    move) is answered to its sender (``ok``) and a view of ``view_bytes`` goes to each of the
    group's ``players`` clients. It reads and sends as the host does (poll, then read while
    the socket has messages; pyzmq's send without its Python layer)."""
    sock = bound_router()
    ok = encode(message("ok", about="move", version=1, rid=1))
    view = b"\x00" * view_bytes
    groups: dict[bytes, list[bytes]] = {}
    group_of: dict[bytes, bytes] = {}
    poller = zmq.Poller()
    poller.register(sock, zmq.POLLIN)
    while True:
        poller.poll(100)
        while _get(sock, zmq.EVENTS) & zmq.POLLIN:
            route = _recv(sock, _LAST)
            body = _recv(sock, _LAST)
            group = group_of.get(route)
            if group is None:
                group_of[route] = body
                groups.setdefault(body, []).append(route)
                _send(sock, route, _MORE)
                _send(sock, ok, _LAST)
                continue
            _send(sock, route, _MORE)
            _send(sock, ok, _LAST)
            for member in groups[group]:
                _send(sock, member, _MORE)
                _send(sock, view, _LAST)


def floor_cost(args: argparse.Namespace, seconds: float, rate: float = 0.0
               ) -> tuple[float, float, int]:
    """The floor server under ``args.tables`` groups of ``args.players`` clients moving flat
    out (the next client of a group moves when its view arrives), or at most ``rate`` moves
    a second in all: (moves/s, the server's CPU seconds per move, moves).

    A ROUTER's cost per message falls as the rate rises (ZeroMQ's I/O thread and the poll
    handle more messages per wake-up), so the floor of a host is taken at that host's own
    rate: ``rate``."""
    server, address = start([PY, __file__, "--floor-server"])
    ctx = zmq.Context.instance()
    socks: list[list[zmq.Socket]] = []
    poller = zmq.Poller()
    where: dict[zmq.Socket, tuple[int, int]] = {}
    try:
        for g in range(args.tables):
            group = []
            for i in range(args.players):
                sock = ctx.socket(zmq.DEALER)
                sock.setsockopt(zmq.LINGER, 0)
                sock.connect(address)
                sock.send(f"g{g}".encode())
                sock.recv()
                poller.register(sock, zmq.POLLIN)
                where[sock] = (g, i)
                group.append(sock)
            socks.append(group)
        move = encode(message("move", rid=123456789, table="t1", move=3, version=42))

        def play(length: float) -> tuple[int, float]:
            """Each group's clients move in turn, each when the view of the group's last
            move reaches him: one move in flight per group, as at the host's tables."""
            turn = [0] * args.tables
            sent = [1] * args.tables
            seen = dict.fromkeys(where, 0)
            gap = args.tables / rate if rate > 0 else 0.0     # between a group's moves
            due: list[tuple[float, zmq.Socket]] = []          # paced moves, in order
            for group in socks:
                group[0].send(move)
            moves = 0
            t0 = time.perf_counter()
            slot = [t0] * args.tables
            end = t0 + length
            while (now := time.perf_counter()) < end:
                while due and due[0][0] <= now:
                    due.pop(0)[1].send(move)
                for sock, _ in poller.poll(1 if due else 50):
                    while True:
                        try:
                            frame = sock.recv(zmq.NOBLOCK)
                        except zmq.Again:
                            break
                        if len(frame) != FLOOR_VIEW:
                            continue                 # the mover's ok
                        g, i = where[sock]
                        seen[sock] += 1
                        if seen[sock] == sent[g] and i == (turn[g] + 1) % args.players:
                            turn[g] = i
                            sent[g] += 1
                            moves += 1
                            slot[g] += gap
                            if gap and slot[g] > time.perf_counter():
                                due.append((slot[g], sock))
                                due.sort(key=lambda d: d[0])
                            else:
                                slot[g] = max(slot[g], time.perf_counter())
                                sock.send(move)
            took = time.perf_counter() - t0
            time.sleep(0.2)                  # the last moves' frames arrive
            for sock in where:
                while True:
                    try:
                        sock.recv(zmq.NOBLOCK)
                    except zmq.Again:
                        break
            return moves, took

        play(1.0)                                            # warm up
        cpu0 = cpu_seconds(server.pid)
        moves, took = play(seconds)
        cpu = cpu_seconds(server.pid) - cpu0
    finally:
        for sock in where:
            sock.close()
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    return moves / took, cpu / max(1, moves), moves


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


# --- network bot clients -------------------------------------------------------------------------

@dataclass(eq=False)
class Client:
    sock: zmq.Socket
    group: int
    index: int
    table: str | None = None
    seat: int | None = None
    latest: dict[str, Any] | None = None
    moved_on: int | None = None
    inflight: bool = False
    rid: int = 0
    waiting: dict[int, str] = field(default_factory=dict)   # rid -> what
    last_sent: float = 0.0

    def send(self, kind: str, **fields: Any) -> int:
        self.rid += 1
        self.waiting[self.rid] = kind
        self.last_sent = time.perf_counter()
        self.sock.send(encode(message(kind, rid=self.rid, **fields)))
        return self.rid


@dataclass(eq=False)
class Group:
    clients: list[Client]
    table: str | None = None
    next_slot: float = 0.0
    games: int = 0
    #: target version -> (time the move was sent, seats still without that version)
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)


class Load:
    """N groups of P clients on one poller, each group at one table of ``game``."""

    def __init__(self, address: str, tables: int, players: int, game: str,
                 settings: dict[str, Any], seed: int, curve: bool = True) -> None:
        self.ctx = zmq.Context.instance()
        # Every client speaks CURVE as a real one does, with a key pair of its own (the host's
        # limits are per key: one key for all would be one guest sending for 64), with the
        # host's key from its desk.
        host_key = fetch_key(address)[0] if curve else None
        self.game = game
        self.players = players
        self.settings = settings
        self.rng = random.Random(seed)
        self.poller = zmq.Poller()
        self.by_sock: dict[zmq.Socket, Client] = {}
        self.groups: list[Group] = []
        for g in range(tables):
            clients = []
            for i in range(players):
                sock = self.ctx.socket(zmq.DEALER)
                sock.setsockopt(zmq.LINGER, 0)
                if host_key is not None:
                    mine = KeyPair.generate()
                    sock.curve_secretkey = mine.secret
                    sock.curve_publickey = mine.public
                    sock.curve_serverkey = host_key
                sock.connect(address)
                c = Client(sock, g, i)
                clients.append(c)
                self.by_sock[sock] = c
                self.poller.register(sock, zmq.POLLIN)
            self.groups.append(Group(clients))
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.pace = 0.0
        self.heartbeat = 2.0                 # the host's, from its welcome

    def connect(self) -> None:
        for c in self.by_sock:
            self.by_sock[c].send("hello", name=f"bench-{self.by_sock[c].group}-"
                                               f"{self.by_sock[c].index}")
        welcomed = 0
        while welcomed < len(self.by_sock):
            for sock, _ in self.poller.poll(5000):
                msg = decode(sock.recv(), HOST_LIMITS)
                if msg["type"] == "welcome":
                    welcomed += 1
                    self.heartbeat = float(msg.get("heartbeat", self.heartbeat))
        for group in self.groups:
            self.open_table(group)

    def open_table(self, group: Group) -> None:
        group.table = None
        group.pending.clear()
        for c in group.clients:
            c.table = None
            c.latest = None
            c.moved_on = None
            c.inflight = False
        group.clients[0].send("create", game=self.game, players=self.players,
                              settings=self.settings, idle=None)

    def run(self, seconds: float, pace_ms: float, measure: bool = True,
            active: int | None = None) -> float:
        """Play for ``seconds``: every table, or only the first ``active`` ones while the
        other clients stay connected and idle. Like a real client (net/player/session.py), a client
        that has sent nothing for a heartbeat sends ``ping``."""
        self.pace = pace_ms / 1000
        moving = self.groups[:active]
        next_ping = 0.0
        self.latencies = []
        self.moves = 0
        self.measuring = measure
        t_start = time.perf_counter()
        end = t_start + seconds
        while (now := time.perf_counter()) < end:
            for sock, _ in self.poller.poll(1 if self.pace else 50):
                c = self.by_sock[sock]
                while True:
                    try:
                        frame = sock.recv(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self.incoming(c, decode(frame, HOST_LIMITS))
            now = time.perf_counter()
            if now >= next_ping:
                next_ping = now + 0.1
                for c in self.by_sock.values():
                    if now - c.last_sent >= self.heartbeat:
                        c.send("ping")
            for group in moving:
                if group.table is None or (self.pace and now < group.next_slot):
                    continue
                for c in group.clients:
                    if self.maybe_move(group, c, now):
                        break
        return time.perf_counter() - t_start

    def maybe_move(self, group: Group, c: Client, now: float) -> bool:
        view = c.latest
        if (c.inflight or view is None or not view["view"]["moves"]
                or view["version"] == c.moved_on or view["view"]["result"]):
            return False
        moves = view["view"]["moves"]
        c.moved_on = view["version"]
        c.inflight = True
        # Tables move independently: a random gap around the pace, so they do not fall into
        # step and queue at the host all at once.
        group.next_slot = now + self.pace * self.rng.uniform(0.5, 1.5)
        target = view["version"] + 1
        if target not in group.pending:
            group.pending[target] = (time.perf_counter(), set(range(self.players)))
        c.send("move", table=c.table, move=moves[self.rng.randrange(len(moves))]["id"],
               version=view["version"])
        return True

    def incoming(self, c: Client, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        group = self.groups[c.group]
        if kind == "view":
            if msg["table"] != c.table:
                return                       # the end of this group's previous game
            if c.latest is None or msg["version"] >= c.latest["version"]:
                c.latest = msg
            now = time.perf_counter()
            for target in [t for t in group.pending if t <= msg["version"]]:
                t0, left = group.pending[target]
                left.discard(c.seat if c.seat is not None else c.index)
                if not left:
                    del group.pending[target]
                    if self.measuring:
                        self.latencies.append(now - t0)
            if msg["view"]["result"] and c is group.clients[0] and group.table == msg["table"]:
                group.games += 1
                self.open_table(group)
            return
        rid = msg.get("rid")
        what = c.waiting.pop(rid, None) if rid is not None else None
        if kind == "error":
            self.errors[msg["code"]] = self.errors.get(msg["code"], 0) + 1
            if what == "move":
                c.inflight = False
                group.pending.pop((c.moved_on or 0) + 1, None)
            return
        if what == "create":
            tid = msg["table"]["id"]
            group.table = tid
            for member in group.clients:
                member.table = tid
                member.send("sit", table=tid, seat=member.index)
        elif what == "sit":
            c.seat = msg["seat"]
            c.send("ready", table=c.table)
        elif what == "move":
            c.inflight = False
            if self.measuring:
                self.moves += 1

    def close(self) -> None:
        for sock in self.by_sock:
            sock.close()


# --- memory per table ----------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    import os

    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def memory_per_table(address: str, pid: int, tables: int, game: str) -> tuple[float, int]:
    """KB of host RSS per table with a game under way (one network player, the rest bots)."""
    from cardparty.net.player.session import Session

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


# --- the cost per move of one host, and of another tree's host ---------------------------------

#: Runs ``cardparty host`` from the tree in argv[1] (a checkout with core/, net/, plugins/,
#: client/), whatever cardparty is installed here: a finder placed first maps every
#: ``cardparty.*`` module onto that tree's folders.
TREE_HOST = """
import importlib.machinery, sys, types
tree = sys.argv.pop(1)
class TreeFinder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if not name.startswith("cardparty."):
            return None
        parts = name.split(".")[1:]
        return importlib.machinery.PathFinder.find_spec(
            name, ["/".join([tree, *parts[:-1]])])
pkg = types.ModuleType("cardparty")
pkg.__path__ = [tree]
sys.modules["cardparty"] = pkg
sys.meta_path.insert(0, TreeFinder)
from cardparty.client.cli import main
sys.exit(main(sys.argv[1:]))
"""


def speaks_curve(tree: str) -> bool:
    """Whether the host of ``tree`` speaks CURVE (and has the flag to turn it off): an older
    tree's has neither."""
    import os

    return os.path.exists(os.path.join(tree, "net", "guard.py"))


def host_command(data_dir: str | None, tree: str | None = None, curve: bool = True
                 ) -> list[str]:
    """``cardparty host`` as the bench runs it: of this installation, or of ``tree``."""
    args = ["host", "--bind", "127.0.0.1", "--port", "0", "--idle", "0", "--heartbeat", "2",
            "--name", "bench", "--log-level", "warning"]
    if not curve and (tree is None or speaks_curve(tree)):
        args.append("--no-curve")       # an older tree's host has no CURVE, nor the flag
    if data_dir is not None:
        args += ["--data", data_dir]
    if tree is not None:
        return [PY, "-c", TREE_HOST, tree, *args]
    return [PY, "-m", "cardparty.client.cli", *args]


def flat_out_cost(cmd: list[str], args: argparse.Namespace, seconds: float,
                  curve: bool = True) -> tuple[float, float, int]:
    """A fresh host from ``cmd`` under the flat-out load for ``seconds``: (moves/s, host CPU
    seconds per move, moves). ``curve``: the clients speak CURVE (the host must too)."""
    host, address = start(cmd)
    try:
        load = Load(address, args.tables, args.players, args.game, {}, args.seed, curve)
        load.connect()
        load.run(1.0, 0, measure=False)                     # warm up
        cpu0 = cpu_seconds(host.pid)
        took = load.run(seconds, 0)
        cpu = cpu_seconds(host.pid) - cpu0
        load.close()
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(10)
    return load.moves / took, cpu / max(1, load.moves), load.moves


def told_event(event: dict[str, Any], table: Any) -> bytes:
    """``event`` (as one seat sees it) told in words and packed, as the host's views tell it
    (``Views.told``: its text, and its message id for the client's own language)."""
    text = describe(event, table.names, table.hook)
    shown = {**event, "text": str(text)}
    if isinstance(text, Msg):
        shown["msg"] = text.to_wire()
    return pack(shown)


def least_server(game: str, players: int) -> None:
    """(Its own process.) The least a host of protocol v1 can be in Python: a ROUTER that
    reads each request as this host does (``decode``, ``check_request``), opens one table per
    ``create``, seats and starts it, and for each ``move`` checks the version and the move
    id, plays it (``Table.play``), and sends the ``ok`` and every seat its view with the new
    events told, each view packed and each event told once per way of seeing it. Nothing
    else: no identity, no allowance per key, no remembered replies, no timers, no referee,
    no lobby, no economy, no persistence. What this costs a move is what any Python host of
    these games and this protocol costs at the least."""
    from cardparty.core.table import Table, redact_event
    from cardparty.net.wire.protocol import array_of, check_request, map_frame, pairs_of

    sock = bound_router()
    tables: dict[str, tuple[Table, list[bytes | None], set[int]]] = {}
    seat_of: dict[bytes, tuple[str, int]] = {}
    ids = iter(range(1, 1 << 30))

    def reply(route: bytes, msg: dict[str, Any]) -> None:
        _send(sock, route, _MORE)
        _send(sock, encode(msg), _LAST)

    def tell(table: Table, tid: str, start: int) -> None:
        events = table.events
        told: dict[tuple[int, bool], bytes] = {}
        head = pairs_of({"type": "view", "v": PROTOCOL, "table": tid,
                         "version": table.version})
        routes = tables[tid][1]
        for seat, route in enumerate(routes):
            if route is None:
                continue
            out = []
            for i in range(start, len(events)):
                e = events[i]
                hidden = bool(e.get("private")) and e.get("seat") != seat
                packed = told.get((i, hidden))
                if packed is None:
                    packed = told[(i, hidden)] = told_event(
                        redact_event(e, seat) if hidden else e, table)
                out.append(packed)
            frame = map_frame(7, head, pack("seat"), pack(seat), pack("view"),
                              pack(table.view(seat)), pack("events"), array_of(out))
            _send(sock, route, _MORE)
            _send(sock, frame, _LAST)

    poller = zmq.Poller()
    poller.register(sock, zmq.POLLIN)
    while True:
        poller.poll(100)
        while _get(sock, zmq.EVENTS) & zmq.POLLIN:
            route = _recv(sock, _LAST)
            req = check_request(decode(_recv(sock, _LAST)))
            kind, rid = req["type"], req["rid"]
            if kind == "move":
                tid, seat = seat_of[route]
                table = tables[tid][0]
                if req["version"] != table.version:
                    reply(route, message("error", code="stale", message="stale", rid=rid))
                    continue
                start = len(table.events)
                table.play(seat, table.legal_moves(seat)[req["move"]])
                reply(route, message("ok", about="move", version=table.version, rid=rid))
                tell(table, tid, start)
            elif kind == "hello":
                reply(route, message("welcome", rid=rid, heartbeat=2.0))
            elif kind == "create":
                tid = f"t{next(ids)}"
                tables[tid] = (Table(game, players, seed=len(tables)),
                               [None] * players, set())
                reply(route, message("ok", about="create", rid=rid, table={"id": tid}))
            elif kind == "sit":
                tid, seat = req["table"], req["seat"]
                tables[tid][1][seat] = route
                seat_of[route] = (tid, seat)
                reply(route, message("ok", about="sit", rid=rid, seat=seat))
            elif kind == "ready":
                tid = req["table"]
                ready = tables[tid][2]
                ready.add(seat_of[route][1])
                reply(route, message("ok", about="ready", rid=rid))
                if len(ready) == players:
                    tables[tid][0].names = [f"p{i}" for i in range(players)]
                    tell(tables[tid][0], tid, 0)
            elif kind == "leave":
                tables.pop(req["table"], None)
                reply(route, message("ok", about="leave", rid=rid))
            else:                                     # ping, and anything else
                reply(route, message("pong", rid=rid))


def least_cost(args: argparse.Namespace, seconds: float) -> tuple[float, float, int]:
    """The least host (``least_server``) under the same flat-out load as the hosts, without
    encryption: (moves/s, its CPU seconds per move, moves)."""
    return flat_out_cost([PY, __file__, "--least-server", "--game", args.game,
                          "--players", str(args.players)], args, seconds, curve=False)


def game_work_cost(game: str, players: int, seconds: float, seed: int) -> tuple[float, int]:
    """(In this process.) What the game's own hooks cost a host per move, with nothing of the
    host's own: games of ``game`` played by random moves, as the bench's clients play, and per
    move exactly what protocol v1 asks of the game: the rules' move (``Table.play``: its
    check and its apply), every seat's view (``Table.view``: the game's ``view`` hook and its
    legal moves) packed, and each new event told in words (``describe``) and packed once for
    its owner and once for everybody else when it is private. The host shares all the rest
    between recipients already. Returns (this thread's CPU seconds per move, moves)."""
    from cardparty.core.table import Table, redact_event

    rng = random.Random(seed)
    table: Table | None = None
    moves = deals = 0
    clock = time.thread_time
    start = clock()
    while clock() - start < seconds:
        if table is None or table.result() is not None or not table.to_move():
            table = Table(game, players, seed=seed + deals)
            deals += 1
        seat = table.to_move()[0]
        legal = table.legal_moves(seat)
        seen = len(table.events)
        table.play(seat, legal[rng.randrange(len(legal))])
        moves += 1
        for s in range(players):
            pack(table.view(s))
        for event in table.events[seen:]:
            ways = [event, redact_event(event, None)] if event.get("private") else [event]
            for way in ways:
                told_event(way, table)
    return (clock() - start) / max(1, moves), moves


#: Part 4's run of this host without CURVE.
PLAIN = "this host, no encryption"
#: Part 4's run of the floor server (``floor_cost``).
FLOOR = "the floor of a move's messages"
#: Part 4's run of the game's own work (``game_work_cost``).
GAME = "the game's own work"
#: Part 4's run of the least host (``least_cost``).
LEAST = "the least host (protocol v1's requests, the game, nothing else)"


def compare_hosts(args: argparse.Namespace) -> None:
    """Part 4 of the docstring: this host without and with --data, and the baseline's, each
    ``--compare-rounds`` times in turn (the machine's load drifts: taking turns spreads it
    over all of them); the figures compared are each host's mean over its runs."""
    import shutil
    import tempfile

    runs: list[tuple[str, str | None, bool]] = [("this host", None, False),
                                                ("this host, --data", None, True),
                                                (PLAIN, None, False)]
    if args.baseline:
        label = f"baseline host ({args.baseline_label or args.baseline})"
        runs += [(label, args.baseline, False), (f"{label}, --data", args.baseline, True)]
    print(f"the host's cost per move, flat out ({args.tables * args.players} clients, "
          f"{args.tables} tables of {args.game}, {args.compare_seconds:g} s a run, "
          f"{args.compare_rounds} runs each in turn, each host started afresh):")
    got: dict[str, list[tuple[float, float, int]]] = {label: [] for label, _, _ in runs}
    got[FLOOR] = []
    got[LEAST] = []
    game_runs: list[tuple[float, int]] = []
    for _ in range(args.compare_rounds):
        for label, tree, data in runs:
            data_dir = tempfile.mkdtemp(prefix="cardparty-bench-") if data else None
            # CURVE on this tree's host, as every real client speaks it, and on a baseline's
            # that has it; not on an older baseline's, nor on PLAIN (the price of
            # encryption, measured).
            curve = label != PLAIN and (tree is None or speaks_curve(tree))
            try:
                got[label].append(flat_out_cost(host_command(data_dir, tree, curve), args,
                                                args.compare_seconds, curve))
            finally:
                if data_dir is not None:
                    shutil.rmtree(data_dir, ignore_errors=True)
        # The same messages alone, at the rate this host reached without encryption.
        got[FLOOR].append(floor_cost(args, args.compare_seconds, got[PLAIN][-1][0]))
        game_runs.append(game_work_cost(args.game, args.players, args.compare_seconds / 2,
                                        args.seed))
        got[LEAST].append(least_cost(args, args.compare_seconds))
    mean: dict[str, tuple[float, float]] = {}
    for label in [label for label, _, _ in runs] + [FLOOR, LEAST]:
        each = got[label]
        rate = sum(r for r, _, _ in each) / len(each)
        cpu = sum(c * m for _, c, m in each) / max(1, sum(m for _, _, m in each))
        mean[label] = (rate, cpu)
        print(f"  {label}: {sum(m for _, _, m in each)} moves, {rate:.0f} moves/s; host CPU "
              f"{cpu * 1e6:.0f} us per move  (runs: "
              + ", ".join(f"{r:.0f}/s {c * 1e6:.0f} us" for r, c, _ in each) + ")")
    gcpu = sum(c * m for c, m in game_runs) / max(1, sum(m for _, m in game_runs))
    print(f"  {GAME}: {sum(m for _, m in game_runs)} moves; CPU {gcpu * 1e6:.0f} us per move "
          "(in process, no socket: the rules' move, every seat's view packed, the events "
          "told; runs: " + ", ".join(f"{c * 1e6:.0f} us" for c, _ in game_runs) + ")")
    rate, cpu = mean["this host"]
    drate, dcpu = mean["this host, --data"]
    cost = 1 - drate / rate
    print("targets (cost per move):")
    print(f"  persistence costs <= 25% of the flat-out throughput: {cost * 100:.0f}% "
          f"({drate:.0f} vs {rate:.0f} moves/s; CPU per move x{dcpu / cpu:.2f}) -> "
          f"{'PASS' if cost <= 0.25 else 'FAIL'}")
    prate, pcpu = mean[PLAIN]
    crypto = 1 - rate / prate
    print(f"  encryption costs <= 30% of the flat-out throughput: {crypto * 100:.0f}% "
          f"({rate:.0f} moves/s with CURVE vs {prate:.0f} without; CPU per move "
          f"x{cpu / pcpu:.2f}) -> {'PASS' if crypto <= 0.30 else 'FAIL'}")
    _, fcpu = mean[FLOOR]
    print(f"  the floor of a move's messages: {fcpu * 1e6:.0f} us per move of a bare ROUTER "
          f"that only receives the move and sends the ok and {args.players} views "
          f"({FLOOR_VIEW} B), as this host does at the least, at the rate this host reached "
          f"without encryption; this host spends {(pcpu - fcpu) * 1e6:.0f} us a move above it: "
          f"the game's own work ({gcpu * 1e6:.0f} us) and the host's "
          f"({(pcpu - fcpu - gcpu) * 1e6:.0f} us)")
    if not args.baseline:
        print("  host CPU per move against a baseline: no --baseline given")
        return
    baseline_targets(args, mean, [label for label, _, _ in runs], gcpu)


def baseline_targets(args: argparse.Namespace, mean: dict[str, tuple[float, float]],
                     labels: list[str], gcpu: float) -> None:
    """Part 4's targets against the baseline's host (``labels[3:5]``: without and with
    ``--data``): like for like with this host, and against what any host owes a move."""
    rate, cpu = mean["this host"]
    drate, dcpu = mean["this host, --data"]
    _, pcpu = mean[PLAIN]
    _, fcpu = mean[FLOOR]
    brate, bcpu = mean[labels[3]]
    bdrate, bdcpu = mean[labels[4]]
    if speaks_curve(args.baseline):
        print(f"  host CPU per move flat out no higher than the baseline's: {cpu * 1e6:.0f} vs "
              f"{bcpu * 1e6:.0f} us = {cpu / bcpu:.2f}x, both with CURVE -> "
              f"{'PASS' if cpu <= bcpu else 'FAIL'}  (with --data: {dcpu * 1e6:.0f} vs "
              f"{bdcpu * 1e6:.0f} us = {dcpu / bdcpu:.2f}x -> "
              f"{'PASS' if dcpu <= bdcpu else 'FAIL'}; moves/s {rate / brate:.2f}x, with --data "
              f"{drate / bdrate:.2f}x)")
    else:
        # Like for like: the baseline's host speaks no CURVE, so it is set against this host
        # without encryption; with CURVE the price of encryption comes on top (above).
        print(f"  host CPU per move flat out <= half the baseline's: {pcpu * 1e6:.0f} vs "
              f"{bcpu * 1e6:.0f} us = {pcpu / bcpu:.2f}x, both without encryption -> "
              f"{'PASS' if pcpu <= bcpu / 2 else 'FAIL'}  (with CURVE {cpu / bcpu:.2f}x; "
              f"with --data: {dcpu * 1e6:.0f} vs "
              f"{bdcpu * 1e6:.0f} us = {dcpu / bdcpu:.2f}x; moves/s {rate / brate:.2f}x, "
              f"with --data {drate / bdrate:.2f}x; the baseline's persistence costs "
              f"{(1 - bdrate / brate) * 100:.0f}% of its throughput)")
        least = fcpu + gcpu
        print(f"  half the baseline ({bcpu / 2 * 1e6:.0f} us) against what any host of these "
              f"games owes a move, the floor of its messages and the game's own work "
              f"({fcpu * 1e6:.0f} + {gcpu * 1e6:.0f} = {least * 1e6:.0f} us): "
              + ("below it: not reachable with protocol v1's messages and these games' hooks, "
                 "whatever the host's own work" if bcpu / 2 < least else
                 f"{(bcpu / 2 - least) * 1e6:.0f} us a move left for the host's own work "
                 f"(this host's: {(pcpu - least) * 1e6:.0f} us)")
              + f"; at or below the baseline: {pcpu * 1e6:.0f} vs {bcpu * 1e6:.0f} us -> "
              f"{'PASS' if pcpu <= bcpu else 'FAIL'}")
        _, lcpu = mean[LEAST]
        print(f"  half the baseline ({bcpu / 2 * 1e6:.0f} us) against the least host of these "
              f"games in Python ({lcpu * 1e6:.0f} us a move, {lcpu / bcpu:.2f}x the baseline): "
              + ("below it: a host that does nothing but read protocol v1's requests, play "
                 "the game and send the views does not reach half the baseline" if bcpu / 2 < lcpu
                 else
                 "above it: the least host reaches half the baseline"))


# --- the wake's cost with many idle tables -------------------------------------------------------

def open_idle_tables(address: str, count: int, game: str, curve: bool, tmp: str,
                     clients: int = 4) -> list[Any]:
    """``count`` tables of ``game`` in play and waiting for a person who does not move (one
    network player and one host bot each, no idle timeout): sessions that stay connected (they
    ping, as real clients do), ``clients`` of them with a key each, opening their share of
    the tables side by side."""
    import threading

    from cardparty.net.player.session import Session
    from cardparty.net.trust.known_hosts import KnownHosts

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
    import shutil
    import tempfile

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
        host.send_signal(signal.SIGTERM)
        host.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    return cpu / took


def compare_wakes(args: argparse.Namespace) -> None:
    """Part 5 of the docstring: the idle host's CPU with 16, 100 and 1,000 tables in play and
    nobody moving, for this host and the baseline's, each count in turn."""
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


# --- a standby's cost ----------------------------------------------------------------------------

def start_standby(host_address: str, data: str) -> subprocess.Popen[str]:
    """``cardparty host --standby-for`` the host at ``host_address``, once it is attached
    (its stderr says so)."""
    proc = subprocess.Popen([PY, "-m", "cardparty.client.cli", "host", "--bind", "127.0.0.1",
                             "--port", "0", "--data", data, "--standby-for",
                             host_address.removeprefix("tcp://"), "--log-level", "info"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    end = time.monotonic() + 30
    for line in proc.stderr:
        if "attached to the host" in line:
            break
        if time.monotonic() > end:
            break
    else:
        raise SystemExit("the standby never attached")
    import threading

    threading.Thread(target=proc.stderr.read, daemon=True).start()   # keep the pipe empty
    return proc


def standby_cost(args: argparse.Namespace, standby: bool
                 ) -> tuple[float, float, float, float, float]:
    """A fresh host with ``--data`` (and a standby attached): (moves/s flat out, p50 and p99
    seconds from a move to every seat's view of it, one table moving alone, and the CPU
    seconds a move flat out of the host and of the standby)."""
    import shutil
    import tempfile

    from cardparty.net.trust.keys import host_keys

    data, sdata = (tempfile.mkdtemp(prefix="cardparty-bench-") for _ in range(2))
    cmd = host_command(data)
    if standby:
        cmd += ["--standby-key", host_keys(sdata).fingerprint]
    host, address = start(cmd)
    peer = start_standby(address, sdata) if standby else None
    try:
        load = Load(address, args.tables, args.players, args.game, {}, args.seed)
        load.connect()
        load.run(1.0, 0, measure=False)
        cpu0 = cpu_seconds(host.pid), cpu_seconds(peer.pid) if peer is not None else 0.0
        took = load.run(args.compare_seconds, 0)
        moves = max(1, load.moves)
        cpu = ((cpu_seconds(host.pid) - cpu0[0]) / moves,
               (cpu_seconds(peer.pid) - cpu0[1]) / moves if peer is not None else 0.0)
        rate = load.moves / took
        load.run(0.5, 0, measure=False, active=1)
        load.run(args.compare_seconds, 0, active=1)
        lat = load.latencies
        load.close()
    finally:
        for proc in (peer, host):            # the standby first: no hand-over
            if proc is not None:
                proc.send_signal(signal.SIGKILL if proc is peer else signal.SIGTERM)
                proc.wait(10)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(sdata, ignore_errors=True)
    return rate, percentile(lat, 50), percentile(lat, 99), *cpu


def compare_standby(args: argparse.Namespace) -> None:
    """Part 6 of the docstring: a host with ``--data`` without and with a standby attached
    (nothing is told before the standby acknowledged it), each ``--compare-rounds`` times in
    turn: flat out, and one table moving alone among the connected clients."""
    import os

    print(f"a standby's cost (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.tables * args.players} clients, {args.tables} tables of {args.game}, "
          f"{args.compare_seconds:g} s a run, {args.compare_rounds} runs each in turn):")
    got: dict[bool, list[tuple[float, float, float, float, float]]] = {False: [], True: []}
    for _ in range(args.compare_rounds):
        for standby in (False, True):
            got[standby].append(standby_cost(args, standby))
    mean = {}
    for standby, label in ((False, "--data"), (True, "--data, a standby attached")):
        runs = got[standby]
        rate = sum(r[0] for r in runs) / len(runs)
        l50 = sorted(r[1] for r in runs)[len(runs) // 2]
        l99 = max(r[2] for r in runs)
        host_cpu = sum(r[3] for r in runs) / len(runs)
        peer_cpu = sum(r[4] for r in runs) / len(runs)
        mean[standby] = (rate, l50, host_cpu + peer_cpu)
        peer = f" + the standby's {peer_cpu * 1e6:.0f} us" if standby else ""
        print(f"  this host, {label}: {rate:.0f} moves/s flat out, host CPU "
              f"{host_cpu * 1e6:.0f} us a move{peer}; one table: a move -> every view p50 "
              f"{l50 * 1e3:.2f} ms, p99 {l99 * 1e3:.2f} ms  (runs: "
              + ", ".join(f"{r[0]:.0f}/s {r[1] * 1e3:.2f} ms" for r in runs) + ")")
    (rate, l50, cpu), (srate, s50, scpu) = mean[False], mean[True]
    cost = 1 - srate / rate
    print("targets (a standby's cost):")
    print(f"  a move's latency p50 +<= 1 ms: {(s50 - l50) * 1e3:+.2f} ms ({s50 * 1e3:.2f} vs "
          f"{l50 * 1e3:.2f} ms) -> {'PASS' if s50 - l50 <= 0.001 else 'FAIL'}")
    print(f"  <= 30% of the flat-out throughput: {cost * 100:.0f}% ({srate:.0f} vs "
          f"{rate:.0f} moves/s) -> {'PASS' if cost <= 0.30 else 'FAIL'}")
    # Moves a second follow the machine's load (the runs of one host differ by half); the CPU
    # a move does not: on a machine the host and its standby saturate, the throughput lost
    # is at most the share of the CPU a move that the standby adds.
    print(f"  (the CPU a move, host and standby together: {scpu * 1e6:.0f} vs {cpu * 1e6:.0f} "
          f"us: at most {(1 - cpu / scpu) * 100:.0f}% of the throughput of a machine they "
          "saturate)")


# --- main ----------------------------------------------------------------------------------------

def arguments() -> argparse.ArgumentParser:
    """The bench's command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=16)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--game", default="pika")
    p.add_argument("--seconds", type=float, default=8.0, help="length of each load phase")
    p.add_argument("--pace-ms", type=float, default=50.0,
                   help="paced phase: one move per table every this many ms")
    p.add_argument("--echo-rounds", type=int, default=3000)
    p.add_argument("--paced-echo-rounds", type=int, default=150,
                   help="echo round trips with the paced phase's gaps between them")
    p.add_argument("--stall-seconds", type=float, default=5.0,
                   help="how long to time the machine's own CPU stalls")
    p.add_argument("--memory-tables", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", action="store_true",
                   help="run the host of parts 2-3 with --data (a save in SQLite after every "
                        "move)")
    p.add_argument("--compare-seconds", type=float, default=4.0,
                   help="length of each flat-out run of part 4 (0: skip part 4)")
    p.add_argument("--compare-rounds", type=int, default=2,
                   help="runs of each host in part 4, taken in turn")
    p.add_argument("--baseline", default="",
                   help="a checkout of an older tree whose host part 4 runs alike")
    p.add_argument("--baseline-label", default="", help="what to call it (e.g. a commit)")
    p.add_argument("--idle-tables", default="16,100,1000",
                   help="part 5: the counts of idle tables the wake's cost is measured with "
                        "(empty: skip part 5)")
    p.add_argument("--idle-seconds", type=float, default=5.0,
                   help="part 5: how long the idle host's CPU is measured at each count")
    p.add_argument("--only", choices=("compare", "wake", "standby"), default=None,
                   help="run only part 4 (compare), part 5 (wake) with their baseline, or "
                        "part 6 (standby)")
    p.add_argument("--standby", action=argparse.BooleanOptionalAction, default=True,
                   help="part 6: a host with a standby attached against one without")
    p.add_argument("--hard-tables", type=int, default=0, metavar="N",
                   help="instead of the above: N tables of hard bots flat out and another "
                        "player's ping, bots off and on the host's loop (bench/hard_bots.py; "
                        "uses --game, --players, --seconds, --seed)")
    p.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--floor-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--least-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--host-cmd", default="", help=argparse.SUPPRESS)
    import hard_bots

    hard_bots.add_arguments(p, "hard-")
    return p


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    if args.echo_server:
        echo_server()
        return 0
    if args.hard_tables:
        import hard_bots

        args.tables = args.hard_tables
        return int(hard_bots.hard_bots(args))
    if args.floor_server:
        floor_server(FLOOR_VIEW)
        return 0
    if args.least_server:
        least_server(args.game, args.players)
        return 0
    if args.only == "compare":
        compare_hosts(args)
        return 0
    if args.only == "wake":
        compare_wakes(args)
        return 0
    if args.only == "standby":
        compare_standby(args)
        return 0
    phases(args)
    if args.compare_seconds > 0:
        compare_hosts(args)
    if args.idle_tables:
        compare_wakes(args)
    if args.standby and args.compare_seconds > 0:
        compare_standby(args)
    return 0


def phases(args: argparse.Namespace) -> None:
    """Parts 1 to 3 of the docstring: the floors, the load's phases, memory, and their
    targets."""
    import os

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    echo_proc, echo_addr = start([PY, __file__, "--echo-server"])
    try:
        echo = echo_round_trips(echo_addr, args.echo_rounds)
        echo_paced = echo_round_trips(echo_addr, args.paced_echo_rounds, args.pace_ms / 1000)
    finally:
        echo_proc.send_signal(signal.SIGTERM)
        echo_proc.wait()
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
        import tempfile

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
        per_table, playing = memory_per_table(address, host.pid, args.memory_tables, args.game)
        print(f"host memory: {per_table:.0f} KB per open table "
              f"({args.memory_tables} tables, {playing} with a game under way)")
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(10)
        if args.data:
            import shutil

            shutil.rmtree(data_dir, ignore_errors=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
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
    print(f"  < 1 MB per open table: {per_table:.0f} KB -> "
          f"{'PASS' if per_table < 1024 else 'FAIL'}")


if __name__ == "__main__":
    sys.exit(main())
