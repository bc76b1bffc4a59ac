"""The economy in the client against a real host in this process (docs/economy.md): the
profile line always in the lobby, open play by the seek form (bots fill the table after the
fill timeout), the reward after the round, the league screen, the shop, and the mode and stake
of each table in the lobby and the create form."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from cardparty.client.dialog import CreateForm, SeekForm
from cardparty.client.render import Renderer
from cardparty.client.screens.league import LeagueScreen
from cardparty.client.screens.profile import ProfileScreen
from cardparty.client.screens.table import TableScreen
from cardparty.client.theme import UNICODE
from cardparty.net.host import Host
from tests.client.clientkit import choose_by_keys, form_pick, keeping_coins, player


@pytest.fixture
def economy_host() -> Iterator[Host]:
    with keeping_coins(0.3) as h:
        yield h


def text(fragments: list[tuple]) -> str:
    return "".join(f[1] for f in fragments)


def test_mo5_seek_plays_with_bots_and_the_reward_league_and_shop_show(
        economy_host: Host) -> None:
    eva, pump = player(economy_host.address, "Eva")
    pump.until(lambda: eva.connection == "connected" and eva.games and eva.profile)
    r = Renderer(eva, UNICODE)
    lobby = text(r.screen("lobby"))
    assert "Eva · 1,000 coins · level 0 (0/100 XP) · league 0 pts" in lobby
    eva.key("o")
    form = eva.dialog
    assert isinstance(form, SeekForm) and "Open play" in text(r.dialog())
    form_pick(eva, "game", "Pikáč")
    form_pick(eva, "players", 2)
    assert form.request() == {"game": "pikac", "players": 2, "stake": 0}
    form.cursor = len(form.rows) - 1
    eva.key("enter")
    pump.until(lambda: eva.screen == "table")             # bots took the empty seat
    rng = random.Random(5)
    while not eva.table.over:
        pump.pump(0.01)
        choose_by_keys(eva, rng)
        assert eva.failures == []
    pump.until(lambda: eva.table_id in eva.rewards and eva.profile["xp"] > 0)
    reward = eva.rewards[eva.table_id]
    over = " ".join(text(r.over()).split())          # the box wraps its lines where it must
    assert f"You earn {reward['coins']} coins, {reward['xp']} XP" in over
    assert "(halved: bots" in over and "held seats)" in over
    eva.key("l")
    pump.until(lambda: eva.screen == "lobby")
    coins = eva.profile["coins"]
    assert f"{coins:,} coins" in text(r.screen("lobby"))
    eva.key("L")
    pump.until(lambda: eva.screen == "league" and eva.get(LeagueScreen).league is not None)
    league = text(r.screen("league"))
    assert "(this week)" in league and "Eva" in league and f"{reward['league']} pts" in league
    eva.key("q")
    eva.key("$")
    assert eva.screen == "shop"
    pump.pump(0.3)
    assert "Gold booster" in text(r.screen("shop")) and "200 coins" in text(r.screen("shop"))
    eva.key("g")
    eva.key("enter")                                       # "buy"
    pump.until(lambda: eva.profile["coins"] == coins - 200)
    assert "gold booster bought" in eva.notice
    assert "active: 60 min left" in text(r.screen("shop"))
    eva.key("v")
    eva.key("enter")
    pump.until(lambda: "not enough coins: the VIP pass costs 1000" in eva.error)
    assert f"you have {coins - 200}" in eva.error
    eva.key("q")
    eva.key("p")                                           # the profile and its rewards
    pump.until(lambda: eva.screen == "profile" and eva.get(ProfileScreen).recent is not None)
    shown = " ".join(text(r.screen("profile")).split())          # its lines wrap where they must
    assert f"{coins - 200:,} coins" in shown and "gold booster: 60 min left" in shown
    assert (f"table {reward['table']}, round 1 (open): place {reward['place']} · "
            f"{reward['coins']} coins, {reward['xp']} XP") in shown
    assert "(halved: bots held seats)" in shown
    eva.key("q")
    assert eva.screen == "lobby"
    assert eva.failures == []


def test_the_create_form_offers_every_mode_and_the_stake_and_the_lobby_shows_them(
        economy_host: Host) -> None:
    eva, pump = player(economy_host.address, "Eva")
    pump.until(lambda: eva.connection == "connected" and eva.games and eva.profile)
    eva.key("c")
    form = eva.dialog
    assert isinstance(form, CreateForm)
    mode = next(row for row in form.rows if row.key == "mode")
    assert mode.choices == ("open", "friends", "practice", "entry")
    form_pick(eva, "game", "Pikáč")
    form_pick(eva, "players", 2)
    form_pick(eva, "mode", "entry")
    form_pick(eva, "stake", 250)
    assert form.request()["mode"] == "entry" and form.request()["stake"] == 250
    form.cursor = len(form.rows) - 1
    eva.key("enter")
    pump.until(lambda: any(t.get("stake") == 250 for t in eva.tables)
               and eva.profile["coins"] == 750)
    eva.show("lobby")
    lobby = text(Renderer(eva, UNICODE).screen("lobby"))
    assert "entry 250" in lobby
    assert eva.failures == []


def test_the_lobby_says_who_waits_for_what_and_the_stakes() -> None:
    from cardparty.client.render_screens import mode_text, status_text
    assert mode_text({"mode": "open", "seeking": True, "stake": 0, "status": "open",
                      "fill_in": 24.2}) == "seek"
    assert status_text({"mode": "open", "seeking": True, "stake": 0, "status": "open",
                        "fill_in": 24.2}) == "open 24s"
    # The seconds go in the status column, so an entry table's stake is never cut.
    entry = {"mode": "entry", "stake": 250, "status": "open", "fill_in": 28.0}
    assert mode_text(entry) == "entry 250" and status_text(entry) == "open 28s"
    assert mode_text({"mode": "entry", "seeking": True, "stake": 1000, "status": "open",
                      "fill_in": 9.0}) == "seek 1000"
    assert mode_text({"mode": "entry", "stake": 250, "status": "playing"}) == "entry 250"
    assert mode_text({"mode": "practice", "stake": 0, "status": "open"}) == "practice"


def test_the_command_line_reaches_the_league_the_shop_and_open_play(
        economy_host: Host) -> None:
    eva, pump = player(economy_host.address, "Eva")
    pump.until(lambda: eva.connection == "connected" and eva.games and eva.profile)
    eva.command("buy diamonds")
    assert "buy gold" in eva.error
    eva.command("buy vip")
    pump.until(lambda: eva.profile["coins"] == 0 and eva.profile["vip_left"] > 0)
    eva.command("league")
    pump.until(lambda: eva.screen == "league" and eva.get(LeagueScreen).league is not None)
    eva.command("shop")
    assert eva.screen == "shop"
    assert "active: 7.0 days left" in text(Renderer(eva, UNICODE).screen("shop"))
    eva.key("q")
    eva.command("seek")
    assert isinstance(eva.dialog, SeekForm)
    assert eva.failures == []


def test_a_reward_missed_while_away_is_told_as_such_wherever_the_player_is() -> None:
    """Issue 28: the host tells a round that ended while the player was away after his next
    hello (``missed``); the bottom line says it was while he was away, even on the table's own
    screen."""
    from cardparty.client.controller import Controller

    c = Controller(None, name="Eva")
    c.show("table")
    c.get(TableScreen).table = "t3"
    c.receive({"type": "reward", "table": "t3", "round": 1, "mode": "open", "seat": 0,
                  "place": 1, "coins": 100, "xp": 50, "league": 10, "stake": 0, "pot": 0,
                  "halved": False, "level_up": False, "missed": True,
                  "profile": {"name": "Eva", "coins": 1100, "level": 0}})
    assert c.notice.startswith("table t3, while you were away: You earn 100 coins, 50 XP")
