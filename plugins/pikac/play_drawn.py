"""House rule for Pikáč: a drawn card that fits may be thrown at once.

Reverses the Decision of PK-9 ("the drawn card cannot be played in the same turn"). After a
draw at count 0, if the drawn card may open a throw under PK-10, the drawer keeps the turn and
either throws that card alone (with its choice: a Queen's suit, an Ace's mode, a K♣'s player)
or keeps it, which ends the turn.

The base game carries the mechanics (``PikacState.drawn``, the ``keep`` move, the refusal
"after drawing you may play only the card you drew") behind the state flag ``play_drawn``, so
that a saved table restores with the rule in force; this plugin only switches it on at setup.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from cardparty.core.contract import VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg

VARIANT_ID = "pikac-play-drawn"


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "pikac", Msg("Play the drawn card"),
                       Msg("a drawn card that fits may be thrown at once (reverses PK-9's "
                           "Decision)"))


@hookimpl(wrapper=True)
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> Generator[None, Any, Any]:
    state = yield
    state.play_drawn = True
    return state
