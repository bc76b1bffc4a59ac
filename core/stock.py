"""A face-down stock that refills from the discard pile (Pika PI-6, Pikáč PK-24).

When the stock runs out, every pile card but the top one (the card in play) is shuffled into
a new stock. Drawing more than exists gives what there is: cards are never created.

Must not know about: any game's rules, sockets, terminals.
"""

from __future__ import annotations

import random


def refill(stock: list[str], pile: list[str], rng: random.Random, keep: int = 1) -> bool:
    """Shuffle the pile, less its top ``keep`` cards, under an empty ``stock``. In place.

    Returns True if any card moved. The pile's top is its last element.
    """
    if stock or len(pile) <= keep:
        return False
    moved = pile[:-keep] if keep else pile[:]
    del pile[: len(moved)]
    rng.shuffle(moved)
    stock.extend(moved)
    return True


def draw(stock: list[str], pile: list[str], n: int, rng: random.Random, keep: int = 1
         ) -> list[str]:
    """Take up to ``n`` cards from the top of ``stock`` (its last element), refilling it from
    ``pile`` whenever it runs dry. Fewer than ``n`` only when stock and pile are exhausted."""
    drawn: list[str] = []
    while len(drawn) < n:
        if not stock and not refill(stock, pile, rng, keep):
            break
        take = min(n - len(drawn), len(stock))
        drawn.extend(reversed(stock[-take:]))
        del stock[-take:]
    return drawn
