"""The modes at the host (modes.md MO-3 ... MO-8, docs/economy.md) through its parts without
sockets: practice, friends, open play by seeking with the fill timeout, entry tables with
their stakes, payouts told as ``reward``, the profile, the league and the shop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardparty.core.economy import rewards as rw
from cardparty.core.economy.ledger import Ledger
from cardparty.net.host.model import Player
from cardparty.net.host.settings import HostSettings
from tests.net.hostkit import Kit

FILL = 5.0


def kit(**kw: Any) -> Kit:
    kw.setdefault("economy", ":memory:")
    kw.setdefault("settings", HostSettings(fill_timeout=FILL))
    return Kit(**kw)


def ledger(k: Kit) -> Ledger:
    led = k.parts.economy.ledger
    assert led is not None
    return led


def coins(k: Kit, p: Player) -> int:
    return int(k.ask(p, "profile")["profile"]["coins"])


def rewards(k: Kit, p: Player) -> list[dict[str, Any]]:
    return k.out.take(p, "reward")


def test_mo3_a_practice_table_is_its_creator_and_bots_and_pays_nothing() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.open_table("pikac", eva, 3, mode="practice")
    msg = k.refused("practice", petr, "sit", table=tid)
    assert "eva's practice table" in msg
    k.ask(eva, "sit", table=tid)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    before = coins(k, eva)
    k.play_out(tid, {0: eva})
    (got,) = rewards(k, eva)
    assert (got["mode"], got["coins"], got["xp"], got["league"]) == ("practice", 0, 0, 0)
    assert coins(k, eva) == before and ledger(k).standings() == []
    ledger(k).audit()


def test_mo4_friends_pay_only_the_winner_at_half_rate() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.open_table("pikac", eva, 2, mode="friends", seed=3)
    k.ask(eva, "invite", table=tid, names=["petr"])
    for p in (eva, petr):
        k.ask(p, "sit", table=tid)
        k.ask(p, "ready", table=tid)
    k.play_out(tid, {0: eva, 1: petr})
    places = k.table(tid).engine.result().places
    for seat, p in enumerate((eva, petr)):
        (got,) = rewards(k, p)
        won = places[seat] == 1
        assert (got["coins"], got["xp"], got["league"]) == ((50, 25, 0) if won else (0, 0, 0))
        assert got["profile"]["coins"] == 1000 + got["coins"]
    ledger(k).audit()


def test_mo5_seekers_for_the_same_game_and_count_are_seated_together_in_order() -> None:
    k = kit()
    eva, petr, jana = k.player("eva"), k.player("petr"), k.player("jana")
    first = k.ask(eva, "seek", game="pikac", players=2)
    other = k.ask(jana, "seek", game="pikac", players=3)     # another count: another table
    assert first["table"] != other["table"] and first["fill_in"] == FILL
    waiting = [t for t in k.ask(petr, "tables")["tables"] if t["seeking"]]
    assert {(t["game"], t["players"], t["seats"][0]["name"]) for t in waiting} == {
        ("pikac", 2, "eva"), ("pikac", 3, "jana")}, "the lobby shows who waits for what"
    second = k.ask(petr, "seek", game="pikac", players=2)
    assert second["table"] == first["table"] and second["seat"] == 1
    ht = k.table(first["table"])
    assert ht.status == "playing", "full of seekers: it starts at once"
    assert not ht.stakes.bots_filled and ht.stakes.owners == ["eva", "petr"]
    k.play_out(ht.id, {0: eva, 1: petr})
    places = ht.engine.result().places
    for seat, p in enumerate((eva, petr)):
        (got,) = rewards(k, p)
        assert got["league"] == (10 if places[seat] == 1 else 6)
        assert got["coins"] == (100 if places[seat] == 1 else 60) and not got["halved"]
    ledger(k).audit()


def test_mo5_after_the_fill_timeout_bots_take_the_empty_seats_and_league_is_halved() -> None:
    k = kit()
    eva = k.player("eva")
    tid = k.ask(eva, "seek", game="pikac", players=3)["table"]
    ht = k.table(tid)
    assert k.parts.next_due() <= k.clock.now() + FILL
    k.tick(FILL - 0.01, alive=(eva,))
    assert ht.status == "open"
    k.tick(0.02, alive=(eva,))
    assert ht.status == "playing" and [s.kind for s in ht.seats] == ["human", "bot", "bot"]
    assert ht.stakes.bots_filled
    k.play_out(tid, {0: eva})
    (got,) = rewards(k, eva)
    places = list(ht.engine.result().places)
    assert got["halved"] and got["league"] == rw.by_place(rw.BASE_LEAGUE, places)[0] // 2
    assert ledger(k).standings() == ([("eva", got["league"])] if got["league"] else [])


def test_mo5_a_seek_is_cancelled_and_an_empty_seek_table_goes() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.ask(eva, "seek", game="pikac", players=2)["table"]
    k.refused("seated", eva, "seek", game="pikac", players=2)
    k.ask(eva, "unseek")
    assert tid not in k.parts.tables.all
    k.refused("not_seated", eva, "unseek")
    again = k.ask(petr, "seek", game="pikac", players=2)["table"]
    assert again != tid and k.table(again).seats[0].name == "petr"


def test_mo5_a_lobby_open_table_with_bots_halves_the_league_points() -> None:
    k = kit()
    eva = k.player("eva")
    tid = k.open_table("pikac", eva, 2)
    k.ask(eva, "sit", table=tid)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    k.play_out(tid, {0: eva})
    (got,) = rewards(k, eva)
    place = k.table(tid).engine.result().places[0]
    assert got["halved"] and got["league"] == (5 if place == 1 else 3)
    assert got["coins"] == (100 if place == 1 else 60)


def test_mo6_an_entry_table_takes_the_stake_and_pays_the_pot_to_the_winner() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.open_table("pikac", eva, 2, mode="entry", stake=250)
    k.ask(eva, "sit", table=tid)
    assert coins(k, eva) == 750
    k.refused("humans_only", eva, "bots", table=tid)
    k.ask(petr, "sit", table=tid)
    for p in (eva, petr):
        k.ask(p, "ready", table=tid)
    k.play_out(tid, {0: eva, 1: petr})
    places = k.table(tid).engine.result().places
    for seat, p in enumerate((eva, petr)):
        (got,) = rewards(k, p)
        assert got["pot"] == 500 and got["coins"] == (500 if places[seat] == 1 else 0)
    assert sorted([coins(k, eva), coins(k, petr)]) == [750, 1250]
    k.refused("not_over", eva, "again", table=tid)
    ledger(k).audit()


def test_mo6_no_seat_without_the_stake_and_leaving_before_the_start_refunds() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.open_table("pikac", eva, 2, mode="entry", stake=1000)
    k.ask(petr, "buy", item="gold")
    msg = k.refused("no_coins", petr, "sit", table=tid)
    assert "the stake is 1000 and you have 800" in msg
    k.ask(eva, "sit", table=tid)
    assert coins(k, eva) == 0
    k.ask(eva, "leave", table=tid)
    assert coins(k, eva) == 1000
    k.ask(eva, "sit", table=tid)                 # he may sit again, and pays again
    assert coins(k, eva) == 0
    k.refused("bad_field", eva, "create", game="pikac", players=2, mode="entry", stake=300)
    k.refused("bad_field", eva, "create", game="pikac", players=2, mode="open", stake=100)
    ledger(k).audit()


def test_mo6_an_entry_table_its_creator_cannot_pay_is_refused_before_it_exists() -> None:
    """Issue 27, item 6: the create was refused at its creator's seat, and the table stayed
    in every lobby, cancelled at the fill timeout and kept for hours."""
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    k.ask(eva, "buy", item="vip")                # 1000 coins for the pass: none left
    k.out.take(petr)
    msg = k.refused("no_coins", eva, "create", game="pikac", players=2, mode="entry",
                    stake=100)
    assert msg == "not enough coins: the stake is 100 and you have 0"
    msg = k.refused("no_coins", eva, "seek", game="pikac", players=2, stake=100)
    assert "the stake is 100 and you have 0" in msg
    assert k.parts.tables.all == {} and k.ask(petr, "tables", offset=0)["tables"] == []
    assert k.out.take(petr) == [] and k.out.take(eva, "table") == []
    assert k.open_table("pikac", petr, 2, mode="entry", stake=1000)   # petr can pay it
    ledger(k).audit()


def test_mo6_an_entry_table_not_full_by_the_fill_timeout_is_cancelled_and_refunded() -> None:
    k = kit()
    eva, petr, jana = k.player("eva"), k.player("petr"), k.player("jana")
    seek = k.ask(eva, "seek", game="pikac", players=3, stake=100)
    k.ask(petr, "seek", game="pikac", players=3, stake=100)
    assert coins(k, eva) == coins(k, petr) == 900
    tid = seek["table"]
    k.tick(FILL + 0.01, alive=(eva, petr, jana))
    assert k.table(tid).status == "cancelled"
    assert coins(k, eva) == coins(k, petr) == 1000
    for p in (eva, petr):
        (told,) = k.out.take(p, "cancelled")
        assert told["refund"] == 100 and "not full" in told["reason"]
    assert ledger(k).held() == []
    ledger(k).audit()


def test_mo8_profile_shop_and_league_requests() -> None:
    k = kit()
    eva = k.player("eva")
    p = k.ask(eva, "profile")["profile"]
    assert (p["name"], p["coins"], p["level"], p["xp"], p["next_xp"]) == ("eva", 1000, 0, 0, 100)
    assert p["gold_left"] == 0 and p["prices"] == {"gold": 200, "vip": 1000}
    bought = k.ask(eva, "buy", item="gold")
    assert bought["bought"] == "gold" and bought["profile"]["coins"] == 800
    assert bought["profile"]["gold_left"] == 3600
    msg = k.refused("no_coins", eva, "buy", item="vip")
    assert "not enough coins" in msg
    k.refused("bad_field", eva, "buy", item="diamonds")
    k.refused("economy", eva, "profile", name="nobody")
    league = k.ask(eva, "league")
    assert league["standings"] == [] and league["week"] == league["current"]
    assert league["weeks"] == [league["current"]]
    ledger(k).audit()


def test_a_host_without_an_economy_plays_every_table_and_refuses_coins() -> None:
    k = Kit()
    eva = k.player("eva")
    k.refused("no_economy", eva, "profile")
    k.refused("no_economy", eva, "create", game="pikac", players=2, mode="entry", stake=100)
    tid = k.open_table("pikac", eva, 2)
    k.ask(eva, "sit", table=tid)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    k.play_out(tid, {0: eva})
    (got,) = rewards(k, eva)
    assert got["coins"] == 0 and got["profile"] is None


def test_mo11_a_restart_keeps_entry_tables_stakes_and_pays_nothing_twice(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    k = kit(data=data, economy=str(tmp_path / "economy.sqlite3"))
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.open_table("pikac", eva, 2, mode="entry", stake=100, seed=4)
    k.ask(eva, "sit", table=tid)
    k.ask(petr, "sit", table=tid)
    for p in (eva, petr):
        k.ask(p, "ready", table=tid)
    k.play_out(tid, {0: eva, 1: petr})
    paid = sorted(ledger(k).profile(n).coins for n in ("eva", "petr"))
    k.parts.close()
    again = kit(data=data, economy=str(tmp_path / "economy.sqlite3"))
    assert again.table(tid).status == "over" and again.table(tid).stakes.stake == 100
    assert sorted(ledger(again).profile(n).coins for n in ("eva", "petr")) == paid == [900, 1100]
    ledger(again).audit()


def test_mo5_a_table_waiting_for_players_gets_a_fresh_fill_timeout_after_a_restart(
        tmp_path: Path) -> None:
    data, led = tmp_path / "data", str(tmp_path / "economy.sqlite3")
    k = kit(data=data, economy=led)
    eva = k.player("eva")
    tid = k.ask(eva, "seek", game="pikac", players=3)["table"]
    k.parts.close()
    again = kit(data=data, economy=led)
    ht = again.table(tid)
    assert ht.stakes.seeking and ht.stakes.fill_at == again.clock.now() + FILL
    again.tick(FILL + 0.01)
    assert ht.status == "playing" and [s.kind for s in ht.seats] == ["human", "bot", "bot"]


def test_mo6_a_full_entry_table_whose_player_leaves_before_the_start_still_times_out() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = k.open_table("pikac", eva, 2, mode="entry", stake=100)
    for p in (eva, petr):
        k.ask(p, "sit", table=tid)
    k.tick(FILL + 0.01, alive=(eva, petr))
    assert k.table(tid).status == "open", "full: it waits for the players to be ready"
    k.ask(petr, "leave", table=tid)
    k.tick(FILL + 0.01, alive=(eva, petr))
    assert k.table(tid).status == "cancelled"
    assert coins(k, eva) == coins(k, petr) == 1000
    ledger(k).audit()
