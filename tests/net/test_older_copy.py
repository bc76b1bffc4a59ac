"""A client never takes a host's copy of one of its tables older than what it saw (issue 29,
docs/protocol.md "What a client does at a takeover", 4): after following its host's word to
a host that took over, a snapshot of a table at a version below the one the player saw is
refused, said (``connection`` ``older``, and a line on the screen), and the newer view
kept; a snapshot at or above it is taken. On the session's own path for the host's frames,
without a socket."""

from __future__ import annotations

from typing import Any

import zmq

from cardparty.client.net_link import NetLink
from cardparty.net.player.session import Session
from cardparty.net.wire.protocol import encode


def view(version: int, snapshot: bool = True) -> dict[str, Any]:
    return {"type": "view", "table": "t3", "version": version, "prev": version - 1,
            "snapshot": snapshot, "seat": 0, "view": {}, "events": []}


def test_a_snapshot_older_than_what_was_seen_is_refused_after_a_takeover() -> None:
    session = Session("127.0.0.1:9", "Eva")
    sock = zmq.Context.instance().socket(zmq.DEALER)
    try:
        session._incoming(encode(view(12)), sock)
        # The session followed its host's word to the host that took over (``_welcomed_by``
        # keeps where it came from).
        session._before = ("127.0.0.1:9", b"k" * 40)
        session._incoming(encode(view(9)), sock)
        assert session.views["t3"]["version"] == 12
        said = [m for m in list(session.inbox.queue) if m["type"] == "connection"]
        assert said == [{"type": "connection", "v": 1, "state": "older", "table": "t3",
                         "version": 9, "seen": 12}]
        session._incoming(encode(view(12)), sock)          # the same move: taken
        session._incoming(encode(view(13, snapshot=False)), sock)
        assert session.views["t3"]["version"] == 13
    finally:
        sock.close(0)
        session.abort()


def test_the_player_reads_that_the_new_hosts_copy_is_older() -> None:
    link = NetLink("127.0.0.1:9", "Eva")
    shown: list[dict[str, Any]] = []
    link.deliver = shown.append
    link._pushed({"type": "connection", "state": "older", "table": "t3", "version": 9,
                  "seen": 12})
    assert [m.get("text") for m in shown] == [
        "the new host's copy of table t3 is older than what you saw (move 9, not 12): your "
        "view of it is kept"]
