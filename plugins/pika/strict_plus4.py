"""House rule for Pika: a +4 may not be chained on a pending +2.

Reverses the Decision of PI-9 ("on a pending +2 ... so does any +4"). It wraps the base game's
legality hooks and changes nothing else, which is how every variant should work.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from cardparty.core.contract import Move, VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.table import BARRED

VARIANT_ID = "pika-strict-plus4"
REASON = Msg("house rule: a +4 may not be chained on a pending +2")


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "pika", Msg("No +4 on a +2"),
                       Msg("a pending +2 can be answered only with another +2 (or taken)"))


def _barred(state: Any, move: Move) -> bool:
    return bool(state.pending) and state.pending_kind == "+2" and move.kind == "play" \
        and move.cards == ("W+4",)


@hookimpl(wrapper=True)
def cardparty_legal_moves(state: Any, seat: int) -> Generator[None, list[Move], list[Move]]:
    moves = yield
    if state.pending and state.pending_kind == "+2":
        return [m for m in moves if not _barred(state, m)]
    return moves


@hookimpl(wrapper=True)
def cardparty_refusal(state: Any, seat: int, move: Move
                      ) -> Generator[None, str | None, str | None]:
    """Pika refuses the barred +4 already (the table's list, which it reads, lacks it) as
    ``BARRED``, in general words; the house rule says which. (A base game judging by its
    rules would accept it: None, which is replaced the same way.)"""
    reason = yield
    if reason in (None, BARRED) and _barred(state, move):
        return REASON
    return reason
