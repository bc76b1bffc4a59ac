"""Building exact Pikáč positions with the ``deck`` setting.

Deal order (docs/rules/pikac.md): the dealer chooses the hand size (PK-5); seat 0 takes the
first cards of the deck order, then seat 1, ...; the next card is the starter (PK-6); the cards
after it are the stock, top first. ``bottom`` fixes the stock's last card (the one a Queen
starter shows) by giving the whole deck. The dealer is the last seat unless told, so seat 0
starts (PK-7).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.table import Table, open_table
from cardparty.plugins.pikac.deck import DECK


def deal(hands: list[list[str]], starter: str = "5H", stock: tuple[str, ...] = (),
         bottom: str | None = None, dealer: int | None = None,
         variants: tuple[str, ...] = (), seed: int = 7) -> Table:
    size = len(hands[0])
    assert all(len(h) == size for h in hands), "every hand has the dealer's one size (PK-5)"
    order = [c for h in hands for c in h] + [starter, *stock]
    if bottom is not None:
        rest = Counter(DECK) - Counter(order) - Counter([bottom])
        order += sorted(rest.elements()) + [bottom]
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    table = open_table("pikac", players, {"deck": order, "dealer": dealer},
                       variants=variants, seed=seed)
    table.play(dealer, Move("deal", (), str(size)))
    return table


def throw(table: Table, seat: int, *cards: str, choice: str | None = None) -> None:
    table.play(seat, Move("play", tuple(cards), choice))


def take(table: Table, seat: int) -> None:
    table.play(seat, Move("take"))


def draw(table: Table, seat: int) -> None:
    table.play(seat, Move("draw"))


def refusal(table: Table, seat: int, *cards: str, choice: str | None = None) -> str | None:
    return table.refusal(seat, Move("play", tuple(cards), choice))


def turn(table: Table) -> int | None:
    return table.view(None)["turn"]


def count(table: Table) -> int:
    return table.view(None)["counters"]["pending draw"]


def counters(table: Table) -> dict[str, Any]:
    return table.view(None)["counters"]


def suit(table: Table) -> str:
    return counters(table)["suit in force"]


def plays(table: Table, seat: int) -> set[tuple[tuple[str, ...], str | None]]:
    return {(m.cards, m.choice) for m in table.legal_moves(seat) if m.kind == "play"}


def kinds(table: Table, seat: int) -> set[str]:
    return {m.kind for m in table.legal_moves(seat)}


def status(table: Table, seat: int) -> str:
    return table.view(None)["players"][seat]["status"]


def filler(n: int, avoid: tuple[str, ...] = ()) -> list[str]:
    """``n`` normal clubs and diamonds low cards, for hands whose other cards do not matter."""
    pool = [r + s for s in "CD" for r in "34689T"] * 2
    out = [c for c in pool if c not in avoid]
    return out[:n]


def hand(table: Table, seat: int) -> list[str]:
    return list(table.view(seat)["hand"])


def stops(table: Table) -> list[int]:
    return [p["stops"] for p in table.view(None)["players"]]
