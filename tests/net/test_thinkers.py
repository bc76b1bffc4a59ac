"""Hard bots think in worker processes (net/host/thinkers.py, net/thinker.py): the answer is
the search's own for the table's seed and version, an answer for a version that moved on is
dropped and asked again, a worker that dies costs one normal move, and closing leaves no
process behind. Real worker processes, real tables."""

from __future__ import annotations

import os
import random
import select
import signal
from collections.abc import Hashable, Iterator

import pytest

from cardparty.core.review import judge_index
from cardparty.core.search import Budget, decide
from cardparty.core.table import Table
from cardparty.net.host.thinkers import FALLBACK, Thinkers
from cardparty.net.host.timers import bot_seed

#: Iterations only: the search is then a pure function of the table, seat and seed.
FIXED = Budget(iterations=40, seconds=None)


@pytest.fixture
def thinkers() -> Iterator[Thinkers]:
    t = Thinkers(1)
    yield t
    pids = [w.proc.pid for w in t.workers]
    t.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)                      # stopped and reaped: nothing left behind


def returned(t: Thinkers, timeout: float = 60.0) -> list[Hashable]:
    """Wait on the workers' pipes, as the host's loop does, until some owner is ready."""
    for _ in range(int(timeout * 10)):
        ready = t.collect()
        if ready:
            return ready
        select.select(list(t.fds()), [], [], 0.1)
    raise AssertionError("no worker answered")


def fresh_table(seed: int = 11) -> tuple[Table, int]:
    table = Table("pika", 2, {"dealer": 0}, seed=seed)
    (seat,) = table.to_move()
    return table, seat


def test_the_worker_answers_what_the_search_answers_for_the_tables_seed_and_version(
        thinkers: Thinkers) -> None:
    table, seat = fresh_table(2**63 - 1)          # a host's own seeds: 63 bits of randomness
    assert thinkers.ask("t1", table, seat, bot_seed(table), FIXED) is None   # thinking
    assert returned(thinkers) == ["t1"]
    index = thinkers.ask("t1", table, seat, bot_seed(table), FIXED)
    assert index == decide(table.save(), seat, bot_seed(table), FIXED)
    # A host restarted from its data has the same table at the same version: the same seed,
    # so the same move.
    again = Table.restore(table.save())
    assert bot_seed(again) == bot_seed(table)
    assert decide(again.save(), seat, bot_seed(again), FIXED) == index


def test_an_answer_for_a_version_that_moved_on_is_dropped_and_asked_again(
        thinkers: Thinkers) -> None:
    table, seat = fresh_table()
    thinkers.ask("t1", table, seat, bot_seed(table), FIXED)
    table.play(seat, table.legal_moves(seat)[0])            # the table moves on meanwhile
    assert returned(thinkers) == ["t1"]                      # look again: nothing to take
    (now,) = table.to_move()
    assert thinkers.ask("t1", table, now, bot_seed(table), FIXED) is None  # thinks again
    assert returned(thinkers) == ["t1"]
    index = thinkers.ask("t1", table, now, bot_seed(table), FIXED)
    assert index == decide(table.save(), now, bot_seed(table), FIXED)


def test_a_worker_that_dies_costs_one_normal_move_and_the_next_worker_thinks(
        thinkers: Thinkers) -> None:
    table, seat = fresh_table()
    long = Budget(iterations=None, seconds=30.0)
    thinkers.ask("t1", table, seat, bot_seed(table), long)
    (worker,) = thinkers.workers
    os.kill(worker.proc.pid, signal.SIGKILL)
    assert returned(thinkers) == ["t1"]
    assert thinkers.ask("t1", table, seat, bot_seed(table), long) == FALLBACK
    assert thinkers.workers == [] and not thinkers.broken
    assert thinkers.ask("t1", table, seat, bot_seed(table), FIXED) is None  # a new worker
    assert returned(thinkers) == ["t1"]
    assert thinkers.ask("t1", table, seat, bot_seed(table), FIXED) >= 0


def test_one_worker_serves_the_tables_in_the_order_they_asked(thinkers: Thinkers) -> None:
    tables = {f"t{i}": fresh_table() for i in range(3)}
    for owner, (table, seat) in tables.items():
        assert thinkers.ask(owner, table, seat, bot_seed(table), FIXED) is None
    assert list(thinkers.queue) == ["t1", "t2"] and list(thinkers.running) == ["t0"]
    done: list[Hashable] = []
    while len(done) < 3:
        done += returned(thinkers)
    assert done == ["t0", "t1", "t2"]
    assert len(thinkers.workers) == 1


def test_a_review_decision_is_judged_in_the_worker_as_on_the_loop_loss_and_reason_too(
        thinkers: Thinkers) -> None:
    """The worker answered a review's decision with the bot's move alone: every loss came
    back as none, and a review judged in the workers never marked a move."""
    table, seat = fresh_table(5)
    rng = random.Random(5)
    while True:                                   # the first decision with a move lost on
        moves = table.legal_moves(seat)
        found = [(p, judge_index(table.save(), seat, p, 7, FIXED)) for p in range(len(moves))]
        worst = max(found, key=lambda f: f[1][1])
        if worst[1][1] > 0:
            break
        table.play(seat, rng.choice(moves))
        (seat,) = table.to_move()
    played, (best, loss, reason) = worst
    assert thinkers.ask_review("r1", table, seat, 7, FIXED, played) is None   # thinking
    assert returned(thinkers) == ["r1"]
    got = thinkers.ask_review("r1", table, seat, 7, FIXED, played)
    assert got is not None and (got.index, got.loss, got.reason) == (best, loss, reason)
