"""PQ-16 (and PQ-9's ``spoken`` setting): declaring is the players' act. Elder declares point,
sequence and set, each in full or sunk; younger answers good / not good / equal, then the next
detail; what one sinks scores nothing and is never shown. And the tied partie (Cavendish 1882).

Deals are built with the ``deck`` setting (tests/piquet/helpers.py): seat 0 is elder.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.table import IllegalMove, Table, open_table
from cardparty.plugins.piquet.classic import rubicon_count
from tests.piquet.helpers import (
    ELDER,
    YOUNGER,
    declarations,
    declare_in_full,
    exchanged,
    said,
    say,
)

CLASSIC = ("piquet-classic",)
# The worked deal's hands after the exchange (docs/rules/piquet.md)
EVA = ["AS", "KS", "QS", "JS", "9S", "AH", "TH", "AD", "9D", "AC", "8C", "7C"]
PETR = ["TS", "8S", "KH", "QH", "JH", "QD", "KD", "KC", "QC", "JC", "TC", "9C"]
# Elder holds six hearts (a sixième to the ace); younger five clubs, quarts, trios
SIX_HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "7S", "8S", "7D", "8D", "7C", "8C"]
CLUBS = ["AC", "KC", "QC", "JC", "9C", "AS", "KS", "QS", "JS", "AD", "KD", "QD"]


def labels(table: Table, seat: int) -> list[str]:
    return [m.label for m in table.legal_moves(seat)]


def strings(obj: Any) -> list[str]:
    """Every string in a view or event, however deep."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings(v)]
    if isinstance(obj, list | tuple):
        return [s for v in obj for s in strings(v)]
    return []


def test_pq16_elder_declares_younger_answers_equal_then_not_good_then_good() -> None:
    table = exchanged(EVA, PETR, elder_out=["7H", "8H", "8D"], variants=CLASSIC,
                      in_full=False)
    view = table.view(ELDER)
    assert view["phase"] == "declare" and view["counters"]["declaring"] == "point"
    assert view["players"][ELDER]["status"] == "to declare"
    first = table.legal_moves(ELDER)[0]
    assert first.label == "declare in full: point of 5, quart, fourteen aces"
    say(table, ELDER, "point", "AS", "KS", "QS", "JS", "9S")
    assert said(table) == [(ELDER, "point of 5")]
    # Petr holds five clubs: equal is his answer in full; good sinks; nothing beats five
    assert labels(table, YOUNGER) == ["answer in full: equal", "good (sinking)", "equal"]
    say(table, YOUNGER, "equal")
    # Eva gives the value; Petr's 49 cannot match 50: his "good" is the only answer left
    assert said(table)[1:] == [(YOUNGER, "equal"), (ELDER, "making 50"), (YOUNGER, "good")]
    assert declarations(table) == [(ELDER, "point", 5)]
    say(table, ELDER, "sequence", "AS", "KS", "QS", "JS")
    assert said(table)[-1] == (ELDER, "quart")
    moves = {m.label: m for m in table.legal_moves(YOUNGER)}
    assert "equal" in moves and "good (sinking)" in moves
    assert "not good: quint to the king in clubs" in moves
    table.play(YOUNGER, moves["not good: quint to the king in clubs"])
    # the classic winner scores all his sequences: the quint and the tierce in hearts
    assert declarations(table)[1:] == [(YOUNGER, "sequence", 15), (YOUNGER, "sequence", 3)]
    # the quatorze: Petr's trios cannot beat it, so the answer is given for him
    table.play(ELDER, table.legal_moves(ELDER)[0])
    assert said(table)[-2:] == [(ELDER, "fourteen aces"), (YOUNGER, "good")]
    assert declarations(table)[-1] == (ELDER, "set", 14)
    assert table.view(None)["phase"] == "play" and table.to_move() == (ELDER,)


def test_pq16_a_sunk_combination_scores_nothing_and_is_never_shown() -> None:
    # the Czech table with spoken declarations (PQ-9's setting): sinking is allowed there too
    table = exchanged(SIX_HEARTS, CLUBS, spoken=True, in_full=False)
    # Eva sinks her point of six to five (the 9♥ stays hidden) and her sixième entirely
    moves = {m.label: m for m in table.legal_moves(ELDER)}
    assert "declare point of 6 (point of 6 in hearts (60), in full)" in moves
    table.play(ELDER, moves["declare point of 5 (point of 5 in hearts (51), sinking)"])
    say(table, YOUNGER, "equal")
    assert declarations(table) == [(ELDER, "point", 5)]
    table.play(ELDER, Move("declare", (), "sequence"))          # "no sequence": sunk
    assert said(table)[-1] == (ELDER, "no sequence")
    # Petr may now declare his own sequence, in full or not at all
    assert labels(table, YOUNGER)[0] == "in full: declare quart"
    say(table, YOUNGER, "sequence", "AS", "KS", "QS", "JS", kind="declare")
    table.play(YOUNGER, Move("answer", (), "all"))              # the set, in full
    assert said(table) == [
        (ELDER, "point of 5"), (YOUNGER, "equal"), (ELDER, "making 51"), (YOUNGER, "good"),
        (ELDER, "no sequence"), (YOUNGER, "quart"), (ELDER, "no set"),
        (YOUNGER, "three aces")]
    assert declarations(table) == [(ELDER, "point", 5), (YOUNGER, "sequence", 4),
                                   (YOUNGER, "set", 3)]
    # 9♥, part of the sunk point and the sunk sixième, reaches no view but Eva's own and no
    # event anybody else receives
    for seat in (None, YOUNGER):
        assert "9H" not in strings(table.view(seat))
        assert "9H" not in strings(table.events_for(seat))
    assert sorted(table.view(YOUNGER)["players"][ELDER]["zones"]["shown"]) == sorted(
        ["AH", "KH", "QH", "JH", "TH"])


def test_pq16_declaring_in_full_scores_exactly_what_the_engine_declares() -> None:
    """Declaring everything stays one move away: played in full, spoken declarations score
    the same log as automatic ones, on random deals of the Czech table."""
    for seed in range(12):
        auto = open_table("piquet", 2, {"dealer": 1, "deals": 1}, seed=seed)
        spoken = open_table("piquet", 2, {"dealer": 1, "deals": 1, "spoken": True}, seed=seed)
        bot, rng_a, rng_b = PolicyBot("normal"), random.Random(seed), random.Random(seed)
        while auto.view(None)["phase"] == "exchange":
            seat = auto.to_move()[0]
            move = bot.choose(auto, seat, rng_a)
            auto.play(seat, move)
            assert bot.choose(spoken, seat, rng_b).same(move)
            spoken.play(seat, move)
        declare_in_full(spoken)
        assert spoken.view(None)["log"] == auto.view(None)["log"], seed


def test_pq16_the_basic_bot_declares_in_full_and_the_random_bot_sometimes_sinks() -> None:
    table = exchanged(SIX_HEARTS, CLUBS, spoken=True, in_full=False)
    assert PolicyBot("normal").choose(table, ELDER, random.Random(1)).choice == "all"
    sank = 0
    for seed in range(40):
        t = open_table("piquet", 2, {"dealer": 1, "deals": 1}, CLASSIC, seed=seed)
        rng = random.Random(seed)
        while t.view(None)["phase"] in ("exchange", "declare"):
            seat = t.to_move()[0]
            move = PolicyBot("easy").choose(t, seat, rng)
            sank += "sinking" in move.label
            t.play(seat, move)
    assert sank > 10


def test_pq16_declaration_moves_are_refused_out_of_turn_and_out_of_phase() -> None:
    table = exchanged(SIX_HEARTS, CLUBS, spoken=True, in_full=False)
    with pytest.raises(IllegalMove, match="not your turn"):
        say(table, YOUNGER, "good")
    with pytest.raises(IllegalMove, match="declare your point"):
        say(table, ELDER, "point", "AH", "9H", "8S")               # not a point he may declare
    with pytest.raises(IllegalMove, match="declarations come first"):
        table.play(ELDER, Move("play", ("AH",)))
    declare_in_full(table)
    with pytest.raises(IllegalMove, match="nothing to declare now"):
        table.play(ELDER, Move("declare", (), "all"))


def test_pq9_the_czech_table_declares_automatically_unless_asked() -> None:
    table = exchanged(SIX_HEARTS, CLUBS, in_full=False)
    assert table.view(None)["phase"] == "play"
    assert "declarations" not in table.view(None)["counters"]
    assert declarations(table)[0] == (ELDER, "point", 6)
    spoken = exchanged(SIX_HEARTS, CLUBS, spoken=True, in_full=False)
    assert spoken.view(None)["phase"] == "declare"
    assert spoken.view(None)["counters"]["declarations"] == "spoken"


# --- the tied partie (PQ-16, Cavendish 1882) ---------------------------------------------------

def _partie(totals: list[int], deal_no: int, extra: int = 0) -> Table:
    """A classic partie (no ``deals`` setting: six deals) at its ``deal_no``-th deal, dealt
    from the worked deal's cards (docs/rules/piquet.md), with the match totals set so far."""
    deck = ["AS", "KS", "QS", "9S", "AH", "7H", "8H", "9D", "8D", "7D", "8C", "7C",
            "TS", "8S", "7S", "KH", "JH", "9H", "QD", "JD", "TD", "KC", "QC", "9C",
            "AD", "JS", "AC", "TH", "QH", "JC", "TC", "KD"]
    table = open_table("piquet", 2, {"dealer": YOUNGER, "deck": deck}, CLASSIC, seed=5)
    data = msgpack.unpackb(table.save(), raw=False, strict_map_key=False)
    data["state"].update(totals=list(totals), deal_no=deal_no, extra=extra)
    return Table.restore(msgpack.packb(data, use_bin_type=True))


def _play_deal(table: Table) -> None:
    bot, rng = PolicyBot("normal"), random.Random(2)
    while table.view(None)["phase"] not in ("scored", "over"):
        seat = table.to_move()[0]
        table.play(seat, bot.choose(table, seat, rng))


def _ending_equal(deal_no: int, extra: int = 0) -> Table:
    """The deal ``deal_no`` played so that the partie's totals end it equal (its points are
    learned from a first playing of the same deal)."""
    probe = _partie([0, 0], deal_no, extra)
    _play_deal(probe)
    got = probe.view(None)["counters"]["this deal"]
    table = _partie([200 - got[0], 200 - got[1]], deal_no, extra)
    _play_deal(table)
    assert table.view(None)["counters"]["score"] == [200, 200]
    return table


def test_pq16_equal_totals_after_the_sixth_deal_play_two_more() -> None:
    table = _ending_equal(6)
    assert table.result() is None and table.view(None)["phase"] == "scored"
    table.play(table.to_move()[0], Move("deal"))
    assert table.view(None)["counters"]["deal"] == 7


def test_pq16_a_partie_still_equal_after_the_eighth_deal_is_drawn() -> None:
    table = _ending_equal(8, extra=2)
    result = table.result()
    assert result is not None and result.outcome == "drawn"
    assert result.places == (1, 1) and result.scores == rubicon_count([200, 200]) == (0, 0)


def test_pq16_unequal_totals_end_the_partie_after_the_sixth_deal() -> None:
    table = _partie([100, 50], 6)
    _play_deal(table)
    result = table.result()
    assert result is not None and result.outcome == "finished"


# Two deals younger cannot tell apart: elder holds a point of five in spades or in hearts (the
# other suit's fifth card among his discards) and says "point of 5"; younger holds five clubs.
ELDER_SPADES = ["AS", "KS", "QS", "JS", "9S", "AH", "KH", "QH", "JH", "AD", "7C", "8C"]
ELDER_HEARTS = ["AH", "KH", "QH", "JH", "TH", "AS", "KS", "QS", "JS", "AD", "7C", "8C"]
YOUNGER_CLUBS = ["AC", "KC", "QC", "JC", "TC", "TS", "8S", "7S", "9H", "8H", "7H", "QD"]
YOUNGER_OUT = ["JD", "TD", "9D", "8D", "7D"]


def _point_said(elder: list[str], out: list[str]) -> Table:
    table = exchanged(elder, YOUNGER_CLUBS, elder_out=out, younger_out=YOUNGER_OUT,
                      spoken=True, in_full=False)
    say(table, ELDER, "point", *elder[:5])
    assert said(table) == [(ELDER, "point of 5")]
    assert list(table.to_move()) == [YOUNGER]
    return table


def test_pq16_a_redeal_for_younger_keeps_what_elder_said_and_learns_nothing_more() -> None:
    """A search bot's sample of the hidden cards (``determinize``) must agree with what was
    spoken ("point of 5": elder holds five of a suit) and depend on nothing else: two deals
    that younger sees alike give the same samples, and elder's claimed cards are not simply
    left where they lie (that would show younger which suit elder declared)."""
    spades = _point_said(ELDER_SPADES, ["TH", "KD", "9C"])
    hearts = _point_said(ELDER_HEARTS, ["9S", "KD", "9C"])
    assert spades.view(YOUNGER) == hearts.view(YOUNGER)
    suits = set()
    for k in range(24):
        a = spades.determinize(YOUNGER, random.Random(k))
        b = hearts.determinize(YOUNGER, random.Random(k))
        assert sorted(a.hands[ELDER]) == sorted(b.hands[ELDER])
        assert a.discards[ELDER] == b.discards[ELDER] and a.claims == b.claims
        claim = a.claims[0]
        assert claim is not None and len(claim) == 5 and set(claim) <= set(a.hands[ELDER])
        assert len({c[1] for c in claim}) == 1
        suits.add(claim[0][1])
    assert suits == {"S", "H"}
    # the search plays on from such samples: younger's answer is one of his moves
    bot = PolicyBot("hard")
    move = bot.choose(spades, YOUNGER, random.Random(1))
    assert any(m.same(move) for m in spades.legal_moves(YOUNGER))
