"""Card codes, the three decks, the ``deck`` setting, the stock and turn order."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardparty.core import stock
from cardparty.core.cards import canasta_deck, ordered_deck, piquet_deck, pretty, pretty_all
from cardparty.core.turns import next_seat, seats_in_order


def test_the_three_decks_have_their_sizes_and_copies() -> None:
    assert len(canasta_deck()) == 108 and Counter(canasta_deck())["TH"] == 2
    assert Counter(canasta_deck())["X"] == 4
    assert len(piquet_deck()) == 32 and len(set(piquet_deck())) == 32
    assert {c[0] for c in piquet_deck()} == set("789TJQKA")


def test_cards_read_as_players_read_them() -> None:
    assert pretty("TH") == "10♥" and pretty("KC") == "K♣" and pretty("X") == "Joker"
    assert pretty("TH", ascii_only=True) == "10h"
    assert pretty("W+4") == "W+4" and pretty_all(["AS", "R7"]) == "A♠ R7"


def test_the_deck_setting_puts_the_given_cards_on_top_and_shuffles_the_rest() -> None:
    deck = ordered_deck(piquet_deck(), ["AS", "7C"], random.Random(1))
    assert deck[:2] == ["AS", "7C"] and Counter(deck) == Counter(piquet_deck())
    assert deck != ordered_deck(piquet_deck(), ["AS", "7C"], random.Random(2))


def test_the_deck_setting_refuses_a_card_the_deck_lacks_or_has_too_few_of() -> None:
    with pytest.raises(ValueError, match="'2S' is not in this game's deck"):
        ordered_deck(piquet_deck(), ["2S"], random.Random(1))
    with pytest.raises(ValueError, match="'AS'"):
        ordered_deck(piquet_deck(), ["AS", "AS"], random.Random(1))


def test_a_shuffle_is_the_seeds_and_only_the_seeds() -> None:
    assert ordered_deck(canasta_deck(), None, random.Random(9)) == \
        ordered_deck(canasta_deck(), None, random.Random(9))


def test_the_stock_refills_from_the_pile_under_its_top_card() -> None:
    pile, st = ["a", "b", "c", "top"], ["x"]
    drawn = stock.draw(st, pile, 3, random.Random(1))
    assert drawn[0] == "x" and sorted(drawn[1:] + st) == ["a", "b", "c"]
    assert pile == ["top"]


def test_drawing_more_than_exists_gives_what_there_is() -> None:
    pile, st = ["top"], ["x", "y"]
    assert stock.draw(st, pile, 5, random.Random(1)) == ["y", "x"]
    assert st == [] and pile == ["top"]


def test_next_seat_skips_players_who_are_out_in_either_direction() -> None:
    playing = [True, False, True, True]
    assert next_seat(0, 1, playing) == 2
    assert next_seat(0, -1, playing) == 3
    assert next_seat(0, 1, playing, steps=2) == 3
    assert next_seat(1, 1, playing) == 2          # from a seat that is out
    assert next_seat(2, 1, [False, False, True, False]) == 2
    assert seats_in_order(2, -1, 4) == [2, 1, 0, 3]


def test_a_sorted_hand_goes_by_suit_then_rank_and_pika_cards_by_colour_then_symbol() -> None:
    """The card codes' order and colours are core's (the client sorts and colours with them)."""
    from cardparty.core.cards import colour, sort_key
    assert sorted(["KD", "2S", "TH", "X", "3C", "AS"], key=sort_key) == [
        "2S", "AS", "TH", "3C", "KD", "X"]
    assert sorted(["W", "Y+2", "R7", "RS", "R0"], key=sort_key) == ["R0", "R7", "RS", "Y+2", "W"]
    assert [colour(c) for c in ("TH", "KD", "2S", "3C", "X", "W+4", "G5", "??")] == [
        "red", "red", "black", "black", "black", "black", "G", ""]
