"""Routes that die with their connection (issue 25, item 3; "What was seen" 5), on real
sockets on 127.0.0.1: a routing id is forgotten the moment its connection closes (ZeroMQ's
socket monitor, ``fdbudget.ConnectionCap``), so a second key taking that id after him receives
nothing of his; a connection that says no hello is closed after ``hello_within`` seconds
whether its id is in use or not; and near the cap of connections, strangers' connections make
room for known players'."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest
import zmq
from zmq.utils.monitor import parse_monitor_message

from cardparty.net.host import Host
from cardparty.net.player.session import Session
from cardparty.net.trust.fdbudget import ConnectionCap, Door, peer_of_descriptor
from cardparty.net.trust.guests import Guests
from cardparty.net.trust.keys import KeyPair
from tests.net.test_identity import raw_client as dealer
from tests.net.test_identity import replies as heard


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "route-host", heartbeat=5.0, idle=None, testing=True,
             guests=dataclasses.replace(Guests(), hello_within=0.6))
    h.start()
    yield h
    h.stop()


def until(what: Any, seconds: float = 3.0) -> None:
    end = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < end, "not in time"
        time.sleep(0.01)


def test_a_routing_id_left_by_a_closed_connection_gets_nothing_of_its_player(
        host: Host) -> None:
    """What was seen, 5: after Eva's connection closed, a second key connecting with her
    routing id and saying nothing received her pushes (views with her hand) until a send
    failed or she said hello again."""
    bob = Session(host.address, "Bob", keys=KeyPair.generate(), request_timeout=5.0)
    bob.connect(5.0)
    eva = Session(host.address, "Eva", keys=KeyPair.generate(), request_timeout=5.0)
    eva.connect(5.0)
    try:
        tid = bob.create("pika", 2)["id"]
        bob.sit(tid)
        eva.sit(tid)
        route = next(r for r, p in host.parts.roster.routes.items() if p.name == "Eva")
        eva_player = host.parts.roster.routes[route]
        eva.abort()                                    # her connection closes, no bye
        until(lambda: eva_player.route is None)        # forgotten at once, not at liveness
        mallory = dealer(host, KeyPair.generate(), routing_id=route)
        try:
            time.sleep(0.2)                            # through the handshake, silent
            bob.chat(tid, "are you there, Eva?")
            bob.ready(tid)
            assert heard(mallory, 0.5) == []
        finally:
            mallory.close(0)
    finally:
        bob.close()


def monitored(sock: zmq.Socket[Any]) -> zmq.Socket[Any]:
    return sock.get_monitor_socket(zmq.EVENT_DISCONNECTED)


def closed_within(mon: zmq.Socket[Any], seconds: float) -> bool:
    if not mon.poll(int(seconds * 1000)):
        return False
    return parse_monitor_message(mon.recv_multipart())["event"] == zmq.EVENT_DISCONNECTED


def test_a_connection_that_says_nothing_is_closed_whether_its_id_is_in_use_or_not(
        host: Host) -> None:
    """What was seen, 5: an id in use answered nothing while a free one could be held open
    for ever. Each connection that says no hello is closed after ``hello_within`` seconds, the
    same way; a player's own connection stays."""
    eva = Session(host.address, "Eva", keys=KeyPair.generate(), request_timeout=5.0)
    eva.connect(5.0)
    try:
        route = next(r for r, p in host.parts.roster.routes.items() if p.name == "Eva")
        in_use = dealer(host, KeyPair.generate(), routing_id=route)
        free = dealer(host, KeyPair.generate(), routing_id=b"\x00free")
        mons = [monitored(in_use), monitored(free)]
        try:
            assert [closed_within(m, 3.0) for m in mons] == [True, True]
            assert eva.request("games")["type"] == "games" and eva.connected
        finally:
            for s in (*mons, in_use, free):
                s.close(0)
    finally:
        eva.close()


def test_near_the_cap_strangers_make_room_for_known_players() -> None:
    """What was seen, 3: fresh-key connections filled the host and the next newcomer was
    ``busy``. Near the cap a new connection closes the oldest that said no hello, then the
    oldest stranger's; a known player's connection is never closed for room."""
    ctx = zmq.Context()
    router = ctx.socket(zmq.ROUTER)
    cap = ConnectionCap(router, 8, Door.of(Guests(hello_within=60.0, reserve=0.25, own=())))
    cap.start()
    router.bind("tcp://127.0.0.1:*")
    address = router.getsockopt_string(zmq.LAST_ENDPOINT)
    socks: list[zmq.Socket[Any]] = []

    def connect(kept: bool | None) -> zmq.Socket[Any]:
        """A connection that says hello (``kept``: as a known player) or nothing (None)."""
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RECONNECT_IVL, 10_000)
        s.connect(address)
        socks.append(s)
        if kept is not None:
            s.send(b"hello")
            router.recv()
            frame = router.recv(copy=False)
            fd = int(frame.get(zmq.SRCFD))
            peer = peer_of_descriptor(fd)
            assert peer is not None
            cap.spoke(fd, peer, kept)
        return s

    try:
        known = [connect(True) for _ in range(3)]
        strangers = [connect(False) for _ in range(3)]
        mons = {id(s): monitored(s) for s in known + strangers}
        until(lambda: cap.held == 6)                   # the room strangers may fill (8 - 2)
        time.sleep(2.2)                                # past the newcomers' grace
        connect(None)                                  # the 7th: into the reserve
        assert closed_within(mons[id(strangers[0])], 2.0)     # the oldest stranger's
        assert not any(closed_within(mons[id(s)], 0.05) for s in known)
        until(lambda: cap.held == 6)
        assert len(cap.closed) == 1                    # one connection ended: the stranger's
    finally:
        router.close(0)
        cap.stop()
        ctx.destroy(0)

