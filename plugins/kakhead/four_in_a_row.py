"""House rule for Kakhead: four of a rank in a row on the pile burn it, across plays.

KH-10 burns the pile when four or more cards of one rank are played in one turn; the common
house rule (named in KH-10 itself) also burns it when the top four cards of the pile share a
rank, whoever played them and over how many plays: 9 by one player, 9 9 by the next, 9 by the
third burns, and the player who laid the fourth plays again, as after any burn.

The base game counts the run on top of the pile when ``state.four_across`` is set; this plugin
switches it on at setup, so the flag travels in saves and replays, and changes nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from cardparty.core.contract import VariantInfo
from cardparty.core.hookspecs import hookimpl

VARIANT_ID = "kakhead-four-in-a-row"


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "kakhead", "Four in a row burns",
                       "four cards of one rank on top of the pile burn it, even when "
                       "different players laid them")


@hookimpl(wrapper=True)
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> Generator[None, Any, Any]:
    state = yield
    state.four_across = True
    return state
