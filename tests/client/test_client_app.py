"""The real prompt-toolkit application, headless: keys typed into a pipe input, the screen
drawn to a dummy output (and, for the layout checks, to a VT100 output of 80x24 kept in
memory), the real client link to a real host in this process. Nothing is stubbed: the keys go
through prompt-toolkit's parser and key bindings, the moves through the host."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from cardparty.client.app import build_app, run_async
from cardparty.client.controller import Controller
from cardparty.client.words import describer
from tests.client.clientkit import HostKit, RecordingLink, pika_link

ENTER, TAB, ESC, RIGHT = "\r", "\t", "\x1b", "\x1b[C"


class Screen(io.StringIO):
    """A terminal's bytes kept in memory (what a VT100 output writes)."""

    encoding = "utf-8"

    def fileno(self) -> int:
        raise io.UnsupportedOperation


def run_with_keys(link: RecordingLink, player: Callable[[Controller], str | None],
                  output: object = None, ascii_only: bool = False,
                  limit: int = 2000) -> Controller:
    """Run the application; ``player`` looks at the state and answers the keys to type next
    (None: done, then Ctrl-C quits). Each step waits until the screen changed."""
    c = Controller(link, name="Eva", address="in-process", describe=describer)

    async def main() -> None:
        with create_pipe_input() as pipe:
            app, inbox = build_app(c, ascii_only=ascii_only, input=pipe,
                                   output=output or DummyOutput())

            async def drive() -> None:
                while not app.is_running:
                    await asyncio.sleep(0.01)
                for _ in range(limit):
                    await asyncio.sleep(0.005)
                    keys = player(c)
                    if keys is None:
                        break
                    pipe.send_text(keys)
                    await asyncio.sleep(0.02)
                else:
                    raise AssertionError(f"never done: screen {c.screen}, error {c.error!r}")
                pipe.send_text("\x03")                    # Ctrl-C quits

            task = asyncio.ensure_future(drive())
            await asyncio.wait_for(run_async(app, inbox, lambda: link.start(inbox.deliver)),
                                   timeout=60)
            await task

    try:
        asyncio.run(main())
    finally:
        link.close()
    return c


def script(*steps: tuple[str, Callable[[Controller], bool]]) -> Callable[[Controller], str | None]:
    """A player who types each step's keys once the previous step's check holds."""
    todo = list(steps)
    waiting: list[Callable[[Controller], bool]] = []

    def player(c: Controller) -> str | None:
        if waiting and not waiting[0](c):
            return ""
        waiting.clear()
        if not todo:
            return None
        keys, check = todo.pop(0)
        waiting.append(check)
        return keys

    return player


def test_keys_through_prompt_toolkit_play_a_black_card_naming_a_colour(kit: HostKit) -> None:
    link = pika_link(kit)
    c = run_with_keys(link, script(
        ("", lambda c: c.screen == "table"),
        (RIGHT + ENTER, lambda c: c.dialog is not None),
        ("\x1b[B" + ENTER, lambda c: bool(link.sent)),          # down: yellow
    ))
    assert link.sent == [{"kind": "play", "cards": ["W"], "choice": "Y"}]
    assert c.quit and c.failures == []


def test_a_whole_round_by_keystrokes_through_the_pipe(kit: HostKit) -> None:
    link = pika_link(kit, None, players=2, hand=3, seed=4)

    def player(c: Controller) -> str | None:
        if c.table.over:
            return None
        if c.dialog is not None:
            return ENTER
        if c.table.moves:
            return TAB + ENTER
        return ""

    c = run_with_keys(link, player)
    assert c.table.over and c.failures == []
    assert c.table.view["result"]["places"]


def test_an_80x24_terminal_shows_players_table_hand_and_moves(kit: HostKit) -> None:
    link = pika_link(kit, None, players=4, seed=9)
    screen = Screen()
    out = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm")
    run_with_keys(link, script(("", lambda c: c.screen == "table"),
                               (TAB, lambda c: c.table.suggestion is not None)), output=out)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]", "",
                  screen.getvalue())
    for needle in ("Eva", "Bot 2", "Bot 4", "pile", "stock", "colour", "Hand",
                   "Enter: play", "Tab: next"):
        assert needle in text, needle


def terminal_text(screen: Screen) -> str:
    return re.sub(r"\x1b\[[0-9;?<>]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]", "",
                  screen.getvalue())


def test_ascii_mode_writes_only_ascii_to_the_terminal_frames_included(kit: HostKit) -> None:
    link = pika_link(kit, None, players=3, seed=2)
    screen = Screen()
    out = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm")
    run_with_keys(link, script(("", lambda c: c.screen == "table"),
                               ("?", lambda c: c.help == 1),
                               ("?", lambda c: c.help == 2),
                               ("x" + RIGHT + ENTER, lambda c: c.dialog is not None
                                or bool(c.error) or bool(link.sent))),
                  output=out, ascii_only=True)
    text = terminal_text(screen)
    assert "Keys" in text and "+----" in text
    assert text.isascii(), sorted({ch for ch in text if not ch.isascii()})


def test_no_color_drops_every_colour_but_keeps_the_table(monkeypatch: pytest.MonkeyPatch,
                                                         kit: HostKit) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    link = pika_link(kit, None, players=3, seed=2)
    screen = Screen()
    out = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm-256color")
    run_with_keys(link, script(("", lambda c: c.screen == "table"),
                               (TAB, lambda c: c.table.suggestion is not None)), output=out)
    raw = screen.getvalue()
    colours = re.findall(r"\x1b\[[0-9;]*(?:3[0-7]|9[0-7]|38;[0-9;]+|4[0-7])m", raw)
    assert colours == []
    assert "Hand" in terminal_text(screen)
    reverse = re.compile(r"\x1b\[(?:[0-9]+;)*7(?:;[0-9]+)*m")        # the cursor's card
    assert reverse.search(raw)
