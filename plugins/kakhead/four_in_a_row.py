"""House rule for Kakhead: four of a rank in a row on the pile burn it, across plays.

KH-10 burns the pile when four or more cards of one rank are played in one turn; the common
house rule (named in KH-10 itself) also burns it when the top four cards of the pile share a
rank, whoever played them and over how many plays: 9 by one player, 9 9 by the next, 9 by the
third burns, and the player who laid the fourth plays again, as after any burn.

The rule lives here: the base game's ``cardparty_apply_move`` takes the rule that says when a
play burns the pile as a parameter (KH-9, KH-10 by default), and this plugin plays every move
through it with its own. The table's variants travel in its save, so a restored table keeps
the rule; the game's state knows nothing of it.

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from typing import Any

from cardparty.core.contract import Move, VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.plugins.kakhead import rules
from cardparty.plugins.kakhead.state import KakheadState

VARIANT_ID = "kakhead-four-in-a-row"


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "kakhead", Msg("Four in a row burns"),
                       Msg("four cards of one rank on top of the pile burn it, even when "
                           "different players laid them"))


def burns_across_plays(pile: list[str], cards: list[str]) -> bool:
    """KH-10's own burns, or the top four cards of the pile of the rank just played."""
    if rules.burns_in_one_play(pile, cards):
        return True
    r = cards[0][0]
    return len(pile) >= 4 and all(c[0] == r for c in pile[-4:])


@hookimpl(tryfirst=True)
def cardparty_apply_move(state: KakheadState, seat: int, move: Move, rng: random.Random
                         ) -> list[dict[str, Any]]:
    """Every move as the base game plays it, with this burn rule (first, so it answers)."""
    return rules.cardparty_apply_move(state, seat, move, rng, burns=burns_across_plays)
