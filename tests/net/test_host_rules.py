"""The lobby and play rules of the host through its parts, without sockets and with a clock
moved by hand: seats and starting, spectators, leaving mid-game, bot delays, idle turns and
stand-ins, chat, the table limit, and what every recipient is sent. Each runs in milliseconds;
the wire itself is tested on real sockets in the other modules."""

from __future__ import annotations

from cardparty.net.host.lobby import BACK_ENDED
from cardparty.net.host.timers import bot_rng
from tests.net.hostkit import Kit


def test_a_full_ready_table_starts_and_everybody_gets_a_summary_then_a_snapshot() -> None:
    kit = Kit()
    eva, petr, jana = kit.player("Eva"), kit.player("Petr"), kit.player("Jana")
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 0})
    assert kit.ask(eva, "sit", table=tid)["seat"] == 0
    kit.refused("seated", eva, "sit", table=tid)
    kit.refused("seat_taken", petr, "sit", table=tid, seat=0)
    kit.refused("no_seat", petr, "sit", table=tid, seat=5)
    kit.refused("not_full", eva, "start", table=tid)
    kit.ask(petr, "sit", table=tid)
    kit.ask(jana, "watch", table=tid)
    kit.ask(eva, "ready", table=tid)
    for p in (eva, petr, jana):
        kit.out.take(p)
    kit.ask(petr, "ready", table=tid)
    assert kit.table(tid).status == "playing"
    for p, seat in ((eva, 0), (petr, 1), (jana, None)):
        got = kit.out.take(p)
        kinds = [m["type"] for m in got]
        assert kinds[:2] == ["table", "view"], kinds
        assert got[0]["table"]["status"] == "playing"
        view = got[1]
        assert view["snapshot"] and view["seat"] == seat and view["prev"] is None
        assert bool(view["view"]["moves"]) == (seat == 1), "Petr (seat 1) plays first"
    kit.refused("not_open", jana, "sit", table=tid)
    kit.refused("not_seated", jana, "move", table=tid, move=0, version=0)


def test_every_change_reaches_each_seat_once_with_prev_linking_its_views() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1})
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    first = kit.out.take(eva, "view")[-1]
    kit.out.take(petr)
    reply = kit.ask(eva, "move", table=tid, move=0, version=first["version"])
    assert reply["type"] == "ok" and reply["version"] == first["version"] + 1
    for p in (eva, petr):
        views = kit.out.take(p, "view")
        assert len(views) == 1 and views[0]["prev"] == first["version"]
        assert not views[0]["snapshot"] and views[0]["events"]
    kit.refused("stale", eva, "move", table=tid, move=0, version=first["version"])
    kit.refused("bad_field", petr, "move", table=tid, move=0)
    kit.refused("no_move", petr, "move", table=tid, move=999, version=reply["version"])


def test_a_bot_waits_its_bot_delay_on_the_host_clock_then_moves() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 0}, bot_delay=2.0)  # bot first
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid)
    kit.ask(eva, "ready", table=tid)
    ht = kit.table(tid)
    assert ht.engine.to_move() == (1,)
    kit.tick(1.999)
    assert ht.engine.version == 0
    kit.tick(0.002)
    assert ht.engine.version == 1 and ht.engine.journal[0][0] == 1


def test_an_idle_human_gets_a_stand_in_after_idle_seconds_until_he_is_back() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1}, idle=5.0)   # Eva first
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    ht = kit.table(tid)
    shown = kit.out.take(petr, "view")[-1]["timers"]
    assert shown == [{"name": "idle", "seat": 0, "seconds": 5.0, "remaining": 5.0}]
    kit.tick(4.99, alive=(eva, petr))
    assert not ht.seats[0].standin and ht.engine.version == 0
    kit.tick(0.02, alive=(eva, petr))
    assert ht.seats[0].standin
    summary = [m for m in kit.out.take(petr, "table")][-1]["table"]
    assert summary["seats"][0]["standin"] and summary["seats"][0]["connected"]
    kit.tick(0.0)                                   # the stand-in plays Eva's turn at once
    assert ht.engine.journal[0][0] == 0
    kit.ask(eva, "snapshot", table=tid)             # she is back
    assert not ht.seats[0].standin


def test_a_player_leaving_mid_game_is_replaced_by_a_bot_that_plays_his_seat() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1})
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    kit.ask(eva, "leave", table=tid)
    ht = kit.table(tid)
    assert ht.seats[0].kind == "bot" and ht.seats[0].name == "Eva (bot)"
    kit.out.take(eva)
    kit.tick(0.0)
    assert ht.engine.journal and ht.engine.journal[0][0] == 0
    assert kit.out.take(eva) == [], "who left is sent nothing more"


def test_chat_reaches_the_table_only_with_the_hosts_wall_clock() -> None:
    kit = Kit()
    eva, petr, jana = kit.player("Eva"), kit.player("Petr"), kit.player("Jana")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    kit.ask(petr, "watch", table=tid)
    kit.refused("not_seated", jana, "chat", table=tid, text="hi")
    for p in (eva, petr, jana):
        kit.out.take(p)
    kit.ask(petr, "chat", table=tid, text="<b>hi</b>")
    for p in (eva, petr):
        said = kit.out.take(p, "chat")
        assert [(m["name"], m["text"], m["seat"]) for m in said] == [("Petr", "<b>hi</b>", None)]
        assert said[0]["time"] == kit.clock.wall()
    assert kit.out.take(jana) == []


def test_a_silent_player_is_disconnected_after_heartbeat_times_liveness() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    kit.ask(petr, "sit", table=tid)
    kit.out.take(petr)
    kit.tick(3.5, alive=(petr,))     # heartbeat 1 s x liveness 3: Eva is silent too long
    assert not eva.connected and petr.connected
    seat0 = kit.out.take(petr, "table")[-1]["table"]["seats"][0]
    assert not seat0["connected"]


def test_a_full_queue_costs_that_player_his_view_and_he_is_sent_a_snapshot_later() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1})
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    seen = kit.out.take(petr, "view")[-1]["version"]
    kit.out.full.add(petr.id)
    kit.ask(eva, "move", table=tid, move=0, version=seen)
    kit.out.full.clear()
    kit.ask(petr, "snapshot", table=tid)
    snap = kit.out.take(petr, "view")[-1]
    assert snap["snapshot"] and snap["version"] == seen + 1 and snap["prev"] == seen


def test_host_bots_draw_from_the_tables_seed_and_version_not_from_when_they_started() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 3, seed=42)
    table = kit.table(tid).engine
    a = [bot_rng(table).random() for _ in range(2)]
    assert a[0] == a[1], "the same version: the same stream"
    table.version += 1
    assert bot_rng(table).random() != a[0]


def test_at_the_table_limit_a_finished_table_makes_room_and_open_ones_never_do() -> None:
    kit = Kit(max_tables=2)
    eva = kit.player("Eva")
    first = kit.open_table("pika", eva, 2, settings={"hand_size": 2})
    kit.ask(eva, "sit", table=first)
    kit.ask(eva, "bots", table=first, level="random")
    kit.ask(eva, "ready", table=first)
    kit.play_out(first, {0: eva})
    kit.open_table("pika", eva, 2)
    third = kit.open_table("pika", eva, 2)
    assert first not in kit.parts.tables.all and third in kit.parts.tables.all
    kit.refused("busy", eva, "create", game="pika", players=2)


def test_a_player_back_after_many_games_is_shown_the_last_ones_not_all() -> None:
    """A hello costs the host a bounded amount of work: a player who played game after game
    is shown his tables not over and the ``BACK_ENDED`` that ended last, not every finished
    one (a soak's host doubled its CPU once its players had played some thousands), and the
    tables not over before the finished ones."""
    kit = Kit()
    key = b"E" * 32                                            # what CURVE authenticated
    eva = kit.player("Eva", key=key)
    done = []
    for n in range(BACK_ENDED + 6):
        tid = kit.open_table("pika", eva, 2, settings={"dealer": 0}, seed=n)
        kit.ask(eva, "sit", table=tid)
        kit.ask(eva, "bots", table=tid)
        kit.ask(eva, "ready", table=tid)
        kit.play_out(tid, {0: eva}, seed=n)
        done.append(tid)
        kit.tick(1.0, alive=(eva,))
    playing = kit.open_table("pika", eva, 2, settings={"dealer": 0}, seed=99)
    kit.ask(eva, "sit", table=playing)
    kit.ask(eva, "bots", table=playing)
    kit.ask(eva, "ready", table=playing)
    assert kit.table(playing).status == "playing"
    kit.out.take(eva)
    again = kit.player("Eva", token=eva.token, key=key)        # the same player, back
    assert again is eva
    told = kit.out.take(eva)
    shown = {m["table"]["id"] for m in told if m["type"] == "table"}
    assert shown == {playing, *done[-BACK_ENDED:]}, (shown, done)
    # The table he plays comes first: the finished ones are only pictures of the past, and a
    # takeover's pause ends with the view of his own table.
    views = [m["table"] for m in told if m["type"] == "view"]
    assert views[0] == playing, views
