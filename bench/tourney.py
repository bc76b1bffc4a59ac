"""Benchmark of an event (docs/rules/tournament.md): network bot clients over real sockets at a
real host process on 127.0.0.1, and the spread of standings with and without duplicate deals.

What it measures, and checks:

1. **The event** (``--players 40``): an organiser creates a Swiss of ``--rounds 6`` rounds of
   4-player Pika with duplicate deals; 40 network players (bot clients, each a ``Session`` of
   its own key) sign up; during round 2 one withdraws and two enter late, during rounds 3 and
   4 one more withdraws each (3 withdrawals, 2 late entries). Every client plays its seat with
   the game's normal bot policy, its random choices drawn from its name, the round and the
   table's version, so the same seeds give the same event. Checked: every round seated within
   2 s of the previous round's end (from the last table's end to the next ``event_seat``, as
   each player of that table saw both, the longest); no pair of players meeting twice (where
   the pairing could avoid it: none of the rounds needs a repeat); and the standings equal to an
   independent recomputation from the game records: each table's game read from the host's
   store, replayed from its seed, deck and moves, its places scored by this script's own
   reading of TO-22 to TO-24 (not the host's code), every round's records dealt the same
   cards (one seed and one deck: TO-13).
2. **Killed twice** (``--kills 2``): the same event with a standby attached; the host is
   killed (SIGKILL) during round 2 and the new host during round 4 (the first machine back as
   its standby); the final standings must equal the undisturbed run's.
3. **The spread** (``--repeats 20``): a 6-round event of 40 bots of equal level, played in
   this process with the same rules (``core.tourney``) and the simulator's bots, 20 times with
   duplicate deals and 20 without: the spread of the final standings (the standard deviation
   of the players' points, as a share of the most a player can score) must be narrower with
   duplicate deals. Beside it, two figures that say what the spread means: the same events
   with each table's places drawn at random (the scoring alone: a duplicate round's points
   are a rank among everybody who held the same cards, a finer scale that narrows the spread
   even where the play counts for nothing), and the same events with half the bots easy and
   half normal (how often the standings put the better bot above the weaker one).

Every figure comes with the load average: the machine is shared. Run under ``nice``. Usage:
``.venv/bin/python bench/tourney.py [--help]`` (``--players 8 --rounds 2 --kills 1 --repeats
2``: the smoke test's short run).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from failover import Node, told_of  # bench/failover.py, beside this script
from party import kept_tables  # bench/party.py, beside it too

#: The organiser's name (the host is started with ``--organiser`` for it).
ORGANISER = "Org"
#: Seconds a round may take to be seated after the previous one ended (target 1).
SEATED_WITHIN = 2.0
#: The event's game, table size and settings: 4-player Pika, the Pika! call's time at its
#: longest (30 s: a bot client answers in milliseconds, and a takeover's pause must not make
#: the host play the deadline for him, which would make the two runs differ).
GAME, SEATS, SETTINGS = "pika", 4, {"warning": 30.0}


# --- the players ----------------------------------------------------------------------------

@dataclass
class Run:
    """What one event's clients saw: when each round's tables ended and when each round was
    first seated (monotonic), each player's own sightings of both, and the gates the script
    opens once a round's scripted changes (withdrawals, late entries) are done."""

    ended: dict[int, float] = field(default_factory=dict)
    seated: dict[int, float] = field(default_factory=dict)
    gates: dict[int, threading.Event] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    moves: int = 0
    tables_ended: set[str] = field(default_factory=set)
    #: round -> the table of it first seen ending last
    last_table: dict[int, str] = field(default_factory=dict)
    #: (player, round) -> when he saw his table of it end, when he was told his seat in it,
    #: and that table
    over_at: dict[tuple[str, int], float] = field(default_factory=dict)
    seat_at: dict[tuple[str, int], float] = field(default_factory=dict)
    table_of: dict[tuple[str, int], str] = field(default_factory=dict)

    def gate(self, number: int) -> threading.Event:
        with self.lock:
            return self.gates.setdefault(number, threading.Event())

    def seat_seen(self, name: str, number: int, table: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.seated.setdefault(number, now)
            self.seat_at.setdefault((name, number), now)
            self.table_of[(name, number)] = table

    def over_seen(self, name: str, number: int, table: str) -> None:
        """``name`` saw ``table`` of round ``number`` end: the round ends when the last of
        its tables was first seen ending."""
        now = time.monotonic()
        with self.lock:
            self.over_at.setdefault((name, number), now)
            if table in self.tables_ended:
                return
            self.tables_ended.add(table)
            if now >= self.ended.get(number, 0.0):
                self.ended[number], self.last_table[number] = now, table

    def gap(self, number: int) -> float:
        """From round ``number``'s end to the next round seated, as the players of its last
        table saw both (each client gets the table's end before his next seat, in order, so
        the threads of other clients, which see them in their own time, do not enter the
        figure): the longest of theirs; with none of them seated again, as any client saw."""
        last = self.last_table.get(number)
        mine = [self.seat_at[(p, n + 1)] - self.over_at[(p, n)]
                for (p, n), t in self.table_of.items()
                if n == number and t == last and (p, n + 1) in self.seat_at
                and (p, n) in self.over_at]
        return max(mine) if mine else self.seated[number + 1] - self.ended[number]


class Player(threading.Thread):
    """A network player: a ``Session`` of its own key, playing each table the event seats it
    at with the game's normal bot policy (``netbot.choose``), its choices drawn from its
    name, the round and the view's version."""

    def __init__(self, address: str, name: str, run: Run) -> None:
        super().__init__(daemon=True, name=f"player-{name}")
        from cardparty.net.player.session import Session
        from cardparty.net.trust.keys import KeyPair

        self.name = name
        self.run_ = run
        self.session = Session(address, name, keys=KeyPair.generate(), request_timeout=30)
        self.session.connect(30)
        self.table: str | None = None
        self.round = 0
        self.stopping = threading.Event()
        self.over: set[str] = set()

    def run(self) -> None:
        from cardparty.net.player.netbot import choose
        from cardparty.net.player.session import SessionError

        s = self.session
        while not self.stopping.is_set():
            msg = s.next_message(0.1)
            if msg is None:
                continue
            if msg["type"] == "event_seat":
                self.table, self.round = msg["table"], msg["round"]
                self.run_.seat_seen(self.name, self.round, self.table)
                continue
            if msg["type"] != "view" or msg.get("table") != self.table:
                continue
            view = msg["view"]
            table, number = self.table, self.round
            if view.get("result") is not None:
                if table not in self.over:
                    self.over.add(table)
                    self.run_.over_seen(self.name, number, table)
                continue
            if not view["moves"] or msg["version"] != s.views[table]["version"]:
                continue
            self.run_.gate(number).wait()
            pick = choose(view, random.Random(f"{self.name}/{number}/{msg['version']}"),
                          "normal")
            try:
                s.move(table, pick, msg["version"])
                self.run_.moves += 1
            except SessionError:
                continue              # stale or refused: the next view says what is true

    def close(self) -> None:
        self.stopping.set()
        self.join(5)
        self.session.abort()


# --- one event -------------------------------------------------------------------------------

@dataclass
class Outcome:
    event: dict[str, Any]
    run: Run
    took: float
    data: Path


def play_event(args: argparse.Namespace, address: str, data_of: Any,
               kill: Any = None) -> Outcome:
    """One event at the host serving at ``address``: its final ``event`` map, what the
    clients saw. ``kill(number)`` is called once each round is seated (the kill run's)."""
    from cardparty.net.player.session import Session
    from cardparty.net.trust.keys import KeyPair

    run = Run()
    org = Session(address, ORGANISER, keys=KeyPair.generate(), request_timeout=30)
    org.connect(30)
    made = org.event_create(GAME, SEATS, settings=SETTINGS, rounds=args.rounds,
                            duplicate=True, start_within=0, late=args.rounds, seed=args.seed,
                            title="bench")
    eid = made["id"]
    names = [f"P{i:02d}" for i in range(args.players)]
    late = [f"L{i}" for i in range(2)]
    players = {n: Player(address, n, run) for n in names + late}
    for p in players.values():
        p.start()
    for n in names:
        players[n].session.event_join(eid)
    # The scripted changes, each made while a round plays and before any of its moves:
    # round -> (who withdraws, who enters late).
    n = len(names)
    script: dict[int, tuple[list[str], list[str]]] = {
        2: ([names[n // 8]], late), 3: ([names[n * 3 // 7]], []), 4: ([names[n * 5 // 7]], [])}
    t0 = time.monotonic()
    org.event_start(eid)
    final: dict[str, Any] | None = None
    try:
        for number in range(1, args.rounds + 1):
            end = time.monotonic() + args.round_timeout
            while number not in run.seated:
                if time.monotonic() > end:
                    raise SystemExit(f"round {number} was never seated")
                time.sleep(0.005)
            out, entering = script.get(number, ([], []))
            for n in out:
                players[n].session.event_leave(eid)
            for n in entering:
                players[n].session.event_join(eid)
            run.gate(number).set()
            if kill is not None:
                kill(number, list(players.values()))
        end = time.monotonic() + args.round_timeout
        while final is None or final["status"] != "over":
            if time.monotonic() > end:
                raise SystemExit("the event did not end")
            time.sleep(0.05)
            final = org.event(eid)
    finally:
        took = time.monotonic() - t0
        for p in players.values():
            p.close()
        org.abort()
    return Outcome(final, run, took, data_of())


# --- the independent recomputation -----------------------------------------------------------

def recompute(outcome: Outcome) -> tuple[dict[str, tuple[float, float, int]], int, int, int]:
    """Each player's (points, Buchholz, first places) from the game records: every table of
    the event read from the host's store and replayed from its seed, deck and moves; scored
    by this script's own reading of TO-22 to TO-24. Also the tables replayed, those whose
    replay differed from the record, and the rounds whose records were not all dealt the
    same cards (the same seed and deck: TO-13, which the scoring of TO-23 relies on)."""
    from cardparty.core.table import Table

    event = outcome.event
    ids = [t["table"] for r in event["results"] for t in r["tables"]]
    records = kept_tables(outcome.data, ids)
    entrants = {line["name"] for line in event["standings"]}
    k = SEATS
    per_round: list[dict[str, float]] = []
    tables_of: list[list[tuple[list[str | None], list[int]]]] = []
    differed = mixed = 0
    for r in event["results"]:
        tables = []
        dealt = {(records[t["table"]].seed, repr(records[t["table"]].settings.get("deck")))
                 for t in r["tables"]}
        mixed += len(dealt) > 1 or any(deck == "None" for _, deck in dealt)
        for t in r["tables"]:
            record = records[t["table"]]
            replay = Table(record.game, record.players, record.settings, record.variant_ids,
                           seed=record.seed)
            for seat, move in record.journal:
                replay.play(seat, move)
            result = replay.result()
            if result is None or record.result() is None or (
                    result.places != record.result().places):
                differed += 1
            who = [n if n in entrants else None for n in record.names]
            tables.append((who, list(result.places) if result is not None else []))
        tables_of.append(tables)
        points: dict[str, float] = {}
        for who, places in tables:
            for s, name in enumerate(who):
                if name is None:
                    continue
                same = [pl[s] for w, pl in tables if pl is not places]   # the same cards
                mine = places[s]
                if same:
                    beaten = sum(1 for p in same if p > mine)
                    tied = sum(1 for p in same if p == mine)
                    points[name] = (k - 1) * (beaten + tied / 2) / len(same)
                else:
                    points[name] = sum(1 for p in places if p > mine) + (
                        sum(1 for p in places if p == mine) - 1) / 2
        per_round.append(points)
    total = {n: sum(pts.get(n, 0.0) for pts in per_round) for n in entrants}
    buchholz = dict.fromkeys(entrants, 0.0)
    firsts = dict.fromkeys(entrants, 0)
    for tables in tables_of:
        for who, places in tables:
            here = [n for n in who if n is not None]
            for s, n in enumerate(who):
                if n is None:
                    continue
                others = [total[o] for o in here if o != n]
                if others:
                    buchholz[n] += sum(others) / len(others)
                firsts[n] += places[s] == 1
    return ({n: (total[n], buchholz[n], firsts[n]) for n in entrants}, len(ids), differed,
            mixed)


def repeats(event: dict[str, Any]) -> tuple[int, list[int], list[bool]]:
    """Pairs of players who sat at one table in two rounds or more; per round, the pairs at
    its tables that had met before; and whether each round could have done with fewer (found
    by trying every seating of its players, for rounds of at most 12 players; a round too
    large for that is counted as could, unless it has none)."""
    import itertools

    seen: dict[tuple[str, str], int] = {}
    per_round, fewer = [], []
    for r in event["results"]:
        groups = [sorted(s["name"] for s in t["seats"] if s["name"] is not None)
                  for t in r["tables"]]
        met = {p for p, n in seen.items() if n}
        again = sum(1 for g in groups for a, b in itertools.combinations(g, 2) if (a, b) in met)
        per_round.append(again)
        if again == 0:
            fewer.append(False)
        elif sum(map(len, groups)) > 12:
            fewer.append(True)
        else:
            fewer.append(least(groups, met) < again)
        for g in groups:
            for a, b in itertools.combinations(g, 2):
                seen[(a, b)] = seen.get((a, b), 0) + 1
    return sum(1 for n in seen.values() if n > 1), per_round, fewer


def least(groups: list[list[str]], met: set[tuple[str, str]]) -> int:
    """The fewest pairs that met before of any seating of the players of ``groups`` at
    tables of the same sizes (every seating tried)."""
    import itertools

    people = sorted(p for g in groups for p in g)
    sizes = sorted((len(g) for g in groups), reverse=True)

    def best(left: list[str], sizes: list[int]) -> int:
        if not sizes:
            return 0
        first, rest = left[0], left[1:]
        out = 10**9
        for others in itertools.combinations(rest, sizes[0] - 1):
            table = sorted([first, *others])
            here = sum(1 for a, b in itertools.combinations(table, 2) if (a, b) in met)
            remaining = [p for p in rest if p not in others]
            out = min(out, here + best(remaining, sizes[1:]))
        return out

    return best(people, sizes)


def standings_of(event: dict[str, Any]) -> list[tuple[int, str, float]]:
    return [(s["rank"], s["name"], round(s["points"], 4)) for s in event["standings"]]


# --- the spread ------------------------------------------------------------------------------

class Seated:
    """The bots of one table: each player's seat played at his level, his choices drawn from
    his own stream (a host bot's seat at the first level, from the table's); SYSTEM (a
    deadline running out) plays a random timeout move, as in every simulation."""

    def __init__(self, policies: dict[str, Any], level_of: dict[str, str],
                 seats: list[str | None], streams: dict[str, random.Random],
                 bots: random.Random) -> None:
        self.policies, self.level_of, self.seats = policies, level_of, seats
        self.streams, self.bots = streams, bots

    def choose(self, table: Any, seat: int, rng: random.Random) -> Any:
        from cardparty.core.contract import SYSTEM

        if seat == SYSTEM:
            moves = table.legal_moves(seat)
            return moves[rng.randrange(len(moves))]
        who = self.seats[seat]
        if who is None:                          # a host bot: the first level's
            return next(iter(self.policies.values())).choose(table, seat, self.bots)
        return self.policies[self.level_of[who]].choose(table, seat, self.streams[who])


def events(repeats_: int, players: int, rounds: int, duplicate: bool, seed: int,
           levels: tuple[str, ...] = ("normal",), luck: bool = False) -> list[list[Any]]:
    """The final standings of ``repeats_`` events of ``rounds`` rounds between ``players``
    bots, played in this process by the host's own rules (``core.tourney``) and the
    simulator's bots (each player his own random stream; player i at the level
    ``levels[i * len(levels) // players]``). With ``luck``, no game is played: each table's
    places are drawn at random, what an event of players whose play counts for nothing
    would give under the same scoring."""
    from cardparty.core.bots import PolicyBot
    from cardparty.core.discovery import load_catalog
    from cardparty.core.simulate import play_out
    from cardparty.core.table import Table
    from cardparty.core.tourney.event import Event, EventSettings

    catalog = load_catalog()
    deck = catalog.game(GAME).deck
    policies = {level: PolicyBot(level) for level in levels}
    out = []
    for rep in range(repeats_):
        ev = Event("e1", 1, EventSettings(GAME, SEATS, dict(SETTINGS), rounds=rounds,
                                          duplicate=duplicate), "org", "Org",
                   seed=seed * 1000 + rep)
        for i in range(players):
            ev.join(f"p{i}", f"P{i}", None)
        ev.start({})
        streams = {f"p{i}": random.Random(f"{seed}/{rep}/{i}") for i in range(players)}
        level_of = {f"p{i}": levels[i * len(levels) // players] for i in range(players)}
        while ev.due():
            rnd = ev.next_round(0.0)
            cards = ev.deck(rnd, deck)
            for i, t in enumerate(rnd.tables):
                rng = random.Random(f"{seed}/{rep}/{rnd.number}/{i}")
                if luck:
                    places = list(range(1, SEATS + 1))
                    rng.shuffle(places)
                else:
                    settings = dict(SETTINGS)
                    if cards is not None:
                        settings["deck"] = cards
                    table = Table(GAME, SEATS, settings, seed=ev.table_seed(rnd, i),
                                  catalog=catalog)
                    bots = Seated(policies, level_of, list(t.seats), streams,
                                  random.Random(f"{seed}/{rep}/{rnd.number}/{i}/bots"))
                    places = list(play_out(table, rng, bots).places)
                ev.opened(rnd, i, f"t{rnd.number}.{i}")
                ev.record(f"t{rnd.number}.{i}", places)
            ev.finish()
        out.append(ev.standings())
    return out


def spread(repeats_: int, players: int, rounds: int, duplicate: bool, seed: int,
           luck: bool = False) -> list[float]:
    """The standard deviation of the final points of ``players`` bots of equal level over an
    event of ``rounds`` rounds, as a share of the most a player can score, for each of
    ``repeats_`` events (``luck``: places drawn at random instead of played)."""
    return [statistics.pstdev([s.points for s in final]) / ((SEATS - 1) * rounds)
            for final in events(repeats_, players, rounds, duplicate, seed, luck=luck)]


def order(repeats_: int, players: int, rounds: int, duplicate: bool, seed: int) -> float:
    """Half the players normal bots, half easy: the share of (normal, easy) pairs whose normal
    bot ends above the easy one in the final standings (a shared rank counts half), over
    ``repeats_`` events: how well the standings tell the better player."""
    above = pairs = 0.0
    for final in events(repeats_, players, rounds, duplicate, seed, ("normal", "easy")):
        rank = {s.entrant: s.rank for s in final}
        strong = [r for e, r in rank.items() if int(e[1:]) < players // 2]
        weak = [r for e, r in rank.items() if int(e[1:]) >= players // 2]
        for a in strong:
            for b in weak:
                above += 1.0 if a < b else 0.5 if a == b else 0.0
                pairs += 1
    return above / pairs


# --- running ---------------------------------------------------------------------------------

def host_args(args: argparse.Namespace) -> tuple[str, ...]:
    return ("--testing", "--organiser", ORGANISER, "--bot-delay", "0")


def undisturbed(args: argparse.Namespace, base: Path) -> Outcome:
    node = Node(base, "alone")
    node._spawn(*host_args(args))
    node.wait_for("listening on")
    try:
        return play_event(args, node.address, lambda: node.data)
    finally:
        node.signal(signal.SIGKILL)
        node.reap()


def killed(args: argparse.Namespace, base: Path) -> tuple[Outcome, list[float]]:
    """The same event with a standby attached, the host killed ``--kills`` times (the first
    machine back as the new host's standby each time): the outcome, and each takeover's
    time from the kill to the new host's word that it serves."""
    a, b = Node(base, "a"), Node(base, "b")
    a._spawn("--standby-key", b.fingerprint(), *host_args(args))
    a.wait_for("listening on")
    b._spawn("--standby-for", a.address, *host_args(args))
    b.wait_for("attached to the host")
    state = {"host": a, "standby": b, "kills": 0}
    took: list[float] = []
    where: list[str] = []
    rounds = sorted({2, 4, *range(2, args.rounds + 1, 2)})[:args.kills]

    def kill(number: int, players: list[Any]) -> None:
        if number not in rounds:
            return
        told_of(players, state["standby"].port, timeout=60)
        run = players[0].run_
        start = run.moves
        end = time.monotonic() + 60
        while run.moves < start + args.kill_moves and time.monotonic() < end:
            time.sleep(0.001)
        over = sum(1 for n in run.ended if n == number)
        host, standby = state["host"], state["standby"]
        where.append(f"round {number} after {run.moves - start} moves of the clients"
                     f"{' (the round was over)' if over else ''}")
        t = time.monotonic()
        host.signal(signal.SIGKILL)
        host.reap()
        standby.wait_for("took over from", 60)
        took.append(time.monotonic() - t)
        host._spawn("--standby-for", standby.address, *host_args(args))
        host.wait_for("attached to the host")
        state["host"], state["standby"] = standby, host
        state["kills"] += 1

    try:
        outcome = play_event(args, a.address, lambda: state["host"].data, kill)
    finally:
        for node in (a, b):
            node.signal(signal.SIGKILL)
            node.reap()
    if state["kills"] != args.kills:
        raise SystemExit(f"only {state['kills']} kills of {args.kills} were made")
    print(f"  killed during {'; '.join(where)}")
    return outcome, took


def judge(name: str, outcome: Outcome) -> bool:
    """Target 1's checks of one run, printed; whether they pass."""
    run, event = outcome.run, outcome.event
    gaps = [run.gap(n) for n in sorted(run.ended) if n + 1 in run.seated]
    again, per_round, avoidable = repeats(event)
    said = [r["repeats"] for r in event["results"]]
    mine, tables, differed, mixed = recompute(outcome)
    host = {s["name"]: (s["points"], s["buchholz"], s["firsts"]) for s in event["standings"]}
    unequal = [n for n in host if abs(host[n][0] - mine[n][0]) > 1e-3
               or abs(host[n][1] - mine[n][1]) > 1e-3 or host[n][2] != mine[n][2]]
    keys = [(-round(mine[s["name"]][0], 6), -round(mine[s["name"]][1], 6), -mine[s["name"]][2])
            for s in event["standings"]]
    in_order = all(keys[i] <= keys[i + 1] for i in range(len(keys) - 1))
    withdrawn = sum(1 for s in event["standings"] if s["status"] == "withdrawn")
    print(f"{name}: {len(event['standings'])} players ({withdrawn} withdrawn), "
          f"{len(event['results'])} rounds, {tables} tables, {run.moves} moves by the clients "
          f"in {outcome.took:.1f} s; tables per round "
          f"{[len(r['tables']) for r in event['results']]}")
    print(f"  a round's end to the next seated: "
          f"{', '.join(f'{g:.3f}' for g in gaps)} s (max {max(gaps, default=0):.3f} s)")
    print(f"  pairs that met twice: {again}; per round, pairs meeting again {per_round} (the "
          f"host said {said}), of which a seating could have avoided some: "
          f"{sum(avoidable)} rounds")
    print(f"  the standings recomputed from {tables} game records ({differed} replays "
          f"differed from their record; rounds whose tables were not all dealt the same "
          f"cards: {mixed}): {len(host) - len(unequal)}/{len(host)} players equal"
          f"{'' if not unequal else ' (differ: ' + ', '.join(unequal[:5]) + ')'}, the order "
          f"{'agrees' if in_order else 'DISAGREES'}")
    top = ", ".join(f"{r}. {n} {p:g}" for r, n, p in standings_of(event)[:3])
    print(f"  first: {top}")
    return (bool(gaps) and max(gaps) <= SEATED_WITHIN and not any(avoidable)
            and per_round == said and not unequal and in_order and differed == 0
            and mixed == 0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--kills", type=int, default=2)
    ap.add_argument("--kill-moves", type=int, default=100,
                    help="the clients' moves into the round at which the host is killed")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--round-timeout", type=float, default=300.0)
    args = ap.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="cardparty-tourney-"))
    os.environ["CARDPARTY_HOME"] = str(base / "home")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores")
    try:
        calm = undisturbed(args, base)
        ok1 = judge("undisturbed", calm)
        ok2 = True
        if args.kills:
            hit, took = killed(args, base)
            ok = judge(f"killed {args.kills} times", hit)
            same = standings_of(hit.event) == standings_of(calm.event)
            print(f"  takeovers: {', '.join(f'{t:.2f}' for t in took)} s from the kill to the "
                  f"new host serving; final standings equal to the undisturbed run's: "
                  f"{'yes' if same else 'NO'}")
            ok2 = same and ok
    finally:
        shutil.rmtree(base, ignore_errors=True)
    t = time.monotonic()
    dup = spread(args.repeats, args.players, args.rounds, True, args.seed)
    plain = spread(args.repeats, args.players, args.rounds, False, args.seed)
    took_spread = time.monotonic() - t
    d, p = statistics.mean(dup), statistics.mean(plain)
    print(f"the spread of the final standings ({args.repeats} events of {args.players} bots of "
          f"equal level, {args.rounds} rounds, in {took_spread:.0f} s): with duplicate deals "
          f"{d:.4f} (sd {statistics.pstdev(dup):.4f}), without {p:.4f} (sd "
          f"{statistics.pstdev(plain):.4f}) of the most a player can score")
    # The same events with every table's places drawn at random: what the scoring alone
    # gives. A duplicate round's points are a rank among everybody who held the same cards
    # (TO-23), a finer scale than a table's 3, 2, 1, 0, and narrower even where play counts
    # for nothing; and the same events with half the bots weaker: whether the standings tell
    # the better player more often with duplicate deals.
    ld = statistics.mean(spread(args.repeats, args.players, args.rounds, True, args.seed,
                                luck=True))
    lp = statistics.mean(spread(args.repeats, args.players, args.rounds, False, args.seed,
                                luck=True))
    print(f"  the same events, places drawn at random (the scoring alone): with duplicate "
          f"deals {ld:.4f}, without {lp:.4f}; played, as a share of that: with {d / ld:.3f}, "
          f"without {p / lp:.3f}")
    od = order(args.repeats, args.players, args.rounds, True, args.seed)
    op = order(args.repeats, args.players, args.rounds, False, args.seed)
    print(f"  half normal bots, half easy: a normal bot ends above an easy one in {od:.1%} of "
          f"the pairs with duplicate deals, {op:.1%} without")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("targets:")
    print(f"  rounds seated within {SEATED_WITHIN:g} s, nobody meets twice, the standings "
          f"equal to the game records': {'PASS' if ok1 else 'FAIL'}")
    if args.kills:
        print(f"  killed {args.kills} times with a standby: the same final standings: "
              f"{'PASS' if ok2 else 'FAIL'}")
    print(f"  duplicate deals narrow the spread: {d:.4f} < {p:.4f} -> "
          f"{'PASS' if d < p else 'FAIL'} (places drawn at random: {ld:.4f} against {lp:.4f})")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
