"""The replication stream (net/peers/replica.py) over real SQLite files: a random workload of the
store's and the ledger's own writes, in random batches, with the store's writer on or off,
the stream started at a random point; the replica, fed the snapshot's rows and every record
through msgpack as the wire carries them, ends with files equal to the host's, row for row,
and its ledger's audit holds. Also: a gap in the stream is refused, a record sent again is
skipped, and a change the declared schema does not allow (a table it does not declare, a local
one, a row of the wrong shape or type, SQL where a name should be) is refused before anything
is written."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardparty.core.economy.ledger import EconomyError, Ledger
from cardparty.net.peers.replica import (
    ECONOMY,
    HOST,
    Record,
    Replica,
    ReplicaError,
    Snapshot,
    Stream,
    read_records,
    wire_records,
)
from cardparty.net.store import Store

USERS = [f"u{i}" for i in range(5)]
TABLES = [f"t{i}" for i in range(6)]


def rows(db: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but ``info`` (each side's own count of commits), in order."""
    names = [n for (n,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'info' ORDER BY name")]
    out = {}
    for name in names:
        width = len(db.execute(f"SELECT * FROM {name} LIMIT 0").description)
        order = ", ".join(str(i + 1) for i in range(width))
        out[name] = list(db.execute(f"SELECT * FROM {name} ORDER BY {order}"))
    return out


def over_the_wire(records: list[Record]) -> list[Record]:
    packed = msgpack.packb(wire_records(records), use_bin_type=True)
    return read_records(msgpack.unpackb(packed, raw=False))


def send_snapshot(snap: Snapshot, replica: Replica) -> None:
    replica.begin(snap.stream, snap.seq, list(snap.files))
    for file, table, rows_ in snap.pieces:
        packed = msgpack.packb(rows_, use_bin_type=True)
        replica.piece(file, table, msgpack.unpackb(packed, raw=False))
    replica.end()


def store_write(rng: random.Random, store: Store, n: int) -> None:
    what = rng.randrange(8)
    tid = rng.choice(TABLES)
    if what <= 1:
        store.put_table(tid, n, msgpack.packb({"n": n, "x": rng.random()}),
                        rng.randbytes(rng.randrange(300)))
    elif what <= 3:
        store.add_moves([(rng.choice(TABLES), n * 10 + i, rng.randbytes(8))
                         for i in range(rng.randrange(1, 4))])
    elif what == 4:
        store.drop_moves(tid)
    elif what == 5:
        store.drop_table(tid)
    elif what == 6:
        user = rng.choice(USERS)
        store.put_player(f"tok-{user}", f"p{n}", user)
        if rng.random() < 0.3:
            store.drop_player(f"tok-{rng.choice(USERS)}")
    else:
        # A name bound, seen, played, released (issue 25's columns ``played`` and ``seen``):
        # the standby's copy of ``owners`` is the host's, so its releases are the host's.
        user = rng.choice(USERS)
        kind = rng.randrange(4)
        if kind <= 1:
            store.put_owner(user, f"key-{rng.randrange(3)}".encode(), user, n + rng.random())
        elif kind == 2:
            store.owner_seen(user, n + rng.random(), rng.random() < 0.5)
        else:
            store.drop_owner(user)


def ledger_write(rng: random.Random, ledger: Ledger, n: int) -> None:
    user = rng.choice(USERS)
    table = rng.choice(TABLES)
    try:
        what = rng.randrange(6)
        if what == 0:
            ledger.enter(user, f"key-{user}")
        elif what == 1:
            ledger.buy(user, rng.choice(("gold", "vip")))
        elif what == 2:
            ledger.take_stake(table, user, 100)
        elif what == 3:
            ledger.refund_stake(table, user)
        elif what == 4:
            ledger.refund_table(table)
        else:
            seats: list[str | None] = [rng.choice(USERS), None, rng.choice(USERS)]
            ledger.pay_result(f"m{n % 7}", rng.choice(("open", "friends")), seats,
                              [1, 2, rng.choice((2, 3))], table_id=table)
    except EconomyError:
        pass                    # refused: rolled back, nothing to replicate


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), batches=st.integers(5, 60), start_at=st.integers(0, 20),
       writer=st.booleans(), chunk=st.sampled_from([64, 4096, 1 << 20]))
def test_the_replica_equals_the_host_after_a_random_workload(
        tmp_path_factory: pytest.TempPathFactory, seed: int, batches: int, start_at: int,
        writer: bool, chunk: int) -> None:
    rng = random.Random(seed)
    base = tmp_path_factory.mktemp("r")
    store = Store(base / "host")
    ledger = Ledger(base / "host" / "economy.sqlite3")
    if writer:
        store.start_writer(lambda: None)
        ledger.defer_sync()
    stream = Stream(store, ledger)
    replica = Replica(base / "standby")
    try:
        for u in USERS[:3]:
            ledger.enter(u, f"key-{u}")
        for n in range(batches):
            if n == start_at:
                stream.start()
                send_snapshot(stream.snapshot(chunk), replica)
            with store.batch():
                for _ in range(rng.randrange(4)):
                    ledger_write(rng, ledger, n)
                if writer and ledger.unsynced:      # a payout's sync first, as the host does
                    ledger.unsynced = False
                    store.before(ledger.sync)
                for _ in range(rng.randrange(5)):
                    store_write(rng, store, n)
            if stream.on and replica.seq is not None:
                batch = stream.after(replica.seq)
                assert batch is not None
                replica.apply(over_the_wire(batch))
        if not stream.on:
            stream.start()
            send_snapshot(stream.snapshot(chunk), replica)
        store.drain()
        batch = stream.after(replica.seq or 0)
        assert batch is not None
        replica.apply(over_the_wire(batch))
        assert replica.seq == stream.seq
        copies = {HOST: sqlite3.connect(replica.path(HOST)),
                  ECONOMY: sqlite3.connect(replica.path(ECONOMY))}
        assert rows(copies[HOST]) == rows(store.db)
        assert rows(copies[ECONOMY]) == rows(ledger.db)
        for db in copies.values():
            db.close()
        replica.close()
        Ledger(replica.path(ECONOMY)).audit()
    finally:
        replica.close()
        store.close()
        ledger.close()


def test_a_copy_opens_as_a_host_store_that_was_closed_cleanly(tmp_path: Path) -> None:
    store = Store(tmp_path / "host")
    store.put_table("t1", 1, msgpack.packb({"a": 1}), b"save")
    replica = Replica(tmp_path / "standby")
    send_snapshot(Stream(store, None).snapshot(7), replica)
    replica.close()
    store.close()
    copy = Store(tmp_path / "standby")
    try:
        assert copy.warnings == []
        assert copy.tables() == [("t1", 1, msgpack.packb({"a": 1}), b"save")]
        assert (tmp_path / "standby").stat().st_mode & 0o777 == 0o700
        assert replica.path(HOST).stat().st_mode & 0o777 == 0o600
    finally:
        copy.close()


def test_a_gap_is_refused_and_a_record_sent_again_is_skipped(tmp_path: Path) -> None:
    store = Store(tmp_path / "host")
    stream = Stream(store, None)
    replica = Replica(tmp_path / "standby")
    try:
        stream.start()
        send_snapshot(stream.snapshot(), replica)
        store.put_player("a", "p1", "Eva")
        store.put_player("b", "p2", "Bob")
        batch = stream.after(0)
        assert batch is not None
        first, second = batch
        with pytest.raises(ReplicaError, match="jumped"):
            replica.apply([second])
        assert replica.apply([first]) == 1
        assert replica.apply([first, second]) == 2, "a record it has is skipped"
        assert stream.after(2) == [] and stream.after(1) == [second]
    finally:
        replica.close()
        store.close()


@pytest.mark.parametrize("changes, why", [
    ([["nowhere", ["a"], None]], "no replicated table"),
    ([["info", ["epoch"], ["epoch", 9]]], "no replicated table"),
    ([["sqlite_master", ["x"], None]], "no replicated table"),
    ([["players; DROP TABLE players", ["a"], None]], "no replicated table"),
    ([["players", ["a"], ["a", "p1"]]], "must have 3 values"),
    ([["players", ["a"], ["a", "p1", 7]]], "holds TEXT"),
    ([["players", ["a"], ["b", "p1", "Eva"]]], "under another key"),
    ([["players", ["a", "b"], None]], "a key of players"),
    ([["moves", ["t1", True], None]], "holds INTEGER"),
    ([["players", ["a"], None], "junk"], "a change is"),
])
def test_a_change_the_schema_does_not_allow_is_refused_and_nothing_is_written(
        tmp_path: Path, changes: list[Any], why: str) -> None:
    with pytest.raises(ReplicaError, match=why):
        read_records([[1, HOST, changes]])
    with pytest.raises(ReplicaError, match="malformed"):
        read_records([[1, "elsewhere", []]])


def test_sql_in_a_value_is_only_data(tmp_path: Path) -> None:
    """A value is bound as a parameter of a statement this side made from its own schema:
    whatever text it holds, it lands as that text in its column."""
    store = Store(tmp_path / "host")
    replica = Replica(tmp_path / "standby")
    try:
        send_snapshot(Stream(store, None).snapshot(), replica)
        evil = f"x'); ATTACH DATABASE '{tmp_path / 'evil.db'}' AS e; --"
        record = read_records([[1, HOST, [["players", [evil], [evil, evil, evil]]]]])
        replica.apply(record)
        replica.close()
        with sqlite3.connect(replica.path(HOST)) as db:
            assert db.execute("SELECT token, id, name FROM players").fetchall() == [
                (evil, evil, evil)]
        assert sorted(p.name for p in (tmp_path / "standby").iterdir()
                      if not p.name.endswith(("-wal", "-shm"))) == ["host.sqlite3"]
        assert not (tmp_path / "evil.db").exists()
    finally:
        replica.close()
        store.close()
