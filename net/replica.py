"""The replication stream: what a host's two SQLite files commit, shipped to a standby in the
order they commit it (log shipping; the standby's side of the zguide's Binary Star).

Owns: ``Stream`` (the host's side): every transaction the store (``net/store.py``,
``host.sqlite3``) and the ledger (``core/economy/ledger.py``, ``economy.sqlite3``) commit becomes
one record ``(seq, file, statements)`` of ONE ordered stream, numbered in the order the files
commit them; ``Stream.start`` takes a ``Snapshot`` of both files at one point of the stream
(``sqlite3.Connection.serialize``), sent in bounded chunks (``Snapshot.chunks``), and the
records after that point are cut into batches (``Stream.cut``) as the host hands its writes
over. ``Replica`` (the standby's side): writes a snapshot as its own two files and applies
the records in order to them, saying the highest ``seq`` it has committed (``Replica.seq``).

Why statements and not pages: both files are written by one thread (the host's loop) in
transactions whose statements carry every value they write (times included), so the same
statements applied in the same order to the same files give the same files. The loop hands
the store's transactions over in the order the store commits them (its writer commits in the
order it is handed), and commits the ledger's itself; both reach the stream on that one thread,
so the stream's order is the order of the commits, and a prefix of it is a state the host
had (what a crash at that point would have left). A standby therefore takes over from any
batch it has applied exactly as the host would restart from its files.

Must not know about: sockets, the wire, tables, players, the economy's rules (statements are
opaque), the standby's process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

from cardparty.core.economy.ledger import Ledger
from cardparty.net.store import Op, Store

log = logging.getLogger("cardparty.host")

#: The files a host keeps, by the name a record gives: the store's and the ledger's.
HOST, ECONOMY = "host", "economy"
FILE_NAMES = {HOST: "host.sqlite3", ECONOMY: "economy.sqlite3"}
#: Bytes of a snapshot sent in one message: bounded, so the host's queue to its standby and
#: the standby's reading stay bounded too.
CHUNK = 256 * 1024
#: The largest file a standby accepts in a snapshot (a host's store is a few MB a thousand
#: tables; far past that is not a snapshot but a mistake).
MAX_FILE = 2 * 1024 * 1024 * 1024

#: One record of the stream: its number, the file it is for, the transaction's statements.
Record = tuple[int, str, list[Op]]


class ReplicaError(Exception):
    """The replica cannot go on from what it was sent (a gap in the stream, a statement that
    fails on its files, a snapshot that does not add up): it needs a fresh snapshot."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Both files as they were after record ``seq`` (serialized images: each a whole SQLite
    database file)."""

    seq: int
    files: dict[str, bytes]

    def chunks(self, size: int = CHUNK) -> Iterator[tuple[str, int, bytes]]:
        """(file, offset, bytes) pieces of at most ``size`` bytes, every file whole, in order;
        an empty file is one empty piece."""
        for name, data in self.files.items():
            if not data:
                yield name, 0, b""
            for offset in range(0, len(data), size):
                yield name, offset, data[offset:offset + size]


class Stream:
    """The host's side (module docstring). Collects nothing until ``start``: a host without a
    standby pays nothing for it."""

    def __init__(self, store: Store, ledger: Ledger | None) -> None:
        self.store = store
        self.ledger = ledger
        #: the number of the newest record (the stream goes on across standbys: a new one
        #: gets a snapshot at the current number)
        self.seq = 0
        self._pending: list[Record] = []
        self.on = False

    def start(self) -> Snapshot:
        """Both files serialized at the current point of the stream, and every transaction
        after it collected from now on. Call it on the loop's thread, between two of its
        flushes (nothing handed to the store but the writes of whole requests): the store's
        writer is drained first, so the image holds every record numbered so far."""
        self.store.drain()
        files = {HOST: self.store.db.serialize()}
        if self.ledger is not None:
            files[ECONOMY] = self.ledger.db.serialize()
        self._pending = []
        self.store.on_write = self._host_wrote
        if self.ledger is not None:
            self.ledger.on_commit = self._economy_wrote
        self.on = True
        return Snapshot(self.seq, files)

    def stop(self) -> None:
        """Nothing collected any more (the standby is gone); what was collected is dropped."""
        self.on = False
        self.store.on_write = None
        if self.ledger is not None:
            self.ledger.on_commit = None
        self._pending = []

    def _host_wrote(self, ops: list[Op]) -> None:
        self.seq += 1
        self._pending.append((self.seq, HOST, ops))

    def _economy_wrote(self, ops: list[Op]) -> None:
        self.seq += 1
        self._pending.append((self.seq, ECONOMY, ops))

    def cut(self) -> list[Record]:
        """The records since the last cut, oldest first (taken)."""
        out, self._pending = self._pending, []
        return out


def wire_records(records: list[Record]) -> list[list[Any]]:
    """Records as msgpack carries them (lists; statements' parameters as they are)."""
    return [[seq, name, [[sql, params, many] for sql, params, many in ops]]
            for seq, name, ops in records]


def read_records(raw: Any) -> list[Record]:
    """Records from ``wire_records``'s form, checked for shape (ReplicaError otherwise)."""
    out: list[Record] = []
    try:
        for seq, name, ops in raw:
            if not isinstance(seq, int) or name not in FILE_NAMES:
                raise ReplicaError(f"a record of the stream is malformed ({seq!r}, {name!r})")
            out.append((seq, name, [(str(sql), params, bool(many)) for sql, params, many in ops]))
    except (TypeError, ValueError) as exc:
        raise ReplicaError(f"the records sent are malformed: {exc}") from None
    return out


class Replica:
    """The standby's copies of a host's two files in ``directory`` (mode 0700, files 0600:
    they hold every hidden card and every coin of the party).

    ``begin``/``piece``/``end`` write a snapshot; ``apply`` applies records in order, each
    file's consecutive records in one transaction; ``seq`` is the highest record committed
    (None: no snapshot yet)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.seq: int | None = None
        self._db: dict[str, sqlite3.Connection] = {}
        self._incoming: dict[str, bytearray] = {}
        self._sizes: dict[str, int] = {}
        self._incoming_seq = 0

    def path(self, name: str) -> Path:
        return self.directory / FILE_NAMES[name]

    # --- a snapshot --------------------------------------------------------------------------

    def begin(self, seq: int, sizes: dict[str, int]) -> None:
        """A snapshot taken after record ``seq``, of files of these sizes, is coming: the
        copies held so far are closed (and replaced by ``end``)."""
        if not sizes or any(n not in FILE_NAMES or not 0 <= s <= MAX_FILE
                            for n, s in sizes.items()):
            raise ReplicaError(f"a snapshot of files {sizes!r} is not one a host sends")
        self.close()
        self.seq = None
        self._incoming_seq = seq
        self._sizes = dict(sizes)
        self._incoming = {name: bytearray() for name in sizes}

    def piece(self, name: str, offset: int, data: bytes) -> None:
        """One piece of the snapshot, in order."""
        buf = self._incoming.get(name)
        if buf is None or offset != len(buf) or len(buf) + len(data) > self._sizes[name]:
            raise ReplicaError(f"a piece of {name} at {offset} does not follow the "
                               f"{0 if buf is None else len(buf)} bytes received")
        buf += data

    def end(self) -> None:
        """Every piece came: the files written (through a temporary file each, so a crash
        leaves the old copy or the new one, never half of one), opened, and ``seq`` set."""
        for name, buf in self._incoming.items():
            if len(buf) != self._sizes[name]:
                raise ReplicaError(f"the snapshot of {name} has {len(buf)} of "
                                   f"{self._sizes[name]} bytes")
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(OSError):
            self.directory.chmod(0o700)
        for name, buf in self._incoming.items():
            self._write_file(self.path(name), bytes(buf))
        # What the host's store counts beside its file is the host's, not this copy's.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path(HOST).with_name(FILE_NAMES[HOST] + "-commits"))
        self._incoming, self._sizes = {}, {}
        for name in FILE_NAMES:
            if self.path(name).exists():
                self._db[name] = self._open(self.path(name))
        host = self._db.get(HOST)
        if host is not None:
            # A copy is not a running host: a host started from it must not warn that it was
            # not closed cleanly.
            host.execute("UPDATE info SET value = 0 WHERE key = 'running'")
        self.seq = self._incoming_seq

    @staticmethod
    def _write_file(path: Path, data: bytes) -> None:
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path.with_name(path.name + suffix))
        tmp = path.with_name(path.name + ".part")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    # --- records -----------------------------------------------------------------------------

    def apply(self, records: list[Record]) -> int:
        """Apply ``records`` (the next ones of the stream, in order) and return the highest
        seq committed. ReplicaError for a gap or a statement that fails here: the files are
        then as of the last whole transaction, and a fresh snapshot is needed."""
        if self.seq is None:
            raise ReplicaError("records came before any snapshot")
        expected = self.seq + 1
        for seq, _, _ in records:
            if seq != expected:
                raise ReplicaError(f"the stream jumped from {expected - 1} to {seq}")
            expected += 1
        for name, group in groupby(records, key=lambda r: r[1]):
            db = self._db.get(name)
            if db is None:
                raise ReplicaError(f"a record for {name}, which the snapshot did not hold")
            batch = list(group)
            db.execute("BEGIN")
            try:
                for _, _, ops in batch:
                    for sql, params, many in ops:
                        if many:
                            db.executemany(sql, params)
                        else:
                            db.execute(sql, params)
            except sqlite3.Error as exc:
                db.execute("ROLLBACK")
                raise ReplicaError(f"record {batch[0][0]} fails on the copy of {name}: "
                                   f"{exc}") from None
            db.execute("COMMIT")
            self.seq = batch[-1][0]
        assert self.seq is not None
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
