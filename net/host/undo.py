"""Taking back a move by agreement: the ``undo`` and ``undo_answer`` requests
(docs/protocol.md, "Taking back a move").

Owns: who may ask (a seated player at a table that takes moves back: ``Access.takes_back``, a
practice table or a friends table whose creator allowed it; never an open or entry table),
the request waiting for the seated humans' answers (one per table, ``HostTable.undo``: the
asker agrees by asking; every other seated human must agree; one refusal, the asker's
withdrawal or any change of the game drops it), and going back once all agreed: the table
as it was before the asker's last move (``core.undo``: never back past a move that showed
anybody a card he had not seen, but the asker's own card the move taken back laid), its
version one more, every seat's next view carrying the ``undo`` event, the host's log naming
who asked and who agreed. Only a round in play goes back: what a round paid is paid when it
is over, so nothing paid is ever undone.

Must not know about: sockets, the game's rules (``core.undo`` judges what may go back), how
views are built.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from cardparty.core.i18n import Msg
from cardparty.core.undo import CannotUndo, TakeBack, table_before, take_back
from cardparty.net.host.model import HostTable, Player, Tables, UndoAsked, waiting
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.play import Play
from cardparty.net.host.views import Views
from cardparty.net.names.safetext import safe
from cardparty.net.wire.play_replies import (
    UndoAnswerReply,
    UndoDroppedPush,
    UndoReply,
)
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.requests import UndoAnswerRequest, UndoRequest

log = logging.getLogger("cardparty.host")

#: Judgements remembered (``Undos.judged``), the oldest forgotten first.
JUDGEMENTS = 256


class Undos:
    def __init__(self, tables: Tables, play: Play, views: Views, outbox: Outbox) -> None:
        self.tables = tables
        self.play = play
        self.views = views
        self.outbox = outbox
        #: (the table, its version, the seat) -> how it goes back, or why it may not
        self.judgements: OrderedDict[tuple[str, int, int], TakeBack | Msg] = OrderedDict()

    def on_undo(self, player: Player, req: UndoRequest) -> UndoReply:
        ht, seat = self.play.playing(player, req)
        if not ht.access.takes_back:
            raise ProtocolError("no_undo", Msg("this table takes no move back: practice "
                                               "tables do, and friends tables whose creator "
                                               "allowed it"))
        if ht.undo is not None:
            raise ProtocolError("undoing", Msg("{name} asked to take back a move: the table "
                                               "answers that first", name=ht.undo.name))
        back = self.judged(ht, seat)
        self.play.back(ht, seat)
        asked = ht.undo = UndoAsked(seat, ht.seats[seat].name, back.version, back.moves,
                                    {seat})
        log.info("table %s: %s asks to take back %d move(s)", ht.id,
                 safe(ht.seats[seat].name), back.moves)
        left = waiting(ht, asked)
        if not left:
            self.go_back(ht, back)
        else:
            self.views.push_summary(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "undo", "moves": back.moves,
                "waiting": left, "version": ht.engine.version}

    def on_undo_answer(self, player: Player, req: UndoAnswerRequest) -> UndoAnswerReply:
        ht, seat = self.play.playing(player, req)
        asked = ht.undo
        if asked is None:
            raise ProtocolError("not_asked", Msg("nobody asked to take back a move here"))
        name = ht.seats[seat].name
        if not req["agree"]:
            self.drop(ht, Msg("{name} said no", name=name), by=name)
            return self.answered([])
        asked.agreed.add(seat)
        left = waiting(ht, asked)
        if left:
            self.views.push_summary(ht)
            return self.answered(left)
        try:
            back = self.judged(ht, asked.seat)
        except ProtocolError as refused:
            self.drop(ht, refused.message)
            raise
        self.go_back(ht, back)
        return self.answered([])

    @staticmethod
    def answered(waiting: list[str]) -> UndoAnswerReply:
        """The ``ok`` to ``undo_answer``: the names still to agree."""
        return {"type": "ok", "v": PROTOCOL, "about": "undo_answer", "waiting": waiting}

    def judged(self, ht: HostTable, seat: int) -> TakeBack:
        """How ``game`` goes back for ``seat`` (ProtocolError ``cannot_undo`` when it may
        not). Judging replays the round (milliseconds): the answer for one version and seat
        is remembered, so asking again and again costs the host nothing more."""
        engine = ht.engine
        key = (ht.id, engine.version, seat)
        found = self.judgements.get(key)
        if found is None:
            try:
                found = take_back(engine, seat)
            except CannotUndo as exc:
                found = exc.reason
            self.judgements[key] = found
            while len(self.judgements) > JUDGEMENTS:
                self.judgements.popitem(last=False)
        if isinstance(found, Msg):
            raise ProtocolError("cannot_undo", found)
        return found

    def go_back(self, ht: HostTable, back: TakeBack) -> None:
        """Everybody agreed: the table as it was before the move, told to everybody at it
        as a view with the ``undo`` event."""
        asked = ht.undo
        ht.undo = None
        old = ht.engine
        try:
            engine = table_before(old, back)
        except Exception as exc:            # a plugin failing to replay stops this table only
            self.play.fail(ht, exc)
            return
        agreed = sorted(ht.seats[i].name for i in (asked.agreed if asked else ()))
        log.info("table %s: %s takes back %d move(s), to version %d; agreed: %s", ht.id,
                 safe(ht.seats[back.seat].name), back.moves, engine.version,
                 safe(", ".join(agreed)))
        ht.engine = engine
        ht.round_log.times[back.steps:] = []
        self.views.went_back(ht, len(engine.events) - 1)
        self.views.push_summary(ht)
        self.play.changed(ht)

    def drop(self, ht: HostTable, why: str, by: str | None = None) -> None:
        """The request at ``ht`` ends without going back: everybody there is told why."""
        asked = ht.undo
        if asked is None:
            return
        ht.undo = None
        log.info("table %s: %s's request to take back a move is dropped: %s", ht.id,
                 safe(asked.name), why)
        dropped: UndoDroppedPush = {
            "type": "undo_dropped", "v": PROTOCOL, "table": ht.id, "seat": asked.seat,
            "name": asked.name, "by": by, "reason": str(why),
            "reason_msg": why.to_wire() if isinstance(why, Msg) else None}
        self.outbox.send_all(self.views.recipients(ht), dropped)
        self.views.push_summary(ht)

    def moved(self, ht: HostTable) -> None:
        """The game at ``ht`` changed (``TableEvents.moved``): a request asked on another
        version is dropped (the moves it would take back are others now)."""
        asked = ht.undo
        if asked is not None and asked.version != ht.engine.version:
            self.drop(ht, Msg("the table moved on"))
