"""The fully worked deal of docs/rules/piquet.md, played through the engine: if the rules
change, the documented scores must change with them."""

from __future__ import annotations

from cardparty.core.contract import Move
from tests.piquet.helpers import ELDER, YOUNGER, dealt, log, play

EVA = ["AS", "KS", "QS", "9S", "AH", "7H", "8H", "9D", "8D", "7D", "8C", "7C"]
PETR = ["KC", "QC", "9C", "KH", "JH", "QD", "TS", "8S", "7S", "9H", "JD", "TD"]
TALON1 = ["AD", "JS", "AC", "TH", "QH"]
TALON2 = ["JC", "TC", "KD"]
TRICKS = [("AH", "QH"), ("AD", "KD"), ("AC", "9C"), ("9S", "KH"), ("TH", "TC"), ("9D", "JC"),
          ("8C", "QC")]


def worked_deal():
    table = dealt(EVA, PETR, TALON1, TALON2)
    for card in ("7H", "8H", "8D", "7D"):
        table.play(ELDER, Move("discard", (card,)))
    table.play(ELDER, Move("take"))
    for card in ("7S", "9H", "JD", "TD"):
        table.play(YOUNGER, Move("discard", (card,)))
    return table


def test_the_worked_deal_declarations():
    table = worked_deal()
    assert log(table) == [(ELDER, "point", 5), (YOUNGER, "sequence", 15), (ELDER, "set", 4)]
    texts = [e["text"] for e in table.view(None)["log"]]
    assert texts == ["point of 5 in spades (50)", "quint to the king in clubs",
                     "quatorze of aces (four aces)"]


def test_the_worked_deal_play_and_every_score():
    table = worked_deal()
    play(table, ELDER, "AS", "KS", "QS", "JS")
    for card in ("8S", "TS", "QD", "JH"):
        play(table, YOUNGER, card)
    for lead, follow in TRICKS:
        play(table, ELDER, lead)
        play(table, YOUNGER, follow)
    play(table, YOUNGER, "KC")
    play(table, ELDER, "7C")
    assert log(table)[3:] == [(ELDER, "lead", 1)] * 11 + [
        (YOUNGER, "trick", 1), (YOUNGER, "lead", 1), (YOUNGER, "last trick", 1),
        (ELDER, "cards", 10)]
    assert table.result().scores == (30, 18)
    story = [e for e in table.events if e["type"] == "deal_over"][0]
    text = table.hook.cardparty_describe(event=story, names=["Eva", "Petr"])
    assert text.splitlines() == [
        "deal 1 over:",
        "Eva: point of 5 in spades (50), 5",
        "Petr: quint to the king in clubs, 15",
        "Eva: quatorze of aces (four aces), 4",
        "Eva: points in play, 11",
        "Petr: points in play, 3",
        "Eva: the cards (10 tricks), 10",
        "this deal: Eva 30, Petr 18",
        "match: Eva 30, Petr 18"]
