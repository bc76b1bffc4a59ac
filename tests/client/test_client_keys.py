"""Keys declared once (client/keymap.py): on every screen, in each state that changes what a
key does, the help drawn shows exactly the keys the terminal binds there (the application's
real prompt-toolkit bindings, their filters asked), and a key pressed through prompt-toolkit
runs the binding the headless ``Controller.key`` runs; a binding without help is caught; the
league's and the shop's help show their own keys; docs/playing.md's key tables are the
declarations."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding.key_bindings import _parse_key
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys as PtKeys
from prompt_toolkit.output import DummyOutput

from cardparty.client import keydoc
from cardparty.client.app import build_app, run_async
from cardparty.client.controller import KEYMAP, Controller
from cardparty.client.keymap import TYPED, Binding, KeyMap, Keys, canonical
from cardparty.client.render import Renderer
from cardparty.client.screens.league import LeagueScreen
from cardparty.client.screens.room import RoomScreen
from cardparty.client.screens.start import StartScreen
from cardparty.client.screens.table import TableScreen
from cardparty.client.theme import glyphs
from cardparty.client.words import describer
from cardparty.core.discovery import load_catalog
from tests.client.clientkit import HostKit, net_link

DOC = Path(__file__).resolve().parents[2] / "docs" / "playing.md"

#: How the help writes a key, back to the key's name.
WRITTEN = {"Enter": "enter", "Esc": "escape", "Tab": "tab", "S-Tab": "s-tab", "space": "space",
           "left": "left", "right": "right", "up": "up", "down": "down", "S-left": "s-left",
           "S-right": "s-right", "Ctrl-C": "c-c", "Ctrl-Q": "c-q", "Ctrl-U": "c-u",
           "Backspace": "backspace"}


def keys_written(label: str) -> set[str]:
    """The keys a help line's key column names."""
    out: set[str] = set()
    for word in label.split():
        if word == "1-9":
            out |= {str(n) for n in range(1, 10)}
        else:
            out.add(WRITTEN.get(word, word))
    return out


def lobby(c: Controller) -> None:
    c.show("lobby")
    c.welcomed = True
    c.games = [g.to_wire() for g in load_catalog().games.values()]


def waiting_for_the_host(c: Controller) -> None:
    lobby(c)
    c.welcomed = False
    c.connect = lambda name, address: None  # type: ignore[assignment,return-value]


def room(c: Controller) -> None:
    c.show("room")
    c.get(RoomScreen).table = "t1"


VIEW: dict[str, Any] = {"game": "pika", "seat": 0, "players": [{"name": "Eva"}],
                        "hand": ["R1", "R2"], "moves": [{"kind": "draw", "cards": []}]}


def playing(c: Controller) -> None:
    c.show("table")
    c.get(TableScreen).table = "t1"
    c.table.apply(dict(VIEW))


def round_over(c: Controller) -> None:
    playing(c)
    c.table.apply({**VIEW, "moves": [], "result": {"places": [1]}})


def league_asked(c: Controller) -> None:
    c.show("league")


def league_shown(c: Controller) -> None:
    c.show("league")
    c.get(LeagueScreen).league = {"week": "2026-W49", "current": "2026-W49",
                                  "weeks": ["2026-W49", "2026-W48"], "standings": []}


def shop(c: Controller) -> None:
    c.show("shop")


def profile(c: Controller) -> None:
    c.show("profile")


#: Every state in which some binding's screen or filter says something else.
STATES: dict[str, Callable[[Controller], None]] = {
    "lobby": lobby, "lobby before the host answers": waiting_for_the_host, "room": room,
    "table": playing, "round over": round_over, "league asked": league_asked,
    "league shown": league_shown, "shop": shop, "profile": profile}


@pytest.fixture
def app_for() -> Iterator[Callable[[Controller], Application[Any]]]:
    """The real application of a controller (its key bindings are the ones to check)."""
    with create_pipe_input() as pipe:
        yield lambda c: build_app(c, input=pipe, output=DummyOutput())[0]


def bound_now(app: Application[Any]) -> set[str]:
    """The keys the application's bindings take now (their filters asked), by the client's
    names; the binding that takes every other key (Keys.Any) aside."""
    assert app.key_bindings is not None
    out = set()
    for b in app.key_bindings.bindings:
        key = b.keys[0]
        if key != PtKeys.Any and b.filter():
            out.add(canonical(key.value if isinstance(key, PtKeys) else key))
    return out


def shown_in_help(c: Controller) -> set[str]:
    """The keys the help drawn for this screen names (the mouse's line aside)."""
    c.help = 1
    try:
        fragments = Renderer(c, glyphs(False)).help()
    finally:
        c.help = 0
    labels = [f[1] for f in fragments if f[0] == "class:key"]
    return set().union(*(keys_written(label) for label in labels if label.strip() != "click"))


def mismatch(c: Controller, app: Application[Any]) -> tuple[set[str], set[str]]:
    """(bound but not in the help, in the help but not bound)."""
    shown, bound = shown_in_help(c), bound_now(app)
    return bound - shown, shown - bound


@pytest.mark.parametrize("state", sorted(STATES))
def test_the_help_shows_every_key_bound_and_only_those(
        app_for: Callable[[Controller], Application[Any]], state: str) -> None:
    c = Controller(None, name="Eva")
    STATES[state](c)
    app = app_for(c)
    assert mismatch(c, app) == (set(), set()), state


def test_the_start_screen_declares_a_line_for_every_key_it_binds(
        app_for: Callable[[Controller], Application[Any]]) -> None:
    """The start screen types ``?``: its keys are in the doc and on its bottom line."""
    c = Controller(None, name="Eva")
    app = app_for(c)
    declared = set().union(*(keys_written(label) for label, _what in c.keys.help_lines(c)))
    assert bound_now(app) == declared - {"typing"}
    assert "Tab: next field" in " ".join(c.keys.footer(c))


def test_a_binding_without_help_is_caught(
        app_for: Callable[[Controller], Application[Any]]) -> None:
    """The check above fails on a key declared without a line of help."""
    quiet = Keys("lobby")
    quiet.add("w", help="")(lambda c, key: None)
    c = Controller(None, name="Eva", keys=KeyMap(*KEYMAP.groups, quiet))
    lobby(c)
    assert mismatch(c, app_for(c)) == ({"w"}, set())


def test_every_binding_says_what_it_does_for_the_help_and_the_doc() -> None:
    for b in KEYMAP.bindings:
        assert b.help and b.doc, b


@pytest.mark.parametrize("state", sorted(STATES) + ["start"])
def test_a_key_through_prompt_toolkit_runs_what_controller_key_runs(
        app_for: Callable[[Controller], Application[Any]], state: str) -> None:
    """Every key any binding names, pressed in each state: the terminal's bindings hand the
    controller the binding ``Controller.key`` finds (or, with none, the key itself)."""
    c = Controller(None, name="Eva")
    if state != "start":
        STATES[state](c)
    app = app_for(c)
    ran: list[tuple[Binding | None, str]] = []
    c.press = lambda binding, name: ran.append((binding, name))  # type: ignore[method-assign]
    c.overlay_key = lambda name: ran.append((None, name))  # type: ignore[method-assign]
    keys = sorted({k for b in KEYMAP.bindings for k in b.keys} - {TYPED} | {"x", "?"})

    async def press_each() -> None:        # the key processor's timeouts need a loop
        with set_app(app):
            for key in keys:
                ran.clear()
                parsed = _parse_key(key)
                data = parsed if isinstance(parsed, str) else ""
                app.key_processor.feed(KeyPress(parsed, data))
                app.key_processor.process_keys()
                assert ran == [(c.keys.find(c, key), key)], (state, key)

    asyncio.run(press_each())


@pytest.mark.parametrize(("screen", "own", "not_there"), [
    ("league", "back to the lobby", "move along your hand"),
    ("shop", "buy the gold booster", "move along your hand")])
def test_the_league_and_the_shop_show_their_own_keys(screen: str, own: str,
                                                      not_there: str) -> None:
    """The help of the league and of the shop listed the table's keys."""
    c = Controller(None, name="Eva")
    c.show(screen)
    c.profile = {"name": "Eva", "coins": 1000}           # a host that keeps coins
    c.key("?")
    text = "".join(f[1] for f in Renderer(c, glyphs(False)).help())
    assert own in text and not_there not in text, text


def test_the_docs_key_tables_are_the_declarations() -> None:
    """docs/playing.md's key tables, screen by screen, are written from the declarations
    (``python -m cardparty.client.keydoc docs/playing.md`` writes them again)."""
    tables = keydoc.tables_in(DOC.read_text(encoding="utf-8"))
    assert set(tables) == set(keydoc.SCREENS)
    for screen in keydoc.SCREENS:
        assert tables[screen] == keydoc.table(screen), screen


def test_the_lobby_table_of_the_doc_has_open_play_the_league_and_the_shop() -> None:
    rows = keydoc.tables_in(DOC.read_text(encoding="utf-8"))["lobby"]
    for key in ("`o`", "`u`", "`L`", "`$`"):
        assert f"\n| {key} |" in rows, key


def typed_through_the_terminal(c: Controller, steps: list[tuple[str, Callable[[], bool]]]
                               ) -> None:
    """Run ``c``'s application; type each step's keys into its terminal once the previous
    step's check holds; Ctrl-C at the end (the run ends only if it quits)."""
    async def main() -> None:
        with create_pipe_input() as pipe:
            app, inbox = build_app(c, input=pipe, output=DummyOutput())

            async def drive() -> None:
                while not app.is_running:
                    await asyncio.sleep(0.01)
                for keys, check in steps:
                    pipe.send_text(keys)
                    for _ in range(1000):
                        await asyncio.sleep(0.01)
                        if check():
                            break
                    else:
                        raise AssertionError(f"{keys!r}: screen {c.screen}, error {c.error!r}")
                pipe.send_text("\x03")

            task = asyncio.ensure_future(drive())
            await asyncio.wait_for(run_async(app, inbox), timeout=60)
            await task

    asyncio.run(main())


def test_typing_on_the_start_screen_then_ctrl_c_from_the_command_line(kit: HostKit) -> None:
    """Typed characters (Keys.Any) fill the start screen's fields, Enter joins, and Ctrl-C
    quits while the command line is open (the line editor has every other key then)."""
    c = Controller(None, describe=describer, connect=lambda who, where: net_link(where, who))
    typed_through_the_terminal(c, [
        ("Eva?", lambda: c.get(StartScreen).form.name == "Eva?"),
        ("\x7f\t" + kit.address, lambda: c.get(StartScreen).form.address == kit.address),
        ("\r", lambda: c.screen == "lobby" and c.welcomed),
        (":", lambda: c.command_open),
        ("B", lambda: True)])                 # typed into the line, not the bell's key
    assert c.quit and c.command_open and not c.bell and c.name == "Eva"


@pytest.mark.parametrize("lang", ["en", "cs", "ca"])
@pytest.mark.parametrize("state", sorted(STATES))
def test_the_help_box_and_the_key_line_break_between_words(state: str, lang: str) -> None:
    """Issue 27, item 13: the help box and the bottom line broke inside words ('přestat
    č|ekat', 'stop wai|ting', 'q: lea/ve'). Every word of the help and of the key line is
    whole on some line, at 80 columns and at 50."""
    from cardparty.core.i18n import set_language

    set_language(lang)
    try:
        c = Controller(None, name="Eva", describe=describer)
        STATES[state](c)
        for width in (80, 50):
            r = Renderer(c, glyphs(False), width=lambda w=width: w)
            c.help = 1
            drawn = "".join(f[1] for f in r.help()).split("\n")
            c.help = 0
            footer = "".join(f[1] for f in r.status()).split("\n")
            assert all(len(line) <= width for line in drawn + footer), (drawn, footer)
            words = {w for line in drawn + footer for w in line.split()}
            said = [what for _keys, what in c.keys.help_lines(c)] + c.keys.footer(c)
            for text in said:
                for word in text.split():
                    assert word in words, (word, text, drawn, footer)
    finally:
        set_language("en")


def test_the_doc_says_the_host_as_it_is() -> None:
    """Issue 27, item 16: docs/playing.md said the economy 'is not part of the host yet' and
    named only port 7770 for the firewall, while a client asks the key desk on the next."""
    from cardparty.net.wire.address import read_address

    doc = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "not part of the host" not in doc
    desk = read_address("192.168.1.20:7770").desk.rsplit(":", 1)[1]
    assert f"TCP ports 7770 **and {desk}**" in doc and "the ports are P and P+1" in doc
