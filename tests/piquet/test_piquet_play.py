"""PQ-11 ... PQ-14 on hand-built deals: following suit without trumps, runs of cards that
cannot lose, points in play as Cavendish reads them, the cards and capot."""

from __future__ import annotations

import pytest

from cardparty.core.contract import Move
from cardparty.core.table import IllegalMove
from tests.piquet.helpers import ELDER, YOUNGER, exchanged, log, play

# Point and sequence equal; elder discarded the TS, so his 9S cannot lose.
TIES_ELDER = ["AS", "KS", "QS", "JS", "9S", "TH", "TD", "TC", "7D", "8D", "7C", "8C"]
TIES_YOUNGER = ["AH", "KH", "QH", "JH", "9H", "7S", "8S", "9D", "KD", "9C", "KC", "AD"]
TIES_OUT = ["TS", "7H", "8H"]

# Elder: six top spades and six low red cards; the dealer: the six red honours.
SIX_ELDER = ["AS", "KS", "QS", "JS", "TS", "9S", "7H", "8H", "9H", "7D", "8D", "9D"]
SIX_YOUNGER = ["AH", "KH", "QH", "AD", "KD", "QD", "8S", "7S", "7C", "8C", "9C", "TC"]
SIX_OUT = (["TH", "JH", "TD"], ["JD", "JC", "QC", "KC", "AC"])

CAPOT_ELDER = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH", "QH", "JH"]
CAPOT_YOUNGER = ["AD", "KD", "QD", "JD", "TD", "9D", "AC", "KC", "QC", "JC", "TC", "9C"]


def ties():
    return exchanged(TIES_ELDER, TIES_YOUNGER, elder_out=TIES_OUT)


def play_six_six(**settings):
    table = exchanged(SIX_ELDER, SIX_YOUNGER, *SIX_OUT, **settings)
    play(table, ELDER, "AS", "KS", "QS", "JS", "TS", "9S")
    for card in ("8S", "7S", "7C", "8C", "9C", "TC"):
        play(table, YOUNGER, card)
    for low, high in (("7H", "AH"), ("8H", "KH"), ("9H", "QH"), ("7D", "AD"), ("8D", "KD"),
                      ("9D", "QD")):
        if table.to_move() == (ELDER,):
            play(table, ELDER, low)
            play(table, YOUNGER, high)
        else:
            play(table, YOUNGER, high)
            play(table, ELDER, low)
    return table


def test_pq11_elder_leads_first_and_the_follower_must_follow_suit():
    table = ties()
    assert table.to_move() == (ELDER,)
    play(table, ELDER, "7D")
    with pytest.raises(IllegalMove, match="must follow suit: you hold diamonds"):
        play(table, YOUNGER, "AH")
    assert {m.cards[0] for m in table.legal_moves(YOUNGER)} == {"9D", "KD", "AD"}


def test_pq11_no_trumps_the_higher_card_of_the_suit_led_wins_and_leads_next():
    table = ties()
    play(table, ELDER, "7D")
    events = play(table, YOUNGER, "9D")
    trick = [e for e in events if e["type"] == "trick"][0]
    assert trick["seat"] == YOUNGER and table.to_move() == (YOUNGER,)
    play(table, YOUNGER, "AH")
    play(table, ELDER, "TH")
    play(table, YOUNGER, "9H")
    play(table, ELDER, "7C")                  # no hearts left: any card, and it cannot win
    assert table.to_move() == (YOUNGER,)


def test_pq13_the_leader_scores_each_lead_the_second_player_each_trick_he_wins():
    table = ties()
    before = len(log(table))
    play(table, ELDER, "7D")
    play(table, YOUNGER, "9D")                # younger wins elder's lead: 1 each
    play(table, YOUNGER, "AH")
    play(table, ELDER, "TH")                  # the leader wins his own lead: 1, not 2
    assert log(table)[before:] == [(ELDER, "lead", 1), (YOUNGER, "trick", 1),
                                   (YOUNGER, "lead", 1)]


def test_pq12_a_run_of_cards_that_cannot_lose_judged_from_what_the_leader_sees():
    table = ties()
    runs = [m.cards for m in table.legal_moves(ELDER) if len(m.cards) > 1]
    assert runs == [("AS", "KS", "QS", "JS", "9S")]   # the TS is among elder's own discards
    with pytest.raises(IllegalMove, match="TH could lose a trick"):
        play(table, ELDER, "AS", "TH")
    assert table.refusal(ELDER, Move("play", ("9S", "AS"))) is None


def test_pq12_the_opponent_follows_each_card_of_the_run_in_turn():
    table = ties()
    before = len(log(table))
    play(table, ELDER, "AS", "KS", "QS", "JS", "9S")
    assert table.view(YOUNGER)["zones"]["trick"] == ["AS"]
    assert table.view(YOUNGER)["zones"]["run"] == ["KS", "QS", "JS", "9S"]
    for card in ("7S", "8S", "9D", "KD", "AD"):
        assert table.to_move() == (YOUNGER,)
        play(table, YOUNGER, card)
    assert log(table)[before:] == [(ELDER, "lead", 1)] * 5
    assert table.view(None)["counters"]["tricks"] == [5, 0]
    assert table.to_move() == (ELDER,)


def test_pq14_capot_scores_40_instead_of_10():
    table = exchanged(CAPOT_ELDER, CAPOT_YOUNGER)
    play(table, ELDER, *CAPOT_ELDER)
    for card in CAPOT_YOUNGER:
        play(table, YOUNGER, card)
    entries = log(table)
    assert entries[-2:] == [(ELDER, "last trick", 1), (ELDER, "capot", 40)]
    assert ("cards" not in {c for _, c, _ in entries})
    assert table.result().scores == (26 + 30 + 12 + 1 + 40, 0)     # with a pique on the way


def test_pq14_six_tricks_each_the_cards_are_divided_and_nobody_scores_them():
    table = play_six_six()
    entries = log(table)
    assert table.view(None)["counters"]["tricks"] == [6, 6]
    assert entries[-1] == (YOUNGER, "last trick", 1)
    assert not {"cards", "capot"} & {c for _, c, _ in entries}
    divided = [e for e in table.events if e["type"] == "declare" and e["category"] == "cards"]
    assert divided and divided[0]["equal"]


def test_pq13_pq15_the_last_trick_worth_three_as_a_table_option():
    assert log(play_six_six(last_trick=3))[-1] == (YOUNGER, "last trick", 2)


def test_pq14_seven_tricks_score_the_cards():
    elder = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7H", "8H", "9H", "7D", "8D"]
    younger = ["AH", "KH", "QH", "AD", "KD", "QD", "7S", "7C", "8C", "9C", "TC", "JC"]
    table = exchanged(elder, younger, ["TH", "JH", "9D"], ["TD", "JD", "QC", "KC", "AC"])
    play(table, ELDER, *elder[:7])
    for card in ("7S", "7C", "8C", "9C", "TC", "JC", "QD"):
        play(table, YOUNGER, card)
    play(table, ELDER, "7H")
    play(table, YOUNGER, "AH")
    for high, low in (("KH", "8H"), ("QH", "9H"), ("AD", "7D"), ("KD", "8D")):
        play(table, YOUNGER, high)
        play(table, ELDER, low)
    assert table.view(None)["counters"]["tricks"] == [7, 5]
    assert log(table)[-2:] == [(YOUNGER, "last trick", 1), (ELDER, "cards", 10)]


def test_pq13_the_deal_ends_with_its_story_told_to_both_players():
    table = play_six_six()
    story = [e for e in table.events if e["type"] == "deal_over"][0]
    text = table.hook.cardparty_describe(event=story, names=["Eva", "Petr"])
    assert text.splitlines()[0] == "deal 1 over:"
    assert "Eva: point of 6 in spades (60), 6" in text
    assert "Eva: sixième to the ace in spades, 16" in text
    assert "this deal: Eva 29, Petr 7" in text
    assert table.result() is not None and table.result().places == (1, 2)
