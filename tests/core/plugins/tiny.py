"""Tiny: each seat holds one card and lays it; the higher card wins. A complete game in a page,
written with the kit, for tests that need a game no installed package provides."""

from __future__ import annotations

import random
from typing import Any

from cardparty.core.cards import ordered_deck
from cardparty.core.contract import NOBODY, PUBLIC, Event, GameInfo, Move, Result, View, Zone
from cardparty.core.hookspecs import hookimpl
from cardparty.core.kit import competition_places, game_state, redeal

DECK = ("7S", "8S", "9S", "TS")
ORDER = "789T"


@game_state
class TinyState:
    hands: list[list[str]]
    stock: list[str]
    laid: list[str]
    turn: int


@hookimpl
def cardparty_game_info() -> GameInfo:
    return GameInfo("tiny", "Tiny", 2, 2, summary="The higher card wins.", max_moves=4,
                    deck=DECK, state=TinyState)


@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random) -> TinyState:
    deck = ordered_deck(DECK, settings["deck"], rng)
    return TinyState.from_data({"hands": [[deck[0]], [deck[1]]], "stock": deck[2:],
                                "laid": [], "turn": 0})


@hookimpl
def cardparty_to_move(state: TinyState) -> tuple[int, ...]:
    return () if len(state.laid) == 2 else (state.turn,)


@hookimpl
def cardparty_legal_moves(state: TinyState, seat: int) -> list[Move]:
    if seat not in cardparty_to_move(state):
        return []
    return [Move("play", (state.hands[seat][0],), None, f"lay {state.hands[seat][0]}")]


@hookimpl
def cardparty_refusal(state: TinyState, seat: int, move: Move) -> str | None:
    return "lay your card"


@hookimpl
def cardparty_apply_move(state: TinyState, seat: int, move: Move, rng: random.Random
                         ) -> list[Event]:
    state.laid.append(state.hands[seat].pop())
    state.turn = 1 - seat
    return [{"type": "play", "seat": seat, "cards": list(move.cards)}]


@hookimpl
def cardparty_view(state: TinyState, seat: int | None) -> View:
    return {"phase": "over" if len(state.laid) == 2 else "play", "turn": state.turn,
            "direction": 1,
            "players": [{"count": len(h), "status": "", "place": None, "zones": {}}
                        for h in state.hands],
            "hand": list(state.hands[seat]) if seat is not None else [],
            "zones": {"laid": list(state.laid)}, "counters": {}}


@hookimpl
def cardparty_zones(state: TinyState) -> list[Zone]:
    return [Zone("hand 0", state.hands[0], 0), Zone("hand 1", state.hands[1], 1),
            Zone("laid", state.laid, PUBLIC), Zone("stock", state.stock, NOBODY)]


@hookimpl
def cardparty_result(state: TinyState) -> Result | None:
    if len(state.laid) < 2:
        return None
    return Result(tuple(competition_places([-ORDER.index(c[0]) for c in state.laid])))


@hookimpl
def cardparty_determinize(state: TinyState, seat: int, rng: random.Random) -> TinyState:
    twin = state.copy()
    redeal(rng, [twin.hands[1 - seat], twin.stock])
    return twin
