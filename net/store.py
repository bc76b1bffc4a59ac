"""Persistence of a host's live tables and players' tokens, in SQLite.

Owns: the file ``DIR/host.sqlite3`` of a host started with ``--data DIR``: one row per table
(the host's own record of it as msgpack: seats, readiness, timers' settings, status; plus
``Table.save()``, the whole game at some version), the moves played at a table since its row
was written (one small row per move: the seat and the move), and one row per player (token,
id, name), and one row per name bound to a key (MO-1, kept for good). The host writes a
table's row after every change and before it answers the move that made the change (the rows
of one turn of its loop in one transaction), so a finished move is never lost when the host is
killed and restarted (DESIGN, "Must never happen"). SQLite in WAL mode with
``synchronous=NORMAL`` survives the process being killed at any point; only a power cut may
lose the last transactions.

Must not know about: sockets, the protocol, any particular game.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack

log = logging.getLogger("cardparty.host")

#: Seconds between two checkpoints of the write-ahead log (see ``Store``).
CHECKPOINT = 0.5

#: One write: SQL, its parameters, and whether they are many rows (``executemany``).
Op = tuple[str, Any, bool]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, seq INTEGER NOT NULL, meta BLOB NOT NULL, save BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS owners (
    name_key TEXT PRIMARY KEY, key TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL, version INTEGER NOT NULL, entry BLOB NOT NULL,
    PRIMARY KEY (table_id, version));
"""


class Store:
    """The host's SQLite file, written in order from one thread at a time.

    By default every write runs at once on the caller's thread. ``start_writer`` moves them
    to a writer thread of the store's own: a write is then queued, and ``batch`` gives the
    writes made inside it a ticket; ``done`` is the highest ticket committed, and ``wake`` is
    called each time it moves. The host's loop thus goes on with other tables while the disk
    is slow, and holds back only what it must not send before its change is on disk.

    A thread of the store's own moves the write-ahead log into the file (a checkpoint, which
    syncs the disk) every ``CHECKPOINT`` seconds: left to SQLite, the commit that happens to
    pass the log's limit checkpoints on the spot."""

    def __init__(self, directory: str | Path) -> None:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        self.path = path / "host.sqlite3"
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(SCHEMA)
        self.done = 0
        self._tickets = 0
        self._collect: list[Op] | None = None
        self._queue: queue.SimpleQueue[tuple[int, list[Op]] | None] | None = None
        self._writer: threading.Thread | None = None
        self._wake: Callable[[], None] = lambda: None
        self._closing = threading.Event()
        self._checkpoints = threading.Thread(target=self._checkpoint, daemon=True,
                                             name="cardparty-store-checkpoint")
        self._checkpoints.start()

    # --- how writes run ----------------------------------------------------------------------

    def start_writer(self, wake: Callable[[], None]) -> None:
        """From now on writes run on the store's writer thread (see the class docstring)."""
        self._wake = wake
        self._queue = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, daemon=True,
                                        name="cardparty-store-writer")
        self._writer.start()

    @contextlib.contextmanager
    def batch(self) -> Iterator[list[int]]:
        """The writes made inside as one transaction; the list yielded holds its ticket
        after the block (0: it was written already, on this thread)."""
        ticket = [0]
        if self._collect is not None:           # nested: part of the outer batch
            yield ticket
            return
        self._collect = ops = []
        try:
            yield ticket
        finally:
            self._collect = None
        if ops:
            ticket[0] = self._submit(ops)

    def _do(self, sql: str, params: Any, many: bool = False) -> None:
        if self._collect is not None:
            self._collect.append((sql, params, many))
        else:
            self._submit([(sql, params, many)])

    def _submit(self, ops: list[Op]) -> int:
        if self._queue is None:
            self._apply(ops)
            return 0
        self._tickets += 1
        self._queue.put((self._tickets, ops))
        return self._tickets

    def _apply(self, ops: list[Op]) -> None:
        db = self.db
        if len(ops) > 1:
            db.execute("BEGIN")
        try:
            for sql, params, many in ops:
                if many:
                    db.executemany(sql, params)
                else:
                    db.execute(sql, params)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        if db.in_transaction:
            db.execute("COMMIT")

    def _write_loop(self) -> None:
        assert self._queue is not None
        q = self._queue
        stop = False
        while not stop:
            item = q.get()
            if item is None:
                break
            ticket, ops = item
            while True:                          # what queued meanwhile joins this commit
                try:
                    more = q.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                ticket, extra = more
                ops = ops + extra
            try:
                self._apply(ops)
            except Exception:
                log.exception("the store failed to write")
            self.done = ticket
            self._wake()

    @property
    def queued(self) -> int:
        """The ticket of the newest write queued (``done`` reaches it once all are)."""
        return self._tickets

    def drain(self) -> None:
        """Wait until every queued write is committed (the writer goes on)."""
        if self._queue is None:
            return
        target = self._tickets
        while self.done < target and self._writer is not None and self._writer.is_alive():
            time.sleep(0.002)

    def _checkpoint(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._closing.wait(CHECKPOINT):
                with contextlib.suppress(sqlite3.Error):   # busy now: the next turn does it
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    # --- writing -----------------------------------------------------------------------------

    def put_table(self, table_id: str, seq: int, meta: dict[str, Any] | bytes,
                  save: bytes) -> None:
        """Write a table's row; ``meta`` as a map or already packed."""
        if not isinstance(meta, bytes):
            meta = msgpack.packb(meta, use_bin_type=True)
        self._do("INSERT OR REPLACE INTO tables (id, seq, meta, save) VALUES (?, ?, ?, ?)",
                 (table_id, seq, meta, save))

    def drop_table(self, table_id: str) -> None:
        with self.batch():
            self._do("DELETE FROM tables WHERE id = ?", (table_id,))
            self._do("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def add_moves(self, table_id: str, moves: list[tuple[int, bytes]]) -> None:
        """Moves played since the table's row was written: (the version each made, entry)."""
        self._do("INSERT OR REPLACE INTO moves (table_id, version, entry) VALUES (?, ?, ?)",
                 [(table_id, v, e) for v, e in moves], True)

    def drop_moves(self, table_id: str) -> None:
        """The table's row now holds every move: its tail of moves goes."""
        self._do("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def put_player(self, token: str, player_id: str, name: str) -> None:
        self._do("INSERT OR REPLACE INTO players (token, id, name) VALUES (?, ?, ?)",
                 (token, player_id, name))

    def drop_player(self, token: str) -> None:
        self._do("DELETE FROM players WHERE token = ?", (token,))

    # --- reading (when a host starts, before any write) --------------------------------------

    def moves(self, table_id: str) -> list[tuple[int, list[Any]]]:
        """(version, entry) of the moves after the table's row, in order."""
        rows = self.db.execute("SELECT version, entry FROM moves WHERE table_id = ? "
                               "ORDER BY version", (table_id,))
        return [(v, msgpack.unpackb(e, raw=False)) for v, e in rows]

    def players(self) -> list[tuple[str, str, str]]:
        """(token, id, name) of every remembered player."""
        return list(self.db.execute("SELECT token, id, name FROM players"))

    def put_owner(self, name_key: str, key: bytes, name: str) -> None:
        """Bind a name (as ``safetext.name_key`` has it) to a player's public key (MO-1)."""
        self._do("INSERT OR IGNORE INTO owners (name_key, key, name) VALUES (?, ?, ?)",
                 (name_key, key.decode(), name))

    def owners(self) -> list[tuple[str, bytes]]:
        """(name key, public key) of every name bound at this host."""
        return [(k, key.encode()) for k, key in self.db.execute(
            "SELECT name_key, key FROM owners")]

    def tables(self) -> list[tuple[str, int, dict[str, Any], bytes]]:
        """(id, seq, meta, save) of every live table, oldest first."""
        rows = self.db.execute("SELECT id, seq, meta, save FROM tables ORDER BY seq")
        return [(i, seq, msgpack.unpackb(meta, raw=False, strict_map_key=False), save)
                for i, seq, meta, save in rows]

    def close(self) -> None:
        """Every queued write committed, the log checkpointed, the file closed."""
        if self._queue is not None and self._writer is not None:
            self._queue.put(None)
            self._writer.join(10.0)
        self._closing.set()
        self._checkpoints.join(5.0)
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
