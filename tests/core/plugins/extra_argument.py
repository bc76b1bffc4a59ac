"""A variant whose wrapper asks for an argument the contract never gives."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from cardparty.core.contract import VariantInfo
from cardparty.core.hookspecs import hookimpl


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo("tiny-clock", "tiny", "Clock", "reads a clock the contract has not")


@hookimpl(wrapper=True)
def cardparty_view(state: Any, seat: int | None, clock: float) -> Generator[None, Any, Any]:
    view = yield
    return view
