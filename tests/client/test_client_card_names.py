"""Cards by their names wherever the client writes them: dialog titles (``How to play 9♣?``,
not ``9C``), the log (a Joker is ``Joker``, as on the pile, never ``X``); and Pika's card
symbols are explained in its rules in short (``?`` twice)."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.theme import pretty_text
from cardparty.client.words import describer
from cardparty.core.discovery import load_catalog
from tests.client.test_client_enter import at_table


def test_a_dialog_title_names_the_cards() -> None:
    c, _ = at_table({"hand": ["9C", "4D"], "moves": [
        {"id": 0, "kind": "play", "cards": ["9C"], "choice": "H", "label": "play 9C hearts"},
        {"id": 1, "kind": "play", "cards": ["9C"], "choice": "S", "label": "play 9C spades"}]})
    c.key("enter")
    assert c.dialog is not None and c.dialog.title == "How to play 9♣?"


def test_jokers_in_the_log_are_jokers() -> None:
    assert pretty_text("Eva plays X X X", ["X", "X", "X"]) == "Eva plays Joker Joker Joker"
    assert pretty_text("X marks the spot", []) == "X marks the spot"
    c = Controller(None, name="Eva", describe=describer)
    c.receive({"type": "view", "table": "t1", "view": {
        "game": "kakhead", "seat": 0, "players": [{"name": "Eva"}, {"name": "Petr"}]},
        "events": [{"type": "play", "seat": 1, "cards": ["X", "X", "X"]}]})
    assert list(c.table.log) == ["Petr plays Joker Joker Joker"]


def test_pika_explains_its_card_symbols() -> None:
    summary = load_catalog().game("pika").summary
    assert "S (block)" in summary and "V (reverse)" in summary
