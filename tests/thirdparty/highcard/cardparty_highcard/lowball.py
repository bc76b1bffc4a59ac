"""Lowball: the lowest card takes the trick. A variant of High card from another package."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from cardparty.core.contract import VariantInfo
from cardparty.core.hookspecs import hookimpl


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo("highcard-lowball", "highcard", "Lowball", "the lowest card wins")


@hookimpl(wrapper=True)
def cardparty_setup(settings: dict, players: int, rng: Any) -> Generator[None, Any, Any]:
    state = yield
    state.lowball = True
    return state
