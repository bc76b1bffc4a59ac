"""What is due next at the host's playing tables, asked of the referee (``core.referee``):
game deadlines, host bots' turns and idle players' stand-ins.

Owns: the one boundary the play part asks about time (``Timers``: ``changed`` after a change
of the game, ``refresh`` after a change of the seats, ``next_due`` and ``due`` (the tables
whose time has come, in the order it came: a heap of each table's next due time, so the loop
looks at what is due alone, ``schedule.Schedule``), ``fire`` what is due, ``shown`` as a view
shows the timers, ``clear``), one ``core.referee.Referee`` per playing table and game (made
again when a new round deals a new game), the host bots' random stream, and which bot plays
a seat (its level, or the table's stand-in level; a hard one asks the ``thinkers``).

The host's bots draw from a random stream that is a function of the table's seed and its
version (``bot_rng``), not from one generator running since the host started: a host
restarted from its data makes the very same bot moves as one that never stopped, and nothing
needs saving per move for it.

Easy and normal bots choose on the loop (a few hundred microseconds at most,
docs/bots.md). Hard bots (a seat's level, or the table's stand-in level) search for the
table's ``bot_budget_ms`` in a worker process (``thinkers``), seeded from the same stream, so
the loop goes on serving the other tables meanwhile; with ``workers=0`` they search on the
loop (the comparison in bench/host.py, and nothing else).

Must not know about: sockets, the protocol, players' connections, persistence; the rules of
when (the referee owns them); the time comes in as ``now`` from the caller's clock.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import replace
from functools import lru_cache

from cardparty.core.bots import Bot, PolicyBot, canonical_level
from cardparty.core.contract import Move
from cardparty.core.referee import LaterBot, Played, Referee
from cardparty.core.search import DEFAULT_BUDGET, Budget, search
from cardparty.core.table import Table
from cardparty.net.host.model import HostTable
from cardparty.net.host.schedule import Schedule
from cardparty.net.host.thinkers import FALLBACK, Thinkers


def bot_seed(table: Table) -> int:
    """The seed of the random stream a host bot draws from at this version of ``table``."""
    return (table.seed & ((1 << 63) - 1)) * 1_000_003 + table.version


def bot_rng(table: Table) -> random.Random:
    """The random stream a host bot draws from for the move at this version of ``table``."""
    return random.Random(bot_seed(table))


@lru_cache(maxsize=64)
def budget_of(ms: int) -> Budget:
    """The search's budget for a table's ``bot_budget_ms``: that much time, and iterations in
    the same proportion to the default's (a fast machine answers before the time is up)."""
    seconds = ms / 1000
    base = DEFAULT_BUDGET
    iterations = base.iterations
    if iterations is not None and base.seconds:
        iterations = max(1, round(iterations * seconds / base.seconds))
    return replace(base, seconds=seconds, iterations=iterations)


class TableStreamBot:
    """A bot that draws from ``bot_rng`` of the table, whatever generator it is handed."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        return self.inner.choose(table, seat, bot_rng(table))


class HardBot:
    """A hard bot of one table: its search runs in a worker (``thinkers``), or on the loop
    when there are none; ``fallback``'s move when thinking failed."""

    def __init__(self, thinkers: Thinkers | None, owner: Hashable, budget_ms: int,
                 fallback: Bot) -> None:
        self.thinkers = thinkers
        self.owner = owner
        self.budget = budget_of(budget_ms)
        self.fallback = fallback

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move | None:
        thinkers = self.thinkers
        if thinkers is None:
            return search(table, seat, bot_rng(table), self.budget)
        index = thinkers.ask(self.owner, table, seat, bot_seed(table), self.budget)
        if index is None:
            return None
        moves = table.legal_moves(seat)
        if index == FALLBACK or not 0 <= index < len(moves):
            return self.fallback.choose(table, seat, rng)
        return moves[index]


class Timers:
    """The host's side of the referee: one per host, a referee per playing table.

    ``thinkers``: the worker processes hard bots think in (None: they think on the loop)."""

    def __init__(self, thinkers: Thinkers | None) -> None:
        self.thinkers = thinkers
        #: owners other than tables whose worker answered (``collect``), for their part to take
        self.answered: list[Hashable] = []
        self._bots: dict[str, Bot] = {}
        self.referees: dict[HostTable, Referee] = {}
        #: each playing table by when its referee is next due
        self.due: Schedule[HostTable] = Schedule()

    def bot(self, level: str) -> Bot:
        """The host bot of ``level`` (one per level, drawing from the table's stream)."""
        level = canonical_level(level)
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = TableStreamBot(PolicyBot(level))
        return bot

    def referee(self, ht: HostTable) -> Referee:
        """The table's referee, made for its current game (a new round has a new one)."""
        ref = self.referees.get(ht)
        if ref is None or ref.table is not ht.engine:
            ref = self.referees[ht] = Referee(
                ht.engine, ht.seats, idle=ht.timing.idle, bot_delay=ht.timing.bot_delay,
                bots=lambda seat: self._bot_for(ht, seat))
        return ref

    def _bot_for(self, ht: HostTable, seat: int) -> Bot | LaterBot:
        """The bot that plays ``seat``: its own level, or the table's stand-in level for a
        human's seat."""
        s = ht.seats[seat]
        level = canonical_level(ht.timing.standin_level if s.kind == "human" else s.level)
        if level == "hard":
            return HardBot(self.thinkers, ht, ht.timing.bot_budget_ms, self.bot("normal"))
        return self.bot(level)

    def collect(self) -> list[HostTable]:
        """The tables whose hard bot's answer came (or went stale): look at them again. The
        other owners whose answer came (players' hints) wait in ``answered``."""
        if self.thinkers is None:
            return []
        tables: list[HostTable] = []
        for owner in self.thinkers.collect():
            if isinstance(owner, HostTable):
                tables.append(owner)
            else:
                self.answered.append(owner)
        return tables

    def fds(self) -> frozenset[int]:
        """What wakes the loop when a hard bot's answer is ready."""
        return frozenset() if self.thinkers is None else self.thinkers.fds()

    def close(self) -> None:
        """Stop the workers (the host is stopping)."""
        if self.thinkers is not None:
            self.thinkers.close()

    def changed(self, ht: HostTable, now: float, deadlines_at: float | None = None) -> None:
        """The game changed at ``now`` (or started, or was restored: then its deadlines start
        at ``deadlines_at``); the game's hooks may raise."""
        if ht.status != "playing":
            self.clear(ht)
            return
        ref = self.referee(ht)
        ref.changed(now, deadlines_at)
        self.due.set(ht, ref.next_due())

    def refresh(self, ht: HostTable, now: float) -> None:
        """The seats changed (a stand-in ended, a bot took a seat), not the game."""
        if ht.status != "playing":
            self.clear(ht)
            return
        ref = self.referee(ht)
        ref.refresh(now)
        self.due.set(ht, ref.next_due())

    def clear(self, ht: HostTable) -> None:
        """Nothing is due at ``ht`` any more (its round is over, or it stopped)."""
        ref = self.referees.pop(ht, None)
        if ref is not None:
            ref.stop()
        self.due.discard(ht)
        if self.thinkers is not None:
            self.thinkers.forget(ht)

    def next_due(self) -> float | None:
        """When the first table's timer is due (None: none is)."""
        return self.due.next_due()

    def due_now(self, now: float) -> list[HostTable]:
        """The tables something is due at by ``now``, earliest first; ``fire`` each."""
        return self.due.pop_due(now)

    def fire(self, ht: HostTable, now: float) -> Played | None:
        """Do the first thing due at ``ht`` at ``now`` (None: nothing was): a move played
        (a deadline's, a bot's or a stand-in's), or the idle timeout (``core.referee.IDLE``:
        a stand-in now plays for the humans in ``Played.seats``)."""
        if ht.status != "playing":
            self.clear(ht)
            return None
        ref = self.referee(ht)
        try:
            return ref.fire(now)
        finally:
            self.due.set(ht, ref.next_due())

    def shown(self, ht: HostTable, now: float) -> list[dict[str, object]]:
        """The timers as every recipient's view shows them (remaining seconds)."""
        ref = self.referees.get(ht)
        return [] if ref is None or ht.status != "playing" else ref.timers(now)
