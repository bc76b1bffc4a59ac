"""Table modes and invitations on the wire (MO-4): a friends table seats only its
creator and the players invited by username, who are told at once and again when they come
back; an open table seats anyone. Real host, real sockets on 127.0.0.1."""

from __future__ import annotations

from typing import Any

import pytest

from cardparty.net.host import MAX_INVITED, Host
from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire.protocol import (
    HOST_LIMITS,
    ProtocolError,
    check_request,
    decode,
    encode,
    message,
)
from tests.net.conftest import wait_for
from tests.net.test_hostile import Raw


def refused(code: str, call: Any, *args: Any, **kw: Any) -> SessionError:
    with pytest.raises(SessionError) as info:
        call(*args, **kw)
    assert info.value.code == code, info.value
    return info.value


def is_invited(msg: dict[str, Any]) -> bool:
    return msg["type"] == "invited"


# --- the schema ------------------------------------------------------------------------------

def test_create_takes_a_mode_friends_or_open_and_an_old_client_gets_open() -> None:
    old = check_request(decode(encode({"type": "create", "game": "pika", "players": 2})))
    assert old["mode"] == "open"
    new = check_request(decode(encode({"type": "create", "game": "pika", "players": 2,
                                       "mode": "friends"})))
    assert new["mode"] == "friends"
    for bad in ("league", "", 1, None, ["friends"], True):
        with pytest.raises(ProtocolError) as info:
            check_request(decode(encode({"type": "create", "game": "pika", "players": 2,
                                         "mode": bad})))
        assert info.value.code == "bad_field" and "mode" in info.value.message


@pytest.mark.parametrize("fields", [
    {},                                                  # no table, no names
    {"table": "t1"},                                     # no names
    {"table": "t1", "names": "Bob"},                     # a string, not a list
    {"table": "t1", "names": []},                        # nobody
    {"table": "t1", "names": ["Bob", 7]},                # not a name
    {"table": "t1", "names": ["Bob", ""]},               # an empty name
    {"table": "t1", "names": ["x" * 33]},                # longer than any username
    {"table": "t1", "names": [f"P{i}" for i in range(17)]},   # too many at once
    {"table": "t1", "names": [["Bob"]]},                 # nested
    {"table": 1, "names": ["Bob"]},                      # a table id is a string
])
def test_a_malformed_invite_is_refused_as_bad_field(fields: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as info:
        check_request(decode(encode({"type": "invite", **fields})))
    assert info.value.code == "bad_field"


# --- the host ----------------------------------------------------------------------------------

def test_an_open_table_seats_anyone_and_needs_no_invitation(connect: Any) -> None:
    eva, zoe = connect("Eva"), connect("Zoe")
    summary = eva.create("pika", 2)
    assert summary["mode"] == "open" and summary["creator"] == "Eva"
    assert summary["invited"] == []
    tid = summary["id"]
    assert zoe.sit(tid) == 0
    zoe.add_bots(tid)                       # at an open table any seated player adds bots
    error = refused("not_friends", eva.invite, tid, ["Bob"])
    assert "open" in error.message


def test_mo4_only_the_creator_and_invitees_sit_at_a_friends_table(connect: Any) -> None:
    eva, bob, zoe = connect("Eva"), connect("Bob"), connect("Zoe")
    tid = eva.create("pika", 3, mode="friends")["id"]
    error = refused("not_invited", zoe.sit, tid)
    assert "Eva created this friends table" in error.message
    eva.invite(tid, ["bob"])                # usernames match without regard to case
    assert bob.sit(tid) == 0
    error = refused("not_invited", zoe.sit, tid)
    assert "Eva" in error.message
    assert eva.sit(tid) == 1                # the creator needs no invitation
    summary = next(t for t in zoe.tables() if t["id"] == tid)
    assert summary["mode"] == "friends" and summary["invited"] == ["Bob"]   # as Bob spells it
    assert [s["name"] for s in summary["seats"]] == ["Bob", "Eva", ""]


def test_mo4_bots_only_if_the_creator_adds_them(connect: Any) -> None:
    eva, bob = connect("Eva"), connect("Bob")
    tid = eva.create("pika", 3, mode="friends")["id"]
    eva.invite(tid, ["Bob"])
    bob.sit(tid)
    error = refused("not_creator", bob.add_bots, tid)
    assert "Eva" in error.message
    eva.add_bots(tid, 1)                    # the creator may, even before he sits
    eva.sit(tid)
    summary = next(t for t in bob.tables() if t["id"] == tid)
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "human"]


def test_mo4_who_may_invite_and_when(connect: Any) -> None:
    eva, bob, zoe = connect("Eva"), connect("Bob"), connect("Zoe")
    tid = eva.create("pika", 2, mode="friends")["id"]
    refused("not_seated", zoe.invite, tid, ["Zoe"])   # neither seated here nor its creator
    refused("no_table", eva.invite, "t999", ["Bob"])
    refused("bad_field", eva.invite, tid, ["  "])
    eva.invite(tid, ["Bob"])
    bob.sit(tid)
    bob.invite(tid, ["Zoe"])                # a seated invitee may invite in turn
    invitation = wait_for(zoe, is_invited)
    assert invitation["from"] == "Bob"
    eva.sit(tid)
    eva.ready(tid)
    bob.ready(tid)
    wait_for(eva, lambda m: m["type"] == "view")
    refused("not_open", eva.invite, tid, ["Max"])


def test_mo4_the_invited_names_are_the_players_own_spelling(connect: Any) -> None:
    """``invited petr, Jana`` repeated the names as typed: the host answers, lists and tells
    each name as its player spells it (a name nobody holds yet stays as typed)."""
    eva = connect("Eva")
    connect("Petr"), connect("Jana")
    tid = eva.create("pika", 3, mode="friends")["id"]
    reply = eva.request("invite", table=tid, names=["petr", "JANA", "zoe"])
    assert reply["names"] == ["Petr", "Jana", "zoe"]
    assert eva.tables()[0]["invited"] == ["Petr", "Jana", "zoe"]
    assert eva.request("invite", table=tid, names=["pEtR"])["names"] == ["Petr"]
    assert eva.tables()[0]["invited"] == ["Petr", "Jana", "zoe"]


def test_mo4_a_table_invites_a_bounded_number_of_players(connect: Any) -> None:
    eva = connect("Eva")
    tid = eva.create("pika", 2, mode="friends")["id"]
    for start in range(0, MAX_INVITED, 16):
        eva.invite(tid, [f"P{i}" for i in range(start, start + 16)])
    eva.invite(tid, ["P0", "p1"])           # already invited: nothing new, no harm
    refused("bad_field", eva.invite, tid, ["One too many"])
    assert len(eva.tables()[0]["invited"]) == MAX_INVITED


def test_mo4_the_invitee_is_told_live_and_again_after_reconnecting(
        host: Host, connect: Any) -> None:
    eva, bob, zoe = connect("Eva"), connect("Bob"), connect("Zoe")
    tid = eva.create("pika", 2, mode="friends", title="Friday")["id"]
    eva.sit(tid)
    eva.invite(tid, ["Bob"])
    live = wait_for(bob, is_invited)
    assert (live["table"], live["game"], live["from"], live["title"]) == (
        tid, "pika", "Eva", "Friday")
    # Those at the table see the invitation in its summary.
    wait_for(eva, lambda m: m["type"] == "table" and m["table"]["invited"] == ["Bob"])
    # Bob's client dies; he comes back (his key and name) and is told again.
    bob.abort()
    again = Session(host.address, "Bob", backoff=(0.02, 0.2))
    try:
        assert again.connect()["resumed"] is True
        told = wait_for(again, is_invited)
        assert (told["table"], told["from"], told["title"]) == (tid, "Eva", "Friday")
        assert again.sit(tid) == 1
    finally:
        again.abort()
    # Nobody else was told, and once he sits the invitation is no longer pending.
    assert not any(m["type"] == "invited" for m in iter(lambda: zoe.next_message(0.2), None))
    later = connect("Bob")                  # another Bob: a Bob sits there already
    assert not any(m["type"] == "invited" for m in iter(lambda: later.next_message(0.3), None))


def test_mo4_a_raw_client_that_invites_badly_gets_errors_and_the_host_goes_on(
        host: Host) -> None:
    raw = Raw(host.address, host.keys.public)
    try:
        assert raw.ask(encode(message("hello", name="Eva")))["type"] == "welcome"
        raw.send(encode(message("create", rid=1, game="pika", players=2, mode="friends")))
        made = raw.sock.poll(3000) and decode(raw.sock.recv(), HOST_LIMITS)
        assert made and made["type"] == "table"
        tid = made["table"]["id"]
        for rid, bad in enumerate(({"names": None}, {"names": ["Bob"] * 20},
                                   {"names": [{"a": 1}]}, {"names": [b"Bob"]},
                                   {"names": ["Bob"], "table": ["t1"]}), 10):
            reply = raw.ask(encode(message("invite", rid=rid, **{"table": tid, **bad})))
            assert reply["type"] == "error" and reply["code"] == "bad_field", reply
            assert reply["message"] and "\n" not in reply["message"]
        reply = raw.ask(encode(message("invite", rid=3, table=tid, names=["Bob"])))
        assert reply == {"type": "ok", "v": 1, "about": "invite", "rid": 3, "names": ["Bob"]}
        assert raw.ask(encode(message("ping", rid=4)))["type"] == "pong"
    finally:
        raw.close()


def test_mo4_mode_and_invitees_survive_the_host_restarted_from_its_data(tmp_path: Any
                                                                       ) -> None:
    host = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, data=tmp_path, testing=True)
    address = host.start()
    eva = Session(address, "Eva", backoff=(0.02, 0.2))
    bob = Session(address, "Bob", backoff=(0.02, 0.2))
    zoe = Session(address, "Zoe", backoff=(0.02, 0.2))
    try:
        for s in (eva, bob, zoe):
            s.connect()
        tid = eva.create("pika", 3, mode="friends")["id"]
        eva.sit(tid)
        eva.invite(tid, ["Bob"])
        wait_for(bob, is_invited)
        bob.abort()                          # away while the host restarts
        host.stop()
        host = Host(address, heartbeat=0.1, idle=None, data=tmp_path, testing=True)
        assert host.tables[tid].access.mode == "friends"
        assert host.tables[tid].access.invited == {"Bob": "Eva"}
        host.start()
        wait_for(eva, lambda m: m["type"] == "connection" and m["state"] == "restored",
                 timeout=5)
        summary = next(t for t in eva.tables() if t["id"] == tid)
        assert (summary["mode"], summary["creator"], summary["invited"]) == (
            "friends", "Eva", ["Bob"])
        bob = Session(address, "Bob", backoff=(0.02, 0.2))
        bob.connect()
        assert wait_for(bob, is_invited)["table"] == tid     # still pending after a restart
        refused("not_invited", zoe.sit, tid)
        assert bob.sit(tid) == 1
        refused("not_creator", bob.add_bots, tid)
        eva.add_bots(tid)                    # the creator is still known by his key
    finally:
        for s in (eva, bob, zoe):
            s.abort()
        host.stop()
