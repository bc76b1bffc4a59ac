"""Issue 15, without sockets: what one connection may hold at a host is bounded, and a crowd
of names, tables, watchers or invitations from one client cannot lock others out or cost
the host a square of its work. Parts with a ManualClock and a MemoryOutbox (hostkit)."""

from __future__ import annotations

import pytest

from cardparty.net.host.model import (
    FORGET_UNSEATED,
    MAX_INVITED,
    MAX_OPEN_TABLES,
    MAX_PENDING_INVITATIONS,
    TABLES_PAGE,
    quota_key,
)
from cardparty.net.host.owners import MAX_NAMES_PER_KEY
from cardparty.net.wire.protocol import ProtocolError, encode
from tests.net.hostkit import Kit


def test_fresh_names_on_one_connection_do_not_fill_the_roster() -> None:
    """Lock-out: 4,200 hellos with new names on one socket filled the 4,096 players; a name
    said once and replaced on its connection is forgotten at once."""
    kit = Kit(max_players=50)
    route = b"storm"
    for i in range(500):
        try:
            kit.parts.hello(route, f"Storm {i}")
        except ProtocolError as exc:              # past the names one key may own
            assert exc.code == "too_many" and i >= MAX_NAMES_PER_KEY
    assert len(kit.parts.roster.players) == 1
    assert kit.player("Eva").name == "Eva"          # a newcomer is welcomed, not "busy"


def test_the_player_cap_counts_the_connected_not_the_names_gone() -> None:
    """Many connections say hello once and go silent: once they are gone they make room at
    the cap, and never-seated ones are forgotten within ``FORGET_UNSEATED`` seconds."""
    kit = Kit(max_players=20)
    for i in range(20):
        kit.player(f"Ghost {i}")
    kit.tick(5.0)                                     # silent: disconnected
    eva = kit.player("Eva")                            # the cap makes room
    assert eva.connected
    kit.tick(FORGET_UNSEATED + 1, alive=(eva,))
    assert [p.name for p in kit.parts.roster.players.values()] == ["Eva"]


def test_a_wrong_token_does_not_add_a_lasting_player() -> None:
    """Guessing tokens on one connection leaves at most one player behind, and a guess's
    player is forgotten fast once gone."""
    kit = Kit(max_players=10)
    for i in range(100):
        kit.parts.hello(b"guesser", "Mallory", token=f"{i:032x}")
    assert len(kit.parts.roster.players) == 1
    kit.tick(5.0)                                      # silent: disconnected
    kit.tick(FORGET_UNSEATED + 1)
    assert not kit.parts.roster.players


def test_a_player_who_sat_is_kept_as_long_as_before() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "leave", table=tid)
    kit.ask(eva, "close", table=tid)
    kit.tick(5.0)
    kit.tick(FORGET_UNSEATED + 5)                    # gone, but he took part: kept
    assert eva.token in kit.parts.roster.players


def test_open_tables_per_key_are_capped_with_a_clear_error() -> None:
    kit = Kit()
    key = b"E" * 40
    eva = kit.player("Eva", key=key)
    for _ in range(MAX_OPEN_TABLES):
        kit.open_table("pika", eva, 2)
    text = kit.refused("too_many", eva, "create", game="pika", players=2)
    assert "open tables" in text
    # a new name on the same connection does not get a fresh allowance of tables
    other = kit.parts.hello(eva.route or b"", "Eve", user=key)
    kit.refused("too_many", other, "create", game="pika", players=2)
    # nor does a new connection of the same key under yet another name
    third = kit.player("Evelyn", key=key)
    kit.refused("too_many", third, "create", game="pika", players=2)
    kit.open_table("pika", kit.player("Bob", key=b"B" * 40), 2)


def test_tables_made_and_left_do_not_lock_the_lobby() -> None:
    """One client created 1,000 tables and left: every create was then ``busy``. Open tables
    nobody present sits at nor created make room at the limit."""
    kit = Kit(max_tables=3 * MAX_OPEN_TABLES)
    for i in range(3):
        p = kit.player(f"Maker {i}")
        for _ in range(MAX_OPEN_TABLES):
            kit.open_table("pika", p, 2)
    kit.tick(5.0)                                      # the makers are gone
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    assert tid in kit.parts.tables.all and len(kit.parts.tables.all) == 3 * MAX_OPEN_TABLES


def test_a_table_someone_present_cares_about_is_never_dropped_for_room() -> None:
    kit = Kit(max_tables=2)
    eva = kit.player("Eva")
    kit.open_table("pika", eva, 2)
    kit.open_table("pika", eva, 2)
    kit.refused("busy", kit.player("Bob"), "create", game="pika", players=2)


def test_tables_is_paged() -> None:
    """With 990 tables one ``tables`` reply was 515 KB; a page holds ``TABLES_PAGE``."""
    kit = Kit()
    total = 2 * TABLES_PAGE + 7
    for i in range(total):
        kit.open_table("pika", kit.player(f"P{i}"), 2)
    eva = kit.player("Eva")
    first = kit.ask(eva, "tables")
    assert first is not None
    assert len(first["tables"]) == TABLES_PAGE and first["total"] == total
    assert first["next"] == TABLES_PAGE and len(encode(first)) < 64 * 1024
    last = kit.ask(eva, "tables", offset=2 * TABLES_PAGE)
    assert last is not None and len(last["tables"]) == 7 and last["next"] is None
    seen = [t["id"] for t in first["tables"]] + [t["id"] for t in last["tables"]]
    assert len(set(seen)) == len(seen)


def test_watchers_joining_cost_a_push_each_not_a_square() -> None:
    """2,000 watchers joining stalled the host for 4 s: each watch pushed the summary to
    every watcher."""
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    watchers = [kit.player(f"W{i}") for i in range(300)]
    kit.out.sent.clear()
    for w in watchers:
        kit.ask(w, "watch", table=tid)
    pushed = sum(len(v) for v in kit.out.sent.values())
    assert pushed <= 2 * len(watchers), pushed
    assert kit.table(tid).spectators == {w.id for w in watchers}
    kit.out.sent.clear()
    for w in watchers:
        kit.ask(w, "leave", table=tid)
    pushed = sum(len(v) for v in kit.out.sent.values())
    assert pushed <= 2 * len(watchers), pushed
    assert not kit.table(tid).spectators and not any(w.tables for w in watchers)


def test_an_invitation_already_pending_is_not_sent_again() -> None:
    """Inviting one name 500 times sent 500 ``invited`` pushes."""
    kit = Kit()
    eva, bob = kit.player("Eva"), kit.player("Bob")
    tid = kit.open_table("pika", eva, 2, mode="friends")
    for _ in range(50):
        kit.ask(eva, "invite", table=tid, names=["Bob", "bob "])
    assert len(kit.out.take(bob, "invited")) == 1


def test_names_per_key_are_capped_with_a_clear_error() -> None:
    """A fresh name on every hello bound each to the key for good in the store's ``owners``:
    one key owns ``MAX_NAMES_PER_KEY`` names at most; its names still work, other keys too."""
    kit = Kit()
    key = b"M" * 40
    for i in range(MAX_NAMES_PER_KEY):
        kit.player(f"Name {i}", key=key)
    with pytest.raises(ProtocolError) as info:
        kit.player("One more", key=key)
    assert info.value.code == "too_many" and "names" in info.value.message
    assert kit.parts.roster.owners.owner("One more") is None          # nothing bound
    assert kit.player("Name 3", key=key).name == "Name 3"              # his own still work
    assert kit.player("One more", key=b"O" * 40).name == "One more"   # another key's may


def test_pending_invitations_per_key_are_capped_with_a_clear_error() -> None:
    """Invitations pending over all of one key's tables are capped; one who sits no longer
    counts, so the key may invite again."""
    kit = Kit()
    key = b"E" * 40
    eva = kit.player("Eva", key=key)
    invited = 0
    while invited < MAX_PENDING_INVITATIONS:
        tid = kit.open_table("pika", eva, 2, mode="friends")
        batch = min(MAX_INVITED, MAX_PENDING_INVITATIONS - invited)
        for start in range(0, batch, 16):
            kit.ask(eva, "invite", table=tid,
                    names=[f"Guest {invited + n}" for n in range(start, min(batch, start + 16))])
        invited += batch
    last = kit.open_table("pika", eva, 2, mode="friends")
    text = kit.refused("too_many", eva, "invite", table=last, names=["Bob"])
    assert "invitations pending" in text
    # another name of the same key shares the cap
    eve = kit.player("Eve", key=key)
    kit.refused("too_many", eve, "invite", names=["Bob"],
                table=kit.open_table("pika", eve, 2, mode="friends"))
    # an invited guest sits: his invitation is no longer pending
    guest = kit.player("Guest 0", key=b"G" * 40)
    first = next(t for t in kit.parts.tables.all.values() if "Guest 0" in t.access.invited)
    kit.ask(guest, "sit", table=first.id)
    reply = kit.ask(eva, "invite", table=last, names=["Bob"])
    assert reply is not None and reply["type"] == "ok"


def test_a_crowd_of_watchers_gone_does_not_lock_the_host() -> None:
    """2,000 watchers who came and went kept every newcomer out (``busy``) for as long as
    the table lasted; one who only watched makes room at the cap, and stops watching."""
    kit = Kit(max_players=30)
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    for i in range(29):
        kit.ask(kit.player(f"W{i}"), "watch", table=tid)
    kit.tick(5.0, alive=(eva,))                        # the watchers are gone
    bob = kit.player("Bob")
    assert bob.connected and len(kit.table(tid).spectators) == 28
    assert kit.table(tid).seats[0].player is eva       # a seated player is never forgotten


def test_the_allowances_follow_the_connections_of_the_last_seconds() -> None:
    from cardparty.net.host.gate import CommitGate
    from cardparty.net.host.server import Server

    kit = Kit()
    server = Server(kit.parts, CommitGate(), kit.clock)
    for i in range(1000):
        assert server.allowances.spend(quota_key(f"r{i}".encode(), f"{i:040d}".encode()),
                                       i * 0.01)
    assert len(server.allowances) <= 300


def test_the_allowance_is_the_keys_whatever_connection_or_name() -> None:
    """Limits are counted per authenticated key (``model.quota_key``): a key that spends
    its burst on one connection is refused on another, under another name; another key is
    not."""
    from cardparty.net.host.gate import CommitGate
    from cardparty.net.host.model import BURST
    from cardparty.net.host.server import Server

    kit = Kit()
    server = Server(kit.parts, CommitGate(), kit.clock)
    key = b"K" * 40
    assert quota_key(b"r1", key) == quota_key(b"r2", key)
    assert all(server.allowances.spend(quota_key(b"r1", key), 0.0) for _ in range(int(BURST)))
    assert not server.allowances.spend(quota_key(b"r2", key), 0.0)
    assert server.allowances.spend(quota_key(b"r3", b"L" * 40), 0.0)


def test_watchers_who_never_sat_are_forgotten_fast_and_stop_watching() -> None:
    """A crowd of watchers that came and went was kept (and sent every view) for as long as
    the table lasted."""
    kit = Kit()
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    for i in range(50):
        kit.ask(kit.player(f"W{i}"), "watch", table=tid)
    kit.tick(5.0, alive=(eva,))
    kit.tick(FORGET_UNSEATED + 1, alive=(eva,))
    assert not kit.table(tid).spectators
    assert [p.name for p in kit.parts.roster.players.values()] == ["Eva"]
