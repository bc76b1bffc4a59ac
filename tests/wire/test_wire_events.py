"""Events and ratings on the wire as docs/protocol.md describes them, against a real
``cardparty host --testing --organiser Org`` process, with nothing but pyzmq and msgpack: an
event created, signed up to and started, its rounds seated and told, played to the end with
duplicate deals, its standings; the ratings that come of it; and every refusal the doc lists
for events."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import zmq

from tests.wire.doc_client import Client, HostProcess, check_error, play_all

pytestmark = pytest.mark.xdist_group("wire_events")

#: The organiser's key pair: his name is his key's at the host (every test of the module).
ORG = zmq.curve_keypair()

QUICK: dict[str, Any] = {"game": "pika", "players": 2, "settings": {"hand_size": 3}}


def seat_of_round(number: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "event_seat" and m["round"] == number


def summary_of(table: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "table" and m["table"]["id"] == table


@pytest.fixture(scope="module")
def host() -> Iterator[HostProcess]:
    h = HostProcess("--testing", "--heartbeat", "0.2", "--organiser", "Org")
    yield h
    h.stop()


def test_an_event_from_sign_up_to_its_standings_as_the_doc_tells_it(host: HostProcess) -> None:
    org = host.client("Org", keys=ORG)
    made = org.ok("event_create", **QUICK, rounds=2, duplicate=True, start_within=0,
                  title="Friday", seed=11)
    assert made["type"] == "event"
    event = made["event"]
    eid = event["id"]
    assert (event["status"], event["round"], event["rounds"], event["duplicate"],
            event["organiser"], event["title"]) == ("signup", 0, 2, True, "Org", "Friday")
    listed = org.ok("events")
    assert listed["type"] == "events" and listed["events"][0]["id"] == eid
    players = {name: host.client(name) for name in ("Ana", "Bob", "Cid", "Dan")}
    for name, c in players.items():
        joined = c.ok("event_join", event=eid)
        assert joined["type"] == "event" and name in [s["name"] for s in
                                                      joined["event"]["standings"]]
    # Told to the organiser as it changes.
    told = org.wait(lambda m: m["type"] == "event" and len(m["event"]["standings"]) == 4)
    assert told["event"]["status"] == "signup"
    started = org.ok("event_start", event=eid)
    assert started["type"] == "ok" and started["rounds"] == 2
    for rnd in (1, 2):
        seats = {name: c.wait(seat_of_round(rnd)) for name, c in players.items()}
        for name, seat in seats.items():
            assert seat["event"] == eid and seat["names"][seat["seat"]] == name
        tables: dict[str, list[Client]] = {}
        for name, seat in seats.items():
            tables.setdefault(seat["table"], []).append(players[name])
        assert len(tables) == 2
        decks = []
        for tid, clients in tables.items():
            summary = clients[0].wait(summary_of(tid))["table"]
            assert summary["event"] == eid and summary["again"] is False
            decks.append(summary["settings"]["deck"])
            done = play_all(clients, tid)
            assert all(v["view"]["result"] is not None for v in done)
            again = clients[0].refused("event_state", "again", table=tid)
            assert "event" in again["message"]
        assert decks[0] == decks[1]                   # duplicate: the same cards everywhere
    final = org.wait(lambda m: m["type"] == "event" and m["event"]["status"] == "over")
    ended = final["event"]
    assert ended["round"] == 2 and [s["rank"] for s in ended["standings"]][0] == 1
    for line in ended["standings"]:
        assert {"rank", "name", "points", "buchholz", "firsts", "played", "byes", "status",
                "rating", "rounds"} <= set(line)
        assert len(line["rounds"]) == 2 and line["played"] == 2
        assert line["points"] == pytest.approx(sum(line["rounds"]))
    assert all(len(r["tables"]) == 2 and r["repeats"] == 0 for r in ended["results"])
    again = org.ok("event", event=eid)
    assert again["event"]["standings"] == ended["standings"]
    # The rounds rated the players at Pika.
    page = org.ok("ratings", game="pika")
    assert page["type"] == "ratings" and page["total"] == 4 and page["me"] is None
    assert [r["rank"] for r in page["ratings"]] == [1, 2, 3, 4]
    ana = players["Ana"].ok("ratings")
    assert ana["name"] == "Ana" and ana["ratings"][0]["game"] == "pika"
    assert ana["ratings"][0]["rounds"] == 2
    for c in [org, *players.values()]:
        c.close()


def test_every_refusal_of_an_event(host: HostProcess) -> None:
    org, eva = host.client("Org", keys=ORG), host.client("Eva")
    check_error(eva.refused("not_organiser", "event_create", **QUICK), about="event_create")
    eva.refused("no_event", "event", event="e404")
    eid = org.ok("event_create", **QUICK, rounds=1, late=0, start_within=60)["event"]["id"]
    eva.refused("not_organiser", "event_start", event=eid)
    org.refused("event_state", "event_start", event=eid)          # nobody signed up
    eva.refused("not_entered", "event_leave", event=eid)
    org.refused("event_state", "event_deadline", event=eid, minutes=1)
    eva.ok("event_join", event=eid)
    assert eva.ok("event_leave", event=eid)["about"] == "event_leave"
    for name in ("Fay", "Gus"):
        host.client(name).ok("event_join", event=eid)
    org.ok("event_start", event=eid)
    eva.refused("event_state", "event_join", event=eid)            # late entries closed
    org.ok("event_deadline", event=eid, minutes=0)                # ends the round at once
    over = org.wait(lambda m: m["type"] == "event" and m["event"]["status"] == "over")
    stopped = over["event"]["results"][0]["tables"][0]
    assert stopped["state"] == "stopped"
    assert all(s["points"] == 0.5 for s in stopped["seats"])
    org.refused("bad_field", "event_create", **{**QUICK, "rounds": 0})
    for c in (org, eva):
        c.close()


def test_leaving_an_events_table_before_it_starts_is_refused(host: HostProcess) -> None:
    org = host.client("Org", keys=ORG)
    eid = org.ok("event_create", **QUICK, rounds=1, start_within=600)["event"]["id"]
    hal, ivy = host.client("Hal"), host.client("Ivy")
    hal.ok("event_join", event=eid)
    ivy.ok("event_join", event=eid)
    org.ok("event_start", event=eid)
    seat = hal.wait(lambda m: m["type"] == "event_seat")
    refusal = hal.refused("event_state", "leave", table=seat["table"])
    assert "withdraw" in refusal["message"]
    for c in (hal, ivy):
        c.ok("ready", table=seat["table"])
    view = hal.wait(lambda m: m["type"] == "view" and m["table"] == seat["table"])
    assert view["seat"] == seat["seat"]
    for c in (org, hal, ivy):
        c.close()
