"""The words of the screens (issue 27, item 13): every state a seat shows is in the
player's language, numbers are grouped as his language writes them, the create form names
the modes as its rows do, the footer names the button that is there, a random dealer reads
as such, the loser of an entry table reads what he lost, a house rule at a table is said
(in play, where no waiting room showed it, and in the rules in short), and a name with an
emoji keeps the columns after it where they are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prompt_toolkit.utils import get_cwidth

from cardparty.client.controller import Controller
from cardparty.client.dialog import CreateForm, SeekForm
from cardparty.client.economy_words import coins_text, reward_text
from cardparty.client.net_link import lobby_row
from cardparty.client.render import Renderer
from cardparty.client.render_screens import settings_text
from cardparty.client.screens.room import RoomScreen
from cardparty.client.theme import glyphs
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import _, ngettext, set_language


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    set_language("en")


def games() -> list[dict]:
    """The installed games as a host describes them (``GameInfo.to_wire()``)."""
    catalog = load_catalog()
    return [catalog.game(gid).to_wire() for gid in sorted(catalog.games)]


def text(fragments: list[tuple]) -> str:
    return "".join(f[1] for f in fragments)


@pytest.mark.parametrize(("lang", "ready", "away"), [("cs", "připraven", "pryč"),
                                                     ("ca", "a punt", "absent")])
def test_a_seats_states_in_the_lobby_are_in_the_players_language(
        speaking: None, lang: str, ready: str, away: str) -> None:
    set_language(lang)
    row = lobby_row({"id": "t1", "seats": [{"kind": "human", "name": "Eva", "ready": True,
                                            "connected": False}]})
    assert row["seats"] == [f"Eva ({ready}, {away})"]


def test_coins_are_grouped_as_the_language_writes_them(speaking: None) -> None:
    assert coins_text(1000) == "1,000"
    set_language("ca")
    assert coins_text(1000) == "1.000"
    set_language("cs")
    assert coins_text(12500) == "12\u00a0500"


@pytest.mark.parametrize("lang", ["cs", "ca"])
def test_the_create_forms_help_names_the_modes_as_its_row_shows_them(
        speaking: None, lang: str) -> None:
    set_language(lang)
    c = Controller(None, name="Eva")
    c.show("lobby")
    c.games = games()
    form = CreateForm(c.games, lambda req: None)
    form.cursor = next(i for i, r in enumerate(form.rows) if r.key == "mode")
    c.dialog = form
    shown = text(Renderer(c, glyphs(False)).dialog())
    for english in ("open:", "friends:", "practice:", "entry:"):
        assert english not in shown, shown


def test_the_forms_footer_names_its_own_button() -> None:
    c = Controller(None, name="Eva")
    c.games = games()
    c.dialog = SeekForm(c.games, lambda req: None)
    shown = text(Renderer(c, glyphs(False)).dialog())
    assert "Enter on Seek a table" in shown and "Create" not in shown
    c.dialog = CreateForm(c.games, lambda req: None)
    assert "Enter on Create the table" in text(Renderer(c, glyphs(False)).dialog())


def test_a_random_dealer_reads_so_and_a_dealer_by_its_seat() -> None:
    game = next(g for g in games() if g["id"] == "kakhead")
    assert settings_text({"dealer": -1}, game) == "dealer drawn at random"
    assert settings_text({"dealer": 0}, game) == "dealer seat 1"


def test_the_loser_at_an_entry_table_reads_what_he_lost() -> None:
    said = reward_text({"mode": "entry", "coins": 0, "stake": 250, "pot": 500, "xp": 10,
                        "league": 0, "profile": {"level": 0}})
    assert said.startswith("You lose your stake of 250 coins: the pot of 500 goes")


def test_a_house_rule_is_said_at_the_table_and_in_the_rules_in_short() -> None:
    c = Controller(None, name="Eva")
    c.games = [{"id": "kakhead", "name": "Kakhead", "summary": "Shed your cards.",
                "variants": [{"id": "kakhead-four-in-a-row", "name": "Four in a row burns"}]}]
    c.receive({"type": "view", "table": "t1", "view": {
        "game": "kakhead", "seat": 0, "variants": ["kakhead-four-in-a-row"],
        "players": [{"name": "Eva"}, {"name": "Bot 2"}], "moves": []}, "events": []})
    assert c.screen == "table"
    assert "House rules at this table: Four in a row burns." in list(c.table.log)
    c.help = 2
    assert "Four in a row burns" in text(Renderer(c, glyphs(False)).help())


def test_an_emoji_in_a_name_keeps_the_columns_after_it() -> None:
    c = Controller(None, name="Eva")
    r = Renderer(c, glyphs(False))
    rows = [{"id": "t1", "game": "pika", "seats": [name, None], "mode": "open",
             "status": "open"} for name in ("Eva", "Eva🎉🎉")]
    lines = [r.table_row(t) for t in rows]
    assert [sum(get_cwidth(ch) for ch in line) for line in lines] == [77, 77]
    status_at = [sum(get_cwidth(ch) for ch in line[:line.rindex("open")]) for line in lines]
    assert status_at[0] == status_at[1]


def test_an_emoji_in_a_name_keeps_the_waiting_rooms_seat_column() -> None:
    r = Renderer(Controller(None, name="Eva"), glyphs(False))
    seats, _waiting = r.room_seats([{"kind": "human", "name": "Eva🎉"},
                                    {"kind": "human", "name": "Petr"}])
    lines = [line for line in "".join(f[1] for f in seats).split("\n") if ". " in line]
    at = [sum(get_cwidth(ch) for ch in line[:line.index("ready")]) for line in lines]
    assert at[0] == at[1], lines



@pytest.mark.parametrize("lang", ["en", "cs", "ca"])
def test_the_waiting_rooms_lines_break_between_words(speaking: None, lang: str) -> None:
    """Under tmux at 80 columns the Catalan room read 'substitut per inactivitat: no|rmal'
    and '(en f|alten 3)': its settings, bots and start lines were cut at the edge."""
    set_language(lang)
    c = Controller(None, name="Ana")
    c.games = games()
    c.show("room")
    c.get(RoomScreen).table = "t1"
    c.tables = [{"id": "t1", "game": "pika", "mode": "open", "status": "open",
                 "seats": ["Eva", "Ana", None],
                 "summary": {"seats": [{"kind": "human", "name": "Eva"},
                                       {"kind": "human", "name": "Ana"}, {"kind": "empty"}],
                             "settings": {"hand_size": 4, "call_window": 3.0, "dealer": -1},
                             "variants": [], "bot_budget_ms": 150,
                             "standin_level": "normal"}}]
    lines = text(Renderer(c, glyphs(False), width=lambda: 80).screen("room")).split("\n")
    assert all(sum(get_cwidth(ch) for ch in line) < 80 for line in lines), lines
    words = " ".join(" ".join(lines).split())
    said = [_("hard bots think {ms} ms a move; idle stand-in: {level}").format(
                ms=150, level=_("normal")),
            ngettext("The game starts when every seat is taken and every player is ready "
                     "({n} to go).", "The game starts when every seat is taken and every "
                     "player is ready ({n} to go).", 3).format(n=3)]
    for sentence in said:
        assert " ".join(sentence.split()) in words, lines
