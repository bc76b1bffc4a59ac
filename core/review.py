"""The review of one decision: what the hard search makes of a move a player made, judged from
his own seat's view at that moment (never from every hand: the search samples what that seat
could not see, as a hint does), with the estimated loss and a one-line reason.

``judge(table, seat, played)`` runs the hint's search (``core.search.race_verdict``: every
legal move scored on the same deals that fit what the seat had seen, against the game's own
policy's move) and answers the search's move, the estimated loss of the played move against
it (a share of a round's outcome: 0.12 is "12 in 100"), and the reason. ``judge_index`` is
the same from a table's save, to run in a host's worker process. A decision is marked when
the loss is more than ``MARGIN`` (docs/playing.md, "The review").

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.i18n import Msg, plural_msg
from cardparty.core.narrate import named_label
from cardparty.core.search import DEFAULT_BUDGET, Budget, race_verdict, search
from cardparty.core.table import Table

#: The estimated loss (a share of a round's outcome) above which a decision is marked: below
#: it, the search's few dozen deals cannot tell the moves apart.
MARGIN = 0.08


@dataclass(frozen=True)
class Judgement:
    """The search's move (its index in the seat's legal moves), the played move's, the
    estimated loss of the played move (0 when the search chose it too) and the reason."""

    best: int
    played: int
    loss: float
    reason: Msg | None

    @property
    def marked(self) -> bool:
        return self.best != self.played and self.loss > MARGIN


def _label(move: Move, names: list[str]) -> str:
    return str(named_label(move.label, names) or " ".join([move.kind, *move.cards]))


def judge(table: Table, seat: int, played: int, budget: Budget = DEFAULT_BUDGET,
          seed: int = 0) -> Judgement:
    """The judgement of ``seat`` playing ``table.legal_moves(seat)[played]`` at ``table``
    (left unchanged). ValueError when the seat has no legal move."""
    moves = table.legal_moves(seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    if len(moves) == 1:
        return Judgement(0, 0, 0.0, None)
    rng = random.Random(seed)
    verdict = race_verdict(table, seat, rng, budget)
    if verdict is not None:
        best = next(i for i, m in enumerate(moves) if m is verdict.move)
        loss = verdict.gains[best] - verdict.gains[played]
        deals = verdict.samples[played]
    else:                                   # a game without a policy: the plain search
        stats: dict[Move, tuple[int, float]] = {}
        chosen = search(table, seat, rng, budget, stats)
        best = next(i for i, m in enumerate(moves) if m is chosen)
        loss = stats.get(chosen, (0, 0.0))[1] - stats.get(moves[played], (0, 0.0))[1]
        deals = stats.get(moves[played], (0, 0.0))[0]
    if best == played or loss <= 0:
        return Judgement(best, played, max(0.0, loss) if best != played else 0.0, None)
    return Judgement(best, played, loss, _reason(table, seat, moves, best, loss, deals))


def _reason(table: Table, seat: int, moves: list[Move], best: int, loss: float,
            deals: int) -> Msg:
    """One line: the better move, by how much, over how many deals, and the game's own
    reason for the better move where it gives one."""
    hook: Any = table.hook
    why = hook.cardparty_bot_reason(view=table.view(seat), moves=moves, move=moves[best])
    lost = max(1, round(100 * loss))
    better = _label(moves[best], table.names)
    if why:
        return plural_msg("{better} was better ({why}): about {lost} in 100 more over {n} "
                          "deal that fits what you had seen",
                          "{better} was better ({why}): about {lost} in 100 more over {n} "
                          "deals that fit what you had seen", max(1, deals),
                          better=better, why=str(why), lost=lost)
    return plural_msg("{better} was better: about {lost} in 100 more over {n} deal that fits "
                      "what you had seen",
                      "{better} was better: about {lost} in 100 more over {n} deals that fit "
                      "what you had seen", max(1, deals), better=better, lost=lost)


def judge_index(snapshot: bytes, seat: int, played: int, seed: int,
                budget: Budget = DEFAULT_BUDGET) -> tuple[int, float, dict[str, Any] | None]:
    """``judge`` for the table saved in ``snapshot``: the search's move's index, the loss and
    the reason's wire map. A pure function of its arguments (up to a time limit), to run in
    a worker process."""
    got = judge(Table.restore(snapshot), seat, played, budget, seed)
    return got.best, got.loss, None if got.reason is None else got.reason.to_wire()
