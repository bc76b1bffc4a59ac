"""PQ-15: the match to a target (or an agreed number of deals), and the table settings."""

from __future__ import annotations

import random

import pytest

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Result
from cardparty.core.i18n import set_language, translate
from cardparty.core.narrate import with_names
from cardparty.core.simulate import play_out
from cardparty.core.table import Table, TableError, open_table
from cardparty.plugins.piquet import rules


@pytest.mark.parametrize("seed", range(6))
def test_pq15_the_first_to_101_wins_checked_at_the_end_of_each_deal(seed):
    table = open_table("piquet", 2, seed=seed)
    result = play_out(table, random.Random(seed))
    ends = [e for e in table.events if e["type"] == "deal_over"]
    for end in ends[:-1]:
        assert max(end["totals"]) < 101 or end["totals"][0] == end["totals"][1]
    final = ends[-1]["totals"]
    winner = result.places.index(1)
    assert final[winner] >= 101 and final[winner] > final[1 - winner]
    assert list(result.scores) == final
    assert sum(final) == sum(sum(e["points"]) for e in ends)


def test_pq15_an_agreed_number_of_deals_is_played_and_summed():
    table = open_table("piquet", 2, {"deals": 3}, seed=4)
    result = play_out(table, random.Random(4))
    ends = [e for e in table.events if e["type"] == "deal_over"]
    assert len(ends) == 3
    assert list(result.scores) == [sum(e["points"][s] for e in ends) for s in (0, 1)]


def test_pq15_between_deals_the_next_dealer_deals_when_the_story_is_read():
    table = open_table("piquet", 2, {"deals": 2, "dealer": 1}, seed=2)
    rng = random.Random(2)
    while table.view(None)["phase"] != "scored":
        seat = table.to_move()[0]
        moves = table.legal_moves(seat)
        table.play(seat, moves[rng.randrange(len(moves))])
    assert table.to_move() == (0,)
    assert [m.label for m in table.legal_moves(0)] == ["deal the next hand"]
    assert table.view(1)["last deal"] == table.view(1)["log"]
    table.play(0, table.legal_moves(0)[0])
    view = table.view(None)
    assert view["phase"] == "exchange" and view["counters"]["dealer"] == 0
    assert view["log"] == [] or view["log"][0]["category"] == "carte blanche"


def test_pq15_past_the_target_with_equal_totals_another_deal_is_played():
    state = open_table("piquet", 2, seed=1).state
    state.totals = [120, 120]
    assert not rules.match_over(state)
    state.totals = [130, 121]
    assert rules.match_over(state)
    state.totals = [99, 99]
    assert not rules.match_over(state)
    state.totals = [150, 150]
    state.extra = rules.EXTRA_DEALS
    assert rules.match_over(state)


def test_pq15_premiums_need_an_agreed_number_of_deals():
    with pytest.raises(TableError, match="premiums needs an agreed number of deals"):
        open_table("piquet", 2, {"premiums": True})
    with pytest.raises(TableError, match="target"):
        open_table("piquet", 2, {"target": 1000})


def test_the_basic_bot_beats_random_play_over_whole_matches():
    class Pair:
        """Seat 0 plays the basic policy, seat 1 at random."""

        def __init__(self) -> None:
            self.bots = [PolicyBot("normal"), PolicyBot("easy")]

        def choose(self, table, seat, rng):
            return self.bots[seat].choose(table, seat, rng)

    wins = 0
    for seed in range(20):
        result = play_out(open_table("piquet", 2, seed=seed), random.Random(seed), bot=Pair())
        wins += result.places[0] == 1
    assert wins >= 17


def lost_by_seat_0(variants: tuple[str, ...]) -> tuple[Table, Result]:
    """A match of two deals that seat 0 loses (the first such seed)."""
    for seed in range(40):
        table = open_table("piquet", 2, {"deals": 2}, variants, seed=seed,
                           names=["Eva", "Petr"])
        result = play_out(table, random.Random(seed))
        if result.places == (2, 1):
            return table, result
    raise AssertionError("seat 0 won every match")


@pytest.mark.parametrize("variants", [(), ("piquet-classic",)], ids=["czech", "classic"])
@pytest.mark.parametrize("lang", ["en", "cs", "ca"])
def test_pq15_the_match_over_lists_the_winner_first(variants: tuple[str, ...], lang: str
                                                    ) -> None:
    """Issue 27, item 13: 'match over: 2. Eva (29), 1. Petr (58)', in seat order."""
    table, _ = lost_by_seat_0(variants)
    over = next(e for e in table.events if e["type"] == "over")
    try:
        set_language(lang)
        told = translate(table.hook.cardparty_describe(event=over, names=["Eva", "Petr"]))
    finally:
        set_language("en")
    assert told.index("1. Petr") < told.index("2. Eva"), told


def test_pq16_the_classic_result_says_the_winners_rubicon_count_not_both_in_seat_order(
        ) -> None:
    """'seat 1 won 36 to 34; Rubicon count -170 / 170' read as the loser's count first."""
    _, result = lost_by_seat_0(("piquet-classic",))
    worth = result.scores[1]
    assert worth > 0 and result.scores == (-worth, worth)
    said = with_names(translate(result.summary), ["Eva", "Petr"])
    assert said.startswith("Petr won ") and f"Rubicon count {worth} to the winner" in said
    assert str(-worth) not in said
    for lang, words in (("cs", f"Rubikon: vítěz bere {worth}"),
                        ("ca", f"compte del Rubicó: {worth} per al guanyador")):
        assert words in translate(result.summary, lang)
