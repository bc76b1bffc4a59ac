"""The heal after a split: what the host of the lower epoch did after the fork, carried into
the files of the host of the higher one (docs/protocol.md, "No split brain").

When the link between a host and its standby is cut while both live, and players on each
side keep playing, each side serves only tables no player of the other side may be told of
(the host, tables whose players all heard it drop its standby; the standby, tables a player
of which followed it), so the tables each side moved after the fork are disjoint. At the heal
the lower epoch hands its files over, and ``heal`` writes into the winner's what the loser
changed since the fork point (the copy the standby took over from), comparing three states
row by row:

- a table the loser changed and the winner did not: the loser's rows (it served it: its
  players were told); a table both changed: the winner's (the loser held it: nobody was
  told of its changes there), and the loser's coins for it are left out with it; a table both
  made with the same id: the loser's under a new id;
- players, names bound and tables set aside that the winner lacks; a name both sides bound to
  different keys stays the winner's, and the loser's claimant is renamed ``name·2`` (his
  seats, coins, XP and league points follow him: no coin is lost);
- the ledger as changes, not states: every ledger row the loser wrote since the fork is
  written again (balances move by the rows, so the books still add up: ``Ledger.audit``),
  XP and league points by what the loser added, boosters to the later end, payouts and
  stakes the winner lacks.

Must not know about: sockets, the protocol, how tables play (a table is its rows; its meta is
read only for its players' handles and its ledger key), when a heal happens.
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

from cardparty.net.owners import identity
from cardparty.net.replica import ECONOMY, FILE_NAMES, HOST
from cardparty.net.safetext import name_folds

#: The mark a renamed claimant's name gets (then a number).
RENAMED = "·"


@dataclass
class Healed:
    """What a heal did (the log says it; the tests check it)."""

    taken: list[str] = field(default_factory=list)
    renamed_tables: dict[str, str] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)
    players: int = 0
    renamed_names: dict[str, str] = field(default_factory=dict)
    ledger_rows: int = 0
    skipped_rows: int = 0


#: Where a host that took over keeps its fork point, in its data directory, until a heal or
#: until it is sure no other host serves.
FORKPOINT = "forkpoint"


def keep_forkpoint(directory: str | Path, images: dict[str, bytes]) -> None:
    """The fork point's images written beside the host's files (mode 0600): they outlive a
    restart of the host that took over."""
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
    """A database image (``serialize``) opened in memory. An image of a file in WAL mode
    says so in its header (bytes 18 and 19), which a database in memory cannot be: it is
    read as a file without a log (the image holds every page)."""
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


def heal(winner: str | Path, forkpoint: dict[str, bytes], loser: dict[str, bytes]) -> Healed:
    """Carry what ``loser`` (its files' images) changed since ``forkpoint`` into the files
    in the directory ``winner`` (no host may have them open). See the module docstring."""
    out = Healed()
    f_host, l_host = image(forkpoint[HOST]), image(loser[HOST])
    w_host = sqlite3.connect(Path(winner) / FILE_NAMES[HOST], isolation_level=None)
    f_eco = image(forkpoint[ECONOMY]) if ECONOMY in forkpoint else None
    l_eco = image(loser[ECONOMY]) if ECONOMY in loser else None
    eco_path = Path(winner) / FILE_NAMES[ECONOMY]
    w_eco = sqlite3.connect(eco_path, isolation_level=None) if eco_path.exists() else None
    try:
        names = _rename_claimants(f_host, l_host, w_host, l_eco, out)
        left_out = _tables(f_host, l_host, w_host, out)
        with _tx(w_host):
            _players(l_host, w_host, out)
            _owners(l_host, w_host)
            for row in l_host.execute("SELECT id, seq, meta, save, why FROM aside"):
                if w_host.execute("SELECT 1 FROM aside WHERE id = ? AND why = ?",
                                  (row[0], row[4])).fetchone() is None:
                    w_host.execute("INSERT INTO aside VALUES (?, ?, ?, ?, ?)", row)
        if f_eco is not None and l_eco is not None and w_eco is not None:
            _ledger(f_eco, l_eco, w_eco, left_out, out)
        out.renamed_names.update(names)
        return out
    finally:
        for db in (f_host, l_host, w_host, f_eco, l_eco, w_eco):
            if db is not None:
                db.close()


# --- tables ------------------------------------------------------------------------------------

def _rows(db: sqlite3.Connection, tid: str) -> tuple[Any, ...] | None:
    row = db.execute("SELECT seq, meta, save FROM tables WHERE id = ?", (tid,)).fetchone()
    moves = db.execute("SELECT version, entry FROM moves WHERE table_id = ? ORDER BY version",
                       (tid,)).fetchall()
    if row is None and not moves:
        return None
    return (row, tuple(moves))


def _ids(db: sqlite3.Connection) -> set[str]:
    return {t for (t,) in db.execute("SELECT id FROM tables UNION SELECT table_id FROM moves")}


def _ledger_key(meta: bytes | None) -> str | None:
    if meta is None:
        return None
    try:
        eco = msgpack.unpackb(meta, raw=False, strict_map_key=False).get("economy")
        return str(eco[1]) if eco and eco[1] else None
    except Exception:
        return None


def _tables(f: sqlite3.Connection, lose: sqlite3.Connection, win: sqlite3.Connection,
            out: Healed) -> set[str]:
    """Each table the loser changed since the fork, carried over or left out; the ledger
    keys of the tables left out (their coins stay out too)."""
    left_out: set[str] = set()
    f_ids, w_ids = _ids(f), _ids(win)
    top = max([s for (s,) in win.execute("SELECT seq FROM tables")]
              + [s for (s,) in lose.execute("SELECT seq FROM tables")] + [0])
    with _tx(win):
        for tid in sorted(_ids(lose) | f_ids):
            before, theirs = _rows(f, tid), _rows(lose, tid)
            if theirs == before:
                continue
            ours = _rows(win, tid)
            if ours == before:
                _put(win, tid, theirs)
                out.taken.append(tid)
            elif tid in f_ids:
                out.kept.append(tid)
                key = _ledger_key(theirs[0][1] if theirs and theirs[0] else None)
                if key:
                    left_out.add(key)
            elif theirs is not None:
                top += 1
                new = f"t{top}"
                while new in w_ids:
                    top += 1
                    new = f"t{top}"
                row, moves = theirs
                _put(win, new, ((top, *row[1:]) if row else None, moves))
                out.renamed_tables[tid] = new
    return left_out


def _put(db: sqlite3.Connection, tid: str, rows: tuple[Any, ...] | None) -> None:
    db.execute("DELETE FROM tables WHERE id = ?", (tid,))
    db.execute("DELETE FROM moves WHERE table_id = ?", (tid,))
    if rows is None:
        return
    row, moves = rows
    if row is not None:
        db.execute("INSERT INTO tables (id, seq, meta, save) VALUES (?, ?, ?, ?)",
                   (tid, *row))
    db.executemany("INSERT INTO moves (table_id, version, entry) VALUES (?, ?, ?)",
                   [(tid, v, e) for v, e in moves])


# --- players and names -------------------------------------------------------------------------

def _players(lose: sqlite3.Connection, win: sqlite3.Connection, out: Healed) -> None:
    ids = {i for (i,) in win.execute("SELECT id FROM players")}
    top = max([int(i[1:]) for i in ids if i[1:].isdigit()] + [0])
    for token, pid, name in lose.execute("SELECT token, id, name FROM players"):
        if win.execute("SELECT 1 FROM players WHERE token = ?", (token,)).fetchone():
            continue
        if pid in ids:
            top += 1
            pid = f"p{top}"
        ids.add(pid)
        win.execute("INSERT INTO players (token, id, name) VALUES (?, ?, ?)", (token, pid, name))
        out.players += 1


def _owners(lose: sqlite3.Connection, win: sqlite3.Connection) -> None:
    """The loser's bindings the winner lacks, as the loser has them (whether the name played,
    when its key was last seen: a name that never played is released in time, issue 25); a
    binding both keep to the same key has played if either says so, and was seen when either
    last saw it."""
    win.executemany(
        "INSERT INTO owners (name_key, key, name, played, seen) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (name_key) DO UPDATE SET played = max(played, excluded.played), "
        "seen = max(seen, excluded.seen) WHERE key = excluded.key",
        lose.execute("SELECT name_key, key, name, played, seen FROM owners").fetchall())


def _rename_claimants(f: sqlite3.Connection, lose: sqlite3.Connection,
                      win: sqlite3.Connection, l_eco: sqlite3.Connection | None,
                      out: Healed) -> dict[str, str]:
    """Names both sides bound since the fork to different keys: the winner's binding stays;
    in the loser's copies its claimant is renamed (``name·2``) everywhere his name or his
    handle is: owners, players, the tables' records, the ledger."""
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
        for table, column in (("profiles", "username"), ("ledger", "username"),
                              ("league", "username"), ("stakes", "username")):
            eco.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))


def _renamed_in(record: dict[str, Any], before: str, after: str, old: str, new: str) -> bool:
    """A table's record with one player's handle and name changed; whether anything was."""
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


# --- the ledger --------------------------------------------------------------------------------

def _scoped(ref: str, keys: set[str]) -> bool:
    return any(ref == k or ref.startswith(k + "/") for k in keys)


def _ledger(f: sqlite3.Connection, lose: sqlite3.Connection, win: sqlite3.Connection,
            left_out: set[str], out: Healed) -> None:
    """The loser's ledger changes since the fork, as changes (module docstring)."""
    top = f.execute("SELECT COALESCE(MAX(id), 0) FROM ledger").fetchone()[0]
    f_profiles = {u: (xp, g, v) for u, xp, g, v in f.execute(
        "SELECT username, xp, gold_until, vip_until FROM profiles")}
    with _tx(win):
        for username, key, xp, gold, vip in lose.execute(
                "SELECT username, public_key, xp, gold_until, vip_until FROM profiles"):
            fxp, _g, _v = f_profiles.get(username, (0, 0.0, 0.0))
            if win.execute("SELECT 1 FROM profiles WHERE username = ?",
                           (username,)).fetchone() is None:
                win.execute("INSERT INTO profiles (username, public_key, coins) "
                            "VALUES (?, ?, 0)", (username, key))
            win.execute("UPDATE profiles SET xp = xp + ?, gold_until = MAX(gold_until, ?), "
                        "vip_until = MAX(vip_until, ?) WHERE username = ?",
                        (max(0, xp - fxp), gold, vip, username))
        for at, username, delta, reason, ref in lose.execute(
                "SELECT at, username, delta, reason, ref FROM ledger WHERE id > ? ORDER BY id",
                (top,)).fetchall():
            if _scoped(ref, left_out):
                out.skipped_rows += 1
                continue
            moved = win.execute("UPDATE profiles SET coins = coins + ? WHERE username = ? "
                                "AND coins + ? >= 0", (delta, username, delta)).rowcount
            if moved != 1:
                out.skipped_rows += 1
                continue
            win.execute("INSERT INTO ledger (at, username, delta, reason, ref) "
                        "VALUES (?, ?, ?, ?, ?)", (at, username, delta, reason, ref))
            out.ledger_rows += 1
        f_league = {(w, u): p for w, u, p in f.execute(
            "SELECT week, username, points FROM league")}
        for week, username, points in lose.execute("SELECT week, username, points FROM league"):
            added = points - f_league.get((week, username), 0)
            if added > 0:
                win.execute("INSERT INTO league (week, username, points) VALUES (?, ?, ?) "
                            "ON CONFLICT (week, username) DO UPDATE SET "
                            "points = points + excluded.points", (week, username, added))
        for match_id, at, mode in lose.execute("SELECT match_id, at, mode FROM payouts"):
            if not _scoped(match_id, left_out):
                win.execute("INSERT OR IGNORE INTO payouts (match_id, at, mode) VALUES "
                            "(?, ?, ?)", (match_id, at, mode))
        f_stakes = set(f.execute("SELECT table_id, username, amount, state FROM stakes"))
        for row in lose.execute("SELECT table_id, username, amount, state FROM stakes"):
            if row not in f_stakes and not _scoped(row[0], left_out):
                win.execute("INSERT OR REPLACE INTO stakes (table_id, username, amount, state) "
                            "VALUES (?, ?, ?, ?)", row)
