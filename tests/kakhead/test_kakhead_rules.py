"""Kakhead's rules, scenario by scenario, rule id by rule id (docs/rules/kakhead.md).

Positions come from ``helpers``: ``deal`` stacks the deck (per seat 3 blind, 3 face-up, 3 hand
cards, seat 0 first; the dealer is the last seat, so seat 0 is the dealer's left), ``position``
builds a later position with every card still accounted for.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardparty.core.bots import PolicyBot
from cardparty.core.cards import canasta_deck
from cardparty.core.contract import Move
from cardparty.core.discovery import load_catalog
from cardparty.core.narrate import describe
from cardparty.core.simcheck import view_cards, visible_cards
from cardparty.core.simulate import play_out, simulate
from cardparty.core.table import IllegalMove, Table, TableError, open_table
from cardparty.plugins.kakhead.rules import (
    BOT_PATIENCE,
    MAX_SWAPS,
    OFFER_DEFAULT,
    OFFER_MAX,
    OFFER_MIN,
)
from tests.kakhead.helpers import deal, kinds, play, position, refusal


def legal(table: Table, seat: int) -> set[tuple[str, tuple[str, ...], str | None]]:
    return {(m.kind, m.cards, m.choice) for m in table.legal_moves(seat)}


# --- KH-1, KH-2: cards and players -----------------------------------------------------------

def test_kh1_the_deck_is_two_french_decks_and_four_jokers() -> None:
    info = load_catalog().game("kakhead")
    deck = Counter(info.deck)
    assert len(info.deck) == 108
    assert deck["X"] == 4
    assert all(deck[r + s] == 2 for r in "23456789TJQKA" for s in "SHDC")
    assert Counter(canasta_deck()) == deck


@pytest.mark.parametrize("players", [2, 5, 8])
def test_kh2_two_to_eight_players_may_sit_down(players: int) -> None:
    table = open_table("kakhead", players, seed=1)
    assert table.to_move() == tuple(range(players))


@pytest.mark.parametrize("players", [1, 9])
def test_kh2_fewer_than_two_or_more_than_eight_is_refused(players: int) -> None:
    with pytest.raises(TableError, match="2 to 8 players"):
        open_table("kakhead", players, seed=1)


# --- KH-3: the deal and the swap phase -------------------------------------------------------

def test_kh3_each_player_gets_three_blind_three_face_up_three_in_hand_the_rest_is_the_stock(
        ) -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"]],
                 faceup=[["QS", "QH", "2D"], ["3C", "TC", "X"]],
                 blind=[["4S", "4H", "4D"], ["8S", "8H", "8D"]], ready=False)
    view = table.view(0)
    assert view["phase"] == "swap"
    assert view["hand"] == ["5S", "9H", "KD"]
    assert view["players"][0]["zones"] == {"face-up": ["QS", "QH", "2D"], "blind": 3}
    assert view["players"][1]["zones"] == {"face-up": ["3C", "TC", "X"], "blind": 3}
    assert view["players"][1]["count"] == 3
    assert view["zones"]["stock"] == 108 - 2 * 9
    assert view["zones"]["pile"] == []


def test_kh3_blind_cards_are_shown_to_nobody_not_even_their_owner() -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"]],
                 blind=[["4S", "4H", "4D"], ["8S", "8H", "8D"]], ready=False)
    for seat in (None, 0, 1):
        view = table.view(seat)
        assert not view_cards(view) - visible_cards(table, seat)
        assert all(isinstance(p["zones"]["blind"], int) for p in view["players"])
    assert "4S" not in view_cards(table.view(0))


def test_kh3_in_the_swap_phase_everybody_moves_at_once_and_may_swap_hand_and_face_up() -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"]],
                 faceup=[["QS", "QH", "2D"], None], ready=False)
    assert table.to_move() == (0, 1)
    table.play(0, Move("swap", ("5S", "2D")))
    view = table.view(0)
    assert sorted(view["hand"]) == ["2D", "9H", "KD"]
    assert sorted(view["players"][0]["zones"]["face-up"]) == ["5S", "QH", "QS"]
    assert table.to_move() == (0, 1)


def test_kh3_a_swap_must_name_a_hand_card_and_a_face_up_card() -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"]],
                 faceup=[["QS", "QH", "2D"], None], ready=False)
    with pytest.raises(IllegalMove, match="not among your face-up cards"):
        table.play(0, Move("swap", ("5S", "AH")))
    with pytest.raises(IllegalMove, match="not in your hand"):
        table.play(0, Move("swap", ("QS", "2D")))
    with pytest.raises(IllegalMove, match="only swap"):
        play(table, 0, "5S")


def test_kh3_play_starts_only_when_every_player_is_ready() -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"], ["8C", "8D", "JH"]], ready=False)
    table.play(1, Move("ready"))
    assert table.to_move() == (0, 2)
    assert table.legal_moves(1) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        table.play(1, Move("swap", ("6C", "9S")))
    table.play(0, Move("ready"))
    assert table.view(None)["phase"] == "swap"
    events = table.play(2, Move("ready"))
    assert "start" in kinds(events)
    assert table.view(None)["phase"] == "play"
    assert table.to_move() == (0,)


def test_kh3_decision_swaps_are_bounded_so_the_swap_phase_ends() -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"]],
                 faceup=[["QS", "JH", "2D"], None], ready=False)
    for i in range(MAX_SWAPS):
        hand = table.view(0)["hand"]
        up = table.view(0)["players"][0]["zones"]["face-up"]
        table.play(0, Move("swap", (hand[i % 3], up[i % 3])))
    assert legal(table, 0) == {("ready", (), None)}
    with pytest.raises(IllegalMove, match="at most"):
        table.play(0, Move("swap", ("5S", "QS")))


# --- KH-4: who starts, who deals -------------------------------------------------------------

def test_kh4_the_lowest_ordered_card_in_hand_starts() -> None:
    table = deal([["6S", "7S", "8S"], ["5H", "KH", "AH"], ["9D", "JD", "QD"]])
    assert table.to_move() == (1,)


def test_kh4_twos_and_threes_are_outside_the_order_and_do_not_start() -> None:
    table = deal([["2S", "3S", "QS"], ["JH", "KH", "AH"]])
    assert table.to_move() == (1,)


@pytest.mark.parametrize(("dealer", "starts"), [(2, 0), (0, 2), (1, 2)])
def test_kh4_a_tie_goes_to_the_first_such_player_clockwise_from_the_dealers_left(
        dealer: int, starts: int) -> None:
    table = deal([["5S", "7S", "8S"], ["6H", "KH", "AH"], ["5D", "JD", "QD"]], dealer=dealer)
    assert table.to_move() == (starts,)


def test_kh4_hands_of_twos_and_threes_only_let_the_dealers_left_start() -> None:
    table = deal([["2S", "3S", "2H"], ["3H", "2D", "3D"], ["2C", "3C", "2C"]], dealer=1)
    assert table.to_move() == (2,)


def test_kh4_the_loser_deals_the_next_game() -> None:
    table = position([["9S"], ["4S", "5S"]], turn=0)
    play(table, 0, "9S")
    result = table.result()
    assert result is not None and result.next_dealer == 1


def test_kh4_the_dealer_setting_must_name_a_seat_at_the_table() -> None:
    with pytest.raises(TableError, match="no seat 5"):
        open_table("kakhead", 3, {"dealer": 5}, seed=1)


# --- KH-5: a play ----------------------------------------------------------------------------

def test_kh5_on_an_empty_pile_anything_may_be_played() -> None:
    table = deal([["5S", "9H", "KD"], ["6C", "7C", "AH"]])
    assert {m.cards for m in table.legal_moves(0)} == {("5S",), ("9H",), ("KD",)}
    play(table, 0, "KD")
    assert table.view(None)["zones"]["pile"] == ["KD"]


def test_kh5_the_same_or_higher_value_fits_a_lower_one_is_refused() -> None:
    table = deal([["5S", "9H", "KD"], ["9C", "7C", "AH"]])
    play(table, 0, "9H")
    assert "lower than the 9" in (refusal(table, 1, "7C") or "")
    assert refusal(table, 1, "9C") is None
    assert refusal(table, 1, "AH") is None


def test_kh5_several_cards_of_one_rank_go_together_and_every_count_is_listed() -> None:
    table = deal([["9S", "9H", "9D"], ["JC", "QC", "AH"]])
    plays = {m.cards for m in table.legal_moves(0) if m.kind == "play"}
    assert plays == {("9D",), ("9D", "9H"), ("9D", "9H", "9S")}
    play(table, 0, "9H", "9S")                    # unlisted suits and order: still legal
    assert table.view(None)["zones"]["pile"] == ["9H", "9S"]


def test_kh5_cards_of_different_ranks_never_go_together() -> None:
    table = deal([["9S", "9H", "JD"], ["JC", "QC", "AH"]])
    assert "one rank" in (refusal(table, 0, "9S", "JD") or "")


# --- KH-6: drawing ---------------------------------------------------------------------------

def test_kh6_after_a_play_the_player_draws_back_up_to_three_while_the_deck_lasts() -> None:
    table = deal([["9S", "9H", "JD"], ["JC", "QC", "AH"]], stock=["4C", "5C", "6C"])
    events = play(table, 0, "9S", "9H")
    assert sorted(table.view(0)["hand"]) == ["4C", "5C", "JD"]
    drawn = [e for e in events if e["type"] == "draw"]
    assert drawn and drawn[0]["private"] and drawn[0]["cards"] == ["4C", "5C"]
    assert table.events_for(1)[-1] == {"type": "draw", "seat": 0, "private": True,
                                       "count": 2}


def test_kh6_the_last_cards_of_the_deck_are_drawn_and_then_nothing() -> None:
    table = position([["9S", "9H", "JD"], ["JC", "QC", "AH"]], faceup=[["QS"], ["QH"]],
                     stock=["4C"])
    play(table, 0, "9S", "9H")
    assert sorted(table.view(0)["hand"]) == ["4C", "JD"]
    assert table.view(None)["zones"]["stock"] == 0
    play(table, 1, "JC")
    assert sorted(table.view(1)["hand"]) == ["AH", "QC"]


def test_kh6_a_player_who_burns_draws_before_he_plays_again() -> None:
    table = deal([["TS", "5H", "6D"], ["JC", "QC", "AH"]], stock=["8C", "9C"])
    play(table, 0, "5H")
    play(table, 1, "JC")
    events = play(table, 0, "TS")
    assert kinds(events)[:3] == ["play", "burn", "draw"]
    assert table.to_move() == (0,)
    assert len(table.view(0)["hand"]) == 3


# --- KH-7: taking the pile -------------------------------------------------------------------

def test_kh7_with_no_valid_play_the_player_takes_the_whole_pile_and_the_next_starts_fresh(
        ) -> None:
    table = position([["4S", "5S", "6S"], ["KC"], ["9D", "9C"]], pile=["JD", "KH"], turn=0)
    assert legal(table, 0) == {("take", (), None)}
    events = table.play(0, Move("take"))
    assert events[0] == {"type": "take", "seat": 0, "cards": ["JD", "KH"]}
    assert sorted(table.view(0)["hand"]) == ["4S", "5S", "6S", "JD", "KH"]
    assert table.view(None)["zones"]["pile"] == []
    assert table.to_move() == (1,)


def test_kh7_a_player_with_a_valid_play_may_not_take_the_pile() -> None:
    table = position([["4S", "AS"], ["KC"]], pile=["KH"], turn=0)
    assert ("take", (), None) not in legal(table, 0)
    with pytest.raises(IllegalMove, match="you have a valid play"):
        table.play(0, Move("take"))


# --- KH-8: hand, face-up, blind --------------------------------------------------------------

def test_kh8_face_up_cards_wait_until_hand_and_deck_are_empty() -> None:
    table = position([["4S"], ["KC"]], faceup=[["9S"], ["9H"]], stock=["5D"], pile=["4H"])
    assert "hand and the deck are empty" in (refusal(table, 0, "9S") or "")
    table = position([["4S"], ["KC"]], faceup=[["9S"], ["9H"]], pile=["4H"])
    assert "hand and the deck are empty" in (refusal(table, 0, "9S") or "")


def test_kh8_with_hand_and_deck_empty_the_face_up_cards_are_played_several_of_a_rank_together(
        ) -> None:
    table = position([[], ["KC"]], faceup=[["9S", "9H", "5D"], ["9D"]], pile=["6H"])
    assert {m.cards for m in table.legal_moves(0)} == {("9H",), ("9H", "9S")}
    events = play(table, 0, "9S", "9H")
    assert events[0]["source"] == "face-up"
    assert table.view(None)["players"][0]["zones"]["face-up"] == ["5D"]


def test_kh8_no_face_up_card_fits_the_pile_is_taken_and_the_face_up_cards_stay() -> None:
    table = position([[], ["KC"]], faceup=[["5S", "6H"], ["9D"]], pile=["QH"])
    assert legal(table, 0) == {("take", (), None)}
    table.play(0, Move("take"))
    assert table.view(0)["hand"] == ["QH"]
    assert table.view(None)["players"][0]["zones"]["face-up"] == ["5S", "6H"]


def test_kh8_a_player_never_mixes_sources_in_one_play() -> None:
    table = position([["9S"], ["KC"]], faceup=[["9H"], ["9D"]], pile=["6H"])
    assert refusal(table, 0, "9S", "9H") is not None


def test_kh8_blind_cards_are_turned_one_per_turn_and_a_fitting_one_is_played() -> None:
    table = position([[], ["KC", "KD"]], blind=[["QS", "4D", "5C"], ["9D"]], pile=["9H"])
    assert legal(table, 0) == {("blind", (), "0"), ("blind", (), "1"), ("blind", (), "2")}
    assert table.legal_moves(0)[0].label == "turn blind card 1"
    events = table.play(0, Move("blind", (), "0"))
    assert events[0] == {"type": "turn", "seat": 0, "cards": ["QS"], "fits": True}
    assert table.view(None)["zones"]["pile"] == ["9H", "QS"]
    assert table.view(None)["players"][0]["zones"]["blind"] == 2
    assert table.to_move() == (1,)


def test_kh8_a_blind_card_that_does_not_fit_is_taken_with_the_pile_seen_only_by_its_owner(
        ) -> None:
    table = position([[], ["KC", "KD"]], blind=[["4D", "QS"], ["9D"]], pile=["9H", "JC"])
    events = table.play(0, Move("blind", (), "0"))
    assert events[0] == {"type": "turn", "seat": 0, "cards": ["4D"], "fits": False,
                         "private": True}
    assert sorted(table.view(0)["hand"]) == ["4D", "9H", "JC"]
    assert table.view(None)["zones"]["pile"] == []
    assert table.events_for(1)[0]["count"] == 1 and "cards" not in table.events_for(1)[0]
    assert table.to_move() == (1,)


def test_kh8_blind_cards_cannot_be_named_or_taken_instead_of_turned() -> None:
    table = position([[], ["KC"]], blind=[["4D", "QS"], ["9D"]], pile=["9H"])
    assert "one at a time" in (refusal(table, 0, "4D") or "")
    with pytest.raises(IllegalMove, match="turn a blind card"):
        table.play(0, Move("take"))
    with pytest.raises(IllegalMove, match="from 0 to 1"):
        table.play(0, Move("blind", (), "2"))


def test_kh8_a_player_with_no_card_left_anywhere_has_finished() -> None:
    table = position([[], ["KC"], ["5H"]], blind=[["QS"], ["9D"], ["9C"]], pile=["9H"])
    events = table.play(0, Move("blind", (), "0"))
    assert {"type": "out", "seat": 0, "place": 1} in events
    assert table.view(None)["players"][0]["status"] == "out"
    assert table.to_move() == (1,)


# --- KH-9: the special cards (the quick-reference rows are in test_kakhead_quick_reference) ---

@pytest.mark.parametrize("top", ["X", "7S", "AS", "KD"])
def test_kh9_a_two_fits_anything_and_resets_the_pile(top: str) -> None:
    table = position([["2S", "QS"], ["4C", "KC"]], pile=[top])
    play(table, 0, "2S")
    assert {m.cards for m in table.legal_moves(1)} == {("4C",), ("KC",)}
    assert table.view(None)["counters"]["must play"] == "anything"


def test_kh9_a_three_is_transparent_on_a_seven_the_limit_stays() -> None:
    table = position([["3S", "QS"], ["8C", "6C"]], pile=["7H"])
    play(table, 0, "3S")
    assert "after a 7" in (refusal(table, 1, "8C") or "")
    assert refusal(table, 1, "6C") is None


def test_kh9_a_three_on_a_joker_leaves_only_4_2_3_or_10() -> None:
    table = position([["3S", "QS"], ["AC", "4C", "TD"]], pile=["X"])
    play(table, 0, "3S")
    assert {m.cards for m in table.legal_moves(1)} == {("4C",), ("TD",)}


def test_kh9_a_three_on_an_empty_pile_lets_anything_follow() -> None:
    table = position([["3S", "QS"], ["4C", "KC"]])
    play(table, 0, "3S")
    assert {m.cards for m in table.legal_moves(1)} == {("4C",), ("KC",)}


def test_kh9_a_seven_allows_only_7_6_5_4_3_2_or_10_next() -> None:
    table = position([["7S", "QS"], ["4C", "5C", "6C", "7C", "8C", "9C", "X", "AC", "2C", "3C",
                                     "TC"]])
    play(table, 0, "7S")
    ranks = {m.cards[0][0] for m in table.legal_moves(1)}
    assert ranks == {"4", "5", "6", "7", "2", "3", "T"}


def test_kh9_the_next_card_played_ends_the_seven_limit() -> None:
    table = position([["7S", "8S"], ["6C", "QC"]])
    play(table, 0, "7S")
    play(table, 1, "6C")
    assert refusal(table, 0, "8S") is None


def test_kh9_k_eights_played_together_make_the_next_k_players_stand() -> None:
    table = position([["8S", "8H", "QS"], ["KC"], ["KD"], ["KH"]])
    events = play(table, 0, "8S", "8H")
    assert [e["seat"] for e in events if e["type"] == "stand"] == [1, 2]
    assert table.to_move() == (3,)


def test_kh9_an_eight_among_two_players_lets_the_player_go_again() -> None:
    table = position([["8S", "QS"], ["KC"]])
    play(table, 0, "8S")
    assert table.to_move() == (0,)


def test_kh9_a_three_on_two_eights_makes_two_players_stand_again() -> None:
    table = position([["8S", "8H", "QS"], ["KC"], ["3D", "KD"], ["KH"], ["JS"]])
    play(table, 0, "8S", "8H")
    assert table.to_move() == (3,)
    table = position([["QS"], ["KC"], ["3D", "KD"], ["KH"], ["JS"]], pile=["8S", "8H"],
                     force_count=2, turn=2)
    events = play(table, 2, "3D")
    assert [e["seat"] for e in events if e["type"] == "stand"] == [3, 4]
    assert table.to_move() == (0,)


@pytest.mark.parametrize("top", ["X", "7S", "AS", "4D"])
def test_kh9_a_ten_fits_anything_burns_the_pile_and_the_player_plays_again(top: str) -> None:
    table = position([["TS", "QS"], ["KC"]], pile=["9D", top])
    events = play(table, 0, "TS")
    assert kinds(events) == ["play", "burn", "again"]
    assert events[1]["cards"] == ["9D", top, "TS"]
    assert table.view(None)["zones"]["pile"] == []
    assert table.view(None)["zones"]["burned"] >= 3
    assert table.to_move() == (0,)


def test_kh9_the_joker_is_the_highest_card_it_fits_on_an_ace() -> None:
    table = position([["X", "QS"], ["KC"]], pile=["AH"])
    assert refusal(table, 0, "X") is None


def test_kh9_decision_a_joker_does_not_fit_on_a_joker() -> None:
    table = position([["X", "QS"], ["KC"]], pile=["X"])
    assert "only a 4, 2, 3 or 10" in (refusal(table, 0, "X") or "")


def test_kh9_k_a_k_counts_as_a_king_and_does_not_fit_on_an_ace() -> None:
    table = position([["KS", "AH", "KD", "4S"], ["KC"]], pile=["AS"])
    assert refusal(table, 0, "KS", "AH", "KD") is not None
    table = position([["KS", "AH", "KD", "4S"], ["KC"]], pile=["7S"])
    assert refusal(table, 0, "KS", "AH", "KD") is not None


def test_kh9_k_a_k_must_be_king_ace_king_in_that_order() -> None:
    table = position([["KS", "AH", "KD", "4S"], ["KC"]], pile=["QS"])
    assert "one rank" in (refusal(table, 0, "KS", "KD", "AH") or "")
    listed = [m for m in table.legal_moves(0) if len(m.cards) == 3]
    assert [m.cards for m in listed] == [("KD", "AH", "KS")]


def test_kh9_a_three_on_k_a_k_keeps_the_king_in_force_without_turning_again() -> None:
    table = position([["KS", "AH", "KD", "4S"], ["3C", "QC"], ["AC"]], pile=["QS"])
    play(table, 0, "KS", "AH", "KD")
    assert table.to_move() == (2,)
    play(table, 2, "AC")
    table = position([["KS", "AH", "KD", "4S"], ["3C", "QC"], ["3D", "QD"]], pile=["QS"])
    play(table, 0, "KS", "AH", "KD")
    play(table, 2, "3D")
    assert table.to_move() == (1,)                 # counter-clockwise still: 2 -> 1
    assert "lower than the K" in (refusal(table, 1, "QC") or "")


# --- KH-10: four of a kind -------------------------------------------------------------------

def test_kh10_four_cards_of_one_rank_in_one_turn_burn_and_the_player_plays_again() -> None:
    table = position([["6S", "6H", "6D", "6C", "QS"], ["KC"]], pile=["5H"])
    events = play(table, 0, "6S", "6H", "6D", "6C")
    assert kinds(events) == ["play", "burn", "again"]
    assert table.view(None)["zones"]["pile"] == []
    assert table.to_move() == (0,)


def test_kh10_five_of_a_rank_burn_too() -> None:
    table = position([["9S", "9H", "9D", "9C", "9S", "QS"], ["KC"]])
    assert "burn" in kinds(play(table, 0, "9S", "9H", "9D", "9C", "9S"))


def test_kh10_four_eights_burn_and_nobody_stands() -> None:
    table = position([["8S", "8H", "8D", "8C", "QS"], ["KC"], ["KD"]])
    events = play(table, 0, "8S", "8H", "8D", "8C")
    assert "stand" not in kinds(events)
    assert table.to_move() == (0,)


def test_kh10_four_of_a_rank_across_plays_do_not_burn_without_the_house_rule() -> None:
    table = position([["6S", "6H", "QS"], ["6D", "6C", "KC"]])
    play(table, 0, "6S", "6H")
    events = play(table, 1, "6D", "6C")
    assert "burn" not in kinds(events)
    assert table.view(None)["zones"]["pile"] == ["6S", "6H", "6D", "6C"]


# --- KH-11: places ---------------------------------------------------------------------------

def test_kh11_the_game_goes_on_after_the_first_finisher_until_one_holds_cards() -> None:
    table = position([["KS"], ["4S", "5S"], ["JS"]], pile=["7C"], turn=1)
    play(table, 1, "4S")
    play(table, 2, "JS")
    assert table.result() is None
    assert table.view(None)["players"][2]["status"] == "out"
    play(table, 0, "KS")
    result = table.result()
    assert result is not None
    assert result.places == (2, 3, 1)
    assert result.outcome == "finished"
    assert table.view(1)["players"][1]["status"] == "Kakhead"


def test_kh11_finishing_on_an_eight_still_makes_the_next_stand() -> None:
    table = position([["8S"], ["KC"], ["KD"], ["KH"]])
    play(table, 0, "8S")
    assert table.to_move() == (2,)


def test_kh11_finishing_with_a_burn_hands_the_fresh_pile_to_the_next() -> None:
    table = position([["TS"], ["KC"], ["KD"]], pile=["9H"])
    events = play(table, 0, "TS")
    assert "again" not in kinds(events)
    assert table.to_move() == (1,)
    assert table.view(None)["zones"]["pile"] == []


# --- KH-12: the draw offer -------------------------------------------------------------------

def _stalled(idle: int = OFFER_DEFAULT - 1, offer_after: int | None = None) -> Table:
    """A four-player position just short of a stretch without progress (the table's
    ``offer_after`` setting, default 30)."""
    settings = {} if offer_after is None else {"offer_after": offer_after}
    return position([["5S", "6S"], ["5H", "6H"], ["5D", "6D"], []],
                    faceup=[["QS"], ["QH"], ["QD"], []], finished=[3], idle=idle,
                    settings=settings)


def test_kh12_a_draw_may_not_be_offered_before_a_long_stretch_without_progress() -> None:
    table = _stalled(idle=0)
    assert ("offer", (), None) not in legal(table, 0)
    with pytest.raises(IllegalMove, match="without progress"):
        table.play(0, Move("offer"))


def test_kh12_after_a_long_stretch_without_progress_a_draw_may_be_offered() -> None:
    table = _stalled()
    play(table, 0, "5S")
    assert table.view(None)["counters"]["moves without progress"] == OFFER_DEFAULT
    assert ("offer", (), None) in legal(table, 1)


def test_kh12_when_every_other_player_still_in_accepts_they_share_the_remaining_places(
        ) -> None:
    table = _stalled()
    play(table, 0, "5S")
    table.play(1, Move("offer"))
    assert table.to_move() == (0, 2)               # seat 3 has finished: not asked
    table.play(2, Move("accept"))
    assert table.result() is None
    table.play(0, Move("accept"))
    result = table.result()
    assert result is not None
    assert result.outcome == "draw agreed"
    assert result.places == (2, 2, 2, 1)


def test_kh12_one_refusal_ends_the_offer_and_the_offerer_plays_on() -> None:
    table = _stalled()
    play(table, 0, "5S")
    table.play(1, Move("offer"))
    table.play(2, Move("accept"))
    table.play(0, Move("refuse"))
    assert table.result() is None
    assert table.to_move() == (1,)
    assert ("offer", (), None) not in legal(table, 1)   # not again at once
    with pytest.raises(IllegalMove, match="not your turn"):
        table.play(2, Move("accept"))


def test_kh12_progress_resets_the_stretch() -> None:
    table = _stalled()
    for seat, card in [(0, "5S"), (1, "5H"), (2, "5D"), (0, "6S"), (1, "6H"), (2, "6D")]:
        play(table, seat, card)
    assert ("offer", (), None) in legal(table, 0)
    play(table, 0, "QS")                           # a face-up card: progress
    assert table.view(None)["counters"].get("moves without progress") is None
    assert ("offer", (), None) not in legal(table, 1)


def test_kh12_revised_the_offer_opens_after_the_tables_setting_default_30_bounds_10_200(
        ) -> None:
    info = load_catalog().game("kakhead")
    setting = info.settings["offer_after"]
    assert (setting.default, setting.min, setting.max) == (30, 10, 200)
    assert (OFFER_DEFAULT, OFFER_MIN, OFFER_MAX) == (30, 10, 200)
    for bad in (9, 201):
        with pytest.raises(TableError, match="offer_after"):
            open_table("kakhead", 2, {"offer_after": bad})
    # a dealt game at 10: seat 0 plays a Joker (and draws: progress); seat 1 holds nothing
    # that goes on it and takes the pile: one move without progress of the ten
    table = deal([["X", "5S", "6S"], ["5H", "6H", "7H"]], stock=["8S", "8H", "8D"],
                 settings={"offer_after": 10})
    play(table, 0, "X")
    table.play(1, Move("take"))
    counters = table.view(None)["counters"]
    assert counters["moves without progress"] == 1
    assert counters["draw may be offered at"] == 10
    with pytest.raises(IllegalMove, match="only after 10 moves without progress"):
        table.play(0, Move("offer"))


def _no_progress_move(table: Table) -> None:
    """Take the pile if that is the move, else play the highest single card (no stock left,
    so a hand card played draws nothing: no progress)."""
    seat = table.to_move()[0]
    moves = table.legal_moves(seat)
    take = [m for m in moves if m.kind == "take"]
    singles = [m for m in moves if m.kind == "play" and len(m.cards) == 1]
    table.play(seat, take[0] if take else max(singles, key=lambda m: "5678X".index(m.cards[0][0])))


def test_kh12_revised_at_ten_the_offer_opens_after_ten_and_after_a_refusal_ten_again() -> None:
    table = position([["X", "5S", "5H", "6S", "6H", "7S"], ["X", "5D", "5C", "6D", "6C", "7D"]],
                     faceup=[["QS"], ["QH"]], idle=8, settings={"offer_after": 10})
    play(table, 0, "X")                                    # the ninth move without progress
    assert ("offer", (), None) not in legal(table, 1)
    table.play(1, Move("take"))                            # nothing goes on a Joker: the tenth
    assert ("offer", (), None) in legal(table, 0)
    offer = next(m for m in table.legal_moves(0) if m.kind == "offer")
    assert offer.label == "offer a draw"                   # a labelled move like any other
    table.play(0, Move("offer"))
    assert {m.label for m in table.legal_moves(1)} == {"accept the draw", "refuse the draw"}
    table.play(1, Move("refuse"))
    assert table.to_move() == (0,)
    for k in range(10):                                    # as many again: ten moves
        assert ("offer", (), None) not in legal(table, table.to_move()[0]), k
        _no_progress_move(table)
    assert table.view(None)["counters"]["moves without progress"] == 22
    assert ("offer", (), None) in legal(table, table.to_move()[0])


def test_kh12_bots_offer_a_draw_once_the_game_really_cycles_and_accept_one() -> None:
    early = _stalled()
    play(early, 0, "5S")                             # 30 moves without progress: listed
    assert ("offer", (), None) in legal(early, 1)
    assert PolicyBot("normal").choose(early, 1, random.Random(3)).kind != "offer"
    table = _stalled(idle=BOT_PATIENCE - 1)
    play(table, 0, "5S")
    bot, rng = PolicyBot("easy"), random.Random(3)
    assert bot.choose(table, 1, rng).kind == "offer"
    table.play(1, Move("offer"))
    assert bot.choose(table, 0, rng).kind == "accept"
    assert PolicyBot("normal").choose(table, 2, rng).kind == "accept"


def test_kh12_random_bots_sometimes_refuse_an_early_offer_and_basic_ones_never() -> None:
    table = _stalled()
    play(table, 0, "5S")
    table.play(1, Move("offer"))
    rng = random.Random(5)
    answers = {PolicyBot("easy").choose(table, 0, rng).kind for _ in range(40)}
    assert answers == {"accept", "refuse"}
    assert {PolicyBot("normal").choose(table, 0, rng).kind for _ in range(40)} == {"accept"}


def test_kh12_random_bot_games_always_end_and_the_report_counts_the_draws() -> None:
    report = simulate("kakhead", 3, 30, seed=500)
    assert sum(report.outcomes.values()) == 30
    assert set(report.outcomes) == {"finished", "draw agreed"}   # these seeds hold both
    assert report.outcomes["finished"] > report.outcomes["draw agreed"]


# --- the generic view ------------------------------------------------------------------------

def test_the_view_names_the_card_in_force_and_what_may_follow() -> None:
    table = position([["7S", "QS"], ["KC"]])
    play(table, 0, "7S")
    counters = table.view(1)["counters"]
    assert counters["in force"] == "7"
    assert counters["must play"] == "7 or lower, 3, 2 or 10"
    assert counters["direction"] == "clockwise"


def test_a_basic_bot_plays_its_cheapest_rank_and_keeps_the_specials() -> None:
    table = position([["TS", "2S", "6H", "6D", "9C"], ["KC"]], pile=["5H"])
    move = PolicyBot("normal").choose(table, 0, random.Random(1))
    assert move.cards in {("6D", "6H"), ("6H", "6D")}


def test_every_event_of_a_game_reads_as_a_sentence_for_every_seat() -> None:
    table = open_table("kakhead", 3, seed=11)
    play_out(table, random.Random(11))
    assert table.result() is not None
    names = table.names
    for seat in (None, 0, 1, 2):
        for event in table.events_for(seat):
            said = describe(event, names, table.hook)
            assert said and said == table.hook.cardparty_describe(event=event, names=names)


def test_basic_bots_play_games_to_a_kakhead() -> None:
    for seed in range(5):
        table = open_table("kakhead", 4, seed=seed)
        result = play_out(table, random.Random(seed), bot=PolicyBot("normal"))
        assert result.outcome == "finished"
        assert sorted(result.places) == [1, 2, 3, 4]
        assert result.next_dealer == result.places.index(4)


def test_kh12_revised_the_lobby_create_form_offers_the_setting_with_its_bounds() -> None:
    """The setting is declared (``cardparty_game_info``), so the lobby's create form lists it
    generically, bounded 10-200, and sends it only when changed."""
    from cardparty.client.dialog import CreateForm

    catalog = load_catalog()
    wire = {**catalog.game("kakhead").to_wire(),
            "variants": [v.to_wire() for v in catalog.variants_of("kakhead")]}
    sent: list[dict] = []
    form = CreateForm([wire], sent.append)
    row = next(r for r in form.rows if r.key == "setting:offer_after")
    assert (row.value, row.min, row.max) == (30, 10, 200)
    assert "draw" in row.help
    assert "offer_after" not in form.request()["settings"]
    form.cursor = form.rows.index(row)
    for _ in range(25):
        form.key("left")
    assert row.value == 10                                   # held at the lower bound
    assert form.request()["settings"]["offer_after"] == 10
    table = open_table("kakhead", 2, form.request()["settings"])
    assert table.settings["offer_after"] == 10
