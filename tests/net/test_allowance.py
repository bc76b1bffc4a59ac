"""The one token bucket of every limit counted per key or address (net/trust/allowance.py):
the host's rate limits, the door's new connections and the key desk's answers all keep it."""

from __future__ import annotations

from cardparty.net.trust.allowance import Allowances


def test_a_key_spends_its_burst_then_what_refills_at_the_rate() -> None:
    a: Allowances[str] = Allowances(rate=2.0, burst=3, most=16)
    assert [a.spend("eva", 10.0) for _ in range(4)] == [True, True, True, False]
    assert a.spend("petr", 10.0), "another key has a bucket of its own"
    assert not a.spend("eva", 10.4)
    assert a.spend("eva", 10.5) and not a.spend("eva", 10.5)


def test_due_says_when_a_refused_key_holds_one_again() -> None:
    a: Allowances[str] = Allowances(rate=4.0, burst=1, most=16)
    assert a.due("eva", 5.0) == 5.0, "a key never heard is not waiting"
    assert a.spend("eva", 5.0) and not a.spend("eva", 5.0)
    assert a.due("eva", 5.0) == 5.25
    assert a.due("eva", 5.1) == 5.25
    assert a.due("eva", 5.3) == 5.3


def test_what_was_spent_for_nothing_is_given_back_but_never_past_the_burst() -> None:
    a: Allowances[None] = Allowances(rate=1.0, burst=2, most=1)
    assert a.spend(None, 0.0) and a.spend(None, 0.0) and not a.spend(None, 0.0)
    a.refund(None)
    assert a.spend(None, 0.0) and not a.spend(None, 0.0)
    a.refund(None, 5.0)
    assert [a.spend(None, 0.0) for _ in range(3)] == [True, True, False]


def test_a_limit_without_a_rate_never_refills() -> None:
    a: Allowances[str] = Allowances(rate=0.0, burst=1, most=4)
    assert a.spend("eva", 0.0) and not a.spend("eva", 1e6)
    assert a.due("eva", 7.0) > 7.0 + 60


def test_the_buckets_stay_bounded_and_forget_the_keys_heard_least_recently() -> None:
    a: Allowances[int] = Allowances(rate=1.0, burst=5, most=8)
    for key in range(1000):
        a.spend(key, 0.0)
    assert len(a) == 8
    for key in range(1000, 1003):
        a.spend(key, 100.0)             # the older buckets would be full again by now:
    assert len(a) == 8 + 3 - 2 * 3      # each new key lets two of them go
