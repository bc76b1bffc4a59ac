"""Card codes, the three decks, and the ``deck`` table setting.

French cards: rank 2-9, T, J, Q, K, A followed by suit S H D C ("TH" is the ten of hearts);
jokers are "X". Pika cards: colour R Y G B followed by 0-9, S (block), V (reverse) or +2; the
black cards are "W" and "W+4". Two-deck games repeat codes, so hands are lists.

Must not know about: any game's rules, sockets, terminals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardparty.core.i18n import Msg

SUITS = "SHDC"
RANKS = "23456789TJQKA"
JOKER = "X"
PIKA_COLOURS = "RYGB"
#: The suits' order in a sorted hand: black and red alternate, so neighbours differ.
SORT_SUITS = "SHCD"
PIKA_SYMBOLS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "V", "+2")

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Words of the language (messages: each client says them in its own), not codes.
SUIT_NAME = {"S": Msg("spades"), "H": Msg("hearts"), "D": Msg("diamonds"), "C": Msg("clubs")}
RANK_NAME = {"T": "10"}
JOKER_NAME = Msg("Joker")     # the card's name is a word: each client says it in its language
COLOUR_NAME = {"R": Msg("red"), "Y": Msg("yellow"), "G": Msg("green"), "B": Msg("blue")}


def french_deck() -> list[str]:
    """One 52-card deck, suit by suit."""
    return [r + s for s in SUITS for r in RANKS]


def canasta_deck() -> list[str]:
    """108 cards: two French decks and four jokers (Pikáč PK-1, Kakhead KH-1)."""
    return french_deck() * 2 + [JOKER] * 4


def piquet_deck() -> list[str]:
    """32 cards, 7 to A in four suits (Piquet PQ-1)."""
    return [r + s for s in SUITS for r in "789TJQKA"]


def pika_deck() -> list[str]:
    """108 cards (Pika PI-1): per colour one 0 and two of 1-9, Block, Reverse, +2; four W, four
    W+4."""
    deck: list[str] = []
    for c in PIKA_COLOURS:
        deck.append(c + "0")
        for sym in PIKA_SYMBOLS[1:]:
            deck += [c + sym, c + sym]
    return deck + ["W"] * 4 + ["W+4"] * 4


def ordered_deck(full: Sequence[str], given: Sequence[str] | None, rng: random.Random
                 ) -> list[str]:
    """The deck a game deals from, top first.

    Without ``given``: ``full`` shuffled by ``rng``. With ``given`` (the ``deck`` setting): those
    cards on top in that order, then the rest of ``full`` shuffled. A partial order is enough
    for a test to build an exact position. Raises ValueError if ``given`` holds a card the deck
    has not, or more copies of it than the deck has.
    """
    if not given:
        deck = list(full)
        rng.shuffle(deck)
        return deck
    rest = Counter(full)
    for code in given:
        if rest[code] <= 0:
            raise ValueError(Msg("setting deck: {card} is not in this game's deck (or "
                                 "appears too often)", card=repr(code)))
        rest[code] -= 1
    tail = [c for c in full if _take(rest, c)]
    rng.shuffle(tail)
    return list(given) + tail


def _take(counter: Counter[str], code: str) -> bool:
    if counter[code] > 0:
        counter[code] -= 1
        return True
    return False


def rank(code: str) -> str:
    """The rank of a French card ("T" for "TH"); "X" for a joker."""
    return code[0]


def suit(code: str) -> str:
    """The suit of a French card ("H" for "TH"); "" for a joker."""
    return code[1:] if code != JOKER else ""


def pretty(code: str, ascii_only: bool = False) -> str:
    """A card as a player reads it: "10♥", "K♣", "Joker"; Pika cards as "R7", "W+4".

    ``ascii_only`` gives "10h", "Kc" for terminals without Unicode.
    """
    if code == JOKER:
        return JOKER_NAME
    if len(code) == 2 and code[0] in RANKS and code[1] in SUITS:
        r = RANK_NAME.get(code[0], code[0])
        return r + (code[1].lower() if ascii_only else SUIT_SYMBOL[code[1]])
    return code


def is_french(code: str) -> bool:
    """A French card other than the joker ("TH", not "X", not "R7")."""
    return len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def sort_key(code: str) -> tuple[int, str, int, str]:
    """The order a hand is sorted in: French cards by suit then rank, Pika cards by colour
    then symbol, anything else (the joker, the black cards) after them."""
    if is_french(code):
        return (0, str(SORT_SUITS.index(code[1])), RANKS.index(code[0]), code)
    if code[:1] in PIKA_COLOURS and len(code) > 1:
        rest = code[1:]
        return (1, code[0], int(rest) if rest.isdigit() else 20 + len(rest), code)
    return (2, code, 0, code)


def colour(code: str) -> str:
    """What colour a card is printed in: "red" or "black" for a French card (by its suit),
    "black" for the joker and Pika's black cards, a Pika card's colour letter (R, Y, G, B)
    for the others; "" for a code of no deck here."""
    if is_french(code):
        return "red" if code[1] in "HD" else "black"
    if code == JOKER or code.startswith("W"):
        return "black"
    return code[0] if code[:1] in PIKA_COLOURS else ""


def pretty_all(codes: Sequence[str], ascii_only: bool = False) -> str:
    return " ".join(pretty(c, ascii_only) for c in codes)


def reorder_hand(hands: list[list[str]], seat: int, order: Sequence[str]) -> str | None:
    """Put ``seat``'s hand in the player's own ``order`` (PI-14, and the same in every game):
    the reason it is refused, or None once done. Only the order changes, never a card."""
    if sorted(order) != sorted(hands[seat]):
        return Msg("the new order must hold exactly the cards of your hand")
    hands[seat] = list(order)
    return None
