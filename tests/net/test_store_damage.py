"""Damaged data is never silent (issue 15): the store is checked when a host starts (SQLite's
integrity check, the application id, the layout's version); a store that cannot be used
stops the host with one line and is never written; a table that cannot be restored is set
aside and named while the others play; a lost write-ahead log is said out loud; the files
are the owner's alone; a backup is consistent. Real SQLite files."""

from __future__ import annotations

import logging
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cardparty.net import store as store_mod
from cardparty.net.store import SCHEMA_VERSION, Store, StoreError, backup
from tests.net.hostkit import Kit


def snapshot(path: Path) -> bytes:
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["garbage", "foreign", "newer", "file"])
def test_a_store_that_is_not_the_hosts_stops_it_in_one_line_and_is_left_alone(
        tmp_path: Path, kind: str) -> None:
    data = tmp_path / "data"
    db = data / "host.sqlite3"
    if kind == "file":
        data.write_text("not a directory")
        db = data
    else:
        data.mkdir()
        if kind == "garbage":
            db.write_bytes(b"garbage" * 1000)
        else:
            with sqlite3.connect(db) as con:
                con.execute("CREATE TABLE accounts (id INTEGER)")
                if kind == "newer":
                    con.execute("DROP TABLE accounts")
                    con.execute("CREATE TABLE players (token TEXT)")
                    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
            con.close()
    before = snapshot(db)
    with pytest.raises(StoreError) as info:
        Store(data)
    text = str(info.value)
    assert "\n" not in text and str(db.name) in text or kind == "file"
    assert snapshot(db) == before


def test_the_cli_says_a_foreign_store_in_one_line(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        con.execute("CREATE TABLE accounts (id INTEGER)")
    con.close()
    out = subprocess.run([sys.executable, "-m", "cardparty.client.cli", "host", "--bind",
                          "127.0.0.1", "--port", "0", "--no-advertise", "--data",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert "something else" in out.stderr


def test_a_damaged_table_is_set_aside_and_named_while_the_others_play(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One table's corrupt row stopped the whole host with a traceback."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=b"E" * 40)
    good = kit.open_table("pika", eva, 2)
    bad = kit.open_table("pika", eva, 2)
    kit.parts.close()
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        con.execute("UPDATE tables SET save = ? WHERE id = ?", (b"\xc1broken", bad))
    con.close()
    with caplog.at_level(logging.ERROR, logger="cardparty.host"):
        kit = Kit(data=tmp_path)
    assert list(kit.parts.tables.all) == [good]
    assert any(bad in r.getMessage() and "set aside" in r.getMessage() for r in caplog.records)
    eva = kit.player("Eva", key=b"E" * 40)
    kit.ask(eva, "sit", table=good)
    kit.parts.close()
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:
        assert con.execute("SELECT id FROM aside").fetchall() == [(bad,)]
    con.close()


def test_store_files_are_the_owners_alone(tmp_path: Path) -> None:
    """The database was world-readable."""
    kit = Kit(data=tmp_path / "d")
    kit.open_table("pika", kit.player("Eva"), 2)
    for f in (tmp_path / "d").iterdir():
        assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0, f
    assert stat.S_IMODE((tmp_path / "d").stat().st_mode) & 0o077 == 0
    kit.parts.close()


def test_a_store_copied_without_its_wal_is_said_out_loud(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """``host.sqlite3`` copied without its ``-wal`` started with 0 tables and no warning."""
    monkeypatch.setattr(store_mod, "CHECKPOINT", 3600.0)
    kit = Kit(data=tmp_path / "live")
    eva = kit.player("Eva")
    kit.open_table("pika", eva, 2)
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(tmp_path / "live" / "host.sqlite3", copy / "host.sqlite3")
    with caplog.at_level(logging.WARNING, logger="cardparty.host"):
        store = Store(copy)
    assert store.warnings and "-wal" in store.warnings[0]
    assert any("-wal" in r.getMessage() for r in caplog.records)
    store.close()
    kit.parts.close()


def test_a_wal_cut_short_is_said_out_loud(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A truncated WAL silently rolled tables back ten moves."""
    monkeypatch.setattr(store_mod, "CHECKPOINT", 3600.0)
    kit = Kit(data=tmp_path / "live")
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    for _ in range(10):
        kit.ask(eva, "strangers", table=tid, allow=False)
    live = tmp_path / "live"
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("host.sqlite3", "host.sqlite3-commits"):
        shutil.copy(live / name, copy / name)
    wal = (live / "host.sqlite3-wal").read_bytes()
    (copy / "host.sqlite3-wal").write_bytes(wal[: len(wal) // 2])
    store = Store(copy)
    assert any("were lost" in w for w in store.warnings), store.warnings
    store.close()
    kit.parts.close()


def test_a_clean_restart_warns_of_nothing(tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    kit.open_table("pika", kit.player("Eva"), 2)
    kit.parts.close()
    kit = Kit(data=tmp_path)
    assert kit.parts.persistence.store is not None
    assert kit.parts.persistence.store.warnings == []
    assert len(kit.parts.tables.all) == 1
    kit.parts.close()


def test_a_backup_is_consistent_owner_only_and_never_overwrites(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    monkeypatch.setattr(store_mod, "CHECKPOINT", 3600.0)   # what is written is in the -wal
    kit = Kit(data=tmp_path / "live")
    tid = kit.open_table("pika", kit.player("Eva"), 2)
    out = backup(tmp_path / "live", tmp_path / "copy.sqlite3")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    with sqlite3.connect(out) as con:
        assert con.execute("SELECT id FROM tables").fetchall() == [(tid,)]
    con.close()
    with pytest.raises(StoreError, match="never overwrites"):
        backup(tmp_path / "live", out)
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copy(out, restored / "host.sqlite3")
    again = Kit(data=restored)
    assert list(again.parts.tables.all) == [tid]
    again.parts.close()
    kit.parts.close()


def test_the_cli_backs_up_a_store_in_one_line(tmp_path: Path) -> None:
    kit = Kit(data=tmp_path / "live")
    tid = kit.open_table("pika", kit.player("Eva"), 2)
    out = subprocess.run([sys.executable, "-m", "cardparty.client.cli", "host", "--data",
                          str(tmp_path / "live"), "--backup", str(tmp_path / "b.sqlite3")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.count("\n") == 1, out
    with sqlite3.connect(tmp_path / "b.sqlite3") as con:
        assert con.execute("SELECT id FROM tables").fetchall() == [(tid,)]
    con.close()
    again = subprocess.run([sys.executable, "-m", "cardparty.client.cli", "host", "--data",
                            str(tmp_path / "live"), "--backup", str(tmp_path / "b.sqlite3")],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and again.stderr.count("\n") == 1, again
    kit.parts.close()
