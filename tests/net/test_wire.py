"""What a guest on the LAN sees (issue 12): a TCP relay between the clients and the host
records every byte of a whole game of each installed game, both ways, and finds no card code,
no player name and no msgpack map in it. The same detector run on the plaintext of the very
messages the clients received finds all three, so the test can fail."""

from __future__ import annotations

import contextlib
import random
import re
import secrets
import socket
import threading
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from cardparty.net.host import Host
from cardparty.net.player.netbot import play_table
from cardparty.net.player.session import Session
from tests.net.conftest import Visibility, installed_games, table_size


class Relay:
    """A TCP relay on 127.0.0.1 to ``target`` that keeps every byte it passes, both ways."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.captured = bytearray()
        self.lock = threading.Lock()
        self.socks: list[socket.socket] = []
        self.running = True
        self.accepting = threading.Thread(target=self._accept, daemon=True)
        self.accepting.start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                with self.lock:
                    self.captured += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.running = False
        with contextlib.suppress(OSError):      # wakes the accept (a close alone does not)
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.accepting.join(5)
        assert not self.accepting.is_alive()
        for s in self.socks:
            s.close()


def detector(codes: set[str], names: list[str]) -> re.Pattern[bytes]:
    """Two card codes in a row as msgpack strings (how a hand or a pile is sent), a player's
    name, or the start of a message map (the ``type`` key and a string value)."""
    cards = b"|".join(re.escape(msgpack.packb(c)) for c in sorted(codes, key=len, reverse=True))
    words = b"|".join(re.escape(n.encode()) for n in names)
    return re.compile(b"(?:" + cards + b"){2,}|" + words + rb"|\xa4type[\xa1-\xbf]")


#: One deal each time (a host run with ``testing`` takes a seed), so the game and its length
#: are the same in every run: with a fresh deal each run, Pikáč took 6 to 40 s here.
WIRE_SEED = 3
#: Kakhead's random bots end a cycling game by a draw as early as KH-12 allows.
SHORT: dict[str, dict[str, Any]] = {"kakhead": {"offer_after": 10}}


@pytest.fixture
def guarded() -> Iterator[tuple[Host, Visibility]]:
    seen = Visibility()
    host = Host("tcp://127.0.0.1:0", "wire-host", heartbeat=0.2, idle=None, observer=seen,
                testing=True)
    host.start()
    yield host, seen
    host.stop()


@pytest.mark.parametrize("game", installed_games())
def test_a_guest_on_the_lan_reads_no_card_no_name_and_no_message(
        guarded: tuple[Host, Visibility], game: str) -> None:
    host, seen = guarded
    relay = Relay(("127.0.0.1", host.port))
    players = table_size(game)
    names = [f"Wire{secrets.token_hex(4)}" for _ in range(players)]
    sessions = [Session(f"127.0.0.1:{relay.port}", n, host_key=host.keys.public,
                        backoff=(0.02, 0.2), request_timeout=10.0) for n in names]
    received: list[dict[str, Any]] = []
    try:
        for s in sessions:
            s.connect(5.0)
        tid = sessions[0].create(game, players, SHORT.get(game), seed=WIRE_SEED)["id"]
        for s in sessions:
            s.sit(tid)
        results: list[Any] = [None] * players

        def bot(i: int) -> None:
            sessions[i].ready(tid)
            results[i] = play_table(sessions[i], tid, rng=random.Random(i), timeout=90,
                                    on_message=received.append)

        threads = [threading.Thread(target=bot, args=(i,)) for i in range(players)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert all(r is not None and r.get("places") for r in results), results
    finally:
        for s in sessions:
            s.close()
        relay.close()
    codes = set().union(*seen.deck.values())
    pattern = detector(codes, names)
    wire = bytes(relay.captured)
    assert len(wire) > 10_000, "the relay saw the game"
    # The detector finds all three in the plaintext of what the clients received...
    plain = b"".join(msgpack.packb(m) for m in received)
    found = {m.group(0)[:5] for m in pattern.finditer(plain)}
    assert any(f.startswith(b"\xa4type") for f in found)
    assert any(n.encode()[:5] in found for n in names) or any(
        n.encode() in plain for n in names)
    assert any(m for m in pattern.finditer(plain) if not m.group(0).startswith(
        (b"\xa4type", b"Wire")))
    # ...and none of it on the wire.
    leaks = [m.group(0) for m in pattern.finditer(wire)]
    assert leaks == [], f"plaintext on the wire: {leaks[:5]}"
