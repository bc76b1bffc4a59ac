"""PQ-5 and PQ-16: under the classic laws the player whose best sequence is good scores every
other sequence he holds, and the same for sets; equal ones included (two tierces to the ace
count 6). At the Czech table only the best one scores.

Deals are built with the ``deck`` setting (tests/piquet/helpers.py): seat 0 is elder. Spoken
declarations are made in full unless a test says otherwise.
"""

from __future__ import annotations

from cardparty.core.contract import Move
from cardparty.core.table import Table
from tests.piquet.helpers import ELDER, YOUNGER, declarations, exchanged, said, say

CLASSIC = ("piquet-classic",)

# Elder: tierces to the ace in spades and in hearts, nothing else in a row; younger no sequence
# (his point of four diamonds and his three tens win the point and the set).
TWO_TIERCES = ["AS", "KS", "QS", "AH", "KH", "QH", "JD", "9D", "7D", "TC", "9C", "7C"]
NO_SEQUENCE = ["JS", "TS", "7S", "JH", "TH", "8H", "7H", "AD", "KD", "TD", "8D", "AC"]
# Elder: quarts to the king in spades, hearts and diamonds; younger three tierces to the nine.
THREE_QUARTS = ["KS", "QS", "JS", "TS", "KH", "QH", "JH", "TH", "KD", "QD", "JD", "TD"]
THREE_TIERCES = ["9S", "8S", "7S", "9H", "8H", "7H", "9D", "8D", "7D", "AS", "AH", "AD"]
# Elder: tierces to the queen in all four suits (and so three quatorzes); younger no sequence.
FOUR_TIERCES = ["QS", "JS", "TS", "QH", "JH", "TH", "QD", "JD", "TD", "QC", "JC", "TC"]
ACES_KINGS = ["AS", "KS", "9S", "8S", "AH", "KH", "9H", "8H", "AD", "KD", "9D", "8D"]


def shown(table: Table, seat: int) -> set[str]:
    """The cards of ``seat`` his scoring declarations showed (PQ-9), as the other sees them."""
    return set(table.view(1 - seat)["players"][seat]["zones"]["shown"])


def test_pq16_two_equal_tierces_to_the_ace_both_score_6() -> None:
    table = exchanged(TWO_TIERCES, NO_SEQUENCE, variants=CLASSIC)
    assert declarations(table) == [(YOUNGER, "point", 4), (ELDER, "sequence", 3),
                                   (ELDER, "sequence", 3), (YOUNGER, "set", 3)]
    assert shown(table, ELDER) == {"AS", "KS", "QS", "AH", "KH", "QH"}


def test_pq5_at_the_czech_table_only_one_of_two_equal_tierces_scores() -> None:
    for settings in ({}, {"spoken": True}):
        table = exchanged(TWO_TIERCES, NO_SEQUENCE, **settings)
        assert declarations(table) == [(YOUNGER, "point", 4), (ELDER, "sequence", 3),
                                       (YOUNGER, "set", 3)], settings


def test_pq16_three_equal_quarts_to_the_king_score_12() -> None:
    table = exchanged(THREE_QUARTS, THREE_TIERCES, variants=CLASSIC)
    assert declarations(table) == [(ELDER, "point", 4), (ELDER, "sequence", 4),
                                   (ELDER, "sequence", 4), (ELDER, "sequence", 4),
                                   (YOUNGER, "set", 3)]


def test_pq16_four_equal_tierces_score_12_beside_three_quatorzes() -> None:
    """A hand holds at most one set of a rank, and the deck four cards of each, so no two
    sets are ever equal, in one hand or between two: every set of the winner is another rank
    (here three quatorzes, 42)."""
    table = exchanged(FOUR_TIERCES, ACES_KINGS, variants=CLASSIC)
    assert declarations(table) == [(YOUNGER, "point", 4)] + [(ELDER, "sequence", 3)] * 4 + [
        (ELDER, "set", 14)] * 3
    assert shown(table, ELDER) == set(FOUR_TIERCES)


def test_pq16_younger_not_good_with_a_quart_scores_his_equal_quart_too() -> None:
    # Younger's quarts to the king in spades and hearts beat elder's tierce to the ace.
    elder = ["AD", "KD", "QD", "9S", "7S", "9H", "7H", "9C", "7C", "AS", "AH", "AC"]
    younger = ["KS", "QS", "JS", "TS", "KH", "QH", "JH", "TH", "JD", "9D", "7D", "KC"]
    table = exchanged(elder, younger, variants=CLASSIC, in_full=False)
    table.play(ELDER, Move("declare", (), "all"))
    table.play(YOUNGER, Move("answer", (), "all"))
    assert said(table)[2:4] == [(ELDER, "tierce"), (YOUNGER, "not good")]
    sequences = [e for e in declarations(table) if e[1] == "sequence"]
    assert sequences == [(YOUNGER, "sequence", 4), (YOUNGER, "sequence", 4)]


def test_pq16_younger_declaring_after_elder_has_no_sequence_scores_his_equal_tierces() -> None:
    # Elder holds no sequence; younger declares one tierce to the ace and scores the other
    # beside it.
    table = exchanged(NO_SEQUENCE, TWO_TIERCES, variants=CLASSIC, in_full=False)
    say(table, ELDER, "point", "AD", "KD", "TD", "8D")
    assert said(table) == [(ELDER, "point of 4"), (YOUNGER, "good"), (ELDER, "no sequence")]
    say(table, YOUNGER, "sequence", "AH", "KH", "QH", kind="declare")
    sequences = [e for e in declarations(table) if e[1] == "sequence"]
    assert sequences == [(YOUNGER, "sequence", 3), (YOUNGER, "sequence", 3)]
    assert {"AS", "KS", "QS", "AH", "KH", "QH"} <= shown(table, YOUNGER)


def test_pq16_a_sunk_sequence_still_scores_nothing_beside_the_equal_ones() -> None:
    # Elder holds a quart to the king in diamonds and two tierces to the ace; he declares a
    # tierce (sinking the quart): both tierces score, the quart does not.
    elder = ["AS", "KS", "QS", "AH", "KH", "QH", "KD", "QD", "JD", "TD", "8C", "7C"]
    younger = ["JS", "TS", "8S", "JH", "TH", "8H", "AD", "9D", "7D", "AC", "KC", "TC"]
    table = exchanged(elder, younger, variants=CLASSIC, in_full=False)
    say(table, ELDER, "point", "KD", "QD", "JD", "TD")
    say(table, ELDER, "sequence", "AS", "KS", "QS")
    assert said(table) == [(ELDER, "point of 4"), (YOUNGER, "good"), (ELDER, "tierce"),
                           (YOUNGER, "good")]
    sequences = [e for e in declarations(table) if e[1] == "sequence"]
    assert sequences == [(ELDER, "sequence", 3), (ELDER, "sequence", 3)]
    scored = [e["combination"] for e in table.events
              if e["type"] == "score" and e["category"] == "sequence"]
    assert [(c["suit"], c["top"]) for c in scored] == [("S", "A"), ("H", "A")]
