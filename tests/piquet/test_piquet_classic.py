"""PQ-16: the classic (Portland) laws as a variant plugin on the same game."""

from __future__ import annotations

import random

import pytest

from cardparty.core.contract import Move
from cardparty.core.simulate import play_out
from cardparty.core.table import IllegalMove, Table, open_table
from cardparty.plugins.piquet.classic import rubicon_count
from tests.piquet.helpers import ELDER, YOUNGER, dealt, declarations, exchanged

CLASSIC = ("piquet-classic",)
ELDER_HAND = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH", "QH", "JH"]
YOUNGER_HAND = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "AC", "KC", "QC", "JC"]
TALON1 = ["TH", "9H", "8H", "7H", "TC"]
TALON2 = ["9C", "8C", "7C"]


def test_pq16_elder_may_exchange_a_single_card():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2, variants=CLASSIC)
    assert not any(m.kind == "take" for m in table.legal_moves(ELDER))
    table.play(ELDER, Move("discard", ("7S",)))
    table.play(ELDER, Move("take"))
    assert "TH" in table.view(ELDER)["hand"]


def test_pq16_younger_takes_at_least_one_and_may_leave_the_rest_unseen():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2, variants=CLASSIC)
    table.play(ELDER, Move("discard", ("7S",)))
    table.play(ELDER, Move("take"))
    with pytest.raises(IllegalMove, match="at least 1"):
        table.play(YOUNGER, Move("take"))
    table.play(YOUNGER, Move("discard", ("7D",)))
    table.play(YOUNGER, Move("discard", ("8D",)))
    table.play(YOUNGER, Move("take"))
    assert {"9H", "8H"} <= set(table.view(YOUNGER)["hand"])
    for seat in (None, ELDER, YOUNGER):
        view = table.view(seat)
        assert view["zones"]["left"] == 5
        assert not {"7H", "TC", "9C", "8C", "7C"} & set(view["hand"])
    left = [z for z in table.zones() if z.name == "left"][0]
    assert sorted(left.cards) == sorted(["7H", "TC", "9C", "8C", "7C"])


def test_pq16_a_point_needs_no_four_cards():
    elder = ["AS", "KS", "9S", "AH", "KH", "9H", "AD", "KD", "9D", "AC", "KC", "9C"]
    younger = ["QS", "JS", "8S", "QH", "JH", "8H", "QD", "JD", "8D", "QC", "JC", "8C"]
    table = exchanged(elder, younger, variants=CLASSIC)
    assert declarations(table)[0] == (ELDER, "point", 3)


def test_pq16_the_winner_scores_every_sequence_and_set_and_a_quatorze_is_14():
    elder = ["AS", "KS", "QS", "JS", "TS", "AH", "KH", "QH", "AD", "KD", "AC", "7C"]
    younger = ["JH", "TH", "9H", "8H", "QD", "JD", "TD", "9D", "QC", "JC", "TC", "9C"]
    table = exchanged(elder, younger, elder_out=["9S", "8S", "7S"], variants=CLASSIC)
    assert declarations(table) == [(ELDER, "point", 5), (ELDER, "sequence", 15),
                                   (ELDER, "sequence", 3), (ELDER, "set", 14),
                                   (ELDER, "repique", 60), (ELDER, "set", 3)]


def test_pq16_rubicon_count_difference_plus_100_or_sum_plus_100_for_a_rubiconed_loser():
    assert rubicon_count([180, 120]) == (160, -160)
    assert rubicon_count([90, 150]) == (-340, 340)
    assert rubicon_count([100, 100]) == (0, 0)


def test_pq16_the_partie_is_six_deals_counted_in_the_rubicon_way():
    table = open_table("piquet", 2, {"dealer": 0}, CLASSIC, seed=11)
    result = play_out(table, random.Random(3))
    deals = [e for e in table.events if e["type"] == "deal_over"]
    assert len(deals) == 6
    totals = deals[-1]["totals"]
    assert result.scores == rubicon_count(totals)
    partie = [e for e in table.events if e["type"] == "partie"]
    assert partie and partie[0]["scores"] == list(rubicon_count(totals))
    told = table.hook.cardparty_describe(event=partie[0], names=["Eva", "Petr"])
    assert told.startswith(("Rubicon count: ", "the partie is drawn"))


def test_pq16_a_saved_classic_table_keeps_the_classic_laws():
    table = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2, variants=CLASSIC)
    table.play(ELDER, Move("discard", ("7S",)))
    twin = Table.restore(table.save())
    assert any(m.kind == "take" for m in twin.legal_moves(ELDER))
    plain = dealt(ELDER_HAND, YOUNGER_HAND, TALON1, TALON2)
    plain.play(ELDER, Move("discard", ("7S",)))
    assert not any(m.kind == "take" for m in Table.restore(plain.save()).legal_moves(ELDER))
