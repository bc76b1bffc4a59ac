"""From keys to the moves the view lists: selection + Enter, dialogs for the choices a move
carries, number keys for moves without cards, Tab through the legal moves, the call key, hand
order. Real Pika views from a real host in this process, through the real client link; no
mocks."""

from __future__ import annotations

import re

from cardparty.client.controller import Controller
from cardparty.client.dialog import Choice
from cardparty.client.render import Renderer
from cardparty.client.table_model import TableModel, listed_at, wire_move
from cardparty.client.theme import UNICODE
from tests.client.clientkit import Client, HostKit, pika_at, seated


def keys(c: Controller, *names: str) -> None:
    for name in names:
        c.key(name)


def test_enter_plays_the_card_under_the_cursor(opening: Client) -> None:
    c = opening
    assert c.screen == "table" and c.table.hand[0] == "R7"
    c.key("enter")
    assert c.sent == [{"kind": "play", "cards": ["R7"], "choice": None}]
    assert "Eva plays R7" in c.table.log


def test_legal_cards_are_those_some_listed_move_carries(
        opening: Client) -> None:
    c = opening
    assert c.table.legal_codes() == {"R7", "W", "R1", "R2", "R3"}


def test_a_black_card_asks_for_the_colour_it_names_from_the_listed_choices(
        opening: Client) -> None:
    c = opening
    keys(c, "right", "enter")
    assert isinstance(c.dialog, Choice)
    labels = [label for label, _ in c.dialog.options]
    assert labels == ["play W naming red", "play W naming yellow", "play W naming green",
                      "play W naming blue"]
    keys(c, "down", "down", "enter")
    assert c.dialog is None
    assert c.sent == [{"kind": "play", "cards": ["W"], "choice": "G"}]


def test_escape_closes_a_dialog_without_playing(opening: Client) -> None:
    c = opening
    keys(c, "right", "enter", "escape")
    assert c.dialog is None and c.sent == []


def test_a_card_the_rules_refuse_is_sent_and_the_hosts_reason_shows_as_one_line(
        kit: HostKit) -> None:
    c = pika_at(kit, ["R7", "W", "R1", "R2", "B3", "B5", "Y5", "W+4", "G1", "G2", "R4"])
    keys(c, "left", "enter")                      # B3 on R4: neither colour nor number
    assert c.sent == [{"kind": "play", "cards": ["B3"], "choice": None}]
    assert "B3 matches neither the colour in force (red) nor the top card R4" in c.error
    assert "\n" not in c.error
    assert c.table.hand == ["R7", "W", "R1", "R2", "B3"]


def test_number_keys_play_moves_without_cards_and_tab_steps_through_every_move(
        kit: HostKit) -> None:
    # Seat 0 has nothing that fits R4: the only move is to draw (PI-5).
    c = pika_at(kit, ["B7", "B8", "Y1", "Y2", "G3", "B5", "Y5", "W+4", "G1", "G2", "R4",
                      "B9"])
    assert [g[0] for g in c.table.action_groups()] == ["draw"]
    c.key("1")
    assert c.sent[-1] == {"kind": "draw", "cards": [], "choice": None}


def test_tab_suggests_each_listed_move_and_enter_plays_exactly_it(
        opening: Client) -> None:
    c = opening
    keys(c, "tab", "tab", "tab")
    hint = c.table.suggested()
    assert hint is not None and hint["label"] == "play W naming yellow"
    assert [c.table.hand[i] for i in c.table.selection] == ["W"]
    c.key("enter")
    assert c.sent == [{"kind": "play", "cards": ["W"], "choice": "Y"}]


def test_moving_the_cursor_drops_the_suggestion(opening: Client) -> None:
    c = opening
    keys(c, "tab", "tab", "right", "right", "enter")      # Tab put the cursor on W
    assert c.sent == [{"kind": "play", "cards": ["R2"], "choice": None}]


def test_pi14_the_hand_is_reordered_by_keys_and_the_order_reaches_the_table(
        opening: Client) -> None:
    c = opening
    keys(c, ">", ">")
    assert c.table.hand == ["W", "R1", "R7", "R2", "R3"]
    assert c.host_table().view(0)["hand"] == ["W", "R1", "R7", "R2", "R3"]
    c.key("o")
    assert c.table.hand == ["R1", "R2", "R3", "R7", "W"]
    assert c.host_table().view(0)["hand"] == c.table.hand


def test_pi10_the_call_key_plays_the_card_with_the_call_when_it_leaves_one_card(
        kit: HostKit) -> None:
    # Seat 0 holds R7 B2 only: playing R7 leaves one card, so the call may come with it.
    c = pika_at(kit, ["R7", "B2", "B5", "Y5", "R4", "G9"], hand=2)
    c.key("p")
    assert c.sent == [{"kind": "play", "cards": ["R7"], "choice": "pika"}]
    assert "Eva calls «Pika!»" in c.table.log


def test_pi10_the_warning_shows_with_its_countdown_and_the_call_key_answers_it(
        kit: HostKit) -> None:
    c = pika_at(kit, ["R7", "B2", "B5", "Y5", "R4", "G9"], hand=2)
    c.key("enter")                     # R7: with or without the call? the listed choices
    assert isinstance(c.dialog, Choice)
    assert [label for label, _ in c.dialog.options] == ["play R7", "play R7 and call Pika!"]
    c.key("enter")                     # without: warned (PI-10)
    assert [d["name"] for d, _ in c.table.deadlines()] == ["pika"]
    assert any(m["kind"] == "call" for m in c.table.moves)
    r = Renderer(c, UNICODE)
    warning = "".join(f[1] for f in r.actions())
    shown = re.search(r"⚠ pika (\d+\.\d)s - press p to call!", warning)
    assert shown and 0.0 < float(shown[1]) <= 30.0, warning   # the host's 30 s, counting down
    assert "⏱ pika" in "".join(f[1] for f in r.players())
    c.key("p")
    assert c.sent[-1] == {"kind": "call", "cards": [], "choice": None}
    assert c.table.deadlines() == []


def test_multi_card_plays_keep_the_chosen_order_when_the_listing_has_another() -> None:
    view = {"seat": 0, "hand": ["7H", "7S", "7C"], "players": [{"name": "Eva", "count": 3}],
            "moves": [{"id": 0, "kind": "play", "cards": ["7H", "7S"], "choice": None,
                       "label": "play 7♥ 7♠"},
                      {"id": 1, "kind": "play", "cards": ["7H"], "choice": None,
                       "label": "play 7♥"}]}
    tm = TableModel()
    tm.apply(view)
    tm.toggle(1)
    tm.toggle(0)
    out = tm.enter()
    assert out.move is not None
    assert wire_move(out.move) == {"kind": "play", "cards": ["7S", "7H"], "choice": None}
    assert listed_at(out.move, tm.view) is None, "not the listed order: no id goes with it"


def test_a_choice_without_cards_offers_the_listed_values_in_a_dialog() -> None:
    # A game-agnostic view: the dealer chooses a hand size (moves of one kind, no cards).
    view = {"seat": 0, "hand": [], "players": [{"name": "Eva", "count": 0}],
            "moves": [{"id": i, "kind": "choose", "cards": [], "choice": str(n),
                       "label": f"deal {n} cards"} for i, n in enumerate((5, 6, 7))]}
    tm = TableModel()
    tm.apply(view)
    out = tm.action(1)
    assert [m["label"] for m in out.options] == ["deal 5 cards", "deal 6 cards",
                                                 "deal 7 cards"]
    assert tm.enter().options == out.options  # Enter with no cards: the only group


def test_kh3_a_hand_card_and_enter_offer_the_face_up_cards_it_may_swap_with(
        kit: HostKit) -> None:
    c = seated(kit, "kakhead", 2, seed=3)
    first = c.table.hand[0]
    c.key("enter")
    assert isinstance(c.dialog, Choice)
    options = [move for _, move in c.dialog.options]
    assert options and all(m["kind"] == "swap" and m["cards"][0] == first for m in options)
    c.key("enter")
    assert c.sent == [{"kind": "swap", "cards": options[0]["cards"], "choice": None}]
    assert first not in c.table.hand
    assert [kind for kind, _ in c.table.action_groups()] == ["ready"]
