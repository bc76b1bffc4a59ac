"""What happens when things go wrong: a client killed mid-game, a silent player, an idle turn,
a deadline running out, the host itself killed and restarted."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from cardparty.net.host import Host
from cardparty.net.player.netbot import play_table
from cardparty.net.player.session import Session
from cardparty.net.trust.fdbudget import open_descriptors
from tests.net.conftest import installed_games, seat_info, table_size, wait_for
from tests.net.leaks import check_messages


@pytest.mark.parametrize("game", installed_games())
def test_a_client_killed_mid_game_reconnects_by_its_key_and_name_and_plays_on_in_its_seat(
        connect: Any, visibility: Any, game: str) -> None:
    players = table_size(game)
    sessions = [connect(f"P{i}") for i in range(players)]
    tid = sessions[0].create(game, players, seed=11)["id"]
    seats = [s.sit(tid) for s in sessions]
    received: dict[int, list[Any]] = {seat: [] for seat in seats}
    results: list[Any] = [None] * players
    failures: list[BaseException] = []

    def bot(i: int) -> None:
        try:
            sessions[i].ready(tid)
            results[i] = play_table(sessions[i], tid, rng=random.Random(i), timeout=60,
                                    on_message=received[seats[i]].append)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=bot, args=(i,)) for i in range(1, players)]
    for t in threads:
        t.start()
    victim = sessions[0]
    victim.ready(tid)
    # Play a few moves by hand, then die without a word as a killed process would.
    moved = 0
    while moved < 3:
        msg = wait_for(victim, lambda m: m["type"] == "view")
        received[seats[0]].append(msg)
        assert not msg["view"]["result"], "the game ended before the client was killed"
        if msg["view"]["moves"] and msg["version"] == victim.views[tid]["version"]:
            try:
                victim.move(tid, 0, msg["version"])
                moved += 1
            except Exception:
                pass
    version_before = victim.views[tid]["version"]
    victim.abort()
    # The others are told he is gone (Paranoid Pirate: silent for heartbeat * liveness).
    watcher = connect("Watcher")
    watcher.watch(tid)
    gone = wait_for(watcher, lambda m: m["type"] == "table"
                    and not seat_info(m, seats[0])["connected"], timeout=3)
    assert gone["table"]["status"] == "playing"
    assert [s["connected"] for s in watcher.tables()[0]["seats"]] == [
        s != seats[0] for s in range(players)]
    back = connect("P0")                 # the same key and name, from a new connection
    assert back.welcome["resumed"] and back.welcome["player"] == victim.welcome["player"]
    first = wait_for(back, lambda m: m["type"] == "view")
    assert first["snapshot"] and first["seat"] == seats[0] and first["version"] >= version_before
    results[0] = play_table(back, tid, rng=random.Random(0), timeout=60,
                            on_message=received[seats[0]].append)
    received[seats[0]].append(first)
    for t in threads:
        t.join(90)
    assert not failures, failures
    assert all(r == results[0] for r in results)
    for seat, messages in received.items():
        check_messages(messages, seat, visibility.seen, visibility.deck)


def test_an_idle_turn_times_out_to_a_bot_that_plays_until_the_player_is_back(
        connect: Any) -> None:
    eva, petr = connect("Eva"), connect("Petr")
    tid = eva.create("pika", 2, {"dealer": 1}, idle=0.3)["id"]   # Eva (seat 0) to play first
    eva.sit(tid)
    petr.sit(tid)
    eva.ready(tid)
    petr.ready(tid)
    first = wait_for(eva, lambda m: m["type"] == "view")
    assert [t["name"] for t in first["timers"]] == ["idle"] and first["timers"][0]["seat"] == 0
    stood_in = wait_for(petr, lambda m: m["type"] == "table" and seat_info(m, 0)["standin"])
    assert seat_info(stood_in, 0)["connected"], "Eva is connected, only idle"
    moved = wait_for(petr, lambda m: m["type"] == "view" and m["version"] > first["version"])
    assert moved["events"] and moved["events"][0]["seat"] == 0, "a bot played Eva's turn"
    eva.snapshot(tid)                      # Eva is back: the stand-in stops
    wait_for(petr, lambda m: m["type"] == "table" and not seat_info(m, 0)["standin"])


def test_the_pika_warning_runs_out_and_the_host_plays_the_penalty_as_system(
        connect: Any) -> None:
    """PI-10 through the host's timer: Eva leaves herself one card without calling."""
    eva, petr = connect("Eva"), connect("Petr")
    deck = ["R1", "R2", "G3", "G4", "R5"]
    tid = eva.create("pika", 2, {"deck": deck, "hand_size": 2, "dealer": 1, "warning": 0.5},
                     idle=None)["id"]
    for s in (eva, petr):
        s.sit(tid)
        s.ready(tid)
    view = wait_for(eva, lambda m: m["type"] == "view")
    sent = time.monotonic()
    eva.move(tid, {"kind": "play", "cards": ["R1"]}, view["version"])
    warned = wait_for(petr, lambda m: m["type"] == "view" and m["timers"])
    assert warned["timers"][0]["name"] == "pika" and warned["timers"][0]["seat"] == 0
    penalty = wait_for(petr, lambda m: m["type"] == "view"
                       and any(e["type"] == "penalty" for e in m["events"]), timeout=3)
    assert time.monotonic() - sent >= 0.45
    assert penalty["view"]["players"][0]["count"] == 3 and not penalty["timers"]


def test_a_finished_move_survives_the_host_being_stopped_and_restarted_from_its_data(
        tmp_path: Any) -> None:
    host = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, testing=True)
    address = host.start()
    eva = Session(address, "Eva", backoff=(0.02, 0.2))
    petr = Session(address, "Petr", backoff=(0.02, 0.2))
    try:
        eva.connect()
        petr.connect()
        tid = eva.create("pika", 2, {"dealer": 1})["id"]
        eva.sit(tid)
        petr.sit(tid)
        eva.ready(tid)
        petr.ready(tid)
        view = wait_for(eva, lambda m: m["type"] == "view")
        done = eva.move(tid, len(view["view"]["moves"]) - 1, view["version"])
        journal = list(host.tables[tid].engine.journal)
        host.stop()
        host = Host(address, heartbeat=0.1, idle=None, data=tmp_path, testing=True)
        assert host.tables[tid].engine.version == done["version"]
        assert host.tables[tid].engine.journal == journal
        host.start()
        for s in (eva, petr):
            wait_for(s, lambda m: m["type"] == "connection" and m["state"] == "restored",
                     timeout=5)
        snap = wait_for(petr, lambda m: m["type"] == "view" and m["snapshot"])
        assert snap["version"] == done["version"] and snap["seat"] == 1
        results: list[Any] = []
        other = threading.Thread(target=lambda: results.append(
            play_table(petr, tid, rng=random.Random(1), timeout=30)))
        other.start()
        results.append(play_table(eva, tid, rng=random.Random(2), timeout=30))
        other.join(30)
        assert len(results) == 2 and results[0] == results[1]
    finally:
        eva.abort()
        petr.abort()
        host.stop()


def test_a_missed_view_makes_the_session_ask_for_a_snapshot(connect: Any, host: Any) -> None:
    """Clone: a view whose ``prev`` is not the last version held means one went missing."""
    eva = connect("Eva")
    tid = eva.create("pika", 2, {"dealer": 1})["id"]
    eva.sit(tid)
    eva.add_bots(tid)
    eva.ready(tid)
    view = wait_for(eva, lambda m: m["type"] == "view")
    me = next(p for p in host.players.values() if p.name == "Eva")
    host.tables[tid].shown.streams[me.id][0] = -7                         # the host "lost" one
    eva.reorder(tid, list(reversed(view["view"]["hand"])))
    gap = wait_for(eva, lambda m: m["type"] == "view" and m["prev"] == -7)
    assert not gap["snapshot"]
    snap = wait_for(eva, lambda m: m["type"] == "view" and m["snapshot"])
    assert snap["version"] == gap["version"]


def test_the_same_key_and_name_from_a_second_connection_take_the_seat_and_close_the_first(
        connect: Any) -> None:
    first = connect("Eva")
    tid = first.create("pika", 2)["id"]
    first.sit(tid)
    second = connect("Eva")
    assert second.welcome["resumed"] and second.welcome["player"] == first.welcome["player"]
    fut = first.send("tables")
    said = wait_for(first, lambda m: m["type"] == "connection")
    assert said["state"] == "replaced"
    with pytest.raises(Exception, match="stopped"):
        fut.result(2)
    assert second.tables()[0]["seats"][0]["player"] == second.welcome["player"]


def test_a_disconnected_players_turns_go_to_a_bot_until_he_reconnects(connect: Any) -> None:
    eva, petr = connect("Eva"), connect("Petr")
    tid = eva.create("pika", 2, {"dealer": 1, "hand_size": 12}, idle=0.3)["id"]
    eva.sit(tid)
    petr.sit(tid)
    eva.ready(tid)
    petr.ready(tid)
    wait_for(eva, lambda m: m["type"] == "view")
    eva.abort()                                         # Eva's machine dies on her turn
    gone = wait_for(petr, lambda m: m["type"] == "table" and seat_info(m, 0)["standin"],
                    timeout=3)
    assert not seat_info(gone, 0)["connected"]
    played = wait_for(petr, lambda m: m["type"] == "view"
                      and any(e.get("seat") == 0 for e in m["events"]))
    assert played["players"][0] == {"connected": False, "standin": True}
    back = connect("Eva")
    snap = wait_for(back, lambda m: m["type"] == "view" and m["snapshot"])
    assert snap["seat"] == 0 and snap["players"][0] == {"connected": True, "standin": False}
    wait_for(petr, lambda m: m["type"] == "table" and not seat_info(m, 0)["standin"]
             and seat_info(m, 0)["connected"])


def test_a_session_that_ends_leaves_none_of_its_sockets_open(connect: Any) -> None:
    """A client that connects and closes many times (a lobby browser, a bench) keeps no file
    open for a session that ended: its socket's monitor goes with its socket."""
    def files() -> int:
        held = open_descriptors()
        assert held is not None
        return held

    connect("Warm").close()
    before = files()
    for i in range(12):
        connect(f"Guest{i}").close()
    assert files() < before + 6
