"""Where a host's store commits (``Store`` docstring): at once on the caller's thread while the
writer is idle and the disk quick; on the writer thread for a batch with work to run first
(another file's sync), for every batch while the writer still has one (in order), and after a
slow commit. Real SQLite files, a real writer thread."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardparty.net import store as store_module
from cardparty.net.store import Store


def names(directory: Path) -> dict[str, str]:
    """The players' names as another connection reads them: only what is committed."""
    db = sqlite3.connect(directory / "host.sqlite3")
    try:
        return dict(db.execute("SELECT token, name FROM players"))
    finally:
        db.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    woken = threading.Event()
    s = Store(tmp_path)
    s.start_writer(woken.set)
    s.woken = woken           # type: ignore[attr-defined]
    yield s
    s.close()


def test_a_plain_batch_commits_at_once_on_the_callers_thread(store: Store,
                                                             tmp_path: Path) -> None:
    with store.batch() as ticket:
        store.put_player("t1", "p1", "eva")
    assert ticket[0] == 0                        # nothing to wait for
    assert names(tmp_path) == {"t1": "eva"}      # committed before the block returned
    assert store.queued == store.done == 0


def test_a_batch_with_a_sync_before_it_goes_to_the_writer(store: Store,
                                                          tmp_path: Path) -> None:
    ran_on: list[str] = []
    with store.batch() as ticket:
        store.before(lambda: ran_on.append(threading.current_thread().name))
        store.put_player("t1", "p1", "eva")
    assert ticket[0] == 1
    store.drain()
    assert store.done == 1 and store.woken.is_set()      # type: ignore[attr-defined]
    assert ran_on == ["cardparty-store-writer"]
    assert names(tmp_path) == {"t1": "eva"}


def test_while_the_writer_is_busy_the_next_batches_queue_behind_it_in_order(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Whether the disk was quick is not what this test is about (a loaded machine's commit
    # may take over SLOW_COMMIT, and the next batch then goes to the writer too).
    monkeypatch.setattr(store_module, "SLOW_COMMIT", 60.0)
    release = threading.Event()
    with store.batch() as first:
        store.before(lambda: release.wait(10))           # a slow sync holds the writer
        store.put_player("t1", "p1", "eva")
    with store.batch() as second:
        store.put_player("t1", "p1", "eva2")             # would be quick: it still waits
    assert (first[0], second[0]) == (1, 2)
    assert names(tmp_path) == {}                          # neither is committed yet
    release.set()
    store.drain()
    assert store.done == 2
    assert names(tmp_path) == {"t1": "eva2"}              # the second after the first
    with store.batch() as third:                          # the writer idle again: at once
        store.put_player("t2", "p2", "petr")
    assert third[0] == 0 and names(tmp_path)["t2"] == "petr"


def test_after_a_slow_commit_the_next_batch_goes_to_the_writer(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "SLOW_COMMIT", -1.0)   # every commit counts as slow
    with store.batch() as first:
        store.put_player("t1", "p1", "eva")
    assert first[0] == 0                         # the disk was not known to be slow yet
    with store.batch() as second:
        store.put_player("t2", "p2", "petr")
    assert second[0] == 1                        # now it is: the loop does not wait for it
    store.drain()
    monkeypatch.setattr(store_module, "SLOW_COMMIT", 60.0)
    with store.batch() as third:                 # still slow as of the writer's commit
        store.put_player("t3", "p3", "jan")
    assert third[0] == 2
    store.drain()
    with store.batch() as fourth:                # the writer's last commit was quick
        store.put_player("t4", "p4", "ola")
    assert fourth[0] == 0
    assert set(names(tmp_path)) == {"t1", "t2", "t3", "t4"}


def test_the_log_is_emptied_past_its_limit_while_commits_never_pause(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits back to back (as many as a second holds on a quick machine): a passive
    checkpoint never caught up with them, and the write-ahead log grew without end (840 MB in
    four minutes of a soak). Past ``WAL_LIMIT`` it is emptied between two commits. (A count
    of commits, not a time: a loaded machine makes fewer a second; and no passive checkpoint
    while they run: on a loaded machine one held the log for hundreds of commits, and what
    bounds the log is the writer's own.)"""
    monkeypatch.setattr(store_module, "WAL_LIMIT", 256 * 1024)
    monkeypatch.setattr(store_module, "CHECKPOINT", 3600.0)
    s = Store(tmp_path)
    wal = tmp_path / "host.sqlite3-wal"
    sizes: list[int] = []
    commits = 0
    try:
        blob = bytes(3000)
        while commits < 1100:
            with s.batch():
                s.put_table(f"t{commits % 16}", commits, b"{}", blob)
            commits += 1
            sizes.append(wal.stat().st_size)
    finally:
        s.close()
    assert commits * 4096 > 16 * 256 * 1024         # the commits wrote many limits' worth
    # Now and then the checkpoint thread is copying, and the writer's own waits for a later
    # commit: bounded all the same (without it, hundreds of MB in this second).
    assert max(sizes) < 8 * 256 * 1024, max(sizes)


def test_a_batch_while_the_log_is_full_goes_to_the_writer_which_empties_it(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "WAL_LIMIT", 256 * 1024)
    wal = tmp_path / "host.sqlite3-wal"
    blob = bytes(3000)
    tickets = []
    for i in range(200):
        with store.batch() as ticket:
            store.put_table(f"t{i % 16}", i, b"{}", blob)
        tickets.append(ticket[0])
        store.drain()
    assert tickets[0] == 0                        # the log was short: at once
    assert any(tickets)                           # past the limit: to the writer...
    assert wal.stat().st_size < 2 * 256 * 1024    # ...which emptied it
