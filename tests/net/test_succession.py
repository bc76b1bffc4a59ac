"""Who serves after this host, and the tables that wait meanwhile (net/host/succession.py),
on the host's parts without a socket: the word told in the welcome and pushed to everybody,
a drop holding every table a player of which may have followed the standby until he answers,
a request about a held table (even one answered from memory) refused ``held``, a standby
coming back releasing everything; after a takeover, a table held until a player seated there
follows."""

from __future__ import annotations

from cardparty.net.host.model import Player
from cardparty.net.host.succession import SETTLE
from tests.net.hostkit import Kit

STANDBY = {"address": "10.0.0.2", "port": 7770, "key": "k" * 40}
OTHER = {"address": "10.0.0.3", "port": 7770, "key": "o" * 40}


def sent(kit: Kit, player: Player, kind: str) -> list[dict[str, object]]:
    return [m for m in kit.out.sent.get(player.id, []) if m["type"] == kind]


def a_table(kit: Kit, name: str) -> tuple[Player, str]:
    player = kit.player(name)
    tid = kit.open_table("pika", player, 2)
    kit.ask(player, "sit", table=tid)
    kit.ask(player, "bots", table=tid)
    kit.ask(player, "ready", table=tid)
    return player, tid


def test_the_welcome_and_a_push_tell_every_player_the_epoch_and_the_standby() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    welcome = sent(kit, eva, "welcome")[0]
    assert (welcome["epoch"], welcome["standby"], welcome["standby_gen"]) == (1, None, 0)
    kit.parts.succession.attached(STANDBY)
    push = sent(kit, eva, "standby")[-1]
    assert push["standby"] == STANDBY and push["gen"] == 1
    assert sent(kit, kit.player("Bob"), "welcome")[0]["standby"] == STANDBY


def test_a_drop_holds_each_table_until_its_player_answered_it() -> None:
    kit = Kit()
    eva, t1 = a_table(kit, "Eva")
    bob, t2 = a_table(kit, "Bob")
    kit.parts.succession.attached(STANDBY)
    kit.parts.succession.dropped("silent")
    gen = sent(kit, eva, "standby")[-1]["gen"]
    assert sent(kit, eva, "standby")[-1]["standby"] is None
    assert set(kit.parts.tables.held) == {t1, t2}
    kit.refused("held", eva, "snapshot", table=t1)
    assert t1 not in [t["id"] for t in kit.ask(eva, "tables")["tables"]]
    kit.ask(eva, "standby_ok", gen=gen)
    assert set(kit.parts.tables.held) == {t2}, "Eva answered: her table goes on"
    assert sent(kit, eva, "view")[-1]["snapshot"] is True
    kit.ask(bob, "standby_ok", gen=gen - 1)          # an older word: not an answer to the drop
    assert set(kit.parts.tables.held) == {t2}
    kit.parts.succession.attached(OTHER)            # another peer attached: it says nothing
    assert set(kit.parts.tables.held) == {t2}, "of whether the one dropped took over"
    kit.parts.succession.returned()                 # the one dropped is back as a peer
    assert not kit.parts.tables.held


def test_a_reply_remembered_about_a_held_table_is_not_told_again() -> None:
    kit = Kit()
    eva, t1 = a_table(kit, "Eva")
    ht = kit.table(t1)
    while not ht.engine.legal_moves(0):
        kit.tick(0.001)                         # the bot's turn first
    kit.ask(eva, "move", table=t1, move=0, version=ht.engine.version, rid=77)
    kit.parts.succession.attached(STANDBY)
    kit.parts.succession.dropped("silent")
    before = len(kit.out.sent.get(eva.id, []))
    # As the server does: the held check comes before the memory of replies.
    try:
        kit.parts.check_held({"type": "move", "table": t1, "rid": 77})
        raise AssertionError("a move about a held table went through")
    except Exception as exc:
        assert getattr(exc, "code", None) == "held"
    assert len(kit.out.sent.get(eva.id, [])) == before


def test_after_a_takeover_a_table_waits_for_one_of_its_players_to_follow() -> None:
    kit = Kit()
    eva, t1 = a_table(kit, "Eva")
    bob, t2 = a_table(kit, "Bob")
    kit.parts.succession.took_over(sure=False)
    assert set(kit.parts.tables.held) == {t1, t2}
    assert eva.route is not None               # his client follows the old host here
    kit.parts.roster.hello(eva.route, {"type": "hello", "rid": None, "name": "Eva",
                                       "features": [], "follow": {"epoch": 1}}, None)
    assert set(kit.parts.tables.held) == {t2}, "a plain hello of Bob would not release his"
    kit.parts.succession.sure("nothing listens at the old host's address")
    assert not kit.parts.tables.held


def test_a_sure_takeover_holds_nothing() -> None:
    kit = Kit()
    a_table(kit, "Eva")
    kit.parts.succession.took_over(sure=True)
    assert not kit.parts.tables.held


def test_a_held_answer_is_not_remembered_and_the_reply_before_it_is_told_once_served() -> None:
    """Through the server's own handling of a frame: a move answered ``ok``, its reply then
    withdrawn by a drop; sent again (same rid) while its table is held it is answered
    ``held``, which is no answer and is not remembered; sent again once the table is served,
    it is answered with the ``ok`` remembered before the hold (never played twice)."""
    from cardparty.net.host.clock import ManualClock
    from cardparty.net.host.config import HostConfig
    from cardparty.net.host.gate import CommitGate
    from cardparty.net.host.parts import build_host
    from cardparty.net.host.server import Server
    from cardparty.net.wire.protocol import decode, encode, message

    gate = CommitGate([])
    clock = ManualClock()
    parts = build_host(HostConfig(idle=None, testing=True, bot_workers=0), store=None,
                       ledger=None, outbox=gate, clock=clock)
    server = Server(parts, gate, clock)
    route = b"eva"

    def say(kind: str, **fields: object) -> list[dict[str, object]]:
        server.frames([route, encode(message(kind, **fields))])
        parts.flush()                   # what the server's flush does, without a socket
        return [decode(f) for r, f in gate.released() if r == route]

    say("hello", name="Eva")
    tid = next(m for m in say("create", rid=1, game="pika", players=2) if m["type"] == "table"
               )["table"]["id"]
    say("sit", rid=2, table=tid)
    say("bots", rid=3, table=tid)
    views = say("ready", rid=4, table=tid)
    ht = parts.tables.all[tid]
    while not ht.engine.legal_moves(0):
        clock.advance(0.01)
        parts.tick(clock.now())
    version = ht.engine.version
    first = [m for m in say("move", rid=77, table=tid, move=0, version=version)
             if m.get("rid") == 77]
    assert first and first[0]["type"] == "ok" and views
    parts.succession.attached(STANDBY)
    parts.succession.dropped("silent")
    held = [m for m in say("move", rid=77, table=tid, move=0, version=version)
            if m.get("rid") == 77]
    assert [m.get("code") for m in held] == ["held"]
    parts.succession.returned()
    again = [m for m in say("move", rid=77, table=tid, move=0, version=version)
             if m.get("rid") == 77]
    assert again == first, "the ok remembered before the hold, once served again"
    assert ht.engine.version >= version + 1
    assert len([s for s, _ in ht.engine.journal if s == 0]) >= 1


def test_after_a_freeze_of_the_host_a_table_its_players_answered_waits_before_it_plays() -> None:
    """The host's laptop hung past its standby's bound (its loop did not turn): the standby
    may have taken over with other players following it, and a player whose client tried
    his host first answers here. His table is served again only ``SETTLE`` seconds later,
    time for the host the standby became to call and make this one stand down; a drop
    without a freeze holds no longer than the answers (the test above)."""
    kit = Kit()
    eva, t1 = a_table(kit, "Eva")
    succession = kit.parts.succession
    succession.attached(STANDBY)
    succession.froze(2.0)
    succession.dropped("it stopped reading")
    gen = sent(kit, eva, "standby")[-1]["gen"]
    kit.ask(eva, "standby_ok", gen=gen)
    assert set(kit.parts.tables.held) == {t1}, "answered within the settling: still held"
    kit.clock.advance(SETTLE / 2)
    kit.parts.tick(kit.clock.now())
    assert set(kit.parts.tables.held) == {t1}
    kit.clock.advance(SETTLE)
    kit.parts.tick(kit.clock.now())
    assert not kit.parts.tables.held
    assert sent(kit, eva, "view")[-1]["snapshot"] is True


def test_a_freeze_without_a_standby_holds_nothing_back() -> None:
    kit = Kit()
    eva, t1 = a_table(kit, "Eva")
    kit.parts.succession.froze(2.0)
    assert kit.parts.succession.settle_until == 0.0
    assert not kit.parts.tables.held
