"""The host's CPU per move, flat out, in the same run: this host without and with ``--data``
(a save in SQLite after every move), this host without encryption (``--no-curve``, a flag for
this measurement only: every client of a real host speaks CURVE, as the bench's clients do in
every other phase), and, with ``--baseline DIR`` (a checkout of an older commit, e.g.
``git worktree add /work/wt/hostbase 1b85ff8``, or ``git archive main | tar -x -C /tmp/main``),
the host of that tree alike, imported from DIR in its own process: moves/s and the host's CPU
per move of each (the host's process, its ZeroMQ I/O thread included), each host started
afresh for its run (``bench/host.py`` runs it with the rest of the host's benches).

And the floor of a move's messages: a bare ROUTER in its own process that only receives each
move and sends its ``ok`` and the table's views (``floor_server``), at the rate this host
reached without encryption: what protocol v1's messages cost before any work of the host's
own. And the game's own work (``game_work_cost``, in this process): the rules' moves, every
seat's view packed and the events told, which any host of these games owes every move whatever
its own design. And the least host (``least_server``, its own process, under the same load):
protocol v1's requests read and checked as this host reads them, the game played and every
seat's view and events sent, nothing else (no identity, no allowances, no timers, no lobby, no
economy): what any Python host of these games costs a move at the least, set against half the
baseline. A baseline whose host speaks CURVE runs with CURVE, as this host does, and the two
are compared like for like.

The targets: host CPU per move flat out no higher than the baseline's (at most half an older
baseline's, without encryption); persistence costing at most 25% of the flat-out throughput;
encryption at most 30%.

Usage: ``.venv/bin/python bench/host_cost.py [--baseline DIR] [--compare-seconds 4]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from typing import Any

import zmq
from hostload import Load
from hostload import add_arguments as add_load_arguments
from measure import (
    PY,
    add_baseline_arguments,
    cpu_seconds,
    host_command,
    speaks_curve,
    start,
    stop,
)

from cardparty.core.i18n import Msg
from cardparty.core.narrate import describe
from cardparty.core.table import Table, redact_event
from cardparty.net.wire.protocol import (
    PROTOCOL,
    array_of,
    check_request,
    decode,
    encode,
    map_frame,
    message,
    pack,
    pairs_of,
)

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
        stop(server)
    return moves / took, cpu / max(1, moves), moves


# --- the cost per move of one host, and of another tree's host ---------------------------------

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
        stop(host)
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


#: The run of this host without CURVE.
PLAIN = "this host, no encryption"
#: The run of the floor server (``floor_cost``).
FLOOR = "the floor of a move's messages"
#: The run of the game's own work (``game_work_cost``).
GAME = "the game's own work"
#: The run of the least host (``least_cost``).
LEAST = "the least host (protocol v1's requests, the game, nothing else)"


def run(args: argparse.Namespace) -> None:
    """The bench (the module docstring): this host without and with --data, and the
    baseline's, each ``--compare-rounds`` times in turn (the machine's load drifts: taking
    turns spreads it over all of them); the figures compared are each host's mean over its
    runs."""
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
    """The targets against the baseline's host (``labels[3:5]``: without and with
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(p)
    add_baseline_arguments(p)
    p.add_argument("--floor-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--least-server", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.floor_server:
        floor_server(FLOOR_VIEW)
    elif args.least_server:
        least_server(args.game, args.players)
    else:
        run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
