"""The source's quick-reference table (docs/rules/kakhead.md), one test per row.

Each pile is built by real plays from an empty pile (``helpers.position``: the stock is empty,
so nobody draws and the hands stay exactly as written).
"""

from __future__ import annotations

from tests.kakhead.helpers import kinds, play, position, refusal


def test_kh_table_row_5_7_6_is_valid_after_a_7_the_same_or_lower() -> None:
    table = position([["5S", "6S", "QS"], ["7H", "KH"]])
    play(table, 0, "5S")
    play(table, 1, "7H")
    assert refusal(table, 0, "6S") is None
    play(table, 0, "6S")
    assert table.view(None)["zones"]["pile"] == ["5S", "7H", "6S"]


def test_kh_table_row_5_7_8_is_invalid() -> None:
    table = position([["5S", "8S", "QS"], ["7H", "KH"]])
    play(table, 0, "5S")
    play(table, 1, "7H")
    assert refusal(table, 0, "8S") == "after a 7 play 7, 6, 5, 4, 3, 2 or 10"
    assert ("8S",) not in {m.cards for m in table.legal_moves(0)}


def test_kh_table_row_5_8_is_valid_and_the_next_player_stands() -> None:
    table = position([["5S", "QS"], ["8H", "KH"], ["9D", "JD"]])
    play(table, 0, "5S")
    events = play(table, 1, "8H")
    assert {"type": "stand", "seat": 2} in events
    assert table.to_move() == (0,)


def test_kh_table_row_5_10_is_valid_the_pile_burns_and_the_same_player_plays_again() -> None:
    table = position([["5S", "QS"], ["TH", "KH"]])
    play(table, 0, "5S")
    events = play(table, 1, "TH")
    assert kinds(events) == ["play", "burn", "again"]
    assert table.view(None)["zones"]["pile"] == []
    assert table.to_move() == (1,)


def test_kh_table_row_5_4_is_invalid() -> None:
    table = position([["5S", "QS"], ["4H", "KH"]])
    play(table, 0, "5S")
    assert refusal(table, 1, "4H") == "4 is lower than the 5 in force"


def test_kh_table_row_joker_4_is_valid() -> None:
    table = position([["X", "QS"], ["4H", "KH"]])
    play(table, 0, "X")
    assert refusal(table, 1, "4H") is None
    play(table, 1, "4H")
    assert table.view(None)["counters"]["in force"] == "4"


def test_kh_table_row_joker_5_is_invalid() -> None:
    table = position([["X", "QS"], ["5H", "KH"]])
    play(table, 0, "X")
    assert refusal(table, 1, "5H") == "only a 4, 2, 3 or 10 may go on a Joker"
    assert [m.kind for m in table.legal_moves(1)] == ["take"]


def test_kh_table_row_9_3_3_the_threes_are_transparent_the_next_must_beat_9() -> None:
    table = position([["9S", "8S", "9C", "QS"], ["3H", "KH"], ["3D", "KD"]])
    play(table, 0, "9S")
    play(table, 1, "3H")
    play(table, 2, "3D")
    assert table.view(None)["counters"]["in force"] == "9"
    assert refusal(table, 0, "8S") == "8 is lower than the 9 in force"
    assert refusal(table, 0, "9C") is None


def test_kh_table_row_9_3_2_the_two_resets_the_next_may_play_anything() -> None:
    table = position([["9S", "4S", "QS"], ["3H", "KH"], ["2D", "KD"]])
    play(table, 0, "9S")
    play(table, 1, "3H")
    play(table, 2, "2D")
    assert refusal(table, 0, "4S") is None
    assert {m.cards for m in table.legal_moves(0)} == {("4S",), ("QS",)}


def test_kh_table_row_8_stands_then_3_stands_again() -> None:
    table = position([["8S", "QS"], ["KH", "AH"], ["3D", "KD"]])
    events = play(table, 0, "8S")
    assert {"type": "stand", "seat": 1} in events
    assert table.to_move() == (2,)
    events = play(table, 2, "3D")
    assert {"type": "stand", "seat": 0} in events
    assert table.to_move() == (1,)
    assert refusal(table, 1, "KH") is None


def test_kh_table_row_q_then_k_a_k_is_valid_reverses_and_the_next_must_play_a_king_or_higher(
        ) -> None:
    table = position([["QS", "JS", "AS"], ["KH", "AD", "KC", "5C"], ["KD", "JD"]])
    play(table, 0, "QS")
    assert refusal(table, 1, "KH", "AD", "KC") is None
    events = play(table, 1, "KH", "AD", "KC")
    assert "reverse" in kinds(events)
    assert table.view(None)["counters"]["direction"] == "counter-clockwise"
    assert table.to_move() == (0,)
    assert refusal(table, 0, "JS") == "J is lower than the K in force"
    assert refusal(table, 0, "AS") is None
