"""A variant whose misspelt wrapper is not even marked as a hook: pluggy alone would not see it,
and the variant would silently change nothing."""

from __future__ import annotations

from typing import Any

from cardparty.core.contract import VariantInfo
from cardparty.core.hookspecs import hookimpl


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo("tiny-quiet", "tiny", "Quiet", "changes nothing, by mistake")


def cardparty_aply_move(state: Any, seat: int, move: Any, rng: Any) -> None:
    return None
