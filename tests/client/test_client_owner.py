"""The table owner's keys and commands in the waiting room, against a real host on
127.0.0.1: the creator removes a player or a bot (``x``, ``remove SEAT|NAME``), closes the
table (``C``, ``close``: asked first) and lets strangers sit or not (``s``, ``strangers
on|off``); anyone else gets the host's one-line refusal. docs/protocol.md "The table's
owner"."""

from __future__ import annotations

from cardparty.client.command_line import candidates
from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.screens.lobby import LobbyScreen
from cardparty.client.screens.room import RoomScreen
from cardparty.client.theme import glyphs
from cardparty.net.host import Host
from tests.client.clientkit import Pump, form_pick, player


def room_text(c: Controller) -> str:
    return "".join(f[1] for f in Renderer(c, glyphs(False)).screen("room"))


def seats_of(c: Controller, tid: object) -> list[str]:
    t = next(t for t in c.tables if t.get("id") == tid)
    return [str(s.get("kind")) for s in t["summary"]["seats"]]


def open_room(players: int, host: Host) -> tuple[Controller, Pump, Controller, Pump, object]:
    """Eva creates a Pika table for ``players`` and waits in its room; Petr is connected."""
    eva, pe = player(host.address, "Eva")
    petr, pp = player(host.address, "Petr")
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    pp.until(lambda: petr.connection == "connected")
    eva.key("c")
    form_pick(eva, "game", "Pika")
    form_pick(eva, "players", players)
    form = eva.dialog
    form.cursor = len(form.rows) - 1                            # type: ignore[union-attr]
    eva.key("enter")
    pe.until(lambda: eva.screen == "room")
    return eva, pe, petr, pp, eva.get(RoomScreen).table


def petr_sits(petr: Controller, pp: Pump, tid: object) -> None:
    pp.until(lambda: any(t.get("id") == tid for t in petr.tables))
    petr.get(LobbyScreen).cursor = [t.get("id") for t in petr.tables].index(tid)
    petr.key("enter")
    pp.until(lambda: petr.screen == "room" and petr.get(RoomScreen).table == tid)


def test_the_owner_removes_a_player_with_x_and_a_bot_by_command(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(3, host)
    petr_sits(petr, pp, tid)
    eva.key("b")
    eva.key("enter")                                   # a normal bot
    pe.until(lambda: seats_of(eva, tid) == ["human", "human", "bot"])
    petr.command("remove 1")                           # not his table: the host says so
    pp.until(lambda: "only Eva" in petr.error)
    eva.key("x")
    assert [label for label, _ in eva.dialog.options] == ["2. Petr", "3. Bot 3"]  # type: ignore[union-attr]
    eva.key("enter")
    pp.until(lambda: petr.screen == "lobby" and "no longer sit" in petr.notice)
    pe.until(lambda: seats_of(eva, tid) == ["human", "empty", "bot"]
             and "seat 2 of table" in eva.notice)
    eva.command("remove Bot 3")
    pe.until(lambda: seats_of(eva, tid) == ["human", "empty", "empty"])
    eva.command("remove 7")
    assert "nobody else sits at seat '7'" in eva.error
    assert eva.failures == [] and petr.failures == []
    for c in (eva, petr):
        c.exit()


def test_the_owner_closes_the_table_once_asked_and_its_people_are_told(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(2, host)
    petr_sits(petr, pp, tid)
    petr.key("C")                                      # not his table: not offered
    assert petr.dialog is None
    petr.key("x")
    assert petr.dialog is None
    petr.key("?")
    assert "close it" not in "".join(f[1] for f in Renderer(petr, glyphs(False)).help())
    petr.key("escape")
    petr.command("close")                              # typed all the same: the host says
    petr.key("down")
    petr.key("enter")
    pp.until(lambda: "only Eva" in petr.error)
    eva.command("close")                               # asked first; "no" keeps it
    assert eva.dialog is not None and "close table" in eva.dialog.title  # type: ignore[attr-defined]
    eva.key("enter")
    assert eva.dialog is None and eva.screen == "room"
    eva.key("C")
    eva.key("down")
    eva.key("enter")
    pe.until(lambda: eva.screen == "lobby" and not any(t.get("id") == tid and
                                                       t.get("status") == "open"
                                                       for t in eva.tables))
    pp.until(lambda: petr.screen == "lobby" and "closed" in petr.notice)
    assert tid not in host.tables
    assert eva.failures == [] and petr.failures == []
    for c in (eva, petr):
        c.exit()


def test_the_owner_lets_strangers_sit_or_not(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(2, host)
    eva.key("s")                                       # open by default: now closed to them
    pe.until(lambda: host.tables[str(tid)].access.strangers is False)
    pp.until(lambda: any(t.get("id") == tid and t.get("mode") == "invited"
                         for t in petr.tables))
    pe.until(lambda: "strangers may not sit" in eva.notice)
    petr.get(LobbyScreen).cursor = [t.get("id") for t in petr.tables].index(tid)
    petr.key("enter")
    pp.until(lambda: "only the players invited" in petr.error)
    eva.command("strangers maybe")
    assert "strangers on" in eva.error
    eva.command("strangers on")
    pe.until(lambda: host.tables[str(tid)].access.strangers is True)
    petr_sits(petr, pp, tid)
    pe.until(lambda: "Petr" in room_text(eva))
    assert eva.failures == [] and petr.failures == []
    for c in (eva, petr):
        c.exit()


def test_the_owner_commands_complete_and_show_in_the_rooms_help(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(2, host)
    assert {"remove ", "close", "strangers "} <= set(candidates(eva))
    eva.key("?")
    shown = "".join(f[1] for f in Renderer(eva, glyphs(False)).help())
    assert "remove a player or a bot" in shown and "close it" in shown
    assert "strangers" in shown
    for c in (eva, petr):
        c.exit()


def test_sit_on_the_command_line_does_what_enter_on_the_table_does(host: Host) -> None:
    """Issue 27, item 10: ``:sit t1`` opens the waiting room of t1, and ``:ready`` then
    readies the player there, whatever row the lobby had chosen."""
    eva, pe, petr, pp, tid = open_room(2, host)
    other = open_room_of(petr, pp)                      # Petr's own table, chosen in his lobby
    petr.key("q")                                       # back to the lobby, keeping the seat
    pp.until(lambda: len(petr.tables) == 2)
    petr.get(LobbyScreen).cursor = [t.get("id") for t in petr.tables].index(other)
    petr.command(f"sit {tid}")
    pp.until(lambda: petr.screen == "room" and petr.get(RoomScreen).table == tid)
    petr.command("ready")
    pe.until(lambda: any(s.get("name") == "Petr" and s.get("ready")
                         for s in next(t for t in eva.tables if t.get("id") == tid)
                         ["summary"]["seats"]))
    assert petr.error == "" and petr.failures == []
    for c in (eva, petr):
        c.exit()


def open_room_of(c: Controller, pump: Pump) -> object:
    """``c`` creates a Pika table for three and waits in its room; its id."""
    pump.until(lambda: bool(c.games))
    c.key("c")
    form_pick(c, "game", "Pika")
    form_pick(c, "players", 3)
    form = c.dialog
    form.cursor = len(form.rows) - 1                            # type: ignore[union-attr]
    c.key("enter")
    pump.until(lambda: c.screen == "room")
    return c.get(RoomScreen).table
