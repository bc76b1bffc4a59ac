"""Pass and trick: a small trick-taking game with a simultaneous pass, for the tests of what
the contract lets a game say and the checker proves.

Each hand, every seat gets three cards of a 52-card deck; then every seat at once passes one
card to its left (``to_move`` lists every seat that has not passed: the view's ``turn`` is
None); the card a seat passed is known to it and to its left neighbour, who holds it: a zone
seen by those two seats (``contract.shared``), and the passer's view shows it. Then three
tricks, following suit if able, the highest card of the suit led winning. The trick is shown
twice in every view: as the table's zone and in each player's row. The move that ends a hand
but the last deals the next one at once, announced by a public ``deal`` event. Most tricks
over ``hands`` hands wins.
"""

from __future__ import annotations

import random
from typing import Any

from cardparty.core.cards import RANKS, french_deck, ordered_deck, rank, suit
from cardparty.core.contract import (
    DEAL,
    NOBODY,
    PUBLIC,
    Event,
    GameInfo,
    Move,
    Result,
    Setting,
    Zone,
    shared,
)
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.core.kit import GameState, competition_places, game_state, redeal
from cardparty.core.table import refusal_by_listing

DECK = tuple(french_deck())
HAND = 3


@game_state
class PassingState(GameState):
    n: int
    hands: list[list[str]]
    stock: list[str]
    passing: list[str | None]      # the card each seat chose to pass, before they go round
    passed: list[bool]
    got: list[str | None]          # the card each seat was passed, while it holds it
    trick: list[tuple[int, str]]
    won: list[str]
    tricks: list[int]
    phase: str                     # "pass", "play", "over"
    turn: int
    hand_no: int
    hands_to_play: int


def left(state: PassingState, seat: int) -> int:
    return (seat + 1) % state.n


def right(state: PassingState, seat: int) -> int:
    return (seat - 1) % state.n


@hookimpl
def cardparty_game_info() -> GameInfo:
    return GameInfo("passing", "Pass and trick", 3, 4, max_moves=200, deck=DECK,
                    settings={"hands": Setting(2, "int", 1, 5, help="hands to play")},
                    state=PassingState)


def _deal(state: PassingState, deck: list[str]) -> None:
    n = state.n
    state.hands = [deck[s * HAND:(s + 1) * HAND] for s in range(n)]
    state.stock = deck[n * HAND:]
    state.passing = [None] * n
    state.passed = [False] * n
    state.got = [None] * n
    state.trick = []
    state.won = []
    state.phase = "pass"


@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> PassingState:
    state = PassingState.from_data({
        "n": players, "hands": [], "stock": [], "passing": [], "passed": [], "got": [],
        "trick": [], "won": [], "tricks": [0] * players, "phase": "pass", "turn": 0,
        "hand_no": 0, "hands_to_play": settings["hands"]})
    _deal(state, ordered_deck(DECK, settings["deck"], rng))
    return state


@hookimpl
def cardparty_to_move(state: PassingState) -> tuple[int, ...]:
    if state.phase == "pass":
        return tuple(s for s in range(state.n) if not state.passed[s])
    return () if state.phase == "over" else (state.turn,)


@hookimpl
def cardparty_legal_moves(state: PassingState, seat: int) -> list[Move]:
    if seat not in cardparty_to_move(state):
        return []
    hand = state.hands[seat]
    if state.phase == "pass":
        # ``seats``: the table's views name the player (``narrate.named_label``)
        return [Move("pass", (c,), None, Msg("pass {card} to {seats}", card=c,
                                             seats=str(left(state, seat)))) for c in hand]
    if state.trick:
        led = suit(state.trick[0][1])
        hand = [c for c in hand if suit(c) == led] or hand
    return [Move("play", (c,), None, Msg("lay {card}", card=c)) for c in hand]


@hookimpl
def cardparty_refusal(state: PassingState, seat: int, move: Move, listed: list[Move]
                      ) -> str | None:
    return refusal_by_listing(listed, move)


@hookimpl
def cardparty_apply_move(state: PassingState, seat: int, move: Move, rng: random.Random
                         ) -> list[Event]:
    card = move.cards[0]
    state.hands[seat].remove(card)
    if state.phase == "pass":
        state.passing[seat] = card
        state.passed[seat] = True
        events: list[Event] = [{"type": "pass", "seat": seat, "cards": [card],
                                "private": True}]
        if all(state.passed):
            for s in range(state.n):
                to, given = left(state, s), state.passing[s]
                assert given is not None
                state.hands[to].append(given)
                state.got[to] = given
                events.append({"type": "receive", "seat": to, "cards": [given],
                               "private": True})
            state.passing = [None] * state.n
            state.phase = "play"
            state.turn = state.hand_no % state.n
        return events
    if state.got[seat] == card:
        state.got[seat] = None
    state.trick.append((seat, card))
    events = [{"type": "play", "seat": seat, "cards": [card]}]
    if len(state.trick) < state.n:
        state.turn = left(state, seat)
        return events
    led = suit(state.trick[0][1])
    winner = max((sc for sc in state.trick if suit(sc[1]) == led),
                 key=lambda sc: RANKS.index(rank(sc[1])))[0]
    state.tricks[winner] += 1
    events.append({"type": "trick", "seat": winner, "cards": [c for _, c in state.trick]})
    state.won += [c for _, c in state.trick]
    state.trick = []
    state.turn = winner
    if any(state.hands):
        return events
    state.hand_no += 1
    if state.hand_no >= state.hands_to_play:
        state.phase = "over"
        events.append({"type": "over", "seat": None,
                       "places": competition_places([-t for t in state.tricks])})
        return events
    deck = sorted(state.won + state.stock)
    rng.shuffle(deck)
    _deal(state, deck)
    events.append({"type": DEAL, "seat": None, "count": HAND})
    return events


def _status(state: PassingState, seat: int) -> str:
    if state.phase == "pass":
        return "passed" if state.passed[seat] else "to pass"
    return "to play" if state.phase == "play" and seat == state.turn else ""


@hookimpl
def cardparty_view(state: PassingState, seat: int | None) -> dict[str, Any]:
    laid = dict(state.trick)
    zones: dict[str, Any] = {"trick": [c for _, c in state.trick], "stock": len(state.stock),
                             "won": list(state.won)}
    if seat is not None:
        mine = state.passing[seat]
        if mine is not None:
            zones["passing"] = [mine]
        given = state.got[left(state, seat)]
        if given is not None:
            zones["passed"] = [given]        # known to this seat and its left neighbour
    return {"phase": state.phase,
            "turn": state.turn if state.phase == "play" else None,
            "direction": 1,
            "players": [{"count": len(state.hands[s]), "status": _status(state, s),
                         "place": None, "zones": {"played": [laid[s]] if s in laid else []}}
                        for s in range(state.n)],
            "hand": list(state.hands[seat]) if seat is not None else [],
            "zones": zones,
            "counters": {"tricks": list(state.tricks), "hand": state.hand_no + 1}}


@hookimpl
def cardparty_zones(state: PassingState) -> list[Zone]:
    zones = []
    for s in range(state.n):
        got = state.got[s]
        own = list(state.hands[s])
        if got is not None:
            own.remove(got)
            zones.append(Zone(f"passed to {s}", [got], shared(s, right(state, s))))
        zones.append(Zone(f"hand {s}", own, s))
        if state.passing[s] is not None:
            zones.append(Zone(f"passing {s}", [state.passing[s]], s))
    return zones + [Zone("trick", [c for _, c in state.trick], PUBLIC),
                    Zone("won", state.won, PUBLIC), Zone("stock", state.stock, NOBODY)]


@hookimpl
def cardparty_result(state: PassingState) -> Result | None:
    if state.phase != "over":
        return None
    return Result(tuple(competition_places([-t for t in state.tricks])), tuple(state.tricks))


@hookimpl
def cardparty_determinize(state: PassingState, seat: int, rng: random.Random
                          ) -> PassingState:
    """Redeal what ``seat`` cannot see: the other hands but the card it passed (its left
    neighbour holds it, where it is), the cards the others are passing, the stock. What the
    others were passed is not known to ``seat``: the sample forgets it."""
    twin = state.copy()
    zones: list[list[str]] = []
    fixed: list[set[int]] = []
    boxes: dict[int, list[str]] = {}
    for s in range(state.n):
        if s == seat:
            continue
        hand = twin.hands[s]
        known = twin.got[s] if s == left(state, seat) else None
        zones.append(hand)
        fixed.append({hand.index(known)} if known is not None else set())
        passing = twin.passing[s]
        if passing is not None:
            boxes[s] = [passing]
            zones.append(boxes[s])
            fixed.append(set())
        if known is None:
            twin.got[s] = None
    zones.append(twin.stock)
    fixed.append(set())
    redeal(rng, zones, fixed)
    for s, box in boxes.items():
        twin.passing[s] = box[0]
    return twin
