"""The screen's message line against a real host (issue 27, item 1): what the host pushes
replaces an older refusal on the line at once, with no key pressed, and a notice leaves when
what it says stops being true (a table that was waiting for players has started).
``client/message_line.py``."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.theme import glyphs
from cardparty.net.host import Host
from tests.client.clientkit import form_pick, keeping_coins, player
from tests.client.test_client_owner import open_room, petr_sits, seats_of


def status_line(c: Controller) -> str:
    """The line the player reads at the bottom of the screen."""
    return "".join(f[1] for f in Renderer(c, glyphs(False)).status())


def test_a_push_replaces_an_older_refusal_on_the_line_without_a_key(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(3, host)
    petr_sits(petr, pp, tid)
    pe.until(lambda: seats_of(eva, tid).count("human") == 2)
    petr.command("remove 1")                           # not his table: a refusal
    pp.until(lambda: "only Eva" in petr.error)
    assert "only Eva" in status_line(petr)
    eva.key("x")
    eva.key("enter")                                   # Petr is removed: the host pushes
    pp.until(lambda: petr.screen == "lobby")
    assert "no longer sit at that table" in status_line(petr)
    assert "only Eva" not in status_line(petr)
    for c in (eva, petr):
        c.exit()


def test_the_owners_notice_about_a_free_seat_leaves_once_the_game_starts(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(2, host)
    petr_sits(petr, pp, tid)
    pe.until(lambda: seats_of(eva, tid).count("human") == 2)
    eva.key("x")
    eva.key("enter")
    pe.until(lambda: "seat 2 of table" in status_line(eva))
    eva.key("b")
    eva.key("enter")                                   # a bot in the free seat
    eva.key("r")
    pe.until(lambda: eva.screen == "table")
    assert "seat 2 of table" not in status_line(eva)
    assert eva.failures == []
    for c in (eva, petr):
        c.exit()


def test_the_seek_notice_leaves_once_the_table_plays() -> None:
    with keeping_coins(0.5) as host:
        eva, pump = player(host.address, "Eva")
        pump.until(lambda: eva.connection == "connected" and bool(eva.games))
        eva.key("o")
        form_pick(eva, "game", "Pika")
        form_pick(eva, "players", 2)
        form = eva.dialog
        form.cursor = len(form.rows) - 1               # type: ignore[union-attr]
        eva.key("enter")
        pump.until(lambda: "waiting at table" in status_line(eva))
        pump.until(lambda: eva.screen == "table")      # the fill timeout brought a bot
        assert "waiting at table" not in status_line(eva)
        assert "u: stop waiting" not in status_line(eva)
        eva.exit()


def test_an_invitation_names_the_table_as_the_lobby_does_and_leaves_once_seated(
        host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(2, host)
    eva.command("strangers off")
    eva.command("invite Petr")
    pp.until(lambda: "invites you" in status_line(petr))
    line = status_line(petr)
    assert f"table {tid} (Pika)" in line and "#" not in line
    petr_sits(petr, pp, tid)
    assert "invites you" not in status_line(petr)
    for c in (eva, petr):
        c.exit()
