"""Building exact Piquet deals through the embedding API.

Seat 1 deals (the ``dealer`` setting), so seat 0 is elder. The ``deck`` setting is read as
elder's 12 cards, the dealer's 12, talon 1 (5, top first) and talon 2 (3, top first), as
docs/rules/piquet.md says. ``exchanged`` builds the deal backwards from the hands each player
holds after the exchange: elder discards 3 and takes the top of talon 1, the dealer discards 5
and takes the rest, so every scenario starts at the declarations with hands the test names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardparty.core.cards import piquet_deck
from cardparty.core.contract import Move
from cardparty.core.table import Table, open_table

ELDER, YOUNGER = 0, 1
DECK = piquet_deck()


def dealt(elder: Sequence[str], younger: Sequence[str], talon1: Sequence[str] = (),
          talon2: Sequence[str] = (), variants: Sequence[str] = (), seed: int = 3,
          **settings: Any) -> Table:
    """A one-deal table (unless ``deals`` says otherwise) dealt from the named cards."""
    deck = [*elder, *younger, *talon1, *talon2]
    return open_table("piquet", 2, {"dealer": YOUNGER, "deals": 1, "deck": deck, **settings},
                      variants, seed)


def exchanged(elder: Sequence[str], younger: Sequence[str],
              elder_out: Sequence[str] | None = None,
              younger_out: Sequence[str] | None = None, in_full: bool = True,
              **kw: Any) -> Table:
    """A table just past the exchange, elder holding ``elder`` and the dealer ``younger``.

    ``elder_out`` (3 cards) and ``younger_out`` (5) are the discards, by default the unnamed
    cards in deck order. With spoken declarations (PQ-16) both then declare and answer in
    full (the first move listed), unless ``in_full`` is False: the table waits for elder."""
    assert len(elder) == 12 and len(younger) == 12
    rest = [c for c in DECK if c not in elder and c not in younger]
    elder_out = list(elder_out if elder_out is not None else rest[:3])
    younger_out = list(younger_out if younger_out is not None else
                       [c for c in rest if c not in elder_out][:5])
    assert len(set([*elder, *younger, *elder_out, *younger_out])) == 32
    table = dealt([*elder[:9], *elder_out], [*younger[:7], *younger_out],
                  [*elder[9:], *younger[7:9]], younger[9:], **kw)
    for c in elder_out:
        table.play(ELDER, Move("discard", (c,)))
    table.play(ELDER, Move("take"))
    for c in younger_out:
        table.play(YOUNGER, Move("discard", (c,)))
    assert sorted(table.view(ELDER)["hand"]) == sorted(elder)
    assert sorted(table.view(YOUNGER)["hand"]) == sorted(younger)
    if in_full:
        declare_in_full(table)
    return table


def declare_in_full(table: Table) -> None:
    """PQ-16: each player, in turn, declares or answers everything in full."""
    while table.view(None)["phase"] == "declare":
        seat = table.to_move()[0]
        table.play(seat, table.legal_moves(seat)[0])


def say(table: Table, seat: int, choice: str | None, *cards: str, kind: str = "") -> None:
    """A spoken declaration (kind ``declare``) or answer (``answer``) by ``seat``."""
    kind = kind or ("declare" if seat == ELDER else "answer")
    table.play(seat, Move(kind, tuple(cards), choice))


def said(table: Table) -> list[tuple[int, str]]:
    """The declarations as both players heard them."""
    return [(e["seat"], e["words"]) for e in table.view(None)["said"]]


def log(table: Table) -> list[tuple[int, str, int]]:
    """The deal's score log as (seat, category, points)."""
    return [(e["seat"], e["category"], e["points"]) for e in table.view(None)["log"]]


def declarations(table: Table) -> list[tuple[int, str, int]]:
    """The log without the points in play."""
    return [e for e in log(table) if e[1] not in ("lead", "trick", "last trick")]


def play(table: Table, seat: int, *cards: str) -> list[dict[str, Any]]:
    return table.play(seat, Move("play", tuple(cards)))


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
