"""High card: each player in turn lays one of his three cards face up; when all have laid one,
the highest card takes the trick. Three tricks; most tricks wins, ties share a place.

A third-party game written only against ``cardparty.core`` (the hookspecs, contract values and
helpers), installed through the ``cardparty.games`` entry point like any package. The rules
are the hooks up to ``cardparty_determinize``; the bots' policy and the search's estimate
follow (optional: without them the bots play at random).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core.cards import ordered_deck, piquet_deck
from cardparty.core.contract import NOBODY, PUBLIC, GameInfo, Move, Result, Zone
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.kit import competition_places, game_state, redeal
from cardparty.core.playout import pairwise_shares

ORDER = "789TJQKA"
DECK = tuple(piquet_deck())
HAND = 3


@game_state
class HighcardState:
    """The whole game, as declared fields: the kit copies, saves and restores it."""

    hands: list[list[str]]
    stock: list[str]
    trick: list[tuple[int, str]]  # (seat, card) in the order laid
    won: list[str]
    tricks: list[int]
    turn: int
    lowball: bool                 # set by the highcard-lowball variant


def strength(card: str) -> int:
    return ORDER.index(card[0]) * 4 + "CDHS".index(card[1])


def _wins(state: HighcardState) -> Callable[..., tuple[int, str]]:
    """How the trick's winner is picked: the highest card, or the lowest under Lowball."""
    return min if state.lowball else max


@hookimpl
def cardparty_game_info() -> GameInfo:
    return GameInfo("highcard", "High card", 2, 4,
                    summary=Msg("Highest card takes the trick."),
                    max_moves=40, deck=DECK, state=HighcardState)


@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> HighcardState:
    deck = ordered_deck(DECK, settings["deck"], rng)
    return HighcardState.from_data({
        "hands": [deck[i * HAND:(i + 1) * HAND] for i in range(players)],
        "stock": deck[players * HAND:], "trick": [], "won": [], "tricks": [0] * players,
        "turn": 0, "lowball": False})


@hookimpl
def cardparty_to_move(state: HighcardState) -> tuple[int, ...]:
    return () if _over(state) else (state.turn,)


@hookimpl
def cardparty_legal_moves(state: HighcardState, seat: int) -> list[Move]:
    if _over(state) or seat != state.turn:
        return []
    # Labels and refusals are messages: an English id with parameters (docs/writing-a-game.md).
    return [Move("play", (c,), None, Msg("lay {card}", card=c)) for c in state.hands[seat]]


@hookimpl
def cardparty_refusal(state: HighcardState, seat: int, move: Move, listed: list[Move]
                      ) -> str | None:
    # ``listed`` is the table's list (a variant's moves included): the list is complete
    if any(m.same(move) for m in listed):
        return None
    return Msg("lay one card of your own hand")


@hookimpl
def cardparty_apply_move(state: HighcardState, seat: int, move: Move, rng: random.Random
                         ) -> list[dict]:
    card = move.cards[0]
    state.hands[seat].remove(card)
    state.trick.append((seat, card))
    events: list[dict] = [{"type": "play", "seat": seat, "cards": [card]}]
    n = len(state.hands)
    if len(state.trick) < n:
        state.turn = (seat + 1) % n
        return events
    winner = _wins(state)(state.trick, key=lambda sc: strength(sc[1]))[0]
    state.tricks[winner] += 1
    state.won += [c for _, c in state.trick]
    state.trick = []
    state.turn = winner
    events.append({"type": "trick", "seat": winner})
    return events


def _over(state: HighcardState) -> bool:
    return not state.trick and not any(state.hands)


@hookimpl
def cardparty_view(state: HighcardState, seat: int | None) -> dict[str, Any]:
    over = _over(state)
    return {"phase": "over" if over else "play", "turn": None if over else state.turn,
            "direction": 1,
            "players": [{"count": len(h), "status": "", "place": None, "zones": {}}
                        for h in state.hands],
            "hand": list(state.hands[seat]) if seat is not None else [],
            "zones": {"trick": [c for _, c in state.trick]},
            "counters": {"tricks": list(state.tricks), "lowest wins": state.lowball}}


@hookimpl
def cardparty_zones(state: HighcardState) -> list[Zone]:
    zones = [Zone(f"hand {i}", h, i) for i, h in enumerate(state.hands)]
    return zones + [Zone("trick", [c for _, c in state.trick], PUBLIC),
                    Zone("won", state.won, PUBLIC), Zone("stock", state.stock, NOBODY)]


@hookimpl
def cardparty_result(state: HighcardState) -> Result | None:
    if not _over(state):
        return None
    t = state.tricks
    return Result(tuple(competition_places([-k for k in t])), tuple(t))


@hookimpl
def cardparty_determinize(state: HighcardState, seat: int, rng: random.Random) -> HighcardState:
    twin = state.copy()
    redeal(rng, [h for i, h in enumerate(twin.hands) if i != seat] + [twin.stock])
    return twin


# --- bots (optional) -----------------------------------------------------------------------

@hookimpl
def cardparty_bot_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                       rng: random.Random, level: str) -> Move | None:
    """Normal: take the trick with the cheapest card that can, else give the cheapest card
    away; lead the strongest. Easy leaves every choice to chance (None)."""
    if level != "normal" or not moves:
        return None
    seen = view()
    sign = -1 if seen["counters"]["lowest wins"] else 1
    ordered = sorted(moves, key=lambda m: sign * strength(m.cards[0]))   # weakest first
    trick = seen["zones"]["trick"]
    if not trick:
        return ordered[-1]
    best = max(sign * strength(c) for c in trick)
    takes = [m for m in ordered if sign * strength(m.cards[0]) > best]
    return takes[0] if takes else ordered[0]


@hookimpl
def cardparty_bot_estimate(view: dict[str, Any]) -> list[float] | None:
    """For the search (the hard bots), where it cuts a playout short: each seat's share of
    the game from the tricks taken, against the tricks still to play (a lead of one trick
    with one to play is nearly sure, with three it is an edge)."""
    tricks = view["counters"]["tricks"]
    left = max(p["count"] for p in view["players"])
    return pairwise_shares([float(t) for t in tricks], 0.3 + left)
