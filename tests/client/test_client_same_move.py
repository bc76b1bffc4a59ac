"""One rule says whether two moves are the same move (``table_model.move_key``): the kind,
the cards in play order and the choice; an id or a label names a move in one view only. The
link's resend after a stale move, the cards that go one per move, and Enter's search among
the listed moves all ask it."""

from __future__ import annotations

from cardparty.client.table_model import TableModel, listed_as, listed_at, same_move

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


def test_a_view_applied_is_left_as_the_link_holds_it() -> None:
    """The model labels its own copy of the moves: the link's view (another thread's) keeps
    the host's words."""
    move = {"id": 0, "kind": "draw", "cards": [], "choice": None, "label": "draw",
            "msg": {"id": "draw"}}
    view = {"version": 3, "hand": [], "moves": [move]}
    tm = TableModel()
    tm.apply(view)
    assert view["moves"] == [move] and move == {
        "id": 0, "kind": "draw", "cards": [], "choice": None, "label": "draw",
        "msg": {"id": "draw"}}
    assert tm.moves[0]["label"] == "draw" and tm.moves[0] is not move


def test_a_listed_move_keeps_its_id_and_one_in_the_players_order_has_none() -> None:
    tm = TableModel()
    tm.apply({"version": 5, "hand": ["TS", "TC"], "moves": [
        {"id": 0, "kind": "play", "cards": ["TS", "TC"], "choice": None}]})
    assert listed_at(tm.moves[0], tm.view) == (0, 5)
    (mine,) = tm.candidates(["TC", "TS"])
    assert mine["cards"] == ["TC", "TS"] and listed_at(mine, tm.view) is None


def test_the_call_key_with_a_card_offers_the_plays_the_game_says_call() -> None:
    """Which plays make the call is the game's word (``calls``), not its label's: a play
    labelled "call" that the game does not mark is not offered, one marked is."""
    tm = TableModel()
    tm.apply({"hand": ["R7"], "moves": [
        {"id": 0, "kind": "play", "cards": ["R7"], "choice": None, "label": "play R7 (call me)"},
        {"id": 1, "kind": "play", "cards": ["R7"], "choice": "pika", "label": "play R7 +",
         "calls": True}]})
    out = tm.call()
    assert out.move is not None and out.move["id"] == 1
