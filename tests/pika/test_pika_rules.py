"""Pika's rules, one scenario per rule id (docs/rules/pika.md), built with the `deck` setting.

Deal order: seat 0 takes the first ``hand_size`` cards of the deck, then seat 1, ...; the next
card is turned as the pile's first card (a non-number goes under the stock and the next is
turned); the cards after it are the stock, top first. ``dealer`` is the last seat, so seat 0
starts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack
import pytest

from cardparty.core.cards import pika_deck
from cardparty.core.contract import SYSTEM, Move
from cardparty.core.table import IllegalMove, Table, TableError, open_table


def deal(hands: list[list[str]], starter: str = "R5", stock: tuple[str, ...] = (),
         **settings: Any) -> Table:
    size = len(hands[0])
    assert all(len(h) == size for h in hands)
    deck = [c for h in hands for c in h] + [starter, *stock]
    players = len(hands)
    return open_table("pika", players, {"deck": deck, "hand_size": size,
                                        "dealer": players - 1, **settings}, seed=7)


def play(table: Table, seat: int, card: str, choice: str | None = None) -> None:
    table.play(seat, Move("play", (card,), choice))


def kinds(table: Table, seat: int) -> set[tuple[str, tuple[str, ...], str | None]]:
    return {(m.kind, m.cards, m.choice) for m in table.legal_moves(seat)}


def turn(table: Table) -> int | None:
    """Whose turn it is (``to_move`` may also list a warned seat that can still call)."""
    return table.view(None)["turn"]


def counters(table: Table) -> dict[str, Any]:
    return table.view(None)["counters"]


# --- cards and players -----------------------------------------------------------------------

def test_pi1_the_deck_has_108_cards_25_per_colour_and_8_black() -> None:
    deck = pika_deck()
    assert len(deck) == 108
    counts = Counter(deck)
    for colour in "RYGB":
        assert counts[colour + "0"] == 1
        for sym in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "V", "+2"]:
            assert counts[colour + sym] == 2
        assert sum(n for c, n in counts.items() if c[0] == colour) == 25
    assert counts["W"] == 4 and counts["W+4"] == 4


@pytest.mark.parametrize("players", [1, 5])
def test_pi2_only_two_to_four_players(players: int) -> None:
    with pytest.raises(TableError, match="2 to 4 players"):
        open_table("pika", players, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pi2_and_pi3_seven_cards_each_by_default(players: int) -> None:
    table = open_table("pika", players, seed=3)
    view = table.view(0)
    assert [p["count"] for p in view["players"]] == [7] * players
    assert view["zones"]["stock"] == 108 - 7 * players - 1


def test_pi3_a_starter_that_is_not_a_number_goes_under_the_stock() -> None:
    table = deal([["R1", "R2"], ["G1", "G2"]], starter="RS", stock=("W", "B7", "Y3"))
    assert table.view(None)["zones"]["pile"] == ["B7"]
    assert counters(table)["colour"] == "blue"
    stock = next(z for z in table.zones() if z.name == "stock").cards
    # top is the last element: Y3 next, then the two put back underneath, in turn order
    assert list(stock)[-1] == "Y3" and set(list(stock)[:2]) == {"RS", "W"}


def test_pi3_the_player_after_the_dealer_starts_clockwise() -> None:
    table = open_table("pika", 3, {"dealer": 1}, seed=5)
    assert table.to_move() == (2,)
    assert table.view(None)["direction"] == 1


def test_pi3_the_log_opens_with_who_dealt_and_the_card_turned_before_anybody_moves() -> None:
    """Pika's log said neither who dealt nor what the first pile card was: the deal's
    events come before move one, for every seat and spectator alike, and replay the same."""
    from cardparty.client.words import describer, in_words
    from cardparty.core.table import Table

    table = deal([["R1", "R2"], ["G1", "G2"]], starter="RS", stock=("W", "B7", "Y3"))
    names = ["Eva", "Petr"]
    for seat in (0, 1, None):
        told = [in_words(e, names, describer("pika")) for e in table.events_for(seat)]
        assert told == ["Petr deals 2 cards each", "the starter card is B7"], told
    table.play(0, table.legal_moves(0)[0])
    again = Table.replay("pika", 2, table.seed, table.journal, table.settings)
    assert again.events == table.events


# --- a turn ----------------------------------------------------------------------------------

def test_pi4_a_card_matches_by_colour_or_by_number() -> None:
    table = deal([["R9", "G5", "B7"], ["Y1", "Y2", "Y3"]], starter="R5")
    plays = {m.cards[0] for m in table.legal_moves(0) if m.kind == "play"}
    assert plays == {"R9", "G5"}        # red by colour, G5 by number; B7 neither
    with pytest.raises(IllegalMove, match="B7.*matches neither"):
        play(table, 0, "B7")


def test_pi4_symbols_match_symbols_and_black_cards_always_fit() -> None:
    table = deal([["GS", "W", "B1"], ["Y1", "Y2", "Y3"]], starter="R5", stock=("RS",))
    assert {m.cards[0] for m in table.legal_moves(0) if m.kind == "play"} == {"W"}
    play(table, 0, "W", "G")
    assert counters(table)["colour"] == "green"


def test_pi4_block_on_block_across_colours() -> None:
    table = deal([["RS", "B1", "B2"], ["Y1", "Y2", "Y3"], ["GS", "G1", "G2"]], starter="R5")
    play(table, 0, "RS")
    assert {m.cards[0] for m in table.legal_moves(2) if m.kind == "play"} == {"GS"}


def test_pi5_without_a_playable_card_the_only_move_is_to_draw() -> None:
    table = deal([["B1", "B2", "G3"], ["Y1", "Y2", "Y3"]], starter="R5", stock=("Y9",))
    assert kinds(table, 0) == {("draw", (), None)}


def test_pi5_decision_no_drawing_while_holding_a_playable_card() -> None:
    table = deal([["R1", "B2", "G3"], ["Y1", "Y2", "Y3"]], starter="R5")
    with pytest.raises(IllegalMove, match="may not draw while you hold a playable card"):
        table.play(0, Move("draw"))


def test_pi5_a_drawn_playable_card_may_be_played_at_once_or_kept() -> None:
    table = deal([["B1", "B2", "G3"], ["Y1", "Y2", "Y3"]], starter="R5", stock=("R8",))
    table.play(0, Move("draw"))
    assert table.to_move() == (0,)
    assert kinds(table, 0) == {("play", ("R8",), None), ("keep", (), None)}
    with pytest.raises(IllegalMove, match="only the card you drew"):
        play(table, 0, "B1")
    table.play(0, Move("keep"))
    assert table.to_move() == (1,)
    assert table.view(0)["hand"] == ["B1", "B2", "G3", "R8"]


def test_pi5_a_drawn_card_that_does_not_fit_ends_the_turn() -> None:
    table = deal([["B1", "B2", "G3"], ["Y1", "Y2", "Y3"]], starter="R5", stock=("B8",))
    table.play(0, Move("draw"))
    assert table.to_move() == (1,)
    assert table.view(0)["players"][0]["count"] == 4


def test_pi6_draw_refills_the_stock_from_the_pile() -> None:
    table = deal([["B1", "B2"], ["Y1", "Y2"]], starter="R5")
    data = msgpack.unpackb(table.save())
    st = data["state"]
    spare = st["stock"]
    st["stock"] = []
    st["pile"] = spare + ["R5"]
    table = Table.restore(msgpack.packb(data))
    events = table.play(0, Move("draw"))
    assert any(e["type"] == "reshuffle" for e in events)
    assert table.view(None)["zones"]["pile"] == ["R5"]
    assert table.view(None)["zones"]["pile size"] == 1
    assert table.view(0)["players"][0]["count"] == 3


def test_pi6_and_pi13_a_round_of_turns_with_no_card_moving_closes_the_round() -> None:
    """With the whole deck a closed round needs every black card out of reach, which a real
    deal cannot reach quickly; the position is built in the plugin's own save format."""
    table = deal([["B1", "B2"], ["G1", "G3"]], starter="R5")
    data = msgpack.unpackb(table.save())
    st = data["state"]
    st["stock"], st["pile"] = [], ["R5"]
    st["hands"] = [["B1", "B2"], ["G1", "G3", "G4"]]
    table = Table.restore(msgpack.packb(data))
    events = table.play(0, Move("draw"))
    assert events[0]["cards"] == [] and table.result() is None
    table.play(1, Move("draw"))
    result = table.result()
    assert result is not None and result.outcome == "closed"
    assert result.places == (1, 2)          # PI-13: every place by cards in hand


# --- action cards ----------------------------------------------------------------------------

def test_pi7_block_skips_the_next_player() -> None:
    table = deal([["RS", "B1"], ["Y1", "Y2"], ["G1", "G2"]], starter="R5")
    play(table, 0, "RS")
    assert turn(table) == 2


def test_pi7_reverse_turns_the_direction() -> None:
    table = deal([["RV", "B1"], ["Y1", "Y2"], ["R1", "G2"]], starter="R5")
    play(table, 0, "RV")
    assert turn(table) == 2
    assert table.view(None)["direction"] == -1
    play(table, 2, "R1")
    assert turn(table) == 1


def test_pi8_plus2_makes_the_next_player_draw_two_unless_he_chains() -> None:
    table = deal([["R+2", "B1"], ["Y1", "Y2"]], starter="R5", stock=("G1", "G2", "G3"))
    play(table, 0, "R+2")
    assert counters(table)["pending draw"] == 2
    assert kinds(table, 1) == {("take", (), None)}
    events = table.play(1, Move("take"))
    assert events[0]["type"] == "take" and len(events[0]["cards"]) == 2
    assert table.view(1)["hand"] == ["Y1", "Y2", "G1", "G2"]
    assert table.to_move() == (0,)


def test_pi8_plus4_names_the_colour_and_wild_makes_nobody_draw() -> None:
    table = deal([["W+4", "W", "B1"], ["Y1", "Y2", "Y3"]], starter="R5")
    with pytest.raises(IllegalMove, match="must name a colour"):
        play(table, 0, "W+4")
    play(table, 0, "W+4", "B")
    assert counters(table)["colour"] == "blue" and counters(table)["pending draw"] == 4
    table.play(1, Move("take"))
    play(table, 0, "W", "Y")
    assert "pending draw" not in counters(table)
    assert counters(table)["colour"] == "yellow"


def test_pi9_plus2_and_plus4_accumulate() -> None:
    table = deal([["R+2", "B1", "B2"], ["G+2", "W+4", "Y1"], ["Y+2", "B3", "B4"]],
                 starter="R5")
    play(table, 0, "R+2")
    play(table, 1, "G+2")                    # any +2 on a pending +2
    play(table, 2, "Y+2")
    assert counters(table)["pending draw"] == 6
    table.play(0, Move("take"))
    assert table.view(0)["players"][0]["count"] == 8


def test_pi9_on_a_pending_plus4_only_a_plus2_of_the_named_colour_or_a_plus4() -> None:
    table = deal([["W+4", "B1", "B2"], ["G+2", "R+2", "W+4"]], starter="R5")
    play(table, 0, "W+4", "R")
    plays = {(m.cards[0], m.choice) for m in table.legal_moves(1) if m.kind == "play"}
    assert ("R+2", None) in plays and ("W+4", "G") in plays
    assert not any(card == "G+2" for card, _ in plays)
    with pytest.raises(IllegalMove, match="only a \\+2 of the named colour"):
        play(table, 1, "G+2")


def test_pi9_decision_any_plus4_chains_on_a_pending_plus2() -> None:
    table = deal([["R+2", "B1", "B2"], ["W+4", "Y1", "Y2"]], starter="R5")
    play(table, 0, "R+2")
    play(table, 1, "W+4", "G")
    assert counters(table)["pending draw"] == 6


def test_pi9_decision_taking_is_allowed_even_when_one_could_chain() -> None:
    table = deal([["R+2", "B1", "B2"], ["G+2", "Y1", "Y2"]], starter="R5")
    play(table, 0, "R+2")
    assert ("take", (), None) in kinds(table, 1)
    table.play(1, Move("take"))
    assert table.to_move() == (0,)          # his turn ended with the take


def test_pi9_a_wild_cannot_answer_a_pending_draw() -> None:
    table = deal([["R+2", "B1", "B2"], ["W", "Y1", "Y2"]], starter="R5")
    play(table, 0, "R+2")
    with pytest.raises(IllegalMove, match="pending"):
        play(table, 1, "W", "R")


# --- Pika! -----------------------------------------------------------------------------------

def test_pi10_a_play_leaving_one_card_may_carry_the_call() -> None:
    table = deal([["R1", "R2"], ["Y1", "Y2"]], starter="R5")
    assert ("play", ("R1",), "pika") in kinds(table, 0)
    table.play(0, Move("play", ("R1",), "pika"))
    assert table.deadlines() == []


def test_pi10_without_the_call_the_warning_runs_and_its_end_costs_two_cards() -> None:
    table = deal([["R1", "R2"], ["Y1", "Y2"]], starter="R5", stock=("G7", "G8", "G9"),
                 warning=3.0)
    play(table, 0, "R1")
    [deadline] = table.deadlines()
    assert (deadline.name, deadline.seat, deadline.seconds) == ("pika", 0, 3.0)
    assert set(table.to_move()) == {0, 1}    # he may still call outside his turn
    events = table.play(SYSTEM, deadline.move)
    assert events[0]["type"] == "penalty" and events[0]["cards"] == ["G7", "G8"]
    assert table.view(0)["hand"] == ["R2", "G7", "G8"]
    assert table.deadlines() == []


def test_pi10_calling_during_the_warning_stops_it() -> None:
    table = deal([["R1", "R2"], ["Y1", "Y2"]], starter="R5")
    play(table, 0, "R1")
    table.play(0, Move("call"))
    assert table.deadlines() == []
    with pytest.raises(IllegalMove):
        table.play(0, Move("call"))


def test_pi10_the_warning_is_void_when_the_hand_changes_size() -> None:
    table = deal([["R+2", "R2"], ["G+2", "Y2"]], starter="R5", stock=("B1", "B3", "B4", "B6"))
    play(table, 0, "R+2")                     # one card left, no call: warned
    assert [d.seat for d in table.deadlines()] == [0]
    play(table, 1, "G+2")                     # seat 1 too is down to one card
    table.play(0, Move("take"))               # seat 0 takes 4: his warning is void
    assert [d.seat for d in table.deadlines()] == [1]


def test_pi10_one_may_call_only_with_one_card() -> None:
    table = deal([["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]], starter="R5")
    with pytest.raises(IllegalMove, match="only with one card"):
        table.play(0, Move("call"))
    with pytest.raises(IllegalMove, match="only when this play leaves you one card"):
        table.play(0, Move("play", ("R1",), "pika"))


# --- end of the round ------------------------------------------------------------------------

def test_pi11_going_out_wins_the_round() -> None:
    table = deal([["R1", "R2"], ["B7", "B8"]], starter="R5", stock=("G9",))
    table.play(0, Move("play", ("R1",), "pika"))
    table.play(1, Move("draw"))               # G9 fits neither red nor 1: the turn passes
    assert table.to_move() == (0,)
    play(table, 0, "R2")
    result = table.result()
    assert result is not None and result.places == (1, 2) and result.outcome == "finished"
    assert table.to_move() == () and table.legal_moves(1) == []


def test_pi11_going_out_on_a_plus2_goes_on_until_someone_takes() -> None:
    table = deal([["R+2", "R1"], ["B7", "B8"], ["G7", "G8"]], starter="R5",
                 stock=("Y9", "Y8", "Y7", "Y6"))
    table.play(0, Move("play", ("R1",), "pika"))
    table.play(1, Move("draw"))
    table.play(2, Move("draw"))
    play(table, 0, "R+2")                     # his last card, but a +2
    assert table.result() is None
    assert table.view(None)["players"][0]["status"] == "out on a draw card"
    table.play(1, Move("take"))
    result = table.result()
    assert result is not None and result.places[0] == 1
    assert table.view(1)["hand"] == ["B7", "B8", "Y9", "Y7", "Y6"]   # the taker keeps them


def test_pi11_decision_the_count_coming_back_is_taken_and_he_plays_on() -> None:
    table = deal([["R+2", "R3"], ["G+2", "Y2"]], starter="R5", stock=("B1", "B3", "B4", "B6",
                                                                         "B8"))
    table.play(0, Move("play", ("R3",), "pika"))
    table.play(1, Move("draw"))               # B1 fits neither red nor 3
    play(table, 0, "R+2")                     # out, on a +2
    play(table, 1, "G+2")                     # chained straight back
    assert kinds(table, 0) == {("take", (), None)}
    table.play(0, Move("take"))
    assert table.result() is None             # he is back in and plays on
    assert table.view(0)["hand"] == ["B3", "B4", "B6", "B8"]
    assert table.to_move() == (1,)


def test_pi12_places_by_cards_in_hand_ties_share() -> None:
    table = deal([["R1", "R2"], ["B7", "B8"], ["G7", "G8"]], starter="R5", stock=("Y9", "Y8"))
    table.play(0, Move("play", ("R1",), "pika"))
    table.play(1, Move("draw"))
    table.play(2, Move("draw"))
    play(table, 0, "R2")
    result = table.result()
    assert result is not None and result.places == (1, 2, 2)


def test_pi14_a_player_reorders_his_own_hand_and_nothing_else_changes() -> None:
    table = deal([["R1", "B2", "G3"], ["Y1", "Y2", "Y3"]], starter="R5")
    before = table.view(1)
    table.reorder(0, ["G3", "R1", "B2"])
    assert table.view(0)["hand"] == ["G3", "R1", "B2"]
    assert {k: v for k, v in table.view(1).items() if k != "version"} == \
        {k: v for k, v in before.items() if k != "version"}
    with pytest.raises(IllegalMove, match="exactly the cards of your hand"):
        table.reorder(0, ["G3", "R1", "R1"])
    assert Table.restore(table.save()).view(0)["hand"] == ["G3", "R1", "B2"]


def test_pi15_with_two_players_reverse_acts_as_block() -> None:
    table = deal([["RV", "B1"], ["Y1", "Y2"]], starter="R5")
    play(table, 0, "RV")
    assert turn(table) == 0


def test_pi15_with_three_players_reverse_gives_the_turn_straight_back() -> None:
    table = deal([["R1", "B1"], ["RV", "Y2"], ["G1", "G2"]], starter="R5")
    play(table, 0, "R1")
    play(table, 1, "RV")
    assert turn(table) == 0


# --- the API's promises ----------------------------------------------------------------------

def test_an_illegal_move_names_the_move_and_the_reason_and_changes_nothing() -> None:
    table = deal([["R9", "G5", "B7"], ["Y1", "Y2", "Y3"]], starter="R5")
    before = table.save()
    with pytest.raises(IllegalMove) as caught:
        table.play(0, Move("play", ("B7",)))
    assert "B7" in str(caught.value) and "matches neither" in str(caught.value)
    assert table.save() == before
    with pytest.raises(IllegalMove, match="not your turn"):
        table.play(1, Move("play", ("Y1",)))
    with pytest.raises(IllegalMove, match="not in your hand"):
        table.play(0, Move("play", ("R7",)))
    assert table.save() == before
