"""The host's bots after a real restart from the same ``--data``: they make the very moves
they would have made had the host never stopped (the bots' random stream does not start
again with the process), and ``again`` works over the wire."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cardparty.net.host import Host
from cardparty.net.player.session import Session, SessionError
from cardparty.net.store import backup
from tests.net.conftest import wait_for
from tests.net.hostkit import Kit

GAME, PLAYERS, SEED = "pikac", 3, 21      # strictly one seat to move at a time


def reference_journal() -> list[Any]:
    """The whole game without a restart: Eva plays move ``version % len(moves)``."""
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table(GAME, eva, PLAYERS, seed=SEED)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, level="random")
    kit.ask(eva, "ready", table=tid)
    ht = kit.table(tid)
    while ht.status == "playing":
        moves = ht.engine.legal_moves(0)
        if moves:
            kit.ask(eva, "move", table=tid, move=ht.engine.version % len(moves),
                    version=ht.engine.version)
        else:
            kit.tick(0.001)
    return list(ht.engine.journal)


def play(session: Session, tid: str, stop_after: int | None = None) -> str:
    """Eva's moves as in ``reference_journal``; "stopped" at her turn after ``stop_after``
    moves, "over" at the result."""
    done = 0
    end = time.monotonic() + 30
    while time.monotonic() < end:
        session.next_message(0.02)
        view = session.views.get(tid)
        if view is None:
            continue
        if view["view"]["result"]:
            return "over"
        moves = view["view"]["moves"]
        if not moves:
            continue
        if stop_after is not None and done >= stop_after:
            return "stopped"
        try:
            session.move(tid, view["version"] % len(moves), view["version"])
        except SessionError as exc:
            if exc.code in ("stale", "closed", "not_playing"):
                continue
            raise
        done += 1
    raise AssertionError("the game did not go on")


def test_host_bots_draw_the_same_stream_before_and_after_a_restart_from_the_data(
        tmp_path: Path) -> None:
    expected = reference_journal()
    host = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, testing=True)
    address = host.start()
    eva = Session(address, "Eva", backoff=(0.02, 0.2))
    try:
        eva.connect()
        tid = eva.create(GAME, PLAYERS, seed=SEED)["id"]
        eva.sit(tid)
        eva.add_bots(tid, None, "random")
        eva.ready(tid)
        assert play(eva, tid, stop_after=4) == "stopped"
        before = len(host.tables[tid].engine.journal)
        host.stop()
        host = Host(address, heartbeat=0.1, idle=None, data=tmp_path, testing=True)
        assert len(host.tables[tid].engine.journal) == before
        host.start()
        wait_for(eva, lambda m: m["type"] == "connection" and m["state"] == "restored")
        assert play(eva, tid) == "over"
        journal = list(host.tables[tid].engine.journal)
        assert before < len(journal), "bots moved after the restart"
        assert journal == expected
    finally:
        eva.abort()
        host.stop()


def test_again_over_the_wire_continues_the_same_table(connect: Any, host: Host) -> None:
    eva = connect("Eva")
    tid = eva.create("pika", 2, {"hand_size": 2}, seed=4)["id"]
    eva.sit(tid)
    eva.add_bots(tid, None, "random")
    eva.ready(tid)
    assert play(eva, tid) == "over"
    over = eva.views[tid]["version"]
    reply = eva.request("again", table=tid)
    assert reply["type"] == "ok" and reply["round"] == 2 and reply["waiting"] == []
    fresh = wait_for(eva, lambda m: m["type"] == "view" and m["version"] > over)
    assert fresh["snapshot"] and fresh["table"] == tid and not fresh["view"]["result"]
    assert [t["id"] for t in eva.tables()] == [tid]


def test_every_view_and_reply_is_sent_only_once_the_store_holds_its_change(
        tmp_path: Path) -> None:
    """The host writes the turn's changes in one transaction before it sends what they
    tell: whatever version a client was shown, the file already holds it."""
    import sqlite3

    import msgpack

    with Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, testing=True) as host:
        eva = Session(host.address, "Eva", backoff=(0.02, 0.2))
        try:
            eva.connect()
            tid = eva.create("pika", 3, seed=2)["id"]
            eva.sit(tid)
            eva.add_bots(tid, None, "random")
            eva.ready(tid)
            db = sqlite3.connect(tmp_path / "host.sqlite3")

            def kept() -> int:
                """The newest version the file holds: its row's save, or a move after it."""
                (save,) = db.execute("SELECT save FROM tables WHERE id = ?", (tid,)).fetchone()
                row = msgpack.unpackb(save, raw=False, strict_map_key=False)["version"]
                (tail,) = db.execute("SELECT max(version) FROM moves WHERE table_id = ?",
                                     (tid,)).fetchone()
                return max(row, tail or 0)

            checked = 0
            end = time.monotonic() + 20
            while checked < 5 and time.monotonic() < end:
                msg = eva.next_message(0.05)
                if msg is None or msg["type"] != "view":
                    continue
                assert kept() >= msg["version"], "a view newer than the store was sent"
                if msg["view"]["moves"]:
                    reply = eva.move(tid, 0, msg["version"])
                    assert kept() >= reply["version"]
                    checked += 1
            assert checked == 5
        finally:
            eva.abort()


def test_a_long_game_restarted_from_its_row_and_its_tail_of_moves_is_the_same_game(
        tmp_path: Path) -> None:
    """Past MAX_TAIL moves the whole row is written again; at any point, a host started from
    the file holds the very game (journal, version) the running host had."""
    from cardparty.net.host.persistence import MAX_TAIL

    kit = Kit(data=tmp_path / "live")
    eva = kit.player("Eva")
    tid = kit.open_table("pikac", eva, 3, seed=13)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, level="random")
    kit.ask(eva, "ready", table=tid)
    ht = kit.table(tid)
    for stop in (5, MAX_TAIL + 7, 2 * MAX_TAIL + 3):
        kit.play_until(tid, eva, stop)
        # What a host started from the file would hold (a copy: the running host holds the
        # directory's lock, and a second host on it is refused).
        copy = tmp_path / f"copy{stop}"
        copy.mkdir()
        backup(tmp_path / "live", copy)
        again = Kit(data=copy).table(tid)
        assert again.engine.version == ht.engine.version
        assert again.engine.journal == ht.engine.journal
        assert again.engine.view(0) == ht.engine.view(0)


def test_a_host_without_curve_and_with_a_store_welcomes_a_player(tmp_path: Path) -> None:
    """Without CURVE (benchmarks only) a connection stands for its key: a binary routing id
    that the store must keep as text. A hello used to fail there with the host's internal
    error (the id decoded as UTF-8)."""
    import zmq

    from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message

    with Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, curve=False,
              testing=True) as host:
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVTIMEO, 5000)
        sock.connect(host.address)
        try:
            sock.send(encode(message("hello", rid=1, name="Eva")))
            assert decode(sock.recv(), HOST_LIMITS)["type"] == "welcome"
            sock.send(encode(message("create", rid=2, game="pika", players=2, idle=None)))
            reply = decode(sock.recv(), HOST_LIMITS)
            while reply.get("rid") != 2:
                reply = decode(sock.recv(), HOST_LIMITS)
            assert reply["type"] != "error", reply
        finally:
            sock.close()
