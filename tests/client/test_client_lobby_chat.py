"""Lobby-wide chat in the client, against a real host on 127.0.0.1 (issue 16): ``t`` in the
lobby and ``:chat ...`` on the lobby's command line say a line to everybody in the lobby; the
lobby screen shows it to all of them (a player waiting in a room keeps it for the lobby); a
player in a game is not interrupted by it; a line of another table of ours seen from the
lobby says which table it is from."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.theme import glyphs
from cardparty.net.host import Host
from tests.client.clientkit import player


def lobby_text(c: Controller) -> str:
    return "".join(f[1] for f in Renderer(c, glyphs(False)).screen("lobby"))


def test_t_and_the_command_line_in_the_lobby_talk_to_the_whole_lobby(host: Host) -> None:
    eva, pe = player(host.address, "Eva")
    petr, pp = player(host.address, "Petr")
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    pp.until(lambda: petr.connection == "connected")
    assert "Lobby chat" in lobby_text(petr) and "t: talk" in lobby_text(petr)
    eva.key("t")
    assert eva.dialog is not None and eva.error == ""
    for k in "anyone for Piquet?":
        eva.key(k)
    eva.key("enter")
    pp.until(lambda: "<Eva> anyone for Piquet?" in petr.lobby_chat)
    pe.until(lambda: "<Eva> anyone for Piquet?" in eva.lobby_chat)     # she hears herself
    assert "<Eva> anyone for Piquet?" in lobby_text(petr)
    petr.command("chat me, in a minute")                   # the command line, from the lobby
    pe.until(lambda: "<Petr> me, in a minute" in eva.lobby_chat)
    assert "<Petr> me, in a minute" in lobby_text(eva)
    assert eva.failures == [] and petr.failures == [] and eva.error == "" == petr.error
    for c in (eva, petr):
        c.exit()


def test_a_player_in_a_game_is_not_interrupted_and_a_table_line_names_its_table(
        host: Host) -> None:
    eva, pe = player(host.address, "Eva")
    jana, pj = player(host.address, "Jana")
    pe.until(lambda: eva.connection == "connected" and bool(eva.games))
    pj.until(lambda: jana.connection == "connected")
    jana.link.request("create", game="pika", players=2)          # type: ignore[union-attr]
    pj.until(lambda: bool(jana.tables))
    tid = jana.tables[0]["id"]
    jana.link.request("sit", table=tid)                           # type: ignore[union-attr]
    jana.link.request("bots", table=tid)                       # type: ignore[union-attr]
    jana.link.request("ready", table=tid)                         # type: ignore[union-attr]
    pj.until(lambda: jana.screen == "table")
    eva.command("say hello all")
    pe.until(lambda: "<Eva> hello all" in eva.lobby_chat)
    eva.link.request("watch", table=tid)                       # type: ignore[union-attr]
    pe.until(lambda: eva.screen == "table")
    jana.command("chat gg")                                       # at her table
    pe.until(lambda: "<Jana> gg" in list(eva.table.log))
    pj.until(lambda: "<Jana> gg" in list(jana.table.log))       # her line came back to her
    assert "<Eva> hello all" not in jana.lobby_chat              # she was in a game
    for c in (eva, jana):
        c.exit()


def test_a_line_of_another_table_seen_from_the_lobby_names_its_table() -> None:
    c = Controller(None, name="Eva")
    c.show("lobby")
    c.receive({"type": "chat", "from": "Jana", "text": "are you coming?", "table": "t4"})
    c.receive({"type": "chat", "from": "Petr", "text": "hi all", "table": None})
    assert list(c.lobby_chat) == ["[t4] <Jana> are you coming?", "<Petr> hi all"]
    assert "[t4] <Jana> are you coming?" in lobby_text(c)


def test_the_lobby_names_its_chat_key_on_one_line_of_80_columns() -> None:
    """The lobby's bottom line wrapped onto a second line at 80 columns (``L: leagu`` /
    ``e · $: shop``); it names ``t`` now, and o, L and $ have the lobby's third line."""
    c = Controller(None, name="Eva")
    c.show("lobby")
    bar = "".join(f[1] for f in Renderer(c, glyphs(False)).status())
    assert "t: chat" in bar and ": command" in bar and len(bar) <= 80, bar
    assert "L: league" in lobby_text(c) and "$: shop" in lobby_text(c)


def test_the_lobby_shows_as_many_newest_lines_as_the_screen_has_rows() -> None:
    """Issue 27, item 16: the lobby showed the last 5 lines with a dozen empty rows below."""
    from cardparty.client.controller import Controller
    from cardparty.client.render import Renderer
    from cardparty.client.theme import glyphs

    c = Controller(None, name="Eva")
    c.show("lobby")
    c.tables = [{"id": "t1", "game": "pika", "seats": ["Eva", None], "mode": "open",
                 "status": "open"}]
    c.lobby_chat.extend(f"<Petr> line {n}" for n in range(30))
    lines = "".join(f[1] for f in Renderer(c, glyphs(False)).screen("lobby")).split("\n")[:-1]
    assert len(lines) == 24 - 2                       # the title and the bottom line around it
    assert lines[-1] == " <Petr> line 29" and "line 20" in "\n".join(lines)
    assert "line 10" not in "\n".join(lines)
