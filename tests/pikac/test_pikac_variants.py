"""The two house rules, each reversing one Decision of docs/rules/pikac.md, per table.

pikac-play-drawn reverses PK-9's Decision (a drawn card that fits may be thrown at once);
pikac-live-starter reverses PK-6's (the starter card acts as if the dealer threw it).
"""

from __future__ import annotations

import pytest

from cardparty.core.contract import Move
from cardparty.core.table import IllegalMove, Table

from .helpers import (
    count,
    counters,
    deal,
    draw,
    hand,
    kinds,
    plays,
    refusal,
    stops,
    suit,
    take,
    throw,
    turn,
)

DRAWN = ("pikac-play-drawn",)
LIVE = ("pikac-live-starter",)


# --- pikac-play-drawn (PK-9) -----------------------------------------------------------------

def test_pk9_variant_a_drawn_card_that_fits_may_be_thrown_at_once() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], stock=("9H", "TC"), variants=DRAWN)
    draw(table, 0)
    assert turn(table) == 0
    assert table.view(0)["drawn"] == "9H"
    assert kinds(table, 0) == {"play", "keep"}
    assert plays(table, 0) == {(("9H",), None)}
    assert refusal(table, 0, "3C") == "after drawing you may play only the card you drew (9♥)"
    assert "drawn already" in (table.refusal(0, Move("draw")) or "")
    throw(table, 0, "9H")
    assert turn(table) == 1 and suit(table) == "hearts"


def test_pk9_variant_the_drawer_may_keep_the_card_and_the_turn_ends() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], stock=("QS", "TC"), variants=DRAWN)
    draw(table, 0)
    assert plays(table, 0) == {(("QS",), s) for s in "SHDC"}    # a Queen still names a suit
    table.play(0, Move("keep"))
    assert turn(table) == 1 and hand(table, 0) == ["3C", "4C", "QS"]


def test_pk9_variant_a_drawn_card_that_does_not_fit_ends_the_turn() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], stock=("9S", "TC"), variants=DRAWN)
    draw(table, 0)
    assert turn(table) == 1
    assert "you have not drawn" in (table.refusal(1, Move("keep")) or "")


def test_pk9_variant_survives_save_and_restore() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], stock=("9S", "9H"), variants=DRAWN)
    draw(table, 0)                                            # 9♠ does not fit
    twin = Table.restore(table.save())
    draw(twin, 1)                                             # 9♥ does
    assert turn(twin) == 1 and kinds(twin, 1) == {"play", "keep"}


def test_pk9_without_the_variant_the_drawn_card_waits() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], stock=("9H", "TC"))
    draw(table, 0)
    assert turn(table) == 1
    with pytest.raises(IllegalMove, match="not your turn"):
        throw(table, 0, "9H")


# --- pikac-live-starter (PK-6) ---------------------------------------------------------------

def test_pk6_variant_a_starter_seven_makes_the_first_player_face_two() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], starter="7H", variants=LIVE)
    assert turn(table) == 0 and count(table) == 2
    assert kinds(table, 0) == {"take"}
    take(table, 0)
    assert len(hand(table, 0)) == 4


def test_pk6_variant_a_starter_is_a_function_card_for_matching() -> None:
    table = deal([["KS", "4C"], ["4D", "6C"]], starter="2D", variants=LIVE)
    assert count(table) == 0 and "chain" in counters(table)
    assert refusal(table, 0, "KS") is None                   # any function card on it


def test_pk6_variant_a_starter_joker_makes_five() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"]], starter="X", variants=LIVE)
    assert count(table) == 5 and suit(table) == "free"


def test_pk6_variant_a_starter_ace_stops_the_first_player() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"], ["6D", "8C"]], starter="AH", variants=LIVE)
    assert stops(table) == [1, 0, 0]
    assert turn(table) == 0 and kinds(table, 0) == {"stand"}


def test_pk10_variant_a_live_starter_ace_takes_any_function_card() -> None:
    table = deal([["3C", "4C"], ["KS", "6C"], ["6D", "8C"]], starter="AH", variants=LIVE)
    table.play(0, Move("stand"))
    assert turn(table) == 1 and refusal(table, 1, "KS") is None
    plain = deal([["KS", "4C"], ["4D", "6C"]], starter="AH")
    assert "on a starter must be of the suit in force" in (refusal(plain, 0, "KS") or "")


def test_pk6_variant_a_starter_two_clubs_turns_the_direction() -> None:
    table = deal([["3C", "4C"], ["4D", "6C"], ["6D", "8C"], ["8D", "9C"]], starter="2C",
                 variants=LIVE)
    assert counters(table)["direction"] == "counter-clockwise"
    assert turn(table) == 2                                   # the dealer (3)'s right


def test_pk6_variant_a_starter_k_clubs_passes_and_is_not_remembered() -> None:
    table = deal([["JC", "4C"], ["7D", "6C"], ["6D", "8C"]], starter="KC", variants=LIVE)
    assert turn(table) == 0 and count(table) == 0
    assert "last K♣ thrown by seat" not in counters(table)
    throw(table, 0, "JC")                                     # acts as 2♦: no K♣ thrower
    assert turn(table) == 1


def test_pk6_variant_a_queen_or_normal_starter_is_unchanged() -> None:
    table = deal([["3S", "3H"], ["4D", "6C"]], starter="QH", bottom="9S", variants=LIVE)
    assert suit(table) == "spades" and count(table) == 0 and turn(table) == 0
    normal = deal([["3C", "4C"], ["4D", "6C"]], starter="9H", variants=LIVE)
    assert count(normal) == 0 and "chain" not in counters(normal)
