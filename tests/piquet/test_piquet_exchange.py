"""PQ-1 ... PQ-3: the deal into two talons and the exchange, and what each player may see of
it: a talon card is never shown to the player who does not take it."""

from __future__ import annotations

import random

import pytest

from cardparty.core.contract import Move
from cardparty.core.simcheck import view_cards, visible_cards
from cardparty.core.table import IllegalMove, open_table
from tests.piquet.helpers import ELDER, YOUNGER, dealt

ELDER_HAND = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH", "QH", "JH"]
YOUNGER_HAND = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "AC", "KC", "QC", "JC"]
TALON1 = ["TH", "9H", "8H", "7H", "TC"]
TALON2 = ["9C", "8C", "7C"]


def discard(table, seat, *cards):
    for c in cards:
        table.play(seat, Move("discard", (c,)))


def test_pq2_twelve_cards_each_five_in_the_first_talon_three_in_the_second():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    view = table.view(None)
    assert [p["count"] for p in view["players"]] == [12, 12]
    assert view["zones"]["talon 1"] == 5 and view["zones"]["talon 2"] == 3
    assert table.view(ELDER)["hand"] == ELDER_HAND
    assert [p["role"] for p in view["players"]] == ["elder", "dealer"]
    assert table.to_move() == (ELDER,)


def test_pq3_elder_discards_three_to_five_and_takes_as_many_from_the_top_of_the_first_talon():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    discard(table, ELDER, "7S", "8S")
    assert not any(m.kind == "take" for m in table.legal_moves(ELDER))
    with pytest.raises(IllegalMove, match="at least 3"):
        table.play(ELDER, Move("take"))
    discard(table, ELDER, "9S")
    take = [m for m in table.legal_moves(ELDER) if m.kind == "take"]
    assert take and take[0].label == "take 3 cards from the talon"
    table.play(ELDER, Move("take"))
    assert sorted(table.view(ELDER)["hand"]) == sorted(
        [c for c in ELDER_HAND if c not in ("7S", "8S", "9S")] + ["TH", "9H", "8H"])
    assert table.view(ELDER)["players"][ELDER]["zones"]["discards"] == ["7S", "8S", "9S"]


def test_pq3_the_fifth_discard_takes_the_whole_first_talon():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    discard(table, ELDER, "7S", "8S", "9S", "TS")
    assert table.legal_moves(ELDER)[0].label == "discard AS and take 5 from the talon"
    discard(table, ELDER, "JS")
    assert table.to_move() == (YOUNGER,)
    assert set(TALON1) <= set(table.view(ELDER)["hand"])


def test_pq3_the_dealer_must_discard_what_elder_left_plus_three_and_takes_them_all():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    discard(table, ELDER, "7S", "8S", "9S")
    table.play(ELDER, Move("take"))
    discard(table, YOUNGER, "7D", "8D", "9D", "TD")
    assert all(m.kind == "discard" for m in table.legal_moves(YOUNGER))
    with pytest.raises(IllegalMove, match="must discard 5"):
        table.play(YOUNGER, Move("take"))
    discard(table, YOUNGER, "JD")
    assert set(["7H", "TC", *TALON2]) <= set(table.view(YOUNGER)["hand"])
    view = table.view(None)
    assert view["zones"]["talon 1"] == 0 and view["zones"]["talon 2"] == 0
    assert view["zones"]["left"] == 0 and view["phase"] == "play"


def test_pq3_a_discard_is_final_and_only_the_cards_of_the_hand_can_go():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    with pytest.raises(IllegalMove, match="not in your hand"):
        table.play(ELDER, Move("discard", ("AD",)))
    with pytest.raises(IllegalMove, match="not your turn"):
        table.play(YOUNGER, Move("discard", ("AD",)))
    with pytest.raises(IllegalMove, match="exchange comes first"):
        table.play(ELDER, Move("play", ("AS",)))


def test_pq3_each_player_sees_his_own_discards_and_only_their_number_of_the_others():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    discard(table, ELDER, "7S", "8S", "9S")
    assert table.view(YOUNGER)["players"][ELDER]["zones"]["discards"] == 3
    theirs = [e for e in table.events_for(YOUNGER) if e["type"] == "discard"]
    assert [(e.get("cards"), e["count"]) for e in theirs] == [(None, 1)] * 3
    mine = [e for e in table.events_for(ELDER) if e["type"] == "discard"]
    assert [e["cards"] for e in mine] == [["7S"], ["8S"], ["9S"]]


@pytest.mark.parametrize("seed", range(12))
def test_pq3_the_exchange_never_shows_a_talon_card_to_the_player_who_does_not_take_it(seed):
    """Every view and every event either player gets during and after the exchange, checked
    against the talon cards the other player took (and, classic or not, those nobody took)."""
    rng = random.Random(seed)
    variants = ("piquet-classic",) if seed % 2 else ()
    table = open_table("piquet", 2, {"deals": 1, "dealer": seed % 4 // 2}, variants, seed)
    talon1 = talon2 = None
    took: dict[int, set[str]] = {0: set(), 1: set()}
    while table.view(None)["phase"] == "exchange":
        if talon1 is None:
            zones = {z.name: list(z.cards) for z in table.zones()}
            talon1, talon2 = zones["talon 1"], zones["talon 2"]
        seat = table.to_move()[0]
        hand_before = set(table.view(seat)["hand"])
        moves = table.legal_moves(seat)
        table.play(seat, moves[rng.randrange(len(moves))])
        took[seat] |= set(table.view(seat)["hand"]) - hand_before
    talon = set(talon1) | set(talon2)
    assert took[0] | took[1] <= talon
    shown = set(visible_cards(table, None))      # PQ-9: scoring declarations are shown
    for seat in (0, 1):
        secret = talon - took[seat] - shown
        assert not secret & set(view_cards(table.view(seat)))
        for event in table.events_for(seat):
            assert not secret & set(event.get("cards", ()))
    assert not (talon - shown) & set(view_cards(table.view(None)))


def test_pq1_the_first_dealer_is_drawn_then_the_deal_alternates():
    dealers = {open_table("piquet", 2, {"deals": 1}, seed=s).view(None)["counters"]["dealer"]
               for s in range(20)}
    assert dealers == {0, 1}
    table = open_table("piquet", 2, {"deals": 2, "dealer": 0}, seed=5)
    rng = random.Random(1)
    deals = []
    while table.result() is None:
        seat = table.to_move()[0]
        moves = table.legal_moves(seat)
        for event in table.play(seat, moves[rng.randrange(len(moves))]):
            if event["type"] == "deal":
                deals.append(event["seat"])
    assert deals == [0, 1]   # the first deal, made at setup, is told with the first move


def test_pq3_a_take_names_no_cards():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    discard(table, ELDER, "7S", "8S", "9S")
    with pytest.raises(IllegalMove, match="take names no cards"):
        table.play(ELDER, Move("take", ("TH",)))
