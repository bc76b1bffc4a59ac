"""What the failover benchmarks share: reading a host's files while it runs (read only), the
ledger's audit, and the payouts of a table's rounds.

bench/failover.py (a host and its standby on 127.0.0.1) and bench/faults.py (three peers in
network namespaces, under a schedule of faults) both judge a run by what the host serving at
its end keeps: each table's game as its row saved it plus the moves played since (the store's
tail, net/store.py), the ledger's audit (core/economy/ledger.py) and how many times each
table's rounds were paid.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)


def _restored(save: bytes, tail: list[tuple[int, bytes]], catalog: Any) -> Any:
    """The game of a row's ``save`` with the ``tail`` of moves after it played again."""
    import msgpack

    from cardparty.core.contract import Move
    from cardparty.core.table import Table

    table = Table.restore(save, catalog)
    for version, entry in tail:
        seat, kind, cards, choice, *_ = msgpack.unpackb(entry, raw=False)
        if version > table.version:
            table.play(seat, Move(kind, tuple(cards), choice))
    return table


def kept(data: Path, table_id: str) -> Any:
    """The table as the store in ``data`` keeps it now (read only: a host runs on it)."""
    return kept_tables(data, [table_id]).get(table_id)


def kept_tables(data: Path, ids: list[str] | None = None) -> dict[str, Any]:
    """Every table the store in ``data`` keeps now (or those of ``ids`` it keeps), each
    restored from its row and the moves after it, read in one transaction: the host may save
    a table (and cut its moves) between two reads, and an older row with the newer moves does
    not replay."""
    from cardparty.core.discovery import load_catalog

    catalog = load_catalog()
    db = _read_only(data / "host.sqlite3")
    try:
        db.execute("BEGIN")
        rows = db.execute("SELECT id, save FROM tables").fetchall()
        out = {}
        for tid, save in rows:
            if ids is not None and tid not in ids:
                continue
            tail = db.execute("SELECT version, entry FROM moves WHERE table_id = ? "
                              "ORDER BY version", (tid,)).fetchall()
            out[tid] = _restored(save, tail, catalog)
        return out
    finally:
        db.close()


def economy_keys(data: Path) -> dict[str, str]:
    """Each kept table's key in the ledger (its payouts are ``KEY/...``)."""
    import msgpack

    db = _read_only(data / "host.sqlite3")
    try:
        out = {}
        for tid, meta in db.execute("SELECT id, meta FROM tables"):
            eco = msgpack.unpackb(meta, raw=False, strict_map_key=False).get("economy")
            if eco and eco[1]:
                out[tid] = str(eco[1])
        return out
    finally:
        db.close()


def epoch_of(data: Path) -> int:
    """The generation the store in ``data`` was last written by (1: never another)."""
    try:
        db = _read_only(data / "host.sqlite3")
    except sqlite3.Error:
        return 0
    try:
        row = db.execute("SELECT value FROM info WHERE key = 'epoch'").fetchone()
        return int(row[0]) if row and isinstance(row[0], int) and row[0] > 0 else 1
    except sqlite3.Error:
        return 0
    finally:
        db.close()


def payouts_by_key(data: Path, key: str) -> int:
    """How many times the ledger in ``data`` paid the rounds of the table whose key is
    ``key``."""
    eco = _read_only(data / "economy.sqlite3")
    try:
        return int(eco.execute("SELECT COUNT(*) FROM payouts WHERE match_id LIKE ?",
                               (f"{key}/%",)).fetchone()[0])
    finally:
        eco.close()


def payouts_of(data: Path, table_id: str) -> int:
    """How many times the ledger in ``data`` paid the table's rounds (its key's payouts)."""
    key = economy_keys(data).get(table_id)
    return 0 if key is None else payouts_by_key(data, key)


def audit_holds(data: Path) -> bool:
    """The audit of the ledger in ``data`` holds (read only)."""
    from cardparty.core.economy.ledger import EconomyError, Ledger

    ledger = Ledger.read_only(data / "economy.sqlite3")
    try:
        ledger.audit()
        return True
    except EconomyError:
        return False
    finally:
        ledger.close()


def ledger_rows(data: Path) -> list[tuple[Any, ...]]:
    db = _read_only(data / "economy.sqlite3")
    try:
        return db.execute("SELECT id, at, username, delta, reason, ref FROM ledger "
                          "ORDER BY id").fetchall()
    finally:
        db.close()


def coins_in_play(rows: list[tuple[Any, ...]]) -> int:
    """The coins in play (balances and stakes held) the ledger's ``rows`` account for:
    minted less spent (what the audit checks balances and stakes against)."""
    from cardparty.core.economy.ledger import BURNED, MINTED

    return sum(r[3] for r in rows if r[4] in MINTED or r[4] in BURNED)
