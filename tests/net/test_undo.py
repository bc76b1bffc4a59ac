"""Taking back a move by agreement at the host: at practice tables and at friends tables
whose creator allowed it; every seated human agrees; never past a card shown; never at open
or entry tables; nothing paid undone; the log says so. Through the host's parts, in
milliseconds (the wire's form of it is met in tests/wire)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cardparty.net.host.model import Player
from tests.net.hostkit import Kit

#: Pika for two, seat 0 first: Eva R1 R2 Y9, the other R3 G2 G7, R5 turned, then B4 B6.
DECK = {"dealer": 1, "hand_size": 3, "deck": ["R1", "R2", "Y9", "R3", "G2", "G7", "R5",
                                               "B4", "B6"]}


def practice(k: Kit, eva: Player, **fields: Any) -> str:
    tid = k.open_table("pika", eva, 2, mode="practice", seed=3, settings=DECK, **fields)
    k.ask(eva, "sit", table=tid, seat=0)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    return tid


def friends(k: Kit, ana: Player, eva: Player, **fields: Any) -> str:
    tid = k.open_table("pika", ana, 2, mode="friends", seed=3, settings=DECK, **fields)
    k.ask(ana, "invite", table=tid, names=["Eva"])
    k.ask(ana, "sit", table=tid, seat=0)
    k.ask(eva, "sit", table=tid, seat=1)
    k.ask(ana, "ready", table=tid)
    k.ask(eva, "ready", table=tid)
    return tid


def play(k: Kit, who: Player, tid: str, card: str) -> None:
    k.ask(who, "move", table=tid, move={"kind": "play", "cards": [card]},
          version=k.table(tid).engine.version)


def last_view(k: Kit, who: Player, tid: str) -> dict[str, Any]:
    return [m for m in k.out.sent[who.id] if m["type"] == "view" and m["table"] == tid][-1]


def pushed(k: Kit, who: Player, kind: str) -> list[dict[str, Any]]:
    return [m for m in k.out.sent.get(who.id, []) if m["type"] == kind]


def test_at_a_practice_table_the_player_alone_takes_back_his_card_and_the_log_says_so(
        tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    k = Kit(data=tmp_path)
    eva = k.player("Eva", token="e" * 32)
    tid = practice(k, eva)
    ht = k.table(tid)
    play(k, eva, tid, "R1")
    version = ht.engine.version
    with caplog.at_level(logging.INFO, logger="cardparty.host"):
        got = k.ask(eva, "undo", table=tid)
    assert got is not None and got["waiting"] == [] and got["moves"] == 1
    assert ht.engine.journal == [] and ht.engine.version == got["version"] == version + 1
    view = last_view(k, eva, tid)
    assert view["view"]["hand"] == ["R1", "R2", "Y9"] and not view["snapshot"]
    assert [e["type"] for e in view["events"]] == ["undo"]
    assert view["events"][0]["text"] == "Eva takes back 1 move, as everybody at the table agreed"
    assert "Eva takes back 1 move(s)" in caplog.text
    play(k, eva, tid, "R2")                       # and the table plays on from there
    k.parts.close()
    k2 = Kit(data=tmp_path)                       # what the store kept is the table now
    eva2 = k2.player("Eva", token="e" * 32)
    assert [m.cards for _, m in k2.table(tid).engine.journal] == [("R2",)]
    assert k2.ask(eva2, "tables")["tables"][0]["undo"] is True


def test_a_card_another_player_laid_since_bars_it() -> None:
    k = Kit()
    eva = k.player("Eva")
    tid = practice(k, eva)
    ht = k.table(tid)
    play(k, eva, tid, "R1")
    while len(ht.engine.journal) < 2:               # the bot lays R3
        k.tick(0.5)
    journal = list(ht.engine.journal)
    said = k.refused("cannot_undo", eva, "undo", table=tid)
    assert "past the move of" in said and "R3" not in said
    assert ht.engine.journal == journal and ht.undo is None


def test_at_a_friends_table_every_seated_human_agrees_first() -> None:
    k = Kit()
    ana, eva = k.player("Ana"), k.player("Eva")
    tid = friends(k, ana, eva, undo=True)
    ht = k.table(tid)
    play(k, ana, tid, "R1")
    got = k.ask(ana, "undo", table=tid)
    assert got["waiting"] == ["Eva"] and len(ht.engine.journal) == 1
    asked = pushed(k, eva, "table")[-1]["table"]["undo_asked"]
    assert asked["name"] == "Ana" and asked["waiting"] == ["Eva"] and asked["moves"] == 1
    k.refused("undoing", eva, "undo", table=tid)
    assert k.ask(eva, "undo_answer", table=tid, agree=True)["waiting"] == []
    assert ht.engine.journal == [] and ht.undo is None
    assert pushed(k, eva, "table")[-1]["table"]["undo_asked"] is None
    assert [e["type"] for e in last_view(k, eva, tid)["events"]] == ["undo"]


def test_one_no_or_a_move_meanwhile_drops_the_request_and_everybody_is_told() -> None:
    k = Kit()
    ana, eva = k.player("Ana"), k.player("Eva")
    tid = friends(k, ana, eva, undo=True)
    ht = k.table(tid)
    play(k, ana, tid, "R1")
    k.ask(ana, "undo", table=tid)
    k.ask(eva, "undo_answer", table=tid, agree=False)
    assert len(ht.engine.journal) == 1 and ht.undo is None
    for who in (ana, eva):
        dropped = pushed(k, who, "undo_dropped")[-1]
        assert dropped["by"] == "Eva" and dropped["reason"] == "Eva said no"
    k.refused("not_asked", eva, "undo_answer", table=tid, agree=True)
    k.ask(ana, "undo", table=tid)
    play(k, eva, tid, "R3")                       # Eva plays instead of answering
    assert pushed(k, ana, "undo_dropped")[-1]["reason"] == "the table moved on"
    assert len(ht.engine.journal) == 2 and ht.undo is None


def test_never_at_open_tables_nor_friends_tables_that_did_not_allow_it() -> None:
    k = Kit(economy=":memory:")
    ana, eva = k.player("Ana"), k.player("Eva")
    plain = friends(k, ana, eva)
    play(k, ana, plain, "R1")
    k.refused("no_undo", ana, "undo", table=plain)
    k.refused("no_undo", ana, "create", game="pika", players=2, mode="open", undo=True)
    k.refused("no_undo", ana, "create", game="pika", players=2, mode="entry", undo=True,
              stake=100)
    shown = {t["id"]: t["undo"] for t in k.ask(ana, "tables")["tables"]}
    assert shown == {plain: False}


def test_a_finished_round_is_never_taken_back() -> None:
    k = Kit()
    eva = k.player("Eva")
    tid = practice(k, eva)
    k.play_out(tid, {0: eva})
    version = k.table(tid).engine.version
    k.refused("not_playing", eva, "undo", table=tid)
    assert k.table(tid).engine.version == version


def test_the_record_of_a_round_that_went_back_replays_the_views_sent_of_its_moves() -> None:
    k = Kit()
    eva = k.player("Eva")
    tid = practice(k, eva)
    ht = k.table(tid)
    play(k, eva, tid, "R1")
    while len(ht.engine.journal) < 2:               # the bot lays R3
        k.tick(0.5)
    play(k, eva, tid, "R2")
    k.ask(eva, "undo", table=tid)                 # back to the third step, a version on
    assert len(ht.engine.journal) == 2
    k.play_out(tid, {0: eva})
    sent = {m["version"]: m["view"] for m in k.out.sent[eva.id]
            if m["type"] == "view" and m["table"] == tid}
    rid = k.ask(eva, "records")["records"][0]["id"]
    steps = k.ask(eva, "replay", record=rid, step=0, seat=0)["steps"]
    for n in range(steps + 1):
        view = k.ask(eva, "replay", record=rid, step=n, seat=0)["view"]
        assert view == sent[view["version"]], n


def test_asking_again_on_the_same_version_is_answered_without_judging_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A guest sending undo as fast as he may costs one judgement per version and seat (a
    judgement replays the round), not one per request."""
    from cardparty.net.host import undo
    judged: list[int] = []
    real = undo.take_back

    def counted(table: Any, seat: int) -> Any:
        judged.append(seat)
        return real(table, seat)

    monkeypatch.setattr(undo, "take_back", counted)
    k = Kit()
    eva = k.player("Eva")
    tid = practice(k, eva)
    ht = k.table(tid)
    play(k, eva, tid, "R1")
    while len(ht.engine.journal) < 2:               # the bot lays R3: nothing goes back now
        k.tick(0.5)
    for _ in range(5):
        k.refused("cannot_undo", eva, "undo", table=tid)
    assert judged == [0]
