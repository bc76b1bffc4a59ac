"""The load of the host's benches: network clients playing at a host, N tables of P clients
(default 16 x 4 = 64, all DEALER sockets in this process on one poller), each group at one
table of a game, moving flat out or paced, and how long from a move to every seat's view of it.

Every client speaks CURVE as a real one does, with a key pair of its own. When a table's game
ends its first client opens a new one, so the load stays steady. ``add_arguments``: the
options every bench of the host that loads it shares (``bench/host.py`` takes them once).

Must not know about: what a bench makes of the figures.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from typing import Any

import zmq

from cardparty.net.trust.keydesk import fetch_key
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The load's options, shared by the host's benches."""
    p.add_argument("--tables", type=int, default=16)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--game", default="pika")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", action="store_true",
                   help="the host of the latency and memory benches keeps its tables in SQLite "
                        "(--data: a save after every move)")
    p.add_argument("--compare-seconds", type=float, default=4.0,
                   help="length of each flat-out run of the benches that compare hosts (cost, "
                        "standby; 0: skip them in bench/host.py)")
    p.add_argument("--compare-rounds", type=int, default=2,
                   help="runs of each host in those benches, taken in turn")


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
        other clients stay connected and idle. Like a real client (net/player/session.py), a
        client that has sent nothing for a heartbeat sends ``ping``."""
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
