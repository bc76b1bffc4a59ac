"""A game in play at the host: moves, reorders, what follows every change, and the timers.

Owns: the ``move`` and ``reorder`` requests (a move by id on the view's version, or a move
map; stale and illegal moves refused with the rules' reason), starting a table's game, what
happens after every change of a playing table (keep it, tell everybody, reset the timers,
notice the round is over), stopping a table whose plugin failed (status ``broken``, that
table only), a player coming back from a stand-in, and the loop's ``tick``: what is due at
the tables in play, at most one action per table per tick, so a table of bots never starves
the others or the socket. What is due is asked of ``timers.Timers`` (the referee), one
boundary.

Must not know about: sockets (views send through the outbox), players' connections, how a
match goes on after a round (``on_over`` tells the lobby), the store's format.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from cardparty.core.contract import Move, Result
from cardparty.core.i18n import Msg
from cardparty.core.table import IllegalMove, Table
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import HostTable, Player, Tables
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.timers import MOVED, STANDIN, Timers
from cardparty.net.host.views import Views
from cardparty.net.protocol import ProtocolError, message
from cardparty.net.safetext import safe

log = logging.getLogger("cardparty.host")


class Play:
    def __init__(self, tables: Tables, clock: Clock, timers: Timers, persistence: Persistence,
                 by_id: Mapping[str, Player],
                 observer: Callable[[str, Table], None] | None = None) -> None:
        self.tables = tables
        self.clock = clock
        self.timers = timers
        self.persistence = persistence
        self.by_id = by_id
        self.observer = observer
        self.views: Views | None = None
        #: called once when a round is over, before anybody is told (the match records it)
        self.on_over: Callable[[HostTable, Result], None] = lambda ht, r: None
        #: called when a round starts (the economy notes who is paid)
        self.on_start: Callable[[HostTable], None] = lambda ht: None

    def _views(self) -> Views:
        assert self.views is not None
        return self.views

    # --- requests ----------------------------------------------------------------------------

    def playing(self, player: Player, req: dict[str, Any]) -> tuple[HostTable, int]:
        ht = self.tables.find(req["table"])
        seat = ht.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", Msg("you have no seat at this table"))
        if ht.status != "playing":
            raise ProtocolError("not_playing", Msg("the table is {status}",
                                                   status=Msg(ht.status)))
        return ht, seat

    def on_move(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht, seat = self.playing(player, req)
        table = ht.table
        self.back(ht, seat)
        version = req["version"]
        if version is not None and version != table.version:
            raise ProtocolError("stale", Msg("the table has moved on (version {now}); your move "
                                             "was made on version {then}", now=table.version,
                                             then=version))
        wanted = req["move"]
        try:
            if isinstance(wanted, int):
                if version is None:
                    raise ProtocolError("bad_field",
                                        Msg("move: a move id needs the view's version"))
                moves = table.legal_moves(seat)
                if wanted >= len(moves):
                    raise ProtocolError("no_move", Msg("there is no move {move} in your list "
                                                       "({n} moves)", move=wanted, n=len(moves)))
                move = moves[wanted]
            else:
                try:
                    move = Move.from_wire(wanted)
                except ValueError as exc:
                    raise ProtocolError("bad_field", f"move: {exc}") from None
            table.play(seat, move)
        except IllegalMove as exc:
            raise ProtocolError("illegal", exc.message) from None
        except ProtocolError:
            raise
        except Exception as exc:
            self.fail(ht, exc)
            raise ProtocolError("game_failed", f"the game failed: {exc}") from None
        self.changed(ht)
        return message("ok", about="move", version=table.version)

    def on_reorder(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht, seat = self.playing(player, req)
        self.back(ht, seat)
        try:
            ht.table.reorder(seat, req["order"])
        except IllegalMove as exc:
            raise ProtocolError("illegal", exc.reason) from None
        except Exception as exc:
            self.fail(ht, exc)
            raise ProtocolError("game_failed", f"the game failed: {exc}") from None
        self.changed(ht)
        return message("ok", about="reorder", version=ht.table.version)

    def back(self, ht: HostTable, seat: int | None) -> None:
        """The player at ``seat`` did something at this table: no bot stands in for him."""
        if seat is not None and ht.seats[seat].standin:
            ht.seats[seat].standin = False
            self._views().push_summary(ht)
            self.schedule(ht)

    # --- the table's life --------------------------------------------------------------------

    def start(self, ht: HostTable) -> None:
        log.info("table %s starts: %s", ht.id, safe(", ".join(s.name for s in ht.seats)))
        ht.status = "playing"
        ht.ended_at = None
        self.tables.live[ht.id] = ht
        ht.table.names = [s.name for s in ht.seats]
        self.on_start(ht)
        ht.changed_at = self.clock.now()
        self._views().push_summary(ht)
        self.changed(ht, snapshot=True)

    def changed(self, ht: HostTable, snapshot: bool = False, timed: bool = False) -> None:
        """After every change of a playing table: keep it, tell everybody, reset timers
        (``timed``: the referee made the change and has reset them)."""
        table = ht.table
        ht.changed_at = self.clock.now()
        try:
            result = table.result()
        except Exception as exc:
            self.fail(ht, exc)
            return
        over = result is not None and ht.status == "playing"
        if over:
            assert result is not None
            ht.status = "over"
            self.tables.live.pop(ht.id, None)
            ht.ended_at = ht.changed_at
            log.info("table %s is over: places %s", ht.id, list(result.places))
            self.on_over(ht, result)
        self.persist(ht)
        if self.observer is not None:
            self.observer(ht.id, table)
        if ht.status == "over":
            self.timers.clear(ht)
        elif not timed:
            self.schedule(ht, changed=True)     # before the views: they show the timers
        views = self._views()
        views.push_views(ht, snapshot=snapshot)
        if ht.status == "over":
            views.push_summary(ht)

    def persist(self, ht: HostTable) -> None:
        try:
            self.persistence.save_table(ht, self.by_id)
        except Exception as exc:
            if ht.status == "playing":
                self.fail(ht, exc)

    def fail(self, ht: HostTable, exc: BaseException) -> None:
        """A game's plugin raised: stop this table only, and say so to everybody at it."""
        log.error("table %s stopped: its game failed", ht.id, exc_info=exc)
        ht.status = "broken"
        self.tables.live.pop(ht.id, None)
        ht.failure = f"{type(exc).__name__}: {exc}"
        ht.ended_at = self.clock.now()
        self.timers.clear(ht)
        self._views().push_summary(ht)

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
        due = None
        for ht in self.tables.live.values():
            d = self.timers.next_due(ht)
            if d is not None and (due is None or d < due):
                due = d
        return due

    def tick(self, now: float) -> None:
        """Fire what is due: at most one action per table per tick. First the tables whose
        hard bot's answer came from its worker (or went stale) are looked at again."""
        for ht in self.timers.collect(now):
            if ht.status == "playing":
                self.schedule(ht)
        for ht in list(self.tables.live.values()):
            due = self.timers.next_due(ht)
            if due is None or due > now:
                continue
            try:
                done = self.timers.fire(ht, now)
                if done == MOVED:
                    self.changed(ht, timed=True)
                elif done == STANDIN:
                    self._views().push_summary(ht)
            except Exception as exc:
                self.fail(ht, exc)
