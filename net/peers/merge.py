"""The heal after a split: what the host of the lower epoch did after the fork, carried into
the files of the host of the higher one (docs/protocol.md, "No split brain"), by the merge
policies the schemas declare (core/schema.py): nothing here names a table but the one rule about
names below.

When the link between a host and its standby is cut while both live, and players on each side
keep playing, each side serves only tables no player of the other side may be told of (the
host, tables whose players all heard it drop its standby; the standby, tables whose players
followed it), so the tables each side moved after the fork are disjoint. At the heal the lower
epoch hands its rows over, and ``heal`` writes into the winner's files what the loser changed
since the fork point (the copy the standby took over from), comparing three states:

- ``unit`` tables (a game table: its row and its moves), a unit at a time: a unit the loser
  changed and the winner did not is the loser's (it served it: its players were told); one both
  changed stays the winner's (the loser held it: nobody was told of its changes there), and
  every row whose ``scope`` names it is left out with it (its coins); a unit both made with the
  same id is the loser's under a new one (``mint``, and its ``number``);
- ``rows`` tables, a row at a time by its identity: a row only the loser changed is the
  loser's (a ``mint`` id the winner uses for another row gets a new one; a ``log`` column starts
  from the winner's, or 0); a row both changed stays the winner's, its ``add`` columns given
  what the loser added and its ``max`` columns the larger;
- ``log`` tables (the ledger): every row the loser appended since the fork written again, each
  moving the balance it names, unless its unit was left out or the balance would go below 0
  (the books still add up: ``Ledger.audit``);
- the one rule that is not a column's: a name both sides bound to different keys stays the
  winner's, and the loser's claimant is renamed ``name·2`` first, in every column declared
  ``player`` and in his handle, seats and tables (his coins, seats and league points follow
  him: no coin is lost).

A table added to a schema is merged by its declared policy with no change here
(tests/net/test_merge.py adds one).

Must not know about: sockets, the protocol, how tables play (a table's ``meta`` is read only
for the one rule about names), when a heal happens.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from cardparty.core.schema import Schema, Table, unit_of
from cardparty.net.names.safetext import name_folds
from cardparty.net.peers.replica import ECONOMY, FILE_NAMES, HOST, SCHEMAS
from cardparty.net.store import identity

#: The mark a renamed claimant's name gets (then a number).
RENAMED = "·"


@dataclass
class Healed:
    """What a heal did (the log says it; the tests check it)."""

    taken: list[str] = field(default_factory=list)
    renamed_tables: dict[str, str] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)
    renamed_names: dict[str, str] = field(default_factory=dict)
    #: rows carried in, by table (the loser's rows the winner now has)
    rows: dict[str, int] = field(default_factory=dict)
    ledger_rows: int = 0
    skipped_rows: int = 0

    @property
    def players(self) -> int:
        return self.rows.get("players", 0)


#: Where a host that took over keeps its fork point, in its data directory, until a heal or
#: until it is sure no other host serves.
FORKPOINT = "forkpoint"


def keep_forkpoint(directory: str | Path, images: dict[str, bytes]) -> None:
    """The fork point's images written beside the host's files (mode 0600): they outlive a
    restart of the host that took over. They are this host's own copies, never a peer's."""
    where = Path(directory) / FORKPOINT
    where.mkdir(mode=0o700, exist_ok=True)
    for name, data in images.items():
        fd = os.open(where / FILE_NAMES[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)


def read_forkpoint(directory: str | Path) -> dict[str, bytes] | None:
    """The fork point kept in ``directory`` (None: none)."""
    where = Path(directory) / FORKPOINT
    out = {name: (where / file).read_bytes() for name, file in FILE_NAMES.items()
           if (where / file).exists()}
    return out if HOST in out else None


def drop_forkpoint(directory: str | Path) -> None:
    """No fork any more: the fork point goes."""
    shutil.rmtree(Path(directory) / FORKPOINT, ignore_errors=True)


def image(data: bytes) -> sqlite3.Connection:
    """A database image of this host's own (``serialize``: a fork point) opened in memory. An
    image of a file in WAL mode says so in its header (bytes 18 and 19), which a database in
    memory cannot be: it is read as a file without a log (the image holds every page)."""
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        data = data[:18] + b"\x01\x01" + data[20:]
    db = sqlite3.connect(":memory:")
    db.deserialize(data)
    return db


@contextmanager
def _tx(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    db.execute("BEGIN")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def heal(winner: str | Path, forkpoint: dict[str, bytes],
         loser: dict[str, sqlite3.Connection]) -> Healed:
    """Carry what ``loser`` (its files as copies made from the rows it sent: net/peers/replica.py's
    ``Copies``) changed since ``forkpoint`` (this host's own images) into the files in the
    directory ``winner`` (no host may have them open). See the module docstring."""
    out = Healed()
    forks = {name: image(data) for name, data in forkpoint.items()}
    wins: dict[str, sqlite3.Connection] = {}
    try:
        for name in FILE_NAMES:
            path = Path(winner) / FILE_NAMES[name]
            if path.exists():
                wins[name] = sqlite3.connect(path, isolation_level=None)
        if HOST in loser and HOST in forks and HOST in wins:
            out.renamed_names = _rename_claimants(loser[HOST], wins[HOST], loser.get(ECONOMY))
        left_out: set[str] = set()
        for name in (HOST, ECONOMY):
            if name in loser and name in forks and name in wins:
                Merge(SCHEMAS[name], forks[name], loser[name], wins[name], out,
                      left_out).run()
        return out
    finally:
        for db in (*forks.values(), *wins.values()):
            db.close()


class Merge:
    """One file's three-way merge by its schema's policies (module docstring); ``left_out``
    (units the winner kept, shared between the files: the ledger leaves out what the store
    did) grows as units are found both changed."""

    def __init__(self, schema: Schema, fork: sqlite3.Connection, lose: sqlite3.Connection,
                 win: sqlite3.Connection, out: Healed, left_out: set[str]) -> None:
        self.schema, self.fork, self.lose, self.win = schema, fork, lose, win
        self.out, self.left_out = out, left_out

    def run(self) -> None:
        units = [t for t in self.schema.tables if t.merge == "unit"]
        with _tx(self.win):
            if units:
                self._units(units)
            for table in self.schema.tables:
                if table.merge == "rows":
                    self._rows(table)
            for table in self.schema.tables:
                if table.merge == "log":
                    self._log(table)

    # --- units ---------------------------------------------------------------------------------

    def _unit(self, db: sqlite3.Connection, tables: list[Table], unit: str) -> tuple[Any, ...]:
        return tuple(tuple(tuple(r) for r in db.execute(t.select_where(str(t.unit)), (unit,)))
                     for t in tables)

    @staticmethod
    def _ids(db: sqlite3.Connection, tables: list[Table]) -> set[str]:
        out: set[str] = set()
        for t in tables:
            out.update(str(u) for (u,) in db.execute(f"SELECT DISTINCT {t.unit} FROM {t.name}"))
        return out

    def _units(self, tables: list[Table]) -> None:
        fork, lose, win = self.fork, self.lose, self.win
        f_ids, w_ids = self._ids(fork, tables), self._ids(win, tables)
        head = next((t for t in tables if t.number is not None), None)
        mint = next((c.mint for t in tables for c in t.columns
                     if c.name == t.unit and c.mint), None)
        top = 0
        if head is not None and head.number is not None:
            for db in (win, lose):
                found = db.execute(f"SELECT max({head.number}) FROM {head.name}").fetchone()[0]
                top = max(top, int(found or 0))
        empty = tuple(() for _ in tables)
        for unit in sorted(self._ids(lose, tables) | f_ids):
            before, theirs = self._unit(fork, tables, unit), self._unit(lose, tables, unit)
            if theirs == before:
                continue
            ours = self._unit(win, tables, unit)
            if ours == before:
                self._put_unit(tables, unit, theirs)
                self.out.taken.append(unit)
            elif unit in f_ids:
                self.out.kept.append(unit)
                self.left_out.add(unit)
            elif theirs != empty and mint is not None:
                top += 1
                new = f"{mint}{top}"
                while new in w_ids:
                    top += 1
                    new = f"{mint}{top}"
                w_ids.add(new)
                self._put_unit(tables, new, self._renumbered(tables, theirs, new, top))
                self.out.renamed_tables[unit] = new

    @staticmethod
    def _renumbered(tables: list[Table], rows: tuple[Any, ...], new: str,
                    number: int) -> tuple[Any, ...]:
        out = []
        for t, trows in zip(tables, rows, strict=True):
            u = t.at(t.unit) if t.unit else -1
            n = t.at(t.number) if t.number else -1
            fixed = []
            for r in trows:
                row = list(r)
                row[u] = new
                if n >= 0:
                    row[n] = number
                fixed.append(tuple(row))
            out.append(tuple(fixed))
        return tuple(out)

    def _put_unit(self, tables: list[Table], unit: str, rows: tuple[Any, ...]) -> None:
        for t, trows in zip(tables, rows, strict=True):
            self.win.execute(f"DELETE FROM {t.name} WHERE {t.unit} = ?", (unit,))
            self.win.executemany(t.insert, trows)
            self.out.rows[t.name] = self.out.rows.get(t.name, 0) + len(trows)

    # --- rows ----------------------------------------------------------------------------------

    def _by_identity(self, db: sqlite3.Connection, table: Table) -> dict[tuple[Any, ...],
                                                                         tuple[Any, ...]]:
        return {table.identity_of(r): tuple(r) for r in db.execute(table.select_all)}

    def _scoped_out(self, table: Table, row: tuple[Any, ...] | None) -> bool:
        if row is None:
            return False
        return any(c.scope and unit_of(row[i]) in self.left_out
                   for i, c in enumerate(table.columns))

    def _rows(self, table: Table) -> None:
        fork, lose, win = (self._by_identity(db, table)
                           for db in (self.fork, self.lose, self.win))
        minted = {c.name: c.mint for c in table.columns if c.mint}
        used = {name: {r[table.at(name)] for r in win.values()} for name in minted}
        for ident in sorted(set(lose) | set(fork), key=repr):
            f, lo, w = fork.get(ident), lose.get(ident), win.get(ident)
            if lo == f:
                continue
            if self._scoped_out(table, lo if lo is not None else f):
                self.out.skipped_rows += 1
                continue
            if w == f:
                if lo is None:
                    if w is not None:
                        self._delete(table, w)
                    continue
                row = list(lo)
                for i, col in enumerate(table.columns):
                    if col.merge == "log":
                        row[i] = 0 if w is None else w[i]
                for name, prefix in minted.items():
                    i = table.at(name)
                    if row[i] in used[name] and (w is None or w[i] != row[i]):
                        row[i] = _fresh(prefix, used[name])
                    used[name].add(row[i])
                self._write(table, w, tuple(row))
            elif w is not None and lo is not None:
                row = list(w)
                for i, col in enumerate(table.columns):
                    if col.merge == "add":
                        row[i] = w[i] + lo[i] - (f[i] if f is not None else 0)
                    elif col.merge == "max":
                        row[i] = max(w[i], lo[i])
                if tuple(row) != w:
                    self._write(table, w, tuple(row))

    def _write(self, table: Table, old: tuple[Any, ...] | None, row: tuple[Any, ...]) -> None:
        """``row`` in place of ``old`` (None: a new row; a rowid key gets a new number
        unless the row replaces one the winner has)."""
        if table.rowid:
            key = table.key[0]
            cols = [n for n in table.names if n != key]
            values = [row[table.at(n)] for n in cols]
            if old is not None:
                self.win.execute(f"UPDATE {table.name} SET "
                                 + ", ".join(f"{c} = ?" for c in cols)
                                 + f" WHERE {key} = ?", (*values, old[table.at(key)]))
            else:
                self.win.execute(f"INSERT INTO {table.name} ({', '.join(cols)}) VALUES "
                                 f"({', '.join('?' for _ in cols)})", values)
        else:
            if old is not None and table.key_of(old) != table.key_of(row):
                self._delete(table, old)
            self.win.execute(table.insert, row)
        self.out.rows[table.name] = self.out.rows.get(table.name, 0) + 1

    def _delete(self, table: Table, row: tuple[Any, ...]) -> None:
        self.win.execute(table.delete, table.key_of(row))

    # --- logs ----------------------------------------------------------------------------------

    def _log(self, table: Table) -> None:
        """The loser's rows after the fork's last, written again, each moving its balance."""
        log = table.log
        key = table.key[0]
        top = self.fork.execute(f"SELECT COALESCE(MAX({key}), 0) FROM {table.name}").fetchone()[0]
        cols = [n for n in table.names if n != key]
        owner_key = self.schema.by_name[log.table].key[0] if log is not None else ""
        for row in self.lose.execute(
                f"SELECT {', '.join(cols)} FROM {table.name} WHERE {key} > ? ORDER BY {key}",
                (top,)).fetchall():
            full = dict(zip(cols, row, strict=True))
            if any(c.scope and unit_of(full[c.name]) in self.left_out for c in table.columns
                   if c.name in full):
                self.out.skipped_rows += 1
                continue
            if log is not None:
                amount = full[log.amount]
                moved = self.win.execute(
                    f"UPDATE {log.table} SET {log.column} = {log.column} + ? WHERE "
                    f"{owner_key} = ? AND {log.column} + ? >= 0",
                    (amount, full[log.owner], amount)).rowcount
                if moved != 1:
                    self.out.skipped_rows += 1
                    continue
            self.win.execute(f"INSERT INTO {table.name} ({', '.join(cols)}) VALUES "
                             f"({', '.join('?' for _ in cols)})", row)
            self.out.ledger_rows += 1
            self.out.rows[table.name] = self.out.rows.get(table.name, 0) + 1


def _fresh(prefix: str, used: set[Any]) -> str:
    """The next id of the form ``PREFIX<n>`` that nothing in ``used`` has."""
    top = max([int(str(v)[len(prefix):]) for v in used
               if str(v).startswith(prefix) and str(v)[len(prefix):].isdigit()] + [0])
    return f"{prefix}{top + 1}"


# --- the one rule about names ------------------------------------------------------------------

def _rename_claimants(lose: sqlite3.Connection, win: sqlite3.Connection,
                      l_eco: sqlite3.Connection | None) -> dict[str, str]:
    """Names both sides bound to different keys: the winner's binding stays; in the loser's
    copies its claimant is renamed (``name·2``) everywhere his name or his handle is: owners,
    players, the tables' records, every column of the ledger declared ``player``."""
    renamed: dict[str, str] = {}
    owned: dict[str, str] = {}          # every fold of every name the winner binds -> key
    for _nk, key, name in win.execute("SELECT name_key, key, name FROM owners"):
        for fold in name_folds(name):
            owned[fold] = key
    taken = set(owned)
    for _nk, _key, name in lose.execute("SELECT name_key, key, name FROM owners"):
        taken.update(name_folds(name))
    for _nk, key, name in lose.execute("SELECT name_key, key, name FROM owners").fetchall():
        theirs = {owned[f] for f in name_folds(name) if f in owned}
        if not theirs or theirs == {key}:
            continue
        n = 2
        new = f"{name}{RENAMED}{n}"
        while taken & set(name_folds(new)):
            n += 1
            new = f"{name}{RENAMED}{n}"
        taken.update(name_folds(new))
        _rename(lose, l_eco, key.encode(), name, new)
        renamed[name] = new
    return renamed


def _rename(host: sqlite3.Connection, eco: sqlite3.Connection | None, key: bytes, old: str,
            new: str) -> None:
    before, after = identity(key, old), identity(key, new)
    host.execute("UPDATE owners SET name_key = ?, name = ? WHERE name = ? AND key = ?",
                 (name_folds(new)[0], new, old, key.decode()))
    host.execute("UPDATE players SET token = ?, name = ? WHERE token = ?", (after, new, before))
    for tid, meta in host.execute("SELECT id, meta FROM tables").fetchall():
        record = msgpack.unpackb(meta, raw=False, strict_map_key=False)
        if not _renamed_in(record, before, after, old, new):
            continue
        host.execute("UPDATE tables SET meta = ? WHERE id = ?",
                     (msgpack.packb(record, use_bin_type=True), tid))
    if eco is not None:
        for table in SCHEMAS[ECONOMY].tables:
            for col in table.columns:
                if col.player:
                    eco.execute(f"UPDATE {table.name} SET {col.name} = ? WHERE {col.name} = ?",
                                (new, old))


def _renamed_in(record: dict[str, Any], before: str, after: str, old: str, new: str) -> bool:
    """A table's record with one player's handle and name changed; whether anything was.

    ``record`` is a table's meta as net/host/persistence.py writes it, unpacked from a row
    of a copy: persistence's own map (no shape of it is declared), of which only the
    players' handles and names are read here."""
    changed = False
    for seat in record.get("seats", ()):
        if seat.get("token") == before:
            seat["token"], seat["name"] = after, new
            changed = True
    creator = record.get("creator")
    if creator and creator[0] == before:
        record["creator"] = [after, new]
        changed = True
    spectators = record.get("spectators", [])
    if before in spectators:
        record["spectators"] = [after if t == before else t for t in spectators]
        changed = True
    eco = record.get("economy")
    if eco and old in (eco[4] or []):
        eco[4] = [new if u == old else u for u in eco[4]]
        changed = True
    return changed
