"""What Tab suggests is what Enter plays, even when the suggested move's cards are not in the
hand (Kakhead with an empty hand plays from its face-up cards); and only cards that can start
a listed move are marked playable (``10♣`` that is only the second card of ``10♠ 10♣`` is
not), the rest of a multi-card move once its first card is selected."""

from __future__ import annotations

from typing import Any

from cardparty.client.controller import Controller


class Recorder:
    """A link that keeps what the controller sends."""

    def __init__(self) -> None:
        self.moves: list[dict[str, Any]] = []

    def start(self, deliver: Any) -> None: ...
    def close(self) -> None: ...
    def reorder(self, table: Any, order: list[str]) -> None: ...
    def chat(self, table: Any, text: str) -> None: ...
    def request(self, action: str, **args: Any) -> None: ...

    def send_move(self, table: Any, move: dict[str, Any],
                  listed: tuple[int, int] | None = None) -> None:
        self.moves.append(move)


def at_table(view: dict[str, Any]) -> tuple[Controller, Recorder]:
    link = Recorder()
    c = Controller(link, name="Eva")                               # type: ignore[arg-type]
    c.receive({"type": "view", "table": "t1", "view": {
        "game": "kakhead", "seat": 0, "turn": 0,
        "players": [{"name": "Eva"}, {"name": "Petr"}], **view}})
    return c, link


def test_tab_then_enter_plays_a_face_up_card_with_an_empty_hand() -> None:
    c, link = at_table({"hand": [], "moves": [
        {"id": 0, "kind": "play", "cards": ["6S"], "label": "play 6S"},
        {"id": 1, "kind": "play", "cards": ["9H"], "label": "play 9H"}]})
    c.key("tab")
    assert c.table.suggestion == 0
    c.key("enter")
    assert c.dialog is None
    assert link.moves == [{"kind": "play", "cards": ["6S"], "choice": None}]


def test_tab_twice_then_enter_plays_the_second_suggestion() -> None:
    c, link = at_table({"hand": [], "moves": [
        {"id": 0, "kind": "play", "cards": ["6S"], "label": "play 6S"},
        {"id": 1, "kind": "play", "cards": ["9H"], "label": "play 9H"}]})
    c.key("tab")
    c.key("tab")
    c.key("enter")
    assert link.moves == [{"kind": "play", "cards": ["9H"], "choice": None}]


def test_the_second_card_of_a_pair_is_not_marked_playable_alone() -> None:
    c, _ = at_table({"hand": ["TS", "TC", "4D"], "moves": [
        {"id": 0, "kind": "play", "cards": ["TS"], "label": "play TS"},
        {"id": 1, "kind": "play", "cards": ["TS", "TC"], "label": "play TS TC"}]})
    assert c.table.legal_codes() == {"TS"}
    c.key("space")                                                 # select 10♠
    assert c.table.legal_codes() == {"TS", "TC"}
