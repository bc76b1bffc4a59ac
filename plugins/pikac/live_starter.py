"""House rule for Pikáč: the starter card's effect applies.

Reverses the Decision of PK-6 ("the starter card's own effect never applies"). The starter acts
as if the dealer had thrown it: a function card starts the chain (a 7 makes the first player
face a count of 2, a Joker 5, K♠ 10; 2♣ turns the direction, so the dealer's right-hand
neighbour starts; K♦ bars K♥ and J♠ for that chain) and counts as a function card for matching;
an Ace stops the first player for one turn (and, being thrown, takes any function card, PK-10).
Two cards need a thrower's choice the dealer never
made: a starter K♣ passes the turn on like 2♦ and is not remembered for a J♣, and a J♣ (no K♣
before it) acts as 2♦, as in the base game. A Queen starter is unchanged (the stock's bottom
card names the suit), and so are normal cards.

It wraps only ``cardparty_apply_move`` for the deal, and reuses the base game's own effect
functions, so every other rule stays the base game's.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from cardparty.core.contract import Move, VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.plugins.pikac import rules
from cardparty.plugins.pikac.deck import ACE, CLASS, FUNCTION

VARIANT_ID = "pikac-live-starter"


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "pikac", Msg("Live starter card"),
                       Msg("the starter card acts as if the dealer threw it (reverses PK-6's "
                           "Decision)"))


@hookimpl(wrapper=True)
def cardparty_apply_move(state: Any, seat: int, move: Move, rng: random.Random
                         ) -> Generator[None, list[dict[str, Any]], list[dict[str, Any]]]:
    events = yield
    if move.kind != "deal":
        return events
    starter = state.pile[-1]
    cls = CLASS[starter]
    dealer = state.dealer
    if cls == FUNCTION:
        state.starter_top = False
        rules.function_effect(state, dealer, (starter,), None, events)
        state.kc_seat = None
        rules.advance(state, dealer, events)
    elif cls == ACE:
        state.starter_top = False              # a thrown Ace: function cards go on it (PK-10)
        rules.stop_players(state, dealer, 1, "hold", events)
    return events
