"""One event's rules as plain data (docs/rules/tournament.md): signing up, the start and the
seeds, withdrawals, late entries and coming back, the rounds' seating, duplicate deals, and a
seeded random check of many events: after every round, every entrant in play sits exactly once
(or has a bye), nobody withdrawn sits, and the event kept and read back is the same."""

from __future__ import annotations

import random

import pytest

from cardparty.core.table import Table
from cardparty.core.tourney import pairing
from cardparty.core.tourney.event import (
    OVER,
    PLAYING,
    WITHDRAWN,
    Event,
    EventRefusal,
    EventSettings,
)


def event(n: int = 0, **settings: object) -> Event:
    ev = Event("e1", 1, EventSettings(**{"game": "pika", "seats": 4, **settings}),  # type: ignore[arg-type]
               "org", "Org", seed=7)
    for i in range(n):
        ev.join(f"k{i}", f"P{i}", None)
    return ev


def play_round(ev: Event, rng: random.Random) -> None:
    rnd = ev.next_round(0.0)
    for i, t in enumerate(rnd.tables):
        ev.opened(rnd, i, f"t{rnd.number}.{i}")
        places = list(range(1, len(t.seats) + 1))
        rng.shuffle(places)
        assert ev.record(f"t{rnd.number}.{i}", places)
    ev.finish()


def test_to3_signing_up_twice_is_once_and_withdrawing_before_the_start_takes_it_back() -> None:
    ev = event(3)
    assert ev.join("k0", "P0", None) is ev.entrants[0] and len(ev.entrants) == 3
    ev.withdraw("k1")
    assert [e.token for e in ev.entrants] == ["k0", "k2"]
    with pytest.raises(EventRefusal) as no:
        ev.withdraw("k1")
    assert no.value.code == "not_entered"


def test_to4_the_start_needs_entrants_and_a_round_robin_is_for_a_few() -> None:
    with pytest.raises(EventRefusal) as few:
        event(1).start({})
    assert few.value.code == "event_state" and "at least 2" in str(few.value)
    with pytest.raises(EventRefusal):
        event(3, fill="byes").start({})
    event(4, fill="byes").start({})
    with pytest.raises(EventRefusal) as many:
        event(17, format="robin").start({})
    assert "at most 16" in str(many.value)
    ev = event(2)
    ev.start({})
    with pytest.raises(EventRefusal):
        ev.start({})


def test_to5_seeds_are_by_rating_the_unrated_after_equal_ones_by_sign_up() -> None:
    ev = event(5)
    ev.start({"k0": None, "k1": 3.0, "k2": 12.5, "k3": 3.0})
    assert ev.seeds == ["k2", "k1", "k3", "k0", "k4"]
    first = ev.next_round(0.0)
    # Two tables (5 entrants at tables of 4): seeds 1, 3, 5 and seeds 2, 4.
    assert sorted(p for p in first.tables[0].seats if p) == sorted(["k2", "k3", "k4"])
    assert sorted(p for p in first.tables[1].seats if p) == sorted(["k1", "k0"])


def test_to13_to14_a_duplicate_round_deals_every_table_the_same_cards() -> None:
    dup = event(8, duplicate=True)
    dup.start({})
    rnd = dup.next_round(0.0)
    cards = Table("pika", 4, seed=1).info.deck
    deck = dup.deck(rnd, cards)
    assert deck is not None and sorted(deck) == sorted(cards)
    seeds = {dup.table_seed(rnd, i) for i in range(len(rnd.tables))}
    assert len(seeds) == 1
    tables = [Table("pika", 4, {"deck": deck}, seed=dup.table_seed(rnd, i))
              for i in range(2)]
    for seat in range(4):
        assert tables[0].view(seat)["hand"] == tables[1].view(seat)["hand"]
    assert tables[0].view(None)["zones"] == tables[1].view(None)["zones"]
    plain = event(8)
    plain.start({})
    rnd = plain.next_round(0.0)
    assert plain.deck(rnd, cards) is None
    assert len({plain.table_seed(rnd, i) for i in range(2)}) == 2


def test_to19_a_withdrawn_entrant_keeps_his_points_and_sits_in_no_later_round() -> None:
    ev = event(8)
    ev.start({})
    rng = random.Random(1)
    play_round(ev, rng)
    before = {s.entrant: s.points for s in ev.standings()}
    ev.withdraw("k3")
    assert ev.entrant("k3").status == WITHDRAWN           # type: ignore[union-attr]
    rnd = ev.next_round(0.0)
    assert all("k3" not in t.seats for t in rnd.tables)
    assert sum(1 for t in rnd.tables for p in t.seats if p is None) == 1   # a bot fills
    lines = {s.entrant: s for s in ev.standings()}
    assert lines["k3"].points == before["k3"]


def test_to20_a_late_entry_plays_from_the_next_round_and_until_the_deadline() -> None:
    ev = event(8, late=1, rounds=3)
    ev.start({})
    rng = random.Random(2)
    ev.next_round(0.0)
    late = ev.join("late", "Late", 20.0)                 # during round 1
    assert late.since == 2 and ev.seeds[-1] == "late"
    rnd = ev.current
    assert rnd is not None and all("late" not in t.seats for t in rnd.tables)
    for i, t in enumerate(rnd.tables):
        ev.opened(rnd, i, f"t1.{i}")
        ev.record(f"t1.{i}", list(range(1, len(t.seats) + 1)))
    play_round(ev, rng)
    assert any("late" in t.seats for t in ev.rounds[1].tables)
    assert {s.entrant: s.rounds for s in ev.standings()}["late"][0] is None
    with pytest.raises(EventRefusal) as closed:
        ev.join("later", "Later", None)
    assert "after round 1" in str(closed.value)
    robin = event(4, format="robin")
    robin.start({})
    with pytest.raises(EventRefusal) as fixed:
        robin.join("late", "Late", None)
    assert "round robin" in str(fixed.value)


def test_to21_a_withdrawn_entrant_comes_back_with_his_points() -> None:
    ev = event(8, late=3)
    ev.start({})
    rng = random.Random(3)
    play_round(ev, rng)
    ev.withdraw("k0")
    kept = {s.entrant: s.points for s in ev.standings()}["k0"]
    play_round(ev, rng)
    back = ev.join("k0", "P0", None)
    assert back.status == "in" and back.since == 3
    rnd = ev.next_round(0.0)
    assert any("k0" in t.seats for t in rnd.tables)
    assert {s.entrant: s for s in ev.standings()}["k0"].points == kept


def test_to6_to12_a_round_robin_event_plays_its_schedule_with_bots_for_the_withdrawn() -> None:
    ev = event(5, format="robin", seats=2)
    ev.start({})
    assert ev.total_rounds == 5
    rng = random.Random(4)
    play_round(ev, rng)
    ev.withdraw("k2")
    while ev.due():
        rnd = ev.next_round(0.0)
        assert all("k2" not in t.seats for t in rnd.tables)
        for i in range(len(rnd.tables)):
            ev.opened(rnd, i, f"t{rnd.number}.{i}")
            ev.record(f"t{rnd.number}.{i}", [1, 2])
        ev.finish()
    assert ev.status == OVER and ev.round == 5


@pytest.mark.parametrize("seed", range(12))
def test_random_events_seat_everybody_once_and_keep_what_they_hold(seed: int) -> None:
    rng = random.Random(seed)
    seats = rng.choice([2, 3, 4])
    fill = rng.choice(["bots", "byes"])
    n = rng.randrange(seats, 30)
    ev = event(n, seats=seats, fill=fill, rounds=rng.randrange(1, 8),
               duplicate=rng.random() < 0.5, late=rng.randrange(0, 4))
    ev.start({f"k{i}": rng.choice([None, rng.uniform(-5, 30)]) for i in range(n)})
    joined = n
    while ev.status == PLAYING:
        active = {e.token for e in ev.entrants if e.status == "in"}
        rnd = ev.next_round(float(ev.round))
        here = [p for t in rnd.tables for p in t.seats if p is not None] + rnd.byes
        assert sorted(here) == sorted(active)
        assert all(len(t.seats) == seats for t in rnd.tables)
        if fill == "byes":
            assert all(None not in t.seats for t in rnd.tables)
        if len(rnd.tables) * seats * (seats - 1) < 2 * len(active) and rnd.number <= 2:
            assert rnd.repeats == 0
        # Changes while the round plays: a withdrawal, a late entry.
        if active and rng.random() < 0.3:
            ev.withdraw(rng.choice(sorted(active)))
        if rng.random() < 0.3 and ev.round <= ev.settings.late:
            ev.join(f"k{joined}", f"P{joined}", None)
            joined += 1
        for i, t in enumerate(rnd.tables):
            ev.opened(rnd, i, f"t{rnd.number}.{i}")
            places = [rng.randrange(1, seats + 1) for _ in t.seats]
            ranked = sorted(places)
            ev.record(f"t{rnd.number}.{i}", [ranked.index(p) + 1 for p in places])
        ev.finish()
        again = Event.from_store(ev.to_store())
        assert again.to_store() == ev.to_store()
        assert [s.entrant for s in again.standings()] == [s.entrant for s in ev.standings()]
    lines = ev.standings()
    assert sorted(s.entrant for s in lines) == sorted(e.token for e in ev.entrants)
    assert sum(s.points for s in lines) == pytest.approx(sum(
        sum(p for p in s.rounds if p is not None) for s in lines))
    assert pairing.pairs_of([]) == set()
