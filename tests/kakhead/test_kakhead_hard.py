"""Kakhead's hard habit (``cardparty_bot_hard_move``): every card of the cheapest rank that
fits, where the normal policy plays at most two, so that four of a rank burn the pile (KH-10);
the race starts from it, and the deciding seat keeps it in its rollouts."""

from __future__ import annotations

import random
from typing import Any

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.playout import Rules
from cardparty.core.search import Budget, race_verdict
from cardparty.core.table import Table
from tests.kakhead.helpers import deal, kinds, play, position

FOUR_FIVES = ("5C", "5D", "5H", "5S")


def _hard(table: Table, seat: int) -> Move | None:
    hook: Any = table.hook
    answer: Move | None = hook.cardparty_bot_hard_move(view=lambda: table.view(seat),
                                        moves=table.legal_moves(seat), rng=random.Random(0))
    return answer


def _four_fives() -> Table:
    return position([["5S", "5H", "5D", "5C", "9C"], ["KC", "6S"]], pile=["4H"],
                    stock=["JD", "JS"])


def test_kh10_hard_plays_all_four_of_its_cheapest_rank_and_they_burn_the_pile() -> None:
    table = _four_fives()
    normal = PolicyBot("normal").choose(table, 0, random.Random(1))
    assert len(normal.cards) == 2 and {c[0] for c in normal.cards} == {"5"}
    move = _hard(table, 0)
    assert move is not None and sorted(move.cards) == sorted(FOUR_FIVES)
    events = play(table, 0, *move.cards)
    assert "burn" in kinds(events)                 # KH-10
    assert table.to_move() == (0,)                 # and plays again


def test_hard_plays_three_of_a_rank_where_normal_keeps_one() -> None:
    table = position([["6S", "6H", "6D", "KC"], ["QC"]], pile=["5H"])
    assert len(PolicyBot("normal").choose(table, 0, random.Random(1)).cards) == 2
    move = _hard(table, 0)
    assert move is not None and sorted(move.cards) == ["6D", "6H", "6S"]


def test_hard_leaves_the_swaps_and_the_pile_taken_to_the_normal_policy() -> None:
    swapping = deal([["AS", "4C", "5C"], ["6S", "7S", "8S"]], ready=False)
    assert swapping.legal_moves(0)[-1].kind == "ready"
    assert _hard(swapping, 0) is None
    stuck = position([["5S"], ["KC"]], pile=["AH"])
    assert [m.kind for m in stuck.legal_moves(0)] == ["take"]
    assert _hard(stuck, 0) is None


def test_the_race_starts_from_the_hard_habit() -> None:
    table = _four_fives()
    verdict = race_verdict(table, 0, random.Random(2), Budget(iterations=40, seconds=None))
    assert verdict is not None
    assert sorted(verdict.own.cards) == sorted(FOUR_FIVES)


def test_in_the_rollouts_the_deciding_seat_keeps_its_habit_and_the_others_play_normal() -> None:
    table = _four_fives()
    moves = table.legal_moves(0)
    mine = Rules(table, me=0).choose(table.state, 0, moves, random.Random(1))
    assert sorted(mine.cards) == sorted(FOUR_FIVES)
    other = Rules(table, me=1).choose(table.state, 0, moves, random.Random(1))
    assert len(other.cards) == 2                  # seat 0 is an opponent there: normal
    assert len(Rules(table).choose(table.state, 0, moves, random.Random(1)).cards) == 2
