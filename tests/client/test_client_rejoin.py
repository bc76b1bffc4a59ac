"""A client killed mid-game and started again sits where it sat: the session token is kept
on disk (``client.tokens``) per host address and name, readable by its owner only, and the
host's resume-by-token gives the seat back. Against a real host on 127.0.0.1."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from cardparty.client.controller import Controller
from cardparty.client.launch import connector
from cardparty.client.tokens import TokenStore, state_dir
from cardparty.client.words import describer
from cardparty.net.host import Host
from tests.client.clientkit import Pump, form_pick


def typed(c: Controller, name: str, address: str) -> None:
    """The start screen, by keys: the name, the address, Enter."""
    for k in name:
        c.key(k)
    c.key("tab")
    c.key("c-u")
    for k in address:
        c.key(k)
    c.key("enter")


def client(store: TokenStore, name: str, address: str) -> tuple[Controller, Pump]:
    c = Controller(None, describe=describer, connect=connector(store))
    pump = Pump(c)
    typed(c, name, address)
    return c, pump


def killed(c: Controller) -> None:
    """As if the process died: no goodbye reaches the host."""
    link = c.link
    link.closed.set()                                   # type: ignore[union-attr]
    link.session.abort()                                # type: ignore[union-attr]


def test_the_token_file_is_private_and_keyed_by_host_and_name(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "tokens")
    store.save("127.0.0.1:5555", "Petr", "abc123")
    assert store.load("tcp://127.0.0.1:5555", "Petr") == "abc123"
    assert store.load("127.0.0.1:5556", "Petr") is None
    assert store.load("127.0.0.1:5555", "Eva") is None
    path = store.path("127.0.0.1:5555", "Petr")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.write_text("x" * 1000)                          # not a token the host gave: ignored
    assert store.load("127.0.0.1:5555", "Petr") is None


def test_the_state_dir_comes_from_the_environment(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDPARTY_STATE_DIR", str(tmp_path / "s"))
    assert state_dir() == tmp_path / "s"
    monkeypatch.delenv("CARDPARTY_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "x"))
    assert state_dir() == tmp_path / "x" / "cardparty" / "tokens"


def test_a_client_killed_mid_game_and_started_again_resumes_its_seat(
        host: Host, tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "tokens")
    petr, pp = client(store, "Petr", host.address)
    pp.until(lambda: petr.connection == "connected" and petr.games)
    petr.key("c")
    form_pick(petr, "game", "Pika")
    form_pick(petr, "players", 2)
    form = petr.dialog
    form.cursor = len(form.rows) - 1                    # type: ignore[union-attr]
    petr.key("enter")
    pp.until(lambda: any((t["seats"] or [None])[0] == "Petr" for t in petr.tables))
    petr.key("b")
    petr.key("enter")
    pp.until(lambda: petr.tables[0]["seats"][1] is not None)
    petr.key("r")
    pp.until(lambda: petr.screen == "table" and bool(petr.table.hand))
    table, hand = petr.table_id, list(petr.table.hand)
    killed(petr)

    again, pa = client(store, "Petr", host.address)
    pa.until(lambda: again.screen == "table" and again.table_id == table, timeout=15)
    assert again.table.seat == 0
    assert sorted(again.table.hand) == sorted(hand)          # no bot moves for Petr
    pa.until(lambda: bool(again.tables) and "away" not in str(again.tables[0]["seats"][0]))
    again.exit()
