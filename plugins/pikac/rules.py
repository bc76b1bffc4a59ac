"""Pikáč: a Czech shedding game for 2-8 players whose function cards build chains of cards to
take (the count), with Queens naming suits, Aces stopping players and a probation for whoever
goes out.

The rules are docs/rules/pikac.md (ids PK-1 ... PK-24); every function cites the ids it
implements. Legality lives in ``legality``; this module deals, applies moves (the chain and
its memory, stops, probation, the end), and builds views. It only implements hooks of
``cardparty.core.hookspecs``.

Moves:
  deal choice=k -- the dealer deals k cards each (PK-5)
  play cards=(c1, ..., ck) choice=None | suit | "hold"/"spread" | seat -- a throw (PK-9, PK-12);
      a Queen names the suit (PK-18), Aces a mode (PK-19), a K♣ the next player (PK-14)
  draw -- draw one card, the turn ends (PK-9)       take -- take the count (PK-17)
  stand -- a stopped player misses this turn (PK-20)
  keep -- only with the variant pikac-play-drawn (play_drawn.py): keep the card just drawn

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core import stock as stockpile
from cardparty.core.cards import ordered_deck, pretty
from cardparty.core.contract import NOBODY, PUBLIC, GameInfo, Move, Result, Setting, Zone
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import N_, Msg, plural_msg
from cardparty.core.kit import finishing_places, pick_dealer, redeal
from cardparty.core.narrate import common, seat_name
from cardparty.plugins.pikac import legality
from cardparty.plugins.pikac.deck import (
    ACE,
    CLASS,
    DECK,
    FUNCTION,
    QUEEN,
    SUIT_OF,
    show,
    suit_name,
)
from cardparty.plugins.pikac.state import DONE, IN, PROBATION, PikacState

GAME_ID = "pikac"
MAX_PLAYERS = 8
#: Decision: a round still going after this many moves is closed and ranked by cards held, so
#: that ``GameInfo.max_moves`` is a bound the game keeps (random rounds stay under 6,000).
MOVE_LIMIT = 30_000

SUMMARY = Msg("""Pikáč: shed your hand. Match the suit in force or the top card's rank. Function
cards (2s, 7s, J♣, J♠, Kings, Jokers) build a chain: each changes the count of cards to take,
and the next player continues with a function card or takes the count. Queens go on anything
and name the suit; Aces stop players (counter them with Aces). Whoever throws his last card is
out on probation until his turn comes round; the last player holding cards loses and deals.""")


# --- discovery -------------------------------------------------------------------------------

@hookimpl
def cardparty_game_info() -> GameInfo:
    """PK-2: 2-8 players. The hand size is the dealer's move (PK-5), not a setting."""
    return GameInfo(
        id=GAME_ID, name="Pikáč", min_players=2, max_players=MAX_PLAYERS,
        settings={
            "dealer": Setting(-1, "int", -1, MAX_PLAYERS - 1,
                              help=Msg("the first round's dealer; -1: drawn at random (PK-4)"),
                              label=N_("dealer")),
        },
        summary=SUMMARY, max_moves=MOVE_LIMIT + 1, deck=DECK,
        state=PikacState)  # the kit saves, restores, clones and reorders it


# --- setup and the deal (PK-4 ... PK-7) ------------------------------------------------------

@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random) -> PikacState:
    """PK-4: the dealer (at random unless the setting names one) shuffles; the round waits in
    the deal phase for his choice of hand size (PK-5). The whole deck is the stock until then."""
    dealer = pick_dealer(settings, players, rng)
    deck = ordered_deck(DECK, settings["deck"], rng)
    state = PikacState.__new__(PikacState)
    state.n = players
    state.phase = "deal"
    state.dealer = dealer
    state.hand_size = 0
    state.hands = [[] for _ in range(players)]
    state.stock = deck[::-1]
    state.pile = []
    state.turn = dealer
    state.direction = 1
    state.suit = ""
    state.count = 0
    state.chain = False
    state.kd_bar = False
    state.js_cancelled = None
    state.kc_seat = None
    state.stops = [0] * players
    state.status = [IN] * players
    state.finished = []
    state.starter_top = False
    state.shown_bottom = False
    state.idle = 0
    state.moves = 0
    state.outcome = ""
    state.drawn = None
    return state


def deal(state: PikacState, size: int, events: list[dict[str, Any]]) -> None:
    """PK-5, PK-6, PK-7: deal ``size`` cards each in blocks (seat 0 takes the first cards of
    the deck order, then seat 1, ...), turn the next card face up as the starter; a Queen
    starter shows the stock's bottom card, whose suit is in force (a Joker there: free). The
    starter's own effect never applies. The player on the dealer's left starts, clockwise."""
    deck = state.stock[::-1]
    n = state.n
    state.hands = [deck[s * size:(s + 1) * size] for s in range(n)]
    starter = deck[n * size]
    state.stock = deck[n * size + 1:][::-1]
    state.pile = [starter]
    state.hand_size = size
    state.starter_top = True
    state.suit = SUIT_OF[starter]
    state.phase = "play"
    state.turn = (state.dealer + 1) % n
    state.direction = 1
    events.append({"type": "deal", "seat": state.dealer, "count": size})
    for s in range(n):
        events.append({"type": "dealt", "seat": s, "cards": list(state.hands[s]),
                       "private": True})
    events.append({"type": "starter", "seat": None, "cards": [starter]})
    if CLASS[starter] == QUEEN:
        if state.stock:
            bottom = state.stock[0]
            state.shown_bottom = True
            state.suit = SUIT_OF[bottom]
            events.append({"type": "shown", "seat": None, "cards": [bottom],
                           "choice": state.suit or None})
        else:
            state.suit = ""


# --- legality (see ``legality``) -------------------------------------------------------------

@hookimpl
def cardparty_to_move(state: PikacState) -> tuple[int, ...]:
    if state.phase == "over":
        return ()
    return (state.dealer,) if state.phase == "deal" else (state.turn,)


@hookimpl
def cardparty_legal_moves(state: PikacState, seat: int) -> list[Move]:
    return legality.legal_moves(state, seat)


@hookimpl
def cardparty_refusal(state: PikacState, seat: int, move: Move) -> str | None:
    return legality.refusal(state, seat, move)


# --- applying a move -------------------------------------------------------------------------

def ends_turn(state: PikacState, seat: int, card: str) -> bool:
    """PK-9's Decision: the card drawn instead of playing waits for the next turn."""
    return True


@hookimpl
def cardparty_apply_move(state: PikacState, seat: int, move: Move, rng: random.Random,
                         after_draw: Callable[[PikacState, int, str], bool] = ends_turn
                         ) -> list[dict[str, Any]]:
    """``after_draw`` says whether a draw ends the turn: a house-rule variant calls this hook
    with its own (``play_drawn``); pluggy never passes it."""
    events: list[dict[str, Any]] = []
    kind = move.kind
    if kind == "play":
        throw(state, seat, move.cards, move.choice, events)
    elif kind == "draw":
        _draw_one(state, seat, rng, events, after_draw)
    elif kind == "take":
        _take(state, seat, rng, events)
    elif kind == "stand":                                              # PK-20
        state.stops[seat] -= 1
        events.append({"type": "stand", "seat": seat, "count": state.stops[seat]})
        advance(state, seat, events)
    elif kind == "deal":
        deal(state, int(move.choice or "0"), events)
    return finish_move(state, events)


def finish_move(state: PikacState, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """After every move: count it against the round's hard limit; announce the places when the
    round is over. Returns ``events``."""
    state.moves += 1
    if state.moves >= MOVE_LIMIT and state.phase == "play":
        state.phase = "over"
        state.outcome = "limit"
    if state.phase == "over":
        events.append({"type": "over", "seat": None, "places": list(_places(state))})
    return events


def throw(state: PikacState, seat: int, cards: tuple[str, ...], choice: str | None,
          events: list[dict[str, Any]]) -> None:
    """PK-9, PK-12: the cards go onto the pile in order, the last one on top; a player who
    throws his last card is out on probation (PK-21); then the cards take effect."""
    hand = state.hands[seat]
    for c in cards:
        hand.remove(c)
    state.pile.extend(cards)
    state.starter_top = False
    state.idle = 0
    events.append({"type": "play", "seat": seat, "cards": list(cards), "choice": choice})
    if not hand:
        state.status[seat] = PROBATION
        events.append({"type": "out", "seat": seat})
    resolve(state, seat, cards, choice, events)


def resolve(state: PikacState, seat: int, cards: tuple[str, ...], choice: str | None,
            events: list[dict[str, Any]]) -> None:
    """What a throw does once on the pile: a function card changes the count (PK-14); any
    other card ends the chain (PK-13), sets the suit (PK-10, a Queen's named suit, PK-18) and
    Aces stop players (PK-19). Then the turn passes on (PK-15)."""
    last = cards[-1]
    cls = CLASS[last]
    if cls == FUNCTION:
        target = function_effect(state, seat, cards, choice, events)
        if target is None:
            advance(state, seat, events)
        else:
            give_turn(state, target, events)
        return
    end_chain(state)
    state.suit = (choice or "") if cls == QUEEN else SUIT_OF[last]
    if cls == ACE:
        state.stops[seat] = 0                                          # PK-20: countered
        stop_players(state, seat, len(cards), choice or "hold", events)
    advance(state, seat, events)


def function_effect(state: PikacState, seat: int, cards: tuple[str, ...], choice: str | None,
                    events: list[dict[str, Any]]) -> int | None:
    """PK-13, PK-14: the chain goes on with this throw; returns the seat that gets the turn
    when the card names one (K♣, J♣), None for the next player in the direction."""
    last = cards[-1]
    k = len(cards)
    state.chain = True
    state.suit = SUIT_OF[last]
    before = state.count
    target: int | None = None
    rank = last[0]
    if last == "2H":
        if state.js_cancelled is not None:
            state.count += state.js_cancelled
            state.js_cancelled = None
    elif last == "2C":
        state.direction = -state.direction
        events.append({"type": "reverse", "seat": seat})
    elif last == "2S":
        state.count *= 2
    elif rank == "7":
        suits = [SUIT_OF[c] for c in cards]
        sets = min(suits.count(s) for s in "SHDC")
        state.count += 40 * sets + 2 * (k - 4 * sets)
    elif last == "JC":
        kc = state.kc_seat
        if kc is not None and kc != seat and state.status[kc] != DONE:
            target = kc
    elif last == "JS":
        state.js_cancelled = state.count
        state.count = 0
    elif last == "KH":
        state.count = (state.count + 1) // 2
    elif last == "KD":
        state.kd_bar = True
    elif last == "KC":
        state.kc_seat = seat
        target = int(choice) if choice is not None else None
    elif last == "KS":
        state.count += 40 if k == 2 else 10
    elif last == "X":
        state.count += 60 if k == 4 else 5 * k
    events.append({"type": "count", "seat": seat, "count": state.count, "was": before})
    return target


def end_chain(state: PikacState) -> None:
    """PK-13: the chain and its memory end (the K♦ bar, the J♠ count, the K♣ thrower)."""
    state.chain = False
    state.kd_bar = False
    state.js_cancelled = None
    state.kc_seat = None


def stop_players(state: PikacState, seat: int, k: int, mode: str,
                 events: list[dict[str, Any]]) -> None:
    """PK-19: k Aces either hold the next player for k turns or spread one turn to each of the
    next k other players still holding cards (capped at how many there are); stops add up."""
    n = state.n
    others: list[int] = []
    cur = seat
    for _ in range(n - 1):
        cur = (cur + state.direction) % n
        if state.status[cur] == IN:
            others.append(cur)
    if not others:
        return
    if mode == "hold":
        state.stops[others[0]] += k
        events.append({"type": "stop", "seat": others[0], "count": k})
    else:
        for s in others[:k]:
            state.stops[s] += 1
            events.append({"type": "stop", "seat": s, "count": 1})


def give_turn(state: PikacState, target: int, events: list[dict[str, Any]]) -> None:
    """PK-15, PK-21: ``target`` gets the turn. A player on probation who gets it with a count
    pending must take it; with nothing pending he has finished for good and the turn goes on."""
    status = state.status[target]
    if status == IN or (status == PROBATION and state.count):
        state.turn = target
        return
    if status == PROBATION:
        finish(state, target, events)
        if state.phase == "over":
            return
    advance(state, target, events)


def advance(state: PikacState, seat: int, events: list[dict[str, Any]]) -> None:
    """PK-15: the turn passes to the next seat in the direction that has not finished,
    resolving probations on the way (PK-21)."""
    n = state.n
    cur = seat
    for _ in range(2 * n):
        cur = (cur + state.direction) % n
        status = state.status[cur]
        if status == DONE:
            continue
        if status == IN or state.count:
            state.turn = cur
            return
        finish(state, cur, events)
        if state.phase == "over":
            return
    raise AssertionError("no seat can take the turn")                 # unreachable: PK-22


def finish(state: PikacState, seat: int, events: list[dict[str, Any]]) -> None:
    """PK-21, PK-22: ``seat`` has finished for good and takes the next place; the round ends
    when at most one player still holds cards and nobody is on probation."""
    state.status[seat] = DONE
    state.stops[seat] = 0
    state.finished.append(seat)
    events.append({"type": "finished", "seat": seat, "place": len(state.finished)})
    holding = [s for s in range(state.n) if state.status[s] == IN]
    if len(holding) <= 1 and PROBATION not in state.status:
        state.phase = "over"
        state.outcome = "finished"
        end_chain(state)
        state.count = 0


def _draw(state: PikacState, seat: int, n: int, rng: random.Random,
          events: list[dict[str, Any]]) -> list[str]:
    """PK-24: draw from the stock, which is refilled from the pile under its top card; a player
    who must draw more cards than exist takes what there is."""
    before = len(state.stock)
    if state.shown_bottom and n >= before:
        state.shown_bottom = False                                     # the shown card goes
    drawn = stockpile.draw(state.stock, state.pile, n, rng)
    if len(drawn) > before:
        events.append({"type": "reshuffle", "seat": None})
    state.hands[seat].extend(drawn)
    if drawn:
        state.idle = 0
    else:
        state.idle += 1
    return drawn


def _stalled(state: PikacState) -> bool:
    """Decision (the source is silent): when stock and pile hold no card to draw and every
    player still holding cards has drawn nothing in a row, the round is stalled and ends."""
    if state.idle >= state.status.count(IN):
        state.phase = "over"
        state.outcome = "stalled"
        return True
    return False


def _draw_one(state: PikacState, seat: int, rng: random.Random, events: list[dict[str, Any]],
              after_draw: Callable[[PikacState, int, str], bool]) -> None:
    """PK-9: no card played: draw one and the turn ends (Decision: the drawn card waits for
    the next turn). Drawing with a live chain at count 0 takes that count of 0, so the chain
    ends (PK-13, PK-17)."""
    end_chain(state)
    drawn = _draw(state, seat, 1, rng, events)
    events.append({"type": "draw", "seat": seat, "cards": drawn, "private": True})
    if not drawn and _stalled(state):
        return
    if drawn and not after_draw(state, seat, drawn[0]):
        return
    advance(state, seat, events)


def _take(state: PikacState, seat: int, rng: random.Random, events: list[dict[str, Any]]
          ) -> None:
    """PK-17: draw the whole count; the count returns to 0, the chain ends, the turn ends.
    A player on probation who takes cards is back in the game (PK-21)."""
    owed = state.count
    drawn = _draw(state, seat, owed, rng, events)
    events.append({"type": "take", "seat": seat, "cards": drawn, "private": True,
                   "owed": owed})
    state.count = 0
    end_chain(state)
    if state.status[seat] == PROBATION and drawn:
        state.status[seat] = IN
        events.append({"type": "back", "seat": seat})
    if not drawn and _stalled(state):
        return
    advance(state, seat, events)


# --- the end (PK-22) -------------------------------------------------------------------------

def _places(state: PikacState) -> list[int]:
    """PK-22: the finishing order, the loser last. A stalled round (or one closed by the move
    limit) ranks the players still in it by the cards they hold, fewest first (ties share a
    place)."""
    return finishing_places(state.n, state.finished,
                            lambda s: len(state.hands[s]))


def loser(state: PikacState) -> int:
    """PK-22: the player left holding cards (most cards in a stalled round); if the last two
    went out together, the last to finish."""
    rest = [s for s in range(state.n) if state.status[s] != DONE]
    if not rest:
        return state.finished[-1]
    return max(rest, key=lambda s: (len(state.hands[s]), -s))


@hookimpl
def cardparty_result(state: PikacState) -> Result | None:
    if state.phase != "over":
        return None
    places = _places(state)
    who = loser(state)
    how = {"stalled": Msg("the round stalled"), "limit": Msg("the move limit closed the round")
           }.get(state.outcome) or Msg("last holding cards")
    return Result(places=tuple(places), scores=tuple(len(h) for h in state.hands),
                  next_dealer=who, summary=Msg("{seats} lost ({how}) and deals next",
                                               seats=who, how=how),
                  outcome=state.outcome)


# --- what players see (PK-8) -----------------------------------------------------------------

def _status(state: PikacState, seat: int) -> str:
    status = state.status[seat]
    if state.phase == "deal":
        return N_("deals") if seat == state.dealer else N_("waiting")
    if status == DONE:
        return N_("finished")
    if state.phase == "over":
        return N_("lost") if seat == loser(state) else N_("finished")
    if status == PROBATION:
        return N_("out on probation")
    stops = state.stops[seat]
    if seat == state.turn:
        return N_("to play") if not stops or state.count else N_("stopped: stand or counter")
    # a view word with its number: each client translates the word (core/i18n.translate)
    word = N_("turns to stand")
    return f"{word}: {stops}" if stops else N_("waiting")


@hookimpl
def cardparty_view(state: PikacState, seat: int | None) -> dict[str, Any]:
    """Built field by field: the seat's own hand, the pile's top, counts, the public memory of
    the chain. The stock's bottom card appears only while it is the one shown to all (PK-6)."""
    over = state.phase == "over"
    places = _places(state) if over else None
    counters: dict[str, Any] = {
        N_("suit in force"): suit_name(state.suit),
        N_("direction"): N_("clockwise") if state.direction == 1 else N_("counter-clockwise"),
        N_("pending draw"): state.count,
        N_("hand size"): state.hand_size,
    }
    if state.chain:
        counters[N_("chain")] = True
        if state.kd_bar:
            counters[N_("K♦ bars K♥ and J♠")] = True
        if state.js_cancelled is not None:
            counters[N_("J♠ cancelled")] = state.js_cancelled
        if state.kc_seat is not None:
            counters[N_("last K♣ thrown by seat")] = state.kc_seat
    zones: dict[str, Any] = {N_("pile"): state.pile[-1:], N_("pile size"): len(state.pile),
                             N_("stock"): len(state.stock)}
    if state.shown_bottom:
        zones[N_("stock bottom")] = [state.stock[0]]
    return {
        "phase": state.phase,
        "turn": None if over else cardparty_to_move(state)[0],
        "direction": state.direction,
        "players": [{"count": len(state.hands[s]), "status": _status(state, s),
                     "place": None if places is None else places[s],
                     "stops": state.stops[s], "zones": {}} for s in range(state.n)],
        "hand": list(state.hands[seat]) if seat is not None else [],
        "zones": zones,
        "counters": counters,
    }


@hookimpl
def cardparty_zones(state: PikacState) -> list[Zone]:
    zones = [Zone(f"hand {s}", state.hands[s], s) for s in range(state.n)]
    if state.shown_bottom:
        zones.append(Zone("stock", state.stock[1:], NOBODY))
        zones.append(Zone("stock bottom", state.stock[:1], PUBLIC))
    else:
        zones.append(Zone("stock", state.stock, NOBODY))
    zones.append(Zone("pile", state.pile, PUBLIC))
    return zones


# --- bots, saving ----------------------------------------------------------------------------

@hookimpl
def cardparty_bot_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                       rng: random.Random, level: str) -> Move | None:
    """The normal bot (easy play is left to chance): the dealer deals 7 (PK-5); with a count
    pending it passes the chain on when it can (PK-11); otherwise it sheds as many cards as one
    throw allows rather than drawing; a Queen names the suit it holds most of, Aces hold the
    next player, a K♣ sends the turn to the player holding fewest cards."""
    if not moves:
        return None
    if level == "easy":
        # The simulation's random player throws, uniformly among its throws, 9 times in 10
        # when a throw is legal, and otherwise picks any listed move (so voluntary draws stay
        # covered). Uniformly random moves draw so often (PK-9 lets anyone draw) that a
        # 4-player round lasts about 1,000 moves instead of about 170.
        plays = [m for m in moves if m.kind == "play"]
        if plays and rng.random() < 0.9:
            return plays[rng.randrange(len(plays))]
        return None
    first = moves[0]
    if first.kind == "deal":
        return first                                                   # 7 is listed first
    plays = [m for m in moves if m.kind == "play"]
    if not plays:
        return None                                                    # take, draw or stand
    seen = view()
    hand = seen["hand"]
    best = max(len(m.cards) for m in plays)
    widest = [m for m in plays if len(m.cards) == best]
    choice = widest[rng.randrange(len(widest))]
    last = choice.cards[-1]
    if CLASS[last] == QUEEN:
        suits = [SUIT_OF[c] for c in hand if c not in choice.cards and SUIT_OF[c]]
        named = max("SHDC", key=suits.count) if suits else "S"
        return next(m for m in plays if m.cards == choice.cards and m.choice == named)
    if CLASS[last] == ACE:
        return next(m for m in plays if m.cards == choice.cards and m.choice == "hold")
    if last == "KC":
        counts = [p["count"] for p in seen["players"]]
        options = [m for m in plays if m.cards == choice.cards]
        return min(options, key=lambda m: counts[int(m.choice or 0)])
    return choice


@hookimpl
def cardparty_determinize(state: PikacState, seat: int, rng: random.Random) -> PikacState:
    """Redeal every card ``seat`` cannot see (other hands, the stock but a shown bottom card),
    keeping every hand's size."""
    twin = state.copy()
    shown = {0} if state.shown_bottom else set()
    others = [s for s in range(state.n) if s != seat]
    redeal(rng, [twin.hands[s] for s in others] + [twin.stock], [set()] * len(others) + [shown])
    return twin


@hookimpl
def cardparty_describe(event: dict[str, Any], names: list[str]) -> str | None:
    who = seat_name(names, event.get("seat"))
    kind = event.get("type")
    cards = event.get("cards")
    n = len(cards) if cards is not None else event.get("count", 0)
    if kind == "play":
        choice = event.get("choice")
        thrown = show(event["cards"])
        if choice in ("S", "H", "D", "C"):
            return Msg("{who} throws {cards} naming {suit}", who=who, cards=thrown,
                       suit=suit_name(choice))
        if choice in legality.MODES:
            return Msg("{who} throws {cards} ({mode})", who=who, cards=thrown,
                       mode=Msg(choice))
        if choice is not None:
            return Msg("{who} throws {cards} choosing {target}", who=who, cards=thrown,
                       target=seat_name(names, int(choice)))
        return Msg("{who} throws {cards}", who=who, cards=thrown)
    if kind == "count":
        return Msg("the count is {n}", n=event["count"])
    if kind in ("draw", "take", "dealt"):
        if kind == "draw":
            said = plural_msg("{who} draws {n} card", "{who} draws {n} cards", n, who=who)
        elif kind == "take":
            said = plural_msg("{who} takes {n} card", "{who} takes {n} cards", n, who=who)
        else:
            said = plural_msg("{who} is dealt {n} card", "{who} is dealt {n} cards", n, who=who)
        return Msg("{said} ({cards})", said=said, cards=show(cards)) if cards else said
    if kind == "deal":
        return plural_msg("{who} deals {n} card each", "{who} deals {n} cards each",
                          event["count"], who=who)
    if kind == "starter":
        return Msg("the starter card is {card}", card=pretty(event["cards"][0]))
    if kind == "shown":
        return Msg("the stock's bottom card {card} sets the suit: {suit}",
                   card=pretty(event["cards"][0]), suit=suit_name(event.get("choice") or ""))
    if kind == "stand":
        return Msg("{who} stands", who=who)
    if kind == "stop":
        return plural_msg("{who} must stand {n} turn", "{who} must stand {n} turns",
                          event["count"], who=who)
    if kind == "out":
        return Msg("{who} is out on probation", who=who)
    if kind == "back":
        return Msg("{who} is back in the game", who=who)
    if kind == "finished":
        return Msg("{who} has finished (place {place})", who=who, place=event["place"])
    return common(event, names)                     # reshuffle, reverse, over


# The normal level's throws and the search's estimate live in ``bot``.
from cardparty.plugins.pikac import bot as _bot  # noqa: E402

cardparty_bot_move = _bot.wrap(cardparty_bot_move)
cardparty_bot_estimate = _bot.cardparty_bot_estimate
cardparty_bot_reason = _bot.cardparty_bot_reason
cardparty_bot_rollout = _bot.cardparty_bot_rollout

from cardparty.plugins.pikac.infer import cardparty_bot_sampler  # noqa: E402, F401
