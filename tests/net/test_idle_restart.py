"""The idle clock across a host restart (issue 16, item 2): a host restarted on the same
``--data`` lets an idle player's stand-in take over when his idle time is up, counted from
the table's last change before the restart, not a whole idle time after it; and a stand-in
that played for someone before the restart goes on playing for him.

The parts run on a real SQLite file with a ``ManualClock`` (the restart builds them again with
a clock whose wall time is later and whose monotonic time starts elsewhere, as a new process's
does); the last test restarts a real host over the wire."""

from __future__ import annotations

import time
from pathlib import Path

from cardparty.net.host import Host
from cardparty.net.host.clock import ManualClock
from cardparty.net.player.session import Session
from tests.net.conftest import wait_for
from tests.net.hostkit import Kit

EVA, PETR = b"E" * 40, b"P" * 40
IDLE = 60.0


def restart(kit: Kit, data: Path, down: float) -> Kit:
    """The host stops and starts again ``down`` wall-clock seconds later; its monotonic clock
    starts at 5.0, as a new process's would, nowhere near the old one."""
    kit.parts.close()
    return Kit(clock=ManualClock(start=5.0, wall=kit.clock.wall() + down - 5.0), data=data)


def idle_left(kit: Kit, tid: str) -> float:
    """The seconds left of the idle timeout as the table's views show them."""
    shown = kit.parts.timers.shown(kit.table(tid), kit.clock.now())
    return next(t["remaining"] for t in shown if t["name"] == "idle")


def two_humans(kit: Kit) -> str:
    """Eva and Petr at a Pika table with an idle timeout; each has moved once (so the store
    holds a tail of moves beside the row), and it is Eva's turn."""
    eva, petr = kit.player("Eva", key=EVA), kit.player("Petr", key=PETR)
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1}, idle=IDLE,   # Eva first
                         seed=1)
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    ht = kit.table(tid)
    for p in (eva, petr):
        seat = ht.seat_of(p)
        kit.ask(p, "move", table=tid, move=len(ht.engine.legal_moves(seat)) - 1,
                version=ht.engine.version)
    assert ht.engine.to_move() == (0,) and ht.engine.version == 2
    return tid


def test_an_idle_players_stand_in_comes_when_his_time_is_up_not_an_idle_time_later(
        tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    tid = two_humans(kit)
    kit.tick(40.0)                                   # Eva thinks for 40 s of her 60
    assert idle_left(kit, tid) == 20.0
    kit = restart(kit, tmp_path, down=2.0)           # the host is down for 2 s
    ht = kit.table(tid)
    assert ht.engine.version == 2 and not ht.seats[0].standin
    assert idle_left(kit, tid) == 18.0               # was 60.0: the whole idle time again
    kit.tick(17.9)
    assert not ht.seats[0].standin and ht.engine.version == 2
    kit.tick(0.2)                                    # 60 s since her turn began
    assert ht.seats[0].standin
    kit.tick(0.0)                                    # the stand-in plays at once
    assert ht.engine.version == 3 and ht.engine.journal[-1][0] == 0


def test_a_player_idle_longer_than_the_idle_time_across_the_restart_is_stood_in_at_once(
        tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    tid = two_humans(kit)
    kit.tick(50.0)
    kit = restart(kit, tmp_path, down=30.0)          # down for longer than she had left
    kit.tick(0.001)
    ht = kit.table(tid)
    assert ht.seats[0].standin


def test_a_clock_set_back_while_the_host_was_down_never_shortens_the_wait_below_zero(
        tmp_path: Path) -> None:
    """A wall clock earlier after the restart than the last change: the change counts as
    just now (the wait is never longer than a whole idle time, nor negative)."""
    kit = Kit(data=tmp_path)
    tid = two_humans(kit)
    kit.tick(10.0)
    kit = restart(kit, tmp_path, down=-3600.0)
    assert idle_left(kit, tid) == IDLE


def test_a_stand_in_playing_before_the_restart_goes_on_playing_after_it(
        tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=EVA)
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1}, idle=5.0)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, level="random")
    kit.ask(eva, "ready", table=tid)
    kit.tick(5.01)                                   # Eva went away: a stand-in takes over
    ht = kit.table(tid)
    assert ht.seats[0].standin
    for _ in range(3):
        kit.tick(0.0)
    assert ht.engine.version >= 3 and ht.status == "playing"
    before = ht.engine.version
    kit = restart(kit, tmp_path, down=1.0)
    ht = kit.table(tid)
    assert ht.engine.version == before and ht.seats[0].standin
    for _ in range(6):                               # no idle time is waited for again
        kit.tick(0.001)
    played = [seat for seat, _ in ht.engine.journal[before:]]
    assert 0 in played or ht.status == "over", played


def test_a_real_host_restarted_on_its_data_shows_the_idle_time_that_was_left(
        tmp_path: Path) -> None:
    """Over the wire: the idle countdown Eva's client shows after the restart is her time
    left before it, less the time the host was away, never a fresh idle time."""
    host = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=IDLE, data=tmp_path, testing=True)
    address = host.start()
    eva = Session(address, "Eva", backoff=(0.02, 0.2))
    try:
        eva.connect()
        tid = eva.create("pika", 2, {"dealer": 1})["id"]
        eva.sit(tid)
        eva.add_bots(tid, None, "random")
        eva.ready(tid)
        first = wait_for(eva, lambda m: m["type"] == "view" and m["view"]["moves"])
        before = next(t["remaining"] for t in first["timers"] if t["name"] == "idle")
        time.sleep(0.5)
        host.stop()
        host = Host(address, heartbeat=0.1, idle=IDLE, data=tmp_path, testing=True)
        host.start()
        wait_for(eva, lambda m: m["type"] == "connection" and m["state"] == "restored")
        fresh = wait_for(eva, lambda m: m["type"] == "view" and m["snapshot"])
        after = next(t["remaining"] for t in fresh["timers"] if t["name"] == "idle")
        assert after <= before - 0.5, (before, after)
    finally:
        eva.abort()
        host.stop()


def test_a_game_deadline_starts_afresh_after_a_restart(tmp_path: Path) -> None:
    """Only the idle clock goes on: nobody could answer a deadline (Pika's «Pika!», PI-10)
    while the host was down, so it is not run out by the restart."""
    kit = Kit(data=tmp_path)
    eva, petr = kit.player("Eva", key=EVA), kit.player("Petr", key=PETR)
    tid = kit.open_table("pika", eva, 2, idle=IDLE, settings={
        "dealer": 1, "hand_size": 2, "warning": 3.0, "deck": ["R7", "R1", "B5", "Y5", "R4"]})
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    kit.ask(eva, "move", table=tid, move={"kind": "play", "cards": ["R7"]}, version=0)
    shown = kit.parts.timers.shown(kit.table(tid), kit.clock.now())
    assert {"name": "pika", "seat": 0, "seconds": 3.0, "remaining": 3.0} in shown
    kit.tick(2.0)
    kit = restart(kit, tmp_path, down=5.0)
    kit.tick(0.001)
    ht = kit.table(tid)
    assert ht.engine.version == 1, "no penalty was drawn"
    shown = kit.parts.timers.shown(ht, kit.clock.now())
    assert {"name": "pika", "seat": 0, "seconds": 3.0, "remaining": 2.999} in shown
    assert next(t["remaining"] for t in shown if t["name"] == "idle") == IDLE - 7.001
