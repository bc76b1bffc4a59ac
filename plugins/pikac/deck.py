"""Pikáč's cards: the deck (PK-1), the three classes (PK-3), which cards may be thrown
together (PK-12) and how cards are named in labels.

Everything here is a table computed once from the card codes, so the hot path (legal moves,
applying a throw) looks a card up instead of parsing it.

Must not know about: the game state, turns, sockets, terminals.
"""

from __future__ import annotations

from cardparty.core.cards import JOKER, JOKER_NAME, SUIT_NAME, SUITS, canasta_deck, pretty
from cardparty.core.i18n import N_, Msg, plural_msg

DECK: tuple[str, ...] = tuple(canasta_deck())          # PK-1: 108 cards
CODES: tuple[str, ...] = tuple(sorted(set(DECK)))

# The classes are codes and words of the language alike (marked for the catalog).
NORMAL = N_("normal")
FUNCTION = N_("function")
QUEEN = N_("queen")
ACE = N_("ace")


def _class_of(card: str) -> str:
    """PK-3: normal 3-6, 8-10, J♥, J♦; function every 2, 7, J♣, J♠, King, Joker; special Q, A."""
    if card == "X" or card[0] in "27K" or card in ("JC", "JS"):
        return FUNCTION
    if card[0] == "Q":
        return QUEEN
    if card[0] == "A":
        return ACE
    return NORMAL


CLASS: dict[str, str] = {c: _class_of(c) for c in CODES}


def _group_of(card: str) -> str | None:
    """PK-12: the cards that may go down together share a group; None: thrown alone.

    Normal cards of one rank (J♥ and J♦ are the normal Jacks), 7s, Aces, Jokers and the pair
    of K♠. Every other function card and every Queen is thrown alone (the Decision for the ranks
    the source does not mention).
    """
    if CLASS[card] == NORMAL:
        return card[0]
    if card[0] in "7A" or card in ("X", "KS"):
        return card if card in ("X", "KS") else card[0]
    return None


GROUP: dict[str, str | None] = {c: _group_of(c) for c in CODES}
#: The codes of each group, sorted.
GROUP_MEMBERS: dict[str, tuple[str, ...]] = {
    g: tuple(c for c in CODES if GROUP[c] == g) for g in set(GROUP.values()) if g is not None}

SUIT_OF: dict[str, str] = {c: ("" if c == "X" else c[1]) for c in CODES}
RANK_OF: dict[str, str] = {c: c[0] for c in CODES}


def suit_name(suit: str) -> str:
    """'hearts' for H; a free suit ("") reads 'free'."""
    return SUIT_NAME.get(suit) or Msg("free")


PRETTY: dict[str, str] = {c: pretty(c) for c in CODES}


def show(cards: tuple[str, ...] | list[str]) -> str | Msg:
    """Cards as a player reads them: '7♥ 7♠', and the Jokers last as a word of his language
    ('7♥ žolík', '2 žolíci'): a message, so that each client names them itself."""
    jokers = sum(c == JOKER for c in cards)
    plain = " ".join([PRETTY[c] for c in cards if c != JOKER])
    if not jokers:
        return plain
    named = JOKER_NAME if jokers == 1 else plural_msg("{n} Joker", "{n} Jokers", jokers)
    return Msg("{cards} {jokers}", cards=plain, jokers=named) if plain else named


def suit_round_robin(cards: list[str]) -> list[str]:
    """The cards reordered so that suits alternate (7♥ 7♠ 7♦ 7♥ ...): a prefix of this order
    holds as many different suits as possible, so the representative throws of PK-12 include
    the four-suit set of 7s whenever the hand has one."""
    by_suit: dict[str, list[str]] = {}
    for c in cards:
        by_suit.setdefault(SUIT_OF[c], []).append(c)
    order: list[str] = []
    queues = [by_suit[s] for s in (*SUITS, "") if s in by_suit]
    while queues:
        for q in queues:
            order.append(q.pop())
        queues = [q for q in queues if q]
    return order
