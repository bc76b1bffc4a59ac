"""Persistence of a host's live tables and players' tokens, in SQLite.

Owns: the file ``DIR/host.sqlite3`` of a host started with ``--data DIR``: one row per table
(the host's own record of it as msgpack: seats, readiness, timers' settings, status; plus
``Table.save()``, the whole game at some version), the moves played at a table since its row
was written (one small row per move: the seat and the move), and one row per player (token,
id, name), one row per name bound to a key (MO-1, kept for good), one row per event
(docs/rules/tournament.md) and one per player's rating at a game. The host writes a
table's row after every change and before it answers the move that made the change (the rows
of one turn of its loop in one transaction), so a finished move is never lost when the host is
killed and restarted (DESIGN, "Must never happen"). SQLite in WAL mode with
``synchronous=NORMAL`` survives the process being killed at any point; only a power cut may
lose the last transactions.

A player's rows are kept under his handle (``identity``: his key with the name he owns, hashed),
which is what the host files his seats under, so no token a client sends can stand for him;
the peers find him by it in their copies.

One host at a time: a host holds a lock on ``DIR/host.lock`` (``flock``) as long as its store
is open, which the operating system releases when the process ends however it ends, so a
second host on the same directory is refused in one line and a crash never blocks a restart.

Must not know about: sockets, the protocol, any particular game.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack

from cardparty.core.owner_only import private_files
from cardparty.core.schema import Capture, Change, Column, Journal, Schema, Table
from cardparty.net.names.safetext import name_key

log = logging.getLogger("cardparty.host")

#: Seconds between two checkpoints of the write-ahead log (see ``Store``).
CHECKPOINT = 0.5
#: Bytes of write-ahead log past which the writer empties it (see ``Store._truncate``).
WAL_LIMIT = 64 * 1024 * 1024

#: Seconds a commit may take and the next one still run on the caller's thread (see
#: ``Store``): a commit without a sync only hands pages to the kernel, a fraction of a
#: millisecond, unless the disk is so slow that the kernel makes writers wait.
SLOW_COMMIT = 0.002

#: ``PRAGMA application_id`` of a cardparty host's store ("CPty"): a file without it that
#: holds other tables is not the host's, and is never written.
APPLICATION_ID = 0x43507479
#: ``PRAGMA user_version``: the layout of the rows below. A store of a newer layout is refused;
#: one of layout 1 (``aside`` without a key, no ``peers``) is brought to this one on open, one
#: of layout 2 (no ``events`` nor ``ratings``) gets them, empty, and one of layout 3 (no
#: ``records``) gets it, empty.
SCHEMA_VERSION = 4


#: The name a journal gives the store's file (the ledger's is ``economy``).
HOST = "host"


class StoreError(Exception):
    """The store cannot be used: the message says why in one line, and what to do."""


#: One write: SQL, its parameters, and whether they are many rows (``executemany``).
Op = tuple[str, Any, bool]

#: The store's tables, declared once (core/schema.py): the file's layout, what a standby is
#: sent of every transaction, its snapshot and the heal's merge all come from here.
HOST_SCHEMA = Schema("host", (
    # A game table: the host's record of it (``meta``, msgpack) and the whole game at some
    # version (``save``); one unit with its moves at a heal (a table one side served only).
    Table("tables", (
        Column("id", "TEXT", mint="t"), Column("seq", "INTEGER"), Column("meta", "BLOB"),
        Column("save", "BLOB")), key=("id",), merge="unit", unit="id", number="seq"),
    # The moves played at a table since its row was written.
    Table("moves", (
        Column("table_id", "TEXT"), Column("version", "INTEGER"), Column("entry", "BLOB")),
        key=("table_id", "version"), merge="unit", unit="table_id"),
    Table("players", (
        Column("token", "TEXT"), Column("id", "TEXT", mint="p"), Column("name", "TEXT")),
        key=("token",)),
    # A name bound to a key (MO-1); whether it played and when its key was last seen.
    Table("owners", (
        Column("name_key", "TEXT"), Column("key", "TEXT"), Column("name", "TEXT"),
        Column("played", "INTEGER", default="1", merge="max"),
        Column("seen", "REAL", default="0", merge="max")), key=("name_key",)),
    # Tables that could not be restored, kept for whoever wants to look at them.
    Table("aside", (
        Column("id", "TEXT"), Column("seq", "INTEGER", null=True),
        Column("meta", "BLOB", null=True), Column("save", "BLOB", null=True),
        Column("why", "TEXT")), key=("id", "why")),
    # The party's peers (docs/operating.md, "A party's peers"): every host of the party knows
    # them, so any of them takes the others as its standby without a command.
    Table("peers", (
        Column("fingerprint", "TEXT"), Column("key", "TEXT", default="''"),
        Column("name", "TEXT", default="''"), Column("serves", "TEXT", default="''"),
        Column("since", "REAL", default="0", merge="max")), key=("fingerprint",)),
    # An event (docs/rules/tournament.md): its settings, entrants, rounds and each table's
    # result, as one record (``core.tourney.event.Event.to_store``, msgpack), written in the
    # same transaction as the table's end or the round's seating that changed it (TO-28). At
    # a heal, the new host's record of an event both sides changed stays.
    Table("events", (
        Column("id", "TEXT"), Column("seq", "INTEGER"), Column("meta", "BLOB")), key=("id",)),
    # A player's rating at a game (TO-26): OpenSkill's mu and sigma, the rounds rated, when;
    # written with the round's end (TO-27). At a heal, a rating both sides changed keeps the
    # new host's.
    Table("ratings", (
        Column("game", "TEXT"), Column("username", "TEXT", player=True),
        Column("mu", "REAL"), Column("sigma", "REAL"), Column("rounds", "INTEGER"),
        Column("at", "REAL", default="0", merge="max")), key=("game", "username")),
    # Finished rounds (core/record.py), kept by the retention (docs/operating.md, "Game
    # records"): written once when the round ends, dropped oldest first. ``players`` holds
    # the name keys of its human seats between newlines ("\nana\npetr\n"), so a player's own
    # are found without reading the records; ``data`` is the record's map, msgpack then zlib.
    # Merged row by row at a heal: a record only the other side wrote is carried in (a new
    # id if this side used its id), and one of a table the heal left out goes with it.
    Table("records", (
        Column("id", "TEXT", mint="r"), Column("ended", "REAL"),
        Column("table_id", "TEXT", scope=True), Column("game", "TEXT"),
        Column("players", "TEXT"), Column("data", "BLOB")), key=("id",),
        indexes=(("records_ended", "ended", ""),)),
    # The file's own counters (commits, whether a host runs on it, its epoch): not a copy's.
    Table("info", (Column("key", "TEXT"), Column("value", "INTEGER")), key=("key",),
          merge="local"),
), application_id=APPLICATION_ID, version=SCHEMA_VERSION)

#: The tables a store of this layout holds (a file of an older host without a version has
#: some of them, and is adopted).
OWN_TABLES = {t.name for t in HOST_SCHEMA.tables}


class Store:
    """The host's SQLite file, written in order from one thread at a time.

    By default every write runs at once on the caller's thread. ``start_writer`` adds a
    writer thread of the store's own for the writes that may wait for the disk: a batch with
    work to run before it (another file's sync), a batch while the writer still has one,
    every batch after a commit that took more than ``SLOW_COMMIT``, and a batch while the
    write-ahead log is past ``WAL_LIMIT`` (the writer empties it after the commit,
    ``_truncate``). Such a write is queued,
    and ``batch`` gives the writes made inside it a ticket; ``done`` is the highest ticket
    committed, and ``wake`` is called each time it moves. The host's loop thus goes on with
    other tables while the disk is slow, and holds back only what it must not send before its
    change is on disk. Any other batch, most of them, commits at once on the caller's thread:
    with ``synchronous=NORMAL`` that syncs nothing and takes some 50 us, while handing it to
    the writer and being woken when it is done kept every reply of the batch waiting for two
    thread switches and the interpreter's lock (flat out with a store, 30% fewer moves a
    second than without one; committed at once, 5-12%).

    A thread of the store's own moves the write-ahead log into the file (a checkpoint, which
    syncs the disk) every ``CHECKPOINT`` seconds: left to SQLite, the commit that happens to
    pass the log's limit checkpoints on the spot."""

    def __init__(self, directory: str | Path) -> None:
        had_wal = (Path(directory) / "host.sqlite3-wal").exists()   # before SQLite makes one
        self._lock_fd = lock(Path(directory))
        try:
            self.path, self.db, self.layout_was, missing = open_checked(Path(directory))
        except BaseException:
            os.close(self._lock_fd)
            raise
        #: what a start found worth telling an operator (also logged as warnings)
        self.warnings: list[str] = []
        if missing:
            self._warn(f"{self.path} had no {', '.join(sorted(missing))} table: made anew, "
                       "empty (what it held is lost: players must say hello again, tables "
                       "are gone); restore a backup to have it back")
        self._commits_path = self.path.with_name(self.path.name + "-commits")
        self._wal = self.path.with_name(self.path.name + "-wal")
        self._commits_fd = -1
        self._commits = self._count_commits(had_wal)
        self.done = 0
        self._tickets = 0
        self._collect: list[Op] | None = None
        #: the last commit took more than ``SLOW_COMMIT``: the next go to the writer
        self._slow = False
        self._queue: queue.SimpleQueue[tuple[int, list[Op], int] | None] | None = None
        self._writer: threading.Thread | None = None
        self._wake: Callable[[], None] = lambda: None
        #: what each transaction changed, as row images (``replicate``)
        self.capture = Capture(HOST_SCHEMA)
        self._journal: Journal | None = None
        #: the records' reading connection (``_reader``), made when first asked
        self._read: sqlite3.Connection | None = None
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
        self._collect = ops = list[Op]()
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

    def _wal_full(self) -> bool:
        try:
            return self._wal.stat().st_size > WAL_LIMIT
        except OSError:
            return False

    def _truncate(self) -> None:
        """The write-ahead log emptied once it is past ``WAL_LIMIT``, between two commits of
        the writer. SQLite starts the log again from its beginning only once a checkpoint
        has copied all of it, and the checkpoint thread's passive ones never catch up with
        commits every few milliseconds: flat out, the log grew by some 15 MB a second without
        end (840 MB in four minutes of a soak), and with it SQLite's index of it. A
        ``TRUNCATE`` checkpoint on the writer's own connection copies the rest and empties
        the log while no commit is under way; meanwhile the next batches queue (``_submit``
        sends none of them to the caller's thread while the log is full)."""
        if self._wal_full():
            with contextlib.suppress(sqlite3.Error):    # the checkpoint thread is busy: later
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def replicate(self, journal: Journal) -> None:
        """From now on every transaction's changes, as row images, go to ``journal`` (a
        standby's stream, net/peers/replica.py), numbered in the order they are handed over, which
        is the order the file commits them. On the loop's thread, between two of its flushes:
        the writer is drained first, so nothing committed before is numbered after."""
        self.drain()
        self.capture.install(self.db)
        self._journal = journal

    def _submit(self, ops: list[Op]) -> int:
        journal = self._journal
        seq = journal.reserve(HOST) if journal is not None and any(op[0] for op in ops) else 0
        if self._queue is None:
            self._apply(ops, seq)
            self._truncate()
            return 0
        if (self.done == self._tickets and not self._slow and all(sql for sql, _, _ in ops)
                and not self._wal_full()):
            # The writer is idle (all it was given is committed) and the disk was quick:
            # committed here, in order, at once (see the class docstring).
            self._apply_logged(ops, seq)
            return 0
        self._tickets += 1
        self._queue.put((self._tickets, ops, seq))
        return self._tickets

    def before(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the writer before the writes of the current batch are committed
        (another file's sync that must reach the disk first)."""
        self._do("", work)

    def _apply_logged(self, ops: list[Op], seq: int = 0) -> None:
        """``_apply``, a failure logged: the host goes on (and what it sends may tell of
        changes the store lacks, as when the writer failed)."""
        try:
            self._apply(ops, seq)
        except Exception:
            log.exception("the store failed to write")

    def _apply(self, ops: list[Op], seq: int = 0) -> None:
        """One transaction; ``seq``: its number in the journal (0: none), which gets its
        changes once it commits (none if it fails: nothing changed)."""
        db = self.db
        changes: list[Change] = []
        for sql, work, _ in ops:
            if not sql:
                work()
        started = time.perf_counter()     # the commit's own time (a sync above is expected)
        db.execute("BEGIN")
        try:
            db.execute("UPDATE info SET value = value + 1 WHERE key = 'commits'")
            for sql, params, many in ops:
                if not sql:
                    continue
                if many:
                    db.executemany(sql, params)
                else:
                    db.execute(sql, params)
            if seq:
                changes = self.capture.take(db)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if seq and self._journal is not None:
                self._journal.fill(seq, [])
            raise
        if db.in_transaction:
            db.execute("COMMIT")
        if seq and self._journal is not None:
            self._journal.fill(seq, changes)
        self._slow = time.perf_counter() - started > SLOW_COMMIT
        self._commits += 1
        self._note_commits()

    def _note_commits(self) -> None:
        """The count of commits beside the file (no sync): a start that finds the file
        behind it knows commits were lost (a write-ahead log missing or cut). The file stays
        open (one write a commit, not an open, a write and a close)."""
        with contextlib.suppress(OSError):
            if self._commits_fd < 0:
                self._commits_fd = os.open(self._commits_path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.pwrite(self._commits_fd, f"{self._commits:020d}\n".encode(), 0)

    def _count_commits(self, had_wal: bool) -> int:
        """The file's count of commits, checked against the count beside it and against a
        host that was not closed cleanly losing its write-ahead log (warnings, logged)."""
        db = self.db
        row = db.execute("SELECT value FROM info WHERE key = 'commits'").fetchone()
        commits = row[0] if row else 0
        running = db.execute("SELECT value FROM info WHERE key = 'running'").fetchone()
        try:
            noted = int(self._commits_path.read_text().strip() or 0)
        except (OSError, ValueError):
            noted = None
        if noted is not None and noted > commits:
            self._warn(f"{self.path} holds {commits} commits but {noted} were made: the last "
                       f"{noted - commits} were lost (its -wal file was missing or damaged); "
                       "the tables are as of the last commit it holds")
        elif running and running[0] and not had_wal and noted is None:
            self._warn(f"{self.path} was not closed cleanly and has no -wal file beside it "
                       "(copied without it?): the last changes may be lost")
        with contextlib.suppress(sqlite3.Error):
            db.execute("INSERT OR REPLACE INTO info (key, value) VALUES ('commits', ?)",
                       (commits,))
            db.execute("INSERT OR REPLACE INTO info (key, value) VALUES ('running', 1)")
            db.execute("PRAGMA wal_checkpoint(FULL)")     # the file itself says "running"
        return commits

    def _warn(self, text: str) -> None:
        self.warnings.append(text)
        log.warning("%s", text)
    def _write_loop(self) -> None:
        assert self._queue is not None
        q = self._queue
        stop = False
        while not stop:
            item = q.get()
            if item is None:
                break
            ticket, ops, seq = item
            # What queued meanwhile joins this commit, unless each transaction is numbered
            # in a journal (``replicate`` drains the queue before it numbers any).
            while self._journal is None:
                try:
                    more = q.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                ticket, extra, _ = more
                ops = ops + extra
            self._apply_logged(ops, seq)
            self._truncate()
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
        """Every ``CHECKPOINT`` seconds, the log's new pages copied into the file without
        stopping the writes (``PASSIVE``)."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._closing.wait(CHECKPOINT):
                with contextlib.suppress(sqlite3.Error):   # busy now: the next turn does it
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    # --- writing -----------------------------------------------------------------------------

    def put_table(self, table_id: str, seq: int, meta: bytes, save: bytes) -> None:
        """Write a table's row; ``meta`` packed (net/host/persistence.py's record: the store
        never reads it)."""
        self._do("INSERT OR REPLACE INTO tables (id, seq, meta, save) VALUES (?, ?, ?, ?)",
                 (table_id, seq, meta, save))

    def drop_table(self, table_id: str) -> None:
        with self.batch():
            self._do("DELETE FROM tables WHERE id = ?", (table_id,))
            self._do("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def add_moves(self, moves: list[tuple[str, int, bytes]]) -> None:
        """Moves played since their tables' rows were written: (the table, the version each
        made, entry), of any tables, in one statement."""
        self._do("INSERT OR REPLACE INTO moves (table_id, version, entry) VALUES (?, ?, ?)",
                 moves, True)

    def drop_moves(self, table_id: str) -> None:
        """The table's row now holds every move: its tail of moves goes."""
        self._do("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def put_event(self, event_id: str, seq: int, meta: bytes) -> None:
        """An event's record (``core.tourney.event.Event.to_store``, packed)."""
        self._do("INSERT OR REPLACE INTO events (id, seq, meta) VALUES (?, ?, ?)",
                 (event_id, seq, meta))

    def drop_event(self, event_id: str) -> None:
        self._do("DELETE FROM events WHERE id = ?", (event_id,))

    def events(self) -> list[tuple[str, int, bytes]]:
        """(id, seq, meta as packed) of every event, oldest first."""
        return list(self.db.execute("SELECT id, seq, meta FROM events ORDER BY seq"))

    def put_ratings(self, rows: list[tuple[str, str, float, float, int, float]]) -> None:
        """Ratings: (game, username, mu, sigma, rounds rated, when) each."""
        self._do("INSERT OR REPLACE INTO ratings (game, username, mu, sigma, rounds, at) "
                 "VALUES (?, ?, ?, ?, ?, ?)", rows, True)

    def ratings(self) -> list[tuple[Any, ...]]:
        """(game, username, mu, sigma, rounds) of every rating, as the file has them."""
        return list(self.db.execute("SELECT game, username, mu, sigma, rounds FROM ratings"))

    def put_record(self, record_id: str, ended: float, table_id: str, game: str,
                   players: list[str], data: bytes) -> None:
        """A finished round's record (``data``: packed and compressed by the caller);
        ``players``: the name keys of its human seats."""
        self._do("INSERT OR REPLACE INTO records (id, ended, table_id, game, players, data) "
                 "VALUES (?, ?, ?, ?, ?, ?)",
                 (record_id, ended, table_id, game, "\n" + "\n".join(players) + "\n", data))

    def prune_records(self, keep: int, before: float) -> None:
        """The retention: records that ended before ``before`` go, then all but the newest
        ``keep``."""
        self._do("DELETE FROM records WHERE ended < ?", (before,))
        self._do("DELETE FROM records WHERE id IN (SELECT id FROM records ORDER BY ended "
                 "DESC, id DESC LIMIT -1 OFFSET ?)", (max(0, keep),))

    def put_epoch(self, epoch: int) -> None:
        """This host's generation (a standby that takes over serves as the next one)."""
        self._do("INSERT OR REPLACE INTO info (key, value) VALUES ('epoch', ?)", (epoch,))

    def epoch(self) -> int:
        """The generation the store was written by (1 for a host that never had another)."""
        row = self.db.execute("SELECT value FROM info WHERE key = 'epoch'").fetchone()
        return int(row[0]) if row and isinstance(row[0], int) and row[0] > 0 else 1

    def put_peer(self, fingerprint: str, key: str = "", name: str = "", serves: str = "",
                 since: float = 0.0) -> None:
        """A peer of the party (its fingerprint, approved), with what is known of it so far:
        its key, its name, where it serves players once it serves. What is not given (empty)
        stays as the row had it."""
        self._do("INSERT INTO peers (fingerprint, key, name, serves, since) VALUES "
                 "(?, ?, ?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET "
                 "key = CASE WHEN excluded.key = '' THEN key ELSE excluded.key END, "
                 "name = CASE WHEN excluded.name = '' THEN name ELSE excluded.name END, "
                 "serves = CASE WHEN excluded.serves = '' THEN serves ELSE excluded.serves END, "
                 "since = max(since, excluded.since)",
                 (fingerprint, key, name, serves, since))

    def drop_peer(self, fingerprint: str) -> None:
        self._do("DELETE FROM peers WHERE fingerprint = ?", (fingerprint,))

    def peers(self) -> list[tuple[str, str, str, str]]:
        """(fingerprint, key, name, serves) of every peer of the party this store knows."""
        return [(str(f), str(k), str(n), str(s)) for f, k, n, s in self.db.execute(
            "SELECT fingerprint, key, name, serves FROM peers ORDER BY since, fingerprint")]

    def put_player(self, token: str, player_id: str, name: str) -> None:
        self._do("INSERT OR REPLACE INTO players (token, id, name) VALUES (?, ?, ?)",
                 (token, player_id, name))

    def drop_player(self, token: str) -> None:
        self._do("DELETE FROM players WHERE token = ?", (token,))

    # --- reading (when a host starts, before any write) --------------------------------------

    def moves(self, table_id: str) -> tuple[list[tuple[int, Any]], bool]:
        """(version, entry) of the moves after the table's row, in order, up to the first
        that cannot be read (logged at level error: the table goes on from the move before
        it, ``cut_moves``); and whether they are all there."""
        out: list[tuple[int, Any]] = []
        for version, entry in self.db.execute("SELECT version, entry FROM moves WHERE "
                                              "table_id = ? ORDER BY version", (table_id,)):
            try:
                out.append((version, msgpack.unpackb(entry, raw=False)))
            except Exception as exc:    # damaged bytes: msgpack raises many kinds
                log.error("table %s: move %s of its tail cannot be read (%s: %s); the table "
                          "goes on from the move before it", table_id, version,
                          type(exc).__name__, exc)
                return out, False
        return out, True

    def cut_moves(self, table_id: str, version: int) -> None:
        """The table's tail from ``version`` on is dropped (it could not be replayed)."""
        self._do("DELETE FROM moves WHERE table_id = ? AND version >= ?", (table_id, version))

    # --- records (read at any time, through a connection of their own) ----------------------

    def _reader(self) -> sqlite3.Connection:
        """A connection that reads what is committed (WAL: never waits for the writer, never
        sees a transaction under way), for the records a player asks for while the host
        runs."""
        if self._read is None:
            self._read = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                         isolation_level=None, check_same_thread=False)
        return self._read

    def records_of(self, name_key: str, before: float | None, most: int
                   ) -> list[tuple[str, float, str, str, bytes]]:
        """(id, ended, table id, game, data) of the newest ``most`` records one of whose
        human seats was ``name_key``, that ended before ``before`` (None: any), newest
        first."""
        where = "instr(players, ?) > 0" + ("" if before is None else " AND ended < ?")
        args: tuple[Any, ...] = (f"\n{name_key}\n",) + (() if before is None else (before,))
        return list(self._reader().execute(
            f"SELECT id, ended, table_id, game, data FROM records WHERE {where} "
            "ORDER BY ended DESC, id DESC LIMIT ?", (*args, most)))

    def record(self, record_id: str) -> tuple[str, bytes] | None:
        """(players, data) of one record, or None."""
        row = self._reader().execute("SELECT players, data FROM records WHERE id = ?",
                                     (record_id,)).fetchone()
        return None if row is None else (str(row[0]), bytes(row[1]))

    def record_numbers(self) -> int:
        """The highest number of a record id ``r<n>`` kept (0: none)."""
        top = 0
        for (rid,) in self.db.execute("SELECT id FROM records"):
            if isinstance(rid, str) and rid[1:].isdigit():
                top = max(top, int(rid[1:]))
        return top

    def records_size(self) -> tuple[int, int]:
        """(records kept, bytes of their data)."""
        n, size = self.db.execute("SELECT count(*), COALESCE(sum(length(data)), 0) "
                                  "FROM records").fetchone()
        return int(n), int(size)

    def players(self) -> list[tuple[str, str, str]]:
        """(token, id, name) of every remembered player."""
        return list(self.db.execute("SELECT token, id, name FROM players"))

    def put_owner(self, name_key: str, key: bytes, name: str, seen: float = 0.0) -> None:
        """Bind a name (``name_key``: the first of ``safetext.name_folds``) to a player's
        public key (MO-1), not played yet, last seen at ``seen`` (wall clock)."""
        self._do("INSERT OR IGNORE INTO owners (name_key, key, name, played, seen) "
                 "VALUES (?, ?, ?, 0, ?)", (name_key, key.decode(), name, seen))

    def owner_seen(self, name_key: str, seen: float, played: bool) -> None:
        """The owner of ``name_key`` was last seen at ``seen``; ``played``: he has played."""
        self._do("UPDATE owners SET seen = ?, played = max(played, ?) WHERE name_key = ?",
                 (seen, int(played), name_key))

    def refile_owner(self, old: str, name_key: str) -> None:
        """The owner filed under ``old`` is filed under ``name_key`` (his name folds so with
        Unicode's tables of today); left as it is when another row holds ``name_key``."""
        self._do("UPDATE OR IGNORE owners SET name_key = ? WHERE name_key = ?", (name_key, old))

    def drop_owner(self, name_key: str) -> None:
        """``name_key`` is bound to nobody any more (released: ``owners.Owners``)."""
        self._do("DELETE FROM owners WHERE name_key = ?", (name_key,))

    def owners(self) -> list[tuple[Any, ...]]:
        """(name key, public key, name, played, last seen) of every row of ``owners``,
        oldest first, as the file has them: the caller checks them (a row may be damaged).
        A row an older host wrote has played 1 (its names were kept for good)."""
        return list(self.db.execute(
            "SELECT name_key, key, name, played, seen FROM owners ORDER BY rowid"))

    def tables(self) -> list[tuple[str, int, bytes, bytes]]:
        """(id, seq, meta as packed, save) of every live table, oldest first."""
        return list(self.db.execute("SELECT id, seq, meta, save FROM tables ORDER BY seq"))

    def set_aside(self, table_id: str, why: str) -> None:
        """A table that cannot be restored leaves the live rows for ``aside`` (kept for
        whoever wants to look at it, never played), so the others play on."""
        with self.batch():
            self._do("INSERT INTO aside (id, seq, meta, save, why) SELECT id, seq, meta, "
                     "save, ? FROM tables WHERE id = ?", (why, table_id))
            self._do("DELETE FROM tables WHERE id = ?", (table_id,))
            self._do("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def close(self) -> None:
        """Every queued write committed, the log checkpointed, the file closed."""
        if self._queue is not None and self._writer is not None:
            self._queue.put(None)
            self._writer.join(10.0)
        self._closing.set()
        self._checkpoints.join(5.0)
        if self._read is not None:
            self._read.close()
            self._read = None
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("UPDATE info SET value = 0 WHERE key = 'running'")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
        if self._commits_fd >= 0:
            os.close(self._commits_fd)
            self._commits_fd = -1
        if self._lock_fd >= 0:
            os.close(self._lock_fd)                   # the lock goes with it
            self._lock_fd = -1


def lock(directory: Path) -> int:
    """The descriptor of ``directory``'s lock, taken (``flock``: the operating system drops
    it with the process, so a host killed by any means never blocks the next); StoreError in
    one line when another host holds it."""
    if directory.exists() and not directory.is_dir():
        raise StoreError(f"{directory} is a file; give a directory (the host keeps "
                         "host.sqlite3 in it)")
    try:
        _private_dir(directory)
        fd = os.open(directory / "host.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StoreError(f"cannot use {directory}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            held = os.pread(fd, 32, 0).decode(errors="replace").strip()
        except OSError:
            held = ""
        os.close(fd)
        raise StoreError(f"another host is running on {directory}"
                         + (f" (process {held})" if held.isdigit() else "")
                         + ": stop it first, or give this one another --data") from None
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _private_dir(directory: Path) -> None:
    """``directory`` made (mode 0700), or tightened to 0700 if others may read it: it holds
    every hidden card of every live table."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    if directory.stat().st_mode & 0o077:
        directory.chmod(0o700)
        log.warning("%s could be read by others: it is the owner's alone now (0700)",
                    directory)


def open_checked(directory: Path) -> tuple[Path, sqlite3.Connection, int, set[str]]:
    """The host's store in ``directory``, opened and checked: SQLite's own integrity check,
    the application id and the layout's version. A file that fails any of these is never
    written: ``StoreError`` says why in one line. Files are made readable by their owner only
    (they hold the players' handles and every hidden card). Also the tables of the layout
    that a store which had some was missing (made anew: the caller says so)."""
    if directory.exists() and not directory.is_dir():
        raise StoreError(f"{directory} is a file; give a directory (the host keeps "
                         "host.sqlite3 in it)")
    try:
        _private_dir(directory)
        path = directory / "host.sqlite3"
        private_files(path, "-wal", "-shm", "-commits")
    except OSError as exc:
        raise StoreError(f"cannot use {directory}: {exc.strerror or exc}") from None
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {exc}") from None
    try:
        layout = _check(db, path)
        had = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        # A store this layout wrote had every table (an older one may lack the newer ones).
        missing = (OWN_TABLES - had) if had and layout == SCHEMA_VERSION else set()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        _adopt(db, had)
        HOST_SCHEMA.create(db)
    except sqlite3.Error as exc:
        db.close()
        raise StoreError(f"{path} cannot be used ({exc}); it was left as it is: move it "
                         "away or restore a backup") from None
    except StoreError:
        db.close()
        raise
    return path, db, layout, missing



def _adopt(db: sqlite3.Connection, had: set[str]) -> None:
    """An older layout's tables brought to this one, what they hold kept: ``owners`` without
    ``played`` and ``seen`` (its names stay bound: played), ``aside`` without a key (a change
    a standby is sent names its row by the key)."""
    if "owners" in had:
        columns = {r[1] for r in db.execute("PRAGMA table_info(owners)")}
        for column, kind in (("played", "INTEGER NOT NULL DEFAULT 1"),
                             ("seen", "REAL NOT NULL DEFAULT 0")):
            if column not in columns:
                db.execute(f"ALTER TABLE owners ADD COLUMN {column} {kind}")
    if "aside" in had and not any(r[5] for r in db.execute("PRAGMA table_info(aside)")):
        db.execute("BEGIN")
        db.execute("ALTER TABLE aside RENAME TO aside_before")
        for sql in HOST_SCHEMA.by_name["aside"].ddl():
            db.execute(sql)
        db.execute("INSERT OR REPLACE INTO aside (id, seq, meta, save, why) "
                   "SELECT id, seq, meta, save, why FROM aside_before")
        db.execute("DROP TABLE aside_before")
        db.execute("COMMIT")


def _check(db: sqlite3.Connection, path: Path) -> int:
    """``path`` is sound and the host's (or empty: then it is made so); the layout version it
    had (0: new, or written before layouts had versions)."""
    try:
        result = [r[0] for r in db.execute("PRAGMA integrity_check(8)")]
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not a database the host can read ({exc}); it was left "
                         "as it is: move it away or restore a backup") from None
    if result != ["ok"]:
        raise StoreError(f"{path} is damaged (SQLite's integrity check: {result[0]}); it was "
                         "left as it is: restore a backup, or move it away to start afresh")
    app = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app == 0 and names and not names <= OWN_TABLES:
        raise StoreError(f"{path} is a database of something else (it holds "
                         f"{', '.join(sorted(names - OWN_TABLES)[:3])}); it was left as it "
                         "is: give the host a directory of its own")
    if app not in (0, APPLICATION_ID):
        raise StoreError(f"{path} belongs to another program (application id {app:#x}); it "
                         "was left as it is")
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path} was written by a newer cardparty (layout {version}, this "
                         f"host reads {SCHEMA_VERSION}); it was left as it is")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return int(version)


def backup(directory: str | Path, target: str | Path) -> Path:
    """A consistent copy of the store in ``directory`` into the file ``target`` with SQLite's
    backup API (what its write-ahead log holds included), safe while a host runs on it."""
    source = Path(directory) / "host.sqlite3"
    if not source.is_file():
        raise StoreError(f"there is no store at {source}")
    out = Path(target)
    if out.is_dir():
        out = out / "host.sqlite3"
    if out.exists():
        raise StoreError(f"{out} exists; a backup never overwrites a file")
    os.close(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {source}: {exc}") from None
    try:
        with contextlib.closing(sqlite3.connect(out)) as dst:
            src.backup(dst)
    except sqlite3.Error as exc:
        raise StoreError(f"the backup of {source} failed: {exc}") from None
    finally:
        src.close()
    return out


def identity(key: bytes, name: str) -> str:
    """The host's handle on one player: his key with the name he owns (hex, not a secret:
    the host never takes it from a client)."""
    return hashlib.sha256(b"cardparty player\0" + key + b"\0" + name_key(name).encode()
                          ).hexdigest()[:32]
