"""Who sits where in a round of an event (docs/rules/tournament.md, TO-6 to TO-12): the tables'
sizes, byes, the first round by seeds, later rounds by standings with no pair meeting again
where a seating avoids it (checked against every seating of small rounds), random seats, and
round robins."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from cardparty.core.tourney import pairing
from cardparty.core.tourney.pairing import pair, pairs_of


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def test_to6_tables_spread_entrants_evenly_the_smaller_ones_at_the_bottom() -> None:
    assert pairing.sizes(40, 4, "bots") == ([4] * 10, 0)
    assert pairing.sizes(39, 4, "bots") == ([4] * 9 + [3], 0)
    assert pairing.sizes(37, 4, "bots") == ([4] * 7 + [3] * 3, 0)
    assert pairing.sizes(5, 4, "bots") == ([3, 2], 0)
    assert pairing.sizes(3, 2, "bots") == ([2, 1], 0)
    # With byes: full tables only, the others sit out.
    assert pairing.sizes(10, 4, "byes") == ([4, 4], 2)
    assert pairing.sizes(7, 2, "byes") == ([2, 2, 2], 1)
    assert pairing.with_bots([["a", "b", "c"]], 4) == [["a", "b", "c", None]]


def test_to7_byes_go_to_the_fewest_byes_then_the_lowest_in_the_standings() -> None:
    order = names(6)
    assert pairing.byes(order, 2, {}) == ["p06", "p05"]
    assert pairing.byes(order, 2, {"p06": 1}) == ["p05", "p04"]
    assert pairing.byes(order, 1, {p: 1 for p in order[1:]}) == ["p01"]
    assert pairing.byes(order, 0, {}) == []


def test_to8_the_first_round_spreads_the_seeds_over_the_tables() -> None:
    tables = pairing.first_round(names(8), [4, 4])
    assert tables == [["p01", "p03", "p05", "p07"], ["p02", "p04", "p06", "p08"]]
    tables = pairing.first_round(names(7), [4, 3])
    assert tables == [["p01", "p03", "p05", "p07"], ["p02", "p04", "p06"]]
    twelve = pairing.first_round(names(12), [4, 4, 4])
    assert twelve[0] == ["p01", "p04", "p07", "p10"]


def test_to9_later_rounds_group_the_leaders_at_the_first_table() -> None:
    found = pairing.by_standings(names(8), [4, 4], set())
    assert found.tables == [names(8)[:4], names(8)[4:]] and found.repeats == 0


def test_to10_a_table_skips_whoever_met_someone_at_it_and_goes_back_when_stuck() -> None:
    order = names(8)
    met = {pair("p01", "p02")}
    found = pairing.by_standings(order, [4, 4], met)
    assert found.repeats == 0
    assert found.tables[0] == ["p01", "p03", "p04", "p05"]
    # p01..p04 all met each other, as did p05..p08: no seating avoids a repeat; the fewest
    # is two of each group at each table, a pair of each at each table (4 pairs in all).
    met = pairs_of([["p01", "p02", "p03", "p04"], ["p05", "p06", "p07", "p08"]])
    found = pairing.by_standings(order, [4, 4], met)
    assert found.repeats == 4 == len(pairs_of(found.tables) & met)
    # Only p01 and p02 met: the search goes back past a table it cannot fill.
    met = {pair("p01", p) for p in ("p02", "p03", "p04", "p05")}
    found = pairing.by_standings(order, [4, 4], met)
    assert found.repeats == 0 and found.tables[0] == ["p01", "p06", "p07", "p08"]


def partitions(people: list[str], table_sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every seating of ``people`` at tables of ``table_sizes`` (as sets)."""
    if not table_sizes:
        yield []
        return
    first, rest = people[0], people[1:]
    size = table_sizes[0]
    for others in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for more in partitions(left, table_sizes[1:]):
            yield [[first, *others], *more]


@pytest.mark.parametrize("n,k", [(8, 4), (9, 3), (8, 2), (6, 3), (10, 2)])
def test_to10_no_pair_meets_again_whenever_any_seating_avoids_it(n: int, k: int) -> None:
    """Against every seating of small rounds: the search's repeats are the fewest possible,
    over random histories of earlier rounds."""
    rng = random.Random(f"to10/{n}/{k}")
    people = names(n)
    table_sizes = [k] * (n // k)
    for _ in range(30):
        history = []
        for _ in range(rng.randrange(1, 4)):
            shuffled = people[:]
            rng.shuffle(shuffled)
            history.append([shuffled[i:i + k] for i in range(0, n, k)])
        met = pairs_of(t for r in history for t in r)
        order = people[:]
        rng.shuffle(order)
        found = pairing.by_standings(order, table_sizes, met)
        best = min(len(pairs_of(s) & met) for s in partitions(order, table_sizes))
        assert found.repeats == best == len(pairs_of(found.tables) & met)
        assert sorted(p for t in found.tables for p in t if p) == sorted(people)


def test_to10_forty_players_six_rounds_of_four_never_meet_twice() -> None:
    rng = random.Random(40)
    people = names(40)
    met: set[tuple[str, str]] = set()
    for _ in range(6):
        order = people[:]
        rng.shuffle(order)
        found = pairing.by_standings(order, [4] * 10, met)
        assert found.repeats == 0
        met |= pairs_of(found.tables)
    assert len(met) == 6 * 10 * 6


def test_to11_seats_are_drawn_from_the_seed() -> None:
    tables = [["a", "b", "c", "d"], ["e", "f", "g", None]]
    one = pairing.shuffle_seats(tables, random.Random("s/1"))
    assert one == pairing.shuffle_seats(tables, random.Random("s/1"))
    assert [sorted(t, key=str) for t in one] == [sorted(t, key=str) for t in tables]
    seen = {tuple(pairing.shuffle_seats(tables, random.Random(f"s/{i}"))[0]) for i in range(40)}
    assert len(seen) > 10


def test_to12_a_round_robin_of_two_meets_every_pair_exactly_once() -> None:
    for n, rounds in ((6, 5), (5, 5), (2, 1)):
        people = names(n)
        schedule = pairing.robin(people, 2, "byes", random.Random(1))
        assert len(schedule) == rounds
        seen = [pair(*t) for r in schedule for t in r.tables]
        assert len(seen) == len(set(seen)) == n * (n - 1) // 2
        for r in schedule:
            here = [p for t in r.tables for p in t] + r.byes
            assert sorted(here) == people
            assert len(r.byes) == n % 2
    with_bots = pairing.robin(names(5), 2, "bots", random.Random(1))
    assert all(not r.byes and sum(len(t) == 1 for t in r.tables) == 1 for r in with_bots)


@pytest.mark.parametrize("n,k", [(8, 4), (9, 3), (7, 3), (12, 4), (16, 4)])
def test_to12_a_round_robin_at_larger_tables_ends_once_every_pair_has_met(n: int,
                                                                         k: int) -> None:
    people = names(n)
    schedule = pairing.robin(people, k, "bots", random.Random(f"{n}/{k}"))
    met = pairs_of(t for r in schedule for t in r.tables)
    assert met == {pair(a, b) for a, b in itertools.combinations(people, 2)}
    before = pairs_of(t for r in schedule[:-1] for t in r.tables)
    assert before != met                          # no round more than needed
    least = -(-(n - 1) // (k - 1))
    assert least <= len(schedule) <= 2 * least + 1
    assert schedule == pairing.robin(people, k, "bots", random.Random(f"{n}/{k}"))
