"""Send after commit: the frames a host sends wait here until what they tell of is durable.

Owns: ``CommitGate``, the outbox a host's parts send through when the host has a socket. A
frame is held from the moment a part sends it; when the host has handed the writes of what
it handled to the store (``HostParts.flush``) it seals the frames held so far (``seal``): they
then wait for a ticket from each durability source, the newest write that source had been
handed, and are let go, in the order they were sent, once every source has reached its ticket
(``released``; the server writes them to the socket). Without sources (a host that keeps
nothing) a sealed frame goes at once. Nothing a player is told is ever newer than what the
host would have after a crash.

``Durability`` says what a source is: the host's store committing its writes
(``StoreDurability``, SQLite's write-ahead log: what is committed survives the process being
killed), and the party's standby acknowledging every committed row in commit order
(net/host/standby.py; docs/architecture.md, "Send after commit"): a source counts in tickets
of its own, and the gate asks each one for its ticket when it seals and for how far it has
reached when it lets frames go. A source that gives up (a standby dropped) says so once
(``gave_up``), and what waited for it past what it had reached is withdrawn, never sent.
Adding a source is handing one more to ``CommitGate``: nothing else changes.

Must not know about: players (a frame is a route and bytes), tables, the ledger, what was
written; sockets (the server writes what is released).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections import deque
from collections.abc import Sequence
from typing import Protocol

from cardparty.net.host.model import Player
from cardparty.net.host.outbox import Outbox
from cardparty.net.store import Store

log = logging.getLogger("cardparty.host")

#: A frame on its way: the route it goes to and its bytes.
Frame = tuple[bytes, bytes]


class Durability(Protocol):
    """Somewhere what the host writes must have reached before anybody is told of it."""

    def ticket(self) -> int:
        """The ticket of the newest write handed to this source (0: none yet)."""
        ...

    def reached(self) -> int:
        """The ticket of the newest write this source has made durable (never past
        ``ticket``; both only go up)."""
        ...

    def fds(self) -> frozenset[int]:
        """What wakes the host's loop when ``reached`` moves (polled with its socket)."""
        ...

    def woken(self) -> None:
        """The loop woke for one of ``fds``: take the wake-up."""
        ...

    def drain(self) -> None:
        """Wait until every write handed to this source is durable (the host is stopping)."""
        ...

    def gave_up(self) -> int | None:
        """Once after the source gave up before making its writes durable: the ticket it had
        reached (what waits for it past that is withdrawn); else None."""
        ...

    def close(self) -> None:
        ...


class CommitGate(Outbox):
    """See the module docstring. ``sources``: what a sealed frame waits for, each."""

    def __init__(self, sources: Sequence[Durability] = ()) -> None:
        self.sources = tuple(sources)
        #: frames sent since the last seal (their writes not yet handed to the sources)
        self.held: list[Frame] = []
        #: sealed frames, oldest first, with the ticket of each source they wait for
        self.waiting: deque[tuple[tuple[int, ...], list[Frame]]] = deque()
        #: sealed frames nothing holds any more, in order
        self._ready: list[Frame] = []

    @property
    def holds(self) -> bool:
        """Whether sealed frames may have to wait (a source is given)."""
        return bool(self.sources)

    def deliver(self, player: Player, frame: bytes) -> bool:
        assert player.route is not None
        self.held.append((player.route, frame))
        return True

    def to_route(self, route: bytes, frame: bytes) -> None:
        """A frame to a connection that may have no player (a refusal, a remembered reply)."""
        self.held.append((route, frame))

    def seal(self) -> None:
        held = self.held
        if not held:
            return
        self.held = []
        if not self.sources:
            self._ready += held
            return
        tickets = tuple(s.ticket() for s in self.sources)
        waiting = self.waiting
        if waiting:
            if waiting[-1][0] == tickets:
                waiting[-1][1].extend(held)
            else:
                waiting.append((tickets, held))
        elif all(s.reached() >= t for s, t in zip(self.sources, tickets, strict=True)):
            self._ready += held
        else:
            waiting.append((tickets, held))

    def released(self) -> list[Frame]:
        """The sealed frames every source has reached the tickets of, in the order they were
        sent (taken: the caller sends them); first, what waited for a source that gave up
        withdrawn."""
        for source in self.sources:
            gave_up = source.gave_up()
            if gave_up is not None:
                gone = self.withdraw(source, gave_up)
                if gone:
                    log.warning("%d frames that waited for the standby are withdrawn", gone)
        waiting = self.waiting
        if waiting:
            reached = [s.reached() for s in self.sources]
            while waiting and all(r >= t for r, t in zip(reached, waiting[0][0], strict=True)):
                self._ready += waiting.popleft()[1]
        out, self._ready = self._ready, []
        return out

    def withdraw(self, source: Durability, reached: int) -> int:
        """Every sealed frame that waits for ``source`` past ``reached`` dropped, never sent
        (the source gave up before it made them durable: what they tell of may never be;
        docs/protocol.md, "The drop withdraws"); how many."""
        i = self.sources.index(source)
        kept: deque[tuple[tuple[int, ...], list[Frame]]] = deque()
        gone = 0
        for tickets, frames in self.waiting:
            if tickets[i] > reached:
                gone += len(frames)
            else:
                kept.append((tickets, frames))
        self.waiting = kept
        return gone

    def fds(self) -> frozenset[int]:
        """What wakes the loop when a source reaches further."""
        return frozenset().union(*(s.fds() for s in self.sources))

    def woken(self) -> None:
        for s in self.sources:
            s.woken()

    def drain(self) -> None:
        """Wait until every source has made durable all it was handed (the host stops)."""
        for s in self.sources:
            s.drain()

    def close(self) -> None:
        for s in self.sources:
            s.close()


class StoreDurability:
    """The host's store as a durability source: a write is durable once the store committed
    it. Its tickets are the store's (``Store.queued``, ``Store.done``). It starts the store's
    writer thread, which wakes the loop with a byte on a pipe after each commit, so the loop
    goes on with other tables while the disk works."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        store.start_writer(self._written)

    def _written(self) -> None:
        """(On the store's writer thread.) A commit is done: wake the loop."""
        with contextlib.suppress(OSError):       # a full pipe is awake enough
            os.write(self._wake_w, b"w")

    def ticket(self) -> int:
        return self.store.queued

    def reached(self) -> int:
        return self.store.done

    def fds(self) -> frozenset[int]:
        return frozenset() if self._wake_r < 0 else frozenset({self._wake_r})

    def woken(self) -> None:
        with contextlib.suppress(OSError):
            while os.read(self._wake_r, 4096):
                pass

    def drain(self) -> None:
        self.store.drain()

    def gave_up(self) -> int | None:
        return None

    def close(self) -> None:
        """The wake-up pipe closed (the store itself is closed by its owner)."""
        for fd in (self._wake_r, self._wake_w):
            if fd >= 0:
                os.close(fd)
        self._wake_r = self._wake_w = -1
