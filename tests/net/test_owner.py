"""The table's owner (its creator, issue 15): before the start he may remove a seated
player or a bot, close the table, and choose whether strangers may sit; the lobby shows it.
Parts with a ManualClock and a MemoryOutbox (hostkit)."""

from __future__ import annotations

from tests.net.hostkit import Kit


def test_the_owner_removes_a_stranger_and_his_bots() -> None:
    """Griefing: a stranger sat at someone's open table, filled it with bots; nobody could
    remove him."""
    kit = Kit()
    eva, zed = kit.player("Eva"), kit.player("Zed")
    tid = kit.open_table("pika", eva, 3)
    kit.ask(zed, "sit", table=tid)
    kit.ask(zed, "bots", table=tid, count=1)
    kit.refused("not_creator", zed, "remove", table=tid, seat=1)
    kit.out.take(zed)
    assert kit.ask(eva, "remove", table=tid, seat=0) == {"type": "ok", "v": 1, "about": "remove"}
    told = kit.out.take(zed, "table")
    assert told and told[-1]["table"]["seats"][0]["kind"] == "empty"
    kit.ask(eva, "remove", table=tid, seat=1)
    seats = kit.table(tid).seats
    assert [s.kind for s in seats] == ["empty", "empty", "empty"]
    assert tid not in zed.tables
    kit.refused("no_seat", eva, "remove", table=tid, seat=2)
    kit.refused("no_seat", eva, "remove", table=tid, seat=9)


def test_the_owner_may_not_remove_anyone_once_the_game_started() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid)
    kit.ask(eva, "ready", table=tid)
    kit.refused("not_open", eva, "remove", table=tid, seat=1)
    kit.refused("not_open", eva, "close", table=tid)


def test_the_owner_closes_his_table_and_its_people_are_told() -> None:
    kit = Kit()
    eva, bob, wat = kit.player("Eva"), kit.player("Bob"), kit.player("Wat")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(bob, "sit", table=tid)
    kit.ask(wat, "watch", table=tid)
    kit.out.sent.clear()
    kit.refused("not_creator", bob, "close", table=tid)
    reply = kit.ask(eva, "close", table=tid)
    assert reply is not None and reply["table"]["status"] == "closed"
    for p in (bob, wat):
        assert kit.out.take(p, "table")[-1]["table"]["status"] == "closed"
    assert tid not in kit.parts.tables.all and not bob.tables and not wat.tables
    kit.refused("no_table", bob, "sit", table=tid)


def test_the_owner_chooses_whether_strangers_may_sit_and_the_lobby_shows_it() -> None:
    kit = Kit()
    eva, bob, zed = kit.player("Eva"), kit.player("Bob"), kit.player("Zed")
    tid = kit.open_table("pika", eva, 3, strangers=False)
    listed = kit.ask(zed, "tables")
    assert listed is not None and listed["tables"][0]["strangers"] is False
    kit.refused("not_invited", zed, "sit", table=tid)
    kit.ask(eva, "invite", table=tid, names=["Bob"])       # an invitation lets Bob in
    kit.ask(bob, "sit", table=tid)
    kit.ask(eva, "sit", table=tid)                          # the owner always may
    kit.refused("not_creator", bob, "strangers", table=tid, allow=True)
    kit.ask(eva, "strangers", table=tid, allow=True)
    assert kit.table(tid).access.strangers is True
    kit.ask(zed, "sit", table=tid)
    default = kit.open_table("pika", bob, 2)
    assert kit.table(default).access.strangers is True             # open to all by default


def test_the_terminal_lobby_shows_a_table_closed_to_strangers() -> None:
    from cardparty.client.net_link import lobby_row

    kit = Kit()
    eva = kit.player("Eva")
    closed = kit.open_table("pika", eva, 2, strangers=False)
    usual = kit.open_table("pika", eva, 2)
    friends = kit.open_table("pika", eva, 2, mode="friends")
    reply = kit.ask(eva, "tables")
    assert reply is not None
    modes = {t["id"]: lobby_row(t)["mode"] for t in reply["tables"]}
    assert modes == {closed: "invited", usual: "open", friends: "friends"}


def test_at_an_entry_table_removing_or_closing_gives_every_stake_back() -> None:
    """MO-6 with the owner's rights: no stake is lost when the owner removes a player or
    closes his entry table."""
    k = Kit(economy=":memory:")
    led = k.parts.economy.ledger
    assert led is not None
    eva, petr, zoe = k.player("eva"), k.player("petr"), k.player("zoe")
    tid = k.open_table("pikac", eva, 3, mode="entry", stake=250)
    for p in (eva, petr, zoe):
        k.ask(p, "sit", table=tid)
    assert [led.profile(n).coins for n in ("eva", "petr", "zoe")] == [750, 750, 750]
    k.ask(eva, "remove", table=tid, seat=1)
    assert led.profile("petr").coins == 1000
    k.ask(eva, "close", table=tid)
    assert [led.profile(n).coins for n in ("eva", "zoe")] == [1000, 1000]
    assert led.held() == []
    led.audit()
