"""The bell: off by default; with ``--bell`` or the key B, the terminal bell rings (and the
window title says so) once when it becomes the player's turn, and once when a call is due."""

from __future__ import annotations

import io
from typing import Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from cardparty.client.app import build_app
from cardparty.client.controller import Controller

PLAYERS = [{"name": "Eva"}, {"name": "Petr"}]
PLAY = {"id": 0, "kind": "play", "cards": ["R7"], "label": "play R7"}
CALL = {"id": 1, "kind": "call", "cards": [], "label": "call Pika!"}


def view(c: Controller, moves: list[dict[str, Any]]) -> None:
    c.receive({"type": "view", "table": "t1", "view": {
        "game": "pika", "seat": 0, "players": PLAYERS, "hand": ["R7"], "moves": moves}})


def rung(c: Controller) -> list[str]:
    out: list[str] = []
    c.on_attention = out.append
    return out


def test_the_bell_is_off_by_default() -> None:
    c = Controller(None, name="Eva")
    heard = rung(c)
    view(c, [])
    view(c, [PLAY])
    assert heard == []


def test_the_bell_rings_once_per_turn_and_once_for_a_call() -> None:
    c = Controller(None, name="Eva")
    heard = rung(c)
    c.show("lobby")
    c.key("B")
    assert c.bell and "bell on" in c.notice
    view(c, [])
    view(c, [PLAY])
    view(c, [PLAY])                        # still the same turn: no second ring
    view(c, [PLAY, CALL])
    view(c, [])
    view(c, [PLAY])
    assert heard == ["move", "call", "", "move"]
    c.key("B")
    assert not c.bell and heard[-1] == ""


class Sink(io.StringIO):
    encoding = "utf-8"

    def fileno(self) -> int:
        raise io.UnsupportedOperation


def test_the_application_writes_the_bell_and_the_title() -> None:
    c = Controller(None, name="Eva")
    c.bell = True
    sink = Sink()
    out = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as pipe:
        build_app(c, input=pipe, output=out)
        view(c, [PLAY])
    written = sink.getvalue()
    assert "\a" in written and "cardparty: your move" in written
