"""PQ-4 ... PQ-10 and the PQ-15 options on hand-built deals: what each hand declares, who
scores, and the repique and pique that follow from the order of the score log."""

from __future__ import annotations

import random

from cardparty.plugins.piquet.scoring import derive_bonuses
from tests.piquet.helpers import ELDER, YOUNGER, declarations, exchanged, log, play, types

# Elder: huitième of spades (point 8, sequence 18) and four tens: 30 from declarations alone.
HUITIEME = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "TH", "TD", "TC", "7H"]
OTHERS = ["8H", "9H", "JH", "QH", "KH", "AH", "7D", "8D", "9D", "JD", "QD", "KD"]

# Elder: huitième (26) and three queens (3): 29. The dealer: a carte blanche as dealt.
SPADES_QUEENS = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "QH", "JH", "QD", "JD"]
BLANCHE = ["7H", "8H", "9H", "TH", "AH", "7D", "8D", "9D", "TC", "JC", "QC", "AC"]
BLANCHE_OUT = ["TD", "AD", "7C", "8C", "9C"]
KINGS_OUT = ["KH", "KD", "KC"]


def test_pq10_thirty_from_declarations_alone_is_a_repique_worth_60():
    table = exchanged(HUITIEME, OTHERS)
    assert declarations(table) == [(ELDER, "point", 8), (ELDER, "sequence", 18),
                                   (ELDER, "set", 4), (ELDER, "repique", 60)]
    assert table.view(ELDER)["players"][ELDER]["score"] == 90


def test_pq10_the_dealer_scores_a_repique_when_elder_declares_nothing():
    table = exchanged(OTHERS, HUITIEME)
    assert declarations(table) == [(YOUNGER, "point", 8), (YOUNGER, "sequence", 18),
                                   (YOUNGER, "set", 4), (YOUNGER, "repique", 60)]


def test_pq10_elder_reaching_30_with_his_first_lead_scores_a_pique():
    table = exchanged(SPADES_QUEENS, BLANCHE, elder_out=KINGS_OUT, younger_out=BLANCHE_OUT,
                      carte_blanche=False)
    assert declarations(table) == [(ELDER, "point", 8), (ELDER, "sequence", 18),
                                   (ELDER, "set", 3)]
    play(table, ELDER, "AS")
    assert log(table)[-2:] == [(ELDER, "lead", 1), (ELDER, "pique", 30)]
    assert table.view(None)["players"][ELDER]["score"] == 60


def test_pq4_carte_blanche_scores_10_and_cancels_the_pique():
    table = exchanged(SPADES_QUEENS, BLANCHE, elder_out=KINGS_OUT, younger_out=BLANCHE_OUT)
    assert declarations(table)[0] == (YOUNGER, "carte blanche", 10)
    play(table, ELDER, "AS")
    assert log(table)[-1] == (ELDER, "lead", 1)
    assert "pique" not in {c for _, c, _ in log(table)}


def test_pq4_carte_blanche_is_announced_when_elder_has_discarded():
    table = exchanged(SPADES_QUEENS, BLANCHE, elder_out=KINGS_OUT, younger_out=BLANCHE_OUT)
    after_take = [e for e in table.events if e["type"] in ("take", "score")][:2]
    assert [(e["type"], e["seat"]) for e in after_take] == [("take", ELDER), ("score", YOUNGER)]
    assert after_take[1]["category"] == "carte blanche"


def test_pq10_a_pique_that_the_dealers_declaration_prevents():
    younger = ["7H", "8H", "9H", "KH", "KD", "KC", "7D", "8D", "9D", "TC", "AC", "AH"]
    table = exchanged(SPADES_QUEENS, younger, elder_out=["TH", "TD", "AD"],
                      younger_out=["7C", "8C", "9C", "JC", "QC"])
    assert declarations(table) == [(ELDER, "point", 8), (ELDER, "sequence", 18),
                                   (YOUNGER, "set", 3)]
    play(table, ELDER, "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S")
    for card in ("7H", "8H", "9H", "KD", "7D"):
        play(table, YOUNGER, card)
    assert table.view(None)["players"][ELDER]["score"] >= 30
    assert "pique" not in {c for _, c, _ in log(table)}


def test_pq5_equal_point_and_equal_sequence_score_nothing_and_the_set_decides():
    elder = ["AS", "KS", "QS", "JS", "9S", "TH", "TD", "TC", "7D", "8D", "7C", "8C"]
    younger = ["AH", "KH", "QH", "JH", "9H", "7S", "8S", "9D", "KD", "9C", "KC", "AD"]
    table = exchanged(elder, younger, elder_out=["TS", "7H", "8H"])
    said = [e for e in table.events if e["type"] in ("declare", "score")]
    assert [(e["category"], e["seat"], e.get("equal")) for e in said] == [
        ("point", None, True), ("sequence", None, True), ("set", YOUNGER, None)]
    assert said[0]["text"] == ("equal points (point of 5 in spades (50) and point of 5 in "
                               "hearts (50)): nobody scores")
    assert said[1]["text"] == ("equal sequences (quart to the ace in spades and quart to the "
                               "ace in hearts): nobody scores")
    assert said[1]["combinations"] == [{"size": 4, "suit": "S", "top": "A"},
                                       {"size": 4, "suit": "H", "top": "A"}]
    assert declarations(table) == [(YOUNGER, "set", 3)]


def test_pq6_a_point_needs_four_cards_at_the_czech_table():
    elder = ["AS", "KS", "9S", "AH", "KH", "9H", "AD", "KD", "9D", "AC", "KC", "9C"]
    younger = ["QS", "JS", "8S", "QH", "JH", "8H", "QD", "JD", "8D", "QC", "JC", "8C"]
    table = exchanged(elder, younger)
    said = [e for e in table.events if e["type"] == "declare"]
    assert said[0]["category"] == "point" and said[0]["text"] == "nobody holds a point"


def test_pq6_equal_length_the_higher_value_wins_the_point():
    elder = ["AS", "QS", "9S", "8S", "7S", "AH", "KD", "QD", "JC", "9C", "8H", "TD"]
    younger = ["KH", "QH", "JH", "TH", "9H", "KS", "8D", "AD", "TC", "QC", "KC", "AC"]
    table = exchanged(elder, younger)
    point = [e for e in table.events if e.get("category") == "point"][0]
    assert (point["seat"], point["points"], point["combination"]) == (
        YOUNGER, 5, {"size": 5, "suit": "H", "value": 49})


def test_pq5_only_the_best_sequence_and_set_count_at_the_czech_table():
    elder = ["AS", "KS", "QS", "JS", "TS", "AH", "KH", "QH", "AD", "KD", "AC", "7C"]
    younger = ["JH", "TH", "9H", "8H", "QD", "JD", "TD", "9D", "QC", "JC", "TC", "9C"]
    table = exchanged(elder, younger, elder_out=["9S", "8S", "7S"])
    assert declarations(table) == [(ELDER, "point", 5), (ELDER, "sequence", 15),
                                   (ELDER, "set", 4)]


def test_pq9_the_scoring_combinations_are_shown_to_both_players():
    table = exchanged(HUITIEME, OTHERS)
    seen_by_younger = table.events_for(YOUNGER)
    sequence = [e for e in seen_by_younger if e.get("category") == "sequence"][0]
    assert sequence["what"] == "huitième to the ace in spades"
    assert sequence["cards"] == ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
    shown = table.view(YOUNGER)["players"][ELDER]["zones"]["shown"]
    assert sorted(shown) == sorted(["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "TH",
                                    "TD", "TC"])
    assert "7H" not in shown
    play(table, ELDER, "AS")
    assert "AS" not in table.view(YOUNGER)["players"][ELDER]["zones"]["shown"]


def test_pq9_declarations_come_in_order_point_sequence_set_before_the_first_lead():
    table = exchanged(HUITIEME, OTHERS)
    said = [e["category"] for e in table.events if e["type"] in ("declare", "score")]
    assert said == ["point", "sequence", "set", "repique"]
    assert table.view(ELDER)["phase"] == "play" and table.to_move() == (ELDER,)


def test_pq15_carte_rouge_scores_20_and_counts_towards_the_repique():
    elder = ["AH", "KH", "QH", "JH", "9H", "KD", "QD", "JD", "TD", "9D", "KS", "KC"]
    younger = ["AS", "QS", "JS", "TS", "AC", "QC", "JC", "TC", "AD", "8D", "TH", "8H"]
    table = exchanged(elder, younger, elder_out=["9S", "8S", "7S"],
                      younger_out=["9C", "8C", "7C", "7H", "7D"], carte_rouge=True)
    assert declarations(table) == [(ELDER, "point", 5), (ELDER, "sequence", 15),
                                   (ELDER, "set", 4), (ELDER, "carte rouge", 20),
                                   (ELDER, "repique", 60)]
    plain = exchanged(elder, younger, elder_out=["9S", "8S", "7S"],
                      younger_out=["9C", "8C", "7C", "7H", "7D"])
    assert declarations(plain) == [(ELDER, "point", 5), (ELDER, "sequence", 15),
                                   (ELDER, "set", 4)]


def test_pq15_premiums_add_200_to_a_repique():
    table = exchanged(HUITIEME, OTHERS, premiums=True)
    assert declarations(table)[-2:] == [(ELDER, "repique", 60), (ELDER, "premium", 200)]


def test_pq10_the_log_alone_says_where_the_premium_fell():
    for table in (exchanged(HUITIEME, OTHERS),
                  exchanged(SPADES_QUEENS, BLANCHE, elder_out=KINGS_OUT,
                            younger_out=BLANCHE_OUT, carte_blanche=False)):
        play(table, ELDER, "AS")
        entries = log(table)
        found = derive_bonuses(entries)
        assert len(found) == 1
        index, seat, kind = found[0]
        assert entries[index + 1] == (seat, kind, 60 if kind == "repique" else 30)


def test_pq9_every_score_is_an_event_both_players_see():
    table = exchanged(HUITIEME, OTHERS)
    play(table, ELDER, "AS")
    for seat in (ELDER, YOUNGER, None):
        scores = [(e["seat"], e["category"], e["points"]) for e in table.events_for(seat)
                  if e["type"] == "score"]
        assert scores == log(table)
    assert "score" in types(table.events)


def test_pq9_a_bot_searching_the_unseen_cards_keeps_the_shown_ones_where_they_are():
    table = exchanged(HUITIEME, OTHERS)
    for seed in range(5):
        twin = table.clone()
        twin.state = table.determinize(YOUNGER, random.Random(seed))
        assert twin.view(YOUNGER) == table.view(YOUNGER)
        assert set(HUITIEME) - {"7H"} <= set(twin.view(ELDER)["hand"])
