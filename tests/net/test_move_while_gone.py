"""A move pressed while the host is gone is never carried out later without a word (a player
pressed "draw" while his host was away; sixteen seconds later, when a host answered again,
"Eva draws 1 card"): the session refuses it at once (``gone``), and a move left unanswered
when the host was lost is not sent again to the host that comes back (``unanswered``: it
may have been played, and a bot or a checker must not take it for refused): once
back, the host's snapshot shows the table as it is. With the host's standby followed, a
move goes on to the standby as before (its tests are the standby's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardparty.net.host import Host
from cardparty.net.player.session import Session, SessionError
from tests.net.conftest import wait_for


def test_a_move_made_while_the_host_is_gone_is_refused_and_never_played_later(
        tmp_path: Path) -> None:
    host = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, testing=True)
    address = host.start()
    eva = Session(address, "Eva", backoff=(0.02, 0.2))
    try:
        eva.connect()
        tid = eva.create("pika", 2, {"dealer": 1}, seed=3)["id"]
        eva.sit(tid)
        eva.add_bots(tid, None, "random")
        eva.ready(tid)
        view = wait_for(eva, lambda m: m["type"] == "view" and bool(m["view"]["moves"]))
        version = view["version"]
        host.stop()
        wait_for(eva, lambda m: m["type"] == "connection" and m["state"] == "lost")
        assert not eva.connected
        pressed = eva.send_move(tid, 0, version)
        with pytest.raises(SessionError) as refused:
            pressed.result(1)
        assert refused.value.code == "gone" and "not sent" in refused.value.message
        host = Host(address, heartbeat=0.1, idle=None, data=tmp_path, testing=True)
        host.start()
        wait_for(eva, lambda m: m["type"] == "connection" and m["state"] == "restored")
        # A request after the welcome is answered after any request sent again at it:
        # once it is, a move kept for the host that came back would have been played.
        eva.request("tables")
        assert host.tables[tid].engine.version == version, "the move was played later"
    finally:
        eva.abort()
        host.stop()


def test_a_move_unanswered_when_the_host_was_lost_is_not_sent_again(tmp_path: Path) -> None:
    host = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, testing=True)
    address = host.start()
    eva = Session(address, "Eva", backoff=(0.02, 0.2))
    try:
        eva.connect()
        tid = eva.create("pika", 2, {"dealer": 1}, seed=3)["id"]
        eva.sit(tid)
        eva.add_bots(tid, None, "random")
        eva.ready(tid)
        view = wait_for(eva, lambda m: m["type"] == "view" and bool(m["view"]["moves"]))
        version = view["version"]
        host.stop()                            # gone before the move reaches it
        pressed = eva.send_move(tid, 0, version)
        with pytest.raises(SessionError) as lost:
            pressed.result(10)
        assert lost.value.code == "unanswered"
        host = Host(address, heartbeat=0.1, idle=None, data=tmp_path, testing=True)
        host.start()
        wait_for(eva, lambda m: m["type"] == "connection" and m["state"] == "restored")
        eva.request("tables")
        assert host.tables[tid].engine.version == version, "the move was played later"
    finally:
        eva.abort()
        host.stop()
