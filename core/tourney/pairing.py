"""Who sits at which table in a round of an event (docs/rules/tournament.md, TO-6 to TO-12).

A seating is a list of tables, each a list of seats holding an entrant's id (any hashable
string) or ``None`` for a seat a host bot takes, and the entrants who sit out with a bye.

- ``sizes``: how many entrants sit at each table, top table first (TO-6);
- ``first_round``: the seeds spread over the tables, the strongest meeting the weakest (TO-8);
- ``by_standings``: the later rounds of a Swiss (TO-9, TO-10): the top table takes the leader
  and the next players in the standings order who have met nobody at it; a search that
  backtracks finds a seating where no pair meets again whenever one exists within its budget,
  else the one with the fewest pairs meeting again;
- ``byes``: who sits out (TO-7);
- ``robin``: a round robin's whole schedule (TO-12): the circle method at tables of two, and
  at larger tables rounds of the fewest repeated pairs until every pair has met;
- ``shuffle_seats``: the seats of each table drawn at random (TO-11).

Must not know about: sockets, the store, any game, how a round scores (``scoring``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: A pair of entrants who met at a table, in sorted order.
Pair = tuple[str, str]
#: A table of a seating: per seat, an entrant's id or None (a host bot's seat).
Seats = list[str | None]

#: Nodes the search of ``by_standings`` visits at most for each number of repeated pairs it
#: allows (a seating of 40 players for the 6th round needs some hundreds; an impossible one
#: stops here and allows one more repeat).
BUDGET = 20_000
#: Entrants a round robin takes at most (TO-12): a round robin is for a few players.
ROBIN_MOST = 16


def pair(a: str, b: str) -> Pair:
    return (a, b) if a <= b else (b, a)


def pairs_of(tables: Iterable[Sequence[str | None]]) -> set[Pair]:
    """Every pair of entrants who sit at one table (a bot's seat meets nobody)."""
    out: set[Pair] = set()
    for table in tables:
        ids = [p for p in table if p is not None]
        out.update(pair(a, b) for a, b in itertools.combinations(ids, 2))
    return out


def sizes(n: int, seats: int, fill: str) -> tuple[list[int], int]:
    """TO-6: (entrants per table, top table first; how many sit out with a bye) for ``n``
    entrants at tables of ``seats``. ``fill="bots"``: ceil(n/seats) tables, the entrants
    spread as evenly as possible, the tables with fewer at the bottom (their empty seats are
    host bots'); ``fill="byes"``: floor(n/seats) full tables and the rest sit out."""
    if n <= 0:
        return [], 0
    if fill == "byes":
        tables = n // seats
        return [seats] * tables, n - tables * seats
    tables = -(-n // seats)
    base, more = divmod(n, tables)
    return [base + (1 if i < more else 0) for i in range(tables)], 0


def byes(order: Sequence[str], count: int, had: dict[str, int]) -> list[str]:
    """TO-7: the ``count`` entrants who sit out: the fewest byes so far first, and among
    those the lowest in ``order`` (the standings, best first)."""
    if count <= 0:
        return []
    rank = {p: i for i, p in enumerate(order)}
    ranked = sorted(order, key=lambda p: (had.get(p, 0), -rank[p]))
    return ranked[:count]


def first_round(order: Sequence[str], table_sizes: Sequence[int]) -> list[Seats]:
    """TO-8: the seeds (``order``, best first) spread over the tables: table 1 takes seeds 1,
    T+1, 2T+1..., table 2 seeds 2, T+2..., a full table skipped."""
    tables: list[Seats] = [[] for _ in table_sizes]
    t = 0
    for p in order:
        while len(tables[t % len(tables)]) >= table_sizes[t % len(tables)]:
            t += 1
        tables[t % len(tables)].append(p)
        t += 1
    return tables


@dataclass
class Found:
    """What the search found: the tables, and how many pairs in them met before."""

    tables: list[Seats]
    repeats: int


def by_standings(order: Sequence[str], table_sizes: Sequence[int], met: set[Pair],
                 budget: int = BUDGET) -> Found:
    """TO-9, TO-10: the tables of a round in the standings ``order`` (best first): each table
    takes the best-placed entrant not seated yet, then, seat after seat, the next in the order
    who met nobody at the table; when a table cannot be filled so, the search goes back and
    tries the next candidate of an earlier seat (at most ``budget`` candidates). When it
    proves that no seating is free of repeats, the same search allowing one repeat, then
    two..., so the seating has the fewest; should the search give up before it knows (a large
    round late in a long event: 40 players after 8 rounds of four), the standings' grouping
    improved by exchanging players between tables while that removes repeated pairs."""
    assert sum(table_sizes) == len(order), (table_sizes, len(order))
    exchanged: Found | None = None
    unproved = 0
    for allowed in range(sum(s * (s - 1) // 2 for s in table_sizes) + 1):
        found, complete = _search(list(order), list(table_sizes), met, allowed, budget)
        if found is not None:
            if exchanged is not None and exchanged.repeats < found.repeats:
                return exchanged
            return found
        if not complete:
            # The search gave up before it proved that no seating allows this few repeats.
            exchanged = exchanged or _exchanged(list(order), list(table_sizes), met)
            unproved += 1
            if allowed + 1 >= exchanged.repeats or unproved >= 4:
                return exchanged
    return exchanged or _exchanged(list(order), list(table_sizes), met)


def _exchanged(order: list[str], table_sizes: list[int], met: set[Pair]) -> Found:
    """The standings' grouping (the leaders at the first table, and so on), then, while an
    exchange of two players between two tables removes repeated pairs, the exchange that
    removes most (the first found in standings order among equals)."""
    tables: list[list[str]] = []
    it = iter(order)
    for size in table_sizes:
        tables.append([next(it) for _ in range(size)])

    def clash(p: str, table: list[str], without: str | None = None) -> int:
        return sum(1 for q in table if q != p and q != without and pair(p, q) in met)

    for _ in range(len(order) * len(order)):
        best: tuple[int, int, int, int, int] | None = None
        for a, ta in enumerate(tables):
            for b in range(a + 1, len(tables)):
                tb = tables[b]
                for i, p in enumerate(ta):
                    here = clash(p, ta)
                    for j, q in enumerate(tb):
                        delta = (clash(p, tb, q) + clash(q, ta, p)
                                 - here - clash(q, tb))
                        if delta < 0 and (best is None or delta < best[0]):
                            best = (delta, a, i, b, j)
        if best is None:
            break
        _, a, i, b, j = best
        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return Found([list(t) for t in tables], len(pairs_of(tables) & met))


def _search(order: list[str], table_sizes: list[int], met: set[Pair], allowed: int,
            budget: int) -> tuple[Found | None, bool]:
    """A depth-first search for a seating with at most ``allowed`` pairs that met before, and
    whether the search was complete (False: it gave up after ``budget`` candidates; a
    complete search that found none proved that none exists). A table's first seat is the
    best-placed entrant not seated; its other seats go down the order, so that each set of
    players is tried once."""
    rank = {p: i for i, p in enumerate(order)}
    free = [True] * len(order)
    tables: list[list[str]] = [[] for _ in table_sizes]
    visits = 0

    def fill(t: int, repeats: int) -> int | None:
        nonlocal visits
        if t == len(table_sizes):
            return repeats
        table = tables[t]
        if len(table) == table_sizes[t]:
            return fill(t + 1, repeats)
        if not table:
            first = next(i for i, f in enumerate(free) if f)
            candidates: Iterable[int] = (first,)
        else:
            candidates = range(rank[table[-1]] + 1, len(order))
        need = table_sizes[t] - len(table)
        for i in candidates:
            if not free[i]:
                continue
            if len(order) - i < need:
                break
            visits += 1
            if visits > budget:
                return None
            p = order[i]
            extra = sum(1 for q in table if pair(p, q) in met)
            if repeats + extra > allowed:
                continue
            table.append(p)
            free[i] = False
            got = fill(t, repeats + extra)
            if got is not None:
                return got
            table.pop()
            free[i] = True
            if visits > budget:
                return None
        return None

    got = fill(0, 0)
    if got is None:
        return None, visits <= budget
    return Found([list(t) for t in tables], got), True


def shuffle_seats(tables: Sequence[Sequence[str | None]], rng: random.Random) -> list[Seats]:
    """TO-11: each table's seats in an order drawn by ``rng``."""
    out = []
    for table in tables:
        seats = list(table)
        rng.shuffle(seats)
        out.append(seats)
    return out


def with_bots(tables: Sequence[Sequence[str]], seats: int) -> list[Seats]:
    """Each table filled up to ``seats`` with bots' seats (None)."""
    return [[*t, *([None] * (seats - len(t)))] for t in tables]


@dataclass
class Round:
    """One round of a schedule: its tables (entrants only, bots' seats not yet added) and
    who sits out."""

    tables: list[list[str]]
    byes: list[str]


def robin(entrants: Sequence[str], seats: int, fill: str, rng: random.Random,
          most_rounds: int = 40) -> list[Round]:
    """TO-12: a round robin's rounds. At tables of two, the circle method: every pair meets
    exactly once, in n - 1 rounds (n rounds when n is odd: each round one entrant has no
    opponent, a bye or a bot as ``fill`` says). At larger tables, rounds until every pair has
    met at least once, each the seating with the fewest pairs meeting again of a seeded
    shuffle of the entrants (the search of ``by_standings``), those who sat out least sitting
    out next."""
    players = list(entrants)
    n = len(players)
    if n < 2:
        return []
    if seats == 2:
        return _circle(players, fill)
    rounds: list[Round] = []
    met: set[Pair] = set()
    every = {pair(a, b) for a, b in itertools.combinations(players, 2)}
    had: dict[str, int] = {}
    while met < every and len(rounds) < most_rounds:
        order = players[:]
        rng.shuffle(order)
        # Those who met fewest others first: the search seats them where they meet new ones.
        known = {p: sum(1 for q in players if pair(p, q) in met) for p in players}
        order.sort(key=lambda p: known[p])
        table_sizes, out = sizes(n, seats, fill)
        sitting_out = byes(order, out, had)
        for p in sitting_out:
            had[p] = had.get(p, 0) + 1
        playing = [p for p in order if p not in sitting_out]
        found = by_standings(playing, table_sizes, met, budget=BUDGET)
        tables = [[p for p in t if p is not None] for t in found.tables]
        met |= pairs_of(tables)
        rounds.append(Round(tables, sitting_out))
    return rounds


def _circle(players: list[str], fill: str) -> list[Round]:
    """The circle method: the first entrant stays, the others turn one place each round."""
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for _ in range(n - 1):
        tables: list[list[str]] = []
        out: list[str] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                alone = a if b is None else b
                assert alone is not None
                if fill == "byes":
                    out.append(alone)
                else:
                    tables.append([alone])
                continue
            tables.append([a, b])
        rounds.append(Round(tables, out))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
