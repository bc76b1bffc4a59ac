"""The "basic" bot policy (``cardparty_bot_move``): what it chooses, and that it beats chance."""

from __future__ import annotations

import random

from cardparty.core.bots import PolicyBot, RandomBot
from cardparty.core.contract import Move
from cardparty.core.simulate import play_out
from cardparty.core.table import Table, open_table

from .helpers import deal, throw

BASIC = PolicyBot("normal")


def test_basic_bot_deals_seven_and_throws_the_most_cards_it_can() -> None:
    table = open_table("pikac", 4, {"dealer": 2}, seed=1)
    assert BASIC.choose(table, 2, random.Random(0)).same(Move("deal", (), "7"))
    table = deal([["5S", "5C", "5D", "3H"], ["4C", "4D", "6C", "6D"]])
    move = BASIC.choose(table, 0, random.Random(0))
    assert move.kind == "play" and sorted(move.cards) == ["5C", "5D", "5S"]


def test_basic_bot_names_its_longest_suit_and_sends_k_clubs_to_the_shortest_hand() -> None:
    table = deal([["QS", "3D", "4D", "9C"], ["4C", "6C", "6D", "8C"]], starter="JS")
    move = BASIC.choose(table, 0, random.Random(0))
    assert move.same(Move("play", ("QS",), "D"))
    table = deal([["3D", "4D", "KC"], ["5C", "6H", "9H"], ["8H", "9S", "TH"]], starter="5C",
                 stock=("3H", "9D"))
    table.play(0, Move("draw"))
    throw(table, 1, "5C")                                     # seat 1 now holds 2 cards
    table.play(2, Move("draw"))                               # seat 2 holds 4
    assert BASIC.choose(table, 0, random.Random(0)).same(Move("play", ("KC",), "1"))


def test_basic_bot_beats_random_players() -> None:
    class OneBasic:
        def choose(self, table: Table, seat: int, rng: random.Random) -> Move:
            return (BASIC if seat == 0 else RandomBot()).choose(table, seat, rng)

    first = 0
    for game in range(40):
        result = play_out(Table("pikac", 4, seed=game), random.Random(game), bot=OneBasic())
        first += result.places[0] == 1
    assert first >= 20                       # chance would give about 10 of 40 (uniform play)
