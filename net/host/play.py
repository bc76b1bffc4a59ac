"""A game in play at the host: moves, reorders, what follows every change, and the timers.

Owns: the ``move`` and ``reorder`` requests (a move by id on the view's version, or a move
map; stale and illegal moves refused with the rules' reason), starting a table's game, what
happens after every change of a playing table (keep it, tell everybody, reset the timers,
notice the round is over), stopping a table whose plugin failed (status ``broken``, that
table only, whether the failure came while playing, keeping or showing it), a player coming
back from a stand-in, and the loop's ``tick``: what is due at the tables in play, at most one
action per table per tick, so a table of bots never starves the others or the socket. What is
due is asked of ``timers.Timers`` (the referee), one boundary.

What follows a round's start, its end and every change of its game is told to the
``TableEvents`` the composition root gave (the economy notes who is paid, the match records
the round, a test's observer checks what each seat may see): ``play`` calls nothing of theirs.

Must not know about: sockets (views send through the outbox), players' connections, how a
match goes on after a round or how it is paid (``TableEvents``), the store's format.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardparty.core.contract import Move, Result
from cardparty.core.i18n import Msg
from cardparty.core.referee import IDLE
from cardparty.core.table import IllegalMove, Table
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import HostTable, Player, RoundLog, Tables
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.timers import Timers
from cardparty.net.host.views import ViewFailed, Views
from cardparty.net.names.safetext import safe
from cardparty.net.wire.play_replies import MoveReply, ReorderReply
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.requests import (
    MoveRequest,
    ReorderRequest,
    UndoAnswerRequest,
    UndoRequest,
)

log = logging.getLogger("cardparty.host")

#: A test's look at a playing table after every change: its id and its game.
Observer = Callable[[str, Table], None]


@dataclass(frozen=True)
class TableEvents:
    """Who is told of a table's round, in order, given when the play part is built:
    ``started`` when a round starts (before anybody is told), ``over`` once when it is over
    (before it is kept or told), ``changed`` after every change of its game is kept."""

    started: tuple[Callable[[HostTable], None], ...] = ()
    over: tuple[Callable[[HostTable, Result], None], ...] = ()
    changed: tuple[Observer, ...] = ()
    moved: Sequence[Callable[[HostTable], None]] = ()


def game_failed(exc: BaseException) -> ProtocolError:
    """The refusal of a request whose game's plugin raised (its table is stopped)."""
    return ProtocolError("game_failed", Msg("the game failed: {error}", error=str(exc)))


class Play:
    def __init__(self, tables: Tables, clock: Clock, timers: Timers, persistence: Persistence,
                 views: Views, events: TableEvents) -> None:
        self.tables = tables
        self.clock = clock
        self.timers = timers
        self.persistence = persistence
        self.views = views
        self.events = events

    # --- requests ----------------------------------------------------------------------------

    def playing(self, player: Player,
                req: MoveRequest | ReorderRequest | UndoRequest | UndoAnswerRequest
                ) -> tuple[HostTable, int]:
        ht = self.tables.find(req["table"])
        seat = ht.seated(player)
        if ht.status != "playing":
            raise ProtocolError("not_playing", Msg("the table is {status}",
                                                   status=Msg(ht.status)))
        return ht, seat

    def on_move(self, player: Player, req: MoveRequest) -> MoveReply:
        ht, seat = self.playing(player, req)
        engine = ht.engine
        self.back(ht, seat)
        version = req["version"]
        if version is not None and version != engine.version:
            raise ProtocolError("stale", Msg("the table has moved on (version {now}); your move "
                                             "was made on version {then}", now=engine.version,
                                             then=version))
        try:
            engine.play(seat, self.wanted(engine, seat, req["move"], version))
        except IllegalMove as exc:
            raise ProtocolError("illegal", exc.message) from None
        except ProtocolError:
            raise
        except Exception as exc:
            self.fail(ht, exc)
            raise game_failed(exc) from None
        self.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "move", "version": engine.version}

    @staticmethod
    def wanted(engine: Table, seat: int, move: int | dict[str, object], version: int | None
               ) -> Move:
        """The move a request names: its id in the seat's list of this version (the rules
        still judge it when it is played), or a move map."""
        if isinstance(move, int):
            if version is None:
                raise ProtocolError("bad_field", Msg("move: a move id needs the view's version"))
            moves = engine.legal_moves(seat)
            if move >= len(moves):
                raise ProtocolError("no_move", Msg("there is no move {move} in your list "
                                                   "({n} moves)", move=move, n=len(moves)))
            return moves[move]
        try:
            return Move.from_wire(move)
        except ValueError as exc:
            raise ProtocolError("bad_field", Msg("move: {problem}", problem=str(exc))) from None

    def on_reorder(self, player: Player, req: ReorderRequest) -> ReorderReply:
        ht, seat = self.playing(player, req)
        self.back(ht, seat)
        try:
            ht.engine.reorder(seat, req["order"])
        except IllegalMove as exc:
            raise ProtocolError("illegal", exc.message) from None
        except Exception as exc:
            self.fail(ht, exc)
            raise game_failed(exc) from None
        self.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "reorder", "version": ht.engine.version}

    def back(self, ht: HostTable, seat: int | None) -> None:
        """The player at ``seat`` did something at this table: no bot stands in for him."""
        if seat is not None and ht.seats[seat].standin:
            ht.seats[seat].standin = False
            self.views.push_summary(ht)
            self.schedule(ht)

    def show(self, ht: HostTable, player: Player, seat: int | None,
             rid: int | str | None = None) -> None:
        """Send ``player`` a snapshot of ``ht`` as ``seat`` (None: a spectator) sees it; a
        game that fails to show a playing table stops it."""
        try:
            self.views.push_view(ht, player, seat, snapshot=True, rid=rid)
        except ViewFailed as failed:
            self.fail(ht, failed.cause)

    # --- the table's life --------------------------------------------------------------------

    def start(self, ht: HostTable) -> None:
        log.info("table %s starts: %s", ht.id, safe(", ".join(s.name for s in ht.seats)))
        self.tables.playing(ht)
        ht.engine.names = [s.name for s in ht.seats]
        ht.round_log = RoundLog(started=self.clock.wall())
        ht.shared = None
        for started in self.events.started:
            started(ht)
        ht.changed_at = self.clock.now()
        self.views.push_summary(ht)
        self.changed(ht, snapshot=True)

    def changed(self, ht: HostTable, snapshot: bool = False, timed: bool = False) -> None:
        """After every change of a playing table: keep it, tell everybody, reset timers
        (``timed``: the referee made the change and has reset them)."""
        engine = ht.engine
        for moved in self.events.moved:
            moved(ht)
        ht.changed_at = self.clock.now()
        ht.round_log.note(len(engine.journal) + len(engine.reorders), self.clock.wall())
        try:
            result = engine.result()
        except Exception as exc:
            self.fail(ht, exc)
            return
        if result is not None and ht.status == "playing":
            self.tables.ended(ht, "over", ht.changed_at)
            log.info("table %s is over: places %s", ht.id, list(result.places))
            for over in self.events.over:
                over(ht, result)
        self.persistence.save_table(ht)
        for look in self.events.changed:
            look(ht.id, engine)
        if ht.status == "over":
            self.timers.clear(ht)
        elif not timed:
            self.schedule(ht, changed=True)     # before the views: they show the timers
        try:
            self.views.push_views(ht, snapshot=snapshot)
        except ViewFailed as failed:
            self.fail(ht, failed.cause)
            return
        if ht.status == "over":
            self.views.push_summary(ht)

    def fail(self, ht: HostTable, exc: BaseException) -> None:
        """A game's plugin raised: stop this table only, and say so to everybody at it."""
        log.error("table %s stopped: its game failed", ht.id, exc_info=exc)
        self.tables.ended(ht, "broken", self.clock.now())
        ht.failure = f"{type(exc).__name__}: {exc}"
        self.timers.clear(ht)
        self.views.push_summary(ht)

    def halt(self, ht: HostTable, status: str) -> None:
        """Stop ``ht`` without a result (``status``: ``cancelled``, an event's table at its
        round's deadline): no more timers, kept, and everybody at it told."""
        log.info("table %s is stopped: %s", ht.id, status)
        self.tables.ended(ht, status, self.clock.now())
        self.timers.clear(ht)
        self.persistence.save_table(ht)
        self.views.push_summary(ht)

    def schedule(self, ht: HostTable, changed: bool = False) -> None:
        """Work the table's timers out again (docs/protocol.md, "Timers"): after a change
        of the game (``changed``, from the table's last change) or of its seats."""
        try:
            if changed:
                # From the last change (long ago for a table restored after a restart:
                # the idle clock goes on); a deadline starts now.
                self.timers.changed(ht, ht.changed_at, self.clock.now())
            else:
                self.timers.refresh(ht, self.clock.now())
        except Exception as exc:
            self.fail(ht, exc)

    # --- the loop's side ---------------------------------------------------------------------

    def next_due(self) -> float | None:
        return self.timers.next_due()

    def tick(self, now: float) -> None:
        """Fire what is due: at most one action per table per tick. First the tables whose
        hard bot's answer came from its worker (or went stale) are looked at again."""
        for ht in self.timers.collect():
            if ht.status == "playing":
                self.schedule(ht)
        for ht in self.timers.due_now(now):
            try:
                played = self.timers.fire(ht, now)
                if played is None:
                    continue
                if played.kind == IDLE:          # a stand-in now plays for someone
                    self.views.push_summary(ht)
                else:
                    self.changed(ht, timed=True)
            except Exception as exc:
                self.fail(ht, exc)
