"""The schema is declared once (core/schema.py): a table added to the host's declaration is
created, captured, sent in a snapshot, replicated record by record and merged at a heal by its
declared policy, with no other change anywhere; and a store of the layout before peers and a
keyed ``aside`` is adopted with what it held."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import msgpack
import pytest

from cardparty.core.schema import Column, Schema, Table
from cardparty.net import store as store_module
from cardparty.net.peers import replica as replica_module
from cardparty.net.peers.merge import heal
from cardparty.net.peers.replica import ECONOMY, HOST, SCHEMAS, Copies, Replica, Stream
from cardparty.net.store import HOST_SCHEMA, Store

#: A table a new feature might add: notes by author, with a count that adds up at a heal.
NOTES = Table("notes", (Column("author", "TEXT"), Column("text", "TEXT"),
                        Column("likes", "INTEGER", default="0", merge="add")), key=("author",))


@pytest.fixture
def with_notes(monkeypatch: pytest.MonkeyPatch) -> Schema:
    """The host's schema with one more table, as a change to its declaration would make it."""
    schema = Schema(HOST_SCHEMA.name, (*HOST_SCHEMA.tables, NOTES),
                    HOST_SCHEMA.application_id, HOST_SCHEMA.version)
    monkeypatch.setattr(store_module, "HOST_SCHEMA", schema)
    monkeypatch.setattr(replica_module, "HOST_SCHEMA", schema)
    monkeypatch.setitem(SCHEMAS, HOST, schema)
    return schema


def note(store: Store, author: str, text: str, likes: int = 0) -> None:
    """What the feature would write, through the store like every write."""
    store._do("INSERT OR REPLACE INTO notes (author, text, likes) VALUES (?, ?, ?)",
              (author, text, likes))


def notes(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT author, text, likes FROM notes ORDER BY author").fetchall()


def test_a_table_added_to_the_schema_is_replicated_and_merged_with_no_other_change(
        tmp_path: Path, with_notes: Schema) -> None:
    store = Store(tmp_path / "host")
    replica = Replica(tmp_path / "standby")
    try:
        note(store, "Eva", "before the standby")
        stream = Stream(store, None)
        stream.start()
        snap = stream.snapshot()
        replica.begin(snap.stream, snap.seq, list(snap.files))
        for file, table, rows in snap.pieces:
            replica.piece(file, table, msgpack.unpackb(msgpack.packb(rows), raw=False))
        replica.end()
        note(store, "Bob", "after", 2)
        note(store, "Eva", "changed", 1)
        batch = stream.after(snap.seq)
        assert batch is not None and replica.apply(batch) == stream.seq
        replica.close()
        assert notes(replica.path(HOST)) == [("Bob", "after", 2), ("Eva", "changed", 1)]
    finally:
        replica.close()
        store.close()

    # A heal: the fork, a loser and a winner that each wrote notes of their own.
    fork = tmp_path / "standby"
    for name in ("win", "lose"):
        shutil.copytree(fork, tmp_path / name)
    with sqlite3.connect(fork / "host.sqlite3") as db:
        forkpoint = {HOST: db.serialize()}
    lose, win = Store(tmp_path / "lose"), Store(tmp_path / "win")
    note(lose, "Ann", "only the loser's", 4)
    note(lose, "Bob", "after", 5)                  # both changed Bob's: likes add up
    note(win, "Bob", "the winner's", 3)
    lose.close()
    win.close()
    copies = Copies([HOST], None)
    with sqlite3.connect(tmp_path / "lose" / "host.sqlite3") as db:
        for table, rows in with_notes.dump(db, 1024):
            copies.piece(HOST, table, rows)
    done = heal(tmp_path / "win", forkpoint, copies.finish())
    assert done.rows["notes"] == 2
    assert notes(tmp_path / "win" / "host.sqlite3") == [
        ("Ann", "only the loser's", 4), ("Bob", "the winner's", 6), ("Eva", "changed", 1)]


def test_every_declared_table_is_in_the_file_and_nothing_else(tmp_path: Path) -> None:
    store = Store(tmp_path / "host")
    store.close()
    with sqlite3.connect(tmp_path / "host" / "host.sqlite3") as db:
        made = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert made == {t.name for t in HOST_SCHEMA.tables}
    assert {t.name for t in SCHEMAS[ECONOMY].tables} >= {"profiles", "ledger", "rewards"}


def test_a_store_of_the_layout_before_is_adopted_with_what_it_held(tmp_path: Path) -> None:
    """Layout 1: ``aside`` had no key (a change names a row by its key) and there were no
    peers: both are brought to this layout, the rows kept."""
    (tmp_path / "old").mkdir(mode=0o700)
    with sqlite3.connect(tmp_path / "old" / "host.sqlite3") as db:
        db.execute(f"PRAGMA application_id = {store_module.APPLICATION_ID}")
        db.execute("PRAGMA user_version = 1")
        db.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, "
                   "meta BLOB NOT NULL, save BLOB NOT NULL)")
        db.execute("CREATE TABLE aside (id TEXT NOT NULL, seq INTEGER, meta BLOB, save BLOB, "
                   "why TEXT NOT NULL)")
        db.execute("INSERT INTO aside VALUES ('t3', 3, x'00', x'01', 'damaged')")
        db.execute("CREATE TABLE info (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
    store = Store(tmp_path / "old")
    store.close()
    with sqlite3.connect(tmp_path / "old" / "host.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION
        assert [r[1] for r in db.execute("PRAGMA table_info(aside)") if r[5]] == ["id", "why"]
        assert db.execute("SELECT id, why FROM aside").fetchall() == [("t3", "damaged")]
        assert db.execute("SELECT COUNT(*) FROM peers").fetchone()[0] == 0
