"""What a Pikáč player may do now, and why not: matching (PK-10), the pending count (PK-11),
several cards at once (PK-12), the K♦ bar (PK-16), stops and the counter-throw (PK-20), the
K♣'s choice (PK-14, PK-21), and the lists of legal moves built from them.

PK-10 and PK-17 are read literally from the source: a function card thrown on a normal card
(or a Queen, or the starter, PK-6) follows the suit in force and never the rank (§4c); on an
Ace or on a function card of a live chain it is free; on a dead function card (the count was
taken) every card but a Queen or a Joker matches its suit or rank (§5).

The refusal functions are the authority on legality: ``refusal`` judges any move a client may
send, in any card order, and says why in words. The legal-move list is a bounded set of
representatives of it: every single card, and for a group of one rank (PK-12) one order per
possible last card throwing the whole group plus one order per smaller size, never every
permutation, so eight cards of one rank give at most 4 + 6 throws (twice that for Aces, which
carry a mode).

Must not know about: applying moves, views, sockets, terminals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, TypeVar

from cardparty.core.cards import SUITS, pretty
from cardparty.core.contract import SYSTEM, Move
from cardparty.core.i18n import N_, Msg, plural_msg
from cardparty.plugins.pikac.deck import (
    ACE,
    CLASS,
    DECK,
    FUNCTION,
    GROUP,
    GROUP_MEMBERS,
    NORMAL,
    QUEEN,
    RANK_OF,
    SUIT_OF,
    show,
    suit_name,
    suit_round_robin,
)
from cardparty.plugins.pikac.state import IN, PROBATION, PikacState

MODES = (N_("hold"), N_("spread"))
KINDS = (N_("deal"), N_("play"), N_("draw"), N_("take"), N_("stand"), N_("keep"))
BARRED_BY_KD = ("KH", "JS")


def max_hand_size(players: int) -> int:
    """PK-5: the largest hand the dealer may choose, so that players × size + 1 ≤ 108."""
    return (len(DECK) - 1) // players


def top_is_function(state: PikacState) -> bool:
    """PK-10: the top card counts as a function card (a starter never does, PK-6)."""
    return not state.starter_top and CLASS[state.pile[-1]] == FUNCTION


def top_is_dead(state: PikacState) -> bool:
    """PK-17: the top card is a function card whose chain has ended (its count was taken, or
    drawn at 0): every card but a Queen or a Joker must match its suit or rank."""
    return not state.chain and top_is_function(state)


def _matches(state: PikacState, card: str) -> bool:
    """PK-10: the suit in force (any, when free) or the rank of the top card."""
    top = state.pile[-1]
    return (not state.suit or SUIT_OF[card] == state.suit
            or (top != "X" and RANK_OF[card] == RANK_OF[top]))


def _what_matches(state: PikacState) -> str:
    """What a card must be to match now: 'a card of hearts or any 5'."""
    top = state.pile[-1]
    if top == "X":
        return Msg("a card of {suit}", suit=suit_name(state.suit))
    return Msg("a card of {suit} or any {rank}", suit=suit_name(state.suit),
               rank=RANK_WORD.get(top[0], top[0]))


RANK_WORD = {"T": "10", "J": Msg("Jack"), "Q": Msg("Queen"), "K": Msg("King"), "A": Msg("Ace")}


def _mismatch(state: PikacState, card: str, rule: str = "PK-10") -> str:
    top = state.pile[-1]
    return Msg("{card} matches neither the suit in force ({suit}) nor the rank of the top card "
               "{top}: play {what}, a Queen or a Joker ({rule})", card=pretty(card),
               suit=suit_name(state.suit), top=pretty(top), what=_what_matches(state),
               rule=rule)


def _function_refusal(state: PikacState, card: str) -> str | None:
    """PK-10, PK-17: a function card (not a Joker) thrown at count 0. On a function card of a
    live chain and on an Ace it is free; on a dead function card it matches the suit in force
    or the rank (PK-17); on anything else (a normal card, a Queen, the starter, PK-6) it must be
    of the suit in force, and rank does not count (§4c)."""
    if not state.suit:
        return None
    top = state.pile[-1]
    if top_is_function(state):
        if state.chain or _matches(state, card):
            return None
        return Msg("{card} does not go on the dead {top} (its count was taken): after a taken "
                   "count every card matches the suit in force ({suit}) or its rank; play "
                   "{what}, a Queen or a Joker (PK-17)", card=pretty(card), top=pretty(top),
                   suit=suit_name(state.suit), what=_what_matches(state))
    if CLASS[top] == ACE and not state.starter_top:
        return None
    if SUIT_OF[card] == state.suit:
        return None
    on = Msg("starter") if state.starter_top else Msg("{kind} card", kind=Msg(CLASS[top]))
    return Msg("{card} does not go on {top}: the first function card on a {on} must be of the "
               "suit in force ({suit}), rank does not count; play a function card of {suit}, a "
               "Queen or a Joker (PK-10)", card=pretty(card), top=pretty(top), on=on,
               suit=suit_name(state.suit))


def first_card_refusal(state: PikacState, seat: int, card: str) -> str | None:
    """Why ``card`` may not open a throw of ``seat`` now (PK-10, PK-11, PK-16, PK-17, PK-20)."""
    cls = CLASS[card]
    if state.count:                                                   # PK-11
        if cls == QUEEN:
            return Msg("a Queen cannot be thrown on a pending count of {n}: continue the chain "
                       "with a function card or take the cards", n=state.count)
        if cls == ACE:
            return Msg("an Ace cannot be thrown on a pending count of {n}: continue the chain "
                       "with a function card or take the cards", n=state.count)
        if cls == NORMAL:
            return Msg("a count of {n} is pending: continue the chain with a function card or "
                       "take the cards", n=state.count)
        if state.kd_bar and card in BARRED_BY_KD:                     # PK-16
            return Msg("the K♦ earlier in this chain bars {card} for the rest of the chain",
                       card=pretty(card))
        return None
    if state.stops[seat]:                                             # PK-20
        if cls != ACE:
            return plural_msg("you are stopped ({n} turn to miss): stand, or counter with Aces",
                              "you are stopped ({n} turns to miss): stand, or counter with Aces",
                              state.stops[seat])
        return None
    if cls == QUEEN or card == "X":
        return None
    if cls == FUNCTION:
        if state.chain and state.kd_bar and card in BARRED_BY_KD:    # PK-16
            return Msg("the K♦ earlier in this chain bars {card} for the rest of the chain",
                       card=pretty(card))
        return _function_refusal(state, card)
    if _matches(state, card):
        return None
    return _mismatch(state, card, "PK-17" if top_is_dead(state) else "PK-10")


def kc_targets(state: PikacState, seat: int) -> list[int]:
    """PK-14, PK-21: the players a K♣ thrown by ``seat`` may choose: every other player still
    holding cards (never one who is out or on probation)."""
    return [s for s in range(state.n) if s != seat and state.status[s] == IN]


def choice_refusal(state: PikacState, seat: int, cards: tuple[str, ...], choice: str | None
                   ) -> str | None:
    """Why ``choice`` does not fit the throw: a Queen names a suit (PK-18), Aces a mode
    (PK-19), a K♣ another player still holding cards (PK-14, PK-21); nothing else chooses."""
    last = cards[-1]
    cls = CLASS[last]
    if cls == QUEEN:
        if choice is None or len(choice) != 1 or choice not in SUITS:
            return Msg("a Queen must name the suit in force (S, H, D or C)")
        return None
    if cls == ACE:
        if choice not in MODES:
            return Msg("Aces need a mode: hold (the next player stands that many turns) or "
                       "spread (each of the next players stands one turn)")
        return None
    if last == "KC":
        targets = kc_targets(state, seat)
        if not targets:
            return Msg("K♣ needs another player still holding cards to choose")
        if choice is None or not choice.lstrip("-").isdigit():
            return Msg("K♣ must choose the player who gets the turn and the count (a seat "
                       "number)")
        target = int(choice)
        if not 0 <= target < state.n:
            return Msg("K♣ cannot choose seat {seat}: there is no such seat", seat=target)
        if target == seat:
            return Msg("K♣ must choose another player, not yourself")
        if state.status[target] == PROBATION:
            return Msg("K♣ cannot choose seat {seat}: that player is out on probation",
                       seat=target)
        if state.status[target] != IN:
            return Msg("K♣ cannot choose seat {seat}: that player has finished", seat=target)
        return None
    if choice is not None:
        return Msg("{card} takes no choice", card=pretty(last))
    return None


def throw_refusal(state: PikacState, seat: int, cards: tuple[str, ...], choice: str | None
                  ) -> str | None:
    """Why ``seat`` may not throw ``cards`` (in this order) with ``choice`` now; None if it
    may. PK-12: one rank of a group that may go together, the first card playable, the last
    card setting the suit."""
    if not cards:
        return Msg("a throw needs at least one card")
    unknown = [c for c in cards if c not in CLASS]
    if unknown:
        return Msg("'{card}' is not a Pikáč card", card=unknown[0])
    need = Counter(cards)
    have = Counter(state.hands[seat])
    for card, k in need.items():
        if have[card] < k:
            if have[card]:
                return Msg("you do not hold that many {card}", card=pretty(card))
            return Msg("you do not hold {card}", card=pretty(card))
    if len(cards) > 1:
        group = GROUP[cards[0]]
        if group is None:
            return Msg("{card} is thrown alone (PK-12)", card=pretty(cards[0]))
        odd = next((c for c in cards if GROUP[c] != group), None)
        if odd is not None:
            if group == "KS" or odd[0] == "K":
                return Msg("the only Kings thrown together are the pair of K♠ (PK-12)")
            return Msg("{card} cannot join {first}: several cards at once must be of one rank "
                       "(PK-12)", card=pretty(odd), first=pretty(cards[0]))
    reason = first_card_refusal(state, seat, cards[0])
    if reason is not None:
        return reason
    return choice_refusal(state, seat, cards, choice)


def refusal(state: PikacState, seat: int, move: Move) -> str | None:
    """Why ``move`` is illegal for ``seat`` now, in words; None if legal (the authority)."""
    if state.phase == "over":
        return Msg("the round is over")
    if seat == SYSTEM:
        return Msg("Pikáč has no timers")
    if not 0 <= seat < state.n:
        return Msg("there is no seat {seat}", seat=seat)
    kind = move.kind
    if state.phase == "deal":
        if seat != state.dealer:
            return Msg("the dealer is choosing the hand size")
        if kind != "deal":
            return Msg("the dealer must first choose the hand size and deal (PK-5)")
        top = max_hand_size(state.n)
        if move.cards or move.choice is None or not move.choice.isdigit() \
                or not 1 <= int(move.choice) <= top:
            return Msg("choose a hand size from 1 to {top} cards (PK-5)", top=top)
        return None
    if kind not in KINDS:
        return Msg("Pikáč has no move '{kind}'", kind=kind)
    if kind == "deal":
        return Msg("the cards have been dealt")
    if seat != state.turn:
        return Msg("it is not your turn")
    if kind == "play":
        return throw_refusal(state, seat, move.cards, move.choice)
    if move.cards or move.choice is not None:
        return Msg("{kind} takes no cards and no choice", kind=Msg(kind))
    if kind == "take":
        return None if state.count else Msg("there is no count to take (PK-17)")
    if kind == "draw":
        if state.count:
            return Msg("a count of {n} is pending: continue the chain or take the {n} cards "
                       "(PK-11)", n=state.count)
        if state.stops[seat]:
            return Msg("you are stopped: stand, or counter with Aces (PK-20)")
        return None
    if kind == "stand":
        if state.count:
            return Msg("a pending count is dealt with first: continue the chain or take it "
                       "(PK-20)")
        return None if state.stops[seat] else Msg("you are not stopped")
    return Msg("Pikáč has no move '{kind}'", kind=kind)


# --- the legal-move list ---------------------------------------------------------------------
#
# The list is rebuilt after every move, so it is the simulation's hot path: openers are tested
# with a boolean (the worded refusal is built only when a move is refused), and the Move objects
# of a throw, labels included, are made once and kept (they are immutable values).

_THROWS: dict[tuple[Any, ...], list[Move]] = {}
_GROUPS: dict[tuple[Any, ...], list[Move]] = {}
_CACHE_LIMIT = 200_000
K = TypeVar("K")
V = TypeVar("V")


def _remember(cache: dict[K, V], key: K, value: V) -> V:
    """Keep ``value`` under ``key``, the cache emptied when it is full (a bound on memory)."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _throw_moves(cards: tuple[str, ...], targets: tuple[int, ...] = ()) -> list[Move]:
    """The throw of ``cards`` once per choice it needs (PK-18, PK-19, PK-14 K♣)."""
    key = (cards, targets)
    moves = _THROWS.get(key)
    if moves is not None:
        return moves
    shown = show(cards)
    last = cards[-1]
    cls = CLASS[last]
    if cls == QUEEN:
        moves = [Move("play", cards, s, Msg("throw {cards} naming {suit}", cards=shown,
                                            suit=suit_name(s))) for s in SUITS]
    elif cls == ACE:
        k = len(cards)
        # Each label names its mode: with one Ace the two stop the same player once
        # (docs/rules/pikac.md, PK-19), and two moves must never read alike.
        moves = [Move("play", cards, "hold", plural_msg(
                     "throw {cards} to hold: the next player stands a turn",
                     "throw {cards} to hold: the next player stands {n} turns", k,
                     cards=shown)),
                 Move("play", cards, "spread", plural_msg(
                     "throw {cards} to spread: the next player stands a turn",
                     "throw {cards} to spread: the next {n} players stand a turn each", k,
                     cards=shown))]
    elif last == "KC":
        # ``seats``: the table's views name the player chosen (``narrate.named_label``)
        moves = [Move("play", cards, str(t), Msg("throw {cards} choosing {seats}",
                                                 cards=shown, seats=str(t)))
                 for t in targets]
    else:
        moves = [Move("play", cards, None, Msg("throw {cards}", cards=shown))]
    return _remember(_THROWS, key, moves)


def _group_moves(group: str, counts: tuple[int, ...], firsts: tuple[str, ...]) -> list[Move]:
    """PK-12's representative throws for one group of m ≥ 2 cards (``counts`` per member code
    of the group): the whole group once per distinct last card, and one canonical order per
    smaller size k (2 ≤ k < m), each opening with a playable card (``firsts``) and holding as
    many suits as it can. At most 4 + 6 throws, whatever the hand."""
    key = (group, counts, firsts)
    moves = _GROUPS.get(key)
    if moves is not None:
        return moves
    cards = [c for c, k in zip(GROUP_MEMBERS[group], counts, strict=True) for _ in range(k)]
    m = len(cards)
    rr = suit_round_robin(cards)
    have = Counter(cards)
    throws: list[tuple[str, ...]] = []
    for last in dict.fromkeys(rr):
        first = next((f for f in firsts if f != last or have[last] > 1), None)
        if first is None:
            continue
        rest = list(rr)
        rest.remove(first)
        rest.remove(last)
        throws.append((first, *rest, last))
    first = firsts[0]
    rest = list(rr)
    rest.remove(first)
    for k in range(2, m):
        throws.append((first, *rest[:k - 1]))
    moves = [move for t in throws for move in _throw_moves(t)]
    return _remember(_GROUPS, key, moves)


def _openers(state: PikacState, seat: int, distinct: Iterable[str]) -> list[str]:
    """The codes among ``distinct`` that may open a throw now: the yes/no form of
    ``first_card_refusal`` (the same rules, PK-10, PK-11, PK-16, PK-20), written for speed."""
    if state.count:                                                   # PK-11, PK-16
        if state.kd_bar:
            return [c for c in distinct if CLASS[c] == FUNCTION and c not in BARRED_BY_KD]
        return [c for c in distinct if CLASS[c] == FUNCTION]
    if state.stops[seat]:                                             # PK-20
        return [c for c in distinct if CLASS[c] == ACE]
    suit = state.suit                                                 # PK-10, PK-17
    if not suit:
        openers = list(distinct)
    else:
        top = state.pile[-1]
        top_rank = RANK_OF[top] if top != "X" else "-"
        if top_is_function(state):
            if state.chain:                   # a live chain: function cards go on it freely
                openers = [c for c in distinct if ANYWHERE[c] or SUIT_OF[c] == suit
                           or RANK_OF[c] == top_rank or CLASS[c] == FUNCTION]
            else:                             # a dead function card: everything matches it
                openers = [c for c in distinct if ANYWHERE[c] or SUIT_OF[c] == suit
                           or RANK_OF[c] == top_rank]
        elif CLASS[top] == ACE and not state.starter_top:   # on an Ace a function card is free
            openers = [c for c in distinct if ANYWHERE[c] or SUIT_OF[c] == suit
                       or CLASS[c] == FUNCTION or RANK_OF[c] == top_rank]
        else:                                 # normal card, Queen, starter: function by suit
            openers = [c for c in distinct if ANYWHERE[c] or SUIT_OF[c] == suit
                       or (RANK_OF[c] == top_rank and CLASS[c] != FUNCTION)]
    if state.chain and state.kd_bar:                                  # PK-16
        openers = [c for c in openers if c not in BARRED_BY_KD]
    return openers


def legal_moves(state: PikacState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, throws as bounded representatives (module docstring)."""
    if state.phase == "over" or seat == SYSTEM:
        return []
    if state.phase == "deal":
        if seat != state.dealer:
            return []
        top = max_hand_size(state.n)
        sizes = ([7] if top >= 7 else []) + [k for k in range(1, top + 1) if k != 7]
        return [Move("deal", (), str(k), plural_msg("deal {n} card each", "deal {n} cards each",
                                                    k))
                for k in sizes]
    if seat != state.turn:
        return []
    moves: list[Move] = []
    hand = state.hands[seat]
    openers = _openers(state, seat, dict.fromkeys(hand))
    groups: list[str] = []
    for card in openers:
        if card == "KC":
            targets = tuple(kc_targets(state, seat))
            if targets:
                moves += _throw_moves((card,), targets)
        else:
            moves += SINGLE[card]
        group = GROUP[card]
        if group is not None and group not in groups:
            groups.append(group)
    for group in groups:
        members = GROUP_MEMBERS[group]
        counts = tuple([hand.count(c) for c in members])
        if sum(counts) >= 2:
            firsts = tuple([c for c in members if c in openers])
            moves += _group_moves(group, counts, firsts)
    count = state.count
    if count:
        moves.append(_take_move(count))
    elif state.stops[seat]:
        moves.append(_stand_move(state.stops[seat]))
    else:
        moves.append(DRAW)
    return moves


DRAW = Move("draw", (), None, Msg("draw a card"))


_TAKES: dict[int, Move] = {}
_STANDS: dict[int, Move] = {}


def _take_move(count: int) -> Move:
    move = _TAKES.get(count)
    if move is None:
        move = Move("take", (), None, plural_msg("take {n} card", "take {n} cards", count))
        _remember(_TAKES, count, move)
    return move


def _stand_move(left: int) -> Move:
    move = _STANDS.get(left)
    if move is None:
        move = Move("stand", (), None, plural_msg("stand ({n} turn to miss)",
                                                  "stand ({n} turns to miss)", left))
        _remember(_STANDS, left, move)
    return move


#: A Queen or a Joker may go on anything when no draw is pending (PK-10).
ANYWHERE: dict[str, bool] = {c: CLASS[c] == QUEEN or c == "X" for c in CLASS}
#: The moves throwing one card alone, made once (the K♣'s depend on the players it may choose).
SINGLE: dict[str, list[Move]] = {c: _throw_moves((c,)) for c in CLASS if c != "KC"}
