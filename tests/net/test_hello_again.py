"""A hello said again on the connection the host already welcomed (issue 27, item 2): after
a host restart a session answers each ``hello_first`` (one per ping it had sent meanwhile)
with another hello on the same connection, and the host gave each of them the pictures of
every table again, so that connection read the whole history twice. The first welcome's
snapshots are on their way on that connection: a repeated hello is welcomed, and told
nothing more. A hello on another connection is a return, and gets everything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardparty.net.host.model import Player
from tests.net.hostkit import Kit

#: The key Eva's connections are authenticated as (CURVE's, as the socket would say).
EVA = b"E" * 40


def playing(kit: Kit, eva: Player) -> str:
    """Eva and a bot at a Pika table, a few moves in."""
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1})
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, count=1, level="normal")
    kit.ask(eva, "ready", table=tid)
    kit.play_until(tid, eva, 4)
    return tid


def told(kit: Kit, who: Player) -> list[dict[str, Any]]:
    return [m for m in kit.out.take(who) if m["type"] in ("welcome", "view", "table")]


def test_a_hello_repeated_on_one_connection_is_welcomed_and_told_nothing_twice(
        tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=EVA)
    tid = playing(kit, eva)
    kit.parts.close()
    again = Kit(data=tmp_path)                       # the host restarted on its data
    route = b"after-restart"
    for _ in range(3):                               # three pings had each a hello_first
        eva = again.parts.hello(route, "Eva", user=EVA)
    got = told(again, eva)
    assert [m["type"] for m in got].count("welcome") == 3, "every hello is answered"
    snapshots = [m for m in got if m["type"] == "view"]
    assert len(snapshots) == 1 and snapshots[0]["snapshot"] and snapshots[0]["table"] == tid
    assert [m["type"] for m in got].count("table") == 1


def test_a_hello_on_another_connection_is_a_return_and_gets_every_table_again() -> None:
    kit = Kit()
    eva = kit.player("Eva", key=EVA)
    tid = playing(kit, eva)
    kit.out.take(eva)
    for route in (b"one", b"two"):
        eva = kit.parts.hello(route, "Eva", user=EVA)
        views = [m for m in told(kit, eva) if m["type"] == "view"]
        assert len(views) == 1 and views[0]["snapshot"] and views[0]["table"] == tid
        assert views[0]["prev"] is None
