"""The review of a player's own round: the ``review`` request (docs/protocol.md, "The
review"; docs/playing.md, "The review").

Owns: who may ask (a player who sat at the record's round, about his own seat only: the seat
comes from the record, never from the request; never a round in play, which has no record
yet), the decisions judged (each step where that seat made a move out of two or more), the
questions waiting for the bots' workers (``thinkers``, after every bot and hint waiting:
``Thinkers.ask_review``; one review per player at a time, so what a player can make the host
think is bounded by one round's decisions), and the answer: the ``review`` message with every
decision whose estimated loss is above ``core.review.MARGIN``, its loss and its reason.

Each decision is judged from the table as it was then (``core.record.Replay``), by the hard
search from that seat's view (``core.review``: the hint's machinery), seeded from the record,
the step and the seat, so the same review gives the same marks.

Must not know about: sockets, the game's rules, how the search decides.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from cardparty.core.contract import Move
from cardparty.core.i18n import Msg, from_wire
from cardparty.core.narrate import named_label
from cardparty.core.record import GameRecord, Replay
from cardparty.core.review import MARGIN, judge
from cardparty.core.search import DEFAULT_BUDGET, Budget
from cardparty.core.table import Table
from cardparty.net.host.model import Player
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.records import Records, player_key
from cardparty.net.host.thinkers import FALLBACK, Thought
from cardparty.net.host.timers import Timers
from cardparty.net.wire.play_replies import ReviewMark, ReviewReply
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError, error
from cardparty.net.wire.requests import ReviewRequest


@dataclass(frozen=True)
class ReviewFor:
    """The thinkers' owner of one decision of one player's review."""

    player: str
    record: str
    step: int


@dataclass
class _Decision:
    step: int
    table: Table
    played: int
    thought: Thought | None = None


@dataclass
class _Review:
    player: Player
    rid: int | str | None
    record: GameRecord
    seat: int
    decisions: list[_Decision] = field(default_factory=list)


#: The refusal of a review none of whose decisions could be judged.
FAILED = Msg("the review could not be worked out: ask again")


def seed_of(record: str, step: int, seat: int) -> int:
    return zlib.crc32(f"review:{record}:{step}:{seat}".encode())


class Reviews:
    def __init__(self, records: Records, timers: Timers, outbox: Outbox,
                 budget: Budget = DEFAULT_BUDGET) -> None:
        self.records = records
        self.timers = timers
        self.outbox = outbox
        self.budget = budget
        #: player id -> his review under way
        self.waiting: dict[str, _Review] = {}

    def on_review(self, player: Player, req: ReviewRequest) -> ReviewReply | None:
        if player.id in self.waiting:
            raise ProtocolError("reviewing", Msg("your last review is being worked out"))
        record = self.records.find(player, req["id"])
        key = player_key(player.name)
        seat = next((i for i, s in enumerate(record.seats) if s.get("kind") == "human"
                     and player_key(str(s.get("name", ""))) == key), None)
        if seat is None or not record.over:
            raise ProtocolError("no_record", Msg("a review is of a finished round you played"))
        replay = Replay(record, self.records.catalog, check=False)
        review = _Review(player, req["rid"], record, seat)
        for step, s in enumerate(record.steps):
            if s.seat != seat or s.move is None:
                continue
            table = replay.table_at(step)
            moves = table.legal_moves(seat)
            if len(moves) < 2:
                continue
            played = next((i for i, m in enumerate(moves) if m.same(s.move)), None)
            if played is not None:
                review.decisions.append(_Decision(step, table.clone(), played))
        thinkers = self.timers.thinkers
        if thinkers is None:                 # no workers: on the loop, as hints
            for d in review.decisions:
                got = judge(d.table, seat, d.played, self.budget,
                            seed_of(record.id, d.step, seat))
                d.thought = Thought(got.best, None if got.reason is None
                                    else got.reason.to_wire(), got.loss)
            reply = self.answer(review)
            if reply is None:
                raise ProtocolError("internal", FAILED)
            return reply
        self.waiting[player.id] = review
        self._ask(review)
        return None

    def _ask(self, review: _Review) -> None:
        thinkers = self.timers.thinkers
        assert thinkers is not None
        for d in review.decisions:
            if d.thought is None:
                d.thought = thinkers.ask_review(
                    ReviewFor(review.player.id, review.record.id, d.step), d.table,
                    review.seat, seed_of(review.record.id, d.step, review.seat), self.budget,
                    d.played)
        if all(d.thought is not None for d in review.decisions):
            del self.waiting[review.player.id]
            reply = self.answer(review)
            if reply is None:
                self.outbox.send(review.player, error("internal", FAILED, review.rid,
                                                      "review"))
                return
            reply["rid"] = review.rid
            self.outbox.send(review.player, reply)

    def tick(self) -> None:
        """Answer the reviews whose last decisions came back from the workers."""
        answered = self.timers.answered
        self.timers.answered = [o for o in answered if not isinstance(o, ReviewFor)]
        for pid in {o.player for o in answered if isinstance(o, ReviewFor)}:
            review = self.waiting.get(pid)
            if review is not None:
                self._ask(review)

    def forget(self, player: Player) -> None:
        """``player`` is gone: his review is not wanted any more."""
        review = self.waiting.pop(player.id, None)
        if review is not None and self.timers.thinkers is not None:
            for d in review.decisions:
                self.timers.thinkers.forget(ReviewFor(player.id, review.record.id, d.step))

    def answer(self, review: _Review) -> ReviewReply | None:
        """The ``review`` message: how many decisions were judged, and the marked ones;
        None when none of them could be (``FAILED``)."""
        marks: list[ReviewMark] = []
        failed = 0
        names = review.record.names
        for d in review.decisions:
            t = d.thought
            if t is None or t.index == FALLBACK:
                failed += 1
                continue
            moves = d.table.legal_moves(review.seat)
            loss = t.loss or 0.0
            if t.index == d.played or loss <= MARGIN or not 0 <= t.index < len(moves):
                continue
            told = from_wire(t.reason)
            marks.append({"step": d.step, "loss": round(loss, 3),
                          "played": _label(moves[d.played], names),
                          "better": _label(moves[t.index], names),
                          "reason": None if told is None else str(told),
                          "reason_msg": None if told is None else t.reason})
        if failed == len(review.decisions) and failed:
            return None
        return {"type": "review", "v": PROTOCOL, "record": review.record.id,
                "seat": review.seat, "decisions": len(review.decisions) - failed,
                "margin": MARGIN, "marks": marks}


def _label(move: Move, names: list[str]) -> str:
    return str(named_label(move.label, names) or " ".join([move.kind, *move.cards]))
