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
