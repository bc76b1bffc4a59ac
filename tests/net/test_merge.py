"""The heal after a split (net/peers/merge.py) on real files: a fork point, then a loser and a
winner that changed things on their own. The winner ends with the tables the loser served,
its own where both changed one (the loser's coins for it left out), both sides' new tables
(the loser's under a new id when both used one), both sides' players, a name claimed on both
sides kept by the winner's key and the loser's claimant renamed with his coins, the names'
release clocks of both (played, last seen), every coin
the loser moved on what it served, and books that add up."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import msgpack

from cardparty.core.economy.ledger import Ledger
from cardparty.net.names.safetext import name_folds
from cardparty.net.peers.merge import heal
from cardparty.net.peers.replica import ECONOMY, HOST, SCHEMAS, Copies
from cardparty.net.store import Store, identity

EVA, BOB = b"E" * 40, b"B" * 40
ZED_WIN, ZED_LOSE = b"W" * 40, b"L" * 40
ADA = b"A" * 40


def meta(key: str, *seated: tuple[bytes, str]) -> bytes:
    """A table's record as the host packs it, with ``seated`` at it."""
    record = {"title": "x", "seats": [{"kind": "human", "token": identity(k, n), "name": n}
                                      for k, n in seated],
              "creator": [identity(*seated[0]), seated[0][1]] if seated else ["", ""],
              "spectators": [], "economy": [0, key, False, False, [n for _, n in seated]]}
    return bytes(msgpack.packb(record, use_bin_type=True))


def images(directory: Path) -> dict[str, bytes]:
    out = {}
    for name, file in ((HOST, "host.sqlite3"), (ECONOMY, "economy.sqlite3")):
        with sqlite3.connect(directory / file) as db:
            out[name] = db.serialize()
    return out


def sent_rows(directory: Path) -> dict[str, sqlite3.Connection]:
    """The loser's files as a heal receives them: their rows, dumped by its schemas and
    loaded into copies in memory (never its files themselves)."""
    copies = Copies([HOST, ECONOMY], None)
    for name, file in ((HOST, "host.sqlite3"), (ECONOMY, "economy.sqlite3")):
        with sqlite3.connect(directory / file) as db:
            for table, rows in SCHEMAS[name].dump(db, 64 * 1024):
                copies.piece(name, table, rows)
    return copies.finish()


def side(base: Path, name: str) -> tuple[Store, Ledger]:
    return Store(base / name), Ledger(base / name / "economy.sqlite3")


def close(store: Store, ledger: Ledger) -> None:
    store.close()
    ledger.close()


def coins(directory: Path, who: str) -> int:
    with sqlite3.connect(directory / "economy.sqlite3") as db:
        return int(db.execute("SELECT coins FROM profiles WHERE username = ?",
                              (who,)).fetchone()[0])


def test_a_heal_keeps_what_each_side_served_and_every_coin(tmp_path: Path) -> None:
    store, ledger = side(tmp_path, "fork")
    for key, who in ((EVA, "Eva"), (BOB, "Bob")):
        store.put_player(identity(key, who), f"p{len(who)}{who[0]}", who)
        store.put_owner(name_folds(who)[0], key, who)
        ledger.enter(who, key.decode())
    store.put_table("t1", 1, meta("t1.aa", (EVA, "Eva")), b"A0")
    store.put_table("t2", 2, meta("t2.bb", (BOB, "Bob")), b"B0")
    close(store, ledger)
    for name in ("win", "lose"):
        shutil.copytree(tmp_path / "fork", tmp_path / name)
    forkpoint = images(tmp_path / "fork")

    store, ledger = side(tmp_path, "lose")           # the old host, beyond the cut
    store.put_table("t1", 1, meta("t1.aa", (EVA, "Eva")), b"A1")   # it served Eva's table
    store.add_moves([("t1", 5, msgpack.packb([0])), ("t1", 6, msgpack.packb([1]))])
    store.put_table("t2", 2, meta("t2.bb", (BOB, "Bob")), b"B-lost")  # held: never told
    store.put_table("t3", 3, meta("t3.cc", (ZED_LOSE, "Zed")), b"C-lose")
    store.put_player(identity(ZED_LOSE, "Zed"), "p9", "Zed")
    store.put_owner("zed", ZED_LOSE, "Zed")
    store.put_owner("ada", ADA, "Ada", 50.0)                     # bound there, never played
    store.owner_seen("eva", 70.0, True)                          # Eva played there last
    ledger.enter("Zed", ZED_LOSE.decode())
    ledger.pay_result("t1.aa/r1", "open", ["Eva"], [1])
    ledger.pay_result("t2.bb/r1", "open", ["Bob"], [1])             # left out with t2
    ledger.pay_result("t3.cc/r1", "open", ["Zed"], [1])
    ledger.buy("Eva", "gold")
    eva_lose = coins(tmp_path / "lose", "Eva") - coins(tmp_path / "fork", "Eva")
    close(store, ledger)

    store, ledger = side(tmp_path, "win")            # the standby that took over
    store.put_table("t2", 2, meta("t2.bb", (BOB, "Bob")), b"B1")
    store.put_table("t3", 3, meta("t3.dd", (ZED_WIN, "Zed")), b"C-win")
    store.put_player(identity(ZED_WIN, "Zed"), "p9", "Zed")
    store.put_owner("zed", ZED_WIN, "Zed")
    store.owner_seen("eva", 60.0, False)
    ledger.enter("Zed", ZED_WIN.decode())
    ledger.pay_result("t2.bb/r1", "friends", ["Bob"], [1])
    bob_win = coins(tmp_path / "win", "Bob")
    close(store, ledger)

    done = heal(tmp_path / "win", forkpoint, sent_rows(tmp_path / "lose"))

    assert done.taken == ["t1"] and done.kept == ["t2"]
    assert done.renamed_tables == {"t3": "t4"} and done.renamed_names == {"Zed": "Zed·2"}
    won = Store(tmp_path / "win")
    try:
        tables = {t: save for t, _, _, save in won.tables()}
        assert tables == {"t1": b"A1", "t2": b"B1", "t3": b"C-win", "t4": b"C-lose"}
        assert [v for v, _ in won.moves("t1")[0]] == [5, 6]
        owners = {nk: key for nk, key, *_ in won.owners()}
        assert owners["zed·2"] == ZED_LOSE.decode() and owners["zed"] == ZED_WIN.decode()
        kept = {nk: (played, seen) for nk, _, _, played, seen in won.owners()}
        assert kept["ada"] == (0, 50.0), "a name that never played is still released in time"
        assert kept["eva"] == (1, 70.0), "played on either side, seen when either last saw"
        players = {name: pid for _, pid, name in won.players()}
        assert set(players) == {"Eva", "Bob", "Zed", "Zed·2"}
        assert len(set(players.values())) == 4, "a player id is never given twice"
        t4 = msgpack.unpackb(next(m for t, _, m, _ in won.tables() if t == "t4"))
        assert t4["seats"][0]["token"] == identity(ZED_LOSE, "Zed·2")
    finally:
        won.close()
    assert coins(tmp_path / "win", "Eva") == coins(tmp_path / "fork", "Eva") + eva_lose
    assert coins(tmp_path / "win", "Bob") == bob_win, "t2's lost branch paid nothing"
    assert coins(tmp_path / "win", "Zed·2") > 1000 and coins(tmp_path / "win", "Zed") == 1000
    healed = Ledger(tmp_path / "win" / "economy.sqlite3")
    try:
        healed.audit()
        assert healed.paid("t1.aa/r1") and healed.paid("t3.cc/r1")
        assert healed.profile("Eva").gold_until > 0
    finally:
        healed.close()
