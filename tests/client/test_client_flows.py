"""Whole flows through the controller and the renderer, with the real client link to a real
host in this process: a game played to its end by keys, the end of a round, play again, help,
chat, and random keys in every state never breaking anything."""

from __future__ import annotations

import random

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.screens.lobby import selected_table
from cardparty.client.theme import ASCII, UNICODE
from cardparty.core.table import open_table
from tests.client.clientkit import Client, HostKit, RecordingLink, pika_at, seated


def text_of(fragments: list[tuple]) -> str:
    return "".join(f[1] for f in fragments)


def draw_all(c: Controller, ascii_only: bool = False) -> str:
    """Every region of the current screen, as text (raises if any drawing fails)."""
    r = Renderer(c, ASCII if ascii_only else UNICODE, ascii_only)
    parts = [r.title(), r.banner(), r.status(), r.dialog(), r.help()]
    if c.screen == "start":
        parts.append(r.screen("start"))
    elif c.screen == "lobby":
        parts.append(r.screen("lobby"))
    else:
        parts += [r.players(), r.zones(), r.log(20), r.hand(), r.actions()]
        if c.table.over:
            parts.append(r.over())
    return "\n".join(text_of(p) for p in parts)


def play_by_keys(c: Controller, limit: int = 3000) -> int:
    """Tab (the first listed move) and Enter until the round is over; dialogs take their
    first choice. Returns the number of keys pressed."""
    pressed = 0
    while not c.table.over and pressed < limit:
        if c.dialog is not None:
            c.key("enter")
        elif c.table.moves:
            c.key("tab")
            c.key("enter")
            pressed += 1
        else:
            raise AssertionError(f"nothing to do: {c.table.view}")
        pressed += 1
    return pressed


def test_a_pika_game_is_played_to_its_end_by_keys_and_the_places_show(kit: HostKit) -> None:
    c = pika_at(kit, None, players=4, hand=7, seed=11)
    play_by_keys(c)
    assert c.table.over and c.failures == []
    screen = draw_all(c)
    assert "Round over" in screen
    places = c.table.view["result"]["places"]
    for seat, name in enumerate(c.table.names):
        assert f"{places[seat]}. {name}" in screen
    assert any(line.startswith("round over: 1.") for line in c.table.log)


def test_a_kakhead_round_is_played_out_by_keys_and_the_places_show(kit: HostKit) -> None:
    """KH-11: the round is played to its end, not agreed drawn (the tmux test ends Kakhead by
    an agreed draw, to stay quick): every card played by keys or by the two bots, and the
    places ranked on the round's last screen."""
    c = seated(kit, "kakhead", 3, seed=4)
    play_by_keys(c, limit=5000)
    assert c.table.over and c.failures == []
    result = c.table.view["result"]
    assert result["outcome"] != "draw agreed" and sorted(result["places"]) == [1, 2, 3]
    screen = draw_all(c)
    assert "Round over" in screen
    for seat, name in enumerate(c.table.names):
        assert f"{result['places'][seat]}. {name}" in screen


def test_n_deals_again_at_the_same_table_and_l_goes_back_to_the_lobby(kit: HostKit) -> None:
    c = pika_at(kit, None, players=2, hand=3, seed=5)
    first = c.table_id
    play_by_keys(c)
    c.key("n")                              # another round at the same table (protocol: again)
    c.pump.until(lambda: c.screen == "table" and bool(c.table.view) and not c.table.over)
    c.settle()
    assert c.table_id == first and not c.table.over and len(c.table.hand) == 3
    play_by_keys(c)
    c.key("l")
    assert c.screen == "lobby"
    assert "Pika" in draw_all(c)


def test_help_shows_the_keys_then_the_games_rules_in_short(opening: Client) -> None:
    c = opening
    c.key("?")
    assert "Tab" in draw_all(c) and c.help == 1
    c.key("?")
    assert "Pika: the rules in short" in draw_all(c)
    assert "shed your hand" in draw_all(c)
    c.key("x")
    assert c.help == 0 and c.table.hand == ["R7", "W", "R1", "R2", "R3"]


def test_chat_is_typed_on_one_line_and_shows_in_the_log(opening: Client) -> None:
    c = opening
    for k in ["t", *"gg all", "enter"]:
        c.key(k)
    assert "<Eva> gg all" in c.table.log


def test_a_spectator_sees_no_hand_and_has_no_moves(kit: HostKit, opening: Client) -> None:
    table = opening.table_id
    zoe = Client(kit, RecordingLink(kit.address, "Zoe"), "Zoe")
    zoe.pump.until(lambda: any(t["id"] == table for t in zoe.tables))
    for _ in range(len(zoe.tables)):
        if (selected_table(zoe) or {}).get("id") == table:
            break
        zoe.key("down")
    zoe.key("s")                           # watch Eva's table
    zoe.pump.until(lambda: zoe.screen == "table")
    zoe.settle()
    assert zoe.table_id == table and zoe.table.seat is None
    assert zoe.table.moves == [] and zoe.table.hand == []
    assert "spectating" in draw_all(zoe)
    zoe.close()


def test_ascii_mode_draws_only_ascii(kit: HostKit) -> None:
    c = pika_at(kit, None, players=3, seed=2)
    c.key("tab")
    screens = [draw_all(c, ascii_only=True)]
    play_by_keys(c)
    screens.append(draw_all(c, ascii_only=True))
    assert any("Pika!" in line for line in c.table.log)     # narration with «» in it
    for screen in screens:
        assert screen.isascii(), [ch for ch in screen if not ch.isascii()]


def test_any_key_in_any_state_is_safe(kit: HostKit) -> None:
    """Thousands of random keys across the table, dialogs, help, the end of a round and the
    lobby: nothing raises, nothing is caught as a bug, every screen draws, every message is
    one line."""
    rng = random.Random(7)
    names = ["enter", "escape", "up", "down", "left", "right", "s-left", "s-right", "tab",
             "s-tab", "backspace", "space", "c-u", "home", "pageup",
             *"0123456789?pqtnlocsbri<>.,! xX"]
    for seed in range(4):
        if seed < 3:
            c = pika_at(kit, None, players=3, hand=4, seed=seed)
        else:                  # from the start screen: typing, joining, the lobby, a table
            autoplay = {"game": "pika", "players": 3, "bots": "basic", "bot_delay": 0.0,
                        "settings": {"hand_size": 4, "dealer": 2}, "seed": seed}
            c = Client(kit, None, "", connect=lambda who, where, a=autoplay: RecordingLink(
                kit.address, who, autoplay=a))
            for k in ["backspace", "E", "v", "a", "tab", *"127.0.0.1", "enter"]:
                c.key(k)
            c.pump.until(lambda c=c: c.screen == "table" and bool(c.table.view))
            c.settle()
            assert c.name == "Eva"
        for _ in range(1500):
            c.key(rng.choice(names))
            assert c.failures == [], c.failures
            draw_all(c)
            assert "\n" not in c.error and "\n" not in c.notice
            if c.quit:
                break
        c.close()


def test_any_key_on_the_start_screen_is_safe() -> None:
    rng = random.Random(3)
    c = Controller(None)              # no way to connect: Enter must say so in one line
    keys = ["enter", "tab", "up", "down", "backspace", "c-u", "space", "left", *"a1:.?q"]
    for _ in range(500):
        c.key(rng.choice(keys))
        assert c.failures == [] and "\n" not in c.error
        draw_all(c)
    assert c.screen == "start"


def test_a_click_on_a_card_selects_it_and_a_second_click_unselects_it(opening: Client
                                                                       ) -> None:
    c = opening
    c.key_click(2)
    c.key_click(0)
    assert [c.table.hand[i] for i in c.table.selection] == ["R1", "R7"]
    c.key_click(2)
    assert c.table.selection == [0]


def test_a_seats_line_wraps_between_items_never_inside_a_zone() -> None:
    c = Controller(None)
    c.show("table")
    c.table.apply({"seat": 0, "turn": 0, "hand": [], "moves": [], "players": [
        {"name": "Eva", "count": 12, "status": "to exchange",
         "zones": {"shown": 0, "discards": ["7H", "8H", "9H"], "tricks": 0,
                   "face-up": ["TH", "JH", "QH"], "blind": 3}}]})
    r = Renderer(c, UNICODE, width=lambda: 60)
    lines = text_of(r.players()).split("\n")
    assert len(lines) > 1 and all(len(line) < 60 for line in lines)
    assert any("face-up: 10♥ J♥ Q♥" in line for line in lines)


def test_card_codes_in_labels_and_events_read_as_cards() -> None:
    from cardparty.client.theme import label_of
    move = {"kind": "swap", "cards": ["9C", "2S"], "label": "swap 9C from your hand for 2S"}
    assert label_of(move) == "swap 9♣ from your hand for 2♠"
    assert label_of(move, ascii_only=True) == "swap 9c from your hand for 2s"
    assert label_of({"kind": "play", "cards": ["R7"], "label": "play R7"}) == "play R7"
    c = Controller(None)
    c.table.apply({"seat": 0, "players": [{"name": "Eva"}, {"name": "Bot 2"}]},
                  [{"type": "swap", "seat": 1, "cards": ["AD"],
                    "text": "Bot 2 swaps AD into the face-up cards"}])
    assert list(c.table.log) == ["Bot 2 swaps A♦ into the face-up cards"]


def test_a_long_list_of_choices_scrolls_with_the_cursor(kit: HostKit) -> None:
    """Pikáč's dealer chooses the hand size (PK-5): dozens of choices in one dialog."""
    c = seated(kit, "pikac", 3, {"dealer": 0})
    kinds = [kind for kind, _ in c.table.action_groups()]
    assert kinds == ["deal"]
    c.key("1")
    options = c.dialog.options
    assert len(options) > 20
    for _ in range(20):
        c.key("down")
    shown = text_of(Renderer(c, UNICODE).dialog())
    assert options[20][0] in shown and options[0][0] not in shown
    assert shown.count("\n") <= 16
    c.key("enter")
    assert c.sent == [{"kind": "deal", "cards": [], "choice": options[20][1]["choice"]}]


def test_a_view_of_another_table_does_not_take_the_screen(opening: Client) -> None:
    c = opening
    here = c.table_id
    other = open_table("pika", 2, {"hand_size": 5, "dealer": 1}, seed=8)
    c.receive({"type": "view", "table": "elsewhere", "view": other.view(other.to_move()[0]),
               "events": []})
    assert c.table_id == here and c.table.hand == ["R7", "W", "R1", "R2", "R3"]
    assert "table elsewhere waits for your move" in c.notice
