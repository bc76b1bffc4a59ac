"""What is due when (``net/host/schedule.py``): keys come out in the order they fall due, one
set again moves, one set to None never comes out, and the heap stays a small multiple of the
keys however often their times move (the loop's wake costs what is due)."""

from __future__ import annotations

from cardparty.net.host.schedule import SLACK, Schedule


def test_keys_come_out_when_due_in_due_order_and_only_once() -> None:
    s: Schedule[str] = Schedule()
    s.set("b", 2.0)
    s.set("a", 1.0)
    s.set("c", 3.0)
    assert s.next_due() == 1.0 and len(s) == 3 and "a" in s and s.at("c") == 3.0
    assert s.pop_due(2.5) == ["a", "b"]
    assert s.pop_due(2.5) == [] and s.next_due() == 3.0 and s.at("a") is None


def test_a_key_set_again_moves_and_one_set_to_none_never_comes_out() -> None:
    s: Schedule[str] = Schedule()
    s.set("a", 1.0)
    s.set("b", 1.5)
    s.set("a", 5.0)                     # moved later: its old entry is stale
    s.set("b", None)
    s.discard("nobody")
    assert s.next_due() == 5.0
    assert s.pop_due(4.0) == []
    assert s.pop_due(5.0) == ["a"] and s.next_due() is None


def test_at_most_so_many_come_out_at_once_the_rest_stay_due() -> None:
    s: Schedule[int] = Schedule()
    for i in range(10):
        s.set(i, float(i))
    assert s.pop_due(100.0, most=4) == [0, 1, 2, 3]
    assert s.next_due() == 4.0 and len(s) == 6


def test_times_moved_again_and_again_keep_the_heap_small() -> None:
    s: Schedule[int] = Schedule()
    for step in range(20_000):
        s.set(step % 16, 1000.0 + step)       # 16 tables, each change moves its timer
    assert len(s) == 16
    assert len(s._heap) <= 2 * 16 + SLACK + 1
    assert s.pop_due(10**6) == list(range(16))     # each as last set: key 0 first
