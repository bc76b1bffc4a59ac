"""The data directory as docs/operating.md says (issue 25, item 7; issue 27, items 7 and 15):
every file the owner's alone, the directory too; a missing table or a damaged row named in
the log; a table cut back to its last good move; a damaged economy named in one line; one
host at a time on a directory, and a host killed never blocking the next. Real SQLite files
and, where a process matters, real processes."""

from __future__ import annotations

import logging
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cardparty.core.economy.ledger import Ledger, LedgerFileError
from cardparty.net.store import Store, StoreError
from tests.net.hostkit import Kit


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_economys_files_are_the_owners_alone(tmp_path: Path) -> None:
    """economy.sqlite3 and its -wal and -shm were made 0644."""
    old = os.umask(0o022)
    try:
        led = Ledger(tmp_path / "economy.sqlite3")
    finally:
        os.umask(old)
    led.enter("Eva", "k" * 40)
    files = [tmp_path / f"economy.sqlite3{s}" for s in ("", "-wal", "-shm")]
    assert all(f.exists() for f in files)
    assert [mode(f) for f in files] == [0o600] * 3
    led.close()
    for f in files:
        if f.exists():
            f.chmod(0o644)
    Ledger(tmp_path / "economy.sqlite3").close()          # found looser: tightened
    assert all(mode(f) == 0o600 for f in files if f.exists())


def test_a_data_directory_and_a_commits_file_found_looser_are_tightened(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    store = Store(data)
    store.put_player("t1", "p1", "Eva")                 # a commit: the -commits file
    store.close()
    (data / "host.sqlite3-commits").chmod(0o644)
    data.chmod(0o755)
    store = Store(data)
    store.close()
    assert mode(data) == 0o700
    assert mode(data / "host.sqlite3-commits") == 0o600


@pytest.mark.parametrize("table", ["players", "owners", "tables"])
def test_a_missing_table_is_named_not_silently_made_anew(
        tmp_path: Path, table: str, caplog: pytest.LogCaptureFixture) -> None:
    kit = Kit(data=tmp_path)
    kit.open_table("pika", kit.player("Eva", key=b"E" * 40), 2)
    kit.parts.close()
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        con.execute(f"DROP TABLE {table}")
    con.close()
    with caplog.at_level(logging.WARNING, "cardparty.host"):
        store = Store(tmp_path)
    try:
        assert any(f"no {table} table" in w for w in store.warnings), store.warnings
        assert any(f"no {table} table" in r.getMessage() for r in caplog.records)
    finally:
        store.close()


def playing(tmp_path: Path, moves: int) -> tuple[Kit, str]:
    """A table of Pikáč whose row was written at its start and whose tail holds ``moves``
    moves (fewer than the tail's limit)."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=b"E" * 40)
    tid = kit.open_table("pikac", eva, 2, seed=5)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, level="random")
    kit.ask(eva, "ready", table=tid)
    kit.play_until(tid, eva, moves)
    return kit, tid


def test_one_unreadable_move_cuts_the_table_back_to_its_last_good_move(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One undecodable move of the tail set the whole table aside."""
    kit, tid = playing(tmp_path, 12)
    journal = list(kit.table(tid).engine.journal)
    kit.parts.close()
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        versions = [v for (v,) in con.execute(
            "SELECT version FROM moves WHERE table_id = ? ORDER BY version", (tid,))]
        assert len(versions) >= 6, versions
        bad = versions[4]
        con.execute("UPDATE moves SET entry = ? WHERE table_id = ? AND version = ?",
                    (b"\xc1\xc1", tid, bad))
    con.close()
    with caplog.at_level(logging.ERROR, "cardparty.host"):
        kit = Kit(data=tmp_path)
    assert tid in kit.parts.tables.all, "the table was set aside"
    table = kit.table(tid).engine
    assert table.version == bad - 1
    assert list(table.journal) == journal[:len(table.journal)]
    assert any(tid in r.getMessage() and f"move {bad}" in r.getMessage()
               for r in caplog.records), caplog.text
    kit.parts.close()
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        left = [v for (v,) in con.execute("SELECT version FROM moves WHERE table_id = ?",
                                          (tid,))]
        assert all(v < bad for v in left), left
        assert con.execute("SELECT count(*) FROM aside").fetchone()[0] == 0
    con.close()


def test_a_move_that_is_not_a_move_cuts_the_table_back_too(tmp_path: Path) -> None:
    kit, tid = playing(tmp_path, 8)
    kit.parts.close()
    import msgpack

    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        (first,) = con.execute("SELECT min(version) FROM moves WHERE table_id = ?",
                               (tid,)).fetchone()
        con.execute("UPDATE moves SET entry = ? WHERE table_id = ? AND version = ?",
                    (msgpack.packb({"not": "a move"}), tid, first))
    con.close()
    kit = Kit(data=tmp_path)
    assert kit.table(tid).engine.version == first - 1
    kit.parts.close()


def test_a_damaged_economy_is_named_in_one_line(tmp_path: Path) -> None:
    """``DatabaseError: file is not a database``, without the file's name."""
    (tmp_path / "economy.sqlite3").write_bytes(b"not an economy" * 500)
    with pytest.raises(LedgerFileError) as info:
        Ledger(tmp_path / "economy.sqlite3")
    assert "economy.sqlite3" in str(info.value) and "\n" not in str(info.value)
    out = subprocess.run([sys.executable, "-m", "cardparty.client.cli", "host", "--bind",
                          "127.0.0.1", "--port", "0", "--no-advertise", "--data",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    lines = [line for line in out.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and str(tmp_path / "economy.sqlite3") in lines[0], out.stderr
    assert (tmp_path / "economy.sqlite3").read_bytes() == b"not an economy" * 500


def host(data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardparty.client.cli", "host", "--bind", "127.0.0.1",
         "--port", "0", "--no-advertise", "--bot-workers", "0", "--log-level", "error",
         "--data", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def listening(proc: subprocess.Popen[str]) -> bool:
    assert proc.stdout is not None
    return re.search(r"listening on tcp://", proc.stdout.readline()) is not None


def test_a_second_host_on_one_data_directory_is_refused_and_a_killed_one_blocks_nothing(
        tmp_path: Path) -> None:
    """Two hosts on one --data restored the same tables and served the same coins."""
    procs = [host(tmp_path)]
    try:
        first = procs[0]
        assert listening(first)
        procs.append(host(tmp_path))
        _, err = procs[1].communicate(timeout=60)
        assert procs[1].returncode == 2, err
        assert err.count("\n") == 1 and "another host is running on" in err, err
        assert str(first.pid) in err
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        procs.append(host(tmp_path))
        assert listening(procs[2]), "a killed host's lock blocked the restart"
    finally:
        for proc in procs:                  # whatever failed, no host is left running
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def test_a_store_closed_lets_the_next_host_in(tmp_path: Path) -> None:
    store = Store(tmp_path)
    with pytest.raises(StoreError, match="another host is running"):
        Store(tmp_path)
    store.close()
    Store(tmp_path).close()                 # the lock went with the store
