"""The referee of one table: what happens next without a player's request, when, and doing it.

Three things move a table on their own: a game deadline running out (the Pika warning, PI-10;
its move is played as SYSTEM), a bot's turn (after the table's bot delay), and a stand-in
playing for a human who let the table's idle timeout pass (or is gone) until he is back. Every
driver asks this module, so they all follow the same rules:

- **On the clock** (the host node): ``Referee(table, seats, idle=..., bot_delay=...)``. The
  caller passes the time in (``now``, any monotonic clock in seconds), and says when the table
  changed; the referee keeps the due times. ``next_due()`` is a stored number, so a host with
  many tables can ask each one cheaply and ``fire(now)`` only the tables that are due.
- **In any order** (``cardparty simulate``, ``cardparty watch``, the benchmarks, the
  random-simulation checker): ``Referee.any_order(table, rng, bot)``. Bots sit in every seat
  and no clock runs: whatever the table lists is due at once, and the seeded ``rng`` picks
  among the seats that may move, plus SYSTEM while a deadline is listed, so a deadline runs
  out at any point where it is listed. This exercises every interleaving of moves and
  timeouts that real time could produce, and is the same from one run to the next.

The rules on the clock (the host's, see docs/protocol.md, "Timers the host owns"):

- a deadline is due ``seconds`` after the game first lists it, and keeps that due time while
  the game keeps listing the same one (name, seat and move); one no longer listed is dropped;
- a bot (or a stand-in) that may move is due ``bot_delay`` seconds after the table last changed;
  when several may move, the first of them in the table's ``to_move`` order plays, then the
  delay starts again;
- a human who may move is waited for ``idle`` seconds from the table's last change (never when
  ``idle`` is None); then a stand-in covers every human who may move, and plays at once;
- the earliest due time goes first; at equal times a deadline (in the game's listing order)
  goes before a bot, and a bot before the idle timeout;
- a bot whose ``choose`` answers None is thinking somewhere else (the host runs hard bots in
  worker processes): no bot is due until the caller says the answer came (``refresh``), while
  deadlines and the idle timeout keep their times.

Must not know about: sockets, terminals, the wall clock (``now`` is always passed in), players
and their connections (a seat is only "human", "bot" or "empty", and maybe stood in for).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from cardparty.core.bots import Bot, PolicyBot
from cardparty.core.contract import SYSTEM, Deadline, Event, Move
from cardparty.core.table import IllegalMove, Table
from cardparty.core.turns import draw_actor

#: What can be due (``Due.kind``) or have been done (``Played.kind``).
DEADLINE = "deadline"    # a deadline ran out: its move, played as SYSTEM
BOT = "bot"              # a bot's move
STANDIN = "standin"      # a move a stand-in made for an absent human
IDLE = "idle"            # the idle timeout ran out: stand-ins now cover ``Played.seats``


class SeatLike(Protocol):
    """What the referee reads of a seat: the host's own seat records qualify as they are."""

    kind: str            # "human", "bot", or "empty" (nobody: never due)
    level: str           # a bot's level (core.bots.LEVELS), also the stand-in's
    standin: bool        # a bot plays for this human until he is back


class LaterBot(Protocol):
    """A bot that may answer "not yet" (None): it thinks somewhere else and the referee is
    told when its answer came (``Referee.refresh``); then it is asked again."""

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move | None: ...


@dataclass(eq=False)
class BotSeat:
    """A seat for drivers that have no seat records of their own (a host has its own,
    ``net.host.model.HostSeat``): a bot's, unless said."""

    kind: str = "bot"
    level: str = "normal"
    standin: bool = False


def plays_itself(seat: SeatLike) -> bool:
    """A bot moves for this seat: it is a bot's, or a stand-in covers its human."""
    return seat.kind == "bot" or seat.standin


def waits_for_human(seat: SeatLike) -> bool:
    """A person is expected to move for this seat himself."""
    return seat.kind == "human" and not seat.standin


@dataclass(frozen=True, slots=True)
class Due:
    """What is due next and when: ``kind`` DEADLINE (``seat`` SYSTEM, with the ``deadline``),
    BOT (``seat``: the first that plays itself among the seats to move) or IDLE (``seat``: the
    first human waited for)."""

    at: float
    kind: str
    seat: int
    deadline: Deadline | None = None


class Played(NamedTuple):
    """What ``fire`` did: ``seat`` played ``move`` (SYSTEM for a DEADLINE) and the table told
    ``events``; or, for IDLE, nobody moved and stand-ins now cover ``seats``. (A named tuple:
    one is made per simulated move, and a frozen dataclass costs a simulation a tenth of its
    speed.)"""

    kind: str
    seat: int
    move: Move | None
    events: list[Event]
    seats: tuple[int, ...] = ()


_Key = tuple[Any, ...]


def deadline_key(d: Deadline) -> _Key:
    """What makes a listed deadline "the same one" from one change to the next."""
    return (d.name, d.seat, d.move.kind, d.move.cards, d.move.choice)


class Referee:
    """The timers of one table and the moves they make. See the module docstring.

    ``seats`` is read, never copied (the caller may replace a seat, then ``refresh``); a
    stand-in is recorded on it (``standin``). ``bots(seat)`` gives the bot that plays a seat;
    by default the game's own policy at the seat's level. ``rng`` is every bot's random stream.
    """

    def __init__(self, table: Table, seats: Sequence[SeatLike], *, idle: float | None = None,
                 bot_delay: float = 0.0, rng: random.Random | None = None,
                 bots: Callable[[int], Bot | LaterBot] | None = None) -> None:
        self.table = table
        self.seats = seats
        self.idle = idle
        self.bot_delay = bot_delay
        self.rng = rng if rng is not None else random.Random(table.seed)
        self.bots = bots or self._policy_bot
        #: False for a referee made by ``any_order``: no clock, the rng decides
        self.clocked = True
        self._levels: dict[str, Bot] = {}
        #: the one bot of every seat, when there is one (any order, without ``bots``)
        self._bot: Bot | None = None
        #: deadline key -> (due time, the deadline), in the game's listing order
        self.deadlines: dict[_Key, tuple[float, Deadline]] = {}
        self.changed_at = 0.0
        self.bot_due: float | None = None
        self.idle_due: float | None = None
        self._to_move: tuple[int, ...] = ()
        self._next: float | None = None

    @classmethod
    def any_order(cls, table: Table, rng: random.Random, bot: Bot | None = None,
                  bots: Callable[[int], Bot] | None = None) -> Referee:
        """A bot-only referee without a clock: ``bot`` (default: random) plays every seat and
        chooses SYSTEM's move among the listed deadlines' moves; or ``bots(seat)`` gives each
        seat's bot, and ``bots(SYSTEM)`` the one choosing for SYSTEM. ``rng`` picks who acts
        and is every bot's random stream."""
        player = bot or PolicyBot("easy")
        ref = cls(table, [BotSeat() for _ in range(table.players)], rng=rng,
                  bots=bots or (lambda seat: player))
        ref.clocked = False
        ref._bot = None if bots else player
        return ref

    def _policy_bot(self, seat: int) -> Bot:
        level = self.seats[seat].level
        bot = self._levels.get(level)
        if bot is None:
            bot = self._levels[level] = PolicyBot(level)
        return bot

    # --- telling the referee ----------------------------------------------------------------

    def changed(self, now: float, deadlines_at: float | None = None) -> None:
        """The table changed at ``now`` (it started, was restored, a move or a reorder): the
        bot delay and the idle timeout start again; deadlines are kept, started or dropped as
        the game lists them. ``deadlines_at``: when new deadlines start, if not at ``now``
        (a table restored after a restart changed long ago, but nobody could answer its
        deadlines while the host was down)."""
        self.changed_at = now
        self._schedule(now if deadlines_at is None else deadlines_at)

    def refresh(self, now: float) -> None:
        """The seats changed (a human is back, a bot took a seat over), not the table: the
        timers are worked out again, the table's last change still counting as their start."""
        self._schedule(now)

    def stop(self) -> None:
        """Nothing is due any more (the game is over, or the table stopped)."""
        self.deadlines.clear()
        self.bot_due = self.idle_due = self._next = None
        self._to_move = ()

    def back(self, seat: int | None, now: float) -> bool:
        """The human of ``seat`` did something at this table: no stand-in covers him any more.
        True when one did (the seats changed)."""
        if seat is None or seat == SYSTEM or not self.seats[seat].standin:
            return False
        self.seats[seat].standin = False
        self._schedule(now)
        return True

    def play(self, seat: int, move: Move, now: float) -> list[Event]:
        """A player's own move: played (IllegalMove changes nothing), then ``changed(now)``."""
        events = self.table.play(seat, move)
        self.changed(now)
        return events

    def _schedule(self, now: float) -> None:
        table = self.table
        listed = table.deadlines()
        self._to_move = to_move = table.to_move()
        old = self.deadlines
        fresh: dict[_Key, tuple[float, Deadline]] = {}
        for d in listed:
            key = deadline_key(d)
            fresh[key] = old.get(key) or (now + d.seconds, d)
        self.deadlines = fresh
        seats = self.seats
        self.bot_due = (self.changed_at + self.bot_delay
                        if any(plays_itself(seats[s]) for s in to_move) else None)
        self.idle_due = (self.changed_at + self.idle
                         if self.idle is not None
                         and any(waits_for_human(seats[s]) for s in to_move) else None)
        self._recompute()

    def _recompute(self) -> None:
        dues = [due for due, _ in self.deadlines.values()]
        if self.bot_due is not None:
            dues.append(self.bot_due)
        if self.idle_due is not None:
            dues.append(self.idle_due)
        self._next = min(dues) if dues else None

    # --- asking the referee -----------------------------------------------------------------

    def next_due(self) -> float | None:
        """When something is due next (None: nothing will be until the table or seats
        change). On the clock this is a stored number; in any order it is ``0.0`` while
        anybody may move."""
        if not self.clocked:
            return 0.0 if self.table.to_move() or self.table.deadlines() else None
        return self._next

    def due(self) -> Due | None:
        """What is due next and when (on the clock; in any order the rng decides at
        ``fire``)."""
        best: Due | None = None
        for at, d in self.deadlines.values():
            if best is None or at < best.at:
                best = Due(at, DEADLINE, SYSTEM, d)
        seats = self.seats
        if self.bot_due is not None and (best is None or self.bot_due < best.at):
            seat = next((s for s in self._to_move if plays_itself(seats[s])), None)
            if seat is not None:
                best = Due(self.bot_due, BOT, seat)
        if self.idle_due is not None and (best is None or self.idle_due < best.at):
            seat = next((s for s in self._to_move if waits_for_human(seats[s])), None)
            if seat is not None:
                best = Due(self.idle_due, IDLE, seat)
        return best

    def timers(self, now: float) -> list[dict[str, Any]]:
        """The running timers as a view shows them: each deadline, and the idle timeout of
        each human who may move, with the seconds remaining at ``now``."""
        shown = [{"name": d.name, "seat": d.seat, "seconds": d.seconds,
                  "remaining": round(max(0.0, at - now), 3)}
                 for at, d in self.deadlines.values()]
        if self.idle_due is not None and self.idle is not None:
            remaining = round(max(0.0, self.idle_due - now), 3)
            for seat in self._to_move:
                if waits_for_human(self.seats[seat]):
                    shown.append({"name": "idle", "seat": seat, "seconds": self.idle,
                                  "remaining": remaining})
        return shown

    # --- doing what is due ------------------------------------------------------------------

    def fire(self, now: float) -> Played | None:
        """Do the one thing due at ``now`` (None: nothing is). A move played this way counts
        as a change of the table at ``now`` (the timers start again). A deadline whose move
        the game refuses is dropped and the next thing due, if any, is done instead. A plugin
        that raises raises here, the table as the failed call left it."""
        if not self.clocked:
            return self._fire_any()
        while self._next is not None and self._next <= now:
            due = self.due()
            if due is None or due.at > now:
                # A bot's or the idle time is up but nobody it concerns may move now.
                if self.bot_due is not None and self.bot_due <= now:
                    self.bot_due = None
                if self.idle_due is not None and self.idle_due <= now:
                    self.idle_due = None
                self._recompute()
                continue
            if due.kind == DEADLINE:
                assert due.deadline is not None
                del self.deadlines[deadline_key(due.deadline)]
                try:
                    events = self.table.play(SYSTEM, due.deadline.move)
                except IllegalMove:
                    self._recompute()
                    continue
                self.changed(now)
                return Played(DEADLINE, SYSTEM, due.deadline.move, events)
            if due.kind == BOT:
                played = self._bot_moves(now)
                if played is None:
                    continue             # nobody to play, or a bot still thinking elsewhere
                return played
            return self._stand_in(now)
        return None

    def _bot_moves(self, now: float) -> Played | None:
        table = self.table
        for seat in table.to_move():
            s = self.seats[seat]
            if plays_itself(s):
                move = self.bots(seat).choose(table, seat, self.rng)
                if move is None:
                    # The bot thinks elsewhere (a host's worker process): nothing is due from
                    # bots until the caller says the answer came (``refresh``).
                    break
                events = table.play(seat, move)
                self.changed(now)
                return Played(STANDIN if s.standin else BOT, seat, move, events)
        self.bot_due = None
        self._recompute()
        return None

    def _stand_in(self, now: float) -> Played | None:
        humans = tuple(s for s in self.table.to_move() if self.seats[s].kind == "human")
        for seat in humans:
            self.seats[seat].standin = True
        self.idle_due = None
        self._schedule(now)
        if not humans:
            return None
        self.bot_due = now               # the stand-in plays at once, whatever the bot delay
        self._recompute()
        return Played(IDLE, humans[0], None, [], humans)

    def _fire_any(self) -> Played | None:
        table = self.table
        rng = self.rng
        seat = draw_actor(table.to_move(), bool(table.deadlines()), rng)
        if seat is None:
            return None
        bot = self._bot or self.bots(seat)
        move = bot.choose(table, seat, rng)
        assert move is not None, "a bot without a clock answers at once"
        return Played(BOT if seat != SYSTEM else DEADLINE, seat, move, table.play(seat, move))
