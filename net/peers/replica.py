"""The replication stream: what a host's two SQLite files commit, as row changes against their
declared schemas (core/schema.py), shipped to a standby in the order they commit (log shipping;
the backup's side of the zguide's Binary Star).

Owns: ``Stream`` (the host's side): every transaction the store (``net/store.py``,
``host.sqlite3``) and the ledger (``core/economy/ledger.py``, ``economy.sqlite3``) commit
becomes one record ``(seq, file, changes)`` of ONE ordered stream, numbered in the order the
files commit them (a number is reserved when a transaction is handed over to be committed and
filled with its changes once it is: the store's writer thread may commit it a moment later);
each change is ``(table, key, row or None)``, never SQL. The newest records are kept
(``BACKLOG`` bytes), so a standby that missed a few (a stall, a connection reset) goes on from
where it was instead of starting over (``Stream.after``). ``Stream.snapshot`` gives both
files' rows at one point of the stream, in pieces of about ``CHUNK`` bytes.

``Replica`` (the standby's side): builds its copies of both files from a snapshot's rows, each
file through its own schema (a copy is made from the standby's own declaration; nothing a host
sends is ever run as SQL or opened as a database), and applies each record after checking every
change against its own schema (``Schema.check``: a declared, replicated table, keys and rows of
the declared shape and types). ``Replica.seq`` is the highest record committed, ``stream`` the
stream its copy follows.

Why a prefix of the stream is a state the host had: both files are written by one thread (the
host's loop hands the store's transactions over and commits the ledger's) and the store's writer
commits in the order it is handed; so a standby takes over from any record it applied exactly as
the host would restart from its files.

Must not know about: sockets, the wire, tables, players, the economy's rules, the standby's
process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import sqlite3
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

from cardparty.core.economy.ledger import ECONOMY, ECONOMY_SCHEMA, Ledger
from cardparty.core.schema import Change, Schema, SchemaError
from cardparty.net.store import APPLICATION_ID, HOST, HOST_SCHEMA, SCHEMA_VERSION, Store

log = logging.getLogger("cardparty.host")

__all__ = ["BACKLOG", "CHUNK", "ECONOMY", "FILE_NAMES", "HOST", "MAX_COPY", "SCHEMAS", "Copies",
           "Record", "Replica", "ReplicaError", "Snapshot", "Stream", "new_copy", "open_copy",
           "read_records", "weight", "wire_records"]

#: The files a host keeps, by the name a record gives: the store's and the ledger's.
FILE_NAMES = {HOST: "host.sqlite3", ECONOMY: "economy.sqlite3"}
#: Each file's declared schema: what a copy is made of and what a change may touch.
SCHEMAS: dict[str, Schema] = {HOST: HOST_SCHEMA, ECONOMY: ECONOMY_SCHEMA}
#: Bytes of a snapshot's piece: bounded, so the host's queue to its standby and the standby's
#: reading stay bounded too.
CHUNK = 256 * 1024
#: Bytes of the newest records a host keeps for a standby that comes back (a few minutes of a
#: busy party; one table's save is a few kilobytes).
BACKLOG = 32 * 1024 * 1024
#: The most a copy made from a snapshot may hold (a host's store is a few MB a thousand
#: tables; far past that is not a snapshot but a mistake).
MAX_COPY = 2 * 1024 * 1024 * 1024

#: One record of the stream: its number, the file it is for, the rows it changed.
Record = tuple[int, str, list[Change]]


class ReplicaError(Exception):
    """The replica cannot go on from what it was sent (a gap in the stream, a change its
    schema does not allow, a snapshot that does not add up): it needs a fresh snapshot."""


def weight(changes: list[Change]) -> int:
    """About how many bytes ``changes`` take (what the backlog is bounded by)."""
    total = 16
    for _table, key, row in changes:
        for value in (*key, *(row or ())):
            total += len(value) if isinstance(value, bytes | str) else 8
    return total


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Both files' rows as they were after record ``seq`` of stream ``stream``: ``pieces``
    yields (file, table, rows), every replicated table of every file at least once."""

    stream: str
    seq: int
    files: tuple[str, ...]
    pieces: Iterator[tuple[str, str, list[list[Any]]]]


class Stream:
    """The host's side (module docstring). Collects nothing until ``start``: a host without a
    standby pays nothing for it. Once started it collects for as long as the host runs, so a
    standby that comes back finds what it missed."""

    def __init__(self, store: Store, ledger: Ledger | None, backlog: int = BACKLOG) -> None:
        self.store = store
        self.ledger = ledger
        self.backlog = backlog
        #: this stream's name: a copy made from another stream (another run of the host)
        #: cannot go on from this one's records
        self.id = secrets.token_hex(8)
        #: the newest number reserved
        self.seq = 0
        self.on = False
        self._lock = threading.Lock()
        #: reserved and not yet filled: the file each is for
        self._files: dict[int, str] = {}
        #: filled, but behind one that is not
        self._waiting: dict[int, Record] = {}
        #: the newest number whose records, and every one before, are filled
        self.filled = 0
        #: the filled records kept, oldest first, and their bytes
        self._kept: deque[tuple[Record, int]] = deque()
        self._bytes = 0

    def start(self) -> None:
        """From now on both files' transactions are collected (on the loop's thread, between
        two of its flushes)."""
        if self.on:
            return
        self.on = True
        self.store.replicate(self)
        if self.ledger is not None:
            self.ledger.replicate(self)

    # --- the files' side (``core.schema.Journal``) ----------------------------------------

    def reserve(self, file: str) -> int:
        with self._lock:
            self.seq += 1
            self._files[self.seq] = file
            return self.seq

    def fill(self, seq: int, changes: list[Change]) -> None:
        with self._lock:
            file = self._files.pop(seq, None)
            if file is None:
                return
            self._waiting[seq] = (seq, file, changes)
            self._advance()

    def _advance(self) -> None:
        waiting = self._waiting
        nxt = self.filled + 1
        while nxt in waiting:
            record = waiting.pop(nxt)
            size = weight(record[2])
            self._kept.append((record, size))
            self._bytes += size
            self.filled = nxt
            nxt += 1
        while self._bytes > self.backlog and len(self._kept) > 1:
            _, size = self._kept.popleft()
            self._bytes -= size

    # --- the standby's side ----------------------------------------------------------------

    @property
    def first(self) -> int:
        """The oldest record kept (``filled + 1`` when none is)."""
        with self._lock:
            return self._kept[0][0][0] if self._kept else self.filled + 1

    def after(self, seq: int) -> list[Record] | None:
        """The filled records after ``seq``, oldest first ([] when there are none yet), or
        None when some of them are no longer kept (a copy that far behind starts over)."""
        with self._lock:
            if seq >= self.filled:
                return []
            kept = self._kept
            if not kept or kept[0][0][0] > seq + 1:
                return None
            start = seq + 1 - kept[0][0][0]
            return [kept[i][0] for i in range(start, len(kept))]

    def snapshot(self, size: int = CHUNK) -> Snapshot:
        """Both files' rows at the current point of the stream. On the loop's thread, between
        two of its flushes: the store's writer is drained first, so every number reserved is
        filled and the rows hold exactly the records up to ``seq``. The pieces must be read
        before the loop writes again."""
        self.store.drain()
        with self._lock:
            assert not self._files, "a record still waits after the store was drained"
            seq = self.filled
        files = (HOST,) if self.ledger is None else (HOST, ECONOMY)

        def pieces() -> Iterator[tuple[str, str, list[list[Any]]]]:
            yield from ((HOST, t, rows) for t, rows in HOST_SCHEMA.dump(self.store.db, size))
            if self.ledger is not None:
                yield from ((ECONOMY, t, rows)
                            for t, rows in ECONOMY_SCHEMA.dump(self.ledger.db, size))

        return Snapshot(self.id, seq, files, pieces())


def wire_records(records: list[Record]) -> list[list[Any]]:
    """Records as msgpack carries them."""
    return [[seq, name, [[t, k, r] for t, k, r in changes]] for seq, name, changes in records]


def read_records(raw: Any) -> list[Record]:
    """Records from ``wire_records``'s form, each change checked against its file's schema
    (ReplicaError otherwise: nothing is applied)."""
    out: list[Record] = []
    if not isinstance(raw, list):
        raise ReplicaError("the records sent are not a list")
    for entry in raw:
        if not isinstance(entry, list) or len(entry) != 3:
            raise ReplicaError("a record of the stream is malformed")
        seq, name, changes = entry
        if isinstance(seq, bool) or not isinstance(seq, int) or name not in SCHEMAS:
            raise ReplicaError(f"a record of the stream is malformed ({str(seq)[:20]!r}, "
                               f"{str(name)[:20]!r})")
        try:
            out.append((seq, name, SCHEMAS[name].check(changes)))
        except SchemaError as exc:
            raise ReplicaError(f"record {seq}: {exc}") from None
    return out


def open_copy(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def new_copy(schema: Schema, path: Path | str) -> sqlite3.Connection:
    """An empty copy of a file of ``schema`` at ``path`` (":memory:" for one in memory): made
    from the declaration, with the file's own marks, in one open transaction the caller
    commits once its rows are in."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    if schema is HOST_SCHEMA:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.execute("BEGIN")
    schema.create(db)
    return db


class Copies:
    """Copies of a host's files being built from a snapshot's rows (a standby's, in files
    beside its own; a heal's, in memory): each piece checked against its file's schema and
    written, the whole bounded by ``MAX_COPY``."""

    def __init__(self, files: Any, where: Path | None) -> None:
        if (not isinstance(files, list | tuple) or not files or HOST not in files
                or any(f not in SCHEMAS for f in files) or len(set(files)) != len(files)):
            raise ReplicaError(f"a snapshot of files {str(files)[:60]} is not one a host sends")
        self.where = where
        self.dbs: dict[str, sqlite3.Connection] = {}
        self.bytes = 0
        for name in files:
            path: Path | str = ":memory:"
            if where is not None:
                path = where / (FILE_NAMES[name] + ".part")
                for suffix in ("", "-wal", "-shm", "-journal"):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(f"{path}{suffix}")
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                os.close(fd)
            self.dbs[name] = new_copy(SCHEMAS[name], path)

    def piece(self, name: Any, table: Any, rows: Any) -> None:
        db = self.dbs.get(name) if isinstance(name, str) else None
        if db is None:
            raise ReplicaError(f"a piece for {str(name)[:20]!r}, which the snapshot did not "
                               "announce")
        try:
            size = sum(len(v) if isinstance(v, bytes | str) else 8
                       for r in rows for v in r) if isinstance(rows, list) else 0
            self.bytes += size
            if self.bytes > MAX_COPY:
                raise ReplicaError("the snapshot is larger than any copy a standby keeps")
            SCHEMAS[name].load(db, table, rows)
        except (SchemaError, TypeError) as exc:
            raise ReplicaError(f"a piece of {name}: {exc}") from None
        except sqlite3.Error as exc:
            raise ReplicaError(f"a piece of {name} cannot be written: {exc}") from None

    def finish(self) -> dict[str, sqlite3.Connection]:
        """Every piece came: each copy committed (and, in files, closed: ``Replica`` moves
        them into place); the connections of copies in memory."""
        for db in self.dbs.values():
            db.execute("COMMIT")
        if self.where is None:
            return self.dbs
        for db in self.dbs.values():
            db.close()
        return {}

    def abandon(self) -> None:
        for name, db in self.dbs.items():
            with contextlib.suppress(sqlite3.Error):
                db.close()
            if self.where is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.where / (FILE_NAMES[name] + ".part"))
        self.dbs = {}


class Replica:
    """The standby's copies of a host's two files in ``directory`` (mode 0700, files 0600:
    they hold every hidden card and every coin of the party).

    ``begin``/``piece``/``end`` make the copies from a snapshot; ``apply`` applies records in
    order, each file's consecutive records in one transaction; ``seq`` is the highest record
    committed (None: no copy yet) and ``stream`` the stream it follows."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.seq: int | None = None
        self.stream = ""
        self._db: dict[str, sqlite3.Connection] = {}
        self._incoming: Copies | None = None
        self._incoming_at: tuple[str, int] = ("", 0)

    def path(self, name: str) -> Path:
        return self.directory / FILE_NAMES[name]

    def db(self, name: str) -> sqlite3.Connection | None:
        """The copy of file ``name`` (None: none yet), for reading on the standby's thread."""
        return self._db.get(name)

    # --- a snapshot --------------------------------------------------------------------------

    def begin(self, stream: str, seq: int, files: Any) -> None:
        """A snapshot of stream ``stream`` after record ``seq`` of ``files`` is coming: the
        copies held so far are given up (and replaced by ``end``)."""
        self.abandon()
        self.close()
        self.seq = None
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(OSError):
            self.directory.chmod(0o700)
        self._incoming = Copies(files, self.directory)
        self._incoming_at = (str(stream), int(seq))

    def piece(self, name: Any, table: Any, rows: Any) -> None:
        if self._incoming is None:
            raise ReplicaError("a piece of a snapshot that was not announced")
        self._incoming.piece(name, table, rows)

    def end(self) -> None:
        """Every piece came: the copies synced and moved into place (a crash leaves the old
        copy or the new one, never half of one), opened, and ``seq`` set."""
        incoming = self._incoming
        if incoming is None:
            raise ReplicaError("the end of a snapshot that was not announced")
        files = list(incoming.dbs)
        incoming.finish()
        self._incoming = None
        for name in FILE_NAMES:
            target = self.path(name)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(target.with_name(target.name + suffix))
            part = target.with_name(target.name + ".part")
            if name in files:
                fd = os.open(part, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                os.replace(part, target)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(target)
        # What the host's store counts beside its file is the host's, not this copy's.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path(HOST).with_name(FILE_NAMES[HOST] + "-commits"))
        for name in files:
            self._db[name] = open_copy(self.path(name))
        self.stream, self.seq = self._incoming_at

    def abandon(self) -> None:
        """A snapshot on its way is given up."""
        if self._incoming is not None:
            self._incoming.abandon()
            self._incoming = None

    # --- records -----------------------------------------------------------------------------

    def apply(self, records: list[Record]) -> int:
        """Apply ``records`` (the next ones of the stream, in order, checked by
        ``read_records``) and return the highest seq committed. A record already applied
        (the host sent it again after a reset) is skipped. ReplicaError for a gap or a change
        that fails here: the files are then as of the last whole transaction, and a fresh
        snapshot is needed."""
        if self.seq is None:
            raise ReplicaError("records came before any snapshot")
        records = [r for r in records if r[0] > self.seq]
        expected = self.seq + 1
        for seq, _, _ in records:
            if seq != expected:
                raise ReplicaError(f"the stream jumped from {expected - 1} to {seq}")
            expected += 1
        for name, group in groupby(records, key=lambda r: r[1]):
            db = self._db.get(name)
            batch = list(group)
            if db is None:
                if any(changes for _, _, changes in batch):
                    raise ReplicaError(f"a record for {name}, which the snapshot did not hold")
                self.seq = batch[-1][0]
                continue
            db.execute("BEGIN")
            try:
                for _, _, changes in batch:
                    SCHEMAS[name].put(db, changes)
            except sqlite3.Error as exc:
                db.execute("ROLLBACK")
                raise ReplicaError(f"record {batch[0][0]} fails on the copy of {name}: "
                                   f"{exc}") from None
            db.execute("COMMIT")
            self.seq = batch[-1][0]
        return self.seq

    def serialize(self) -> dict[str, bytes]:
        """The copies as they are now (a point to compare a later state with)."""
        return {name: db.serialize() for name, db in self._db.items()}

    def close(self) -> None:
        """The copies checkpointed and closed (a host may now open them)."""
        for db in self._db.values():
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.close()
        self._db = {}
