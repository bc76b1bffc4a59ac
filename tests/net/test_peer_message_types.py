"""The shapes of the messages between a party's peers (``net/peers/messages.py``), of the
``error`` reply and of the host's word to its players about its succession
(``net/wire/protocol.py``), and of the key desk's answer (``net/trust/keydesk.py``) hold what
a real host and real peers send: a host that keeps a store with two approved peers speaking
the wire on real sockets (one its standby, one waiting, then a key it did not approve), a
player's real session, a standby's own socket. Every message is held as it comes off the wire
and as the peer's reader (``read_from_host``) gives it: every key declared, of the type
declared, every key the shape requires present."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import zmq

from cardparty.net.host import Host
from cardparty.net.peers import messages
from cardparty.net.peers.peer import (
    BOUND,
    PEER_LIMITS,
    hello,
    read_from_host,
)
from cardparty.net.peers.peer import (
    ack as ack_msg,
)
from cardparty.net.peers.standby import Standby, peer_socket
from cardparty.net.player.session import Session
from cardparty.net.trust.keydesk import QUESTION, KeyReply, desk_endpoint
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire import protocol
from cardparty.net.wire.address import HostAddress
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message
from tests.net.shapes import held_to

#: Each message a host sends a peer, by its type, and the shape it is held to.
FROM_HOST: dict[str, type] = {
    "standby_welcome": messages.StandbyWelcomePush, "snapshot": messages.SnapshotPush,
    "snapshot_end": messages.SnapshotEndPush, "records": messages.RecordsPush,
    "beat": messages.BeatPush, "standby_attached": messages.StandbyAttachedPush,
    "standby_wait": messages.StandbyWaitPush, "takeover": messages.TakeoverPush,
    "standby_dropped": messages.StandbyDroppedPush, "error": protocol.ErrorReply,
}


def at(host: Host) -> HostAddress:
    return HostAddress("127.0.0.1", int(host.address.rsplit(":", 1)[1]))


def until(what: Callable[[], object], timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


class Peer:
    """A peer of the party speaking the wire itself, on its own thread: it says hello (again
    with the copy it has, as a standby does), keeps every frame its host sends (as decoded,
    and as ``read_from_host`` reads it), and acknowledges the last record it was sent, as a
    standby that wrote it would (unless ``acking`` is cleared: a silent standby); it
    acknowledges a ``takeover`` with ``took``."""

    def __init__(self, ctx: zmq.Context[Any], keys: KeyPair, host: Host, serves: int) -> None:
        self.sock = peer_socket(ctx, keys, host.keys.public, at(host))
        self.serves = HostAddress("127.0.0.1", serves)
        self.session, self.epoch, self.stream, self.seq = 0, 0, "", -1
        self.got: list[tuple[dict[str, Any], messages.FromHost]] = []
        self.outbox: list[dict[str, Any] | None] = []
        self.acking = threading.Event()
        self.acking.set()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def hello(self) -> None:
        """A hello in a new session (with the copy this peer has)."""
        self.outbox.append(None)

    def say(self, msg: dict[str, Any]) -> None:
        self.outbox.append(msg)

    def kinds(self) -> list[str]:
        return [raw["type"] for raw, _ in self.got]

    def _run(self) -> None:
        last = 0.0
        sock = self.sock
        while not self.stopping.is_set():
            while self.outbox:                  # each in turn, once it can go
                said = self.outbox[0]
                if said is None:
                    self.session += 1
                    said = self.outbox[0] = dict(hello(
                        self.serves, self.epoch, self.session, self.stream, self.seq,
                        "127.0.0.1:1"))
                if not self._send(said):
                    break
                self.outbox.pop(0)
            if sock.poll(20):
                frame = sock.recv()
                msg = read_from_host(frame)
                self.got.append((decode(frame, PEER_LIMITS), msg))
                if msg["type"] == "standby_welcome":
                    self.epoch, self.stream = msg["epoch"], msg["stream"]
                    if msg["files"] is not None:
                        self.seq = -1
                elif msg["type"] == "snapshot_end":
                    self.seq = msg["seq"]
                elif msg["type"] == "records" and msg["records"]:
                    self.seq = max(self.seq, msg["records"][-1][0])
                elif msg["type"] == "takeover":
                    self._send(ack_msg(self.seq, self.session, took=True))
            now = time.monotonic()
            if self.acking.is_set() and now - last > 0.05:
                self._send(ack_msg(self.seq, self.session))
                last = now

    def _send(self, msg: Mapping[str, object]) -> bool:
        """Whether ``msg`` went (nothing is queued while the connection is not up)."""
        try:
            self.sock.send(encode(msg), zmq.NOBLOCK)
        except zmq.Again:
            return False
        return True

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.sock.close(0)


@pytest.fixture
def ctx() -> Iterator[zmq.Context[Any]]:
    c: zmq.Context[Any] = zmq.Context()
    try:
        yield c
    finally:
        c.destroy(linger=0)


def reply(sock: zmq.Socket[Any], msg: Mapping[str, object], kind: str) -> dict[str, Any]:
    """``msg`` sent as a player, and the first message of type ``kind`` that comes back."""
    sock.send(encode(msg))
    end = time.monotonic() + 10
    while sock.poll(max(1, int((end - time.monotonic()) * 1000))):
        got = decode(sock.recv(), HOST_LIMITS)
        if got["type"] == kind:
            return got
    raise AssertionError(f"no {kind}")


def pushed(session: Session, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of type ``kind`` the host pushed to ``session``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        msg = session.next_message(0.1)
        if msg is not None and msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} push")


def test_what_a_host_and_its_peers_say_to_each_other_is_as_declared(
        tmp_path: Path, ctx: zmq.Context[Any]) -> None:
    """The standby's join (a snapshot, records with the replies they hold, beats), its
    attachment, its drop when it goes silent and its return from its copy, a peer kept
    waiting, a hello the host cannot read, a key it did not approve, and the hand-over as the
    host stops; the player told of each in his welcome, the ``standby`` pushes and his pong."""
    a_keys, b_keys, stranger = KeyPair.generate(), KeyPair.generate(), KeyPair.generate()
    host = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, testing=True,
                bot_workers=0, data=tmp_path / "host",
                peers=(a_keys.fingerprint, b_keys.fingerprint))
    host.start()
    peers: list[Peer] = []
    eva = Session(host.address, "Eva")
    try:
        welcome = eva.connect()
        held_to({k: welcome[k] for k in ("epoch", "standby", "standby_gen")},
                protocol.SuccessionWord)
        assert welcome["standby"] is None
        desk = ctx.socket(zmq.DEALER)
        desk.connect(desk_endpoint(host.address))
        desk.send(QUESTION)
        assert desk.poll(5000)
        held_to(decode(desk.recv(), HOST_LIMITS), KeyReply)
        desk.close(0)

        a = Peer(ctx, a_keys, host, 7001)
        peers.append(a)
        a.hello()
        until(lambda: "standby_attached" in a.kinds())
        word = pushed(eva, "standby")
        held_to(word, protocol.StandbyPush)
        assert word["standby"] == {"address": "127.0.0.1", "port": 7001,
                                   "key": a_keys.public.decode()}
        eva.create("pika", 2)                   # remembered: it goes with its records
        until(lambda: any(m["type"] == "records" and m["replies"] for _, m in a.got))
        bob = peer_socket(ctx, KeyPair.generate(), host.keys.public, at(host))
        try:                                    # (a session answers its own pings)
            welcome = reply(bob, message("hello", name="Bob"), "welcome")
            held_to({k: welcome[k] for k in ("epoch", "standby", "standby_gen")},
                    protocol.SuccessionWord)
            assert welcome["standby"] == word["standby"]
            pong = reply(bob, message("ping"), "pong")
        finally:
            bob.close(0)
        held_to(pong["standby"], protocol.StandbyStatus)
        assert pong["standby"]["state"] == "attached"
        until(lambda: "beat" in a.kinds())

        a.acking.clear()                        # silent: dropped, the player told why
        until(lambda: "standby_dropped" in a.kinds(), 5 * BOUND)
        word = pushed(eva, "standby")
        held_to(word, protocol.StandbyPush)
        assert word["standby"] is None and word["why"]
        a.acking.set()
        a.hello()                               # back, from its copy: no snapshot
        until(lambda: a.kinds().count("standby_attached") == 2)
        assert [m["files"] for raw, m in a.got if raw["type"] == "standby_welcome"][-1] is None

        b = Peer(ctx, b_keys, host, 7002)
        peers.append(b)
        b.hello()
        until(lambda: "standby_wait" in b.kinds())
        assert [m for _, m in b.got if m["type"] == "standby_wait"][-1]["standby"] is not None
        b.say(message("standby_hello", serves="no address", session=9))
        until(lambda: "error" in b.kinds())
        c = Peer(ctx, stranger, host, 7003)
        peers.append(c)
        c.acking.clear()                        # a stranger's acknowledgement is no request
        c.hello()
        until(lambda: "error" in c.kinds())
        assert [raw["code"] for raw, _ in b.got + c.got if raw["type"] == "error"] == [
            "bad_field", "not_standby"]

        eva.close()
        host.stop(10)                           # hands the party over to its standby
        until(lambda: "takeover" in a.kinds())
        until(lambda: "standby_dropped" in b.kinds())
        assert [m for _, m in b.got if m["type"] == "standby_dropped"][-1].get("go")
    finally:
        eva.close()
        host.stop(10)
        for peer in peers:
            peer.close()

    seen: set[str] = set()
    for peer in peers:
        for raw, read in peer.got:
            held_to(raw, FROM_HOST[raw["type"]])
            held_to(read, FROM_HOST[raw["type"]])
            seen.add(raw["type"])
    assert seen == set(FROM_HOST), set(FROM_HOST) - seen


def test_what_a_peer_says_is_as_declared() -> None:
    """A peer's hello and its acknowledgements (each kind of them) off the wire."""
    said = hello(HostAddress("127.0.0.1", 7001), 3, 8, "s1", 41, "10.0.0.1:7000")
    held_to(decode(encode(said)), messages.StandbyHelloMessage)
    for took, healed in ((False, False), (True, False), (False, True)):
        held_to(decode(encode(ack_msg(41, 8, took, healed))), messages.StandbyAckMessage)


def test_a_standby_says_not_host_with_the_host_it_stands_by(tmp_path: Path,
                                                            ctx: zmq.Context[Any]) -> None:
    host_key = KeyPair.generate().public
    keys = KeyPair.generate()
    standby = Standby(HostAddress("127.0.0.1", 9), host_key, tmp_path / "standby", keys,
                      HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0")
    runner = threading.Thread(target=standby.run, daemon=True)
    runner.start()
    try:
        port = int(standby.address.rsplit(":", 1)[1])
        sock = peer_socket(ctx, KeyPair.generate(), keys.public, HostAddress("127.0.0.1", port))
        try:
            sock.send(encode(message("hello", rid=1, name="Ann")))
            assert sock.poll(5000)
            reply = decode(sock.recv(), HOST_LIMITS)
        finally:
            sock.close(0)
        held_to(reply, protocol.NotHostReply)
        assert (reply["code"], reply["host"], reply["key"], reply["rid"]) == (
            "not_host", "127.0.0.1:9", host_key.decode(), 1)
    finally:
        standby.stop()
        runner.join(5)


def test_a_key_or_a_missing_field_no_shape_declares_is_found() -> None:
    with pytest.raises(AssertionError):
        held_to({"type": "beat", "v": 1, "stream": "s", "seq": 3, "colour": "red"},
                messages.BeatPush)
    with pytest.raises(AssertionError):
        held_to({"type": "beat", "v": 1, "stream": "s"}, messages.BeatPush)
    with pytest.raises(AssertionError):
        held_to({"type": "records", "v": 1, "stream": "s", "records": [[1, "host"]],
                 "replies": []}, messages.RecordsPush)
    with pytest.raises(AssertionError):
        held_to({"type": "error", "v": 1, "code": "x", "message": "m", "rid": None,
                 "about": None, "msg": "words"}, protocol.ErrorReply)
    held_to({"type": "error", "v": 1, "code": "x", "message": "m", "rid": None,
             "about": None}, protocol.ErrorReply)
