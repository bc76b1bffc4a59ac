"""The key desk bounded (issue 25, item 2): connections at once, per address, seconds a quiet
connection stays, answers a second to one address. Real sockets on loopback: the guest speaks
from 127.0.0.2 (still this machine's loopback), so that the player asking from 127.0.0.1 is
another address, as another laptop would be."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
import zmq

from cardparty.net.host import Host
from cardparty.net.trust import keydesk
from cardparty.net.trust.keydesk import GREETING, QUESTION, DeskLimits, fetch_key, ready_command

GUEST = "127.0.0.2"


def quiet(port: int, source: str = GUEST) -> socket.socket:
    """A connection to the desk that finishes ZMTP's NULL handshake as a DEALER and then says
    nothing (what the issue's 1,100 connections did)."""
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(GREETING + ready_command(b"DEALER"))
    return s


def still_open(s: socket.socket) -> bool:
    """Whether the desk still holds ``s`` (what it sent is read and dropped)."""
    s.setblocking(False)
    try:
        while True:
            if not s.recv(4096):
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def wait_until(check: object, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def desk_host(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
              ) -> Iterator[tuple[Host, int]]:
    """A host whose desk runs with the limits the test gives (``request.param``)."""
    monkeypatch.setattr(keydesk, "LIMITS", request.param)
    host = Host("tcp://127.0.0.1:0", "desk-host", heartbeat=0.2, idle=None)
    host.start()
    try:
        yield host, host.port + 1
    finally:
        host.stop()


@pytest.mark.parametrize("desk_host", [DeskLimits(idle=0.3)], indirect=True)
def test_a_quiet_connection_is_closed_after_the_desks_idle_time(
        desk_host: tuple[Host, int]) -> None:
    host, port = desk_host
    guests = [quiet(port) for _ in range(6)]
    try:
        assert wait_until(lambda: not any(still_open(g) for g in guests)), \
            "quiet connections were kept"
        assert fetch_key(host.address) == (host.keys.public, "desk-host")
    finally:
        for g in guests:
            g.close()


@pytest.mark.parametrize("desk_host", [DeskLimits(connections=8, per_address=64)],
                         indirect=True)
def test_a_full_desk_makes_room_with_its_quietest_and_still_answers(
        desk_host: tuple[Host, int]) -> None:
    host, port = desk_host
    guests = [quiet(port) for _ in range(30)]
    try:
        assert wait_until(lambda: sum(still_open(g) for g in guests) <= 8), \
            f"the desk holds {sum(still_open(g) for g in guests)} quiet connections"
        assert fetch_key(host.address, timeout=2) == (host.keys.public, "desk-host")
    finally:
        for g in guests:
            g.close()


@pytest.mark.parametrize("desk_host", [DeskLimits(per_address=4)], indirect=True)
def test_one_address_holds_its_share_of_the_desk_and_no_more(
        desk_host: tuple[Host, int]) -> None:
    _, port = desk_host
    others = [quiet(port, "127.0.0.3") for _ in range(2)]
    guests = [quiet(port) for _ in range(20)]
    try:
        assert wait_until(lambda: sum(still_open(g) for g in guests) <= 4)
        assert all(still_open(o) for o in others), "another address lost its connections"
    finally:
        for s in guests + others:
            s.close()


@pytest.mark.parametrize("desk_host", [DeskLimits(answers=2.0, burst=3)], indirect=True)
def test_answers_to_one_address_are_rate_limited_and_others_are_answered(
        desk_host: tuple[Host, int]) -> None:
    host, port = desk_host
    ctx = zmq.Context()
    asker = ctx.socket(zmq.DEALER)
    asker.setsockopt(zmq.LINGER, 0)
    asker.connect(f"tcp://{GUEST}:0;127.0.0.1:{port}")
    try:
        for _ in range(50):
            asker.send(QUESTION)
        answered = 0
        end = time.monotonic() + 0.6
        while time.monotonic() < end:
            if asker.poll(50):
                asker.recv()
                answered += 1
        # three at once, then two a second: never the fifty asked
        assert 1 <= answered <= 5, answered
        assert fetch_key(host.address, timeout=1, ctx=ctx)[0] == host.keys.public
        assert asker.poll(2000), "a question over the rate is answered later, not dropped"
    finally:
        asker.close(0)
        ctx.term()


def test_a_client_written_from_the_protocol_doc_reaches_the_desk() -> None:
    """docs/protocol.md: a plain DEALER sends the one frame ``cardparty key?`` and gets one
    msgpack map; anything else is ignored. The same with a long host name (a long frame)."""
    from cardparty.net.trust.keys import KeyPair
    from cardparty.net.wire.protocol import HOST_LIMITS, decode

    pair = KeyPair.generate()
    desk = keydesk.KeyDesk("tcp://127.0.0.1:*", pair, "n" * 300)
    ctx = zmq.Context()
    client = ctx.socket(zmq.DEALER)
    client.setsockopt(zmq.LINGER, 0)
    try:
        client.connect(desk.address)
        client.send(b"what?")                       # not the question: no answer
        client.send(QUESTION)
        assert client.poll(2000)
        answer = decode(client.recv(), HOST_LIMITS)
        assert answer == {"type": "key", "v": 1, "key": pair.public.decode(), "name": "n" * 300}
        assert not client.poll(200)
    finally:
        client.close(0)
        ctx.term()
        desk.close()


def test_a_req_socket_asks_the_desk_as_a_dealer_does() -> None:
    """Issue 28: a REQ's question comes after its empty delimiter frame, and was never
    answered (a client written with REQ waited for ever); the answer comes back to it the same
    way, so ``recv`` gives the one map."""
    from cardparty.net.trust.keys import KeyPair
    from cardparty.net.wire.protocol import HOST_LIMITS, decode

    pair = KeyPair.generate()
    desk = keydesk.KeyDesk("tcp://127.0.0.1:*", pair, "kitchen")
    ctx = zmq.Context()
    client = ctx.socket(zmq.REQ)
    client.setsockopt(zmq.LINGER, 0)
    try:
        client.connect(desk.address)
        client.send(QUESTION)
        assert client.poll(2000), "the desk did not answer a REQ"
        answer = decode(client.recv(), HOST_LIMITS)
        assert answer == {"type": "key", "v": 1, "key": pair.public.decode(), "name": "kitchen"}
        client.send(QUESTION)                         # and again on the same socket
        assert client.poll(2000)
        assert decode(client.recv(), HOST_LIMITS)["key"] == pair.public.decode()
    finally:
        client.close(0)
        ctx.term()
        desk.close()
