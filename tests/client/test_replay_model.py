"""The history and the replay viewer's state (client.replay_model), without a host: what is
asked of the host for each key, and what its answers change."""

from __future__ import annotations

from cardparty.client.replay_model import History, Replayer


def step(n: int, seat: int | None = 0, **more: object) -> dict[str, object]:
    return {"type": "replay", "record": "r1", "table": "t1", "step": n, "steps": 9,
            "seat": seat, "view": {"players": [{"name": "Eva"}, {"name": "Bob"}]},
            "events": [{"text": f"step {n}"}], **more}


def test_history_pages_on_past_the_last_row_and_keeps_the_cursor() -> None:
    h = History()
    assert h.ask() == ("records", {"before": None})
    h.take({"records": [{"id": "r2", "ended": 20.0}, {"id": "r1", "ended": 10.0}],
            "more": True, "before": None})
    assert h.move(1) is None and h.chosen()["id"] == "r1"
    assert h.move(1) == ("records", {"before": 10.0})
    h.take({"records": [{"id": "r0", "ended": 5.0}], "more": False, "before": 10.0})
    assert [r["id"] for r in h.rows] == ["r2", "r1", "r0"] and h.move(1) is None
    assert h.chosen()["id"] == "r0" and h.move(1) is None


def test_stepping_asks_the_host_and_shows_what_it_answered() -> None:
    r = Replayer(record="r1", table="t1", seat=0, wanted=(0, 0))
    assert r.go() == ("replay", {"record": "r1", "table": "t1", "step": 0, "seat": 0})
    assert r.take(step(0))
    assert r.forward(3) == ("replay", {"record": "r1", "table": "t1", "step": 3, "seat": 0})
    assert r.step == 0                                     # shown once answered
    assert not r.take({**step(3), "record": "r9", "table": "t9"})   # another round's
    assert r.take(step(3)) and r.step == 3 and r.events == [{"text": "step 3"}]
    assert r.go(99)[1]["step"] == 9                        # never past the last step
    assert r.next_seat()[1]["seat"] == 1
    r.take(step(9, seat=1))
    assert r.next_seat()[1]["seat"] is None                # then the spectators' view
    r.take(step(9, seat=None))
    assert r.next_seat()[1]["seat"] == 0


def test_the_review_marks_are_reached_by_key_and_said_at_their_step() -> None:
    r = Replayer(record="r1", table="t1")
    r.take(step(0))
    assert r.ask_review() == ("review", {"id": "r1"}) and r.ask_review() is None
    assert r.take_review({"record": "r1", "decisions": 5, "margin": 0.08, "marks": [
        {"step": 6, "loss": 0.2, "reason": "B was better"},
        {"step": 2, "loss": 0.1, "reason": "C was better"}]})
    assert r.to_mark()[1]["step"] == 2
    r.take(step(2))
    assert r.mark_at()["reason"] == "C was better"
    assert r.to_mark()[1]["step"] == 6 and r.to_mark(forward=False)[1]["step"] == 2


def test_a_shared_replay_is_followed_and_a_step_takes_the_lead() -> None:
    r = Replayer(record="r1", table="t1", following=True)
    assert r.take(step(4, shared=True, leader_name="Bob")) and r.leader == "Bob"
    assert r.forward() == ("replay_lead", {"table": "t1", "record": "r1", "step": 5,
                                           "seat": 0})
    assert r.leading and not r.following
    alone = Replayer(record="r1", table="t1")
    assert not alone.take(step(4, shared=True, leader_name="Bob"))   # not following
    assert alone.leader == "Bob"
    assert r.ended({"table": "t1"}) and not r.leading and r.leader is None
