"""Who is away, as the others' screens say it (issue 27, item 12; docs/playing.md): a player
who drops reads ``disconnected`` on his line at once, and ``back`` when he returns, until the
table's next move; a player who left a finished table is away neither in the lobby nor at that
table. Against a real host on 127.0.0.1, and from the host's messages alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.theme import glyphs
from cardparty.client.tokens import TokenStore
from cardparty.net.host import Host
from tests.client.clientkit import Pump, form_pick
from tests.client.test_client_rejoin import client, killed


def line_of(c: Controller, name: str) -> str:
    """``name``'s line among the players of ``c``'s table, as drawn."""
    drawn = "".join(f[1] for f in Renderer(c, glyphs(False)).players())
    return next(line for line in drawn.splitlines() if name in line)


def two_at_a_table(host: Host, tmp_path: Path, hand: int = 7
                   ) -> tuple[tuple[Controller, Pump], tuple[Controller, Pump], TokenStore]:
    """Eva and Petr, each by the start screen, at a two-seat Pika table of Eva's, playing;
    Petr's token store, for him to come back with."""
    stores = TokenStore(tmp_path / "eva"), TokenStore(tmp_path / "petr")
    eva, pe = client(stores[0], "Eva", host.address)
    petr, pp = client(stores[1], "Petr", host.address)
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    pp.until(lambda: petr.connection == "connected" and bool(petr.games))
    eva.key("c")
    form_pick(eva, "game", "Pika")
    form_pick(eva, "players", 2)
    form_pick(eva, "setting:hand_size", hand)
    form = eva.dialog
    form.cursor = len(form.rows) - 1                    # type: ignore[union-attr]
    eva.key("enter")
    pe.until(lambda: eva.screen == "room")
    pp.until(lambda: bool(petr.tables))
    petr.key("enter")
    pp.until(lambda: petr.screen == "room")
    petr.key("r")
    eva.key("r")
    pe.until(lambda: eva.screen == "table" and bool(eva.table.hand))
    pp.until(lambda: petr.screen == "table" and bool(petr.table.hand))
    return (eva, pe), (petr, pp), stores[1]


def test_a_player_who_drops_and_returns_reads_disconnected_then_back(
        host: Host, tmp_path: Path) -> None:
    (eva, pe), (petr, _), store = two_at_a_table(host, tmp_path)
    killed(petr)
    pe.until(lambda: "disconnected" in line_of(eva, "Petr"))
    again, pa = client(store, "Petr", host.address)
    pa.until(lambda: again.screen == "table" and bool(again.table.hand))
    pe.until(lambda: "disconnected" not in line_of(eva, "Petr"))
    assert "back" in line_of(eva, "Petr"), "he is back: the line says so, with no key pressed"
    # The table's next move: the line says the game's word again.
    mover, pump = (eva, pe) if eva.table.moves else (again, pa)
    version = eva.table.view.get("version")
    mover.key("tab")
    mover.key("enter")
    pump.until(lambda: mover.table.view.get("version") != version)
    pe.until(lambda: eva.table.view.get("version") != version)
    assert "back" not in line_of(eva, "Petr") and "disconnected" not in line_of(eva, "Petr")
    again.exit()
    eva.exit()


def test_leaving_a_finished_table_is_not_being_away(host: Host, tmp_path: Path) -> None:
    (eva, pe), (petr, pp), _ = two_at_a_table(host, tmp_path, hand=2)
    table = eva.table_id

    moved: dict[str, Any] = {}

    def over(c: Controller, pump: Pump) -> bool:
        """One step of ``c``'s round by keys (the first listed move, a dialog's first
        choice), once per view; True once the round is over."""
        pump.pump(0.01)
        version = c.table.view.get("version")
        if c.table.over or moved.get(c.name) == version:
            return c.table.over
        if c.dialog is not None:
            c.key("enter")
        elif c.table.moves:
            c.key("tab")
            c.key("enter")
            moved[c.name] = version
        return False

    pe.until(lambda: over(eva, pe) & over(petr, pp), timeout=30)
    petr.key("x")                                   # round over: leave the table for good
    pe.until(lambda: any(t["id"] == table and t["summary"]["seats"][1]["player"] is None
                         for t in eva.tables))
    assert "disconnected" not in line_of(eva, "Petr")
    eva.key("x")
    pe.until(lambda: eva.screen == "lobby")
    pe.until(lambda: all(t["summary"]["seats"][0]["player"] is None for t in eva.tables
                         if t["id"] == table))
    row: dict[str, Any] = next(t for t in eva.tables if t["id"] == table)
    # Nobody "(away)"; each name after the rating the round gave him (TO-26).
    unrated = [re.sub(r" \[-?[\d.]+\]$", "", seat) for seat in row["seats"]]
    assert unrated == ["Eva", "Petr"] and unrated != row["seats"], row["seats"]
    eva.exit()
    petr.exit()


def test_back_lasts_until_the_next_move_and_goes_when_he_drops_again() -> None:
    c = Controller(None, name="Eva")
    players = [{"name": "Eva", "status": "waiting"}, {"name": "Petr", "status": "to play"}]

    def view(version: int, petr_here: bool) -> None:
        c.receive({"type": "view", "table": "t1", "view": {
            "game": "pika", "seat": 0, "turn": 1, "version": version,
            "players": [{**players[0], "connected": True},
                        {**players[1], "connected": petr_here}]}})

    def summary(petr_here: bool) -> None:
        c.receive({"type": "tables", "tables": [{"id": "t1", "seats": ["Eva", "Petr"],
                                                "summary": {"seats": [
                                                    {"kind": "human", "name": "Eva",
                                                     "connected": True},
                                                    {"kind": "human", "name": "Petr",
                                                     "connected": petr_here}]}}]})

    view(5, True)
    assert line_of(c, "Petr").endswith("to play")
    summary(False)
    assert line_of(c, "Petr").endswith("disconnected")
    summary(True)
    assert line_of(c, "Petr").endswith("back")
    summary(True)                                   # a listing again: still back
    assert line_of(c, "Petr").endswith("back")
    view(6, True)                                   # the table moved on
    assert line_of(c, "Petr").endswith("to play")
    view(7, False)                                  # a view says he dropped
    summary(False)
    assert line_of(c, "Petr").endswith("disconnected")
