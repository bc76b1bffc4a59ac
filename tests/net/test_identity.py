"""Who a player is at a host (issue 12, MO-1), on real sockets on 127.0.0.1: the key ZeroMQ
authenticated, never a routing id, a name or a token a client sends."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq

from cardparty.core.i18n import set_language
from cardparty.net.host import Host
from cardparty.net.player.session import Session, SessionError
from cardparty.net.store import identity
from cardparty.net.trust.keys import KeyPair, fingerprint
from cardparty.net.trust.known_hosts import HostKeyError, KnownHosts
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "id-host", heartbeat=0.2, idle=None)
    h.start()
    yield h
    h.stop()


def session(address: str, name: str, keys: KeyPair, **kw: Any) -> Session:
    s = Session(address, name, keys=keys, backoff=(0.02, 0.2), request_timeout=5.0, **kw)
    s.connect(5.0)
    return s


def raw_client(host: Host, keys: KeyPair, routing_id: bytes | None = None) -> zmq.Socket:
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    if routing_id is not None:
        sock.setsockopt(zmq.ROUTING_ID, routing_id)
    sock.curve_secretkey = keys.secret
    sock.curve_publickey = keys.public
    sock.curve_serverkey = host.keys.public
    sock.connect(host.address)
    return sock


def replies(sock: zmq.Socket, seconds: float = 1.0) -> list[dict[str, Any]]:
    out = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if sock.poll(int(left * 1000) + 1):
            out.append(decode(sock.recv(), HOST_LIMITS))
    return out


def test_mo_1_a_second_key_claiming_a_taken_name_is_refused(host: Host) -> None:
    eva, mallory = KeyPair.generate(), KeyPair.generate()
    first = session(host.address, "Eva", eva)
    for spelling in ("Eva", "eva", "ＥＶＡ"):
        with pytest.raises(SessionError) as refused:
            session(host.address, spelling, mallory)
        assert refused.value.code == "name_taken"
        assert "Eva" in refused.value.message or spelling in refused.value.message
    first.close()
    with pytest.raises(SessionError):                 # gone, and still his
        session(host.address, "Eva", mallory)
    session(host.address, "Mallory", mallory).close()


def test_mo_1_the_owner_comes_back_from_another_connection_and_has_his_seat(
        host: Host) -> None:
    eva = KeyPair.generate()
    first = session(host.address, "Eva", eva)
    tid = first.create("pika", 2)["id"]
    assert first.sit(tid) == 0
    first.abort()                                      # the laptop's Wi-Fi dropped
    again = session(host.address, "Eva", eva)          # a new connection, a new route
    assert again.welcome is not None and again.welcome["resumed"]
    seats = [t for t in again.tables() if t["id"] == tid][0]["seats"]
    assert seats[0]["name"] == "Eva"
    with pytest.raises(SessionError) as info:
        again.sit(tid)
    assert info.value.code == "seated"                 # he has it already
    again.close()


def in_play(host: Host, keys: KeyPair) -> tuple[Session, str]:
    """Eva (as ``keys``) seated at a Pika table in play against a bot: her session, its id."""
    eva = session(host.address, "Eva", keys)
    tid = eva.create("pika", 2)["id"]
    eva.sit(tid)
    eva.add_bots(tid)
    eva.ready(tid)
    return eva, tid


def test_a_replayed_token_gets_nothing_of_its_owner(host: Host) -> None:
    eva, mallory = KeyPair.generate(), KeyPair.generate()
    victim, tid = in_play(host, eva)     # a snapshot is for those seated or watching
    assert "token" not in (victim.welcome or {}), "no secret to steal in the welcome"
    # Anyone can compute the host's handle on Eva from her public key: it is worth nothing.
    stolen = identity(eva.public, "Eva")
    with pytest.raises(SessionError) as refused:
        session(host.address, "Eva", mallory, token=stolen)
    assert refused.value.code == "name_taken"
    thief = session(host.address, "Mallory", mallory, token=stolen)
    assert not thief.welcome["resumed"]
    with pytest.raises(SessionError) as info:
        thief.snapshot(tid)
    assert info.value.code in ("not_seated", "no_table")
    thief.close()
    victim.close()


def test_a_replayed_routing_id_gets_nothing_of_its_owner(host: Host) -> None:
    eva, mallory = KeyPair.generate(), KeyPair.generate()
    victim, tid = in_play(host, eva)
    route = [r for r, p in host.parts.roster.routes.items() if p.name == "Eva"][0]
    sock = raw_client(host, mallory, routing_id=route)
    try:
        for kind, fields in (("snapshot", {"table": tid}),
                             ("move", {"table": tid, "move": 0, "version": 1, "rid": 9})):
            sock.send(encode(message(kind, **fields)))
        got = replies(sock)
        assert not [m for m in got if m["type"] in ("view", "ok", "table")], got
        assert all(m["type"] == "error" and m["code"] == "hello_first" for m in got), got
        assert victim.snapshot(tid)["type"] == "view"   # her connection is still hers
    finally:
        sock.close(0)
        victim.close()


def test_every_request_is_the_key_of_its_connection_not_what_it_says(host: Host) -> None:
    eva, mallory = KeyPair.generate(), KeyPair.generate()
    victim = session(host.address, "Eva", eva)
    tid = victim.create("pika", 2, mode="friends")["id"]
    victim.sit(tid)
    sock = raw_client(host, mallory)
    try:
        sock.send(encode(message("hello", rid=1, name="Eva")))
        got = replies(sock, 0.5)
        assert [m["code"] for m in got] == ["name_taken"]
        sock.send(encode(message("sit", rid=2, table=tid)))
        assert [m["code"] for m in replies(sock, 0.5)] == ["hello_first"]
    finally:
        sock.close(0)
        victim.close()


def test_a_client_without_the_host_key_cannot_even_connect(host: Host) -> None:
    sock = zmq.Context.instance().socket(zmq.DEALER)      # the NULL mechanism: plaintext
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(host.address)
    try:
        sock.send(encode(message("hello", rid=1, name="Plain")))
        assert replies(sock, 0.7) == []
    finally:
        sock.close(0)


def test_a_client_refuses_a_host_whose_key_changed(tmp_path: Path) -> None:
    first = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, data=tmp_path / "a")
    address = first.start()
    eva = KeyPair.generate()
    session(address, "Eva", eva).close()
    assert KnownHosts().key_of(address) == first.keys.public
    first.stop()
    impostor = Host(address, "party", heartbeat=0.2, idle=None, data=tmp_path / "b")
    impostor.start()
    try:
        with pytest.raises(SessionError) as refused:
            session(address, "Eva", eva)
        assert refused.value.code == "key_changed"
        assert "cardparty hosts --forget" in refused.value.message
        assert impostor.keys.fingerprint in refused.value.message
        assert KnownHosts().forget(address)             # the operator said so: reset
        session(address, "Eva", eva).close()
        assert KnownHosts().key_of(address) == impostor.keys.public
    finally:
        impostor.stop()


def test_a_client_refuses_an_announced_key_the_host_does_not_prove(host: Host) -> None:
    forged = KeyPair.generate()
    s = Session(host.address, "Eva", keys=KeyPair.generate(), host_key=forged.public,
                backoff=(0.02, 0.2))
    with pytest.raises(SessionError) as refused:
        s.connect(2.0)
    assert refused.value.code == "key_mismatch"
    assert "forged" in refused.value.message
    assert KnownHosts().key_of(host.address) is None     # nothing remembered


def test_a_pinned_fingerprint_is_checked(host: Host) -> None:
    ok = Session(host.address, "Eva", keys=KeyPair.generate(),
                 host_key=host.keys.fingerprint.upper())
    ok.connect(5.0)
    ok.close()
    bad = Session(host.address, "Bob", keys=KeyPair.generate(),
                  host_key=KeyPair.generate().fingerprint)
    with pytest.raises(SessionError) as refused:
        bad.connect(5.0)
    assert refused.value.code == "key_mismatch"


def test_the_host_key_lives_in_its_data_directory_with_mode_0600(tmp_path: Path) -> None:
    h = Host("tcp://127.0.0.1:0", "party", data=tmp_path)
    h.start()
    h.stop()
    assert (tmp_path / "host.key_secret").stat().st_mode & 0o777 == 0o600
    with Host("tcp://127.0.0.1:0", "party", data=tmp_path) as again:
        assert again.keys == h.keys


def test_deals_are_the_hosts_own_unless_it_runs_for_tests(host: Host) -> None:
    eva = session(host.address, "Eva", KeyPair.generate())
    assert eva.welcome is not None and eva.welcome["testing"] is False
    for kw in ({"seed": 7}, {"settings": {"deck": ["S2", "S3"]}}):
        with pytest.raises(SessionError) as refused:
            eva.create("pika", 2, **kw)
        assert refused.value.code == "testing_only"
    table = eva.create("pika", 2)
    assert table["testing"] is False
    eva.close()
    testing = Host("tcp://127.0.0.1:0", "lab", heartbeat=0.2, idle=None, testing=True)
    testing.start()
    try:
        bob = session(testing.address, "Bob", KeyPair.generate())
        assert bob.welcome is not None and bob.welcome["testing"] is True
        assert bob.create("pika", 2, seed=7)["testing"] is True   # every player sees it
        bob.close()
    finally:
        testing.stop()


def test_what_players_send_reaches_the_host_log_as_one_harmless_line(
        host: Host, caplog: pytest.LogCaptureFixture) -> None:
    """Names are checked at hello and in invitations (a name that would reorder or clear a
    line is refused in one line); what is logged of them is one line each."""
    with caplog.at_level(logging.INFO, "cardparty.host"):
        eva = session(host.address, "Eva", KeyPair.generate())
        tid = eva.create("pika", 2, mode="friends")["id"]
        eva.sit(tid)
        for hostile in (["Bob\u202e"], ["Zo\x1b[2Je"], ["Max\nINFO x"]):
            with pytest.raises(SessionError) as bad:
                eva.invite(tid, hostile)
            assert bad.value.code == "bad_field" and "\n" not in bad.value.message
        eva.invite(tid, ["Bob", "Zoë"])
        time.sleep(0.2)
        eva.close()
    with pytest.raises(SessionError) as refused:
        session(host.address, "Mal\nINFO root connected", KeyPair.generate())
    assert refused.value.code == "bad_field"
    for record in caplog.records:
        line = record.getMessage()
        assert "\n" not in line and "\x1b" not in line and "\u202e" not in line, line
    assert any("invites" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("lang", "words"), [("cs", "někdo se za něj může vydávat"),
                                             ("ca", "algú pot estar fent-se passar per ell"),
                                             ("en", "someone may be pretending to be it")])
def test_a_changed_key_is_told_in_the_players_language(lang: str, words: str) -> None:
    """The warning that matters most to a player reads in his language, with the fingerprints
    and the command to reset it unchanged."""
    known, before, now = KnownHosts(), KeyPair.generate(), KeyPair.generate()
    known.remember("127.0.0.1:7999", before.public)
    set_language(lang)
    try:
        with pytest.raises(HostKeyError) as refused:
            known.check("127.0.0.1:7999", now.public)
    finally:
        set_language("en")
        known.forget("127.0.0.1:7999")
    assert refused.value.code == "key_changed"
    text = refused.value.message
    assert words in text and "cardparty hosts --forget 127.0.0.1:7999" in text
    assert fingerprint(now.public) in text and fingerprint(before.public) in text
