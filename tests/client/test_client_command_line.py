"""The command line (``:`` or ``/`` on any screen): every listed move by its label, by its
kind and cards typed plainly (``play 7h``, ``play 10s 10c``) or by the only label that starts
so (``take 4``); commands for what the keys do (chat, ready, bot, sit, watch, leave, again,
help...); completion and history through prompt-toolkit itself."""

from __future__ import annotations

from typing import Any

from cardparty.client.command_line import candidates, normal
from cardparty.client.controller import Controller
from tests.client.clientkit import HostKit, pika_link
from tests.client.test_client_app import run_with_keys, script
from tests.client.test_client_enter import Recorder, at_table

ENTER, TAB, ESC = "\r", "\t", "\x1b"


class Requests(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.said: list[tuple[Any, str]] = []

    def request(self, action: str, **args: Any) -> None:
        self.requests.append((action, args))

    def chat(self, table: Any, text: str) -> None:
        self.said.append((table, text))


MOVES = [
    {"id": 0, "kind": "play", "cards": ["7H"], "label": "play 7H"},
    {"id": 1, "kind": "play", "cards": ["TS", "TC"], "label": "play TS TC"},
    {"id": 2, "kind": "take", "cards": [], "label": "take 4 cards"},
    {"id": 3, "kind": "play", "cards": ["QS"], "choice": "H", "label": "play QS naming hearts"},
    {"id": 4, "kind": "play", "cards": ["QS"], "choice": "C", "label": "play QS naming clubs"},
]


def table() -> tuple[Controller, Requests]:
    c, _ = at_table({"hand": ["7H", "TS", "TC", "QS"], "moves": MOVES})
    link = Requests()
    c.link = link                                           # type: ignore[assignment]
    return c, link


def test_normal_reads_suits_and_tens_as_typed() -> None:
    assert normal("Play 10♥") == normal("play th") == "play th"
    assert normal("play  7♥ ") == "play 7h"


def test_a_move_by_its_label_its_cards_or_the_start_of_its_label() -> None:
    for line, sent in [("play 7♥", ["7H"]), ("play 7h", ["7H"]), ("PLAY 7H", ["7H"]),
                       ("play 10s 10c", ["TS", "TC"]), ("play 10c 10s", ["TS", "TC"]),
                       ("take 4", [])]:
        c, link = table()
        c.command(line)
        assert c.error == "", (line, c.error)
        assert [m["cards"] for m in link.moves] == [sent], line


def test_a_move_with_choices_opens_the_choice() -> None:
    c, link = table()
    c.command("play qs")
    assert c.dialog is not None and len(c.dialog.options) == 2
    c.key("2")
    assert link.moves == [{"kind": "play", "cards": ["QS"], "choice": "C"}]


def test_commands_reach_what_the_keys_reach() -> None:
    c, link = table()
    c.command("chat hello there")
    c.command("ready")
    c.command("bot random")
    c.command("again")
    assert link.said == [("t1", "hello there")]
    assert link.requests == [("ready", {"table": "t1"}),
                             ("bots", {"table": "t1", "level": "random"}),
                             ("again", {"table": "t1"})]
    c.command("help")
    assert c.help == 1
    c.help = 0
    c.command("bell")
    assert c.bell
    c.command("lobby")
    assert c.screen == "lobby"
    c.command("sit t7")
    assert link.requests[-1] == ("sit", {"table": "t7"})
    c.command("nonsense")
    assert "no command 'nonsense'" in c.error and c.failures == []


def test_completion_offers_moves_and_commands() -> None:
    c, _ = table()
    offered = candidates(c)
    assert offered[:3] == ["play 7♥", "play 10♠ 10♣", "take 4 cards"]
    assert "chat " in offered and "ready" in offered and "again" in offered


def test_colon_opens_the_line_and_it_plays_through_prompt_toolkit(kit: HostKit) -> None:
    link = pika_link(kit)
    c = run_with_keys(link, script(
        ("", lambda c: c.screen == "table"),
        (":", lambda c: c.command_open),
        ("play r7" + ENTER, lambda c: bool(link.sent)),
    ))
    assert link.sent == [{"kind": "play", "cards": ["R7"], "choice": None}]
    assert not c.command_open and c.failures == []


def after(seconds: float) -> Any:
    """A check that holds once ``seconds`` have passed since it was first asked (the
    completer runs in the background: a person types slower than a pipe)."""
    import time
    start: list[float] = []

    def check(c: Controller) -> bool:
        start.append(time.monotonic()) if not start else None
        return time.monotonic() - start[0] > seconds

    return check


def test_tab_completes_and_escape_closes(kit: HostKit) -> None:
    link = pika_link(kit)
    c = run_with_keys(link, script(
        ("", lambda c: c.screen == "table"),
        ("/", lambda c: c.command_open),
        (ESC, lambda c: not c.command_open),
        ("x", lambda c: True),                      # the screen's keys work again
        (":", lambda c: c.command_open),
        ("play R", after(0.3)),
        (TAB, after(0.3)),
        (ENTER, lambda c: bool(link.sent) or not c.command_open),
    ))
    assert link.sent and link.sent[0]["cards"][0].startswith("R"), (link.sent, c.error)


def test_up_recalls_the_last_line(kit: HostKit) -> None:
    link = pika_link(kit)
    UP = "\x1b[A"
    c = run_with_keys(link, script(
        ("", lambda c: c.screen == "table"),
        (":", lambda c: c.command_open),
        ("help" + ENTER, lambda c: c.help == 1),
        ("x", lambda c: c.help == 0),                       # any key closes the help
        (":", lambda c: c.command_open),
        (UP, after(0.2)),
        (ENTER, lambda c: c.help == 1),
    ))
    assert c.help == 1 and c.failures == []


def test_one_escape_closes_the_completion_menu_and_the_line(kit: HostKit) -> None:
    """Issue 27, item 14: the first Esc closed only the menu, and the next ':' was typed
    into the line still open."""
    link = pika_link(kit)
    c = run_with_keys(link, script(
        ("", lambda c: c.screen == "table"),
        (":", lambda c: c.command_open),
        ("p", after(0.3)),                          # the menu of moves starting so
        (ESC, after(0.3)),
    ))
    assert not c.command_open and c.failures == []
