"""A standby whose first contact is a hostile host (docs/security.md, "A standby peer"): the
"host" it trusted on first use answers its hello with snapshots and records built to make it
run something: a file name outside its directory, SQL in a table's name, a statement that
attaches another database (what an earlier standby ran as written), rows for SQLite's own
tables, for the file's local counters, rows of the wrong shape and type. Nothing outside the
standby's copy is created or changed, another program's SQLite file beside it stays as it
was, the copy holds only its declared tables, and SQL inside a value is only that value."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import zmq

from cardparty.net.peers.peer import SNAPSHOT_END, piece, records, welcome
from cardparty.net.peers.standby import Standby
from cardparty.net.store import HOST_SCHEMA
from cardparty.net.trust.guard import Guard, open_router, peer_of
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.address import HostAddress
from cardparty.net.wire.protocol import decode, encode, message


def tree(base: Path) -> dict[str, str]:
    """Every file under ``base`` with a digest of what it holds (the standby's own copy
    aside: it may change, it is the copy)."""
    out = {}
    for path in sorted(base.rglob("*")):
        if path.is_file() and "standby" not in path.relative_to(base).parts:
            out[str(path.relative_to(base))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


class Hostile:
    """A ROUTER over CURVE that answers every ``standby_hello`` with the next of its plans."""

    def __init__(self, plans: list[Any]) -> None:
        self.keys = KeyPair.generate()
        self.ctx: zmq.Context[Any] = zmq.Context()
        self.guard = Guard(self.ctx, self.keys, "evil")
        self.router, self.address = open_router(self.ctx, "tcp://127.0.0.1:0", self.guard)
        self.plans = list(plans)
        self.hellos = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    @property
    def where(self) -> HostAddress:
        return HostAddress("127.0.0.1", int(self.address.rsplit(":", 1)[1]))

    def _run(self) -> None:
        while not self.stopping.is_set():
            if not self.router.poll(20):
                continue
            route = self.router.recv()
            body = self.router.recv(copy=False)
            peer_of(body)
            msg = decode(body.bytes)
            if msg.get("type") != "standby_hello":
                continue
            self.hellos += 1
            session = msg["session"]
            plan = self.plans.pop(0) if self.plans else []
            for frame in plan(session) if callable(plan) else plan:
                self.router.send_multipart([route, encode(frame)])

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.router.close(0)
        self.guard.close()
        self.ctx.destroy(linger=0)


def snapshot(session: int, files: Any, pieces: list[tuple[str, str, Any]]) -> list[Any]:
    return ([welcome(session, 1, "evil", "s1", 0, files)]
            + [piece(session, f, t, rows) for f, t, rows in pieces]
            + [message(SNAPSHOT_END, session=session, seq=0)])


def test_a_hostile_first_contact_changes_nothing_outside_the_copy(tmp_path: Path) -> None:
    victim = tmp_path / "other.sqlite3"             # another program's database, beside it
    with sqlite3.connect(victim) as db:
        db.execute("CREATE TABLE accounts (name TEXT, balance INTEGER)")
        db.execute("INSERT INTO accounts VALUES ('alice', 10)")
    escape = f"COMMIT; ATTACH DATABASE '{victim}' AS x; UPDATE x.accounts SET balance = 0; " \
             f"ATTACH DATABASE '{tmp_path / 'created.db'}' AS y; CREATE TABLE y.t (a); BEGIN"
    token = "a" * 32
    plans: list[Any] = [
        lambda s: snapshot(s, ["host", "../../outside"], []),
        lambda s: snapshot(s, ["host"], [("host", "sqlite_master", [["table", "x", "x", 2,
                                                                     "CREATE TABLE x (a)"]])]),
        lambda s: snapshot(s, ["host"], [("host", escape, [])]),
        lambda s: snapshot(s, ["host"], [("host", "info", [["running", 1]])]),
        lambda s: snapshot(s, ["host"], [("host", "players", [[token, "p1"]])]),
        lambda s: snapshot(s, ["host"], [("host", "players", [[token, 1, "Eva"]])]),
        # At last a snapshot a host could send, a record with SQL in its values, then records
        # built to run something.
        lambda s: snapshot(s, ["host"], [("host", t.name, []) for t in HOST_SCHEMA.replicated])
        + [records("s1", [(1, "host", [("players", [escape], [escape, escape, escape])])]),
           records("s1", [(2, "host", [(escape, [token], None)])])],
        lambda s: [welcome(s, 1, "evil", "s1", 1, None),
                   records("s1", [(2, "economy", [("profiles", ["x"], None)])]),
                   {"v": 1, "type": "records", "stream": "s1",
                    "records": [[2, "host", [["players", ["b"], ["b", "p2", "Bob"]],
                                             [escape, ["b"], None]]]], "replies": []}],
    ]
    evil = Hostile(plans)
    evil.thread.start()
    before = tree(tmp_path)
    standby = Standby(evil.where, evil.keys.public, tmp_path / "standby", KeyPair.generate(),
                      HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0", lost=5.0)
    runner = threading.Thread(target=standby.run, daemon=True)
    runner.start()
    try:
        end = time.monotonic() + 30
        while evil.hellos < len(plans) + 1:
            assert time.monotonic() < end, f"only {evil.hellos} hellos"
            time.sleep(0.02)
        assert runner.is_alive(), "the standby goes on, asking again"
    finally:
        standby.stop()
        runner.join(5)
        evil.close()
    assert tree(tmp_path) == before, "nothing outside the copy was created or changed"
    with sqlite3.connect(victim) as db:
        assert db.execute("SELECT balance FROM accounts").fetchall() == [(10,)]
    assert not (tmp_path / "created.db").exists() and not (tmp_path.parent / "outside").exists()
    copy = tmp_path / "standby" / "host.sqlite3"
    with sqlite3.connect(copy) as db:
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert names == {t.name for t in HOST_SCHEMA.tables}
        assert db.execute("SELECT token, id, name FROM players").fetchall() == [
            (escape, escape, escape)], "SQL in a value is that value, and nothing ran"
