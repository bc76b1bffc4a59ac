"""Kakhead's ranks: their order (KH-1), what may be played on the card in force (KH-5, KH-9)
and which card that is. The rules and the sampler's reading of the history (``infer``) both
ask here.

Must not know about: moves, the state, sockets, terminals, other games.
"""

from __future__ import annotations

#: KH-1: the order, low to high. 2 and 3 stand outside it (KH-9).
ORDER = {"4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13,
         "A": 14, "X": 15}
#: KH-9: playable on anything.
ALWAYS = frozenset("23T")


def _fits_table() -> dict[str | None, dict[str, bool]]:
    """KH-5, KH-9: FITS[card in force][rank played]."""
    table: dict[str | None, dict[str, bool]] = {}
    ranks = [*ORDER, "2", "3"]
    for force in [None, *ORDER, "2"]:              # a 3 is never in force
        row: dict[str, bool] = {}
        for r in ranks:
            if r in ALWAYS or force is None or force == "2":
                ok = True                               # 2, 3, 10 on anything; 2 resets
            elif force == "X":
                ok = r == "4"                           # only 4 (2, 3, 10) on a Joker
            elif force == "7":
                ok = ORDER[r] <= 7                      # after a 7: 7 or lower
            else:
                ok = ORDER[r] >= ORDER[force]           # same or higher
            row[r] = ok
        table[force] = row
    return table


FITS = _fits_table()


def in_force(pile: list[str]) -> str | None:
    """KH-9: the rank of the card in force, the top card that is not a 3 (3s are transparent);
    None on an empty pile or one of 3s only (anything may follow)."""
    for card in reversed(pile):
        if card[0] != "3":
            return card[0]
    return None
