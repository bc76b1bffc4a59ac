"""A guest with a thousand keys (issue 25, item 1 and "What was seen" 2-4): a key pair costs
a millisecond, so what a new key would refill is counted per source address as well
(``config.Guests``), and the players the host knows keep their room when strangers fill it.

On real sockets on 127.0.0.1 where the address matters: the guest connects from 127.0.0.2 and
the players from 127.0.0.3 (ZeroMQ's ``tcp://SOURCE:0;HOST:PORT``), with the limits lowered in
the test; the rules about who keeps room run on the host's parts (``hostkit``)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq

from cardparty.net.host import Host
from cardparty.net.host.owners import Owners
from cardparty.net.store import Store
from cardparty.net.trust.guests import Guests
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import HOST_LIMITS, ProtocolError, decode, encode, message
from tests.net.hostkit import Kit

GUEST, PLAYER = "127.0.0.2", "127.0.0.3"
#: Limits a test can reach in a few dozen messages (nothing is from the host's own address).
LOW = Guests(requests=(40.0, 1.0), new_keys=(4.0, 0.01), new_names=(6.0, 0.01),
             chat_lines=(4.0, 0.01), invitations=(3.0, 0.01), open_tables=3, watching=2,
             own=())


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "churn-host", heartbeat=0.5, idle=None, testing=True,
             guests=LOW)
    h.start()
    yield h
    h.stop()


class Client:
    """A DEALER with a key of its own, from ``source``: what a hostile guest writes."""

    def __init__(self, host: Host, source: str, keys: KeyPair | None = None,
                 routing_id: bytes | None = None) -> None:
        self.keys = keys or KeyPair.generate()
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RECONNECT_IVL, 10_000)     # a refused one stays refused
        if routing_id is not None:
            sock.setsockopt(zmq.ROUTING_ID, routing_id)
        sock.curve_secretkey = self.keys.secret
        sock.curve_publickey = self.keys.public
        sock.curve_serverkey = host.keys.public
        sock.connect(f"tcp://{source}:0;{host.address[len('tcp://'):]}")
        self.sock = sock
        self.rid = 0

    def send(self, kind: str, **fields: Any) -> None:
        self.rid += 1
        self.sock.send(encode(message(kind, rid=self.rid, **fields)))

    def ask(self, kind: str, seconds: float = 2.0, **fields: Any) -> dict[str, Any]:
        """``kind``'s reply (the first message with its rid, or an error about it)."""
        self.send(kind, **fields)
        rid = self.rid
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if self.sock.poll(int(left * 1000) + 1):
                msg = decode(self.sock.recv(), HOST_LIMITS)
                if msg.get("rid") == rid:
                    return msg
        raise AssertionError(f"no reply to {kind} in {seconds} s")

    def hello(self, name: str) -> dict[str, Any]:
        return self.ask("hello", name=name, features=[])

    def heard(self, seconds: float) -> list[dict[str, Any]]:
        out = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if self.sock.poll(int(left * 1000) + 1):
                out.append(decode(self.sock.recv(), HOST_LIMITS))
        return out

    def close(self) -> None:
        self.sock.close(0)


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    made: list[Client] = []
    yield made
    for c in made:
        c.close()


def code(reply: dict[str, Any]) -> str:
    return str(reply["code"]) if reply["type"] == "error" else str(reply["type"])


# --- new keys, requests, names: what a fresh key would refill -------------------------------

def test_fresh_keys_from_one_address_are_welcomed_a_few_at_a_time(
        host: Host, clients: list[Client]) -> None:
    """What was seen, 3: 4,120 fresh-key connections were all welcomed. One address brings
    ``new_keys`` keys at once; the next is ``slow_down``, and a player from another address
    is welcomed all the same."""
    said = []
    for i in range(8):
        c = Client(host, GUEST)
        clients.append(c)
        said.append(code(c.hello(f"Fresh{i}")))
    assert said == ["welcome"] * 4 + ["slow_down"] * 4
    eva = Client(host, PLAYER)
    clients.append(eva)
    assert code(eva.hello("Eva")) == "welcome"
    again = Client(host, GUEST, keys=clients[0].keys)       # a key it knows is no new key
    clients.append(again)
    assert code(again.hello("Fresh0")) == "welcome"


def test_requests_from_one_address_share_one_allowance(host: Host,
                                                       clients: list[Client]) -> None:
    """What was seen, 4: 20 keys got 28,794 pongs a second, a new key every 1,900 pings was
    served every one. Three keys from one address get the address's allowance between them."""
    guests = [Client(host, GUEST) for _ in range(3)]
    clients.extend(guests)
    for i, c in enumerate(guests):
        assert code(c.hello(f"Pinger{i}")) == "welcome"
    for _ in range(30):
        for c in guests:
            c.send("ping")
    pongs = sum(m["type"] == "pong" for c in guests for m in c.heard(1.0))
    assert pongs <= LOW.requests[0], pongs            # 90 were all answered before


def test_lobby_chat_lines_are_counted_per_address(host: Host, clients: list[Client]) -> None:
    """What was seen, 4: 60 keys put 300 lines on a player's screen in 3.7 s (5 a key)."""
    eva = Client(host, PLAYER)
    clients.append(eva)
    assert code(eva.hello("Eva")) == "welcome"
    talkers = [Client(host, GUEST) for _ in range(3)]
    clients.extend(talkers)
    for i, c in enumerate(talkers):
        assert code(c.hello(f"Talker{i}")) == "welcome"
        for n in range(5):
            c.send("chat", text=f"line {n}")
    lines = [m for m in eva.heard(1.0) if m["type"] == "chat"]
    assert len(lines) == LOW.chat_lines[0], len(lines)      # 15 before


def test_invitations_are_counted_per_address(host: Host, clients: list[Client]) -> None:
    """What was seen, 4: 20 keys x 8 friends tables sent one player 160 invitations."""
    eva = Client(host, PLAYER)
    clients.append(eva)
    assert code(eva.hello("Eva")) == "welcome"
    said = []
    for i in range(3):
        c = Client(host, GUEST)
        clients.append(c)
        assert code(c.hello(f"Inviter{i}")) == "welcome"
        tid = c.ask("create", game="pika", players=2, mode="friends")["table"]["id"]
        c.ask("sit", table=tid)
        said += [code(c.ask("invite", table=tid, names=["Eva", f"Other{i}"]))]
    got = [m for m in eva.heard(0.5) if m["type"] == "invited"]
    assert said == ["ok", "too_many", "too_many"] and len(got) == 1, (said, len(got))


def test_open_tables_and_watchers_are_counted_per_address(host: Host,
                                                          clients: list[Client]) -> None:
    """What was seen, 3-4: 130 keys x 8 open tables filled the host's 1,000; 2,000 fresh
    watchers of a fast table slowed every other table."""
    made = []
    for i in range(2):
        c = Client(host, GUEST)
        clients.append(c)
        assert code(c.hello(f"Maker{i}")) == "welcome"
        made += [code(c.ask("create", game="pika", players=2)) for _ in range(2)]
    assert made == ["table"] * 3 + ["too_many"]
    eva = Client(host, PLAYER)
    clients.append(eva)
    assert code(eva.hello("Eva")) == "welcome"
    tids = [eva.ask("create", game="pika", players=2)["table"]["id"] for _ in range(3)]
    watched = [code(clients[0].ask("watch", table=t)) for t in tids]
    assert watched == ["table", "table", "too_many"]


# --- the players the host knows keep their room ----------------------------------------------

def known(kit: Kit, route: bytes, name: str, key: bytes) -> Any:
    """A player whose name played here before (``Owners.played``), back now."""
    kit.parts.roster.owners.claim(name, key)
    kit.parts.roster.owners.played(name, 0.0)
    return kit.parts.hello(route, name, user=key, address="10.0.0.9")


def test_strangers_never_fill_the_roster_for_a_known_player() -> None:
    """At the player limit, strangers who hold nothing (connected or not) are the first to
    go: a known player's hello is welcomed, and strangers stop short of the reserve."""
    kit = Kit(max_players=8, guests=dataclasses.replace(LOW, new_keys=(99, 1),
                                                          new_names=(99, 1)))
    room = kit.config.guests.room(8)
    strangers = [kit.parts.hello(f"s{i}".encode(), f"S{i}", user=KeyPair.generate().public,
                                 address=f"10.0.1.{i}") for i in range(room)]
    assert all(p.connected for p in strangers)
    with pytest.raises(ProtocolError) as refused:
        kit.parts.hello(b"late", "Late", user=KeyPair.generate().public, address="10.0.2.1")
    assert refused.value.code == "busy"                     # a stranger: the reserve is not his
    for i in range(8 - room + 2):                           # the reserve, and more
        eva = known(kit, f"k{i}".encode(), f"Known{i}", KeyPair.generate().public)
        assert eva.connected and eva.known
    assert len(kit.parts.roster.players) <= 8


def test_strangers_never_fill_the_tables_for_a_known_player() -> None:
    """What was seen, 3: 130 keys x 8 open tables reached 1,000 tables and a real player's
    create was ``busy``. A known player's create drops a stranger's open table."""
    kit = Kit(max_tables=8, guests=dataclasses.replace(LOW, open_tables=99))
    for i in range(kit.config.guests.room(8)):
        p = kit.parts.hello(f"s{i}".encode(), f"S{i}", user=KeyPair.generate().public,
                            address=f"10.0.1.{i}")
        kit.open_table("pika", p, 2)
    late = kit.parts.hello(b"late", "Late", user=KeyPair.generate().public, address="10.0.2.1")
    assert "too many tables" in kit.refused("busy", late, "create", game="pika", players=2)
    eva = known(kit, b"eva", "Eva", KeyPair.generate().public)
    for _ in range(3):
        kit.open_table("pika", eva, 2)
    assert len(kit.parts.tables.all) <= 8


def test_a_game_started_makes_its_names_known() -> None:
    kit = Kit()
    eva = kit.parts.hello(b"r1", "Eva", user=KeyPair.generate().public, address="10.0.0.1")
    assert not eva.known
    tid = kit.open_table("pika", eva, 2, mode="practice")
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, count=1)
    kit.ask(eva, "ready", table=tid)
    assert kit.table(tid).status == "playing"
    assert eva.known and kit.parts.roster.owners.known(eva.key or b"")


# --- names cannot be filled for good -------------------------------------------------------

def test_names_that_never_played_are_released_and_the_rest_kept(tmp_path: Path) -> None:
    """What was seen, 2: 13,160 fresh keys x 16 names reached the cap in 60 s, and every
    newcomer was ``busy``, still after a restart. A name whose key never played is free
    again ``release`` seconds after it was last seen; one that played is kept for good; a
    full host releases the one seen least recently; all of it survives a restart."""
    store = Store(tmp_path)
    owners = Owners(store, most=4, reserve=0.25, release=100.0)
    keys = [KeyPair.generate().public for _ in range(4)]
    owners.claim("Eva", keys[0], now=0.0)
    owners.played("Eva", 1.0)
    owners.claim("Ghost1", keys[1], now=10.0)
    owners.claim("Ghost2", keys[2], now=20.0)
    owners.claim("Newer", keys[3], now=30.0)       # a stranger at the strangers' room (3):
    assert owners.owner("Ghost1") is None          # ... the oldest who never played made room
    store.close()
    store = Store(tmp_path)
    owners = Owners(store, most=4, reserve=0.25, release=100.0)
    assert owners.owner("Eva") == keys[0] and owners.known(keys[0])
    assert owners.release_due(125.0) == 1           # Ghost2, unseen for 105 s
    assert owners.owner("Ghost2") is None and owners.owner("Newer") == keys[3]
    assert owners.release_due(10_000.0, present=lambda key, name: name == "Newer") == 0
    assert owners.owner("Newer") == keys[3] and owners.owner("Eva") == keys[0]
    store.close()


def test_a_running_host_frees_the_names_of_guests_who_never_played_and_left() -> None:
    """The host's own sweep releases them (no restart, no operator): once their keys have not
    been seen for ``name_release`` seconds, another key may take them; a name that played
    stays its key's, and so does one whose player is still connected."""
    kit = Kit(guests=dataclasses.replace(LOW, name_release=100.0))
    ghost, eva, here = (KeyPair.generate().public for _ in range(3))
    kit.parts.hello(b"g", "Ghost", user=ghost, address="10.0.0.1")
    staying = kit.parts.hello(b"h", "Here", user=here, address="10.0.0.3")
    player = kit.parts.hello(b"e", "Eva", user=eva, address="10.0.0.2")
    tid = kit.open_table("pika", player, 2, mode="practice")
    kit.ask(player, "sit", table=tid)
    kit.ask(player, "bots", table=tid, count=1)
    kit.ask(player, "ready", table=tid)
    kit.ask(player, "leave", table=tid)
    for route in (b"g", b"e"):
        kit.parts.roster.gone(route)
    for _ in range(8):
        kit.tick(60.0, alive=(staying,))
    other = KeyPair.generate().public
    assert kit.parts.hello(b"o1", "Ghost", user=other, address="10.0.0.9").connected
    for name in ("Eva", "Here"):
        with pytest.raises(ProtocolError) as taken:
            kit.parts.hello(name.encode(), name, user=other, address="10.0.0.9")
        assert taken.value.code == "name_taken"


def test_a_store_of_an_older_host_keeps_its_names_for_good(tmp_path: Path) -> None:
    store = Store(tmp_path)
    key = KeyPair.generate().public
    store.db.execute("ALTER TABLE owners DROP COLUMN seen")
    store.db.execute("ALTER TABLE owners DROP COLUMN played")
    store.db.execute("INSERT INTO owners VALUES ('eva', ?, 'Eva')", (key.decode(),))
    store.close()
    store = Store(tmp_path)
    owners = Owners(store, release=1.0)
    assert owners.release_due(1e12) == 0 and owners.owner("Eva") == key
    store.close()


# --- the host's standby: a peer, not a guest ------------------------------------------------

def test_the_standby_is_neither_counted_with_its_address_nor_closed_as_silent(
        tmp_path: Path) -> None:
    """The standby acknowledges every flush (ten frames a second when quiet) and never says
    a player's hello: its frames go to its link before any allowance, and its connection is
    one the cap keeps. With an address's requests at 3 and a hello due within 0.4 s, it
    stays attached on its first connection, and a player from its address is welcomed."""
    from cardparty.net.peers.standby import Standby
    from cardparty.net.wire.address import HostAddress

    keys = KeyPair.generate()
    data = tmp_path / "a"
    guests = dataclasses.replace(LOW, requests=(3.0, 0.5), hello_within=0.4)
    h = Host("tcp://127.0.0.1:0", "churn-host", data=data, economy=str(data / "economy.sqlite3"),
             heartbeat=0.5, idle=None, testing=True, guests=guests,
             peers=(keys.fingerprint,), bot_workers=0)
    h.start()
    port = int(h.address.rsplit(":", 1)[1])
    standby = Standby(HostAddress("127.0.0.1", port), h.keys.public, tmp_path / "b", keys,
                      HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0", lost=5.0)
    runner = threading.Thread(target=standby.run, daemon=True)
    runner.start()
    player: Client | None = None
    try:
        standbys = h.standbys
        assert standbys is not None
        end = time.monotonic() + 10
        while standbys.attached is None:
            assert time.monotonic() < end, "the standby never attached"
            time.sleep(0.01)
        joined = standbys.attached
        time.sleep(1.5)
        assert standbys.attached is joined and joined.session == standby.session, (
            "the standby joined afresh")
        cap = h._guard.cap if h._guard is not None else None
        assert cap is not None and cap.shut == 0, "the standby's connection was closed"
        player = Client(h, "127.0.0.1")
        assert code(player.hello("Ann")) == "welcome"
    finally:
        if player is not None:
            player.close()
        standby.stop()
        runner.join(5)
        h.stop()
