"""A broken house rule for Pika, installed only in the conformance suite's host process (on
its PYTHONPATH, with the entry point in ``cardparty_wire_boom-1.0.dist-info``), as a third
party could install one: every move at a table that chooses it raises inside the rules, so a
client can meet ``game_failed`` and a ``broken`` table over the wire. The host's side, not a
client's: the suite's own files import nothing of the project."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from cardparty.core.contract import Move, VariantInfo
from cardparty.core.hookspecs import hookimpl


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo("wire-boom", "pika", "Boom", "every move raises (a broken plugin)")


@hookimpl(wrapper=True)
def cardparty_apply_move(state: Any, seat: int, move: Move, rng: Any
                         ) -> Generator[None, Any, Any]:
    yield
    raise RuntimeError("the wire-boom variant exploded")
