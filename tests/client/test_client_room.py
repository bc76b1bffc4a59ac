"""The waiting room, against a real host on 127.0.0.1: creating a table, or sitting at one,
opens its screen at once (seats, who is ready, settings, variants, chat); the players talk
there before the game (the talk goes on in the table's log), add a bot, get ready, and the
game's first view takes them to the table. (Lobby-wide chat: test_client_lobby_chat.)"""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.lobby_rows import sits_at
from cardparty.client.render import Renderer
from cardparty.client.screens.lobby import LobbyScreen
from cardparty.client.screens.room import RoomScreen
from cardparty.client.theme import glyphs
from cardparty.net.host import Host
from tests.client.clientkit import form_pick, player


def text(c: Controller) -> str:
    return "".join(f[1] for f in Renderer(c, glyphs(False)).screen("room"))


def create(c: Controller, game: str, players: int) -> None:
    c.key("c")
    form_pick(c, "game", game)
    form_pick(c, "players", players)
    form = c.dialog
    form.cursor = len(form.rows) - 1                            # type: ignore[union-attr]
    c.key("enter")


def test_sitting_opens_the_waiting_room_where_players_talk_and_get_ready(host: Host) -> None:
    eva, pe = player(host.address, "Eva")
    petr, pp = player(host.address, "Petr")
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    pp.until(lambda: petr.connection == "connected")
    create(eva, "Pika", 3)
    pe.until(lambda: eva.screen == "room")                      # at once, no key pressed
    room = eva.get(RoomScreen).table
    shown = text(eva)
    assert "Seats" in shown and "Eva" in shown and "(you)" in shown and "not ready" in shown
    assert "Settings:" in shown and "Variants: none" in shown
    pp.until(lambda: any(t.get("id") == room for t in petr.tables))
    petr.get(LobbyScreen).cursor = [t.get("id") for t in petr.tables].index(room)
    petr.key("enter")
    pp.until(lambda: petr.screen == "room" and petr.get(RoomScreen).table == room)
    pe.until(lambda: "Petr" in text(eva))
    petr.key("t")
    for k in "hi Eva":
        petr.key(k)
    petr.key("enter")
    pe.until(lambda: "<Petr> hi Eva" in eva.get(RoomScreen).said)
    assert "<Petr> hi Eva" in text(eva)
    eva.key("b")
    eva.key("enter")
    pe.until(lambda: "bot (normal), ready" in text(eva))
    eva.key("r")
    pp.until(lambda: "Eva" in text(petr) and "1 to go" in text(petr))
    petr.key("r")
    pe.until(lambda: eva.screen == "table" and eva.table_id == room)
    pp.until(lambda: petr.screen == "table")
    assert "<Petr> hi Eva" in list(eva.table.log)
    assert eva.failures == [] and petr.failures == []
    for c in (eva, petr):
        c.exit()


def test_back_to_the_lobby_and_enter_returns_to_the_room(host: Host) -> None:
    eva, pe = player(host.address, "Eva")
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    create(eva, "Pika", 2)
    pe.until(lambda: eva.screen == "room")
    room = eva.get(RoomScreen).table
    eva.key("q")
    assert eva.screen == "lobby" and "kept" in eva.notice
    eva.get(LobbyScreen).cursor = [t.get("id") for t in eva.tables].index(room)
    eva.key("enter")
    assert eva.screen == "room" and eva.get(RoomScreen).table == room
    eva.key("l")                                                 # leave: the seat is freed
    assert eva.screen == "lobby"
    pe.until(lambda: not any(sits_at(eva, t) for t in eva.tables))
    eva.exit()



def test_the_bot_dialog_and_the_command_line_seat_bots_of_each_level(host: Host) -> None:
    """Each seat's bot has the level chosen in the dialog (b) or typed (``bot easy``); the
    table's thinking time and stand-in level come from the create form; the room shows all."""
    eva, pe = player(host.address, "Eva")
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    eva.key("c")
    form_pick(eva, "game", "Pika")
    form_pick(eva, "players", 4)
    form_pick(eva, "bot_budget_ms", 500)
    form_pick(eva, "standin_level", "hard")
    form = eva.dialog
    form.cursor = len(form.rows) - 1                            # type: ignore[union-attr]
    eva.key("enter")
    pe.until(lambda: eva.screen == "room")
    room = eva.get(RoomScreen).table
    eva.key("b")
    assert eva.dialog is not None and [v for _, v in eva.dialog.options] == [  # type: ignore
        "normal", "easy", "hard"]
    eva.key("3")                                                # hard
    pe.until(lambda: "bot (hard), ready" in text(eva))
    eva.command("bot genius")
    assert "the levels are easy, normal and hard" in eva.error
    eva.command("bot easy")
    pe.until(lambda: "bot (easy), ready" in text(eva))
    eva.key("b")
    eva.key("enter")                                            # the first: normal
    pe.until(lambda: "bot (normal), ready" in text(eva))
    ht = host.tables[room]
    assert [s.level for s in ht.seats[1:]] == ["hard", "easy", "normal"]
    assert (ht.timing.bot_budget_ms, ht.timing.standin_level) == (500, "hard")
    assert "hard bots think 500 ms a move; idle stand-in: hard" in text(eva)
