"""Tiny with one hook misspelt: ``cardparty_legal_move`` for ``cardparty_legal_moves``."""

from __future__ import annotations

from cardparty.core.contract import Move
from cardparty.core.hookspecs import hookimpl
from tests.core.plugins.tiny import (  # noqa: F401 (the hooks this plugin keeps)  # noqa: F401
    TinyState,
    cardparty_apply_move,
    cardparty_determinize,
    cardparty_game_info,
    cardparty_refusal,
    cardparty_result,
    cardparty_setup,
    cardparty_to_move,
    cardparty_view,
    cardparty_zones,
)


@hookimpl
def cardparty_legal_move(state: TinyState, seat: int) -> list[Move]:
    return []
