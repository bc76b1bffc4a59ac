"""Pikáč's rules, scenario by scenario, each citing its rule id (docs/rules/pikac.md).

Positions are built with the ``deck`` setting (tests/pikac/helpers.py): seat 0 takes the first
cards, then seat 1, ...; then the starter; then the stock, top first. The dealer is the last
seat, so seat 0 starts and play goes clockwise 0 → 1 → 2 ...
"""

from __future__ import annotations

from collections import Counter

import msgpack
import pytest

from cardparty.core.contract import Move
from cardparty.core.i18n import set_language, translate
from cardparty.core.narrate import describe
from cardparty.core.simcheck import view_cards, visible_cards
from cardparty.core.table import IllegalMove, Table, TableError, open_table
from cardparty.plugins.pikac.deck import CLASS, DECK, FUNCTION, NORMAL
from cardparty.plugins.pikac.rules import MOVE_LIMIT

from .helpers import (
    count,
    counters,
    deal,
    draw,
    hand,
    kinds,
    plays,
    refusal,
    status,
    stops,
    suit,
    take,
    throw,
    turn,
)

# --- cards and players -----------------------------------------------------------------------


def test_pk1_the_deck_is_two_french_decks_and_four_jokers() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 108
    assert counts["X"] == 4
    assert all(counts[r + s] == 2 for r in "23456789TJQKA" for s in "SHDC")
    table = open_table("pikac", 3, {"dealer": 0}, seed=1)
    table.play(0, Move("deal", (), "7"))
    assert sum(len(z.cards) for z in table.zones()) == 108


def test_pk2_two_to_eight_players() -> None:
    for players in (2, 8):
        assert open_table("pikac", players, seed=1).players == players
    for players in (1, 9):
        with pytest.raises(TableError, match="2 to 8 players"):
            open_table("pikac", players, seed=1)


def test_pk3_the_three_classes() -> None:
    normal = {c for c in CLASS if CLASS[c] == NORMAL}
    function = {c for c in CLASS if CLASS[c] == FUNCTION}
    assert normal == {r + s for r in "345689T" for s in "SHDC"} | {"JH", "JD"}
    assert function == ({"2" + s for s in "SHDC"} | {"7" + s for s in "SHDC"}
                        | {"K" + s for s in "SHDC"} | {"JC", "JS", "X"})
    assert {c for c in CLASS if c[0] in "QA"} == set(CLASS) - normal - function
    # J♥ is normal, so it cannot continue a chain; J♣ is a function card, so it can.
    table = deal([["7H", "3C"], ["JH", "JC"], ["4C", "4D"]])
    throw(table, 0, "7H")
    assert "function card" in (refusal(table, 1, "JH") or "")
    assert refusal(table, 1, "JC") is None


# --- deal and start --------------------------------------------------------------------------


def test_pk4_first_dealer_at_random_then_the_setting_fixes_it() -> None:
    dealers = {open_table("pikac", 4, seed=s).to_move()[0] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert open_table("pikac", 4, {"dealer": 2}, seed=5).to_move() == (2,)
    with pytest.raises(TableError, match="no seat 4"):
        open_table("pikac", 4, {"dealer": 4}, seed=5)


def test_pk5_the_dealer_chooses_the_hand_size_as_a_move() -> None:
    table = open_table("pikac", 8, {"dealer": 3}, seed=2)
    assert table.to_move() == (3,)
    assert table.view(None)["phase"] == "deal"
    sizes = [m.choice for m in table.legal_moves(3)]
    assert sizes[0] == "7"                                    # the default offered first
    assert sorted(map(int, sizes)) == list(range(1, 14))      # 8 × 13 + 1 ≤ 108 < 8 × 14 + 1
    assert table.legal_moves(0) == []
    assert table.refusal(0, Move("deal", (), "7")) == "it is not your turn"
    assert "from 1 to 13" in (table.refusal(3, Move("deal", (), "14")) or "")
    assert "hand size" in (table.refusal(3, Move("draw")) or "")
    table.play(3, Move("deal", (), "13"))
    assert [p["count"] for p in table.view(None)["players"]] == [13] * 8
    assert table.view(None)["zones"]["stock"] == 108 - 8 * 13 - 1
    two = open_table("pikac", 2, {"dealer": 0}, seed=2)
    assert max(int(m.choice or 0) for m in two.legal_moves(0)) == 53


def test_pk6_the_starter_is_turned_face_up_and_its_effect_never_applies() -> None:
    table = deal([["KS", "7S", "2H", "3C"], ["4C", "4D", "6C", "6D"]], starter="7H")
    assert table.view(None)["zones"]["pile"] == ["7H"]
    assert count(table) == 0 and turn(table) == 0              # a starter 7 makes no draw
    # matched like a normal card: the first function card must be of ♥, the rank does not
    # count (PK-10)
    assert "must be of the suit in force (hearts)" in (refusal(table, 0, "KS") or "")
    assert "rank does not count" in (refusal(table, 0, "7S") or "")
    assert refusal(table, 0, "2H") is None
    ace = deal([["3C", "4C"], ["4D", "6C"]], starter="AH")
    assert kinds(ace, 0) >= {"draw"} and "stand" not in kinds(ace, 0)   # the Ace stops nobody


def test_pk6_a_starter_joker_leaves_the_suit_free_and_draws_nothing() -> None:
    table = deal([["3C", "9D"], ["4D", "6C"]], starter="X")
    assert count(table) == 0
    assert suit(table) == "free"
    assert refusal(table, 0, "3C") is None and refusal(table, 0, "9D") is None


def test_pk6_a_starter_queen_shows_the_stock_bottom_whose_suit_is_in_force() -> None:
    table = deal([["3S", "3H"], ["4D", "6C"]], starter="QH", bottom="9S")
    assert table.view(1)["zones"]["stock bottom"] == ["9S"]
    assert suit(table) == "spades"
    assert refusal(table, 0, "3S") is None
    assert "suit in force (spades)" in (refusal(table, 0, "3H") or "")
    free = deal([["3S", "3H"], ["4D", "6C"]], starter="QH", bottom="X")
    assert suit(free) == "free"                                # Decision: a Joker there
    assert refusal(free, 0, "3H") is None and refusal(free, 0, "3S") is None


def test_pk7_the_dealers_left_starts_clockwise() -> None:
    table = deal([["3C", "4C"], ["3D", "4D"], ["6C", "6D"], ["8C", "8D"]], dealer=1,
                 stock=("9S", "9H", "9D"))
    assert turn(table) == 2
    draw(table, 2)
    assert turn(table) == 3
    draw(table, 3)
    assert turn(table) == 0
    assert counters(table)["direction"] == "clockwise"


def test_pk8_nobody_sees_another_players_hand() -> None:
    table = deal([["3C", "4C"], ["3D", "4D"], ["6C", "6D"]])
    for seat in range(3):
        view = table.view(seat)
        assert len(view["hand"]) == 2
        assert not view_cards(view) - visible_cards(table, seat)
        assert all(p["zones"] == {} for p in view["players"])
    spectator = table.view(None)
    assert spectator["hand"] == [] and set(view_cards(spectator)) == {"5H"}


# --- a turn ----------------------------------------------------------------------------------


def test_pk9_a_player_may_draw_even_holding_a_playable_card_and_the_turn_ends() -> None:
    table = deal([["3H", "4C"], ["3D", "4D"]], stock=("5S", "9C"))
    assert refusal(table, 0, "3H") is None
    draw(table, 0)
    assert hand(table, 0) == ["3H", "4C", "5S"]
    assert turn(table) == 1                                    # Decision: no play after it
    assert table.refusal(0, Move("play", ("5S",))) == "it is not your turn"


def test_pk10_normal_cards_and_aces_match_the_suit_in_force_or_the_rank() -> None:
    table = deal([["3H", "5C", "9C", "AH", "AC"], ["3D", "4D", "6C", "6D", "8D"]])
    assert refusal(table, 0, "3H") is None                     # suit
    assert refusal(table, 0, "5C") is None                     # rank
    assert refusal(table, 0, "AH", choice="hold") is None
    assert refusal(table, 0, "9C") == ("9♣ matches neither the suit in force (hearts) nor "
                                       "the rank of the top card 5♥: play a card of hearts or "
                                       "any 5, a Queen or a Joker (PK-10)")
    assert "matches neither" in (refusal(table, 0, "AC", choice="hold") or "")


def test_pk10_queens_and_jokers_go_on_anything_and_a_queen_names_the_suit() -> None:
    table = deal([["QC", "X", "3C"], ["3D", "4D", "9D"], ["6C", "6D", "8D"]])
    assert refusal(table, 0, "X") is None
    throw(table, 0, "QC", choice="D")
    assert suit(table) == "diamonds"
    assert refusal(table, 1, "9D") is None
    assert {c for (c,), _ in plays(table, 1)} == {"3D", "4D", "9D"}


def test_pk10_function_cards_on_a_normal_card_follow_suit_on_a_function_card_anything() -> None:
    table = deal([["2D", "2H", "3C"], ["KS", "4D", "6C"], ["6D", "8D", "8C"]])
    assert "must be of the suit in force (hearts)" in (refusal(table, 0, "2D") or "")
    throw(table, 0, "2H")                                      # follows ♥; count stays 0
    assert count(table) == 0 and turn(table) == 1
    assert refusal(table, 1, "KS") is None                     # a function card on a function


def test_pk10_revised_a_function_card_on_a_normal_card_follows_suit_never_rank() -> None:
    # J♥ is a normal card; J♠ is a function card and does not go on it, though the ranks match
    table = deal([["JH", "3C", "4C", "6C"], ["JS", "JC", "KH", "JD"], ["6D", "8D", "9D", "TD"]],
                 starter="5H")
    throw(table, 0, "JH")
    assert suit(table) == "hearts" and turn(table) == 1
    reason = refusal(table, 1, "JS")
    assert reason == ("J♠ does not go on J♥: the first function card on a normal card must be "
                      "of the suit in force (hearts), rank does not count; play a function card "
                      "of hearts, a Queen or a Joker (PK-10)")
    assert "J♣ does not go on J♥" in (refusal(table, 1, "JC") or "")
    assert refusal(table, 1, "KH") is None                     # a function card of hearts
    assert refusal(table, 1, "JD") is None                     # a normal card: the rank counts
    assert {c for (c, *_), _ in plays(table, 1)} == {"KH", "JD"}


def test_pk10_revised_on_an_ace_a_function_card_is_free() -> None:
    table = deal([["AH", "3C", "4C", "6C"], ["KS", "7C", "4D", "AC"], ["6D", "8D", "9D", "TD"]],
                 starter="5H")
    throw(table, 0, "AH", choice="spread")                     # seat 1 stands one turn
    table.play(1, Move("stand"))
    assert turn(table) == 2
    draw(table, 2)
    assert turn(table) == 0
    draw(table, 0)
    assert turn(table) == 1 and table.view(None)["zones"]["pile"] == ["AH"]
    assert refusal(table, 1, "KS") is None                     # §4c restricts normal tops only
    assert refusal(table, 1, "7C") is None
    assert refusal(table, 1, "AC", choice="hold") is None      # an Ace matches by rank
    assert "matches neither" in (refusal(table, 1, "4D") or "")  # a normal card still matches
    assert {c for (c, *_), _ in plays(table, 1)} == {"KS", "7C", "AC"}


def test_pk10_revised_on_a_queen_a_function_card_follows_the_named_suit() -> None:
    table = deal([["QC", "3C", "4C"], ["KD", "2S", "4D"], ["6D", "8D", "9D"]], starter="5H")
    throw(table, 0, "QC", choice="D")
    assert refusal(table, 1, "KD") is None
    assert ("2♠ does not go on Q♣: the first function card on a queen card must be of the suit "
            "in force (diamonds)") in (refusal(table, 1, "2S") or "")


def test_pk10_on_a_joker_whose_draw_was_taken_the_suit_is_free() -> None:
    table = deal([["X", "3C"], ["4D", "6C"], ["9S", "8D"]])
    throw(table, 0, "X")
    assert count(table) == 5
    take(table, 1)
    assert turn(table) == 2 and suit(table) == "free"
    assert refusal(table, 2, "9S") is None and refusal(table, 2, "8D") is None


def test_pk11_on_a_pending_count_only_function_cards_or_taking() -> None:
    table = deal([["7H", "3C", "3D", "4C", "4D"], ["QS", "AS", "4S", "KD", "2C"]])
    throw(table, 0, "7H")
    assert refusal(table, 1, "QS", choice="S") == (
        "a Queen cannot be thrown on a pending count of 2: continue the chain with a function "
        "card or take the cards")
    assert "an Ace cannot be thrown on a pending count" in (
        refusal(table, 1, "AS", choice="hold") or "")
    assert "a count of 2 is pending" in (refusal(table, 1, "4S") or "")
    assert "a count of 2 is pending" in (table.refusal(1, Move("draw")) or "")
    assert plays(table, 1) == {(("KD",), None), (("2C",), None)}
    assert kinds(table, 1) == {"play", "take"}


def test_pk12_several_cards_of_one_rank_first_playable_last_sets_the_suit() -> None:
    table = deal([["9S", "9H", "9D", "3C", "3D"], ["4C", "4D", "6C", "6D", "8C"]],
                 starter="9C")
    assert refusal(table, 0, "9S", "9H", "9D") is None
    throw(table, 0, "9H", "9D", "9S")
    assert table.view(None)["zones"]["pile"] == ["9S"]
    assert suit(table) == "spades"
    other = deal([["5S", "5H", "5D", "3C", "3D"], ["4C", "4D", "6C", "6D", "8C"]],
                 starter="8H")
    assert "5♠ matches neither" in (refusal(other, 0, "5S", "5H") or "")   # first must fit
    assert refusal(other, 0, "5H", "5S") is None
    assert "must be of one rank" in (refusal(other, 0, "5H", "3C") or "")


def test_pk12_twos_queens_and_kings_are_thrown_alone_but_the_pair_of_k_spades() -> None:
    table = deal([["2H", "2H", "QH", "QS", "KS", "KS", "KH", "7H"],
                  ["7S", "4D", "6C", "6D", "8C", "8D", "9C", "9D"]])
    assert refusal(table, 0, "2H", "2H") == "2♥ is thrown alone (PK-12)"
    assert refusal(table, 0, "QH", "QS", choice="S") == "Q♥ is thrown alone (PK-12)"
    assert refusal(table, 0, "KH", "KS") == "K♥ is thrown alone (PK-12)"
    throw(table, 0, "7H")
    throw(table, 1, "7S")                                     # the chain goes on: any function
    assert refusal(table, 0, "KS", "KH") == (
        "the only Kings thrown together are the pair of K♠ (PK-12)")
    assert refusal(table, 0, "KS", "KS") is None


def test_pk12_eight_cards_of_one_rank_give_a_bounded_list_and_any_order_is_accepted() -> None:
    sevens = ["7H", "7S", "7D", "7C"] * 2
    table = deal([["X", *sevens, "3C"],
                  ["4D", "6C", "6D", "8C", "8D", "9C", "9D", "TC", "TD", "3D"]])
    throw(table, 0, "X")
    take(table, 1)                                            # a free suit on the Joker
    moves = table.legal_moves(0)
    several = [m for m in moves if len(m.cards) > 1]
    assert len(several) == 4 + 6              # all eight once per last suit, sizes 2 to 7
    assert {m.cards[-1] for m in several if len(m.cards) == 8} == {"7H", "7S", "7D", "7C"}
    assert len(moves) == 4 + 1 + 10 + 1       # four single 7s, 3♣, the groups, draw
    # an order the list does not hold is judged by the refusal
    odd = ("7C", "7C", "7H", "7D", "7S", "7H", "7D", "7S")
    assert all(not m.same(Move("play", odd)) for m in moves)
    assert refusal(table, 0, *odd) is None
    throw(table, 0, *odd)
    assert count(table) == 80                                 # two sets of four suits


# --- function cards and the chain ------------------------------------------------------------


def test_pk13_taking_the_count_ends_the_chain_and_its_memory() -> None:
    table = deal([["7H", "2H", "3C"], ["JS", "4C", "4D"], ["7H", "6C", "6D"],
                  ["8C", "8D", "9C"]])
    throw(table, 0, "7H")
    throw(table, 1, "JS")
    assert counters(table)["J♠ cancelled"] == 2
    throw(table, 2, "7H")
    take(table, 3)
    assert "chain" not in counters(table)
    throw(table, 0, "2H")                                     # no J♠ in this new chain
    assert count(table) == 0


def test_pk13_a_non_function_card_ends_the_chain() -> None:
    table = deal([["KD", "3D", "3C"], ["QS", "4C", "6C"], ["KH", "JS", "6D"]], starter="5D")
    throw(table, 0, "KD")
    assert counters(table)["K♦ bars K♥ and J♠"] is True
    throw(table, 1, "QS", choice="H")
    assert "chain" not in counters(table)
    assert refusal(table, 2, "KH") is None                    # the K♦'s bar ended with it


def test_pk14_sevens_add_two_and_four_suits_in_one_throw_add_forty() -> None:
    table = deal([["7H", "7S", "7D", "7C", "7H", "3C"], ["7S", "4C", "4D", "6C", "6D", "8C"]])
    throw(table, 0, "7H", "7S", "7D", "7C", "7H")
    assert count(table) == 42                                  # 40 for the set, 2 for the rest
    throw(table, 1, "7S")
    assert count(table) == 44


def test_pk14_a_long_chain_counts_as_the_rulebook_says() -> None:
    """The worked example of docs/rules/pikac.md: 7♥ +2, Joker +5, K♥ halves up, 2♠ doubles,
    J♠ cancels, 2♥ restores, K♠ +10, 2♣ turns back, 2♦ passes, and B takes."""
    table = deal([["7H", "JS", "3C", "3D"], ["X", "2H", "4C", "4D"],
                  ["KH", "KS", "2D", "6D"], ["2S", "2C", "6C", "8C"]])
    steps = [(0, "7H", 2), (1, "X", 7), (2, "KH", 4), (3, "2S", 8), (0, "JS", 0),
             (1, "2H", 8), (2, "KS", 18), (3, "2C", 18), (2, "2D", 18)]
    for seat, card, after in steps:
        assert turn(table) == seat
        throw(table, seat, card)
        assert count(table) == after, card
    assert turn(table) == 1 and plays(table, 1) == set()     # 4♣ 4♦ cannot continue
    take(table, 1)
    assert len(hand(table, 1)) == 2 + 18 and count(table) == 0
    assert turn(table) == 0                                   # counter-clockwise after 2♣


def test_pk14_two_hearts_restores_what_the_last_j_spades_cancelled() -> None:
    table = deal([["7H", "3C"], ["JS", "4C"], ["7S", "6C"], ["2H", "8C"]])
    throw(table, 0, "7H")
    throw(table, 1, "JS")
    assert count(table) == 0
    throw(table, 2, "7S")                                     # on a function card: any
    throw(table, 3, "2H")
    assert count(table) == 4                                  # 2 + the 2 the J♠ cancelled


def test_pk14_two_diamonds_passes_and_two_clubs_turns_the_direction() -> None:
    table = deal([["7H", "3C"], ["2D", "4C"], ["2C", "6C"], ["8C", "8D"]])
    throw(table, 0, "7H")
    throw(table, 1, "2D")
    assert count(table) == 2 and turn(table) == 2
    throw(table, 2, "2C")
    assert count(table) == 2 and turn(table) == 1
    assert counters(table)["direction"] == "counter-clockwise"


def test_pk14_two_spades_doubles_and_k_hearts_halves_rounding_up() -> None:
    table = deal([["7H", "3C"], ["X", "4C"], ["KH", "6C"], ["2S", "8C"]])
    throw(table, 0, "7H")
    throw(table, 1, "X")
    throw(table, 2, "KH")
    assert count(table) == 4                                   # 7 / 2 rounded up
    throw(table, 3, "2S")
    assert count(table) == 8


def test_pk14_k_clubs_chooses_the_next_player_and_j_clubs_sends_it_back() -> None:
    table = deal([["KC", "3D", "4D"], ["4C", "6C", "6D"], ["7S", "8C", "8D"],
                  ["JC", "9C", "9D"]], starter="5C")
    assert plays(table, 0) >= {(("KC",), "1"), (("KC",), "2"), (("KC",), "3")}
    throw(table, 0, "KC", choice="2")
    assert turn(table) == 2 and counters(table)["last K♣ thrown by seat"] == 0
    throw(table, 2, "7S")
    assert turn(table) == 3
    throw(table, 3, "JC")
    assert turn(table) == 0 and count(table) == 2
    assert counters(table)["direction"] == "clockwise"         # the direction stays


def test_pk14_j_clubs_without_a_k_clubs_passes_like_two_diamonds() -> None:
    table = deal([["7H", "3C"], ["JC", "4C"], ["8C", "6C"]])
    throw(table, 0, "7H")
    throw(table, 1, "JC")
    assert turn(table) == 2 and count(table) == 2


def test_pk14_k_spades_adds_ten_and_the_pair_forty() -> None:
    single = deal([["KS", "3C", "3D"], ["4C", "4D", "6C"]], starter="5S")
    throw(single, 0, "KS")
    assert count(single) == 10
    table = deal([["KH", "3C", "3D"], ["7S", "4C", "4D"], ["KS", "KS", "6C"]])
    throw(table, 0, "KH")                                     # follows ♥; half of 0 is 0
    throw(table, 1, "7S")
    assert refusal(table, 2, "KS", "KS") is None
    throw(table, 2, "KS", "KS")
    assert count(table) == 42


def test_pk14_jokers_add_five_each_and_four_jokers_sixty() -> None:
    table = deal([["X", "X", "X", "3C", "3D"], ["4C", "4D", "6C", "6D", "8C"]])
    throw(table, 0, "X", "X", "X")
    assert count(table) == 15
    other = deal([["X", "X", "X", "X", "3C"], ["4C", "4D", "6C", "6D", "8C"]])
    throw(other, 0, "X", "X", "X", "X")
    assert count(other) == 60


def test_pk15_after_a_function_throw_the_turn_passes_with_the_count() -> None:
    table = deal([["7H", "3C"], ["7S", "4C"], ["8C", "6C"]])
    throw(table, 0, "7H")
    assert turn(table) == 1
    throw(table, 1, "7S")
    assert (turn(table), count(table)) == (2, 4)


def test_pk16_k_diamonds_bars_k_hearts_and_j_spades_for_the_rest_of_the_chain() -> None:
    table = deal([["7D", "3C", "3D"], ["KD", "4C", "4D"], ["KH", "JS", "7S"],
                  ["KH", "7C", "9C"]], starter="5D")
    throw(table, 0, "7D")
    throw(table, 1, "KD")
    assert refusal(table, 2, "KH") == ("the K♦ earlier in this chain bars K♥ for the rest of "
                                       "the chain")
    assert "bars J♠" in (refusal(table, 2, "JS") or "")
    assert plays(table, 2) == {(("7S",), None)}
    throw(table, 2, "7S")                                     # still the same chain
    assert "bars K♥" in (refusal(table, 3, "KH") or "")
    throw(table, 3, "7C")
    take(table, 0)                                            # the chain ends, the bar too
    assert "K♦ bars K♥ and J♠" not in counters(table)


def test_pk17_taking_draws_the_count_and_the_next_player_matches_the_top_card() -> None:
    table = deal([["7S", "3C"], ["4C", "4D"], ["9S", "9H"]], starter="5S",
                 stock=("TC", "TD", "8S"))
    throw(table, 0, "7S")
    take(table, 1)
    assert hand(table, 1) == ["4C", "4D", "TC", "TD"]
    assert count(table) == 0 and turn(table) == 2
    assert refusal(table, 2, "9S") is None                     # follows ♠
    assert "matches neither" in (refusal(table, 2, "9H") or "")
    assert "(PK-17)" in (refusal(table, 2, "9H") or "")
    assert "no count to take" in (table.refusal(2, Move("take")) or "")


def test_pk17_revised_after_a_taken_count_a_function_card_matches_suit_or_rank() -> None:
    # 7♠ is taken: the dead 7♠ is matched by a spade or a 7, function cards included; a Queen
    # and a Joker still go on anything
    table = deal([["7S", "3C", "4C", "6C", "8C", "9C", "TC", "3D"],
                  ["4C", "4D", "6D", "8D", "9D", "TD", "3H", "4H"],
                  ["KH", "2S", "7D", "QD", "X", "AH", "AS", "9H"]],
                 starter="5S", stock=("TC", "TD"))
    throw(table, 0, "7S")
    take(table, 1)
    assert turn(table) == 2 and count(table) == 0 and "chain" not in counters(table)
    assert refusal(table, 2, "KH") == (
        "K♥ does not go on the dead 7♠ (its count was taken): after a taken count every card "
        "matches the suit in force (spades) or its rank; play a card of spades or any 7, a "
        "Queen or a Joker (PK-17)")
    assert refusal(table, 2, "2S") is None                     # suit
    assert refusal(table, 2, "7D") is None                     # rank
    assert refusal(table, 2, "QD", choice="H") is None
    assert refusal(table, 2, "X") is None
    assert refusal(table, 2, "AS", choice="hold") is None
    assert "(PK-17)" in (refusal(table, 2, "AH", choice="hold") or "")
    assert "(PK-17)" in (refusal(table, 2, "9H") or "")
    listed = {c for (c, *_), _ in plays(table, 2)}
    assert listed == {"2S", "7D", "QD", "X", "AS"}


def test_pk17_revised_a_chain_drawn_at_count_zero_is_dead_too() -> None:
    # J♠ cancels the count to 0 and the chain lives: any function card goes on it; once the
    # next player draws instead, the J♠ is dead and must be matched
    table = deal([["7H", "3C", "4C"], ["JS", "4D", "6D"], ["2D", "8C", "KH"], ["KC", "9D", "2C"]],
                 starter="5H", stock=("TC", "TD", "8S", "9S"))
    throw(table, 0, "7H")
    throw(table, 1, "JS")
    assert count(table) == 0 and counters(table)["chain"] is True
    assert refusal(table, 2, "2D") is None                     # live chain: free
    draw(table, 2)
    assert "chain" not in counters(table) and turn(table) == 3
    assert "(PK-17)" in (refusal(table, 3, "KC", choice="0") or "")
    assert "(PK-17)" in (refusal(table, 3, "2C") or "")
    assert refusal(table, 3, "9D") is not None


# --- special cards ---------------------------------------------------------------------------


def test_pk18_a_queen_names_the_suit_and_goes_alone() -> None:
    table = deal([["QS", "QH", "3C"], ["4C", "4D", "9S"]])
    assert plays(table, 0) >= {(("QS",), s) for s in "SHDC"}
    assert "must name the suit" in (refusal(table, 0, "QS") or "")
    throw(table, 0, "QS", choice="C")
    assert suit(table) == "clubs"
    assert refusal(table, 1, "4C") is None and "matches neither" in (refusal(table, 1, "9S")
                                                                      or "")


def test_pk19_aces_hold_the_next_player_for_as_many_turns() -> None:
    table = deal([["AH", "AS", "3C"], ["4C", "4D", "6C"], ["6D", "8C", "8D"]])
    throw(table, 0, "AH", "AS", choice="hold")
    assert stops(table) == [0, 2, 0]
    assert turn(table) == 1 and kinds(table, 1) == {"stand"}
    table.play(1, Move("stand"))
    assert turn(table) == 2
    draw(table, 2)
    draw(table, 0)
    assert turn(table) == 1 and kinds(table, 1) == {"stand"}
    table.play(1, Move("stand"))
    assert stops(table) == [0, 0, 0] and turn(table) == 2


def test_pk19_aces_spread_one_turn_each_capped_and_stops_add_up() -> None:
    table = deal([["AH", "AS", "AD", "3C"], ["AC", "4D", "6C", "6D"],
                  ["8C", "8D", "9C", "9D"]])
    throw(table, 0, "AH", "AS", "AD", choice="spread")        # 3 Aces, only 2 others
    assert stops(table) == [0, 1, 1]
    throw(table, 1, "AC", choice="hold")                      # counter: a new throw
    assert stops(table) == [0, 0, 2]


def test_pk20_counter_throw_cancels_the_stop_and_acts_as_a_new_throw() -> None:
    table = deal([["AH", "AS", "9H", "3C"], ["AC", "4D", "6C", "6D"],
                  ["9S", "8D", "8C", "TC"], ["9D", "TD", "3D", "4C"]])
    throw(table, 0, "AH", "AS", choice="hold")                # seat 1 stands 2 turns
    table.play(1, Move("stand"))
    throw(table, 2, "9S")
    throw(table, 3, "9D")
    throw(table, 0, "9H")
    assert turn(table) == 1 and kinds(table, 1) == {"stand", "play"}
    assert plays(table, 1) == {(("AC",), "hold"), (("AC",), "spread")}   # A♣ on 9♥: any top
    assert "you are stopped (1 turn to miss)" in (refusal(table, 1, "4D") or "")
    assert "stopped" in (table.refusal(1, Move("draw")) or "")
    throw(table, 1, "AC", choice="hold")
    assert stops(table) == [0, 0, 1, 0]


def test_pk20_a_pending_count_comes_first_and_the_stop_waits() -> None:
    table = deal([["AH", "AS", "7D", "3C"], ["4C", "4D", "6C", "6D"],
                  ["7S", "8D", "8C", "TC"], ["7H", "TD", "3D", "9C"]])
    throw(table, 0, "AH", "AS", choice="hold")
    table.play(1, Move("stand"))
    throw(table, 2, "7S")                                     # follows the A♠'s spades
    throw(table, 3, "7H")
    throw(table, 0, "7D")
    assert turn(table) == 1 and count(table) == 6
    assert kinds(table, 1) == {"take"}
    assert "dealt with first" in (table.refusal(1, Move("stand")) or "")
    take(table, 1)
    assert stops(table)[1] == 1                               # waits for his next turn


# --- going out and the end -------------------------------------------------------------------


def test_pk21_out_on_probation_a_count_passed_back_brings_him_back() -> None:
    table = deal([["7H", "7S"], ["2C", "3D"], ["4C", "4D"]])
    throw(table, 0, "7H", "7S")
    assert status(table, 0) == "out on probation"
    assert plays(table, 1) >= {(("2C",), None)}
    throw(table, 1, "2C")                                     # turns the count back
    assert turn(table) == 0 and kinds(table, 0) == {"take"}
    take(table, 0)
    assert len(hand(table, 0)) == 4
    assert status(table, 0) not in ("out on probation", "finished")


def test_pk21_his_turn_coming_round_with_nothing_pending_finishes_him_for_good() -> None:
    table = deal([["7H", "7S"], ["4C", "3D"], ["4D", "3C"]], stock=("TC", "TD", "TS", "TH"))
    throw(table, 0, "7H", "7S")
    take(table, 1)
    assert status(table, 0) == "out on probation"
    draw(table, 2)
    assert status(table, 0) == "finished"
    assert turn(table) == 1                                   # seat 0 is skipped from now on


def test_pk21_k_clubs_cannot_choose_a_player_out_or_on_probation() -> None:
    table = deal([["7C", "7S"], ["KC", "KC"], ["4C", "4D"], ["6C", "6D"]], starter="5C")
    throw(table, 0, "7C", "7S")                               # seat 0 on probation, count 4
    assert plays(table, 1) == {(("KC",), "2"), (("KC",), "3")}
    assert refusal(table, 1, "KC", choice="0") == (
        "K♣ cannot choose seat 0: that player is out on probation")
    assert refusal(table, 1, "KC", choice="1") == "K♣ must choose another player, not yourself"
    throw(table, 1, "KC", choice="3")
    take(table, 3)                                            # then seat 0's turn: finished
    assert status(table, 0) == "finished" and turn(table) == 1
    assert refusal(table, 1, "KC", choice="0") == (
        "K♣ cannot choose seat 0: that player has finished")
    with pytest.raises(IllegalMove, match="that player has finished"):
        throw(table, 1, "KC", choice="0")


def test_pk22_the_last_player_holding_cards_loses_and_deals_next() -> None:
    table = deal([["3H"], ["4C"]], stock=("9S",))
    throw(table, 0, "3H")
    assert table.result() is None                            # on probation: not yet over
    draw(table, 1)
    result = table.result()
    assert result is not None
    assert result.places == (1, 2) and result.next_dealer == 1
    assert table.view(None)["phase"] == "over"
    assert table.legal_moves(0) == [] and table.legal_moves(1) == []
    nxt = open_table("pikac", 2, {"dealer": result.next_dealer}, seed=3)
    assert nxt.to_move() == (1,)


def test_pk22_places_follow_the_finishing_order() -> None:
    table = deal([["3H"], ["3C"], ["9D"]], stock=("TS", "TH"))
    throw(table, 0, "3H")
    throw(table, 1, "3C")                                     # 3♣ on 3♥: the rank
    assert table.result() is None
    draw(table, 2)                                            # both probations end here
    result = table.result()
    assert result is not None and result.places == (1, 2, 3) and result.next_dealer == 2


def test_pk23_no_agreement_brings_a_finished_player_back() -> None:
    table = deal([["3H"], ["4C"], ["9D"]], stock=("TS",))
    assert table.refusal(0, Move("agree", (), "1")) == "Pikáč has no move 'agree'"


# --- the stock -------------------------------------------------------------------------------


def test_pk24_an_empty_stock_is_refilled_from_the_pile_under_its_top_card() -> None:
    rest = sorted((Counter(DECK) - Counter(["X"] * 4 + ["7H", "5H"])).elements())
    hands = [["X", "X", "X", "X", "7H", *rest[:48]], rest[48:101]]
    table = deal(hands, starter="5H", stock=tuple(rest[101:]))
    assert table.view(None)["zones"]["stock"] == 1
    throw(table, 0, "7H")
    take(table, 1)                                             # 1 from the stock, then 5♥
    assert hand(table, 1)[-2:] == [rest[101], "5H"]
    assert table.view(None)["zones"]["pile"] == ["7H"]
    throw(table, 0, "X", "X", "X", "X")
    assert count(table) == 60
    take(table, 1)                                             # only 4 cards exist: takes 4
    assert len(hand(table, 1)) == 53 + 2 + 4
    assert table.view(None)["zones"]["stock"] == 0
    assert table.view(None)["zones"]["pile"] == ["X"]
    assert sum(len(z.cards) for z in table.zones()) == 108


def test_illegal_moves_raise_with_the_reason_in_words() -> None:
    table = deal([["7D", "3C"], ["KD", "4C"], ["KH", "6C"]], starter="5D")
    throw(table, 0, "7D")
    throw(table, 1, "KD")
    with pytest.raises(IllegalMove, match="K♦ earlier in this chain bars K♥"):
        throw(table, 2, "KH")


def test_events_read_as_sentences_and_hide_other_hands() -> None:
    table = deal([["KC", "3D", "4D"], ["7C", "6C", "6D"], ["8C", "8D", "9C"]], starter="5C")
    since = len(table.events)
    throw(table, 0, "KC", choice="2")
    throw(table, 2, "8C")
    names = ["Eva", "Petr", "Jana"]
    said = [describe(e, names, table.hook) for e in table.events[since:]]
    assert said[:2] == ["Eva throws K♣ choosing Jana", "the count is 0"]
    assert "Jana throws 8♣" in said
    dealt = [e for e in table.events_for(1) if e["type"] == "dealt"]
    assert [e.get("cards") for e in dealt] == [None, ["7C", "6C", "6D"], None]
    assert [e.get("count") for e in dealt if e["seat"] != 1] == [3, 3]


def test_a_round_at_the_move_limit_is_closed_and_ranked_by_cards_held() -> None:
    """Decision (docs: Random play): GameInfo.max_moves is a bound the game keeps."""
    table = deal([["3H", "4C", "6C"], ["4D", "6D", "8D"], ["9S", "TS", "JS"]])
    throw(table, 0, "3H")
    data = msgpack.unpackb(table.save(), raw=False, strict_map_key=False)
    data["state"]["moves"] = MOVE_LIMIT - 1
    near = Table.restore(msgpack.packb(data, use_bin_type=True))
    assert near.result() is None
    draw(near, 1)
    result = near.result()
    assert result is not None and result.outcome == "limit"
    assert result.places == (1, 3, 2) and result.next_dealer == 1    # 2, 4 and 3 cards
    assert near.info.max_moves >= MOVE_LIMIT


def test_pk14_j_clubs_sends_the_count_to_a_k_clubs_thrower_on_probation() -> None:
    table = deal([["KC", "7S"], ["JC", "4C"], ["7C", "4D"]], starter="5C")
    throw(table, 0, "KC", choice="2")
    throw(table, 2, "7C")
    throw(table, 0, "7S")                                      # his last card: probation
    assert status(table, 0) == "out on probation" and count(table) == 4
    throw(table, 1, "JC")                                      # back to the K♣'s thrower
    assert turn(table) == 0 and kinds(table, 0) == {"take"}
    take(table, 0)
    assert status(table, 0) != "out on probation" and len(hand(table, 0)) == 4


def test_pk14_j_clubs_thrown_by_the_k_clubs_thrower_passes_like_two_diamonds() -> None:
    table = deal([["KC", "JC", "3D"], ["2C", "4C", "4D"], ["6C", "6D", "8D"]], starter="5C")
    throw(table, 0, "KC", choice="1")
    throw(table, 1, "2C")                                      # reversed: back to seat 0
    assert turn(table) == 0
    throw(table, 0, "JC")
    assert turn(table) == 2                                    # on, counter-clockwise


def test_pk22_when_the_last_two_go_out_in_a_row_the_last_to_finish_loses() -> None:
    table = deal([["3H"], ["3C"]])
    throw(table, 0, "3H")
    throw(table, 1, "3C")
    result = table.result()
    assert result is not None and result.places == (1, 2) and result.next_dealer == 1


def test_pk24_a_round_with_no_card_left_to_draw_stalls_and_ends() -> None:
    """Decision: stock and pile exhausted, every player holding cards draws nothing in turn."""
    rest = sorted((Counter(DECK) - Counter(["5H", "9S"])).elements())
    table = deal([rest[:53], rest[53:]], starter="5H", stock=("9S",))
    draw(table, 0)                                             # the last card of the stock
    draw(table, 1)                                             # nothing: the pile is only 5♥
    assert table.result() is None
    draw(table, 0)
    result = table.result()
    assert result is not None and result.outcome == "stalled"
    assert result.places == (2, 1) and result.next_dealer == 0     # 54 cards against 53


@pytest.mark.parametrize(("lang", "one", "two"), [("cs", "žolík", "2 žolíci"),
                                                  ("ca", "comodí", "2 comodins"),
                                                  ("en", "Joker", "2 Jokers")])
def test_jokers_in_the_log_are_words_of_each_players_language(lang: str, one: str,
                                                              two: str) -> None:
    """PK-3's Jokers in a throw or a draw are named by each client in its language: they were
    English inside a Czech sentence ('Eva hází Joker Joker')."""
    table = deal([["KC", "3D", "4D"], ["7C", "6C", "6D"]], starter="5C")
    names = ["Eva", "Petr"]
    thrown = describe({"type": "play", "seat": 0, "cards": ["X", "X"]}, names, table.hook)
    drawn = describe({"type": "take", "seat": 1, "cards": ["3D", "X"]}, names, table.hook)
    set_language(lang)
    try:
        said = translate(thrown), translate(drawn)
    finally:
        set_language("en")
    assert two in said[0] and f"3♦ {one}" in said[1], said
    if lang != "en":
        assert "Joker" not in " ".join(said), said
