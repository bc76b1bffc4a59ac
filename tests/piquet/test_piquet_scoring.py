"""PQ-6 ... PQ-10 as pure functions: what a hand declares, who wins a category, and where a
repique or pique falls in a score log."""

from __future__ import annotations

from cardparty.plugins.piquet.scoring import (
    decide,
    derive_bonuses,
    is_carte_blanche,
    point_of,
    sequences_of,
    sets_of,
)


def test_pq6_the_point_is_the_longest_suit_then_the_higher_value():
    hand = ["AS", "9S", "8S", "7S", "KH", "QH", "JH", "TH", "7D", "8D", "9C", "TC"]
    point = point_of(hand, 4)
    assert point is not None and point.key == (4, 40) and point.detail["suit"] == "H"
    assert point_of(["AS", "KS", "QS", "AH", "KH", "QH"], 4) is None
    assert point_of(["AS", "KS", "QS", "AH", "KH", "9H"], 1).key == (3, 31)


def test_pq7_sequences_score_3_4_15_16_17_18_and_are_named():
    spades = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
    for length, points, name in ((3, 3, "tierce"), (4, 4, "quart"), (5, 15, "quint"),
                                 (6, 16, "sixième"), (7, 17, "septième"),
                                 (8, 18, "huitième")):
        best = sequences_of(spades[:length])[0]
        assert (best.points, best.text) == (points, f"{name} to the ace in spades")
    assert sequences_of(["AS", "KS", "JS", "TS"]) == []


def test_pq7_a_longer_sequence_beats_a_higher_one_and_the_top_card_breaks_equal_length():
    hand = ["9H", "8H", "7H", "TH", "AS", "KS", "QS", "QD", "JD", "TD"]
    found = sequences_of(hand)
    assert [c.text for c in found] == ["quart to the ten in hearts", "tierce to the ace in spades",
                                       "tierce to the queen in diamonds"]


def test_pq8_sets_of_tens_and_up_four_beat_three_then_rank():
    hand = ["TS", "TH", "TD", "TC", "AS", "AH", "AD", "9S", "9H", "9D", "9C", "KS"]
    found = sets_of(hand, 4)
    assert [(c.key, c.points) for c in found] == [((4, 3), 4), ((3, 7), 3)]
    assert sets_of(hand, 14)[0].points == 14
    assert sets_of(["9S", "9H", "9D", "9C"], 4) == []


def test_pq5_the_better_holding_scores_equal_ones_score_nothing():
    a = sequences_of(["AS", "KS", "QS", "7H", "8H", "9H"])
    b = sequences_of(["AD", "KD", "QD"])
    verdict = decide("sequence", [a, b], every=False)
    assert verdict.equal and verdict.winner is None
    verdict = decide("sequence", [a, []], every=False)
    assert verdict.winner == 0 and len(verdict.scored) == 1
    assert len(decide("sequence", [a, []], every=True).scored) == 2
    assert decide("sequence", [[], []], every=False).best == (None, None)


def test_pq4_carte_blanche_is_a_hand_without_king_queen_or_jack():
    assert is_carte_blanche(["AS", "TS", "9H", "7D"])
    assert not is_carte_blanche(["AS", "JD"])


def test_pq10_repique_needs_30_from_declarations_before_the_opponent_scores():
    log = [(0, "point", 6), (0, "sequence", 16), (0, "set", 4), (1, "lead", 1)]
    assert derive_bonuses(log) == []
    log = [(0, "point", 8), (0, "sequence", 18), (0, "set", 4), (0, "repique", 60)]
    assert derive_bonuses(log) == [(2, 0, "repique")]
    log = [(1, "point", 5), (0, "sequence", 18), (0, "set", 14)]
    assert derive_bonuses(log) == []


def test_pq10_pique_counts_play_points_but_not_the_cards_and_never_after_a_repique():
    log = [(0, "point", 7), (0, "sequence", 17), (0, "set", 3), (0, "lead", 1), (0, "lead", 1),
           (0, "lead", 1)]
    assert derive_bonuses(log) == [(5, 0, "pique")]
    log = [(0, "point", 7), (0, "sequence", 17), (0, "lead", 1), (0, "cards", 10)]
    assert derive_bonuses(log) == []
    log = [(0, "point", 8), (0, "sequence", 18), (0, "set", 4), (0, "repique", 60),
           (0, "lead", 1)]
    assert derive_bonuses(log) == [(2, 0, "repique")]


def test_pq4_pq10_a_carte_blanche_bars_the_opponent_from_pique_and_repique():
    log = [(1, "carte blanche", 10), (0, "point", 8), (0, "sequence", 18), (0, "set", 4)]
    assert derive_bonuses(log) == []
    log = [(0, "carte blanche", 10), (0, "point", 6), (0, "sequence", 16)]
    assert derive_bonuses(log) == [(2, 0, "repique")]
