"""What a round scores and the standings (docs/rules/tournament.md, TO-7, TO-16, TO-22 to
TO-25), and ratings (TO-26)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from cardparty.core.tourney import ratings, scoring
from cardparty.core.tourney.scoring import OVER, STOPPED, RoundResult, TableResult


def test_to22_a_seat_scores_the_seats_it_beat_and_half_those_it_tied() -> None:
    assert [scoring.table_points((1, 2, 3, 4), s) for s in range(4)] == [3, 2, 1, 0]
    assert [scoring.table_points((2, 1, 4, 3), s) for s in range(4)] == [2, 3, 0, 1]
    assert [scoring.table_points((1, 1, 3, 4), s) for s in range(4)] == [2.5, 2.5, 1, 0]
    assert [scoring.table_points((1, 2), s) for s in range(2)] == [1, 0]
    assert [scoring.table_points((1, 1), s) for s in range(2)] == [0.5, 0.5]
    # A bot's seat counts as a seat: the entrants beside it score as if it were a player.
    rnd = RoundResult((TableResult(("a", None, "b", "c"), (2, 1, 3, 4), OVER),))
    assert scoring.round_points(rnd, 4) == {"a": 2, "b": 1, "c": 0}


def test_to23_a_duplicate_result_is_compared_with_everybody_who_held_the_same_cards() -> None:
    tables = (TableResult(("a", "b", "c", "d"), (1, 2, 3, 4), OVER),
              TableResult(("e", "f", "g", "h"), (2, 1, 4, 3), OVER),
              TableResult(("i", "j", "k", None), (1, 3, 2, 4), OVER))
    rnd = RoundResult(tables, duplicate=True)
    pts = scoring.round_points(rnd, 4)
    # Seat 0 held the same cards at every table: a first, a second, a first.
    assert pts["a"] == pts["i"] == 3 * (1 + 0.5) / 2 and pts["e"] == 0
    # Seat 1: second, first, third.
    assert (pts["b"], pts["f"], pts["j"]) == (1.5, 3, 0)
    # Seat 3: fourth, third, and a bot's fourth (a result compared, nobody's points).
    assert (pts["d"], pts["h"]) == (0.75, 3)
    alone = RoundResult(tables[:1], duplicate=True)
    assert scoring.round_points(alone, 4) == {"a": 3, "b": 2, "c": 1, "d": 0}
    # The scale is TO-22's: the most is k - 1, the least 0, the mean of a group (k - 1)/2.
    assert sum(pts[p] for p in "bfj") / 3 == 1.5
    with pytest.raises(ValueError):
        scoring.compared(1, [], 4)


def test_to7_to16_a_bye_and_a_stopped_table_score_half_the_most_and_compare_with_nobody(
        ) -> None:
    rnd = RoundResult((TableResult(("a", "b", "c", "d"), (1, 2, 3, 4), OVER),
                       TableResult(("e", "f", "g", None), None, STOPPED)),
                      byes=("x",), duplicate=True)
    pts = scoring.round_points(rnd, 4)
    assert pts["x"] == pts["e"] == pts["f"] == pts["g"] == 1.5
    assert pts["a"] == 3            # the stopped table is no result to compare with
    two = RoundResult((), byes=("y",))
    assert scoring.round_points(two, 2) == {"y": 0.5}


def test_to24_standings_by_points_then_buchholz_then_firsts_then_seed() -> None:
    r1 = RoundResult((TableResult(("a", "b"), (1, 2), OVER), TableResult(("c", "d"), (1, 2),
                                                                         OVER)))
    r2 = RoundResult((TableResult(("a", "c"), (2, 1), OVER), TableResult(("b", "d"), (1, 1),
                                                                         OVER)))
    lines = scoring.standings(["a", "b", "c", "d"], [r1, r2], 2)
    order = [(s.entrant, s.points, s.buchholz, s.firsts, s.rank) for s in lines]
    # c 2 points (met d 0.5 and a 1: Buchholz 1.5); a 1; b and d 0.5 each, d ahead on
    # Buchholz (met c 2 and b 0.5: 2.5; b met a 1 and d 0.5: 1.5), though b is the better seed.
    assert order == [("c", 2.0, 1.5, 2, 1), ("a", 1.0, 2.5, 1, 2), ("d", 0.5, 2.5, 1, 3),
                     ("b", 0.5, 1.5, 1, 4)]
    # Equal on points and Buchholz (bots only beside them): first places decide.
    bots = (None, None, None)
    r3 = RoundResult((TableResult(("x", *bots), (1, 2, 3, 4), OVER),
                      TableResult(("y", *bots), (2, 1, 3, 4), OVER)))
    r4 = RoundResult((TableResult(("x", *bots), (4, 1, 2, 3), OVER),
                      TableResult(("y", *bots), (3, 1, 2, 4), OVER)))
    tied = scoring.standings(["y", "x"], [r3, r4], 4)
    assert [(s.entrant, s.points, s.firsts, s.rank) for s in tied] == [("x", 3, 1, 1),
                                                                       ("y", 3, 0, 2)]
    # Equal on points, Buchholz and firsts: one rank shared, the seed order lists them.
    even = scoring.standings(["b", "a"], [RoundResult((TableResult(("a", "b"), (1, 1), OVER),))],
                             2)
    assert [(s.entrant, s.rank) for s in even] == [("b", 1), ("a", 1)]


def test_to25_a_round_missed_scores_nothing_and_is_shown_as_none() -> None:
    r1 = RoundResult((TableResult(("a", "b"), (1, 2), OVER),))
    r2 = RoundResult((TableResult(("a", "c"), (1, 2), OVER),), byes=("b",))
    lines = {s.entrant: s for s in scoring.standings(["a", "b", "c"], [r1, r2], 2)}
    assert lines["c"].rounds == [None, 0] and lines["c"].points == 0 and lines["c"].played == 1
    assert lines["b"].rounds == [0, 0.5] and lines["b"].byes == 1
    assert lines["a"].points == 2 and lines["a"].firsts == 2
    # A table still playing gives nothing yet.
    r3 = RoundResult((TableResult(("a", "b"), None),))
    assert {s.entrant: s.rounds[-1] for s in scoring.standings(["a", "b"], [r3], 2)} == {
        "a": None, "b": None}


def test_to26_ratings_are_openskill_plackett_luce_from_the_places() -> None:
    new = ratings.Rating()
    assert new.shown == 0.0 and (new.mu, new.sigma) == (25.0, 25 / 3)
    after = ratings.rate([new, new, new], [1, 2, 3])
    assert after[0].mu > 25 > after[2].mu and all(r.rounds == 1 for r in after)
    assert all(r.sigma < new.sigma for r in after)
    model = PlackettLuce()
    want = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 3])
    assert [round(r.mu, 9) for r in after] == [round(t[0].mu, 9) for t in want]
    tied = ratings.rate([new, new], [1, 1])
    assert tied[0].mu == tied[1].mu
    assert ratings.rate([new], [1]) == [new]
    with pytest.raises(ValueError):
        ratings.rate([new, new], [1])
    # A player who keeps winning is shown rising.
    eva, petr = ratings.Rating(), ratings.Rating()
    for _ in range(10):
        eva, petr = ratings.rate([eva, petr], [1, 2])
    assert eva.shown > 10 > petr.shown and eva.rounds == 10
