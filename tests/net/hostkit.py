"""A host's parts without a socket, for rule tests in milliseconds: a MemoryOutbox keeps what
each player is sent (decoded as a client would), a ManualClock moves only when told."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from cardparty.core.discovery import Catalog
from cardparty.net.host.clock import ManualClock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.outbox import MemoryOutbox
from cardparty.net.host.parts import StrPath, build_host, open_ledger, open_store
from cardparty.net.host.play import Observer
from cardparty.net.wire.protocol import ProtocolError

#: Every kit made in the current test: ``tests/net/conftest.py`` closes them after it (a kit
#: with a store has the store's threads and files open; a test that restarts one often
#: leaves the last kit open).
OPEN: list[Kit] = []


class Kit:
    """A host's parts (``build_host``) around a ``MemoryOutbox`` and a ``ManualClock``;
    ``data`` and ``economy`` are opened as the command line opens them, and any other keyword
    is a ``HostConfig`` setting (heartbeat 1 s, no idle timeout and a host for tests unless
    said)."""

    def __init__(self, clock: ManualClock | None = None, *, data: StrPath | None = None,
                 economy: StrPath | None = None, catalog: Catalog | None = None,
                 observer: Observer | None = None, **settings: Any) -> None:
        self.clock = clock or ManualClock()
        self.out = MemoryOutbox()
        settings.setdefault("heartbeat", 1.0)
        settings.setdefault("idle", None)
        settings.setdefault("testing", True)          # the tests choose their deals
        self.config = config = HostConfig.of(**settings)
        self.parts = build_host(config, store=open_store(data),
                                ledger=open_ledger(economy, config, self.clock),
                                outbox=self.out, clock=self.clock, catalog=catalog,
                                observer=observer)
        OPEN.append(self)
        self._routes = itertools.count(1)
        self._rids = itertools.count(1)

    def player(self, name: str, token: str | None = None, key: bytes | None = None,
               features: tuple[str, ...] = ()) -> Player:
        """A hello on a new connection; ``key``: the key it is authenticated as (None: a
        host without CURVE, where the connection stands for the key); ``features``: what its
        client asks for (docs/protocol.md)."""
        return self.parts.hello(f"r{next(self._routes)}".encode(), name, token, key, features)

    def ask(self, player: Player, kind: str, **fields: Any) -> dict[str, Any] | None:
        fields.setdefault("rid", next(self._rids))
        return self.parts.request(player, kind, **fields)

    def refused(self, code: str, player: Player, kind: str, **fields: Any) -> str:
        with pytest.raises(ProtocolError) as info:
            self.ask(player, kind, **fields)
        assert info.value.code == code, info.value
        return info.value.message

    def table(self, tid: str) -> HostTable:
        return self.parts.tables.all[tid]

    def tick(self, seconds: float = 0.0, alive: tuple[Player, ...] = ()) -> None:
        """Move the clock and run what is due; ``alive`` players were heard just now (their
        heartbeats)."""
        self.clock.advance(seconds)
        for p in alive:
            self.parts.roster.heard(p, self.clock.now())
        self.parts.tick(self.clock.now())

    def open_table(self, game: str, creator: Player, players: int, **fields: Any) -> str:
        reply = self.ask(creator, "create", game=game, players=players, **fields)
        assert reply is not None
        return str(reply["table"]["id"])

    def play_until(self, tid: str, player: Player, moves: int) -> None:
        """``player``, in seat 0, plays the listed moves in turn (the n-th move of the n-th
        list) and bots move as the clock runs, until the journal holds ``moves`` moves or
        the round is over."""
        ht = self.table(tid)
        n = 0
        while ht.status == "playing" and len(ht.engine.journal) < moves:
            legal = ht.engine.legal_moves(0)
            if legal:
                self.ask(player, "move", table=tid, move=n % len(legal),
                         version=ht.engine.version)
                n += 1
            else:
                self.tick(0.001)

    def play_out(self, tid: str, humans: dict[int, Player], seed: int = 1,
                 most: int = 20_000) -> None:
        """Humans play random listed moves (``seed``), bots move as the clock runs, until
        the round is over."""
        rng = random.Random(seed)
        ht = self.table(tid)
        for _ in range(most):
            if ht.status != "playing":
                return
            mine = [s for s in ht.engine.to_move() if s in humans
                    and ht.seats[s].player is humans[s]]
            if mine:
                seat = mine[0]
                moves = ht.engine.legal_moves(seat)
                self.ask(humans[seat], "move", table=tid, move=rng.randrange(len(moves)),
                         version=ht.engine.version)
            else:
                self.tick(0.001)
        raise AssertionError(f"table {tid} did not finish in {most} steps")
