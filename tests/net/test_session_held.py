"""A request answered ``held`` is not refused (docs/protocol.md, "No split brain"): the table
waits for one of its players, and the move may have been done before the hold (its reply kept
in the host's memory). The session sends it again, with its request id, until the table is
served again, and its caller gets the reply the host kept: never a refusal for a move that was
made. A host scripted on a real ROUTER over CURVE answers the first tries ``held``."""

from __future__ import annotations

import threading
from typing import Any

import zmq

from cardparty.net.player.session import Session
from cardparty.net.trust.guard import Guard, open_router, peer_of
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import decode, encode, error, message


def test_a_move_answered_held_is_sent_again_and_gets_the_reply_the_host_kept() -> None:
    keys = KeyPair.generate()
    ctx: zmq.Context[Any] = zmq.Context()
    guard = Guard(ctx, keys, "scripted")
    for _ in range(50):                # the key desk takes the port after the host's
        router, address = open_router(ctx, "tcp://127.0.0.1:0", guard)
        if guard.open_desk(address):
            break
        router.close(0)
    else:
        raise AssertionError("no free pair of ports")
    moves: list[Any] = []
    stopping = threading.Event()

    def host() -> None:
        while not stopping.is_set():
            if not router.poll(20):
                continue
            route = router.recv()
            body = router.recv(copy=False)
            peer_of(body)
            msg = decode(body.bytes)
            kind = msg["type"]
            if kind == "hello":
                reply = message("welcome", rid=msg.get("rid"), host="scripted", player="p1",
                                name=msg["name"], resumed=False, heartbeat=1.0, liveness=3,
                                protocol=1, games=[], epoch=1, standby=None, standby_gen=0)
            elif kind == "move":
                moves.append(msg["rid"])
                reply = (error("held", "the table waits", msg["rid"], "move", "t1")
                         if len(moves) < 3 else
                         message("ok", rid=msg["rid"], about="move", version=7))
            else:
                continue
            router.send_multipart([route, encode(reply)])

    thread = threading.Thread(target=host, daemon=True)
    thread.start()
    session = Session(address, "Eva", host_key=keys.public, request_timeout=10)
    try:
        session.connect(10)
        ok = session.move("t1", 0, 6)
        assert ok["type"] == "ok" and ok["version"] == 7
        assert len(moves) == 3 and len(set(moves)) == 1, "the same request, again"
    finally:
        session.close()
        stopping.set()
        thread.join(5)
        router.close(0)
        guard.close()
        ctx.destroy(linger=0)
