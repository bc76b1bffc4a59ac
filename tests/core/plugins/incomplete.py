"""Tiny without ``cardparty_zones``, a hook every game must have."""

from __future__ import annotations

from tests.core.plugins.tiny import (  # noqa: F401 (the hooks this plugin keeps)
    cardparty_apply_move,
    cardparty_determinize,
    cardparty_game_info,
    cardparty_legal_moves,
    cardparty_refusal,
    cardparty_result,
    cardparty_setup,
    cardparty_to_move,
    cardparty_view,
)
