"""Persistence of a host's live tables and players' tokens, in SQLite.

Owns: the file ``DIR/host.sqlite3`` of a host started with ``--data DIR``: one row per table
(the host's own record of it as msgpack: seats, readiness, timers' settings, status; plus
``Table.save()``, the whole game at some version), the moves played at a table since its row
was written (one small row per move: the seat and the move), and one row per player (token,
id, name). The host writes a
table's row after every change and before it answers the move that made the change (the rows
of one turn of its loop in one transaction), so a finished move is never lost when the host is
killed and restarted (DESIGN, "Must never happen"). SQLite in WAL mode with
``synchronous=NORMAL`` survives the process being killed at any point; only a power cut may
lose the last transactions.

Must not know about: sockets, the protocol, any particular game.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, seq INTEGER NOT NULL, meta BLOB NOT NULL, save BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL, version INTEGER NOT NULL, entry BLOB NOT NULL,
    PRIMARY KEY (table_id, version));
"""


class Store:
    """The host's SQLite file. Used from the host's one thread only."""

    def __init__(self, directory: str | Path) -> None:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        self.path = path / "host.sqlite3"
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def put_table(self, table_id: str, seq: int, meta: dict[str, Any] | bytes,
                  save: bytes) -> None:
        """Write a table's row; ``meta`` as a map or already packed."""
        if not isinstance(meta, bytes):
            meta = msgpack.packb(meta, use_bin_type=True)
        self.db.execute("INSERT OR REPLACE INTO tables (id, seq, meta, save) VALUES (?, ?, ?, ?)",
                        (table_id, seq, meta, save))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Several writes as one transaction: one commit (one WAL append) for all."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def drop_table(self, table_id: str) -> None:
        self.db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        self.db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def add_moves(self, table_id: str, moves: list[tuple[int, bytes]]) -> None:
        """Moves played since the table's row was written: (the version each made, entry)."""
        self.db.executemany("INSERT OR REPLACE INTO moves (table_id, version, entry) "
                            "VALUES (?, ?, ?)", [(table_id, v, e) for v, e in moves])

    def drop_moves(self, table_id: str) -> None:
        """The table's row now holds every move: its tail of moves goes."""
        self.db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def moves(self, table_id: str) -> list[tuple[int, list[Any]]]:
        """(version, entry) of the moves after the table's row, in order."""
        rows = self.db.execute("SELECT version, entry FROM moves WHERE table_id = ? "
                               "ORDER BY version", (table_id,))
        return [(v, msgpack.unpackb(e, raw=False)) for v, e in rows]

    def put_player(self, token: str, player_id: str, name: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO players (token, id, name) VALUES (?, ?, ?)",
                        (token, player_id, name))

    def drop_player(self, token: str) -> None:
        self.db.execute("DELETE FROM players WHERE token = ?", (token,))

    def players(self) -> list[tuple[str, str, str]]:
        """(token, id, name) of every remembered player."""
        return list(self.db.execute("SELECT token, id, name FROM players"))

    def tables(self) -> list[tuple[str, int, dict[str, Any], bytes]]:
        """(id, seq, meta, save) of every live table, oldest first."""
        rows = self.db.execute("SELECT id, seq, meta, save FROM tables ORDER BY seq")
        return [(i, seq, msgpack.unpackb(meta, raw=False, strict_map_key=False), save)
                for i, seq, meta, save in rows]

    def close(self) -> None:
        self.db.close()
