"""Pika's basic bot: it calls «Pika!» and it beats random play (seeded, so the figure is fixed;
a random policy would win about a quarter of these games)."""

from __future__ import annotations

import random

from cardparty.core.bots import PolicyBot, RandomBot
from cardparty.core.contract import Move
from cardparty.core.simulate import next_actor
from cardparty.core.table import Table, open_table


def test_pi10_the_basic_bot_calls_pika_with_the_play_that_leaves_one_card() -> None:
    table = open_table("pika", 2, {"deck": ["R1", "R2", "Y1", "Y2", "R5"], "hand_size": 2,
                                   "dealer": 1}, seed=1)
    move = PolicyBot("normal").choose(table, 0, random.Random(0))
    assert move.kind == "play" and "pika" in (move.choice or "")


def test_the_basic_bot_wins_far_more_than_its_share_against_random_bots() -> None:
    games, wins = 300, 0
    for g in range(games):
        table = Table("pika", 4, seed=50_000 + g)
        rng = random.Random(g)
        bots = [PolicyBot("normal"), RandomBot(), RandomBot(), RandomBot()]
        while table.result() is None:
            seat = next_actor(table, rng)
            assert seat is not None
            bot = bots[seat] if seat >= 0 else RandomBot()
            table.play(seat, bot.choose(table, seat, rng))
        result = table.result()
        assert result is not None
        wins += result.places[0] == 1
    assert wins / games > 0.35


def test_the_basic_bot_only_ever_chooses_a_listed_move() -> None:
    table = Table("pika", 3, seed=9)
    rng = random.Random(9)
    bot = PolicyBot("normal")
    for _ in range(200):
        if table.result() is not None:
            break
        seat = next_actor(table, rng)
        assert seat is not None
        move: Move = bot.choose(table, seat, rng) if seat >= 0 else table.legal_moves(seat)[0]
        assert any(m.same(move) for m in table.legal_moves(seat))
        table.play(seat, move)
