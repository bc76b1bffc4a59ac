"""A session following its lost host's successor, told ``not_host`` there (the standby has
not taken over yet), goes back to the host meanwhile and asks the successor again within
``STANDBY_AGAIN``: its loop wakes for it, instead of sleeping a whole patience (3 s) for a
welcome from the dead host, which left a player three seconds behind the others at every
takeover."""

from __future__ import annotations

import time

import zmq

from cardparty.net.player.session import STANDBY_AGAIN, Session, Successor, _Wire
from cardparty.net.trust.keys import KeyPair


def test_after_not_host_the_session_wakes_to_ask_the_successor_again() -> None:
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    try:
        session = Session("127.0.0.1:7999", "Eva", keys=KeyPair.generate())
        now = time.monotonic()
        session.successor = Successor("tcp://127.0.0.1:7998", KeyPair.generate().public, 3)
        session._lost_at = now - 0.5              # the host was lost half a second ago
        session._at_successor = False             # back at the host after ``not_host``
        session._successor_due = now + STANDBY_AGAIN
        w = _Wire(sock, now, 0.05)
        w.hello_due = None                        # the hello to the host is sent
        assert session._wait(w, now) <= STANDBY_AGAIN + 1e-6
        session._lost_at = now - 60               # no longer following: a patience
        assert session._wait(w, now) > 1.0
    finally:
        sock.close(0)


def test_a_hello_said_again_for_hello_first_is_awaited_on_the_same_connection() -> None:
    """A host that restarted (a heal) answers a request ``hello_first``: the session says
    hello on the same connection and waits for its welcome there. It used to open a fresh
    connection at once and say hello again: two hellos of one player on two connections,
    and a host that took the older last answered the live one ``replaced``, which ended
    the session and left its seat empty for good."""
    from cardparty.net.wire.protocol import encode, error

    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    try:
        session = Session("127.0.0.1:7999", "Eva", keys=KeyPair.generate())
        now = time.monotonic()
        w = _Wire(sock, now - 60, 0.05)          # its last hello a minute ago
        w.hello_due = None
        session._wire = w
        session.connected = True
        session._incoming(encode(error("hello_first", "say hello first")), sock)
        assert not session.connected
        session._keep_up(w, time.monotonic())
        assert w.sock is sock, "a second connection was opened"
    finally:
        sock.close(0)
