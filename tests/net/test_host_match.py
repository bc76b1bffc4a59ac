"""Another round (``again``) through the host's parts, without sockets: the finished table
goes on as a match on the same table id, the next dealer from the finished game's result
(PK-4 "the loser of the last round deals", KH-4 "the loser of a game deals the next"),
readiness asked once, rounds and totals in the summary, and kept in the store."""

from __future__ import annotations

from pathlib import Path

from tests.net.hostkit import Kit


def seated(kit: Kit, game: str, humans: int, players: int, **fields: object
           ) -> tuple[str, list]:
    people = [kit.player(f"P{i}") for i in range(humans)]
    tid = kit.open_table(game, people[0], players, **fields)
    for p in people:
        kit.ask(p, "sit", table=tid)
    if humans < players:
        kit.ask(people[0], "bots", table=tid, level="random")
    for p in people:
        kit.ask(p, "ready", table=tid)
    return tid, people


def test_pk4_again_deals_the_next_round_at_the_same_table_and_the_loser_deals() -> None:
    kit = Kit()
    tid, (eva, petr) = seated(kit, "pikac", 2, 3, seed=5)
    ht = kit.table(tid)
    kit.play_out(tid, {0: eva, 1: petr})
    result = ht.engine.result()
    assert ht.status == "over" and result is not None and result.next_dealer is not None
    last_version = ht.engine.version
    assert [s.ready for s in ht.seats] == [False, False, True], "bots are always ready"
    for p in (eva, petr):
        kit.out.take(p)

    first = kit.ask(eva, "again", table=tid)
    assert first["waiting"] == ["P1"] and ht.status == "over", "Petr is still to answer"
    summary = kit.out.take(petr, "table")[-1]["table"]
    assert summary["seats"][0]["ready"] and not summary["seats"][1]["ready"]

    kit.ask(petr, "again", table=tid)
    assert ht.status == "playing" and kit.parts.tables.all[tid] is ht
    assert ht.match.round == 2 and ht.engine.settings["dealer"] == result.next_dealer
    assert ht.engine.to_move() == (result.next_dealer,), "PK-5: the new dealer deals first"
    assert ht.engine.version == last_version + 1
    assert [s.kind for s in ht.seats] == ["human", "human", "bot"]
    for p in (eva, petr):
        got = kit.out.take(p)
        summary = [m for m in got if m["type"] == "table"][-1]["table"]
        assert summary["status"] == "playing" and summary["round"] == 2
        assert summary["rounds"] == [{"round": 1, "places": list(result.places),
                                      "scores": None if result.scores is None
                                      else list(result.scores),
                                      "next_dealer": result.next_dealer}]
        assert summary["totals"]["wins"] == [int(pl == 1) for pl in result.places]
        view = [m for m in got if m["type"] == "view"][-1]
        assert view["snapshot"] and view["version"] == last_version + 1
    lobby = kit.ask(eva, "tables")["tables"]
    assert [t["id"] for t in lobby] == [tid], "one row per match"


def test_kh4_the_loser_of_a_kakhead_game_deals_the_next() -> None:
    kit = Kit()
    tid, (eva,) = seated(kit, "kakhead", 1, 3, seed=11)
    ht = kit.table(tid)
    kit.play_out(tid, {0: eva})
    result = ht.engine.result()
    assert result is not None and result.next_dealer is not None
    kit.ask(eva, "again", table=tid)        # the only human: the round starts at once
    assert ht.status == "playing" and ht.match.round == 2
    assert ht.engine.settings["dealer"] == result.next_dealer


def test_totals_add_up_over_rounds_and_a_seat_whose_player_left_goes_to_a_bot() -> None:
    kit = Kit()
    tid, (eva, petr) = seated(kit, "pika", 2, 2, seed=3)
    ht = kit.table(tid)
    places = []
    for _ in range(3):
        kit.play_out(tid, {0: eva, 1: petr})
        places.append(list(ht.engine.result().places))
        kit.ask(eva, "again", table=tid)
        kit.ask(petr, "again", table=tid)
    summary = kit.ask(eva, "tables")["tables"][0]
    assert summary["round"] == 4 and [r["places"] for r in summary["rounds"]] == places
    assert summary["totals"]["wins"] == [sum(p[s] == 1 for p in places) for s in (0, 1)]
    kit.play_out(tid, {0: eva, 1: petr})
    kit.ask(petr, "leave", table=tid)
    kit.ask(eva, "again", table=tid)
    assert ht.status == "playing" and ht.seats[1].kind == "bot"
    assert ht.seats[1].name == "P1 (bot)"


def test_again_is_refused_before_the_end_and_to_anyone_not_seated() -> None:
    kit = Kit()
    tid, (eva,) = seated(kit, "pika", 1, 2)
    jana = kit.player("Jana")
    kit.ask(jana, "watch", table=tid)
    assert "playing" in kit.refused("not_over", eva, "again", table=tid)
    kit.play_out(tid, {0: eva})
    kit.refused("not_seated", jana, "again", table=tid)
    kit.refused("no_table", eva, "again", table="t99")
    open_tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=open_tid)
    kit.refused("not_over", eva, "again", table=open_tid)


def test_the_match_survives_a_host_restarted_from_its_data(tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    tid, (eva,) = seated(kit, "pika", 1, 3, seed=9)
    kit.play_out(tid, {0: eva})
    kit.ask(eva, "again", table=tid)
    before = kit.ask(eva, "tables")["tables"][0]
    kit.parts.close()
    again = Kit(data=tmp_path)
    ht = again.table(tid)
    after = again.parts.views.summary(ht)
    for key in ("round", "rounds", "totals", "status", "version"):
        assert after[key] == before[key], key


def test_a_friends_table_plays_its_next_round_with_the_same_friends_and_no_new_invitation(
        ) -> None:
    """MO-4 and again: the friends stay seated, nobody is invited again, nobody else sits."""
    kit = Kit()
    eva, bob, zoe = kit.player("Eva"), kit.player("Bob"), kit.player("Zoe")
    tid = kit.open_table("pika", eva, 2, mode="friends", seed=8)
    kit.ask(eva, "invite", table=tid, names=["Bob"])
    for p in (eva, bob):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    kit.play_out(tid, {0: eva, 1: bob})
    kit.out.take(bob)
    kit.ask(eva, "again", table=tid)
    kit.ask(bob, "again", table=tid)
    ht = kit.table(tid)
    assert ht.status == "playing" and ht.access.mode == "friends"
    assert ht.access.invited == {"Bob": "Eva"}
    assert [s.player for s in ht.seats] == [eva, bob]
    assert kit.out.take(bob, "invited") == []
    kit.refused("not_open", zoe, "sit", table=tid)
