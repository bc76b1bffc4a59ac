"""Pika: an Uno-like shedding game with +2/+4 stacking and a timed «Pika!» call.

The rules are docs/rules/pika.md (ids PI-1 ... PI-15); every function here cites the ids it
implements. This module only implements hooks of ``cardparty.core.hookspecs``.

Moves:
  play (card,) choice=None | "R" | "pika" | "R pika" -- a colour for a black card, "pika" when
      the play leaves one card and the call comes with it (PI-10)
  draw -- no playable card: draw one (PI-5)        keep -- do not play the card just drawn
  take -- take the accumulated +2/+4 count (PI-9)   call -- «Pika!» during the warning
  timeout choice=seat -- SYSTEM: that seat's warning ran out (PI-10)

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from typing import Any

from cardparty.core import stock as stockpile
from cardparty.core.cards import COLOUR_NAME, PIKA_COLOURS, ordered_deck, pika_deck
from cardparty.core.contract import (
    NOBODY,
    PUBLIC,
    SYSTEM,
    Deadline,
    GameInfo,
    Move,
    Result,
    Setting,
    Zone,
)
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import N_, Msg, plural_msg
from cardparty.core.kit import competition_places, pick_dealer, redeal
from cardparty.core.narrate import common, seat_name
from cardparty.core.table import BARRED
from cardparty.core.turns import next_seat
from cardparty.plugins.pika.state import PikaState

GAME_ID = "pika"
DECK = tuple(pika_deck())
BLACK = ("W", "W+4")
DRAWS = {"+2": 2, "W+4": 4}

SUMMARY = Msg("""Pika: shed your hand. Match the top card's colour or number/symbol; black cards
(Wild W, W+4) always fit and name a colour. Cards read colour (R red, Y yellow, G green, B blue)
then symbol: S (block) skips the next player, V (reverse) turns the table (with two players it
blocks). +2 and +4 stack: chain one or take the whole count. With one card
left, call «Pika!» before the warning runs out or draw 2. Going out wins, unless on a +2/+4 that
comes back to you.""")


def symbol_of(card: str) -> str:
    return card if card in BLACK else card[1:]


def is_number(card: str) -> bool:
    return card not in BLACK and card[1:].isdigit()


# --- discovery -------------------------------------------------------------------------------

@hookimpl
def cardparty_game_info() -> GameInfo:
    return GameInfo(
        id=GAME_ID, name="Pika", min_players=2, max_players=4,  # PI-2
        settings={
            "hand_size": Setting(7, "int", 2, 15, help=Msg("cards dealt to each player (PI-3)"),
                                 label=N_("hand size")),
            "warning": Setting(3.0, "float", 0.5, 30.0,
                               help=Msg("seconds to call «Pika!» with one card left (PI-10)"),
                               label=N_("seconds to call")),
            "dealer": Setting(-1, "int", -1, 3, help=Msg("the dealer's seat; -1: drawn at random"),
                              label=N_("dealer")),
        },
        summary=SUMMARY, max_moves=20_000, deck=DECK,
        state=PikaState)  # the kit saves, restores, clones and reorders it


# --- setup (PI-1, PI-3) ----------------------------------------------------------------------

@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random) -> PikaState:
    """PI-3: deal ``hand_size`` each (seat 0 takes the first cards of the deck order, then seat
    1...), turn the pile's first card; a card that is not a number goes under the stock and the
    next is turned. The player after the dealer starts, clockwise."""
    size = settings["hand_size"]
    if players * size + 1 > len(DECK):
        raise ValueError(Msg("{n} hands of {size} cards do not fit in the deck", n=players,
                             size=size))
    dealer = pick_dealer(settings, players, rng)
    deck = ordered_deck(DECK, settings["deck"], rng)
    state = PikaState.__new__(PikaState)
    state.n = players
    state.hands = [deck[s * size:(s + 1) * size] for s in range(players)]
    state.stock = deck[players * size:][::-1]
    state.pile = []
    for _ in range(len(state.stock)):
        card = state.stock.pop()
        if is_number(card):
            state.pile.append(card)
            break
        state.stock.insert(0, card)
    state.turn = (dealer + 1) % players
    state.direction = 1
    state.colour = state.pile[-1][0]
    state.pending = 0
    state.pending_kind = ""
    state.drawn = None
    state.idle = 0
    state.out_pending = []
    state.warned = []
    state.places = None
    state.outcome = ""
    state.dealer = dealer
    state.warning_seconds = float(settings["warning"])
    return state


@hookimpl
def cardparty_opening(state: PikaState) -> list[dict[str, Any]]:
    """PI-3 told: who dealt how many cards each, and the card turned for the pile (the log's
    first lines; the cards put under the stock before it are not shown to anybody)."""
    size = len(state.hands[0]) if state.hands else 0
    return [{"type": "deal", "seat": state.dealer, "count": size},
            {"type": "starter", "seat": None, "cards": [state.pile[-1]]}]


# --- legality (PI-4, PI-5, PI-9, PI-10) ------------------------------------------------------

def fits(state: PikaState, card: str) -> bool:
    """PI-4 and PI-9: may ``card`` go on the pile now?"""
    if state.pending:
        if card == "W+4":
            return True                      # any +4 chains (PI-9, and the Decision on +2)
        if not card.endswith("+2"):
            return False
        return state.pending_kind == "+2" or card[0] == state.colour
    if card in BLACK:
        return True
    top = state.pile[-1]
    return card[0] == state.colour or (top not in BLACK and card[1:] == top[1:])


def refusal_to_play(state: PikaState, seat: int, card: str) -> str | None:
    """Why ``seat`` may not play ``card`` now, in words; None if it may."""
    if card not in state.hands[seat]:
        return Msg("{card} is not in your hand", card=card)
    if state.drawn is not None and card != state.drawn:
        return Msg("after drawing you may play only the card you drew")
    if fits(state, card):
        return None
    if state.pending:
        if state.pending_kind == "+4" and card.endswith("+2"):
            return Msg("on a pending +4 only a +2 of the named colour ({colour}) or a +4 may "
                       "chain", colour=COLOUR_NAME[state.colour])
        return Msg("a +{n} draw is pending: chain a +2 or +4, or take the cards",
                   n=state.pending)
    return Msg("{card} matches neither the colour in force ({colour}) nor the top card {top}",
               card=card, colour=COLOUR_NAME[state.colour], top=state.pile[-1])


def _build_play_moves(card: str, call: bool) -> tuple[Move, ...]:
    colours: tuple[str | None, ...] = tuple(PIKA_COLOURS) if card in BLACK else (None,)
    moves = []
    for colour in colours:
        if colour:
            label = Msg("play {card} naming {colour}", card=card, colour=COLOUR_NAME[colour])
        else:
            label = Msg("play {card}", card=card)
        moves.append(Move("play", (card,), colour, label))
        if call:
            choice = f"{colour} pika" if colour else "pika"
            moves.append(Move("play", (card,), choice,
                              Msg("{play} and call Pika!", play=label), calls=True))
    return tuple(moves)


#: Moves are immutable, so every play move of the deck is built once, not on every turn.
PLAY_MOVES = {(card, call): _build_play_moves(card, call) for card in set(DECK)
              for call in (False, True)}
CALL = Move("call", (), None, Msg("call Pika!"))
DRAW = Move("draw", (), None, Msg("draw a card"))


def _play_moves(state: PikaState, seat: int, card: str) -> tuple[Move, ...]:
    """The ways to play ``card``: a colour for a black card, with the call when it leaves one
    card (PI-8, PI-10)."""
    return PLAY_MOVES[card, len(state.hands[seat]) == 2]


@hookimpl
def cardparty_to_move(state: PikaState) -> tuple[int, ...]:
    if state.places is not None:
        return ()
    if not state.warned:
        return (state.turn,)
    return (state.turn, *(s for s in state.warned if s != state.turn))


@hookimpl
def cardparty_legal_moves(state: PikaState, seat: int) -> list[Move]:
    if state.places is not None:
        return []
    if seat == SYSTEM:
        return [Move("timeout", (), str(s), Msg("Pika warning of seat {seat} runs out", seat=s))
                for s in state.warned]
    moves: list[Move] = []
    if seat in state.warned:
        moves.append(CALL)
    if seat != state.turn:
        return moves
    hand = state.hands[seat]
    if state.drawn is not None:                                        # PI-5
        moves += _play_moves(state, seat, state.drawn)
        moves.append(Move("keep", (), None, Msg("keep {card}", card=state.drawn)))
        return moves
    call = len(hand) == 2
    playable = False
    # ``fits`` inlined: this loop is the hottest code of a Pika playout. dict.fromkeys keeps
    # the hand's order, so the listing (and a seeded bot's choice) is the same in any process.
    colour = state.colour
    if state.pending:
        any_plus2 = state.pending_kind == "+2"
        for card in dict.fromkeys(hand):
            if card == "W+4" or (card.endswith("+2") and (any_plus2 or card[0] == colour)):
                playable = True
                moves += PLAY_MOVES[card, call]
    else:
        top = state.pile[-1]
        top_symbol = None if top in BLACK else top[1:]
        for card in dict.fromkeys(hand):
            if card in BLACK or card[0] == colour or card[1:] == top_symbol:
                playable = True
                moves += PLAY_MOVES[card, call]
    if state.pending:                                                  # PI-9
        moves.append(Move("take", (), None, plural_msg("take {n} card", "take {n} cards",
                                                       state.pending)))
    elif not playable:
        moves.append(DRAW)                                             # PI-5 Decision
    return moves


@hookimpl
def cardparty_refusal(state: PikaState, seat: int, move: Move, listed: list[Move]
                      ) -> str | None:
    """The listing is complete: a move the table lists is legal (``listed``: a variant's
    moves included), any other gets its reason in words. A move Pika's own rules list but
    the table does not was barred by a variant, whose wrapper says why."""
    if any(m.same(move) for m in listed):
        return None
    if any(m.same(move) for m in cardparty_legal_moves(state, seat)):
        return BARRED
    return _reason(state, seat, move) or Msg("that move is not allowed now")


def _reason(state: PikaState, seat: int, move: Move) -> str | None:
    """Why an unlisted move is refused, as precisely as the rules can say it."""
    if state.places is not None:
        return Msg("the round is over")
    kind = move.kind
    if kind == "timeout":
        return Msg("no such warning is running")
    if kind == "call":
        if len(state.hands[seat]) != 1:
            return Msg("you may call Pika only with one card left")
        return Msg("you have already called")
    if seat != state.turn:
        return Msg("it is not your turn")
    if kind == "play":
        if len(move.cards) != 1:
            return Msg("Pika is played one card at a time")
        card = move.cards[0]
        reason = refusal_to_play(state, seat, card)
        if reason:
            return reason
        parts = (move.choice or "").split()
        if "pika" in parts and len(state.hands[seat]) != 2:
            return Msg("you may call Pika only when this play leaves you one card")
        if card in BLACK:
            return Msg("{card} must name a colour (R, Y, G or B)", card=card)
        return Msg("{card} does not name a colour", card=card)
    if kind == "draw":
        if state.pending:
            return Msg("a +{n} draw is pending: chain or take it", n=state.pending)
        if state.drawn is not None:
            return Msg("you have drawn already this turn")
        return Msg("you may not draw while you hold a playable card (PI-5)")
    if kind == "take":
        return Msg("there is nothing to take")
    if kind == "keep":
        return Msg("you have not drawn a playable card")
    return Msg("Pika has no move '{kind}'", kind=kind)


# --- applying a move -------------------------------------------------------------------------

@hookimpl
def cardparty_apply_move(state: PikaState, seat: int, move: Move, rng: random.Random
                         ) -> list[dict[str, Any]]:
    kind = move.kind
    events: list[dict[str, Any]] = []
    if kind == "timeout":                                              # PI-10 penalty
        who = int(move.choice or "0")
        state.warned.remove(who)
        drawn = _draw(state, who, 2, rng, events)
        events.append({"type": "penalty", "seat": who, "cards": drawn, "private": True})
    elif kind == "call":
        state.warned.remove(seat)
        events.append({"type": "call", "seat": seat})
    elif kind == "play":
        _play(state, seat, move, events)
    elif kind == "draw":
        drawn = _draw(state, seat, 1, rng, events)
        events.append({"type": "draw", "seat": seat, "cards": drawn, "private": True})
        if drawn and fits(state, drawn[0]):
            state.drawn = drawn[0]
            state.idle = 0
        else:
            _end_turn(state, moved=bool(drawn))
    elif kind == "keep":
        events.append({"type": "keep", "seat": seat})
        state.drawn = None
        _end_turn(state, moved=True)
    elif kind == "take":                                               # PI-9, PI-11
        count = state.pending
        drawn = _draw(state, seat, count, rng, events)
        events.append({"type": "take", "seat": seat, "cards": drawn, "private": True,
                       "owed": count})
        state.pending = 0
        state.pending_kind = ""
        if seat in state.out_pending:
            state.out_pending.remove(seat)                             # back in: plays on
        if state.out_pending:
            _finish(state, "finished")
        else:
            _end_turn(state, moved=True)
    _void_warnings(state)
    if state.places is not None:
        events.append({"type": "over", "seat": None, "places": list(state.places)})
    return events


def _draw(state: PikaState, seat: int, n: int, rng: random.Random,
          events: list[dict[str, Any]]) -> list[str]:
    """PI-6: draw from the stock, refilling it from the pile under its top card."""
    before = len(state.stock)
    drawn = stockpile.draw(state.stock, state.pile, n, rng)
    if len(drawn) > before:
        events.append({"type": "reshuffle", "seat": None})
    state.hands[seat].extend(drawn)
    return drawn


def _play(state: PikaState, seat: int, move: Move, events: list[dict[str, Any]]) -> None:
    card = move.cards[0]
    parts = (move.choice or "").split()
    colour = parts[0] if card in BLACK else card[0]
    hand = state.hands[seat]
    hand.remove(card)
    state.pile.append(card)
    state.colour = colour
    state.drawn = None
    state.idle = 0
    events.append({"type": "play", "seat": seat, "cards": [card],
                   "choice": colour if card in BLACK else None})
    if "pika" in parts:
        events.append({"type": "call", "seat": seat})
    elif len(hand) == 1:
        state.warned.append(seat)                                      # PI-10
    n = state.n
    playing = [True] * n
    sym = symbol_of(card)
    if sym in ("+2", "W+4"):                                           # PI-8, PI-9
        state.pending += DRAWS["W+4" if card == "W+4" else "+2"]
        state.pending_kind = "+4" if card == "W+4" else "+2"
        if not hand:
            state.out_pending.append(seat)                             # PI-11
        state.turn = next_seat(seat, state.direction, playing)
        return
    if not hand:                                                       # PI-11: out, wins
        _finish(state, "finished")
        return
    steps = 1
    if sym == "S" or (sym == "V" and n == 2):                          # PI-7, PI-15
        steps = 2
        events.append({"type": "skip", "seat": next_seat(seat, state.direction, playing)})
    elif sym == "V":
        state.direction = -state.direction
        events.append({"type": "reverse", "seat": seat})
    state.turn = next_seat(seat, state.direction, playing, steps)


def _end_turn(state: PikaState, moved: bool) -> None:
    """The turn passes; PI-6: a full round of turns with no card moved closes the round."""
    state.drawn = None
    state.idle = 0 if moved else state.idle + 1
    if state.idle >= state.n:
        _finish(state, "closed")
        return
    state.turn = next_seat(state.turn, state.direction, [True] * state.n)


def _void_warnings(state: PikaState) -> None:
    """PI-10: a warning is void once the warned hand is no longer exactly one card."""
    if state.warned:
        state.warned = [s for s in state.warned if len(state.hands[s]) == 1]
    if state.places is not None:
        state.warned = []


def _finish(state: PikaState, outcome: str) -> None:
    """PI-11, PI-12, PI-13: places by cards in hand, fewest first, ties sharing a place (a
    player who went out has none, so he is first)."""
    state.places = competition_places([len(h) for h in state.hands])
    state.outcome = outcome
    state.pending = 0
    state.pending_kind = ""


# --- what players see ------------------------------------------------------------------------

# The view's words, marked for the catalog once: a host builds a view for every seat after
# every move.
_FINISHED, _OUT, _TO_PLAY = N_("finished"), N_("out on a draw card"), N_("to play")
_WARNED, _WAITING = N_("warned"), N_("waiting")
_COLOUR, _DIRECTION, _PENDING = N_("colour"), N_("direction"), N_("pending draw")
_CLOCKWISE, _COUNTER = N_("clockwise"), N_("counter-clockwise")
_PILE, _STOCK, _PILE_SIZE = N_("pile"), N_("stock"), N_("pile size")


@hookimpl
def cardparty_view(state: PikaState, seat: int | None) -> dict[str, Any]:
    places = state.places
    over = places is not None
    # Names and words of the view are plain strings marked for the catalog: each client
    # translates the ones it knows.
    counters: dict[str, Any] = {_COLOUR: COLOUR_NAME[state.colour],
                                _DIRECTION: _CLOCKWISE if state.direction == 1 else _COUNTER}
    if state.pending:
        counters[_PENDING] = state.pending
    hands = state.hands
    if places is not None:
        players = [{"count": len(hands[s]), "status": _FINISHED, "place": places[s],
                    "zones": {}} for s in range(state.n)]
    else:       # _status of every seat, inline: four views of four seats after every move
        turn, out, warned = state.turn, state.out_pending, state.warned
        players = [{"count": len(hands[s]),
                    "status": _OUT if s in out else _TO_PLAY if s == turn
                    else _WARNED if s in warned else _WAITING,
                    "place": None, "zones": {}} for s in range(state.n)]
    return {
        "phase": "over" if over else "play",
        "turn": None if over else state.turn,
        "direction": state.direction,
        "players": players,
        "hand": list(hands[seat]) if seat is not None else [],
        "zones": {_PILE: [state.pile[-1]], _STOCK: len(state.stock),
                  _PILE_SIZE: len(state.pile)},
        "counters": counters,
        "drawn": state.drawn if seat == state.turn else None,
    }


@hookimpl
def cardparty_zones(state: PikaState) -> list[Zone]:
    zones = [Zone(f"hand {s}", state.hands[s], s) for s in range(state.n)]
    zones.append(Zone("stock", state.stock, NOBODY))
    zones.append(Zone("pile", state.pile, PUBLIC))
    return zones


@hookimpl
def cardparty_deadlines(state: PikaState) -> list[Deadline]:
    if not state.warned:
        return []
    return [Deadline("pika", s, state.warning_seconds,
                     Move("timeout", (), str(s),
                          Msg("Pika warning of seat {seat} runs out", seat=s)))
            for s in state.warned]


@hookimpl
def cardparty_result(state: PikaState) -> Result | None:
    if state.places is None:
        return None
    winners = [s for s, p in enumerate(state.places) if p == 1]
    how = Msg("closed: fewest cards") if state.outcome == "closed" else Msg("out of cards")
    return Result(places=tuple(state.places),
                  scores=tuple(len(h) for h in state.hands),
                  summary=Msg("{seats} won ({how})", seats=", ".join(map(str, winners)),
                              how=how),
                  outcome=state.outcome)


# --- bots, saving ----------------------------------------------------------------------------

@hookimpl
def cardparty_determinize(state: PikaState, seat: int, rng: random.Random) -> PikaState:
    """Redeal every card ``seat`` cannot see (other hands, the stock), keeping their sizes."""
    twin = state.copy()
    redeal(rng, [twin.hands[s] for s in range(state.n) if s != seat] + [twin.stock])
    return twin


@hookimpl
def cardparty_describe(event: dict[str, Any], names: list[str]) -> str | None:
    who = seat_name(names, event.get("seat"))
    kind = event.get("type")
    if kind == "play":
        card = event["cards"][0]
        if event.get("choice"):
            return Msg("{who} plays {card} and names {colour}", who=who, card=card,
                       colour=COLOUR_NAME[event["choice"]])
        return Msg("{who} plays {card}", who=who, card=card)
    if kind in ("draw", "take", "penalty"):
        n = len(event["cards"]) if "cards" in event else event.get("count", 0)
        if kind == "draw":
            said = plural_msg("{who} draws {n} card", "{who} draws {n} cards", n, who=who)
        elif kind == "take":
            said = plural_msg("{who} takes the pending draw: {n} card",
                              "{who} takes the pending draw: {n} cards", n, who=who)
        else:
            said = plural_msg("{who} forgot to call Pika and draws {n} card",
                              "{who} forgot to call Pika and draws {n} cards", n, who=who)
        if event.get("cards"):
            return Msg("{said} ({cards})", said=said, cards=" ".join(event["cards"]))
        return said
    if kind == "call":
        return Msg("{who} calls «Pika!»", who=who)
    if kind == "skip":
        return Msg("{who} is blocked", who=who)
    if kind == "keep":
        return Msg("{who} keeps the drawn card", who=who)
    if kind == "deal":
        return plural_msg("{who} deals {n} card each", "{who} deals {n} cards each",
                          event["count"], who=who)
    if kind == "starter":
        return Msg("the starter card is {card}", card=event["cards"][0])
    return common(event, names)                     # reshuffle, reverse, over


# The normal bot policy lives in its own module; importing it here registers it with the game.
from cardparty.plugins.pika.bot import (  # noqa: E402, F401
    cardparty_bot_estimate,
    cardparty_bot_move,
    cardparty_bot_reason,
    cardparty_bot_rollout,
)
from cardparty.plugins.pika.infer import cardparty_bot_sampler  # noqa: E402, F401
