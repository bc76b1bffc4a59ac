"""Events at a host, its parts without a socket (docs/rules/tournament.md): who may create one,
the rounds seated and told, tables starting on ready or at their start time, the next round
once the last table is over or at the deadline, leaving, withdrawing, late entries, ratings in
the profile and the lobby's summaries, and an event that outlives its host's restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardparty.core.tourney.scoring import OVER, STOPPED
from cardparty.net.host.model import Player
from tests.net.hostkit import Kit

#: A quick game for the tests: Pika at tables of two with small hands.
QUICK: dict[str, Any] = {"game": "pika", "players": 2, "settings": {"hand_size": 3}}


def kit(**settings: Any) -> Kit:
    settings.setdefault("organisers", ("Org",))
    return Kit(**settings)


def key(name: str) -> bytes:
    """A player's key (the same after a restart: his handle and name are his)."""
    return f"key of {name}".encode().ljust(32, b".")


def create(k: Kit, org: Player, **fields: Any) -> dict[str, Any]:
    reply = k.ask(org, "event_create", **{**QUICK, "start_within": 0, **fields})
    assert reply is not None and reply["type"] == "event"
    return dict(reply["event"])


def entrants(k: Kit, eid: str, names: list[str]) -> dict[str, Player]:
    out = {}
    for name in names:
        p = k.player(name, key=key(name))
        k.ask(p, "event_join", event=eid)
        out[name] = p
    return out


def finish_round(k: Kit, eid: str, people: dict[str, Player], seed: int = 1) -> None:
    """Every table of the event's current round played to its end; the next seated."""
    ev = k.parts.events.events[eid]
    rnd = ev.current
    assert rnd is not None
    by_token = {p.token: p for p in people.values()}
    for t in rnd.tables:
        ht = k.table(t.table)
        humans = {s: by_token[tok] for s, tok in enumerate(t.seats)
                  if tok is not None and tok in by_token and ht.seats[s].player is not None}
        if ht.status == "playing":
            k.play_out(t.table, humans, seed=seed)
    k.tick(0.0)


def test_to1_only_the_operators_organisers_create_events() -> None:
    k = kit(organisers=("Eva",))
    eva, petr = k.player("eva"), k.player("Petr")
    message = k.refused("not_organiser", petr, "event_create", **QUICK)
    assert "Eva" in message
    assert create(k, eva)["organiser"] == "eva"          # names match as MO-1 folds them
    nobody = Kit()
    assert "named no organiser" in nobody.refused("not_organiser", nobody.player("Ana"),
                                                  "event_create", **QUICK)
    anyone = Kit(organisers=("*",))
    create(anyone, anyone.player("Ana"))
    # The event's organiser alone starts it.
    eid = create(k, eva)["id"]
    k.refused("not_organiser", petr, "event_start", event=eid)
    k.refused("no_event", petr, "event_start", event="e99")


def test_to15_each_round_is_seated_told_and_starts_on_ready_or_at_its_start_time() -> None:
    k = kit()
    org = k.player("Org")
    eid = create(k, org, start_within=30)["id"]
    people = entrants(k, eid, ["Ana", "Bob", "Cid", "Dan"])
    for p in people.values():
        k.out.take(p)
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    rnd = ev.current
    assert rnd is not None and len(rnd.tables) == 2
    for name, p in people.items():
        seat = k.out.take(p, "event_seat")
        assert len(seat) == 1 and seat[0]["round"] == 1 and seat[0]["event"] == eid
        ht = k.table(seat[0]["table"])
        assert ht.seats[seat[0]["seat"]].player is p and seat[0]["names"][seat[0]["seat"]] == name
        assert ht.access.event == eid and ht.access.mode == "friends" and not ht.access.hints
        assert ht.status == "open"
    first = k.table(rnd.tables[0].table)
    for s in first.seats:
        assert s.player is not None
        k.ask(s.player, "ready", table=first.id)
    assert first.status == "playing"                    # every seated entrant said ready
    second = k.table(rnd.tables[1].table)
    k.tick(29.0)
    assert second.status == "open"
    k.tick(1.5)
    assert second.status == "playing"                   # its start time passed
    summary = k.parts.views.summary(second)
    assert summary["event"] == eid and summary["again"] is False
    # Nobody else may sit or change an event's table.
    outsider = k.player("Eve")
    k.refused("seated", next(iter(people.values())), "sit", table=first.id)
    k.refused("not_open", outsider, "sit", table=first.id)


def test_to15_an_entrant_away_when_his_round_is_seated_is_told_his_seat_when_back() -> None:
    k = kit()
    org = k.player("Org")
    eid = create(k, org, start_within=0)["id"]
    people = entrants(k, eid, ["Ana", "Bob", "Cid", "Dan"])
    ana = people["Ana"]
    assert ana.route is not None
    k.parts.roster.gone(ana.route)                     # his connection lost (a takeover, say)
    k.ask(org, "event_start", event=eid)
    rnd = k.parts.events.events[eid].current
    assert rnd is not None
    mine = next(t for t in rnd.tables if ana.token in t.seats)
    assert k.table(mine.table).status == "playing"     # the round started without him
    back = k.player("Ana", key=key("Ana"))
    assert back is ana
    told = k.out.take(ana)
    kinds = [m["type"] for m in told]
    assert "event_seat" in kinds, kinds
    seat = told[kinds.index("event_seat")]
    assert (seat["event"], seat["round"], seat["table"], seat["seat"]) == (
        eid, 1, mine.table, mine.seats.index(ana.token))
    # Told before his table's pictures, so that a client knows the table is its event's.
    assert kinds.index("event_seat") < kinds.index("view")
    # Not told again once his table is over.
    by_token = {p.token: p for p in people.values()}
    k.play_out(mine.table, {s: by_token[t] for s, t in enumerate(mine.seats) if t in by_token})
    k.parts.roster.gone(ana.route)
    k.player("Ana", key=key("Ana"))
    assert "event_seat" not in [m["type"] for m in k.out.take(ana)]


def test_to16_the_next_round_comes_once_the_last_table_is_over_or_at_the_deadline() -> None:
    k = kit()
    org = k.player("Org")
    eid = create(k, org, rounds=3)["id"]
    people = entrants(k, eid, ["Ana", "Bob", "Cid", "Dan"])
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    rnd = ev.current
    assert rnd is not None
    first, second = (k.table(t.table) for t in rnd.tables)
    by_token = {p.token: p for p in people.values()}
    k.play_out(first.id, {s: by_token[t] for s, t in enumerate(rnd.tables[0].seats) if t})
    k.tick(0.0)
    assert ev.round == 1 and rnd.tables[0].state == OVER     # one table still plays
    k.play_out(second.id, {s: by_token[t] for s, t in enumerate(rnd.tables[1].seats) if t})
    assert ev.round == 1                  # the round's end is told first: seated next turn
    k.tick(0.0)
    assert ev.round == 2
    # The organiser ends the round now: a table still playing is stopped, its seats tie.
    rnd2 = ev.current
    assert rnd2 is not None
    k.refused("not_organiser", next(iter(people.values())), "event_deadline", event=eid,
              minutes=0)
    assert k.ask(org, "event_deadline", event=eid, minutes=0)["round"] == 2  # type: ignore[index]
    assert all(t.state == STOPPED for t in rnd2.tables)
    assert all(k.table(t.table).status == "cancelled" for t in rnd2.tables)
    assert ev.round == 3
    pts = {s.entrant: s.rounds[1] for s in ev.standings()}
    assert set(pts.values()) == {0.5}
    # The event's own deadline: minutes after the round is seated.
    k.ask(org, "event_deadline", event=eid, minutes=2)
    k.tick(119.0)
    assert ev.current is not None and not ev.current.complete
    k.tick(1.5)
    assert ev.status == "over"
    k.refused("event_state", org, "event_deadline", event=eid, minutes=1)
    k.refused("event_state", next(iter(people.values())), "event_join", event=eid)


def test_to17_to18_an_events_table_is_left_only_while_it_plays_and_plays_one_round() -> None:
    k = kit()
    org = k.player("Org")
    eid = create(k, org, start_within=60)["id"]
    people = entrants(k, eid, ["Ana", "Bob"])
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    assert ev.current is not None
    tid = ev.current.tables[0].table
    ana = people["Ana"]
    assert "withdraw" in k.refused("event_state", ana, "leave", table=tid)
    k.refused("event_state", org, "close", table=tid)
    for p in people.values():
        k.ask(p, "ready", table=tid)
    ht = k.table(tid)
    assert ht.status == "playing"
    seat = ht.seat_of(ana)
    assert seat is not None
    k.ask(ana, "leave", table=tid)                     # a bot plays her seat to the end
    assert ht.seats[seat].kind == "bot"
    k.play_out(tid, {s: p for s, p in ((ht.seat_of(people["Bob"]), people["Bob"]),)
                     if s is not None})
    k.refused("event_state", people["Bob"], "again", table=tid)
    lines = {ln.entrant: ln for ln in ev.standings()}
    assert lines[ana.token].played == 1                 # the seat's result is hers


def test_to19_to20_withdrawals_and_late_entries_between_and_during_rounds() -> None:
    k = kit()
    org = k.player("Org")
    eid = create(k, org, rounds=3, start_within=60)["id"]
    people = entrants(k, eid, ["Ana", "Bob", "Cid", "Dan"])
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    dan = people["Dan"]
    found = ev.seat_of(dan.token)
    assert found is not None
    ht = k.table(found[0].table)
    assert k.ask(dan, "event_leave", event=eid)["about"] == "event_leave"  # type: ignore[index]
    assert ht.seats[found[1]].kind == "bot" and ht.seats[found[1]].name == "Dan (bot)"
    k.refused("not_entered", dan, "event_leave", event=eid)
    late = k.player("Eva")
    joined = k.ask(late, "event_join", event=eid)
    assert joined is not None and any(s["name"] == "Eva" for s in joined["event"]["standings"])
    people["Eva"] = late
    k.tick(61.0)                                       # the tables start without waiting
    finish_round(k, eid, people)
    rnd = ev.current
    assert rnd is not None and rnd.number == 2
    seated = {tok for t in rnd.tables for tok in t.seats if tok}
    assert late.token in seated and dan.token not in seated
    standing = {s["name"]: s for s in k.parts.events.wire(ev)["standings"]}
    assert standing["Dan"]["status"] == "withdrawn" and standing["Eva"]["rounds"][0] is None


def test_to26_ratings_move_with_rounds_of_two_humans_and_show_in_profile_and_lobby(
        tmp_path: Path) -> None:
    k = kit(economy=tmp_path / "economy.sqlite3")
    ana, bob = k.player("Ana"), k.player("Bob")
    tid = k.open_table("pika", ana, 2, settings={"hand_size": 3}, seed=5)
    k.ask(ana, "sit", table=tid)
    k.ask(bob, "sit", table=tid)
    k.ask(ana, "ready", table=tid)
    k.ask(bob, "ready", table=tid)
    k.play_out(tid, {0: ana, 1: bob})
    places = k.table(tid).engine.result().places                # type: ignore[union-attr]
    winner, loser = (ana, bob) if places[0] == 1 else (bob, ana)
    ratings = k.parts.ratings
    assert ratings.of("pika", winner.name).mu > 25 > ratings.of("pika", loser.name).mu  # type: ignore[union-attr]
    profile = k.ask(winner, "profile")["profile"]             # type: ignore[index]
    assert profile["ratings"] == {"pika": ratings.shown("pika", winner.name)}
    seats = k.parts.views.summary(k.table(tid))["seats"]
    assert {s["name"]: s["rating"] for s in seats} == {
        "Ana": ratings.shown("pika", "Ana"), "Bob": ratings.shown("pika", "Bob")}
    listed = k.ask(ana, "ratings", game="pika")
    assert listed is not None and [r["name"] for r in listed["ratings"]] == [winner.name,
                                                                             loser.name]
    assert listed["me"]["name"] == "Ana" and listed["total"] == 2
    mine = k.ask(bob, "ratings", name="Ana")
    assert mine is not None and mine["ratings"][0]["game"] == "pika"
    k.refused("no_game", ana, "ratings", game="chess")
    # Practice and a table of one human rate nothing.
    solo = k.open_table("pika", ana, 2, settings={"hand_size": 3}, mode="practice")
    k.ask(ana, "sit", table=solo)
    k.ask(ana, "bots", table=solo)
    k.ask(ana, "start", table=solo)
    before = ratings.of("pika", "Ana")
    k.play_out(solo, {0: ana} if k.table(solo).seats[0].player is ana else {1: ana})
    assert ratings.of("pika", "Ana") == before


def test_to5_an_events_seeds_follow_the_ratings() -> None:
    k = kit()
    org = k.player("Org")
    for name, mu in (("Ana", 20.0), ("Bob", 40.0), ("Cid", 30.0)):
        from cardparty.core.tourney.ratings import Rating
        k.parts.ratings.by_game.setdefault("pika", {})[name] = Rating(mu, 2.0, 5)
    eid = create(k, org)["id"]
    entrants(k, eid, ["Ana", "Bob", "Cid", "Dan"])
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    assert [ev.names()[t] for t in ev.seeds] == ["Bob", "Cid", "Ana", "Dan"]


def test_to28_an_event_goes_on_after_its_host_restarts_from_its_store(tmp_path: Path) -> None:
    data = tmp_path / "host"
    k = kit(data=data)
    org = k.player("Org", key=key("Org"))
    eid = create(k, org, rounds=2, duplicate=True)["id"]
    people = entrants(k, eid, ["Ana", "Bob", "Cid", "Dan"])
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    rnd = ev.current
    assert rnd is not None
    by_token = {p.token: p for p in people.values()}
    t0 = rnd.tables[0]
    k.play_out(t0.table, {s: by_token[t] for s, t in enumerate(t0.seats) if t})
    seating = [list(t.seats) for t in rnd.tables]
    k.parts.flush()
    k.parts.close()
    again = kit(data=data, clock=k.clock)
    ev2 = again.parts.events.events[eid]
    assert ev2.to_store() == ev.to_store()
    assert [list(t.seats) for t in ev2.rounds[0].tables] == seating
    people2 = {name: again.player(name, key=key(name)) for name in people}
    finish_round(again, eid, people2)
    assert ev2.round == 2
    finish_round(again, eid, people2)
    assert ev2.status == "over"


def test_to2_an_event_is_checked_as_its_tables_would_be() -> None:
    k = kit()
    org = k.player("Org")
    k.refused("no_game", org, "event_create", game="chess", players=2)
    k.refused("bad_table", org, "event_create", game="pika", players=6)
    k.refused("bad_table", org, "event_create", game="pika", players=2,
              settings={"hand_size": 99})
    k.refused("bad_field", org, "event_create", game="pika", players=2, rounds=21)
    k.refused("bad_field", org, "event_create", game="pika", players=2, format="knockout")
    plain = Kit(organisers=("Org",), testing=False)
    plain.refused("testing_only", plain.player("Org"), "event_create", **QUICK, seed=3)
    made = create(k, org, rounds=6, duplicate=True, fill="byes", minutes=15, title="Friday")
    assert (made["rounds"], made["duplicate"], made["fill"], made["late"], made["minutes"],
            made["title"], made["status"]) == (6, True, "byes", 3, 15, "Friday", "signup")
    listed = k.ask(org, "events")
    assert listed is not None and listed["events"][0]["id"] == made["id"]


def test_to27_a_round_is_rated_once_whatever_happens_to_the_host(tmp_path: Path) -> None:
    data = tmp_path / "host"
    k = kit(data=data)
    ana, bob = k.player("Ana", key=key("Ana")), k.player("Bob", key=key("Bob"))
    tid = k.open_table("pika", ana, 2, settings={"hand_size": 3}, seed=9)
    k.ask(ana, "sit", table=tid)
    k.ask(bob, "sit", table=tid)
    k.ask(ana, "ready", table=tid)
    k.ask(bob, "ready", table=tid)
    k.play_out(tid, {0: ana, 1: bob})
    rated = k.parts.ratings.of("pika", "Ana")
    assert rated is not None and rated.rounds == 1
    k.parts.close()
    for _ in range(2):                       # restarted twice: the round is rated once
        again = kit(data=data, clock=k.clock)
        assert again.parts.ratings.of("pika", "Ana") == rated
        assert again.table(tid).status == "over"
        again.parts.close()
