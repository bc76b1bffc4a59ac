"""Send after commit (``net/host/gate.py``): a frame the host sends waits until every
durability source it was given has what the frame tells of; frames go in the order they were
sent. A source here is a hand-made one the test moves (the design takes sources as a
dependency: the store's is tested with real SQLite in the restart and crash tests, and a
standby peer's is one more: tests/net/test_standby_link.py)."""

from __future__ import annotations

from cardparty.net.host.gate import CommitGate
from cardparty.net.host.model import Player


class Source:
    """A durability source whose writes the test hands in and makes durable by hand."""

    def __init__(self) -> None:
        self.handed = 0
        self.durable = 0
        #: set by the test: the source gave up, having reached this
        self.given_up: int | None = None

    def ticket(self) -> int:
        return self.handed

    def reached(self) -> int:
        return self.durable

    def fds(self) -> frozenset[int]:
        return frozenset()

    def woken(self) -> None:
        pass

    def drain(self) -> None:
        self.durable = self.handed

    def gave_up(self) -> int | None:
        out, self.given_up = self.given_up, None
        return out

    def close(self) -> None:
        pass


def player(route: bytes) -> Player:
    return Player(id=route.decode(), token=route.decode(), name="P", route=route)


def test_without_a_source_a_sealed_frame_goes_at_once_and_an_unsealed_one_waits() -> None:
    gate = CommitGate()
    gate.send_frame(player(b"a"), b"1")
    assert gate.released() == []                 # not sealed: its writes are not handed yet
    gate.seal()
    assert gate.released() == [(b"a", b"1")]
    assert not gate.holds


def test_a_frame_waits_for_every_source_and_frames_keep_their_order() -> None:
    store, standby = Source(), Source()
    gate = CommitGate([store, standby])
    eva, petr = player(b"eva"), player(b"petr")
    store.handed = standby.handed = 1
    gate.send_frame(eva, b"move 1")
    gate.seal()                                   # waits for ticket 1 of each
    store.handed = standby.handed = 2
    gate.send_frame(petr, b"move 2")
    gate.seal()                                   # waits for ticket 2 of each
    store.durable = 2                             # committed here...
    assert gate.released() == []                  # ...but the standby has neither yet
    standby.durable = 1
    assert gate.released() == [(b"eva", b"move 1")]
    standby.durable = 2
    assert gate.released() == [(b"petr", b"move 2")]


def test_a_frame_with_nothing_new_to_wait_for_still_goes_after_the_ones_before_it() -> None:
    store = Source()
    gate = CommitGate([store])
    store.handed = 1
    gate.send_frame(player(b"a"), b"first")
    gate.seal()
    gate.send_frame(player(b"b"), b"second")      # no new write: the same ticket
    gate.seal()
    assert gate.released() == []
    store.durable = 1
    assert gate.released() == [(b"a", b"first"), (b"b", b"second")]


def test_draining_makes_everything_durable_and_lets_it_go() -> None:
    store = Source()
    gate = CommitGate([store])
    store.handed = 3
    gate.to_route(b"r", b"late")
    gate.seal()
    gate.drain()
    assert gate.released() == [(b"r", b"late")]


def test_a_source_that_gave_up_has_what_waited_for_it_withdrawn() -> None:
    store, standby = Source(), Source()
    gate = CommitGate([store, standby])
    gate.to_route(b"a", b"one")
    store.handed = standby.handed = 1
    gate.seal()
    store.durable = standby.durable = 1
    gate.to_route(b"a", b"two")
    store.handed = standby.handed = 2
    gate.seal()
    gate.to_route(b"a", b"three")
    standby.handed = 3
    gate.seal()
    assert gate.withdraw(standby, 1) == 2, "what waited for the standby past 1"
    store.durable = 3
    assert gate.released() == [(b"a", b"one")]


def test_a_source_that_says_it_gave_up_has_what_waited_for_it_withdrawn_before_any_goes(
        ) -> None:
    """A standby dropped says so once (``gave_up``); what it reaches after that (nothing: it
    is gone) must not let go what waited for it: the gate withdraws first."""
    store, standby = Source(), Source()
    gate = CommitGate([store, standby])
    gate.to_route(b"a", b"told")
    store.handed = standby.handed = 1
    gate.seal()
    gate.to_route(b"a", b"never")
    store.handed = standby.handed = 2
    gate.seal()
    store.durable, standby.durable = 2, 1
    assert gate.released() == [(b"a", b"told")]
    standby.given_up, standby.durable = 1, 2          # dropped: "reached" means nothing now
    assert gate.released() == []
    gate.to_route(b"a", b"after")
    gate.seal()
    assert gate.released() == [(b"a", b"after")]
