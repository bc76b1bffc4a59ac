"""Game records on the wire as docs/protocol.md's "Game records" tells it, against a real
``cardparty host --testing`` process with nothing but pyzmq and msgpack: the records a player
lists and fetches once a round is over, the replay of a finished round from any seat (equal to
what that seat was sent), a round in play replayed from the asking seat only, the shared
replay that anybody at the table may lead, and the review of one's own decisions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.wire.doc_client import Client, HostProcess, check_error, play_all, running

pytestmark = pytest.mark.xdist_group("wire_records")


@pytest.fixture(scope="module")
def host() -> Iterator[HostProcess]:
    with running("--testing", "--heartbeat", "0.2") as h:
        yield h


@pytest.fixture
def clients(host: HostProcess) -> Iterator[Any]:
    made: list[Client] = []

    def make(name: str) -> Client:
        c = host.client(name)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def finished_round(a: Client, b: Client, **create: Any) -> tuple[str, list[dict[str, Any]]]:
    """A Pika round of ``a`` (seat 0) and ``b`` (seat 1) played out: the table and the
    views each was sent (``a``'s then ``b``'s)."""
    tid = a.ok("create", game="pika", players=2, seed=3, settings={"dealer": 1},
               **create)["table"]["id"]
    a.ok("sit", table=tid, seat=0)
    b.ok("sit", table=tid, seat=1)
    a.ok("ready", table=tid)
    b.ok("ready", table=tid)
    play_all([a, b], tid)
    return tid, [m for c in (a, b) for m in c.pushed if m["type"] == "view"
                 and m["table"] == tid]


def test_records_are_listed_fetched_and_replayed_from_any_seat_as_sent(clients: Any) -> None:
    ana, ben, cid = clients("Ana"), clients("Ben"), clients("Cid")
    tid, sent = finished_round(ana, ben)
    listed = ana.ok("records")
    assert listed["type"] == "records" and listed["more"] is False
    entry = listed["records"][0]
    assert {"id", "game", "ended", "table", "title", "round", "mode", "names", "seat",
            "steps", "places", "scores", "plugins"} <= set(entry)
    assert entry["table"] == tid and entry["seat"] == 0 and entry["names"] == ["Ana", "Ben"]
    got = ben.ok("record", id=entry["id"])
    record = got["record"]
    assert got["type"] == "record" and record["format"] == "cardparty-record"
    assert record["plugins"]["pika"] and len(record["steps"]) == entry["steps"]
    assert cid.ok("records")["records"] == []
    check_error(cid.refused("no_record", "record", id=entry["id"]), about="record")
    for msg in sent:
        step = msg["version"] - record["version"]
        shown = ana.ok("replay", record=entry["id"], step=step, seat=msg["seat"])
        assert shown["type"] == "replay" and shown["live"] is False
        assert shown["view"] == msg["view"], (msg["seat"], step)
        assert shown["steps"] == len(record["steps"])
    last = ana.ok("replay", table=tid, step=10_000, seat=1)       # the table's last round
    assert last["step"] == last["steps"] and last["view"]["seat"] == 1
    ana.refused("bad_field", "replay", step=1)                    # neither record nor table


def test_a_round_in_play_is_replayed_only_from_ones_own_seat(clients: Any) -> None:
    dan = clients("Dan")
    tid = dan.table_with_bots("pika", 2, settings={"dealer": 1})
    first = dan.wait(lambda m: m["type"] == "view" and m["table"] == tid)
    start = dan.ok("replay", table=tid, step=0, seat=1)            # asks for the bot's
    assert start["live"] is True and start["seat"] == 0 and start["view"]["seat"] == 0
    step = first["version"] - start["view"]["version"]
    shown = dan.ok("replay", table=tid, step=step, seat=None)
    assert shown["seat"] == 0 and shown["view"] == first["view"]
    dan.refused("not_over", "replay_lead", table=tid)


def test_a_shared_replay_is_led_by_anyone_at_the_table(clients: Any) -> None:
    eva, fay, gus = clients("Eva"), clients("Fay"), clients("Gus")
    tid, _ = finished_round(eva, fay)
    gus.ok("watch", table=tid)
    assert eva.ok("replay_lead", table=tid, step=2, seat=1)["about"] == "replay_lead"
    for c in (eva, fay, gus):
        pushed = c.wait(lambda m: m["type"] == "replay_shared")
        assert pushed["step"] == 2 and pushed["seat"] == 1 and pushed["leader_name"] == "Eva"
        assert pushed["view"]["seat"] == 1
    check_error(fay.refused("not_leader", "replay_end", table=tid), about="replay_end")
    gus.ok("replay_lead", table=tid, step=5, seat=0)
    assert fay.wait(lambda m: m["type"] == "replay_shared" and m["step"] == 5)[
        "leader_name"] == "Gus"
    gus.ok("replay_end", table=tid)
    ended = eva.wait(lambda m: m["type"] == "replay_ended")
    assert ended["table"] == tid and ended["by"] == "Gus"


def test_a_review_marks_ones_own_decisions_only(clients: Any) -> None:
    hal, ida = clients("Hal"), clients("Ida")
    finished_round(hal, ida, bot_budget_ms=30)
    rid = hal.ok("records")["records"][0]["id"]
    first, second = hal.rid(), hal.rid()
    hal.send({"type": "review", "id": rid, "rid": first})
    hal.send({"type": "review", "id": rid, "rid": second})
    busy = hal.reply_to(second)
    assert busy["type"] == "error" and busy["code"] == "reviewing", busy
    got = hal.reply_to(first, timeout=120.0)
    assert got["type"] == "review", got
    assert got["record"] == rid and got["seat"] == 0 and got["decisions"] > 0
    for mark in got["marks"]:
        assert {"step", "loss", "played", "better", "reason", "reason_msg"} <= set(mark)
        assert mark["loss"] > got["margin"]
    stranger = clients("Jo")
    stranger.refused("no_record", "review", id=rid)


#: Pika for two, seat 0 first: R1 R2 Y9 against R3 G2 G7, R5 turned.
UNDO_DECK = {"dealer": 1, "hand_size": 3,
             "deck": ["R1", "R2", "Y9", "R3", "G2", "G7", "R5", "B4", "B6"]}


def test_a_move_is_taken_back_once_every_seated_human_agrees(clients: Any) -> None:
    kay, lea = clients("Kay"), clients("Lea")
    check_error(kay.refused("no_undo", "create", game="pika", players=2, mode="open",
                            undo=True), about="create")
    tid = kay.ok("create", game="pika", players=2, mode="friends", undo=True, seed=3,
                 settings=UNDO_DECK)["table"]["id"]
    assert kay.ok("invite", table=tid, names=["Lea"])["about"] == "invite"
    kay.ok("sit", table=tid, seat=0)
    lea.ok("sit", table=tid, seat=1)
    kay.ok("ready", table=tid)
    lea.ok("ready", table=tid)
    first = kay.wait(lambda m: m["type"] == "view" and m["table"] == tid)
    kay.ok("move", table=tid, version=first["version"], move={"kind": "play", "cards": ["R1"]})
    check_error(lea.refused("cannot_undo", "undo", table=tid), about="undo")   # no move yet
    check_error(lea.refused("not_asked", "undo_answer", table=tid, agree=True),
                about="undo_answer")
    asked = kay.ok("undo", table=tid)
    assert asked["about"] == "undo" and asked["waiting"] == ["Lea"] and asked["moves"] == 1
    told = lea.wait(lambda m: m["type"] == "table" and m["table"]["undo_asked"] is not None)
    assert told["table"]["undo"] is True and told["table"]["undo_asked"]["name"] == "Kay"
    check_error(lea.refused("undoing", "undo", table=tid), about="undo")
    lea.ok("undo_answer", table=tid, agree=False)
    for c in (kay, lea):
        dropped = c.wait(lambda m: m["type"] == "undo_dropped")
        assert dropped["table"] == tid and dropped["by"] == "Lea" and dropped["reason_msg"]
    kay.ok("undo", table=tid)
    assert lea.ok("undo_answer", table=tid, agree=True)["waiting"] == []
    for c in (kay, lea):
        back = c.wait(lambda m: m["type"] == "view" and m["table"] == tid
                      and any(e["type"] == "undo" for e in m["events"]))
        assert back["view"]["version"] == back["version"]
        assert [e["type"] for e in back["events"]] == ["undo"] and back["events"][0]["msg"]
    assert back["view"]["players"][0]["count"] == 3          # Kay holds R1 again
