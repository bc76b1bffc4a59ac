"""A host's parts without a socket, for rule tests in milliseconds: a MemoryOutbox keeps what
each player is sent (decoded as a client would), a ManualClock moves only when told."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from cardparty.net.host.clock import ManualClock
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.outbox import MemoryOutbox
from cardparty.net.host.parts import HostParts
from cardparty.net.protocol import ProtocolError

#: Every kit made in the current test: ``tests/net/conftest.py`` closes them after it (a kit
#: with a store has the store's threads and files open; a test that restarts one often
#: leaves the last kit open).
OPEN: list[Kit] = []


class Kit:
    def __init__(self, clock: ManualClock | None = None, **kw: Any) -> None:
        self.clock = clock or ManualClock()
        self.out = MemoryOutbox()
        kw.setdefault("idle", None)
        kw.setdefault("testing", True)          # the tests choose their deals
        self.parts = HostParts(self.out, self.clock, heartbeat=1.0, **kw)
        OPEN.append(self)
        self._routes = itertools.count(1)
        self._rids = itertools.count(1)

    def player(self, name: str, token: str | None = None, key: bytes | None = None) -> Player:
        """A hello on a new connection; ``key``: the key it is authenticated as (None: a
        host without CURVE, where the connection stands for the key)."""
        return self.parts.hello(f"r{next(self._routes)}".encode(), name, token, key)

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
        while ht.status == "playing" and len(ht.table.journal) < moves:
            legal = ht.table.legal_moves(0)
            if legal:
                self.ask(player, "move", table=tid, move=n % len(legal),
                         version=ht.table.version)
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
            mine = [s for s in ht.table.to_move() if s in humans
                    and ht.seats[s].player is humans[s]]
            if mine:
                seat = mine[0]
                moves = ht.table.legal_moves(seat)
                self.ask(humans[seat], "move", table=tid, move=rng.randrange(len(moves)),
                         version=ht.table.version)
            else:
                self.tick(0.001)
        raise AssertionError(f"table {tid} did not finish in {most} steps")
