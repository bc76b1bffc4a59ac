"""docs/protocol.md and the host agree (issue 15): each mismatch a client written from the
doc alone found, with what the host does now and what the doc says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest

from cardparty.net.wire.protocol import ProtocolError, decode, encode
from tests.net.hostkit import Kit

#: The doc with its line breaks as spaces, to look for its sentences.
DOC = " ".join((Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
               .split())


@pytest.mark.parametrize("extra", [
    {"x": "a" * 5000},                         # a string over 4096 bytes
    {"x": list(range(300))},                   # an array over 256 items
    {f"k{i}": 1 for i in range(70)},           # a map over 64 entries
])
def test_a_frame_over_a_size_limit_is_malformed_unread_as_the_doc_says(extra: dict[str, Any]
                                                                       ) -> None:
    frame = msgpack.packb({"type": "ping", "v": 1, "rid": 5, **extra})
    with pytest.raises(ProtocolError) as info:
        decode(frame)
    assert info.value.code == "malformed"
    assert "`malformed` with `rid: null`" in DOC


def test_a_non_string_key_is_malformed() -> None:
    with pytest.raises(ProtocolError) as info:
        decode(msgpack.packb({"type": "ping", "v": 1, 1: 2}))
    assert info.value.code == "malformed"


def test_nesting_is_bounded_at_the_depth_the_doc_states() -> None:
    """1,000 levels were accepted and the doc said only "bounded"."""
    def nested(depth: int) -> bytes:
        return (b"\x83\xa4type\xa4ping\xa1v\x01\xa1x" + b"\x91" * depth + b"\x00")
    assert decode(nested(1000))["type"] == "ping"
    with pytest.raises(ProtocolError) as info:
        decode(nested(1100))
    assert info.value.code == "malformed"
    assert "1023 levels of nesting" in DOC


def test_a_repeated_hello_is_the_same_player_and_a_token_changes_nothing() -> None:
    """A hello said again (a retry) is the same player; a token sent with it counts for
    nothing; the same key from another connection resumes him there."""
    kit = Kit()
    key = b"E" * 40
    first = kit.parts.hello(b"r", "Eva", user=key)
    again = kit.parts.hello(b"r", "Eva", token="f" * 32, user=key)
    assert again is first
    welcomes = kit.out.take(first, "welcome")
    assert [w["resumed"] for w in welcomes] == [False, True]
    assert all("token" not in w for w in welcomes)
    assert kit.parts.hello(b"r2", "Eva", user=key) is first and first.route == b"r2"
    assert kit.out.take(first, "welcome")[0]["resumed"] is True


def test_snapshot_of_an_open_table_is_its_summary_for_anyone() -> None:
    kit = Kit()
    eva, zed = kit.player("Eva"), kit.player("Zed")
    tid = kit.open_table("pika", eva, 2)
    reply = kit.ask(zed, "snapshot", table=tid)
    assert reply is not None and reply["type"] == "table" and reply["table"]["id"] == tid


def playing(kit: Kit) -> tuple[Any, str]:
    eva = kit.player("Eva", key=b"E" * 40)
    tid = kit.open_table("pika", eva, 2, seed=3)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid)
    kit.ask(eva, "ready", table=tid)
    return eva, tid


def test_a_resume_pushes_the_summary_once_and_a_snapshot_with_no_prev() -> None:
    """The summary was pushed twice on resume; ``prev`` named a version the new process had
    never seen."""
    kit = Kit()
    eva, tid = playing(kit)
    assert kit.out.take(eva, "view")
    kit.tick(5.0)                                     # silent: disconnected
    assert not eva.connected
    kit.out.take(eva)
    kit.parts.hello(b"new-process", "Eva", user=eva.key)
    got = kit.out.take(eva)
    assert [m["type"] for m in got] == ["welcome", "table", "view"]
    assert got[2]["snapshot"] is True and got[2]["prev"] is None


def test_bots_without_an_empty_seat_is_no_seat_and_the_doc_lists_it() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, count=1)
    kit.refused("no_seat", eva, "bots", table=tid)
    assert "`ok`; `no_seat` when no seat is empty" in DOC


def test_deadlines_are_sent_as_the_doc_says_and_system_is_never_a_seat_shown() -> None:
    """The view's deadlines did not say which move answers them (the doc said they were
    identified by their move); an expired deadline never shows as SYSTEM's move."""
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = kit.open_table("pika", eva, 2, settings={
        "deck": ["R1", "R2", "G3", "G4", "R5"], "hand_size": 2, "dealer": 1, "warning": 0.5})
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    kit.ask(eva, "move", table=tid, move={"kind": "play", "cards": ["R1"]},
            version=kit.table(tid).engine.version)
    kit.tick(1.0, alive=(eva, petr))
    views = kit.out.take(petr, "view")
    deadlines = [d for v in views for d in v["view"]["deadlines"]]
    assert deadlines and all(set(d) == {"name", "seat", "seconds"} for d in deadlines)
    events = [e for v in views for e in v["events"]]
    assert any(e["type"] == "penalty" and e["seat"] == 0 for e in events)
    assert all(e.get("seat", 0) != -1 for e in events)
    assert "only these three are sent" in DOC
    assert encode(views[-1])
