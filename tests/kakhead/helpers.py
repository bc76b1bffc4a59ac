"""Building exact Kakhead positions through the embedding API.

``deal`` stacks the deck (the ``deck`` setting): per seat, in blocks, 3 blind, 3 face-up and 3
hand cards, seat 0 first, then the stock top first; unnamed blind and face-up cards are quiet
ones (9s, Js, Qs) so they never take part in a scenario. ``position`` builds a later position
(an empty stock, face-up and blind cards in play) that would take a hundred moves to reach
from a deal: it edits a saved table, and checks that the zones still hold the whole deck, so
no card is created or lost by the edit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgpack

from cardparty.core.cards import canasta_deck
from cardparty.core.contract import Move
from cardparty.core.table import Table, open_table

QUIET = [r + s for r in "9JQ" for s in "SHDC"] * 2


def _fill(cards: Sequence[str] | None, pool: list[str]) -> list[str]:
    if cards is not None:
        return list(cards)
    return [pool.pop() for _ in range(3)]


def deal(hands: Sequence[Sequence[str]], faceup: Sequence[Sequence[str] | None] | None = None,
         blind: Sequence[Sequence[str] | None] | None = None, stock: Sequence[str] = (),
         dealer: int | None = None, variants: Sequence[str] = (), seed: int = 7,
         ready: bool = True, settings: dict[str, Any] | None = None) -> Table:
    """A table dealt from a stacked deck; by default every seat has said ready (KH-3) and the
    dealer is the last seat, so seat 0 is the dealer's left (KH-4)."""
    n = len(hands)
    faceup = faceup or [None] * n
    blind = blind or [None] * n
    named = Counter(c for group in (*hands, *faceup, *blind) if group for c in group)
    named.update(stock)
    pool: list[str] = []
    for c in QUIET:                      # the quiet cards not named, as many as are left
        if named[c] > 0:
            named[c] -= 1
        else:
            pool.append(c)
    order: list[str] = []
    for s in range(n):
        order += _fill(blind[s], pool) + _fill(faceup[s], pool) + list(hands[s])
    order += list(stock)
    table = open_table("kakhead", n, {"deck": order, "dealer": n - 1 if dealer is None
                                      else dealer, **(settings or {})}, variants, seed)
    if ready:
        for s in range(n):
            table.play(s, Move("ready"))
    return table


def position(hands: Sequence[Sequence[str]], faceup: Sequence[Sequence[str]] | None = None,
             blind: Sequence[Sequence[str]] | None = None, stock: Sequence[str] = (),
             pile: Sequence[str] = (), turn: int = 0, finished: Sequence[int] = (),
             force_count: int = 1, idle: int = 0, variants: Sequence[str] = (),
             settings: dict[str, Any] | None = None) -> Table:
    """A table in the play phase with exactly these zones (stock top last, pile top last);
    every other card of the deck is burned. ``force_count``: how many cards the play in force
    had (k eights); ``idle``: moves already made without progress (KH-12); ``settings``: table
    settings besides the dealer (e.g. ``offer_after``)."""
    n = len(hands)
    table = open_table("kakhead", n, {"dealer": n - 1, **(settings or {})}, variants, seed=1)
    data = msgpack.unpackb(table.save(), raw=False, strict_map_key=False)
    state = data["state"]
    state.update(phase="play", hands=[list(h) for h in hands],
                 faceup=[list(f) for f in (faceup or [[]] * n)],
                 blind=[list(b) for b in (blind or [[]] * n)], stock=list(stock),
                 pile=list(pile), turn=turn, finished=list(finished), ready=[True] * n,
                 force_count=force_count, idle=idle)
    used = Counter(c for zone in (*state["hands"], *state["faceup"], *state["blind"],
                                  state["stock"], state["pile"]) for c in zone)
    rest = Counter(canasta_deck()) - used
    assert not used - Counter(canasta_deck()), "the position names more cards than the deck"
    state["burned"] = sorted(rest.elements())
    twin = Table.restore(msgpack.packb(data, use_bin_type=True))
    total = Counter(c for z in twin.zones() for c in z.cards)
    assert total == Counter(canasta_deck())
    return twin


def play(table: Table, seat: int, *cards: str) -> list[dict]:
    """``seat`` plays ``cards`` (any order the rules accept, listed or not)."""
    return table.play(seat, Move("play", tuple(cards)))


def refusal(table: Table, seat: int, *cards: str) -> str | None:
    return table.refusal(seat, Move("play", tuple(cards)))


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
