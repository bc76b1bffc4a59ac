"""The hint for a practising player: what the hard bot would play from this seat's own view,
and why, in one line.

``hint(table, seat)`` runs the same search as a hard bot of that seat (``core.search``: the
seat's legal moves, its view and determinizations of what it cannot see, never the state) and
answers the move with a reason the player reads (a ``core.i18n`` Msg, translated where it is
shown): when the search found a move better than the game's own policy's, by how much and over
how many deals; when it kept the policy's move, the game's own reason for it
(``cardparty_bot_reason``: "keeps 2♦ to pass a count") or, without one, that no other move
did better. ``hint_index`` is the same from a table's save, as an index into its legal moves
and the reason as a wire map, for a host that thinks off its loop (as ``search.decide``).

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import random
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.i18n import Msg, plural_msg
from cardparty.core.narrate import named_label
from cardparty.core.race import Verdict
from cardparty.core.search import DEFAULT_BUDGET, Budget, race_verdict
from cardparty.core.table import Table


def hint(table: Table, seat: int, budget: Budget = DEFAULT_BUDGET, seed: int = 0
         ) -> tuple[Move, Msg | None]:
    """The hard bot's move for ``seat`` (one of ``table.legal_moves(seat)``, the very object)
    and a one-line reason, or None where there is none to give.

    ``seed`` seeds the search (with an iteration budget the same table, seat and seed give the
    same hint). ValueError when the seat has no legal move. The table is left unchanged.
    """
    moves = table.legal_moves(seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    if len(moves) == 1:
        return moves[0], Msg("the only move")
    verdict = race_verdict(table, seat, random.Random(seed), budget)
    if verdict is None:                       # a game without a policy: the plain search
        return moves[0], None
    return verdict.move, _reason(table, seat, moves, verdict)


def hint_index(snapshot: bytes, seat: int, seed: int, budget: Budget = DEFAULT_BUDGET
               ) -> tuple[int, dict[str, Any] | None]:
    """``hint`` for the table saved in ``snapshot``: the move's index in that table's
    ``legal_moves(seat)`` and the reason's wire map (``Msg.to_wire``), or None. A pure
    function of its arguments (up to a time limit), to run in a worker process."""
    table = Table.restore(snapshot)
    move, reason = hint(table, seat, budget, seed)
    index = next(i for i, m in enumerate(table.legal_moves(seat)) if m is move)
    return index, None if reason is None else reason.to_wire()


def _reason(table: Table, seat: int, moves: list[Move], verdict: Verdict) -> Msg | None:
    chosen = moves.index(verdict.move)
    deals = max(verdict.samples)
    if verdict.move is not verdict.own:
        gain = round(100 * verdict.gains[chosen])
        return plural_msg("better than {other} by {gain} in 100 over {n} deal that fits what "
                          "you have seen", "better than {other} by {gain} in 100 over {n} "
                          "deals that fit what you have seen", verdict.samples[chosen],
                          other=_label(verdict.own, table.names), gain=max(1, gain))
    hook: Any = table.hook
    told: str | None = hook.cardparty_bot_reason(view=table.view(seat), moves=moves,
                                                 move=verdict.move)
    if told:
        return told if isinstance(told, Msg) else Msg("{reason}", reason=told)
    if deals < 2:
        return None
    return plural_msg("no other move did better over {n} deal that fits what you have seen",
                      "no other move did better over {n} deals that fit what you have seen",
                      deals)


def _label(move: Move, names: list[str]) -> str:
    """A move as the player reads it: its label (naming players, ``narrate.named_label``),
    else its kind and cards."""
    return named_label(move.label, names) or " ".join([move.kind, *move.cards])
