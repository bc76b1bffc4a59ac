"""The shapes of what a host tells a player who plays (``net/wire/play_replies.py``) hold what a
real host sends: the welcome, the pong (with its standby's state, at a host that keeps a store),
the answers to ``bye``, ``hint``, ``reorder``, ``move``, ``undo``, ``undo_answer`` and
``review``, the ``undo_dropped`` push, an error with and without a request, the session's own
``connection`` message and a round's result; a welcome naming a standby through the host's
parts (a real standby is a party of processes); and the thinkers' jobs and answers as a
worker gets and gives them. Every key is declared, of the type declared. (The error reply's
shape and the host's word about its standby are protocol.py's, held to the host's and the
peers' messages by tests/net/test_peer_message_types.py: here, as a player meets them.)"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import msgpack
import pytest

from cardparty.core.search import Budget
from cardparty.core.table import Table
from cardparty.net.host import Host
from cardparty.net.host.thinkers import budget_map
from cardparty.net.player.netbot import play_table
from cardparty.net.player.session import Session
from cardparty.net.thinker import Answer, BudgetMap, Frames, Job, answer, pack_frame
from cardparty.net.wire import play_replies as shapes
from cardparty.net.wire.protocol import ErrorReply, PeerAddress, StandbyStatus, encode, message
from cardparty.net.wire.record_replies import RecordResult
from tests.net.hostkit import Kit
from tests.net.shapes import held_to
from tests.net.test_hostile import Raw

#: Pika for two, seat 0 first: Ana R1 R2 Y9, Eva R3 G2 G7, R5 turned, then B4 B6.
DECK = {"dealer": 1, "hand_size": 3, "deck": ["R1", "R2", "Y9", "R3", "G2", "G7", "R5",
                                               "B4", "B6"]}
STANDBY = {"address": "10.0.0.2", "port": 7770, "key": "k" * 40}


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    """A host that keeps a store (its pong tells of its standby) and thinks hints in its
    workers."""
    h = Host("tcp://127.0.0.1:0", "party", data=tmp_path, heartbeat=0.2, idle=None,
             testing=True, bot_workers=1)
    h.start()
    try:
        yield h
    finally:
        h.stop()


def pushed(session: Session, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of ``kind`` the session was pushed (the others are passed over)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        msg = session.next_message(0.05)
        if msg is not None and msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} came")


def reviewed(ana: Session, rounds: int = 3) -> list[dict[str, Any]]:
    """The marks of the reviews of practice rounds ``ana`` plays at random (easy) against a
    bot, each review held to its shape, until one marks a decision (at most ``rounds``)."""
    for seed in range(rounds):
        tid = dict(ana.request("create", game="pika", players=2, mode="practice",
                               seed=seed))["table"]["id"]
        ana.sit(tid, 0)
        ana.add_bots(tid)
        ana.ready(tid)
        play_table(ana, tid, level="easy", rng=random.Random(seed), timeout=60)
        record = dict(ana.request("records"))["records"][0]["id"]
        review = dict(ana.request("review", id=record, timeout=60))
        held_to(review, shapes.ReviewReply)
        if review["marks"]:
            return list(review["marks"])
    return []


def test_what_a_host_tells_a_player_who_plays_is_as_declared(host: Host) -> None:
    ana = Session(host.address, "Ana", request_timeout=20)
    eva = Session(host.address, "Eva", request_timeout=20)
    try:
        held_to(dict(ana.connect()), shapes.WelcomeReply)
        eva.connect()
        tid = dict(ana.request("create", game="pika", players=2, mode="friends", seed=3,
                               settings=DECK, undo=True, hints=True, bot_budget_ms=20)
                   )["table"]["id"]
        ana.invite(tid, ["Eva"])
        ana.sit(tid, 0)
        eva.sit(tid, 1)
        ana.ready(tid)
        eva.ready(tid)
        first = pushed(ana, "view")
        hint = dict(ana.request("hint", table=tid))
        held_to(hint, shapes.HintReply)
        assert hint["reason_msg"] is None or isinstance(hint["reason_msg"]["id"], str)
        order = list(reversed(first["view"]["hand"]))
        reordered = dict(ana.request("reorder", table=tid, order=order))
        held_to(reordered, shapes.ReorderReply)
        moved = ana.move(tid, {"kind": "play", "cards": ["R1"]}, reordered["version"])
        held_to(dict(moved), shapes.MoveReply)
        asked = dict(ana.request("undo", table=tid))
        held_to(asked, shapes.UndoReply)
        assert asked["waiting"] == ["Eva"]
        answered = dict(eva.request("undo_answer", table=tid, agree=False))
        held_to(answered, shapes.UndoAnswerReply)
        dropped = pushed(ana, "undo_dropped")
        held_to(dropped, shapes.UndoDroppedPush)
        assert dropped["by"] == "Eva" and dropped["reason_msg"]["id"]
        results: list[Any] = []
        other = threading.Thread(target=lambda: results.append(
            play_table(eva, tid, level="easy", timeout=60)))
        other.start()
        result = play_table(ana, tid, level="easy", timeout=60)
        other.join(60)
        held_to(dict(result), RecordResult)
        marks = reviewed(ana)
        assert marks, "no round played at random had a decision the review marks"
        for mark in marks:
            held_to(mark, shapes.ReviewMark)
        again = Session(host.address, "Ana", request_timeout=20)
        try:
            again.connect()                      # the same player from elsewhere
            replaced = pushed(ana, "connection")
        finally:
            again.close()
        held_to(replaced, shapes.ConnectionPush)
        assert replaced["state"] == "replaced"
    finally:
        ana.close()
        eva.close()


def test_a_pong_a_bye_and_errors_are_as_declared(host: Host) -> None:
    raw = Raw(host.address, host.keys.public)
    try:
        welcome = raw.ask(encode(message("hello", name="Raw", rid=1)))
        held_to(welcome, shapes.WelcomeReply)
        pong = raw.ask(encode(message("ping", at=12.5, rid=2)))
        held_to(pong, shapes.PongReply)
        held_to(pong["standby"], StandbyStatus)
        refused = raw.ask(encode(message("snapshot", table="t999", rid=3)))
        held_to(refused, ErrorReply)
        assert refused["code"] == "no_table" and refused["msg"]["id"]
        unread = raw.ask(b"\xc1")
        held_to(unread, ErrorReply)
        assert unread["code"] == "malformed" and unread["rid"] is None
        held_to(raw.ask(encode(message("bye", rid=4))), shapes.ByeReply)
    finally:
        raw.close()


def test_a_welcome_naming_a_standby_is_as_declared() -> None:
    kit = Kit()
    kit.parts.succession.attached(STANDBY)
    bob = kit.player("Bob")
    welcome = dict(next(m for m in kit.out.sent[bob.id] if m["type"] == "welcome"))
    held_to(welcome, shapes.WelcomeReply)
    assert welcome["standby"] == STANDBY
    held_to(welcome["standby"], PeerAddress)


def test_a_thinkers_jobs_and_answers_are_as_declared() -> None:
    assert set(get_type_hints(BudgetMap)) == {f.name for f in dataclasses.fields(Budget)}
    table = Table("pika", 2, {"dealer": 0}, seed=11)
    (seat,) = table.to_move()
    budget = budget_map(Budget(iterations=20, seconds=None))
    held_to(dict(budget), BudgetMap)
    for what, played in (("move", -1), ("hint", -1), ("review", 0)):
        job: Job = {"id": 7, "save": table.save(), "seat": seat, "seed": "5", "what": what,
                    "played": played, "budget": budget}
        held_to(dict(job), Job)
        got = answer(job)
        held_to(dict(got), Answer)
        assert got["id"] == 7 and "error" not in got, got
        frames = Frames()
        assert frames.feed(pack_frame(got)) == [got]
    failed = answer({"id": 8, "save": b"", "seat": 0, "seed": "1", "budget": budget})
    held_to(dict(failed), Answer)
    assert "error" in failed
    with pytest.raises(ValueError):
        Frames().feed(len(b := msgpack.packb([1, 2])).to_bytes(4, "big") + b)


def test_a_key_no_shape_declares_is_found() -> None:
    with pytest.raises(AssertionError):
        held_to({"type": "ok", "v": 1, "about": "move", "version": 3, "colour": "red"},
                shapes.MoveReply)
    with pytest.raises(AssertionError):
        held_to({"type": "ok", "v": 1, "about": "undo", "waiting": "Eva"}, shapes.UndoReply)
    with pytest.raises(AssertionError):
        held_to({"type": "hint", "v": 1, "move": 1}, shapes.ReviewReply)
