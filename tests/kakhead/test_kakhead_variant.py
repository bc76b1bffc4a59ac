"""The house rule "four in a row burns" (plugins/kakhead/four_in_a_row.py, KH-10)."""

from __future__ import annotations

import pytest

from cardparty.core.contract import Move
from cardparty.core.discovery import load_catalog
from cardparty.core.simcheck import check_random_games
from cardparty.core.table import Table
from tests.kakhead.helpers import deal, kinds, play, position

VARIANT = ["kakhead-four-in-a-row"]


def test_the_house_rule_is_installed_as_a_kakhead_variant() -> None:
    catalog = load_catalog()
    assert [v.id for v in catalog.variants_of("kakhead")] == VARIANT


def test_four_of_a_rank_across_plays_by_different_players_burn_with_the_house_rule() -> None:
    table = position([["9S", "QS"], ["9H", "9D", "KH"], ["9C", "KD"]], variants=VARIANT)
    play(table, 0, "9S")
    play(table, 1, "9H", "9D")
    events = play(table, 2, "9C")
    assert kinds(events) == ["play", "burn", "again"]
    assert events[1]["cards"] == ["9S", "9H", "9D", "9C"]
    assert table.view(None)["zones"]["pile"] == []
    assert table.to_move() == (2,)                 # who laid the fourth plays again


def test_the_same_plays_do_not_burn_without_the_house_rule() -> None:
    table = position([["9S", "QS"], ["9H", "9D", "KH"], ["9C", "KD"]])
    play(table, 0, "9S")
    play(table, 1, "9H", "9D")
    assert "burn" not in kinds(play(table, 2, "9C"))


def test_three_in_a_row_do_not_burn_and_a_run_broken_by_another_rank_does_not_count() -> None:
    table = position([["9S", "9C", "QS"], ["9H", "9D", "KH"], ["TC", "JC", "KD"]],
                     pile=["9C"], variants=VARIANT)
    play(table, 0, "QS")
    play(table, 1, "KH")
    assert table.view(None)["zones"]["pile"] == ["9C", "QS", "KH"]
    table = position([["9S", "QS"], ["9H", "9D", "KH"], ["9C", "KD"]], variants=VARIANT)
    play(table, 0, "9S")
    assert "burn" not in kinds(play(table, 1, "9H", "9D"))


def test_the_house_rule_burns_a_run_that_a_blind_card_completes() -> None:
    table = position([["9S", "QS"], ["9H", "9D", "KH"], []], blind=[[], [], ["9C", "KD"]],
                     variants=VARIANT)
    play(table, 0, "9S")
    play(table, 1, "9H", "9D")
    events = table.play(2, Move("blind", (), "0"))
    assert kinds(events) == ["turn", "burn", "again"]


def test_the_house_rule_survives_save_and_restore() -> None:
    table = deal([["9S", "9H", "QS"], ["9D", "9C", "KH"]], variants=VARIANT)
    twin = Table.restore(table.save())
    play(twin, 0, "9S", "9H")
    assert "burn" in kinds(play(twin, 1, "9D", "9C"))


@pytest.mark.slow
def test_the_house_rule_keeps_every_invariant_in_random_games() -> None:
    report = check_random_games("kakhead", 4, 25, seed=4_000, variants=VARIANT, save_every=10)
    assert report.games == 25
