"""The shapes of the records', replays' and events' replies and pushes
(``net/wire/record_replies.py``, ``net/wire/event_replies.py``) hold what a real host sends:
a real host and real sessions play a round to its end and an event's round to its end, and
every reply and push of theirs is of its declared shape: no key it lacks, every key of the
type declared, every key it requires present (nested parts too)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, get_type_hints

import pytest

from cardparty.core.contract import View
from cardparty.net.host import Host
from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire import event_replies as ev
from cardparty.net.wire import record_replies as rr
from tests.net.shapes import held_to

#: A quick round: Pika at a table of two with small hands.
QUICK: dict[str, Any] = {"game": "pika", "players": 2, "settings": {"hand_size": 3}}


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, testing=True,
             organisers=("Eva",), bot_delay=0.0)
    h.start()
    try:
        yield h
    finally:
        h.stop()


def held(value: dict[str, Any], shape: type) -> None:
    """``value`` is of ``shape`` (``shapes.held_to``); a replay's view has every key a view
    declares but its deadlines, and each of its events its words."""
    held_to(value, shape)
    if shape in (rr.ReplayReply, rr.ReplaySharedPush):
        assert set(get_type_hints(View)) - {"deadlines"} <= set(value["view"])
        assert all("text" in event for event in value["events"])


class Heard:
    """A session and every message pushed to it so far, by type."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pushed: list[dict[str, Any]] = []

    def drain(self, wait: float = 0.0) -> None:
        while (msg := self.session.next_message(wait)) is not None:
            self.pushed.append(msg)
            wait = 0.0

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.pushed if m["type"] == kind]

    def wait_for(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.drain(0.05)
            if self.of(kind):
                return self.of(kind)[-1]
        raise AssertionError(f"no {kind} came")


def play_out(players: list[Heard], tid: str, timeout: float = 30.0) -> None:
    """Each player moves whenever his view of ``tid`` lists moves, until its result."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for p in players:
            p.drain(0.01)
            view = p.session.views.get(tid)
            if view is None:
                continue
            if view["view"].get("result"):
                return
            moves = view["view"].get("moves") or []
            if moves:
                try:
                    p.session.move(tid, view["version"] % len(moves), view["version"])
                except SessionError as exc:
                    if exc.code not in ("stale", "not_playing"):
                        raise
    raise AssertionError("the round did not end")


def test_records_and_replays_are_as_declared(host: Host) -> None:
    eva = Heard(Session(host.address, "Eva"))
    eva.session.connect()
    try:
        s = eva.session
        tid = s.create(QUICK["game"], QUICK["players"], QUICK["settings"], bot_delay=0.0)["id"]
        s.sit(tid)
        s.add_bots(tid)
        s.ready(tid)
        live = s.request("replay", table=tid, step=0, seat=1)    # in play: her own seat
        held(live, rr.ReplayReply)
        assert live["live"] is True and live["record"] is None and live["seat"] == 0
        play_out([eva], tid)
        listed = s.request("records")
        held(listed, rr.RecordsReply)
        assert len(listed["records"]) == 1 and listed["records"][0]["places"]
        rid = listed["records"][0]["id"]
        record = s.request("record", id=rid)
        held(record, rr.RecordReply)
        assert record["record"]["steps"] and record["record"]["result"] is not None
        for step in (0, 1, len(record["record"]["steps"])):
            shown = s.request("replay", record=rid, step=step, seat=1)
            held(shown, rr.ReplayReply)
            assert shown["step"] == step and shown["events"]
        lead = s.request("replay_lead", table=tid, step=2, seat=None)
        held(lead, rr.ReplayLeadReply)
        held(eva.wait_for("replay_shared"), rr.ReplaySharedPush)
        held(s.request("replay_end", table=tid), rr.ReplayEndReply)
        held(eva.wait_for("replay_ended"), rr.ReplayEndedPush)
    finally:
        eva.session.close()


def test_events_and_their_pushes_are_as_declared(host: Host) -> None:
    eva, bob, cid = (Heard(Session(host.address, name)) for name in ("Eva", "Bob", "Cid"))
    for p in (eva, bob, cid):
        p.session.connect()
    try:
        made = eva.session.request("event_create", **QUICK, rounds=1, start_within=0,
                                   title="Friday")
        held(made, ev.EventReply)
        eid = made["event"]["id"]
        listed = cid.session.request("events")
        held(listed, ev.EventsReply)
        assert [e["id"] for e in listed["events"]] == [eid]
        held(cid.session.request("event", event=eid), ev.EventReply)     # Cid follows it
        for p in (eva, bob):
            held(p.session.request("event_join", event=eid), ev.EventReply)
        started = eva.session.request("event_start", event=eid)
        held(started, ev.EventStartReply)
        seats = [p.wait_for("event_seat") for p in (eva, bob)]
        for seat in seats:
            held(seat, ev.EventSeatPush)
        tid = seats[0]["table"]
        held(eva.session.request("event_deadline", event=eid, minutes=30),
             ev.EventDeadlineReply)
        play_out([eva, bob], tid)
        over = cid.wait_for("event")
        end = time.monotonic() + 10
        while over["event"]["status"] != "over" and time.monotonic() < end:
            cid.drain(0.05)
            over = cid.of("event")[-1]
        assert over["event"]["status"] == "over"
        table = over["event"]["results"][0]["tables"][0]
        assert all(s["place"] is not None and s["points"] is not None for s in table["seats"])
        for p in (eva, bob, cid):
            p.drain()
            assert p.of("event")
            for pushed in p.of("event"):
                held(pushed, ev.EventPush)
        made = eva.session.request("event_create", **QUICK, title="Later")
        bob.session.request("event_join", event=made["event"]["id"])
        left = bob.session.request("event_leave", event=made["event"]["id"])
        held(left, ev.EventLeaveReply)
    finally:
        for p in (eva, bob, cid):
            p.session.close()


def test_a_missing_key_or_one_no_shape_declares_is_found() -> None:
    entry = {"id": "r1", "game": "pika", "ended": 1.0, "table": "t1", "title": "", "round": 1,
             "mode": "open", "names": ["Eva", "Bob"], "seat": 0, "steps": 9,
             "places": [1, 2], "scores": None, "plugins": {}}
    whole = {"type": "records", "v": 1, "rid": 3, "records": [entry], "more": False}
    held(whole, rr.RecordsReply)
    with pytest.raises(AssertionError):
        held({**whole, "records": [{**entry, "colour": "red"}]}, rr.RecordsReply)
    with pytest.raises(AssertionError):
        held({**whole, "records": [{k: v for k, v in entry.items() if k != "steps"}]},
             rr.RecordsReply)
    with pytest.raises(AssertionError):
        held({k: v for k, v in whole.items() if k != "more"}, rr.RecordsReply)
    held({k: v for k, v in whole.items() if k != "rid"}, rr.RecordsReply)   # rid: optional
    with pytest.raises(AssertionError):
        held({"type": "event_seat", "v": 1, "event": "e1", "round": "one", "table": "t1",
              "seat": 0, "names": [], "title": ""}, ev.EventSeatPush)
