"""The wire as docs/protocol.md describes it, against a real ``cardparty host --testing``
process, with nothing but pyzmq and msgpack: the key desk and the fingerprint, CURVE (and what a
wrong key looks like), hello and its welcome, heartbeats, bye, frames the host does not read,
the rate limit, request ids, the lists of games and tables, and the per-key limits.

One host for the module (``host``); each test speaks as players of its own."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
import zmq

from tests.wire.doc_client import (
    Client,
    HostProcess,
    Message,
    ask_desk,
    check_error,
    fingerprint,
    pack,
    running,
)

#: One worker for the module's tests, so one host (where xdist groups them: each test also
#: stands alone, so a host per worker is only slower).
pytestmark = pytest.mark.xdist_group("wire_session")


@pytest.fixture(scope="module")
def host() -> Iterator[HostProcess]:
    with running("--testing", "--heartbeat", "0.2") as h:
        yield h


# --- keys ------------------------------------------------------------------------------------

def test_the_key_desk_tells_a_dealer_and_a_req_the_key_the_host_then_proves(
        host: HostProcess) -> None:
    for kind in (zmq.DEALER, zmq.REQ):
        answer = ask_desk(host.port, kind)
        assert answer == {"type": "key", "v": 1, "key": host.key, "name": "wire"}, answer
        assert len(answer["key"]) == 40
    printed = re.search(r"key fingerprint ([a-z2-7]{4}(?:-[a-z2-7]{4}){3})", host.stderr())
    assert printed is not None, host.stderr()
    assert fingerprint(host.key) == printed.group(1)         # the doc's algorithm
    eva = host.client()
    assert eva.hello("Desk Eva")["type"] == "welcome"          # CURVE with the desk's key
    eva.close()


def test_the_doc_fingerprint_example_is_the_algorithm() -> None:
    assert fingerprint("rq:rt@3Ev)5M[&uE>]gs9.hb[!?H3<4+6vCK:4Ln") == "urql-xrnw-pxzl-fpnu"


def test_without_curve_or_with_another_server_key_nothing_ever_answers(
        host: HostProcess) -> None:
    """A wrong key fails silently: a client needs its own timeout, then asks the desk."""
    plain = Client(host.address, host.key, curve=False)
    wrong = Client(host.address, zmq.curve_keypair()[0])
    try:
        for c in (plain, wrong):
            c.send({"type": "hello", "rid": 1, "name": "Silent"})
            assert c.recv(0.5) is None
        assert ask_desk(host.port)["key"] != wrong.server_key.decode()
    finally:
        plain.close()
        wrong.close()


# --- hello, heartbeats, bye ----------------------------------------------------------------

def test_hello_is_welcomed_ping_is_ponged_and_bye_is_ok(host: HostProcess) -> None:
    c = host.client()
    try:
        first = c.refused("hello_first", "ping")
        assert first["rid"] is not None
        welcome = c.hello("Wendy", features=["timers", "unknown-feature"])
        assert welcome["type"] == "welcome" and welcome["rid"] is not None
        assert welcome["name"] == "Wendy" and welcome["resumed"] is False
        assert welcome["protocol"] == 1 and welcome["testing"] is True
        assert welcome["heartbeat"] == 0.2 and welcome["liveness"] == 3
        assert welcome["features"] == ["timers"] and welcome["host"] == "wire"
        assert {"pika", "pikac", "kakhead", "piquet"} <= set(welcome["games"])
        assert isinstance(welcome["player"], str)
        again = c.hello("Wendy")                     # a hello repeated: welcomed again
        assert again["player"] == welcome["player"] and again["resumed"] is True
        pong = c.ok("ping", at=12.5)
        assert pong["type"] == "pong" and pong["at"] == 12.5 and pong["time"] > 1e9
        assert c.ok("bye") == {"type": "ok", "v": 1, "about": "bye", "rid": pong["rid"] + 1}
        c.refused("hello_first", "ping")
    finally:
        c.close()


def test_a_name_is_its_first_keys_and_a_second_connection_replaces_the_first(
        host: HostProcess) -> None:
    first = host.client("Rita")
    other = host.client()
    second = Client(host.address, host.key, keys=first.keys)
    try:
        other.refused("name_taken", "hello", name="Rita")
        other.refused("name_taken", "hello", name="RITA")      # as people read it
        assert second.hello("Rita")["resumed"] is True
        first.refused("replaced", "ping")
    finally:
        for c in (first, other, second):
            c.close()


# --- frames the host does not read ------------------------------------------------------------

def test_frames_that_break_the_rules_are_answered_and_the_connection_goes_on(
        host: HostProcess) -> None:
    c = host.client("Frames")
    try:
        for frames, code in (([b"\xc1"], "malformed"),
                             ([pack({"type": "ping", "x": "a" * 5000})], "malformed"),
                             ([b"\x81" + b"\x00" * (64 * 1024 + 10)], "too_big"),
                             ([pack({"type": "ping"}), b"more"], "frames"),
                             ([pack({"type": "ping", "v": 2})], "version"),
                             ([pack({"type": "dance"})], "unknown_type")):
            c.send_frames(*frames)
            error = c.recv()
            assert error is not None and error["type"] == "error", (code, error)
            assert error["code"] == code, (code, error)
            check_error(error)
        error = c.refused("bad_field", "sit")                  # table is required
        assert "table" in error["message"]
        c.refused("bad_field", "create", game="pika", players=99)
        assert c.ok("ping")["type"] == "pong"
    finally:
        c.close()


def test_a_key_sending_past_its_allowance_is_told_to_slow_down(host: HostProcess) -> None:
    """2000 at once after a quiet spell, then 1000 a second: pings sent as fast as they go
    (reading what comes back meanwhile, so that nothing waits in a full queue) overrun it
    however slowly the host reads them, and a quiet moment refills it."""
    c = host.client("Flood")
    try:
        replies: list[Message] = []
        sent = 0
        while sent < 20_000 and not any(r["type"] == "error" for r in replies):
            for _ in range(100):
                c.send({"type": "ping"})
            sent += 100
            while (reply := c.recv(0)) is not None:
                replies.append(reply)
        while len(replies) < sent:
            reply = c.recv()
            assert reply is not None, f"{sent - len(replies)} of {sent} pings unanswered"
            replies.append(reply)
        slow = [r for r in replies if r["type"] == "error"]
        assert slow and all(r["code"] == "slow_down" and r["rid"] is None for r in slow)
        check_error(slow[0])
        served = [r for r in replies if r["type"] == "pong"]
        assert len(served) + len(slow) == sent and len(served) >= 2000, (len(served), sent)
        time.sleep(0.5)                                        # it refills
        assert c.ok("ping")["type"] == "pong"
    finally:
        c.close()


# --- request ids ---------------------------------------------------------------------------------

REMEMBERED = ("create", "sit", "leave", "bots", "invite", "ready", "start", "move", "reorder",
              "chat", "again", "remove", "close", "strangers", "seek", "unseek", "buy", "bye",
              "event_create", "event_join", "event_leave", "event_start", "event_deadline",
              "replay_lead", "replay_end", "undo", "undo_answer")
READ_AFRESH = ("ping", "games", "tables", "watch", "snapshot", "profile", "league", "rewards",
               "hint", "events", "event", "ratings", "records", "record", "replay", "review")


def test_a_change_is_answered_from_memory_and_a_read_afresh(host: HostProcess) -> None:
    """docs/protocol.md, "Request ids": the two lists, and a rid never used twice."""
    c = host.client("Ida")
    try:
        made = c.ok("create", rid=7, game="pika", players=2)
        tid = made["table"]["id"]
        assert c.request("create", rid=7, game="pika", players=2) == made    # not done again
        assert c.ok("tables")["total"] == c.ok("tables")["total"]
        sat = c.ok("sit", rid=8, table=tid)
        assert c.request("sit", rid=8, table=tid) == sat       # not refused "seated"
        c.ok("bots", table=tid)                                # the table is full now
        refused = c.refused("no_seat", "bots", rid=9, table=tid)
        assert c.request("bots", rid=9, table=tid) == refused  # a refusal is remembered
        for kind in READ_AFRESH:
            fields = ({"table": tid} if kind in ("watch", "snapshot", "hint")
                      else {"event": "e1"} if kind == "event"
                      else {"id": "r1"} if kind in ("record", "review") else {})
            error = c.refused("bad_field", kind, rid=7, **fields)
            assert "create" in error["message"]
        c.refused("bad_field", "ready", rid=7, table=tid)      # a change too
        first = c.ok("tables", rid=10)
        c.ok("create", rid=11, game="pika", players=2)
        assert c.ok("tables", rid=10)["total"] == first["total"] + 1     # read afresh
        assert c.ok("create", rid=10, game="pika", players=3)["table"]["players"] == 3
        assert set(REMEMBERED) | set(READ_AFRESH) | {"hello", "standby_ok"} == set(
            requests_in_doc())
    finally:
        c.close()


def requests_in_doc() -> list[str]:
    from tests.wire.coverage import doc_requests
    return doc_requests()


# --- lists ---------------------------------------------------------------------------------------

def test_games_lists_every_game_with_its_settings_and_variants(host: HostProcess) -> None:
    c = host.client("Gil")
    try:
        games = {g["id"]: g for g in c.ok("games")["games"]}
        assert {"pika", "pikac", "kakhead", "piquet"} <= set(games)
        pika = games["pika"]
        assert (pika["name"], pika["min_players"], pika["max_players"]) == ("Pika", 2, 4)
        hand = pika["settings"]["hand_size"]
        assert hand["kind"] == "int" and (hand["min"], hand["max"], hand["default"]) == (2, 15, 7)
        assert isinstance(hand["label"], str) and isinstance(hand["help"], str)
        assert all(s["kind"] in ("int", "float", "bool", "choice", "cards")
                   for g in games.values() for s in g["settings"].values())
        assert {v["id"] for v in pika["variants"]} >= {"pika-strict-plus4"}
        assert all(set(v) >= {"id", "game", "name", "description"}
                   for g in games.values() for v in g["variants"])
    finally:
        c.close()


def test_tables_come_in_pages_of_twenty(host: HostProcess) -> None:
    makers = [host.client(f"Pager{i}") for i in range(3)]
    try:
        for m in makers:
            for _ in range(8):
                m.ok("create", game="pika", players=2)
        first = makers[0].ok("tables")
        total = first["total"]
        assert total >= 24 and len(first["tables"]) == 20 and first["next"] == 20
        seen = list(first["tables"])
        page = first
        while page["next"] is not None:
            page = makers[0].ok("tables", offset=page["next"])
            seen += page["tables"]
        assert len(seen) == total and len({t["id"] for t in seen}) == total
        summary = seen[0]
        for key in ("id", "title", "game", "game_name", "mode", "creator", "invited",
                    "strangers", "players", "settings", "variants", "plugins", "bot_delay",
                    "bot_budget_ms", "standin_level", "status", "idle", "version",
                    "spectators", "seats", "result", "failure", "testing", "round", "rounds",
                    "totals", "stake", "seeking", "fill_in", "bots_filled"):
            assert key in summary, key
    finally:
        for m in makers:
            m.close()


# --- a key's limits -----------------------------------------------------------------------------

def test_one_key_has_eight_open_tables_and_five_lobby_lines_at_once(host: HostProcess) -> None:
    c = host.client("Limit")
    listener = host.client("Listener")
    try:
        for _ in range(8):
            c.ok("create", game="pika", players=2)
        error = c.refused("too_many", "create", game="pika", players=2)
        assert "8" in error["message"]
        for i in range(5):
            c.ok("chat", text=f"line {i}")
        c.refused("too_fast", "chat", text="one too many")
        heard = listener.wait(lambda m: m["type"] == "chat" and m["text"] == "line 4")
        assert heard["table"] is None and heard["seat"] is None and heard["name"] == "Limit"
    finally:
        c.close()
        listener.close()
