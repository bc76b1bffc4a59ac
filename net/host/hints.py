"""Hints for a practising player: the ``hint`` request (docs/protocol.md, "Hints").

Owns: who may ask (a seated player whose table gives hints: ``Access.gives_hints``, a
practice table or a friends table whose creator turned hints on; never an open or entry
table), the questions waiting for a worker (one per seat: a seat asking again while its hint
is worked out is refused, so what a player can make the host think is bounded by his seats),
and the answer: the ``hint`` message to the rid that asked, with the move's id in the seat's
list of that version, its label and the reason (``core.hint``). The hard search runs in the
same worker processes as the host's hard bots (``thinkers``, ``core.hint.hint_index``), so
the loop answers everybody else meanwhile; a host without workers thinks on the loop, as its
hard bots do. A table that moves on before the answer comes gets a ``stale`` refusal: a hint
is for the position it was asked on.

The hint is worked out from the seat's own view (``core.hint``: the same search as a hard
bot of that seat), seeded from the table, the version and the seat, so the same question
gets the same answer and the seed says nothing of the cards.

Must not know about: sockets, the game's rules, how the search decides.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from cardparty.core.hint import hint
from cardparty.core.i18n import Msg, from_wire
from cardparty.core.narrate import named_label
from cardparty.net.host.model import HostTable, Player, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.thinkers import FALLBACK, Thought
from cardparty.net.host.timers import Timers, budget_of
from cardparty.net.wire.play_replies import HintReply
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError, error
from cardparty.net.wire.requests import HintRequest


def seed_of(ht: HostTable, seat: int) -> int:
    """The search's seed for a hint: the table, its version and the seat (nothing hidden)."""
    return zlib.crc32(f"{ht.id}:{ht.engine.version}:{seat}".encode())


@dataclass(frozen=True)
class HintFor:
    """The thinkers' owner of one seat's question (a table's own is its hard bots')."""

    table: str
    seat: int


@dataclass
class _Waiting:
    player: Player
    rid: int | str | None
    version: int
    ht: HostTable


class Hints:
    def __init__(self, tables: Tables, timers: Timers, outbox: Outbox) -> None:
        self.tables = tables
        self.timers = timers
        self.outbox = outbox
        self.waiting: dict[HintFor, _Waiting] = {}

    def on_hint(self, player: Player, req: HintRequest) -> HintReply | None:
        ht = self.tables.find(req["table"])
        seat = ht.seated(player)
        if not ht.access.gives_hints:
            raise ProtocolError("no_hints", Msg("this table gives no hints: practice tables "
                                                "do, and friends tables whose creator turned "
                                                "hints on"))
        if ht.status != "playing":
            raise ProtocolError("not_playing", Msg("the table is {status}",
                                                   status=Msg(ht.status)))
        engine = ht.engine
        if not engine.legal_moves(seat):
            raise ProtocolError("no_move", Msg("you have no move to make now: a hint is for "
                                               "your turn"))
        owner = HintFor(ht.id, seat)
        if owner in self.waiting:
            raise ProtocolError("hinting", Msg("your hint is being worked out"))
        thinkers = self.timers.thinkers
        if thinkers is None:                  # no workers: on the loop, as its hard bots
            move, reason = hint(engine, seat, budget_of(ht.timing.bot_budget_ms),
                                seed_of(ht, seat))
            index = next(i for i, m in enumerate(engine.legal_moves(seat)) if m is move)
            return self.answer(ht, seat, index, None if reason is None else reason.to_wire())
        self.waiting[owner] = _Waiting(player, req["rid"], engine.version, ht)
        self._asked(owner)
        return None

    def tick(self) -> None:
        """Answer the questions whose worker answered (or whose table moved on)."""
        answered = self.timers.answered
        self.timers.answered = [o for o in answered if not isinstance(o, HintFor)]
        for owner in answered:
            if isinstance(owner, HintFor) and owner in self.waiting:
                self._asked(owner)

    def _asked(self, owner: HintFor) -> None:
        """Ask the thinkers (again); answer the player once they have the hint."""
        wait = self.waiting[owner]
        ht, engine = wait.ht, wait.ht.engine
        thinkers = self.timers.thinkers
        assert thinkers is not None
        if ht.status != "playing" or engine.version != wait.version:
            del self.waiting[owner]
            self.outbox.send(wait.player, error(
                "stale", Msg("the table moved on before the hint was ready: ask again"),
                wait.rid, "hint", ht.id))
            return
        got: Thought | None = thinkers.ask_hint(owner, engine, owner.seat,
                                                seed_of(ht, owner.seat),
                                                budget_of(ht.timing.bot_budget_ms))
        if got is None:
            return
        del self.waiting[owner]
        if got.index == FALLBACK or not 0 <= got.index < len(engine.legal_moves(owner.seat)):
            self.outbox.send(wait.player, error(
                "internal", Msg("the hint could not be worked out: ask again"), wait.rid,
                "hint", ht.id))
            return
        reply = self.answer(ht, owner.seat, got.index, got.reason)
        reply["rid"] = wait.rid
        self.outbox.send(wait.player, reply)

    @staticmethod
    def answer(ht: HostTable, seat: int, index: int, reason: dict[str, object] | None
               ) -> HintReply:
        """The ``hint`` message: the move by its id in the seat's list of this version, its
        label, and the reason in English (``reason``) and as a message map (``reason_msg``)."""
        move = ht.engine.legal_moves(seat)[index]
        told = from_wire(reason)
        return {"type": "hint", "v": PROTOCOL, "table": ht.id, "version": ht.engine.version,
                "move": index, "label": str(named_label(move.label, ht.engine.names)
                                            or " ".join([move.kind, *move.cards])),
                "reason": None if told is None else str(told),
                "reason_msg": None if told is None else reason}

