"""Game records at the host: every finished round kept (in the store, or in memory without
one) within the retention, listed by the players who sat at it, fetched once over, replayed
from any seat equal to what that seat was sent, and a round in play replayed only from the
asking seat; the shared replay; the next round's deal never told by a finished one."""

from __future__ import annotations

import sqlite3
from typing import Any

from cardparty.core.record import GameRecord, Replay
from cardparty.net.host.match import next_seed
from cardparty.net.host.model import Player
from cardparty.net.store import SCHEMA_VERSION, Store
from tests.net.hostkit import Kit


def two_at_pika(k: Kit, ana: Player, eva: Player, **fields: Any) -> str:
    tid = k.open_table("pika", ana, 2, seed=11, settings={"dealer": 1}, **fields)
    k.ask(ana, "sit", table=tid, seat=0)
    k.ask(eva, "sit", table=tid, seat=1)
    k.ask(ana, "ready", table=tid)
    k.ask(eva, "ready", table=tid)
    assert k.table(tid).status == "playing"
    return tid


def views_sent(k: Kit, player: Player, tid: str) -> dict[int, dict[str, Any]]:
    """Every view ``player`` was sent of ``tid``, by version."""
    return {m["version"]: m["view"] for m in k.out.sent.get(player.id, [])
            if m.get("type") == "view" and m.get("table") == tid}


def test_a_finished_round_is_a_record_its_players_list_fetch_and_replay_as_sent(tmp_path):
    k = Kit(data=tmp_path / "d")
    ana, eva, zoe = k.player("Ana"), k.player("Eva"), k.player("Zoe")
    tid = two_at_pika(k, ana, eva)
    k.play_out(tid, {0: ana, 1: eva})
    listed = k.ask(ana, "records")
    assert listed["type"] == "records" and len(listed["records"]) == 1
    entry = listed["records"][0]
    assert entry["game"] == "pika" and entry["seat"] == 0 and entry["names"] == ["Ana", "Eva"]
    assert k.ask(zoe, "records")["records"] == []
    record = GameRecord.from_wire(k.ask(eva, "record", id=entry["id"])["record"])
    assert record.over and record.plugins["pika"]
    assert all(s.at is not None and s.at >= 0 for s in record.steps)
    k.refused("no_record", zoe, "record", id=entry["id"])
    for player, seat in ((ana, 0), (eva, 1)):
        sent = views_sent(k, player, tid)
        assert len(sent) > 5
        for version, view in sent.items():
            step = version - record.version
            got = k.ask(player, "replay", record=entry["id"], step=step, seat=seat)
            assert got["view"] == view, (seat, step)
    other = k.ask(ana, "replay", record=entry["id"], step=3, seat=1)
    assert other["view"] == Replay(record).view(3, 1), "a finished round from another seat"


def test_a_round_in_play_is_replayed_only_from_the_asking_seat():
    k = Kit()
    ana = k.player("Ana")
    tid = k.open_table("pika", ana, 2, seed=11, settings={"dealer": 1})
    k.ask(ana, "sit", table=tid, seat=0)
    k.ask(ana, "bots", table=tid)
    k.ask(ana, "start", table=tid)
    k.play_until(tid, ana, 6)
    assert k.table(tid).status == "playing"
    sent = views_sent(k, ana, tid)
    for version, view in sent.items():
        step = version - min(sent)
        got = k.ask(ana, "replay", table=tid, step=step, seat=1)     # asks for Eva's
        assert got["live"] and got["seat"] == 0 and got["view"] == view
    assert k.ask(ana, "records")["records"] == []


def test_the_retention_drops_the_oldest_first(tmp_path):
    k = Kit(data=tmp_path / "d", records_kept=2)
    ana, eva = k.player("Ana"), k.player("Eva")
    ids = []
    for _ in range(3):
        tid = two_at_pika(k, ana, eva)
        k.play_out(tid, {0: ana, 1: eva})
        ids.append(k.ask(ana, "records")["records"][0]["id"])
    kept = [r["id"] for r in k.ask(ana, "records")["records"]]
    assert kept == [ids[2], ids[1]]
    k.refused("no_record", ana, "record", id=ids[0])


def test_records_outlive_a_restart(tmp_path):
    k = Kit(data=tmp_path / "d")
    ana, eva = k.player("Ana"), k.player("Eva")
    tid = two_at_pika(k, ana, eva)
    k.play_out(tid, {0: ana, 1: eva})
    rid = k.ask(ana, "records")["records"][0]["id"]
    k.parts.close()
    again = Kit(data=tmp_path / "d")
    ana2 = again.player("Ana")
    assert [r["id"] for r in again.ask(ana2, "records")["records"]] == [rid]
    assert again.ask(ana2, "record", id=rid)["record"]["id"] == rid


def test_a_shared_replay_goes_to_everybody_at_the_table_and_anybody_takes_the_lead():
    k = Kit()
    ana, eva, zoe = k.player("Ana"), k.player("Eva"), k.player("Zoe")
    tid = two_at_pika(k, ana, eva)
    k.ask(zoe, "watch", table=tid)
    k.play_out(tid, {0: ana, 1: eva})
    k.ask(ana, "replay_lead", table=tid, step=4, seat=1)
    for p in (ana, eva, zoe):
        pushed = [m for m in k.out.sent[p.id] if m.get("type") == "replay_shared"]
        assert pushed[-1]["step"] == 4 and pushed[-1]["seat"] == 1
        assert pushed[-1]["leader_name"] == "Ana"
    k.refused("not_leader", eva, "replay_end", table=tid)
    k.ask(zoe, "replay_lead", table=tid, step=2, seat=0)
    assert [m for m in k.out.sent[eva.id] if m.get("type") == "replay_shared"][-1][
        "leader_name"] == "Zoe"
    k.ask(zoe, "replay_end", table=tid)
    assert k.out.sent[ana.id][-1]["type"] == "replay_ended"


def test_a_round_in_play_has_no_shared_replay():
    k = Kit()
    ana, eva = k.player("Ana"), k.player("Eva")
    tid = two_at_pika(k, ana, eva)
    k.refused("not_over", ana, "replay_lead", table=tid)


def test_the_next_rounds_seed_is_not_drawn_from_the_last_rounds():
    k = Kit(testing=False)
    ana, eva = k.player("Ana"), k.player("Eva")
    tid = k.open_table("pika", ana, 2)
    k.ask(ana, "sit", table=tid, seat=0)
    k.ask(eva, "sit", table=tid, seat=1)
    k.ask(ana, "ready", table=tid)
    k.ask(eva, "ready", table=tid)
    k.play_out(tid, {0: ana, 1: eva})
    told = k.ask(ana, "record", id=k.ask(ana, "records")["records"][0]["id"])["record"]
    k.ask(ana, "again", table=tid)
    k.ask(eva, "again", table=tid)
    ht = k.table(tid)
    assert ht.match.round == 2
    assert ht.engine.seed != next_seed(told["seed"], 2)
    assert ht.engine.seed == next_seed(ht.match.secret, 2)


def test_a_review_judges_only_the_asking_players_own_decisions():
    k = Kit(bot_workers=0)
    ana, eva, zoe = k.player("Ana"), k.player("Eva"), k.player("Zoe")
    tid = two_at_pika(k, ana, eva, bot_budget_ms=20)
    k.play_out(tid, {0: ana, 1: eva})
    rid = k.ask(ana, "records")["records"][0]["id"]
    record = GameRecord.from_wire(k.ask(ana, "record", id=rid)["record"])
    got = k.ask(eva, "review", id=rid)
    assert got["type"] == "review" and got["seat"] == 1 and got["decisions"] > 0
    replay = Replay(record)
    own = [i for i, s in enumerate(record.steps)
           if s.seat == 1 and len(replay.table_at(i).legal_moves(1)) > 1]
    assert got["decisions"] == len(own)
    for mark in got["marks"]:
        assert mark["step"] in own and mark["loss"] > got["margin"]
        assert mark["played"] != mark["better"] and mark["reason"]
    k.refused("no_record", zoe, "review", id=rid)


def test_a_store_of_the_layout_before_records_gets_their_table_and_keeps_the_rounds(tmp_path):
    """Layout 3 (events and ratings, no records) is brought to this one on open: the
    records' table made, empty, and a round played then is kept in it."""
    data = tmp_path / "d"
    Store(str(data)).close()
    con = sqlite3.connect(data / "host.sqlite3")
    con.execute("DROP TABLE records")
    con.execute("PRAGMA user_version = 3")
    con.commit()
    con.close()
    store = Store(str(data))
    assert store.warnings == []              # not taken for a damaged file of this layout
    store.close()
    k = Kit(data=data)
    ana, eva = k.player("Ana"), k.player("Eva")
    tid = two_at_pika(k, ana, eva)
    k.play_out(tid, {0: ana, 1: eva})
    assert len(k.ask(ana, "records")["records"]) == 1
    k.parts.close()
    con = sqlite3.connect(data / "host.sqlite3")
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("SELECT count(*) FROM records").fetchone()[0] == 1
    con.close()
