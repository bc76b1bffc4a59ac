"""What is due next at a playing table, and doing it: game deadlines, host bots' turns and
idle players' stand-ins.

Owns: ``TableTimers`` (a table's record of what is due: each game deadline with its due
time, when a bot moves next, when an idle human's turn goes to a stand-in) and ``Timers``,
the one boundary the play part asks: ``schedule`` after a change, ``next_due``, ``fire``
what is due (at most one action), ``shown`` (the timers as a view shows them). The rules of
when are documented in docs/protocol.md, "Timers the host owns".

The host's bots draw from a random stream that is a function of the table's seed and its
version (``bot_rng``): a host restarted from its data makes the very same bot moves as one
that never stopped, and nothing needs saving per move for it.

Must not know about: sockets, the protocol, players' connections, persistence; the time
comes in as ``now`` from the caller's clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import SYSTEM, Deadline
from cardparty.core.table import IllegalMove, Table

if TYPE_CHECKING:
    from cardparty.net.host.model import HostTable

#: ``fire`` results: the game moved (tell everybody), or a stand-in now plays for someone.
MOVED = "moved"
STANDIN = "standin"


@dataclass(eq=False)
class TableTimers:
    """What is due at one table (monotonic seconds)."""

    deadlines: dict[tuple[Any, ...], tuple[float, Deadline]] = field(default_factory=dict)
    bot_due: float | None = None
    idle_due: float | None = None

    def clear(self) -> None:
        self.deadlines.clear()
        self.bot_due = self.idle_due = None

    def next_due(self) -> float | None:
        due = self.bot_due
        if self.idle_due is not None and (due is None or self.idle_due < due):
            due = self.idle_due
        for at, _ in self.deadlines.values():
            if due is None or at < due:
                due = at
        return due


def bot_rng(table: Table) -> random.Random:
    """The random stream a host bot draws from for the move at this version of ``table``."""
    return random.Random((table.seed & ((1 << 63) - 1)) * 1_000_003 + table.version)


class Timers:
    """The timer rules of a host (until a referee in ``core`` answers the same questions)."""

    def schedule(self, ht: HostTable, now: float) -> None:
        """Recompute the table's timers after a change; the game's hooks may raise."""
        timers = ht.timers
        if ht.status != "playing":
            timers.clear()
            return
        table = ht.table
        listed = table.deadlines()
        to_move = table.to_move()
        fresh: dict[tuple[Any, ...], tuple[float, Deadline]] = {}
        old = timers.deadlines
        for d in listed:
            key = (d.name, d.seat, d.move.kind, d.move.cards, d.move.choice)
            kept = old.get(key)
            fresh[key] = kept if kept is not None else (now + d.seconds, d)
        timers.deadlines = fresh
        seats = ht.seats
        bots = humans = False
        for s in to_move:
            seat = seats[s]
            if seat.kind == "bot" or seat.standin:
                bots = True
            elif seat.kind == "human":
                humans = True
        timers.bot_due = ht.changed_at + ht.bot_delay if bots else None
        timers.idle_due = ht.changed_at + ht.idle if humans and ht.idle is not None else None

    @staticmethod
    def next_due(ht: HostTable) -> float | None:
        return ht.timers.next_due() if ht.status == "playing" else None

    def fire(self, ht: HostTable, now: float) -> str | None:
        """Do the first thing due at ``now``: MOVED (the game changed), STANDIN (a bot now
        plays for an idle human; the caller reschedules and tells), or None."""
        table = ht.table
        timers = ht.timers
        for key, (due, d) in list(timers.deadlines.items()):
            if due <= now:
                del timers.deadlines[key]
                try:
                    table.play(SYSTEM, d.move)
                except IllegalMove:
                    continue
                return MOVED
        if timers.bot_due is not None and timers.bot_due <= now:
            for seat in table.to_move():
                s = ht.seats[seat]
                if s.kind == "bot" or s.standin:
                    move = PolicyBot(s.level).choose(table, seat, bot_rng(table))
                    table.play(seat, move)
                    return MOVED
            timers.bot_due = None
            return None
        if timers.idle_due is not None and timers.idle_due <= now:
            for seat in table.to_move():
                s = ht.seats[seat]
                if s.kind == "human":
                    s.standin = True          # a bot plays for him until he is back
            timers.idle_due = None
            return STANDIN
        return None

    @staticmethod
    def shown(ht: HostTable, now: float) -> list[dict[str, Any]]:
        """The timers as every recipient's view shows them (remaining seconds)."""
        timers = ht.timers
        shown = [{"name": d.name, "seat": d.seat, "seconds": d.seconds,
                  "remaining": round(max(0.0, due - now), 3)}
                 for due, d in timers.deadlines.values()]
        if timers.idle_due is not None and ht.idle is not None:
            for seat in ht.table.to_move():
                if ht.seats[seat].kind == "human" and not ht.seats[seat].standin:
                    shown.append({"name": "idle", "seat": seat, "seconds": ht.idle,
                                  "remaining": round(max(0.0, timers.idle_due - now), 3)})
        return shown
