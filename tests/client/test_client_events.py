"""Events in the client against a real host in this process (docs/playing.md, "Events"): `e`
in the lobby lists the host's events with the chosen one's standings, Enter signs up, a round
seated opens its table's waiting room and says where (TO-15), the end of an event's round says
where the player stands and `e` opens the standings, `x` writes them as CSV and HTML, and the
lobby shows each player's rating after his name (TO-26)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardparty.client.render import Renderer
from cardparty.client.screens.events import EventsScreen
from cardparty.client.screens.room import RoomScreen
from cardparty.client.theme import UNICODE
from cardparty.net.host import Host
from cardparty.net.player.session import Session, SessionError
from tests.client.clientkit import choose_by_keys, player


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, economy=":memory:",
             testing=True, organisers=("Org",))
    h.start()
    try:
        yield h
    finally:
        h.stop()


def text(fragments: list[tuple]) -> str:                       # type: ignore[type-arg]
    return "".join(f[1] for f in fragments)


def test_to15_a_player_signs_up_is_seated_plays_and_reads_the_standings(
        host: Host, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    org = Session(host.address, "Org")
    org.connect()
    bob = Session(host.address, "Bob")
    bob.connect()
    try:
        made = org.event_create("pika", 2, settings={"hand_size": 3}, rounds=1,
                                start_within=30, title="Friday")
        eid = made["id"]
        eva, pump = player(host.address, "Eva")
        pump.until(lambda: eva.connection == "connected" and eva.games)
        r = Renderer(eva, UNICODE)
        eva.key("e")
        pump.until(lambda: eva.screen == "events" and eid in eva.get(EventsScreen).events)
        shown = text(r.screen("events"))
        assert "Friday" in shown and "nobody has signed up yet" in shown
        eva.key("enter")                                      # signs up
        events = eva.get(EventsScreen).events
        pump.until(lambda: any(s["name"] == "Eva" for s in events[eid]["standings"]))
        assert "Eva" in text(r.screen("events"))
        bob.event_join(eid)
        org.event_start(eid)
        pump.until(lambda: eva.screen == "room")             # the round's waiting room
        seat = eva.get(EventsScreen).seat
        room = eva.get(RoomScreen).table
        assert seat is not None and seat["round"] == 1 and seat["table"] == room
        eva.key("r")
        bob.ready(eva.get(RoomScreen).table)
        pump.until(lambda: eva.screen == "table")
        rng = random.Random(3)
        while not eva.table.over:
            pump.pump(0.01)
            choose_by_keys(eva, rng)
            if bob.views.get(eva.table_id, {}).get("view", {}).get("moves"):
                v = bob.views[eva.table_id]
                with contextlib.suppress(SessionError):     # stale: the next view says
                    bob.move(eva.table_id, 0, v["version"])
            assert eva.failures == []
        pump.until(lambda: eva.get(EventsScreen).events[eid]["status"] == "over")
        over = " ".join(text(r.over()).split())
        assert "Friday after round 1 of 1: you are" in over and "(e: the standings)" in over
        assert "the event's standings" in over
        eva.key("e")
        pump.until(lambda: eva.screen == "events")
        standings = text(r.screen("events"))
        assert "Standings" in standings and "r1" in standings
        monkeypatch.chdir(tmp_path)
        eva.key("x")
        assert (tmp_path / f"cardparty-{eid}.csv").read_text().startswith("rank,name,points")
        assert "<table>" in (tmp_path / f"cardparty-{eid}.html").read_text()
        eva.key("q")
        assert eva.screen == "lobby"
        # The round rated Eva and Bob: the lobby shows it after their names.
        rated = host.parts.ratings.shown("pika", "Eva")
        assert rated is not None
        eva.request("games")
        pump.until(lambda: any(f"Eva [{rated:g}]" in str(s) for t in eva.tables
                               for s in t.get("seats") or ()))
    finally:
        org.close()
        bob.close()
