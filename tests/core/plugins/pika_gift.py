"""Gifts, a house rule for Pika written as an outside author would: on his turn, with no draw
pending, a player holding three cards or more may give one of them, face down, to the next
player instead of playing; the turn passes to that player.

A variant that adds a move: it lists the move (a wrapper of ``cardparty_legal_moves``),
plays it (``cardparty_apply_move`` answered first, None for every other move, so the base
game plays those) and judges its own moves (a wrapper of ``cardparty_refusal``, from
``listed``, the table's list). It does not rebuild Pika's list (and Pika's own refusal
accepts every move the table lists). The label names the player through ``{seats}``.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from cardparty.core.contract import Event, Move, VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.turns import next_seat

VARIANT_ID = "pika-gift"


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "pika", "Gifts",
                       "instead of playing, give a card to the next player")


def receiver(state: Any, seat: int) -> int | None:
    """Whom ``seat`` may give a card to now, or None. Reads Pika's state (its fields are in
    ``GameInfo.state``, ``PikaState``)."""
    if state.places is not None or seat != state.turn or state.pending \
            or state.drawn is not None or len(state.hands[seat]) < 3:
        return None
    to = next_seat(seat, state.direction, [True] * state.n)
    if to in state.warned or to in state.out_pending or not state.hands[to]:
        return None
    return to


@hookimpl(wrapper=True)
def cardparty_legal_moves(state: Any, seat: int) -> Generator[None, list[Move], list[Move]]:
    moves = yield
    to = receiver(state, seat)
    if to is None:
        return moves
    return moves + [Move("give", (c,), str(to), Msg("give {card} to {seats}", card=c,
                                                    seats=str(to)))
                    for c in dict.fromkeys(state.hands[seat])]


@hookimpl(wrapper=True)
def cardparty_refusal(state: Any, seat: int, move: Move, listed: list[Move]
                      ) -> Generator[None, str | None, str | None]:
    """The gifts are judged here, from the table's list: whatever the base game's refusal
    makes of a kind of move it does not know."""
    reason = yield
    if move.kind != "give":
        return reason
    if any(m.same(move) for m in listed):
        return None
    return Msg("you may give a card of your hand to the next player on your turn, "
               "holding three or more, with no draw pending")


@hookimpl(tryfirst=True)
def cardparty_apply_move(state: Any, seat: int, move: Move, rng: random.Random
                         ) -> list[Event] | None:
    if move.kind != "give":
        return None                                  # the base game plays every other move
    card, to = move.cards[0], int(move.choice or "0")
    state.hands[seat].remove(card)
    state.hands[to].append(card)
    state.idle = 0
    state.turn = to
    return [{"type": "give", "seat": seat, "cards": [card], "private": True},
            {"type": "gift", "seat": to, "cards": [card], "private": True}]
