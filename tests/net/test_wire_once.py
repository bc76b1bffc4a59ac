"""One path on the wire for each fact (issue 24), added within protocol version 1: a client
that reads the host's ``timers`` asks for views without the game's ``deadlines``; one that
asks nothing gets both, as before (docs/protocol.md, "Changes within version 1")."""

from __future__ import annotations

from cardparty.net.wire.protocol import encode
from tests.net.hostkit import Kit

#: Seat 0 plays R1 and is left with one card: Pika's warning (PI-10) runs for her.
WARNING = {"deck": ["R1", "R2", "G3", "G4", "R5"], "hand_size": 2, "dealer": 1,
           "warning": 5.0}


def warned_table(kit: Kit, eva_features: tuple[str, ...]) -> tuple[str, list]:
    eva = kit.player("Eva", features=eva_features)
    petr = kit.player("Petr")
    tid = kit.open_table("pika", eva, 2, settings=WARNING)
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    kit.ask(eva, "move", table=tid, move={"kind": "play", "cards": ["R1"]},
            version=kit.table(tid).engine.version)
    return tid, [eva, petr]


def test_the_welcome_grants_the_features_the_host_knows_and_ignores_the_others() -> None:
    kit = Kit()
    eva = kit.player("Eva", features=("timers", "telepathy"))
    petr = kit.player("Petr")
    assert kit.out.take(eva, "welcome")[-1]["features"] == ["timers"]
    assert kit.out.take(petr, "welcome")[-1]["features"] == []


def test_a_client_reading_the_timers_gets_each_deadline_once_and_another_both_ways() -> None:
    kit = Kit()
    tid, (eva, petr) = warned_table(kit, ("timers",))
    lean = kit.out.take(eva, "view")[-1]
    full = kit.out.take(petr, "view")[-1]
    assert "deadlines" not in lean["view"]
    assert [(t["name"], t["seat"]) for t in lean["timers"]] == [("pika", 0)]
    assert full["view"]["deadlines"] == [{"name": "pika", "seat": 0, "seconds": 5.0}]
    assert [(t["name"], t["seat"]) for t in full["timers"]] == [("pika", 0)]
    assert set(full["view"]) - set(lean["view"]) == {"deadlines"}     # nothing else missing
    assert encode(lean) and encode(full)


def test_spectators_get_the_view_each_one_asked_for() -> None:
    kit = Kit()
    tid, (eva, petr) = warned_table(kit, ())
    ana = kit.player("Ana", features=("timers",))
    jan = kit.player("Jan")
    for p in (ana, jan):
        kit.ask(p, "watch", table=tid)
    kit.tick(0.1, alive=(eva, petr, ana, jan))
    kit.ask(petr, "chat", table=tid, text="hi")         # nothing moves: views as they were
    kit.ask(eva, "move", table=tid, move={"kind": "call"}, version=kit.table(tid).engine.version)
    assert "deadlines" not in kit.out.take(ana, "view")[-1]["view"]
    assert "deadlines" in kit.out.take(jan, "view")[-1]["view"]
