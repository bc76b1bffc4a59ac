"""An event survives its host (TO-28), with real host and standby processes on 127.0.0.1: the
host is killed (SIGKILL) in the middle of a round, one table of it over and told, the other
playing; the standby takes over with the round's seating and the finished table's result as
they were, the playing table goes on, and the next round is seated by the new host."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.net.standbykit import Player, free_port, start_host, start_standby

NAMES = ("Ana", "Bob", "Cid", "Dan")


def seats_of(event: dict[str, Any], number: int) -> list[list[str | None]]:
    """Round ``number``'s tables as the names at their seats."""
    rnd = event["results"][number - 1]
    return [[s["name"] for s in t["seats"]] for t in rnd["tables"]]


def places_of(event: dict[str, Any], number: int) -> list[list[int | None]]:
    """Round ``number``'s tables as the places at their seats (None: still playing)."""
    rnd = event["results"][number - 1]
    return [[s["place"] for s in t["seats"]] for t in rnd["tables"]]


def seated(players: dict[str, Player], number: int, timeout: float = 20.0) -> None:
    """Pump until every player was told his table of round ``number``; point his ``table``
    at it (his result forgotten) and say ready."""
    told: dict[str, dict[str, Any]] = {}
    end = time.monotonic() + timeout
    while len(told) < len(players):
        assert time.monotonic() < end, f"round {number} not seated: {sorted(told)}"
        for name, p in players.items():
            if name in told:
                continue
            msg = p.session.next_message(0.05)
            if msg is not None and msg["type"] == "event_seat" and msg["round"] == number:
                told[name] = msg
    for name, p in players.items():
        p.table, p.result = told[name]["table"], None
        p.session.ready(p.table)


def play(players: list[Player], until: Any, timeout: float = 30.0) -> None:
    """Every player pumps (playing his moves) until ``until()``."""
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, [p.errors[-3:] for p in players]
        for p in players:
            p.pump(0.02)


def test_to28_a_takeover_mid_round_keeps_every_result_and_seat(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    pa, pb = free_port(), free_port()
    host = start_host(a, b, pa, extra=("--organiser", "Org"))
    standby = start_standby(b, f"127.0.0.1:{pa}", pb)
    procs = [host, standby]
    org = Player(f"127.0.0.1:{pa}", "Org")
    players = {n: Player(f"127.0.0.1:{pa}", n) for n in NAMES}
    everybody = [org, *players.values()]
    try:
        eid = org.session.event_create("pika", 2, settings={"hand_size": 3}, rounds=2,
                                       duplicate=True, start_within=60)["id"]
        for p in players.values():
            p.session.event_join(eid)
        org.session.event_start(eid)
        seated(players, 1)
        before = org.session.event(eid)
        tables = [t["table"] for t in before["results"][0]["tables"]]
        first = [p for p in players.values() if p.table == tables[0]]
        second = [p for p in players.values() if p.table == tables[1]]
        play(first, lambda: all(p.result is not None for p in first))
        play(second, lambda: sum(len(p.acked) for p in second) >= 1)
        assert all(p.result is None for p in second)
        told = org.session.event(eid)
        assert None not in places_of(told, 1)[0]
        host.kill()                 # as soon as the first table's players were told its end
        for p in everybody:
            p.moves_to(pb)
        standby.wait_for(rf"took over from 127\.0\.0\.1:{pa} as epoch 2")
        after = org.session.event(eid)
        assert seats_of(after, 1) == seats_of(before, 1)
        # The finished table's places are kept, the playing table's still to come.
        assert places_of(after, 1)[0] == places_of(told, 1)[0]
        assert None not in places_of(after, 1)[0] and places_of(after, 1)[1] == [None, None]
        play(second, lambda: all(p.result is not None for p in second))
        seated(players, 2)                            # the new host seats the next round
        round2 = org.session.event(eid)
        assert seats_of(round2, 1) == seats_of(before, 1)
        assert places_of(round2, 1)[0] == places_of(told, 1)[0]
        assert sum(len(t) for t in seats_of(round2, 2)) == 4
        play(list(players.values()), lambda: all(p.result is not None
                                                 for p in players.values()))
        play([org], lambda: org.session.event(eid)["status"] == "over")
        assert not [e for p in everybody for e in p.errors if e != "not_playing"]
    finally:
        for p in everybody:
            p.close()
        for proc in procs:
            proc.kill()
