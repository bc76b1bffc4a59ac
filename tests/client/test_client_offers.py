"""Each screen offers only what this player may do there (issue 27, item 11), against real
hosts on 127.0.0.1: the league and the shop of a host that keeps no coins say so once, with
no keys for weeks or boosters; a waiting room's owner keys (x, C, s) and its bot key are the
creator's (and the seated's, at an open table); a spectator has no moves, hand or next
round; a cancelled entry table's waiting room goes, saying why."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer
from cardparty.client.screens.league import LeagueScreen
from cardparty.client.screens.lobby import LobbyScreen
from cardparty.client.screens.table import TableScreen
from cardparty.client.table_model import TableModel
from cardparty.client.theme import glyphs
from cardparty.net.host import Host
from tests.client.clientkit import form_pick, keeping_coins, player
from tests.client.test_client_owner import open_room, petr_sits, seats_of


def shown(c: Controller, part: str) -> str:
    """A part the renderer draws (the status line, the end of a round), or a screen by its
    registered name, drawn whether it shows or not."""
    r = Renderer(c, glyphs(False))
    return "".join(f[1] for f in (r.screen(part) if part in c.screens else getattr(r, part)()))


def footer(c: Controller) -> str:
    """The bottom line's keys (whatever notice covers them now)."""
    return " · ".join(c.keys.footer(c))


def helped(c: Controller) -> str:
    return " ".join(what for _keys, what in c.keys.help_lines(c))


def test_the_league_and_shop_of_a_host_without_coins_say_so_once(host: Host) -> None:
    eva, pump = player(host.address, "Eva")
    pump.until(lambda: eva.connection == "connected" and eva.no_economy)
    eva.key("L")
    pump.until(lambda: "keeps no coins" in shown(eva, "league"))
    league = shown(eva, "league")
    assert "asking the host" not in league and "(this week)" not in league
    assert "this week" not in league.split("\n")[2]
    assert eva.error == "" and "weeks" not in shown(eva, "status")
    assert "week" not in helped(eva)
    eva.key("q")
    eva.key("$")
    shop = shown(eva, "shop")
    assert "nothing to buy here" in shop and "Gold" not in shop
    assert "gold" not in shown(eva, "status") and "gold" not in helped(eva)
    eva.key("g")
    assert eva.dialog is None
    eva.exit()


def test_the_owners_and_bot_keys_are_offered_to_who_may_use_them(host: Host) -> None:
    eva, pe, petr, pp, tid = open_room(3, host)
    eva.command("strangers off")
    eva.command("invite Petr")
    pp.until(lambda: any(t.get("id") == tid and t.get("mode") == "invited"
                         for t in petr.tables))
    petr_sits(petr, pp, tid)
    pe.until(lambda: seats_of(eva, tid).count("human") == 2)
    pp.until(lambda: seats_of(petr, tid).count("human") == 2)
    for key in ("x", "C", "s"):                        # Eva's table: her keys
        petr.key(key)
        assert petr.dialog is None, key
    assert "remove" not in helped(petr) and "close it" not in helped(petr)
    assert "remove" in helped(eva) and "b: bot" in footer(eva)
    # An open table: any player seated there adds bots; a friends table: its creator only.
    assert "b: bot" in footer(petr)
    row = next(t for t in petr.tables if t.get("id") == tid)
    row["summary"] = {**row["summary"], "mode": "friends"}
    assert "b: bot" not in footer(petr)
    petr.key("b")
    assert petr.dialog is None
    eva.key("x")
    assert eva.dialog is not None
    assert [label for label, _v in eva.dialog.options] == ["2. Petr"]  # type: ignore[union-attr]
    for c in (eva, petr):
        c.exit()


def test_a_spectator_is_offered_no_moves_and_no_next_round() -> None:
    c = Controller(None, name="Eva")
    c.show("table")
    c.get(TableScreen).table = "t1"
    c.get(TableScreen).model = TableModel(table="t1")
    c.table.apply({"seat": None, "players": [{"name": "Bot 1"}, {"name": "Bot 2"}],
                   "moves": [], "result": {"places": [1, 2]}, "phase": "over"})
    footer = shown(c, "status")
    assert "Tab" not in footer and "Enter: play" not in footer
    assert "play again" not in helped(c) and "your legal moves" not in helped(c)
    assert "play again" not in shown(c, "over") and "stop watching" in shown(c, "over")
    # ... and his bottom line lists the keys he has (it omitted t and m)
    assert "t: chat" in footer and "m: the match" in footer, footer
    c.key("n")
    assert c.notice == "" and c.screen == "table"


def test_a_cancelled_entry_tables_waiting_room_goes_saying_why() -> None:
    with keeping_coins(0.5) as host:
        eva, pump = player(host.address, "Eva")
        pump.until(lambda: eva.connection == "connected" and bool(eva.games)
                   and bool(eva.profile))
        eva.key("o")
        form_pick(eva, "game", "Pika")
        form_pick(eva, "players", 2)
        form_pick(eva, "stake", 100)
        form = eva.dialog
        form.cursor = len(form.rows) - 1               # type: ignore[union-attr]
        eva.key("enter")
        pump.until(lambda: any(t.get("status") == "open" for t in eva.tables))
        eva.get(LobbyScreen).cursor = 0
        eva.key("enter")                               # her seat's waiting room
        assert eva.screen == "room"
        pump.until(lambda: eva.screen == "lobby", timeout=15)
        assert "cancelled" in shown(eva, "status")
        assert "The game starts" not in shown(eva, "lobby")
        eva.exit()


def test_the_leagues_weeks_are_offered_once_there_is_another_week() -> None:
    """The league's left and right did nothing (one week to show), and its help and the
    bottom line named them differently: they are offered once the host lists another week,
    then go to it and back."""
    with keeping_coins(30) as host:
        eva, pump = player(host.address, "Eva")
        pump.until(lambda: eva.connection == "connected" and bool(eva.profile))
        eva.key("L")
        pump.until(lambda: bool((eva.get(LeagueScreen).league or {}).get("week")))
        this = eva.get(LeagueScreen).league["week"]                      # type: ignore[index]
        assert "weeks" not in footer(eva) and "week" not in helped(eva)
        eva.key("left")
        assert eva.get(LeagueScreen).league["week"] == this and eva.error == ""  # type: ignore[index]
        # A host with standings of an older week lists it too.
        eva.receive({**eva.get(LeagueScreen).league, "type": "league", "weeks": [this, "2026-W01"]})
        assert "left right: weeks" in footer(eva) and "an older / a newer week" in helped(eva)
        assert "left" not in shown(eva, "league") and "q:" not in shown(eva, "league")
        eva.key("left")
        pump.until(lambda: eva.get(LeagueScreen).league.get("week") == "2026-W01")  # type: ignore[union-attr]
        assert "League 2026-W01" in shown(eva, "league")
        eva.receive({**eva.get(LeagueScreen).league, "type": "league", "weeks": [this, "2026-W01"]})
        eva.key("right")
        pump.until(lambda: eva.get(LeagueScreen).league.get("week") == this)  # type: ignore[union-attr]
        assert "(this week)" in shown(eva, "league") and eva.failures == []
        eva.exit()
