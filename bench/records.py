"""Benchmark and checks of game records (docs/protocol.md, "Game records"; docs/operating.md,
"Game records"): real ``cardparty host`` processes on 127.0.0.1 and network clients with
nothing but pyzmq and msgpack (bench/wireclient.py).

1. ``--rounds`` seeded rounds of each game (Pika 2 seats, Pikáč 4, Kakhead 3, Piquet 2),
   every seat a network client playing a random listed move (one that lays cards, 9 times
   in 10, where there is one): each round's record fetched
   (``record``) and replayed from every seat, every step, compared with the view that seat
   was sent at that version (the wire capture), the host's own ``replay`` compared the same
   way for the first ``--host-replays`` rounds of each game; mid-round, every player asks the
   host to replay the round in play from another seat: each view must be his own seat's as he
   was sent it, with no card his seat could not see then (``core.simcheck``'s census); and
   the random-game checker (``core.simcheck.InvariantChecker``) runs over every record's
   replay. The first 100 records go through the file (``core.record.dumps``/``loads``, what
   ``cardparty record export`` and ``cardparty replay`` do): same final views.
2. ``--reviews`` reviews of a 2-player Pika round and of a 4-player Pikáč round, one after
   the other at the default budget, on a host with its default bots' workers, while a client
   at another table pings every 20 ms: the review's p50/p95 (target p95 <= 10 s) and the
   ping's p99 (target <= 50 ms), against the ping's p99 with no review running (the same
   run's baseline).
3. ``--kill-rounds`` rounds on a host with a standby attached, the host killed (SIGKILL) once
   they are over: every record the players listed is on the standby once it serves.
4. The storage estimate: the records' bytes in the store per round of each game (measured in
   part 1: the store's ``records`` table and the file's growth), times the rounds 40 players
   play in 8 hours at the pace measured from real play (a round's steps at 3 s a human move),
   compared with the default retention and the 200 MB target.

Run under ``nice``: ``nice .venv/bin/python bench/records.py`` (``--rounds 3 --reviews 1
--kill-rounds 1``: the smoke test's short run).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from wireclient import Client, HostProcess, StandbyProcess  # bench/wireclient.py, beside

from cardparty.core.record import GameRecord, Replay, dumps, loads
from cardparty.core.simcheck import InvariantChecker, view_cards, visible_cards

#: (game, seats, settings) of part 1.
GAMES = [("pika", 2, {}), ("pikac", 4, {}), ("kakhead", 3, {}), ("piquet", 2, {})]
#: Seconds a human takes for a move, on average, for the storage estimate.
HUMAN_MOVE = 3.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


# --- playing a round through the host ---------------------------------------------------------

class Seat:
    """One network client at a table: every view it was sent, by version."""

    def __init__(self, client: Client, seat: int) -> None:
        self.client = client
        self.seat = seat
        self.views: dict[int, dict[str, Any]] = {}
        self.latest: dict[str, Any] | None = None
        self.moved = -1
        self.done = False
        self.live: list[dict[str, Any]] = []


def play_round(seats: list[Seat], tid: str, rng: random.Random, peek_at: int | None,
               most: float = 300.0) -> None:
    """Every seat plays a random listed move when it may, until each has the result; at the
    ``peek_at``-th version each player asks the host to replay the round so far from the
    next seat (he must get only his own)."""
    import zmq

    poller = zmq.Poller()
    for s in seats:
        poller.register(s.client.sock, zmq.POLLIN)
    peeked = False
    end = time.monotonic() + most
    while not all(s.done for s in seats):
        if time.monotonic() > end:
            raise AssertionError(f"the round at {tid} did not end")
        poller.poll(50)
        for s in seats:
            for msg in incoming(s.client):
                if msg.get("type") == "view" and msg.get("table") == tid:
                    s.views[msg["version"]] = msg["view"]
                    if s.latest is None or msg["version"] >= s.latest["version"]:
                        s.latest = msg
                    if msg["view"]["result"] is not None:
                        s.done = True
            view = s.latest
            if (view is not None and not s.done and view["view"]["moves"]
                    and s.moved != view["version"]):
                s.moved = view["version"]
                moves = view["view"]["moves"]
                # A random move that lays cards where there is one (a player who only draws
                # makes a round of Pikáč last a thousand moves), else any.
                laying = [m["id"] for m in moves if m["cards"] and m["kind"] != "draw"]
                pick = rng.choice(laying) if laying and rng.random() < 0.9 else rng.randrange(
                    len(moves))
                s.client.send({"type": "move", "table": tid, "rid": s.client.rid(),
                               "move": pick, "version": view["version"]})
        if (peek_at is not None and not peeked and seats[0].latest is not None
                and seats[0].latest["version"] - min(seats[0].views) >= peek_at
                and not any(s.done for s in seats)):
            peeked = True
            for s in seats:
                s.live = peek(s, tid, len(seats))


def peek(s: Seat, tid: str, players: int) -> list[dict[str, Any]]:
    """The round in play replayed from its start to now, each step asked from the next seat
    (the host must answer with the asker's own); a round that ends meanwhile (its players
    had not read its last view yet) is answered from its record, and the peek stops."""
    c = s.client
    first = request(c, "replay", table=tid, step=0, seat=(s.seat + 1) % players)
    out = [first]
    for step in range(1, first["steps"] + 1):
        if not out[-1]["live"]:
            break                      # the round is over: the rest is no round in play
        out.append(request(c, "replay", table=tid, step=step, seat=(s.seat + 1) % players))
    return out


def request(c: Client, kind: str, timeout: float = 30.0, **fields: Any) -> dict[str, Any]:
    """A request whose reply is kept apart from the pushes (which stay for the play loop)."""
    rid = c.rid()
    c.send({"type": kind, "rid": rid, **fields})
    end = time.monotonic() + timeout
    held = []
    try:
        while True:
            msg = c.recv(max(0.0, end - time.monotonic()))
            assert msg is not None, f"no reply to {kind}"
            if msg.get("rid") == rid:
                assert msg["type"] != "error", msg
                return msg
            held.append(msg)
    finally:
        c.pushed.extend(held)          # the play loop reads them first (``incoming``)


def incoming(c: Client) -> list[dict[str, Any]]:
    """What came for ``c``: what a request's wait kept aside, then what is waiting now."""
    out = c.take()
    while (msg := c.recv(0)) is not None:
        out.append(msg)
    return out


# --- part 1 -----------------------------------------------------------------------------------

def check_record(record: GameRecord, seats: list[Seat], problems: list[str],
                 through_file: bool) -> tuple[int, int]:
    """The record replayed from every seat against the views each was sent; the live peeks
    against the record; the random-game checker over the replay. (views compared, steps)."""
    replay = Replay(loads(dumps(record))) if through_file else Replay(record)
    compared = 0
    for s in seats:
        for version, view in s.views.items():
            step = version - record.version
            if replay.view(step, s.seat) != view:
                problems.append(f"{record.game} {record.id}: seat {s.seat} step {step} differs")
            compared += 1
        for shown in s.live:
            if not shown["live"]:
                # The round ended while its players had not read its last view yet: the
                # host answers from the finished round's record (every hand is shown then),
                # which must be this very round's.
                if shown["record"] != record.id or shown["table"] != record.table:
                    problems.append(f"{record.game} {record.id}: a replay of the table "
                                    f"after its round came from {shown['record']}")
                continue
            table = replay.table_at(shown["step"])
            if shown["seat"] != s.seat or shown["view"] != table.view(s.seat):
                problems.append(f"{record.game} {record.id}: a live replay step "
                                f"{shown['step']} showed seat {shown['seat']} to seat {s.seat}")
            extra = view_cards(shown["view"]) - visible_cards(table, s.seat)
            if extra:
                problems.append(f"{record.game} {record.id}: a live replay showed seat "
                                f"{s.seat} {sorted(extra.elements())}")
    info = replay.table_at(0).info
    checker = InvariantChecker(Counter(info.deck) if info.deck else None)
    before = replay.table_at(0)
    checker.start(before.clone())
    for k, step in enumerate(record.steps, start=1):
        if step.move is None:
            continue
        n_before = len(replay.table_at(k - 1).events)
        table = replay.table_at(k)
        try:
            checker.after_move(table.clone(), step.seat, step.move, table.events[n_before:])
        except AssertionError as exc:
            problems.append(f"{record.game} {record.id}: the checker: {exc}")
            break
    return compared, replay.steps


def part1(args: argparse.Namespace, work: Path) -> dict[str, dict[str, float]]:
    print("1. replays equal to what each seat was sent, and nothing unseen in a round in play")
    data = work / "p1"
    host = HostProcess("--testing", "--data", str(data), "--bot-workers", "0",
                       "--heartbeat", "1")
    sizes: dict[str, dict[str, float]] = {}
    problems: list[str] = []
    exported = 0
    try:
        for game, n, settings in GAMES:
            if args.games and game not in args.games:
                continue
            clients = [host.client(f"{game}{i}") for i in range(n)]
            rng = random.Random(f"{game}/{args.seed}")
            compared = steps = host_compared = peeks = 0
            db = sqlite3.connect(f"file:{data / 'host.sqlite3'}?mode=ro", uri=True)
            bytes0 = db.execute("SELECT COALESCE(sum(length(data)), 0), count(*) FROM "
                                "records").fetchone()
            started = time.monotonic()
            for r in range(args.rounds):
                tid = clients[0].ok("create", game=game, players=n, seed=args.seed + r,
                                    settings=settings)["table"]["id"]
                for i, c in enumerate(clients):
                    c.ok("sit", table=tid, seat=i)
                for c in clients:
                    c.ok("ready", table=tid)
                seats = [Seat(c, i) for i, c in enumerate(clients)]
                for s in seats:
                    for m in s.client.take():
                        if m.get("type") == "view" and m.get("table") == tid:
                            s.views[m["version"]] = m["view"]
                            s.latest = m
                peek_at = rng.randrange(2, 12) if r % args.peek_every == 0 else None
                play_round(seats, tid, rng, peek_at)
                peeks += sum(len(s.live) for s in seats)
                rid = clients[0].ok("records", most=1)["records"][0]["id"]
                record = GameRecord.from_wire(clients[-1].ok("record", id=rid)["record"])
                through_file = exported < 100
                exported += through_file
                got, k = check_record(record, seats, problems, through_file)
                compared += got
                steps += k
                if r < args.host_replays:
                    for s in seats:
                        for version, view in s.views.items():
                            shown = s.client.ok("replay", record=rid,
                                                step=version - record.version, seat=s.seat)
                            if shown["view"] != view:
                                problems.append(f"{game} {rid}: the host's replay of seat "
                                                f"{s.seat} at {version} differs")
                            host_compared += 1
                for c in clients:
                    c.take()
            seconds = time.monotonic() - started
            bytes1 = db.execute("SELECT COALESCE(sum(length(data)), 0), count(*) FROM "
                                "records").fetchone()
            db.close()
            rounds = max(1, bytes1[1] - bytes0[1])
            sizes[game] = {"bytes": (bytes1[0] - bytes0[0]) / rounds, "steps": steps / rounds,
                           "players": n}
            print(f"  {game} ({n} seats): {args.rounds} rounds, {steps} steps, "
                  f"{compared} views compared with the record's replay, {host_compared} "
                  f"with the host's replay, {peeks} live replays checked; "
                  f"{seconds:.1f} s; record {sizes[game]['bytes']:.0f} bytes "
                  f"({sizes[game]['steps']:.0f} steps)")
            for c in clients:
                c.close()
    finally:
        host.stop()
    size = (data / "host.sqlite3").stat().st_size
    print(f"  the store's file: {size} bytes; {exported} records through the file format")
    print(f"  problems: {len(problems)}" + "".join(f"\n    {p}" for p in problems[:20]))
    print(f"  every replay equals what each seat was sent, no live replay shows an unseen "
          f"card, the checker holds over every replay: -> {'PASS' if not problems else 'FAIL'}")
    return sizes


# --- part 2 -----------------------------------------------------------------------------------

def pinger(client: Client, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        client.ok("ping", at=1.0)
        out.append(time.perf_counter() - t)
        stop.wait(0.02)


def part2(args: argparse.Namespace, work: Path) -> None:
    print("2. the review's latency at the default budget, and another table's ping")
    host = HostProcess("--testing", "--data", str(work / "p2"), "--heartbeat", "1")
    try:
        busy = host.client("Pinger")
        busy.table_with_bots("pika", 2, settings={"dealer": 1})
        pinger_client = host.client("Pinger2")
        base: list[float] = []
        stop = threading.Event()
        t = threading.Thread(target=pinger, args=(pinger_client, stop, base))
        t.start()
        time.sleep(args.baseline)
        stop.set()
        t.join()
        print(f"  another table's ping with no review: p50 {1000 * percentile(base, 50):.1f} "
              f"ms, p99 {1000 * percentile(base, 99):.1f} ms ({len(base)} pings; {load()})")
        for game, n in (("pika", 2), ("pikac", 4)):
            me = host.client(f"Rev{game}")
            rids = []
            for r in range(args.reviews):
                tid = me.ok("create", game=game, players=n, seed=100 + r)["table"]["id"]
                me.ok("sit", table=tid, seat=0)
                me.ok("bots", table=tid, level="normal")
                me.ok("start", table=tid)
                me.play_out(tid)
                rids.append(me.ok("records", most=1)["records"][0]["id"])
                me.take()
            pings: list[float] = []
            stop = threading.Event()
            t = threading.Thread(target=pinger, args=(pinger_client, stop, pings))
            t.start()
            took, decisions, marks = [], [], 0
            try:
                for rid in rids:
                    start = time.perf_counter()
                    got = request(me, "review", 300.0, id=rid)
                    took.append(time.perf_counter() - start)
                    decisions.append(got["decisions"])
                    marks += len(got["marks"])
            finally:
                stop.set()
                t.join()
            verdict = percentile(took, 95) <= 10.0 and percentile(pings, 99) <= 0.050
            print(f"  review of a {n}-player {game} round ({len(rids)} reviews, "
                  f"{statistics.mean(decisions):.0f} decisions each, {marks} marked): p50 "
                  f"{percentile(took, 50):.2f} s, p95 {percentile(took, 95):.2f} s; another "
                  f"table's ping meanwhile p50 {1000 * percentile(pings, 50):.1f} ms, p99 "
                  f"{1000 * percentile(pings, 99):.1f} ms ({len(pings)} pings; {load()})")
            print(f"  review p95 <= 10 s and ping p99 <= 50 ms: -> "
                  f"{'PASS' if verdict else 'FAIL'}")
            me.close()
        busy.close()
        pinger_client.close()
    finally:
        host.stop()


# --- part 3 -----------------------------------------------------------------------------------

def part3(args: argparse.Namespace, work: Path) -> None:
    print("3. the host killed with a standby attached: no record lost")
    a, b = work / "p3a", work / "p3b"
    a.mkdir()
    b.mkdir()
    first = HostProcess("--data", str(a), "--heartbeat", "1")
    standby = StandbyProcess(first, "--data", str(b))
    first.stop()
    host = HostProcess("--data", str(a), "--heartbeat", "1", "--standby-key",
                       standby.approve, port=first.port)
    try:
        ann = host.client("Ann")
        word = ann.welcome or {}
        peer = word.get("standby") or ann.wait(
            lambda m: m["type"] == "standby" and m["standby"] is not None)["standby"]
        listed: list[str] = []
        for _ in range(args.kill_rounds):
            tid = ann.table_with_bots(random.choice(["pika", "pikac", "kakhead"]), 2)
            ann.play_out(tid)
            listed = [x["id"] for x in ann.ok("records", most=50)["records"]]
            ann.take()
        host.kill()
        back = Client(f"tcp://{peer['address']}:{peer['port']}", peer["key"], keys=ann.keys)
        end = time.monotonic() + 30
        while True:
            reply = back.request("hello", name="Ann", client="bench")
            if reply["type"] == "welcome":
                break
            assert time.monotonic() < end, f"the standby never served: {reply}"
            time.sleep(0.3)
            back.close()
            back = Client(f"tcp://{peer['address']}:{peer['port']}", peer["key"],
                          keys=ann.keys)
        there = [x["id"] for x in back.ok("records", most=50)["records"]]
        lost = sorted(set(listed) - set(there))
        print(f"  {len(listed)} records listed before the kill, {len(there)} on the standby "
              f"that took over, lost {len(lost)}: -> {'PASS' if not lost else 'FAIL'}")
        back.close()
        ann.close()
    finally:
        for proc in (host, standby, first):
            if proc.proc.poll() is None:
                proc.stop()


# --- part 4 -----------------------------------------------------------------------------------

def on_disk(mean: float, rows: int, work: Path) -> float:
    """Bytes the store's file grows by per record of ``mean`` bytes of data, measured: ``rows``
    such records written to a real store (random bytes: a record's data is compressed) in
    transactions of 8, the file closed (its log checkpointed) and its size compared."""
    from cardparty.net.store import Store

    where = work / f"disk{int(mean)}"
    store = Store(where)
    store.close()
    before = (where / "host.sqlite3").stat().st_size
    store = Store(where)
    rng = random.Random(1)
    for i in range(0, rows, 8):
        with store.batch():
            for j in range(i, min(rows, i + 8)):
                store.put_record(f"r{j + 1}", 1e9 + j, f"t{j % 40}", "pika",
                                 ["ana", "petr", "eva"], rng.randbytes(int(mean)))
    store.close()
    return ((where / "host.sqlite3").stat().st_size - before) / rows


def part4(sizes: dict[str, dict[str, float]], kept: int, work: Path) -> None:
    print("4. the store's growth for 40 players over 8 hours at the default retention")
    if not sizes:
        print("  no sizes measured (part 1 did not run)")
        return
    rounds = 0.0
    data = 0.0
    # The 40 players spread evenly over the four games' tables; a round lasts its steps at
    # HUMAN_MOVE a step (bots and the deal are faster: this counts more rounds, not fewer).
    per_game = 40 / len(sizes)
    for game, s in sizes.items():
        tables = per_game / s["players"]
        minutes = s["steps"] * HUMAN_MOVE / 60
        n = tables * 8 * 60 / max(0.5, minutes)
        rounds += n
        data += n * s["bytes"]
        print(f"  {game}: {tables:.1f} tables, a round of {s['steps']:.0f} steps in "
              f"{minutes:.1f} min, {n:.0f} rounds, {s['bytes']:.0f} bytes a record")
    mean = data / rounds
    disk = on_disk(mean, 2000, work)
    kept_rounds = min(rounds, kept)
    grown = disk * kept_rounds
    largest = max(s["bytes"] for s in sizes.values())
    bound = on_disk(largest, 2000, work) * kept
    print(f"  {rounds:.0f} rounds in 8 hours, {kept_rounds:.0f} kept at the retention of "
          f"{kept}; a record of {mean:.0f} bytes of data takes {disk:.0f} bytes of the file "
          f"(measured on 2000 rows): the store grows by {grown / 1e6:.1f} MB; at the "
          f"retention's bound, {kept} records of the largest game: {bound / 1e6:.0f} MB")
    print(f"  the store grows by at most 200 MB: -> {'PASS' if grown <= 200e6 else 'FAIL'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200, help="rounds of each game (part 1)")
    ap.add_argument("--games", nargs="*", default=None, help="only these games (part 1)")
    ap.add_argument("--host-replays", type=int, default=10,
                    help="rounds of each game also replayed through the host's replay")
    ap.add_argument("--peek-every", type=int, default=4,
                    help="every n-th round is replayed live by its players mid-round")
    ap.add_argument("--reviews", type=int, default=10, help="reviews of each kind (part 2)")
    ap.add_argument("--kill-rounds", type=int, default=5, help="rounds before the kill")
    ap.add_argument("--baseline", type=float, default=3.0,
                    help="seconds of another table's pings with no review (part 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip", nargs="*", default=[], choices=["1", "2", "3", "4"])
    args = ap.parse_args()
    from cardparty.net.host.config import HostConfig

    print(f"cardparty records bench ({load()})")
    with tempfile.TemporaryDirectory(prefix="cardparty-records-") as tmp:
        work = Path(tmp)
        sizes = part1(args, work) if "1" not in args.skip else {}
        if "2" not in args.skip:
            part2(args, work)
        if "3" not in args.skip:
            part3(args, work)
        if "4" not in args.skip:
            part4(sizes, HostConfig().records_kept, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
