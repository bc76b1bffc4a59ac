"""The variant mechanism: a house-rule plugin that reverses PI-9's Decision, per table."""

from __future__ import annotations

import pytest

from cardparty.core.contract import Move
from cardparty.core.table import IllegalMove, Table, TableError, open_table

HANDS = ["R+2", "B1", "B2", "W+4", "G+2", "Y1"]          # seat 0: R+2 B1 B2, seat 1: W+4 G+2 Y1


def _table(variants: list[str]) -> Table:
    return open_table("pika", 2, {"deck": [*HANDS, "R5"], "hand_size": 3, "dealer": 1},
                      variants=variants, seed=1)


def test_pi9_variant_strict_plus4_bars_a_plus4_on_a_pending_plus2() -> None:
    table = _table(["pika-strict-plus4"])
    table.play(0, Move("play", ("R+2",)))
    plays = {m.cards for m in table.legal_moves(1) if m.kind == "play"}
    assert plays == {("G+2",)}
    with pytest.raises(IllegalMove, match="house rule: a \\+4 may not be chained"):
        table.play(1, Move("play", ("W+4",), "G"))


def test_pi9_the_same_position_without_the_variant_allows_the_plus4() -> None:
    table = _table([])
    table.play(0, Move("play", ("R+2",)))
    assert ("W+4",) in {m.cards for m in table.legal_moves(1) if m.kind == "play"}
    table.play(1, Move("play", ("W+4",), "G"))
    assert table.view(None)["counters"]["pending draw"] == 6


def test_the_variant_does_not_reach_other_tables() -> None:
    strict = _table(["pika-strict-plus4"])
    plain = _table([])
    strict.play(0, Move("play", ("R+2",)))
    plain.play(0, Move("play", ("R+2",)))
    assert len(strict.legal_moves(1)) < len(plain.legal_moves(1))


def test_the_variant_still_allows_plus4_when_no_plus2_is_pending() -> None:
    table = open_table("pika", 2, {"deck": ["W+4", "B1", "B2", "Y7", "Y8", "Y9", "R5"],
                                   "hand_size": 3, "dealer": 1},
                       variants=["pika-strict-plus4"], seed=1)
    assert ("W+4",) in {m.cards for m in table.legal_moves(0)}


def test_a_variant_for_another_game_or_unknown_is_refused() -> None:
    with pytest.raises(TableError, match="no variant 'nope' for pika"):
        open_table("pika", 2, variants=["nope"])


def test_the_variant_survives_save_and_restore() -> None:
    table = _table(["pika-strict-plus4"])
    table.play(0, Move("play", ("R+2",)))
    twin = Table.restore(table.save())
    assert twin.variant_ids == ("pika-strict-plus4",)
    assert {m.cards for m in twin.legal_moves(1) if m.kind == "play"} == {("G+2",)}
