"""A network bot that was told ``ok`` about a move, and then gets its host's whole picture of
the table at the version it moved on (a host that took over from a copy without that move),
moves again instead of waiting for a view that will never come."""

from __future__ import annotations

from typing import Any, cast

from cardparty.net.player.netbot import _pushed, _Seat
from cardparty.net.wire.replies import ViewMessage


def view(version: int, snapshot: bool) -> dict[str, Any]:
    return {"type": "view", "table": "t1", "version": version, "prev": None,
            "snapshot": snapshot, "seat": 1, "view": {"moves": [{"kind": "take"}]}}


def test_a_snapshot_at_the_version_a_bot_moved_on_lets_it_move_again() -> None:
    me = _Seat(cast(ViewMessage, view(38, False)))
    me.moved_on = 38                       # its move on 38 was answered
    _pushed(me, "t1", view(38, False))     # a view pushed again: nothing new
    assert me.moved_on == 38
    _pushed(me, "t1", view(38, True))      # the host's whole picture: the move is not in it
    assert me.moved_on is None
    assert me.latest is not None and me.latest["version"] == 38
