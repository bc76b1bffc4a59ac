"""The wire between a host and its standby on real sockets (127.0.0.1, CURVE both ways): the
host's side (net/host/standby.py) on a ROUTER in front of a real store and ledger written at
random, the standby (net/peers/standby.py) with its own key pair: it is sent a snapshot and every
record, acknowledges them, is attached, and its copies equal the host's; a key the host's
operator did not approve is refused; when the host's process is gone (nothing listens at its
address) the attached standby takes over at once with everything it acknowledged."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
import zmq

from cardparty.core.economy.ledger import Ledger
from cardparty.net.host import Host
from cardparty.net.host.clock import SystemClock
from cardparty.net.host.standby import Attached, PeerEvents, Standbys
from cardparty.net.peers import standby as standby_module
from cardparty.net.peers.replica import ECONOMY, HOST, Replica
from cardparty.net.peers.standby import (
    CLOSED_LOOK,
    MEMO_PER_PLAYER,
    MEMO_PLAYERS,
    PLAYERS_PER_TURN,
    Memo,
    Standby,
    Takeover,
    peer_socket,
)
from cardparty.net.store import Store, identity
from cardparty.net.trust.fdbudget import Door
from cardparty.net.trust.guard import Guard, open_router, peer_of
from cardparty.net.trust.guests import Guests
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.address import HostAddress
from cardparty.net.wire.protocol import encode, message
from tests.net.test_replica import ledger_write, rows, store_write


class LinkHost:
    """A host as far as its peers see one: a ROUTER, a store and a ledger written at random
    in flushes, and the host's part that keeps its standby (``Standbys``), on one thread.
    ``pause`` freezes its loop (a stalled laptop) while its socket stays open."""

    def __init__(self, base: Path, approved: str | list[str]) -> None:
        self.keys = KeyPair.generate()
        self.store = Store(base / "host")
        self.ledger = Ledger(base / "host" / "economy.sqlite3")
        for u in ("u0", "u1", "u2"):
            self.ledger.enter(u, f"key-{u}")
        self.ctx: zmq.Context[Any] = zmq.Context()
        self.guard = Guard(self.ctx, self.keys, "test")
        self.router, self.address = open_router(self.ctx, "tcp://127.0.0.1:0", self.guard)
        self.attached: list[Attached] = []
        self.dropped: list[str] = []
        self.standbys = Standbys(
            self.store, self.ledger, [approved] if isinstance(approved, str) else approved,
            self.keys.public, 3, "test", SystemClock(),
            PeerEvents(attached=(self.attached.append,),
                       dropped=(lambda why, acked: self.dropped.append(why),)))
        self.stream = self.standbys.stream
        self.writing = threading.Event()
        self.stopping = threading.Event()
        self.paused = threading.Event()
        #: the host reads nothing of its peers and tells them nothing (as a host whose server
        #: started again after a heal, or one beyond a link cut one way, would)
        self.deaf = threading.Event()
        self.refusals: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.rng = random.Random(7)
        self.n = 0

    @property
    def where(self) -> HostAddress:
        return HostAddress("127.0.0.1", int(self.address.rsplit(":", 1)[1]))

    @property
    def current(self) -> Any:
        return self.standbys.current

    def attached_now(self) -> bool:
        return self.standbys.attached is not None

    def _send(self, route: bytes, frame: bytes) -> bool:
        try:
            self.router.send_multipart([route, frame], zmq.NOBLOCK)
            return True
        except zmq.ZMQError:
            return False

    def _run(self) -> None:
        from cardparty.net.wire.protocol import decode, encode
        standbys = self.standbys
        while not self.stopping.is_set():
            if self.paused.is_set():
                time.sleep(0.005)
                continue
            if self.router.poll(5):
                route = self.router.recv()
                body = self.router.recv(copy=False)
                user, _ = peer_of(body)
                if self.deaf.is_set():
                    pass
                elif standbys.peer_of(user) is not None:
                    assert user is not None
                    standbys.frame(route, user, body.bytes)
                elif decode(body.bytes)["type"] == "standby_hello":
                    self._send(route, encode(standbys.refusal(user)))
            if self.writing.is_set():
                with self.store.batch():
                    for _ in range(self.rng.randrange(3)):
                        ledger_write(self.rng, self.ledger, self.n)
                    for _ in range(self.rng.randrange(4)):
                        store_write(self.rng, self.store, self.n)
                self.n += 1
                standbys.ticket()               # as the gate does when it seals
            standbys.tick()
            for route, frame in standbys.take():
                if self.deaf.is_set():
                    continue
                if not self._send(route, frame):
                    standbys.cannot_send(route)

    def write(self, what: Any) -> None:
        """Something written on the host's loop (paused for it, then going on)."""
        self.paused.set()
        time.sleep(0.05)
        try:
            with self.store.batch():
                what(self.store)
            self.standbys.ticket()
        finally:
            self.paused.clear()

    def kill(self) -> None:
        """As a process killed: the loop stops and the socket closes, nothing more said."""
        self.stopping.set()
        self.thread.join(5)
        self.router.close(0)
        self.guard.close()
        self.ctx.destroy(linger=0)

    def close(self) -> None:
        if not self.stopping.is_set():
            self.kill()
        self.store.close()
        self.ledger.close()


def quiet(host: LinkHost) -> None:
    """No more writes, and the standby has acknowledged every record."""
    host.writing.clear()
    time.sleep(0.05)                  # the loop's turn that was writing ends
    until(lambda: host.current is not None and host.current.acked == host.stream.seq)


def until(what: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[LinkHost, Standby, dict[str, Any]]]:
    standby_keys = KeyPair.generate()
    host = LinkHost(tmp_path, standby_keys.fingerprint)
    host.thread.start()
    standby = Standby(host.where, host.keys.public, tmp_path / "standby", standby_keys,
                      HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0", lost=0.5)
    out: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: out.setdefault("takeover", standby.run()),
                              daemon=True)
    runner.start()
    out["runner"] = runner
    try:
        yield host, standby, out
    finally:
        standby.stop()
        runner.join(5)
        take = out.get("takeover")
        if isinstance(take, Takeover):
            take.router.close(0)
            take.guard.close()
            take.ctx.destroy(linger=0)
        host.close()


def test_a_standby_gets_a_snapshot_then_every_record_and_its_copy_equals_the_host(
        pair: tuple[LinkHost, Standby, dict[str, Any]]) -> None:
    host, standby, _ = pair
    # the host is attached as it sends ``standby_attached``; the standby once it has read it
    until(lambda: host.attached_now() and standby.attached)
    assert [a.serves.shown for a in host.attached] == ["127.0.0.1:7999"]
    assert standby.epoch == 3
    host.writing.set()
    until(lambda: host.n > 150)
    quiet(host)
    assert host.standbys.status()["behind"] == 0
    host.store.drain()
    copy = Replica(standby.replica.directory)
    with sqlite3.connect(copy.path(HOST)) as a, sqlite3.connect(copy.path(ECONOMY)) as b:
        assert rows(a) == rows(host.store.db)
        assert rows(b) == rows(host.ledger.db)


def test_a_key_the_host_did_not_approve_is_refused_once_and_not_taken_for_lost(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Refused, the peer says so once (with the flag that takes it), asks again now and then,
    and never logs its host as lost (it is there: it says no)."""
    host = LinkHost(tmp_path, KeyPair.generate().fingerprint)
    host.thread.start()
    keys = KeyPair.generate()
    other = Standby(host.where, host.keys.public, tmp_path / "standby", keys,
                    HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0")
    runner = threading.Thread(target=other.run, daemon=True)
    caplog.set_level("INFO", logger="cardparty.standby")
    runner.start()
    try:
        time.sleep(4.0)
        assert host.current is None and other.replica.seq is None
        said = [r.getMessage() for r in caplog.records if r.name == "cardparty.standby"]
        refusals = [m for m in said if "refuses this peer" in m]
        assert len(refusals) == 1 and f"--standby-key {keys.fingerprint}" in refusals[0]
        assert not [m for m in said if "is lost" in m], said
    finally:
        other.stop()
        runner.join(5)
        host.close()


def test_when_nothing_listens_at_the_host_any_more_the_attached_standby_takes_over(
        pair: tuple[LinkHost, Standby, dict[str, Any]]) -> None:
    host, standby, out = pair
    until(lambda: host.attached_now())
    host.writing.set()
    until(lambda: host.n > 60)
    quiet(host)
    acked = host.current.acked
    host.kill()
    out["runner"].join(5)
    take = out["takeover"]
    assert isinstance(take, Takeover)
    assert take.certain and not take.handed and take.epoch == 4 and take.seq == acked
    host.store.drain()
    with sqlite3.connect(standby.replica.path(HOST)) as a:
        assert rows(a) == rows(host.store.db)


def test_a_host_that_closes_long_after_its_standby_lost_it_does_not_make_it_take_over(
        pair: tuple[LinkHost, Standby, dict[str, Any]]) -> None:
    """Silent past the host's bound for dropping its standby, then the connection closes and
    nothing listens: the host may have dropped this peer and served on with another standby
    meanwhile (a laptop a party hands over from while this one was cut off), so the closing
    is not taken for the host's end; only its players following could make it take over."""
    host, standby, out = pair
    until(lambda: host.attached_now())
    quiet(host)
    host.paused.set()
    until(lambda: standby.lost_at is not None)
    time.sleep(CLOSED_LOOK + 0.5)
    host.kill()
    out["runner"].join(2.5)
    assert out["runner"].is_alive(), "took over on a closing long after the loss"
    assert not standby.certain


def test_a_standby_lost_for_long_looks_for_whoever_serves_and_joins_again(
        pair: tuple[LinkHost, Standby, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """The host forgets its standby without a word (its server started again after a heal)
    and serves on: the standby, silent-lost, stops counting itself attached after
    ``ATTACHED_LOST``, says hello again, and is attached again."""
    monkeypatch.setattr(standby_module, "ATTACHED_LOST", 1.5)
    host, standby, out = pair
    until(lambda: host.attached_now())
    quiet(host)
    host.deaf.set()
    until(lambda: standby.lost_at is not None)
    until(lambda: not host.attached_now())           # dropped for its silence, not told
    host.deaf.clear()
    until(lambda: host.attached_now() and standby.attached, timeout=8.0)
    assert out["runner"].is_alive()


def test_a_flood_at_the_standbys_own_socket_is_read_a_turn_at_a_time(tmp_path: Path) -> None:
    """A guest on the LAN floods the standby's socket: one turn of its loop reads at most
    PLAYERS_PER_TURN of his messages, so its link to the host is looked at between turns."""
    keys = KeyPair.generate()
    standby = Standby(HostAddress("127.0.0.1", 9), KeyPair.generate().public,
                      tmp_path / "standby", keys, HostAddress("127.0.0.1", 7999),
                      "tcp://127.0.0.1:0")
    port = int(standby.address.rsplit(":", 1)[1])
    guest = peer_socket(standby.ctx, KeyPair.generate(), keys.public,
                        HostAddress("127.0.0.1", port))
    try:
        sent = 3 * PLAYERS_PER_TURN
        guest.setsockopt(zmq.IMMEDIATE, 0)
        for i in range(sent):
            guest.send(encode(message("hello", name=f"g{i}", rid=i)))
        until(lambda: standby.router.poll(10))
        time.sleep(0.3)                              # all of them at the standby's socket
        assert standby._from_players(time.monotonic()) is None
        answered = 0
        while guest.poll(200):
            guest.recv()
            answered += 1
        assert answered == PLAYERS_PER_TURN
        assert standby.router.poll(1000)             # the rest wait for the next turn
    finally:
        guest.close(0)
        standby.close()


def test_the_replies_kept_for_a_takeover_are_bounded_in_players_and_in_replies() -> None:
    memo = Memo()
    memo.add([[f"t{i}", 1, "ok", b"x"] for i in range(MEMO_PLAYERS + 10)])
    assert len(memo.by_token) == MEMO_PLAYERS
    assert "t0" not in memo.by_token and f"t{MEMO_PLAYERS + 9}" in memo.by_token
    memo.add([["t20", rid, "ok", b"x"] for rid in range(MEMO_PER_PLAYER + 5)])
    assert len(memo.by_token["t20"]) == MEMO_PER_PLAYER
    memo.add([["t11", 2, "ok", b"y"]])               # heard of again: kept longest
    memo.add([[f"n{i}", 1, "ok", b"x"] for i in range(MEMO_PLAYERS - 1)])
    assert set(memo.by_token) == {"t11"} | {f"n{i}" for i in range(MEMO_PLAYERS - 1)}


def test_a_heal_forgets_the_replies_about_the_tables_it_kept_as_here() -> None:
    """What the old host answered about a table the heal kept as the winner's (or carried in
    under another id) never happened at the winner: a request sent again there is not told
    that answer."""
    memo = Memo()
    memo.add([["eva", 1, "move", b"ok-t1", "t1"], ["eva", 2, "move", b"ok-t2", "t2"],
              ["eva", 3, "buy", b"ok-gold", ""], ["bob", 1, "move", b"ok-t2", "t2"]])
    memo.without({"t2"})
    assert {t: dict(r) for t, r in memo.by_token.items()} == {
        "eva": {1: ("move", b"ok-t1", "t1"), 3: ("buy", b"ok-gold", "")}, "bob": {}}


def test_a_standby_says_hello_even_when_its_monitor_missed_the_connection(
        tmp_path: Path) -> None:
    """The connection to the host may be up before the standby's monitor watches it (a
    loaded machine): the standby says hello anyway, and is attached."""
    keys = KeyPair.generate()
    host = LinkHost(tmp_path, keys.fingerprint)
    host.thread.start()
    standby = Standby(host.where, host.keys.public, tmp_path / "standby", keys,
                      HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0")
    until(lambda: standby.monitor.poll(10))       # the connection is up...
    time.sleep(0.1)
    while standby.monitor.poll(0):                # ...and its news lost
        standby.monitor.recv_multipart()
    runner = threading.Thread(target=standby.run, daemon=True)
    runner.start()
    try:
        until(lambda: host.attached_now())
    finally:
        standby.stop()
        runner.join(5)
        host.close()


def seat(store: Store, key: bytes, name: str, table: str = "t1") -> None:
    """A table in play with ``name`` (by ``key``) seated at it, as the host keeps one."""
    meta = {"status": "playing", "title": "x", "seats": [
        {"kind": "human", "token": identity(key, name), "name": name},
        {"kind": "bot", "token": None, "name": "Bot 2"}]}
    store.put_table(table, int(table[1:]), msgpack.packb(meta, use_bin_type=True), b"save")


def follow(ctx: zmq.Context[Any], keys: KeyPair, standby_key: bytes, port: int, name: str,
           epoch: int = 3) -> zmq.Socket[Any]:
    sock = peer_socket(ctx, keys, standby_key, HostAddress("127.0.0.1", port))
    sock.send(encode(message("hello", rid=1, name=name, features=[],
                             follow={"epoch": epoch})))
    return sock


def test_a_stranger_following_never_makes_the_standby_take_over_and_a_seated_player_does(
        tmp_path: Path) -> None:
    """The host goes silent while its socket still listens (a cut link, a frozen process). A
    guest with fresh keys follows to the standby, as often as he likes, with the host's epoch
    and a seated player's name: he is no seated player (his key is not), and the standby
    does not take over. The seated player follows: it does, and hands his hello to the host it
    becomes with the frame ZeroMQ read it in. Answered there, the hello binds his route to his
    connection (so that connection's end forgets it, and the cap keeps it as a player's)."""
    from cardparty.net.wire.protocol import decode

    keys, ann = KeyPair.generate(), KeyPair.generate()
    old = LinkHost(tmp_path, keys.fingerprint)
    old.thread.start()
    standby = Standby(old.where, old.keys.public, tmp_path / "standby", keys,
                      HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0", lost=0.3)
    out: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: out.setdefault("took", standby.run()),
                              daemon=True)
    runner.start()
    socks: list[zmq.Socket[Any]] = []
    host: Host | None = None
    ctx: zmq.Context[Any] = zmq.Context()
    try:
        until(lambda: old.attached_now())
        old.write(lambda store: seat(store, ann.public, "Ann"))
        quiet(old)
        port = int(standby.address.rsplit(":", 1)[1])
        for _ in range(10):                   # while the host serves: strangers, and Ann too
            for who in (KeyPair.generate(), ann):
                sock = follow(ctx, who, keys.public, port, "Ann")
                try:
                    assert sock.poll(2000)
                    assert decode(sock.recv())["code"] == "not_host"
                finally:
                    sock.close(0)
        assert runner.is_alive() and out.get("took") is None and old.attached_now()
        old.stopping.set()                    # silent, its socket still open
        old.thread.join(5)
        until(lambda: standby.lost_at is not None)
        for _ in range(30):                   # fresh keys, the seated player's name
            sock = follow(ctx, KeyPair.generate(), keys.public, port, "Ann")
            try:
                assert sock.poll(2000)
                assert decode(sock.recv())["code"] == "not_host"
            finally:
                sock.close(0)
        time.sleep(0.2)
        assert runner.is_alive() and out.get("took") is None
        player = follow(ctx, ann, keys.public, port, "Ann")
        socks.append(player)
        runner.join(10)
        take = out.get("took")
        assert isinstance(take, Takeover) and len(take.frames) == 1 and not take.sure
        host = Host("tcp://127.0.0.1:0", data=tmp_path / "standby", keys=keys,
                    economy=str(tmp_path / "standby" / "economy.sqlite3"), takeover=take,
                    bot_workers=0)
        host.start()
        assert player.poll(10_000)
        assert decode(player.recv())["type"] == "welcome"
        server = host.server
        until(lambda: len(server.conn_of) == 1)
        [(route, (fd, peer))] = server.conn_of.items()
        assert server.route_on[fd] == (route, peer)
    finally:
        for sock in socks:
            sock.close(0)
        ctx.term()
        if host is not None:
            host.stop()
        else:
            standby.stop()
            runner.join(5)
        old.close()


def test_the_standby_lets_players_in_by_the_limits_of_the_host_it_becomes(tmp_path: Path
                                                                          ) -> None:
    """The standby's ROUTER is bound from the start and becomes the new host's: its door is
    built from the same ``config.Guests`` as a host's (``Door.of``), not from numbers of its
    own."""
    guests = Guests(connections=5, new_connections=(6.0, 1.0), hello_within=3.0, own=())
    standby = Standby(HostAddress("127.0.0.1", 9), KeyPair.generate().public,
                      tmp_path / "standby", KeyPair.generate(), HostAddress("127.0.0.1", 7999),
                      "tcp://127.0.0.1:0", guests=guests)
    try:
        cap = standby.guard.cap
        assert cap is not None
        assert cap.door == Door.of(guests)
        assert (cap.door.per_address, cap.door.accepts, cap.door.own) == (5, (6.0, 1.0), ())
    finally:
        standby.close()
    with Host("tcp://127.0.0.1:0", guests=guests, bot_workers=0) as host:
        assert host._guard is not None and host._guard.cap is not None
        assert host._guard.cap.door == Door.of(guests)


class StalePeer:
    """A waiting peer that has not heard of a takeover since this machine stopped: it answers
    every hello that it stands by ``names`` (this machine's own address and key)."""

    def __init__(self, names: HostAddress, key: bytes) -> None:
        self.keys = KeyPair.generate()
        self.ctx: zmq.Context[Any] = zmq.Context()
        self.guard = Guard(self.ctx, self.keys, "test")
        self.router, address = open_router(self.ctx, "tcp://127.0.0.1:0", self.guard)
        self.where = HostAddress("127.0.0.1", int(address.rsplit(":", 1)[1]))
        self.names, self.key = names, key
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from cardparty.net.wire.protocol import error
        while not self.stopping.is_set():
            if not self.router.poll(10):
                continue
            route = self.router.recv()
            while self.router.getsockopt(zmq.RCVMORE):
                self.router.recv()
            reply = error("not_host", "this is a standby", None)
            reply["host"], reply["key"] = self.names.shown, self.key.decode()
            with contextlib.suppress(zmq.ZMQError):
                self.router.send_multipart([route, encode(reply)], zmq.NOBLOCK)

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.router.close(0)
        self.guard.close()
        self.ctx.destroy(linger=0)


def test_a_host_restarted_serves_from_its_files_only_when_no_other_peer_serves(
        tmp_path: Path) -> None:
    """A killed host started again asks a peer, which says it stands by this very machine (a
    waiting peer that never heard that the standby took over meanwhile): before it serves
    from its own files, it asks the party's other peers, and joins the one that serves (two
    hosts, the second of an older epoch with older rows, was what serving at once made)."""
    keys = KeyPair.generate()
    serves = HostAddress("127.0.0.1", 7998)
    serving = LinkHost(tmp_path / "serving", keys.fingerprint)
    serving.thread.start()
    stale = StalePeer(serves, keys.public)
    restarted = Standby(stale.where, stale.keys.public, tmp_path / "restarted", keys, serves,
                        "tcp://127.0.0.1:0", lost=0.5,
                        others=[(serving.where, serving.keys.public)])
    out: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: out.setdefault("end", restarted.run()),
                              daemon=True)
    runner.start()
    try:
        until(lambda: serving.attached_now() or "end" in out, timeout=15.0)
        assert "end" not in out, f"served from its own files: {out.get('end')}"
        assert restarted.host == serving.where
    finally:
        restarted.stop()
        runner.join(5)
        stale.close()
        serving.close()


def test_a_remembered_reply_goes_to_the_standby_only_with_the_record_of_what_it_tells(
        tmp_path: Path) -> None:
    """The store's writer fills a flush's record after the loop sealed what it sent: a reply
    remembered in that flush must not reach the standby before the record does (a host killed
    between the two left its successor answering ``ok`` about a move it never had)."""
    from cardparty.net.host.standby import Join
    from cardparty.net.peers.peer import RECORDS
    from cardparty.net.wire.protocol import decode

    keys = KeyPair.generate()
    store = Store(tmp_path / "host")
    standbys = Standbys(store, None, [keys.fingerprint], None, 3, "test", SystemClock(),
                        PeerEvents())
    try:
        standbys.stream.start()
        cur = Join(keys.public, keys.fingerprint, b"r", 1, HostAddress("127.0.0.1", 7999),
                   standbys.stream.id, 0, standbys.clock.now(), standbys.clock.now(),
                   state="attached")
        standbys.current = cur
        seq = standbys.stream.reserve("host")     # the flush's writes, not yet committed
        standbys.remembered("eva", 1, "move", b"ok-39", "t1")
        standbys.ticket()                         # the gate seals
        standbys.tick()
        sent = [decode(f) for _, f in standbys.take()]
        assert not [m for m in sent if m["type"] == RECORDS and m["replies"]], sent
        standbys.stream.fill(seq, [])             # the writer committed it
        standbys.pump()
        sent = [decode(f) for _, f in standbys.take() if decode(f)["type"] == RECORDS]
        assert len(sent) == 1
        assert [r[0] for r in sent[0]["records"]] == [seq]
        assert sent[0]["replies"] == [["eva", 1, "move", b"ok-39", "t1"]]
    finally:
        store.close()


def test_a_host_that_may_yet_heal_takes_no_standby_until_the_old_host_is_heard_of(
        tmp_path: Path) -> None:
    """A host that took over without being sure holds its copies: a peer that says hello is
    told to wait (no snapshot: a heal would start the host again from other files, and a
    second copy would follow for one fault); once the old host is gone for good, or the hold
    ran out, the peer that waited is taken."""
    from cardparty.net.host.clock import ManualClock
    from cardparty.net.peers.peer import WAIT, WELCOME, hello
    from cardparty.net.wire.protocol import decode

    keys = KeyPair.generate()
    store = Store(tmp_path / "host")
    clock = ManualClock()
    standbys = Standbys(store, None, [keys.fingerprint], None, 3, "test", clock, PeerEvents())
    try:
        standbys.hold_copies(10.0, "before the old host is heard of")
        standbys.frame(b"r", keys.public,
                       encode(hello(HostAddress("127.0.0.1", 7999), 3, 1)))
        standbys.tick()
        sent = [decode(f)["type"] for _, f in standbys.take()]
        assert WAIT in sent and WELCOME not in sent and standbys.current is None
        clock.advance(1.0)
        standbys.frame(b"r", keys.public,
                       encode(hello(HostAddress("127.0.0.1", 7999), 3, 1)))   # beats
        standbys.release_copies()               # nothing listens at the old host
        standbys.tick()
        sent = [decode(f)["type"] for _, f in standbys.take()]
        assert WELCOME in sent and standbys.current is not None
    finally:
        store.close()


def test_a_standby_whose_connection_is_gone_is_not_dropped_and_goes_on_when_it_says_hello(
        tmp_path: Path) -> None:
    """A reset of every connection of the host: sending to the standby finds its route gone.
    It is not dropped for that (nor is the waiting peer taken in its place, whose connection
    went with the rest): it says hello again on a new connection and goes on from its copy;
    one whose queue is full (it stopped reading) is dropped as before."""
    from cardparty.net.host.clock import ManualClock
    from cardparty.net.host.standby import Join
    from cardparty.net.peers.peer import hello

    keys, other = KeyPair.generate(), KeyPair.generate()
    store = Store(tmp_path / "host")
    clock = ManualClock()
    dropped: list[str] = []
    standbys = Standbys(store, None, [keys.fingerprint, other.fingerprint], None, 3, "test",
                        clock, PeerEvents(dropped=(lambda why, acked: dropped.append(why),)))
    try:
        standbys.stream.start()
        serves = HostAddress("127.0.0.1", 7999)
        standbys.current = Join(keys.public, keys.fingerprint, b"old", 1, serves,
                                standbys.stream.id, 0, clock.now(), clock.now(),
                                state="attached")
        standbys.frame(b"waits", other.public, encode(hello(serves, 3, 7)))
        standbys.unreachable(b"old")
        standbys.unreachable(b"waits")
        standbys.tick()
        assert standbys.current is not None and standbys.current.route == b"old"
        assert not dropped
        clock.advance(0.1)
        standbys.frame(b"new", keys.public,
                       encode(hello(serves, 3, 2, standbys.stream.id, 0)))
        standbys.tick()
        assert standbys.attached is not None and standbys.attached.route == b"new"
        assert not dropped
        standbys.cannot_send(b"new")          # its queue full: it stopped reading
        standbys.tick()
        assert dropped == ["it stopped reading"]
    finally:
        store.close()
