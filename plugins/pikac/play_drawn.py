"""House rule for Pikáč: a drawn card that fits may be thrown at once.

Reverses the Decision of PK-9 ("the drawn card cannot be played in the same turn"). After a
draw at count 0, if the drawn card may open a throw under PK-10, the drawer keeps the turn and
either throws that card alone (with its choice: a Queen's suit, an Ace's mode, a K♣'s player)
or keeps it, which ends the turn.

The rule lives here, in hooks that wrap the base game's: moves go through the base game's
``cardparty_apply_move`` with this plugin's ``after_draw`` (the base ends the turn after every
draw), the ``keep`` move is played here, and the legal moves, refusals, view and narration are
the base game's with the drawn card added. The card waiting to be played is kept in the state's
``drawn`` field (saved with the table), which only this plugin sets.

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator
from typing import Any

from cardparty.core.cards import pretty
from cardparty.core.contract import Event, Move, VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.narrate import seat_name
from cardparty.plugins.pikac import legality, rules
from cardparty.plugins.pikac.deck import CLASS
from cardparty.plugins.pikac.state import PikacState

VARIANT_ID = "pikac-play-drawn"

#: What the base game answers for a ``keep``, a move it does not play.
NO_KEEP = "Pikáč has no move 'keep'"


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "pikac", Msg("Play the drawn card"),
                       Msg("a drawn card that fits may be thrown at once (reverses PK-9's "
                           "Decision)"))


def waits(state: PikacState, seat: int) -> str | None:
    """The drawn card ``seat`` may still throw this turn, or None."""
    if state.drawn is None or seat != state.turn or state.phase != "play":
        return None
    return state.drawn


def keep_if_playable(state: PikacState, seat: int, card: str) -> bool:
    """``after_draw``: a card that may open a throw (PK-10; a K♣ needs a player to send the
    turn to) waits to be played and the turn goes on; any other ends the turn."""
    if legality.first_card_refusal(state, seat, card) is None and (
            card != "KC" or legality.kc_targets(state, seat)):
        state.drawn = card
        return False
    return True


@hookimpl(tryfirst=True)
def cardparty_apply_move(state: PikacState, seat: int, move: Move, rng: random.Random
                         ) -> list[dict[str, Any]]:
    """Every move as the base game plays it with this ``after_draw``; ``keep`` ends the turn
    with the drawn card kept. First, so that it answers."""
    if move.kind == "keep":
        events: list[dict[str, Any]] = [{"type": "keep", "seat": seat}]
        state.drawn = None
        rules.advance(state, seat, events)
        return rules.finish_move(state, events)
    state.drawn = None                     # the only other move then: throwing the drawn card
    return rules.cardparty_apply_move(state, seat, move, rng, after_draw=keep_if_playable)


@hookimpl(wrapper=True)
def cardparty_legal_moves(state: PikacState, seat: int) -> Generator[None, list[Move], list[Move]]:
    """With a drawn card waiting: throw it alone (each choice it takes), or keep it."""
    moves = yield
    card = waits(state, seat)
    if card is None:
        return moves
    targets = tuple(legality.kc_targets(state, seat)) if card == "KC" else ()
    keep = Move("keep", (), None, Msg("keep {card}", card=pretty(card)))
    return [*legality._throw_moves((card,), targets), keep]


@hookimpl(wrapper=True)
def cardparty_refusal(state: PikacState, seat: int, move: Move
                      ) -> Generator[None, str | None, str | None]:
    reason = yield
    kind = move.kind
    card = waits(state, seat)
    if kind == "keep" and reason == NO_KEEP:
        return None if card is not None else Msg("you have not drawn a playable card")
    if card is None:
        return reason
    if kind == "draw":
        return reason or Msg("you have drawn already: play the drawn card or keep it")
    if kind == "play" and move.cards != (card,):
        cards = move.cards
        held = cards and all(c in CLASS for c in cards) and not (
            Counter(cards) - Counter(state.hands[seat]))
        # the base game's reasons about the cards themselves come first, as for any throw
        return Msg("after drawing you may play only the card you drew ({card})",
                   card=pretty(card)) if held else reason
    return reason


@hookimpl(wrapper=True)
def cardparty_view(state: PikacState, seat: int | None
                   ) -> Generator[None, dict[str, Any], dict[str, Any]]:
    """The view tells the seat to play which card it drew (a hint for the client). Typed as
    the base game's view is: a map with keys of the game's own beside ``contract.View``'s."""
    view = yield
    view["drawn"] = state.drawn if seat == state.turn else None
    return view


@hookimpl(wrapper=True)
def cardparty_describe(event: Event, names: list[str]) -> Generator[None, str | None, str | None]:
    text = yield
    if text is None and event.get("type") == "keep":
        return Msg("{who} keeps the drawn card", who=seat_name(names, event.get("seat")))
    return text

