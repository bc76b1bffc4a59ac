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
from typing import Any

from cardparty.core.cards import SUITS, pretty
from cardparty.core.contract import SYSTEM, Move
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

MODES = ("hold", "spread")
KINDS = ("deal", "play", "draw", "take", "stand", "keep")
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
    rank = "" if top == "X" else f" or any {RANK_WORD.get(top[0], top[0])}"
    return f"a card of {suit_name(state.suit)}{rank}"


RANK_WORD = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


def _mismatch(state: PikacState, card: str, rule: str = "PK-10") -> str:
    top = state.pile[-1]
    return (f"{pretty(card)} matches neither the suit in force ({suit_name(state.suit)}) "
            f"nor the rank of the top card {pretty(top)}: play {_what_matches(state)}, a "
            f"Queen or a Joker ({rule})")


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
        return (f"{pretty(card)} does not go on the dead {pretty(top)} (its count was taken): "
                f"after a taken count every card matches the suit in force "
                f"({suit_name(state.suit)}) or its rank; play {_what_matches(state)}, a "
                f"Queen or a Joker (PK-17)")
    if CLASS[top] == ACE and not state.starter_top:
        return None
    if SUIT_OF[card] == state.suit:
        return None
    return (f"{pretty(card)} does not go on {pretty(top)}: the first function card on a "
            f"{'starter' if state.starter_top else CLASS[top] + ' card'} must be of the suit in "
            f"force ({suit_name(state.suit)}), rank does not count; play a function card of "
            f"{suit_name(state.suit)}, a Queen or a Joker (PK-10)")


def first_card_refusal(state: PikacState, seat: int, card: str) -> str | None:
    """Why ``card`` may not open a throw of ``seat`` now (PK-10, PK-11, PK-16, PK-17, PK-20)."""
    cls = CLASS[card]
    if state.count:                                                   # PK-11
        if cls == QUEEN:
            return (f"a Queen cannot be thrown on a pending count of {state.count}: continue "
                    "the chain with a function card or take the cards")
        if cls == ACE:
            return (f"an Ace cannot be thrown on a pending count of {state.count}: continue "
                    "the chain with a function card or take the cards")
        if cls == NORMAL:
            return (f"a count of {state.count} is pending: continue the chain with a function "
                    "card or take the cards")
        if state.kd_bar and card in BARRED_BY_KD:                     # PK-16
            return f"the K♦ earlier in this chain bars {pretty(card)} for the rest of the chain"
        return None
    if state.stops[seat]:                                             # PK-20
        if cls != ACE:
            return (f"you are stopped ({state.stops[seat]} turn"
                    f"{'s' if state.stops[seat] > 1 else ''} to miss): stand, or counter "
                    "with Aces")
        return None
    if cls == QUEEN or card == "X":
        return None
    if cls == FUNCTION:
        if state.chain and state.kd_bar and card in BARRED_BY_KD:    # PK-16
            return f"the K♦ earlier in this chain bars {pretty(card)} for the rest of the chain"
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
            return "a Queen must name the suit in force (S, H, D or C)"
        return None
    if cls == ACE:
        if choice not in MODES:
            return ("Aces need a mode: hold (the next player stands that many turns) or "
                    "spread (each of the next players stands one turn)")
        return None
    if last == "KC":
        targets = kc_targets(state, seat)
        if not targets:
            return "K♣ needs another player still holding cards to choose"
        if choice is None or not choice.lstrip("-").isdigit():
            return "K♣ must choose the player who gets the turn and the count (a seat number)"
        target = int(choice)
        if not 0 <= target < state.n:
            return f"K♣ cannot choose seat {target}: there is no such seat"
        if target == seat:
            return "K♣ must choose another player, not yourself"
        if state.status[target] == PROBATION:
            return f"K♣ cannot choose seat {target}: that player is out on probation"
        if state.status[target] != IN:
            return f"K♣ cannot choose seat {target}: that player has finished"
        return None
    if choice is not None:
        return f"{pretty(last)} takes no choice"
    return None


def throw_refusal(state: PikacState, seat: int, cards: tuple[str, ...], choice: str | None
                  ) -> str | None:
    """Why ``seat`` may not throw ``cards`` (in this order) with ``choice`` now; None if it
    may. PK-12: one rank of a group that may go together, the first card playable, the last
    card setting the suit."""
    if not cards:
        return "a throw needs at least one card"
    unknown = [c for c in cards if c not in CLASS]
    if unknown:
        return f"{unknown[0]!r} is not a Pikáč card"
    need = Counter(cards)
    have = Counter(state.hands[seat])
    for card, k in need.items():
        if have[card] < k:
            return f"you do not hold {'that many ' if have[card] else ''}{pretty(card)}"
    if len(cards) > 1:
        group = GROUP[cards[0]]
        if group is None:
            return f"{pretty(cards[0])} is thrown alone (PK-12)"
        odd = next((c for c in cards if GROUP[c] != group), None)
        if odd is not None:
            if group == "KS" or odd[0] == "K":
                return "the only Kings thrown together are the pair of K♠ (PK-12)"
            return (f"{pretty(odd)} cannot join {pretty(cards[0])}: several cards at once "
                    "must be of one rank (PK-12)")
    reason = first_card_refusal(state, seat, cards[0])
    if reason is not None:
        return reason
    return choice_refusal(state, seat, cards, choice)


def refusal(state: PikacState, seat: int, move: Move) -> str | None:
    """Why ``move`` is illegal for ``seat`` now, in words; None if legal (the authority)."""
    if state.phase == "over":
        return "the round is over"
    if seat == SYSTEM:
        return "Pikáč has no timers"
    if not 0 <= seat < state.n:
        return f"there is no seat {seat}"
    kind = move.kind
    if state.phase == "deal":
        if seat != state.dealer:
            return "the dealer is choosing the hand size"
        if kind != "deal":
            return "the dealer must first choose the hand size and deal (PK-5)"
        top = max_hand_size(state.n)
        if move.cards or move.choice is None or not move.choice.isdigit() \
                or not 1 <= int(move.choice) <= top:
            return f"choose a hand size from 1 to {top} cards (PK-5)"
        return None
    if kind not in KINDS:
        return f"Pikáč has no move {kind!r}"
    if kind == "deal":
        return "the cards have been dealt"
    if seat != state.turn:
        return "it is not your turn"
    if kind == "play":
        return throw_refusal(state, seat, move.cards, move.choice)
    if move.cards or move.choice is not None:
        return f"{kind} takes no cards and no choice"
    if kind == "take":
        return None if state.count else "there is no count to take (PK-17)"
    if kind == "draw":
        if state.count:
            return (f"a count of {state.count} is pending: continue the chain or take the "
                    f"{state.count} cards (PK-11)")
        if state.stops[seat]:
            return "you are stopped: stand, or counter with Aces (PK-20)"
        return None
    if kind == "stand":
        if state.count:
            return "a pending count is dealt with first: continue the chain or take it (PK-20)"
        return None if state.stops[seat] else "you are not stopped"
    return f"Pikáč has no move {kind!r}"


# --- the legal-move list ---------------------------------------------------------------------
#
# The list is rebuilt after every move, so it is the simulation's hot path: openers are tested
# with a boolean (the worded refusal is built only when a move is refused), and the Move objects
# of a throw, labels included, are made once and kept (they are immutable values).

_THROWS: dict[tuple[Any, ...], list[Move]] = {}
_GROUPS: dict[tuple[Any, ...], list[Move]] = {}
_CACHE_LIMIT = 200_000


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
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
        moves = [Move("play", cards, s, f"throw {shown} naming {suit_name(s)}") for s in SUITS]
    elif cls == ACE:
        k = len(cards)
        turns = "a turn" if k == 1 else f"{k} turns"
        moves = [Move("play", cards, "hold", f"throw {shown}: the next player stands {turns}"),
                 Move("play", cards, "spread", f"throw {shown}: the next {k} player"
                                               f"{'s' if k > 1 else ''} stand one turn")]
    elif last == "KC":
        moves = [Move("play", cards, str(t), f"throw {shown} choosing seat {t}")
                 for t in targets]
    else:
        moves = [Move("play", cards, None, f"throw {shown}")]
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
        return [Move("deal", (), str(k), f"deal {k} card{'s' if k > 1 else ''} each")
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


DRAW = Move("draw", (), None, "draw a card")


_TAKES: dict[int, Move] = {}
_STANDS: dict[int, Move] = {}


def _take_move(count: int) -> Move:
    move = _TAKES.get(count)
    if move is None:
        move = Move("take", (), None, f"take {count} card{'s' if count > 1 else ''}")
        _remember(_TAKES, count, move)
    return move


def _stand_move(left: int) -> Move:
    move = _STANDS.get(left)
    if move is None:
        move = Move("stand", (), None, f"stand ({left} turn{'s' if left > 1 else ''} to miss)")
        _remember(_STANDS, left, move)
    return move


#: A Queen or a Joker may go on anything when no draw is pending (PK-10).
ANYWHERE: dict[str, bool] = {c: CLASS[c] == QUEEN or c == "X" for c in CLASS}
#: The moves throwing one card alone, made once (the K♣'s depend on the players it may choose).
SINGLE: dict[str, list[Move]] = {c: _throw_moves((c,)) for c in CLASS if c != "KC"}
