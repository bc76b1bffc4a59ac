"""Piquet's reading of the public history for the search bot (``plugins/piquet/infer.py``):
PQ-11, a player who did not follow the suit led holds none of it, in every sample."""

from __future__ import annotations

import random

from cardparty.core.bots import PolicyBot
from cardparty.core.table import Table
from cardparty.plugins.piquet.infer import voids


def test_pq11_a_suit_not_followed_is_dealt_to_nobody_who_failed_it() -> None:
    """Over normal games: every void read is true of the real hand, and no sample of the
    other seat's hand holds a card of it, where plain determinizations do."""
    bot = PolicyBot("normal")
    found = plain_breaks = 0
    for seed in range(12):
        table = Table("piquet", 2, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if table.result() is not None:
                break
            seat = table.to_move()[0]
            if seat >= 0 and table.state.phase == "play":
                lacking = voids(seat, table.events_for(seat))
                other = 1 - seat
                assert not set(table.state.hands[other]) & lacking
                if lacking:
                    found += 1
                    sample = table.sampler(seat)
                    for k in range(5):
                        assert not set(sample(random.Random(k)).hands[other]) & lacking
                        plain = table.determinize(seat, random.Random(k)).hands[other]
                        plain_breaks += bool(set(plain) & lacking)
            table.play(seat, bot.choose(table, seat, rng))
    assert found > 10 and plain_breaks > 0
