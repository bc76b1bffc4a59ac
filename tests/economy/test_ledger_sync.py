"""A host's ledger may leave syncing its commits to the host's store writer (``defer_sync``):
the commits that moved coins are flagged until ``sync`` runs, a commit that changed nothing
is not, and a ledger in memory never defers."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from cardparty.core.economy import rewards as rw
from cardparty.core.economy.ledger import Ledger


def test_commits_that_moved_coins_wait_for_sync_and_the_rest_do_not(tmp_path: Path) -> None:
    path = tmp_path / "economy.sqlite3"
    ledger = Ledger(path)
    ledger.enter("eva", "K1")
    assert not ledger.unsynced                    # syncing at once, as by default
    ledger.defer_sync()
    assert ledger.db.execute("PRAGMA synchronous").fetchone()[0] == 1   # NORMAL
    ledger.enter("eva", "K1")                     # she has her profile: nothing written
    assert not ledger.unsynced
    ledger.enter("petr", "K2")                    # the welcome coins: written
    assert ledger.unsynced
    ledger.unsynced = False
    assert ledger.pay_result("t1.x/r1", rw.OPEN, ["eva", "petr"], [1, 2]) is not None
    assert ledger.unsynced
    ledger.sync()
    ledger.close()
    again = Ledger(path)
    assert again.profile("eva").coins > again.profile("petr").coins
    again.close()


def test_a_ledger_in_memory_never_defers() -> None:
    ledger = Ledger(":memory:")
    ledger.defer_sync()
    ledger.enter("eva", "K1")
    assert not ledger.unsynced
    ledger.sync()                                 # nothing to do
    assert ledger.db.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL


def test_a_deferred_commit_survives_the_process_being_killed(tmp_path: Path) -> None:
    path = tmp_path / "economy.sqlite3"
    code = (f"from cardparty.core.economy.ledger import Ledger\n"
            f"import os, signal\n"
            f"l = Ledger({str(path)!r}); l.defer_sync(); l.enter('eva', 'K1')\n"
            f"os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", code], timeout=60)
    assert done.returncode == -9
    assert os.path.exists(str(path) + "-wal")     # killed: the log was never folded in
    db = sqlite3.connect(path)
    assert db.execute("SELECT username FROM profiles").fetchall() == [("eva",)]
    db.close()
