"""The legal-move list and the refusal agree (PK-9 ... PK-21), and the list stays bounded.

The list is built by a fast yes/no test and representative orders (plugins/pikac/legality.py);
the refusal is the worded authority. Along seeded random games this checks, position by
position, that a single card with any choice is listed exactly when the refusal accepts it,
that draw/take/stand are listed exactly when accepted, and that every other order of a listed
throw of several cards is accepted when it opens with a playable card and refused when not.
"""

from __future__ import annotations

import random
from collections import Counter

from cardparty.core.contract import Move
from cardparty.core.table import Table
from cardparty.plugins.pikac.deck import DECK

from .helpers import deal, take, throw

BOUND = 184                     # docs/rules/pikac.md: 75 singles + 108 group throws + 1


def _choices(players: int) -> list[str | None]:
    return [None, "S", "H", "D", "C", "hold", "spread", *map(str, range(players))]


def _check_position(table: Table, seat: int, rng: random.Random) -> None:
    moves = table.legal_moves(seat)
    assert len(moves) <= BOUND
    listed = {(m.kind, m.cards, m.choice) for m in moves}
    hand = table.view(seat)["hand"]
    for card in dict.fromkeys(hand):
        for choice in _choices(table.players):
            move = Move("play", (card,), choice)
            accepted = table.refusal(seat, move) is None
            assert accepted == (("play", (card,), choice) in listed), (move, listed)
    for kind in ("draw", "take", "stand"):
        accepted = table.refusal(seat, Move(kind)) is None
        assert accepted == ((kind, (), None) in listed), kind
    singles_ok = {m.cards[0] for m in moves if m.kind == "play" and len(m.cards) == 1}
    for m in moves:
        if len(m.cards) < 2:
            continue
        cards = list(m.cards)
        rng.shuffle(cards)
        shuffled = Move("play", tuple(cards), m.choice)
        reason = table.refusal(seat, shuffled)
        assert (reason is None) == (cards[0] in singles_ok), (shuffled, reason)


def test_listing_and_refusal_agree_along_random_games() -> None:
    positions = 0
    for game in range(12):
        players = 2 + game % 7
        table = Table("pikac", players, seed=500 + game)
        rng = random.Random(game)
        while table.result() is None and len(table.journal) < 600:
            seat = table.to_move()[0]
            if len(table.journal) % 3 == 1:
                _check_position(table, seat, rng)
                positions += 1
            moves = table.legal_moves(seat)
            table.play(seat, moves[rng.randrange(len(moves))])
    assert positions > 1000


def test_pk12_a_hand_of_many_groups_stays_within_the_bound() -> None:
    """A hand for a long list: eight 4s, 5s, 6s, 7s and Aces, one 3 of each suit, the four
    Queens, four Jokers and K♣ (53 cards at two players), on a free suit so that all opens."""
    big = [r + s for r in "4567A" for s in "SHDC"] * 2 + ["3S", "3H", "3D", "3C"]
    big += ["QS", "QH", "QD", "QC", "X", "X", "X", "X", "KC"]
    other = sorted((Counter(DECK) - Counter(big) - Counter(["9H"])).elements())[:53]
    table = deal([big, other], starter="9H")
    throw(table, 0, "X")
    take(table, 1)
    moves = table.legal_moves(0)
    assert len(moves) == (
        21 + 16 + 8 + 1                 # singles: 3-7 × 4 suits and X; Q × 4 suits; A × 2; K♣
        + 6 + 4 * 10 + 2 * 10 + 2       # groups: the 3s; 4-7; Aces with two modes; three X
        + 1)                            # draw
    assert len(moves) <= BOUND
