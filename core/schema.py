"""Declared SQLite schemas: every table a host keeps, declared once as data, and what is derived
from that one declaration.

A host keeps two files, its store (``net/store.py``: tables, moves, players, names, peers) and
its ledger (``core/economy/ledger.py``: profiles, coins, the league). Each declares its tables
here as ``Table`` values in a ``Schema``; from that declaration come:

- the file's layout (``Schema.create``: ``CREATE TABLE``/``INDEX`` statements);
- the capture of what a transaction changed, for a standby (``Capture``: temporary triggers,
  generated per table, note each changed key; the row images are read back before the commit).
  A change is data, never SQL: ``(table, key values, row values or None)``;
- the checks a standby runs on every change it is sent before it writes it (``Schema.check``:
  a table its own schema declares as replicated, a key of the declared length, a row of the
  declared columns, each value of its column's type), and the statements it writes it with,
  made here from its own declaration (``Schema.put``);
- the rows of a snapshot (``Schema.dump``) and how a copy is loaded from them (``Schema.load``);
- how two copies that went apart are merged at a heal (``Table.merge``, ``Column.merge``,
  ``Column.scope``, ``Column.mint``, ``Table.log``; net/peers/merge.py runs them).

A table added to a schema is therefore created, replicated, snapshotted and merged with no
other change; a table the declaration marks ``local`` (counters of the file itself) is none of
those.

Why triggers and not SQLite's session extension: the session extension is not reachable from
Python's ``sqlite3`` module, and a second SQLite library in the same process (``apsw``) would
take POSIX locks on the same files without knowing of the first's (SQLite's documentation warns
that this corrupts databases). Measured on this machine, a one-row transaction costs 14.7 us
bare, 37.8 us with the triggers and the row read back, and 23.5 us with an ``apsw`` session
(docs/performance.md, "Replication as data").

Must not know about: sockets, the wire, what any table means (the host's and the ledger's own
modules declare theirs).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

#: SQLite's storage classes a column declares.
Affinity = Literal["TEXT", "INTEGER", "REAL", "BLOB"]
#: How a column's value is merged when both copies changed a row (net/peers/merge.py):
#: ``theirs`` the winner's value stays; ``add`` the winner's plus what the loser added since
#: the fork; ``max`` the larger; ``log`` moved only by a log table's rows (``Log``).
ColumnMerge = Literal["theirs", "add", "max", "log"]
#: How a table's rows are merged (net/peers/merge.py): ``rows`` row by row (a row only the loser
#: changed is taken, a row both changed keeps the winner's, with its columns merged);
#: ``unit`` all rows of one unit (a game table: its row and its moves) together, in whichever
#: tables share the unit; ``log`` an append-only log whose new rows are written again;
#: ``local`` neither replicated nor merged (the file's own counters).
TableMerge = Literal["rows", "unit", "log", "local"]

#: Python types a value of each affinity may have on the wire (an INTEGER is never a bool).
_TYPES: dict[str, tuple[type, ...]] = {
    "TEXT": (str,), "INTEGER": (int,), "REAL": (int, float), "BLOB": (bytes,)}

#: The temporary table the capture's triggers write the changed keys into.
CHANGED = "_changed"


class SchemaError(ValueError):
    """A change or a snapshot's rows that the declared schema does not allow: one line."""


#: One row change: the table, its key's values, the row's values in declared order (None:
#: the row is gone).
Change = tuple[str, list[Any], list[Any] | None]


@dataclass(frozen=True, slots=True)
class Column:
    """One column. ``default`` and ``check`` are SQL text of the declaration itself (never
    anything sent). ``scope``: the column's value names a unit (a game table's id, alone or
    followed by ``.`` or ``/`` and more): a row whose unit the merge left out is left out with
    it. ``mint``: the column's values are unique ids of the form ``PREFIX<n>``; a row carried
    in at a merge whose id the other copy already uses gets the next free one. ``player``: it
    holds a player's username."""

    name: str
    type: Affinity
    null: bool = False
    default: str | None = None
    check: str | None = None
    merge: ColumnMerge = "theirs"
    scope: bool = False
    mint: str | None = None
    #: the column holds a player's username (a heal that renames a claimant renames it there)
    player: bool = False

    def ddl(self) -> str:
        out = f"{self.name} {self.type}"
        if not self.null:
            out += " NOT NULL"
        if self.default is not None:
            out += f" DEFAULT {self.default}"
        if self.check is not None:
            out += f" CHECK ({self.check})"
        return out


@dataclass(frozen=True, slots=True)
class Log:
    """An append-only log that moves a balance: each of its rows adds ``amount`` to the
    ``column`` of the row of ``table`` whose key is the log row's ``owner`` (the ledger: a
    row's ``delta`` moves the ``coins`` of its ``username``'s profile). A row that would make
    the balance negative is not written at a merge."""

    table: str
    column: str
    owner: str
    amount: str


@dataclass(frozen=True, slots=True)
class Table:
    """One table: its columns, its primary key (what a change names a row by), its other
    unique sets and indexes, and how it is merged. ``unit``: for ``merge="unit"``, the column
    naming the unit (the rows of all unit tables with the same value go together);
    ``number``: a column that holds the number of a unit id minted at a merge (a game table's
    ``seq``); ``identity``: what makes two rows the same at a merge when the key does not (a
    reward is the same by match and player, whatever its row number)."""

    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    unique: tuple[tuple[str, ...], ...] = ()
    #: (index name, columns, WHERE clause or "")
    indexes: tuple[tuple[str, str, str], ...] = ()
    merge: TableMerge = "rows"
    unit: str | None = None
    number: str | None = None
    identity: tuple[str, ...] | None = None
    log: Log | None = None
    #: whether the key is SQLite's rowid (``INTEGER PRIMARY KEY``): rows appended elsewhere
    #: get new numbers
    rowid: bool = False
    names: tuple[str, ...] = field(init=False)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = tuple(c.name for c in self.columns)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(names)})
        missing = [k for k in (*self.key, *(self.identity or ()), self.unit or self.key[0])
                   if k not in names]
        if missing or not self.key:
            raise SchemaError(f"table {self.name}: key columns {missing} are not declared")
        if self.merge == "unit" and self.unit is None:
            raise SchemaError(f"table {self.name}: a unit table names its unit column")

    @property
    def replicated(self) -> bool:
        return self.merge != "local"

    def column(self, name: str) -> Column:
        return self.columns[self._index[name]]

    def at(self, name: str) -> int:
        """The position of a column in a row."""
        return self._index[name]

    def key_of(self, row: Sequence[Any]) -> list[Any]:
        return [row[self._index[k]] for k in self.key]

    def identity_of(self, row: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(row[self._index[k]] for k in (self.identity or self.key))

    # --- SQL made from the declaration -------------------------------------------------------

    def ddl(self) -> list[str]:
        if self.rowid:
            cols = [f"{self.key[0]} INTEGER PRIMARY KEY"] + [
                c.ddl() for c in self.columns if c.name != self.key[0]]
            parts = cols
        else:
            parts = [c.ddl() for c in self.columns] + [f"PRIMARY KEY ({', '.join(self.key)})"]
        parts += [f"UNIQUE ({', '.join(u)})" for u in self.unique]
        out = [f"CREATE TABLE IF NOT EXISTS {self.name} ({', '.join(parts)})"]
        for index, on, where in self.indexes:
            out.append(f"CREATE INDEX IF NOT EXISTS {index} ON {self.name} ({on})"
                       + (f" WHERE {where}" if where else ""))
        return out

    @property
    def select_all(self) -> str:
        return f"SELECT {', '.join(self.names)} FROM {self.name} ORDER BY {', '.join(self.key)}"

    def select_where(self, column: str) -> str:
        """Every row whose ``column`` is the one parameter, in key order."""
        return (f"SELECT {', '.join(self.names)} FROM {self.name} WHERE {column} = ? "
                f"ORDER BY {', '.join(self.key)}")

    @property
    def select_one(self) -> str:
        where = " AND ".join(f"{k} = ?" for k in self.key)
        return f"SELECT {', '.join(self.names)} FROM {self.name} WHERE {where}"

    @property
    def insert(self) -> str:
        """``INSERT OR REPLACE`` of a whole row, in declared order."""
        marks = ", ".join("?" for _ in self.names)
        return f"INSERT OR REPLACE INTO {self.name} ({', '.join(self.names)}) VALUES ({marks})"

    @property
    def delete(self) -> str:
        where = " AND ".join(f"{k} = ?" for k in self.key)
        return f"DELETE FROM {self.name} WHERE {where}"

    def triggers(self) -> list[str]:
        """The capture's temporary triggers: each writes the keys a statement touched."""
        def keys(of: str) -> str:
            return f"json_array({', '.join(f'{of}.{k}' for k in self.key)})"

        into = f"INSERT INTO {CHANGED} (tbl, k) VALUES ('{self.name}', "
        return [
            f"CREATE TEMP TRIGGER IF NOT EXISTS _cap_{self.name}_i AFTER INSERT ON "
            f"main.{self.name} BEGIN {into}{keys('NEW')}); END",
            f"CREATE TEMP TRIGGER IF NOT EXISTS _cap_{self.name}_u AFTER UPDATE ON "
            f"main.{self.name} BEGIN {into}{keys('OLD')}); {into}{keys('NEW')}); END",
            f"CREATE TEMP TRIGGER IF NOT EXISTS _cap_{self.name}_d AFTER DELETE ON "
            f"main.{self.name} BEGIN {into}{keys('OLD')}); END",
        ]

    # --- checking what a peer sent -----------------------------------------------------------

    def check_row(self, row: Any) -> list[Any]:
        """``row`` as a list of this table's columns, each value of its column's type;
        SchemaError otherwise."""
        if not isinstance(row, list | tuple) or len(row) != len(self.columns):
            raise SchemaError(f"a row of {self.name} must have {len(self.columns)} values")
        for col, value in zip(self.columns, row, strict=True):
            _check_value(self.name, col, value)
        return list(row)

    def check_key(self, key: Any) -> list[Any]:
        if not isinstance(key, list | tuple) or len(key) != len(self.key):
            raise SchemaError(f"a key of {self.name} must have {len(self.key)} values")
        for name, value in zip(self.key, key, strict=True):
            col = self.column(name)
            if value is None:
                raise SchemaError(f"{self.name}.{name}: a key value may not be null")
            _check_value(self.name, col, value)
        return list(key)


def unit_of(value: Any) -> str:
    """The unit a ``scope`` column's value names: what comes before its first ``.`` or ``/``
    (a stake's key ``t3.ab12`` and a payout's ``t3.ab12/r2`` are both table ``t3``'s)."""
    text = str(value)
    for mark in "./":
        text = text.split(mark, 1)[0]
    return text


def _check_value(table: str, col: Column, value: Any) -> None:
    if value is None:
        if not col.null:
            raise SchemaError(f"{table}.{col.name} may not be null")
        return
    if isinstance(value, bool) or not isinstance(value, _TYPES[col.type]):
        raise SchemaError(f"{table}.{col.name} holds {col.type}, not "
                          f"{type(value).__name__}")


@dataclass(frozen=True, slots=True)
class Schema:
    """One file's declared tables. ``application_id`` and ``version`` are the file's
    ``PRAGMA application_id`` and ``user_version`` (0: none is set)."""

    name: str
    tables: tuple[Table, ...]
    application_id: int = 0
    version: int = 0
    by_name: dict[str, Table] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {t.name: t for t in self.tables})

    @property
    def replicated(self) -> tuple[Table, ...]:
        return tuple(t for t in self.tables if t.replicated)

    def table(self, name: Any) -> Table:
        """The replicated table ``name``; SchemaError for any other name (a local table, one
        this schema does not declare, anything that is not a plain name)."""
        found = self.by_name.get(name) if isinstance(name, str) else None
        if found is None or not found.replicated:
            raise SchemaError(f"{self.name} has no replicated table {str(name)[:40]!r}")
        return found

    def create(self, db: sqlite3.Connection) -> None:
        """Every declared table and index made where missing."""
        for table in self.tables:
            for sql in table.ddl():
                db.execute(sql)

    # --- changes -----------------------------------------------------------------------------

    def check(self, changes: Any) -> list[Change]:
        """``changes`` as a peer sent them, checked against this schema; SchemaError for the
        first that it does not allow (nothing is written then)."""
        if not isinstance(changes, list):
            raise SchemaError("changes must be a list")
        out: list[Change] = []
        for change in changes:
            if not isinstance(change, list | tuple) or len(change) != 3:
                raise SchemaError("a change is [table, key, row or null]")
            name, key, row = change
            table = self.table(name)
            key = table.check_key(key)
            if row is not None:
                row = table.check_row(row)
                if table.key_of(row) != key:
                    raise SchemaError(f"a row of {table.name} under another key")
            out.append((table.name, key, row))
        return out

    def put(self, db: sqlite3.Connection, changes: Iterable[Change]) -> None:
        """Checked changes written, each with the statement this schema makes for it."""
        for name, key, row in changes:
            table = self.by_name[name]
            if row is None:
                db.execute(table.delete, key)
            else:
                db.execute(table.insert, row)

    # --- snapshots ---------------------------------------------------------------------------

    def dump(self, db: sqlite3.Connection, size: int) -> Iterator[tuple[str, list[list[Any]]]]:
        """(table, rows) pieces of every replicated table, each piece about ``size`` bytes at
        most (a row larger than that is a piece alone); a table without rows is one empty
        piece, so the copy knows it was sent."""
        for table in self.replicated:
            rows: list[list[Any]] = []
            used = 0
            for row in db.execute(table.select_all):
                weight = sum(len(v) if isinstance(v, bytes | str) else 8 for v in row) + 8
                if rows and used + weight > size:
                    yield table.name, rows
                    rows, used = [], 0
                rows.append(list(row))
                used += weight
            yield table.name, rows

    def load(self, db: sqlite3.Connection, name: Any, rows: Any) -> int:
        """A snapshot's piece checked and written (inside the caller's transaction); the
        number of rows."""
        table = self.table(name)
        if not isinstance(rows, list):
            raise SchemaError("a snapshot's rows must be a list")
        checked = [table.check_row(r) for r in rows]
        db.executemany(table.insert, checked)
        return len(checked)


class Journal(Protocol):
    """Where a file's transactions go, numbered in the order they are handed over to be
    committed (a standby's stream: net/peers/replica.py)."""

    def reserve(self, file: str) -> int:
        """The next number, for a transaction of ``file`` about to be committed."""

    def fill(self, seq: int, changes: list[Change]) -> None:
        """What transaction ``seq`` changed, once it committed (from any thread)."""


class Capture:
    """What the transactions of one connection change, as row images (module docstring).

    ``install`` makes the temporary table and triggers (nothing is captured before: a host
    without a standby pays nothing); ``take``, inside the transaction, before its commit,
    returns the changes it made since the last ``take`` and forgets them."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.on = False

    def install(self, db: sqlite3.Connection) -> None:
        if self.on:
            return
        db.execute("PRAGMA recursive_triggers = ON")    # REPLACE's deletes fire too
        db.execute(f"CREATE TEMP TABLE IF NOT EXISTS {CHANGED} (tbl TEXT NOT NULL, "
                   "k TEXT NOT NULL)")
        for table in self.schema.replicated:
            for sql in table.triggers():
                db.execute(sql)
        self.on = True

    def remove(self, db: sqlite3.Connection) -> None:
        if not self.on:
            return
        for table in self.schema.replicated:
            for op in "iud":
                db.execute(f"DROP TRIGGER IF EXISTS temp._cap_{table.name}_{op}")
        db.execute(f"DROP TABLE IF EXISTS temp.{CHANGED}")
        self.on = False

    def take(self, db: sqlite3.Connection) -> list[Change]:
        if not self.on:
            return []
        seen = db.execute(f"SELECT tbl, k FROM temp.{CHANGED} GROUP BY tbl, k "
                          "ORDER BY min(rowid)").fetchall()
        if not seen:
            return []
        db.execute(f"DELETE FROM temp.{CHANGED}")
        out: list[Change] = []
        by_name = self.schema.by_name
        for name, raw in seen:
            table = by_name[name]
            key = json.loads(raw)
            row = db.execute(table.select_one, key).fetchone()
            out.append((name, key, None if row is None else list(row)))
        return out
