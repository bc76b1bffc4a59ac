"""Hostile and broken clients: every bad frame gets an error reply, the host stays up, and a
game on another table plays on unharmed with nothing leaked."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
import zmq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardparty.net.host import BURST, RATE
from cardparty.net.player.netbot import play_table
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import ERRORS, HOST_LIMITS, decode, encode, message
from tests.net.conftest import wait_for
from tests.net.leaks import check_messages


class Raw:
    """A DEALER that sends whatever it is given and reads the replies: a CURVE client with
    a key pair of its own (anyone may connect; what it sends is up to it)."""

    def __init__(self, address: str, host_key: bytes, keys: KeyPair | None = None) -> None:
        keys = keys or KeyPair.generate()
        self.sock = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.curve_secretkey = keys.secret
        self.sock.curve_publickey = keys.public
        self.sock.curve_serverkey = host_key
        self.sock.connect(address)

    def send(self, *frames: bytes) -> None:
        self.sock.send_multipart(list(frames))

    def reply(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next message that is not pushed (a view, table summary or chat)."""
        while True:
            assert self.sock.poll(int(timeout * 1000)), "no reply from the host"
            msg = decode(self.sock.recv(), HOST_LIMITS)
            if msg["type"] not in ("view", "table", "chat"):
                return msg

    def ask(self, *frames: bytes) -> dict[str, Any]:
        self.send(*frames)
        return self.reply()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw(host: Any) -> Iterator[Raw]:
    r = Raw(host.address, host.keys.public)
    yield r
    r.close()


@pytest.fixture
def game_elsewhere(connect: Any, visibility: Any, host: Any) -> Iterator[Any]:
    """A four-seat Pika table played by network bots in the background all through the test;
    at the end it must have reached its result with nothing leaked."""
    sessions = [connect(f"Bystander {i}") for i in range(4)]
    tid = sessions[0].create("pika", 4, {"hand_size": 12}, seed=5)["id"]
    received: dict[int, list[Any]] = {i: [] for i in range(4)}
    results: list[Any] = [None] * 4
    failures: list[BaseException] = []
    for s in sessions:
        s.sit(tid)
    gate = threading.Event()
    done = threading.Event()          # the test's body ran: the game may end as fast as it can

    def pace() -> float:
        """Slow while the test's body runs (its game must outlast any burst: at 0.1 s a
        move, a loaded machine once finished it inside a long one), then quick."""
        return 0.0 if done.is_set() else 0.3

    def bot(i: int) -> None:
        try:
            gate.wait(5)
            sessions[i].ready(tid)
            results[i] = play_table(sessions[i], tid, rng=random.Random(i), timeout=60,
                                    on_message=received[i].append, delay=pace)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=bot, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    watcher = connect("Watcher")
    watcher.watch(tid)
    gate.set()
    wait_for(watcher, lambda m: m["type"] == "view" and m["version"] > 0)
    yield tid
    status = host.tables[tid].status
    done.set()
    assert status == "playing", "the burst ran while the game went on"
    for t in threads:
        t.join(90)
    assert not failures, failures
    assert results[0] is not None and all(r == results[0] for r in results)
    for seat, messages in received.items():
        assert check_messages(messages, seat, visibility.seen, visibility.deck) > 0


def test_malformed_frames_get_error_replies_with_their_codes(raw: Raw, game_elsewhere: str
                                                             ) -> None:
    cases = {
        b"\xc1": "malformed",
        b"\x91" * 3000: "malformed",
        msgpack.packb([1, 2, 3]): "malformed",
        msgpack.packb({"type": "ping", "v": 1, "x": msgpack.ExtType(1, b"boom")}): "malformed",
        b"\x81\xa4type\xdb\xff\xff\xff\xff": "malformed",             # a 4 GB string header
        b"\x00" * 200_000: "too_big",
        msgpack.packb({"type": "ping", "v": 2}): "version",
        msgpack.packb({"type": 12, "v": 1}): "bad_field",
        encode({"type": "rm -rf"}): "unknown_type",
        encode({"type": "hello", "name": ["x"]}): "bad_field",
        encode({"type": "games"}): "hello_first",
    }
    for frame, code in cases.items():
        reply = raw.ask(frame)
        assert reply["type"] == "error" and reply["code"] == code, (frame[:20], reply)
    assert raw.ask(b"a", b"b", b"c")["code"] == "frames"
    assert raw.ask(encode(message("hello", name="Mallory", rid=1)))["type"] == "welcome"
    wrong = {"type": "create", "game": "pika", "players": "four", "rid": "r1"}
    reply = raw.ask(encode(wrong))
    assert reply["code"] == "bad_field" and reply["rid"] == "r1" and "players" in reply["message"]


def test_a_frame_over_the_hard_limit_costs_only_its_own_connection(host: Any, raw: Raw,
                                                                  game_elsewhere: str) -> None:
    raw.send(b"\x00" * (2 * 1024 * 1024))
    fresh = Raw(host.address, host.keys.public)
    try:
        assert fresh.ask(encode(message("hello", name="Next")))["type"] == "welcome"
    finally:
        fresh.close()


def test_nobody_may_play_peek_at_or_take_another_players_seat(connect: Any, raw: Raw,
                                                              game_elsewhere: str) -> None:
    tid = game_elsewhere
    assert raw.ask(encode(message("hello", name="Mallory")))["type"] == "welcome"

    def code(kind: str, **fields: Any) -> str:
        reply = raw.ask(encode(message(kind, rid=random.getrandbits(30), **fields)))
        return reply.get("code", reply["type"])

    assert code("move", table=tid, move=0, version=0) == "not_seated"
    assert code("move", table=tid, move={"kind": "draw"}, version=None) == "not_seated"
    assert code("snapshot", table=tid) == "not_seated"
    assert code("reorder", table=tid, order=["R1"]) == "not_seated"
    assert code("sit", table=tid, seat=0) in ("seat_taken", "not_open")
    assert code("ready", table=tid) == "not_seated"
    assert code("start", table=tid) == "not_seated"
    assert code("leave", table=tid) == "not_seated"
    assert code("chat", table=tid, text="hi") == "not_seated"
    assert code("bots", table=tid) == "not_seated"
    assert code("move", table="t999", move=0, version=0) == "no_table"


def test_moves_out_of_turn_are_refused_with_the_rules_reason(connect: Any,
                                                            game_elsewhere: str) -> None:
    eva, petr = connect("Eva"), connect("Petr")
    tid = eva.create("pika", 2, {"dealer": 1})["id"]
    eva.sit(tid)
    petr.sit(tid)
    eva.ready(tid)
    petr.ready(tid)
    view = wait_for(petr, lambda m: m["type"] == "view")
    assert view["view"]["turn"] == 0
    fut = petr.send_move(tid, {"kind": "draw"}, view["version"])
    with pytest.raises(Exception, match="not your turn"):
        fut.result(3)
    fut = petr.send_move(tid, {"kind": "play", "cards": ["W+4"], "choice": "R"},
                         view["version"])
    with pytest.raises(Exception, match="illegal"):
        fut.result(3)


def test_a_client_flooding_the_host_is_slowed_down_and_the_other_table_goes_on(
        raw: Raw, game_elsewhere: str) -> None:
    """Every frame is answered, but beyond its allowance (``BURST`` at once, then ``RATE`` a
    second) a player's frames are refused unread with ``slow_down``; a moment later he is
    served again. The game on the other table is checked to go on by ``game_elsewhere``."""
    assert raw.ask(encode(message("hello", name="Flood")))["type"] == "welcome"
    count = int(BURST) + 3000
    ping = encode(message("ping"))
    began = time.monotonic()
    for _ in range(count):
        raw.send(ping)
    codes: dict[str, int] = {}
    for _ in range(count):
        reply = raw.reply(timeout=10)
        key = reply.get("code", reply["type"])
        codes[key] = codes.get(key, 0) + 1
    took = time.monotonic() - began
    assert sum(codes.values()) == count and set(codes) == {"pong", "slow_down"}, codes
    assert codes["pong"] <= BURST + RATE * took + 1, (codes, took)
    time.sleep(0.2)
    assert raw.ask(ping)["type"] == "pong"


#: The key of the fuzzing client: the name "Fuzz" is bound to it at the first hello (MO-1).
FUZZ = KeyPair.generate()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frames=st.lists(st.binary(max_size=200), min_size=1, max_size=3)
       | st.builds(lambda d: [msgpack.packb(d)],
                   st.dictionaries(st.sampled_from(["type", "v", "rid", "table", "move",
                                                    "name", "seat", "order", "text", "game"]),
                                   st.none() | st.integers(-5, 2**40) | st.text(max_size=12)
                                   | st.lists(st.integers(-100, 2**40), max_size=3),
                                   max_size=6)))
def test_hypothesis_frames_from_a_welcomed_client_all_get_a_reply(
        host: Any, game_elsewhere: str, frames: list) -> None:
    r = Raw(host.address, host.keys.public, FUZZ)        # one player, a new connection each
    try:
        assert r.ask(encode(message("hello", name="Fuzz")))["type"] == "welcome"
        r.send(*frames)
        assert r.sock.poll(3000), f"no reply to {frames}"
        reply = decode(r.sock.recv(), HOST_LIMITS)       # whatever it is, it is an answer
        assert reply["type"] != "error" or reply["code"] in ERRORS
    finally:
        r.close()
