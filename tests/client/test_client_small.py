"""The table screen is complete at 80x24 for every game at its largest table (every seat, the
zones and the counters, the hand, the moves), and a terminal too small for a table says so
instead of dropping lines; boxes (the help, the end of a round) fit narrow terminals. The
real application is drawn into prompt-toolkit's screen buffer and read back as text."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output.vt100 import Vt100_Output

from cardparty.client.app import build_app
from cardparty.client.controller import Controller
from cardparty.client.render import counter_text
from cardparty.core.discovery import load_catalog
from tests.client.clientkit import Client, HostKit, seated


class Sink(io.StringIO):
    encoding = "utf-8"

    def fileno(self) -> int:
        raise io.UnsupportedOperation


def snapshot(c: Controller, columns: int, rows: int) -> str:
    """The application's screen at ``columns`` x ``rows``, as text."""
    out = Vt100_Output(Sink(), lambda: Size(rows=rows, columns=columns), term="xterm")
    with create_pipe_input() as pipe:
        app, _ = build_app(c, input=pipe, output=out)
        screen = Screen()
        with set_app(app):
            for _ in range(2):              # twice, as a running application draws again
                app.render_counter += 1
                screen = Screen()
                app.layout.container.write_to_screen(
                    screen, MouseHandlers(), WritePosition(0, 0, columns, rows), "",
                    erase_bg=False, z_index=None)
                screen.draw_all_floats()
    return "\n".join("".join(screen.data_buffer[y][x].char for x in range(columns)).rstrip()
                     for y in range(rows))


def largest_table(kit: HostKit, game: str, seed: int = 3) -> Client:
    """Eva at seat 0 of ``game``'s largest table at the test host, bots in every other seat."""
    return seated(kit, game, load_catalog().game(game).max_players, seed=seed)


@pytest.mark.parametrize("game", sorted(load_catalog().games))
def test_the_largest_table_of_every_game_is_complete_at_80x24(kit: HostKit, game: str) -> None:
    c = largest_table(kit, game)
    c.key("tab")
    text = snapshot(c, 80, 24)
    view = c.table.view
    for name in c.table.names:
        assert name in text, (name, text)
    for zone in view.get("zones") or {}:
        assert f"{zone}:" in text, (zone, text)
    for counter, value in (view.get("counters") or {}).items():
        assert f"{counter}: {counter_text(value, c.table.names, counter)}" in text, text
    assert "Hand" in text and "Tab: next" in text and "too small" not in text
    lines = text.splitlines()
    assert len(lines) == 24 and lines[-1].startswith(" ? help")
    newest = list(c.table.log)[-1]
    assert f" {newest}" in lines, text                       # the log's newest line shows
    c.close()


def test_a_terminal_too_small_for_the_table_says_so(kit: HostKit) -> None:
    c = largest_table(kit, "pikac")
    text = snapshot(c, 60, 14)
    assert "too small" in text and "Bot 8" not in text
    assert "Hand" not in text
    c.close()


def test_the_help_shows_its_keys_at_60x20(kit: HostKit) -> None:
    c = largest_table(kit, "pika")
    c.key("?")
    text = snapshot(c, 60, 20)
    assert "Keys" in text and "Tab S-Tab" in text, text
    c.close()


def test_the_lobby_and_its_create_form_fit_80x24_with_no_word_cut() -> None:
    """At 80 columns the lobby's bottom line wrapped onto a second line, and the create
    form's help on the mode was cut at 70 characters, its last word split over two lines
    of the box (``n`` / ``o``)."""
    from cardparty.client.dialog import CreateForm

    c = Controller(None, name="Eva")
    c.show("lobby")
    c.games = [g.to_wire() for g in load_catalog().games.values()]
    text = snapshot(c, 80, 24)
    assert text.splitlines()[-1].startswith(" ? help") and "q: quit" in text, text
    c.key("c")
    form = c.dialog
    assert isinstance(form, CreateForm)
    form.cursor = next(i for i, r in enumerate(form.rows) if r.key == "mode")
    text = " ".join(" ".join(line.strip(" │") for line in snapshot(c, 80, 24).splitlines()
                             ).split())
    assert "practice: you and bots, no coins" in text, text
