"""One rule says whether two moves are the same move (``table_model.move_key``): the kind,
the cards in play order and the choice; an id or a label names a move in one view only. The
link's resend after a stale move, the cards that go one per move, and Enter's search among
the listed moves all ask it."""

from __future__ import annotations

from cardparty.client.table_model import TableModel, listed_as, same_move

PLAY_W_RED = {"id": 3, "kind": "play", "cards": ["W"], "choice": "R", "label": "play W naming red"}


def test_the_same_move_under_another_id_and_label_is_the_same_move() -> None:
    again = {"id": 7, "kind": "play", "cards": ["W"], "choice": "R", "label": "hrát W: červená"}
    assert same_move(PLAY_W_RED, again)
    assert same_move(PLAY_W_RED, {"kind": "play", "cards": ["W"], "choice": "R"})


def test_another_choice_another_order_or_another_kind_is_another_move() -> None:
    assert not same_move(PLAY_W_RED, {**PLAY_W_RED, "choice": "G"})
    assert not same_move(PLAY_W_RED, {**PLAY_W_RED, "kind": "throw"})
    pair = {"kind": "play", "cards": ["TS", "TC"], "choice": None}
    assert not same_move(pair, {**pair, "cards": ["TC", "TS"]})
    assert same_move({"kind": "draw"}, {"kind": "draw", "cards": [], "choice": None})


def test_listed_as_finds_a_kind_and_cards_whatever_the_choice() -> None:
    moves = [PLAY_W_RED, {**PLAY_W_RED, "id": 4, "choice": "G"},
             {"id": 5, "kind": "discard", "cards": ["W"], "choice": None}]
    assert [m["id"] for m in listed_as(moves, "play", ["W"])] == [3, 4]
    assert [m["id"] for m in listed_as(moves, "discard", ["W"])] == [5]


def test_cards_in_another_order_are_offered_once_per_move_in_the_players_order() -> None:
    tm = TableModel()
    tm.apply({"hand": ["TS", "TC"], "moves": [
        {"id": 0, "kind": "play", "cards": ["TS", "TC"], "choice": None},
        {"id": 1, "kind": "play", "cards": ["TS", "TC"], "choice": None}]})
    assert [m["cards"] for m in tm.candidates(["TC", "TS"])] == [["TC", "TS"]]
