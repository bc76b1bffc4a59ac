"""What is due next at the host's playing tables, asked of the referee (``core.referee``):
game deadlines, host bots' turns and idle players' stand-ins.

Owns: the one boundary the play part asks about time (``Timers``: ``changed`` after a change
of the game, ``refresh`` after a change of the seats, ``next_due``, ``fire`` what is due,
``shown`` as a view shows the timers, ``clear``), one ``core.referee.Referee`` per table and
game (made again when a new round deals a new game), and the host bots' random stream.

The host's bots draw from a random stream that is a function of the table's seed and its
version (``bot_rng``), not from one generator running since the host started: a host
restarted from its data makes the very same bot moves as one that never stopped, and nothing
needs saving per move for it.

Must not know about: sockets, the protocol, players' connections, persistence; the rules of
when (the referee owns them); the time comes in as ``now`` from the caller's clock.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardparty.core.bots import Bot, PolicyBot
from cardparty.core.contract import Move
from cardparty.core.referee import IDLE, Referee
from cardparty.core.table import Table

if TYPE_CHECKING:
    from cardparty.net.host.model import HostTable

#: ``fire`` results: the game moved (tell everybody), or a stand-in now plays for someone.
MOVED = "moved"
STANDIN = "standin"


def bot_rng(table: Table) -> random.Random:
    """The random stream a host bot draws from for the move at this version of ``table``."""
    return random.Random((table.seed & ((1 << 63) - 1)) * 1_000_003 + table.version)


class TableStreamBot:
    """A bot that draws from ``bot_rng`` of the table, whatever generator it is handed."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
        return self.inner.choose(table, seat, bot_rng(table))


class Timers:
    """The host's side of the referee: one per host, a referee per playing table."""

    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}

    def _bot(self, level: str) -> Bot:
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = TableStreamBot(PolicyBot(level))
        return bot

    def referee(self, ht: HostTable) -> Referee:
        """The table's referee, made for its current game (a new round has a new one)."""
        ref = ht.referee
        if ref is None or ref.table is not ht.table:
            seats = ht.seats
            ref = ht.referee = Referee(ht.table, seats, idle=ht.idle, bot_delay=ht.bot_delay,
                                       bots=lambda seat: self._bot(seats[seat].level))
        return ref

    def changed(self, ht: HostTable, now: float, deadlines_at: float | None = None) -> None:
        """The game changed at ``now`` (or started, or was restored: then its deadlines start
        at ``deadlines_at``); the game's hooks may raise."""
        if ht.status != "playing":
            self.clear(ht)
            return
        self.referee(ht).changed(now, deadlines_at)

    def refresh(self, ht: HostTable, now: float) -> None:
        """The seats changed (a stand-in ended, a bot took a seat), not the game."""
        if ht.status != "playing":
            self.clear(ht)
            return
        self.referee(ht).refresh(now)

    @staticmethod
    def clear(ht: HostTable) -> None:
        if ht.referee is not None:
            ht.referee.stop()

    @staticmethod
    def next_due(ht: HostTable) -> float | None:
        ref = ht.referee
        return ref.next_due() if ht.status == "playing" and ref is not None else None

    def fire(self, ht: HostTable, now: float) -> str | None:
        """Do the first thing due at ``now``: MOVED (the game changed), STANDIN (a bot now
        plays for an idle human; tell the seats), or None."""
        played = self.referee(ht).fire(now)
        if played is None:
            return None
        return STANDIN if played.kind == IDLE else MOVED

    @staticmethod
    def shown(ht: HostTable, now: float) -> list[dict[str, object]]:
        """The timers as every recipient's view shows them (remaining seconds)."""
        ref = ht.referee
        return [] if ref is None or ht.status != "playing" else ref.timers(now)
