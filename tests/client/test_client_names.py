"""Names where a game's sentence says seat numbers: a result's summary (``seat 3 won (out of
cards)``, ``seat 0 is the Kakhead``, ``seat 1 won 120 to 69``) reads with the players' names
on the round-over screen, in the log, and in ``cardparty watch``."""

from __future__ import annotations

import pytest

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.theme import glyphs
from cardparty.core.narrate import with_names

NAMES = ["Eva", "Petr", "Jana", "Karel"]


@pytest.mark.parametrize(("said", "read"), [
    ("seat 3 won (out of cards)", "Karel won (out of cards)"),
    ("seat 0 is the Kakhead", "Eva is the Kakhead"),
    ("seat 1 won 120 to 69", "Petr won 120 to 69"),
    ("seat 0, 2 won (out of cards)", "Eva, Jana won (out of cards)"),
    ("seat 2 lost (last) and deals next", "Jana lost (last) and deals next"),
    ("there is no seat 7", "there is no seat 7"),            # not a seat: left alone
    ("seats 9 and 1", "seats 9 and 1"),
])
def test_seat_numbers_become_names(said: str, read: str) -> None:
    assert with_names(said, NAMES) == read


def test_the_round_over_screen_names_the_winner() -> None:
    c = Controller(None, name="Eva")
    c.show("table")
    c.table.apply({"game": "pika", "seat": 0, "players": [{"name": "Eva"}, {"name": "Petr"}],
                   "result": {"places": [1, 2], "summary": "seat 0 won (out of cards)"}},
                  [{"type": "over", "seat": None, "text": "seat 0 won (out of cards)"}])
    assert c.table.over
    text = "".join(f[1] for f in Renderer(c, glyphs(False)).over())
    assert "Eva won (out of cards)" in text and "seat 0" not in text
    assert list(c.table.log) == ["Eva won (out of cards)"]


def test_watch_prints_the_summary_with_names(capsys: pytest.CaptureFixture[str]) -> None:
    from cardparty.client.cli import main
    assert main(["watch", "--game", "kakhead", "--players", "3", "--seed", "4"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert "is the Kakhead" in last and "seat" not in last


def test_a_summary_in_words_of_the_wire_names_the_players_too() -> None:
    """A result carrying its summary as a message (``summary_msg``) reads with names as well,
    never as "seat Eva": the games' own results, not only the plain text above."""
    from cardparty.core.contract import Result
    from cardparty.core.i18n import Msg

    lost = Result(places=(2, 1), scores=(3, 0), next_dealer=0, outcome="finished",
                  summary=Msg("seat {seats} lost ({how}) and deals next", seats=0,
                              how=Msg("last holding cards")))
    c = Controller(None, name="Eva")
    c.show("table")
    c.table.apply({"game": "pikac", "seat": 0, "players": [{"name": "Eva"}, {"name": "Petr"}],
                   "result": lost.to_wire()}, [])
    text = " ".join("".join(f[1] for f in Renderer(c, glyphs(False)).over()).split())
    assert "Eva lost (last holding cards) and deals next" in text
    assert "seat Eva" not in text and "seat 0" not in text
