"""MO-2, MO-6, MO-7, MO-8, MO-11 as properties: 10,000 seeded random matches at the ledger
across every mode, 2 to 4 seats, bots, ties, boosters bought and expiring, stakes refused for
want of coins, entry tables cancelled and refunded, and matches paid twice. After each: every
pot paid out to the coin, no balance below zero, every balance what a plain model of the
rules says; at the end the league equals the sum of the league points paid, and the audit
holds."""

from __future__ import annotations

import random
from collections import Counter

from cardparty.core.economy import rewards as rw
from cardparty.core.economy.ledger import EconomyError, Ledger

MATCHES = 10_000
NAMES = [f"p{i}" for i in range(8)]


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def random_places(rng: random.Random, n: int) -> list[int]:
    """Places with ties as games give them: competition ranking of random scores."""
    scores = [rng.randrange(3 if rng.random() < 0.3 else 50) for _ in range(n)]
    return [1 + sum(1 for o in scores if o > s) for s in scores]


def test_mo2_mo6_mo11_ten_thousand_random_matches_keep_the_books() -> None:
    rng = random.Random(20261130)
    clock = Clock()
    led = Ledger(":memory:", now=clock)
    model: dict[str, int] = {}
    for name in NAMES:
        led.enter(name, f"key-{name}")
        model[name] = rw.NEW_PROFILE_COINS
    league_paid: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    for m in range(MATCHES):
        clock.t += rng.choice((1, 60, 600, 3600, 86400))
        buyer = rng.choice(NAMES)
        if rng.random() < 0.05:
            item = rng.choice(("gold", "vip"))
            price = rw.BOOSTER_PRICE if item == "gold" else rw.VIP_PRICE
            try:
                led.buy(buyer, item)
                model[buyer] -= price
            except EconomyError:
                assert model[buyer] < price
        mode = rng.choice(rw.MODES)
        n = rng.randint(2, 4)
        humans = rng.sample(NAMES, n)
        seats: list[str | None] = [h if mode == rw.ENTRY or rng.random() < 0.7 else None
                                   for h in humans]
        places = random_places(rng, n)
        match_id, table_id = f"m{m}", f"t{m}"
        if mode == rw.ENTRY:
            stake = rng.choice(rw.STAKES)
            taken = []
            for name in seats:
                assert name is not None
                try:
                    led.take_stake(table_id, name, stake)
                    model[name] -= stake
                    taken.append(name)
                except EconomyError:
                    assert model[name] < stake, "refused only for want of coins"
            if len(taken) < n or rng.random() < 0.1:      # not full in time: cancelled
                assert led.refund_table(table_id) == stake * len(taken)
                assert led.refund_table(table_id) == 0, "refunded once"
                for name in taken:
                    model[name] += stake
                kinds["cancelled"] += 1
                continue
        boosts = [led.boosts(s) if s else rw.Boosts() for s in seats]
        bots_filled = any(s is None for s in seats)
        paid = led.pay_result(match_id, mode, seats, places, bots_filled, table_id=table_id)
        assert paid is not None
        expected = rw.rewards(mode, places, [s is not None for s in seats], boosts, bots_filled)
        if mode == rw.ENTRY:
            shares = rw.pot_shares(stake * n, places)
            assert sum(r.coins for r in paid) == stake * n, "the pot is paid to the coin"
            assert [r.coins for r in paid] == shares
            expected = [rw.Reward(c, e.xp, e.league) for c, e in zip(shares, expected,
                                                                     strict=True)]
        assert paid == expected
        for name, r in zip(seats, paid, strict=True):
            if name is not None:
                model[name] += r.coins
                if r.league:
                    league_paid[(led.week(), name)] += r.league
        if rng.random() < 0.05:
            assert led.pay_result(match_id, mode, seats, places, bots_filled,
                                  table_id=table_id) is None, "paid once"
        kinds[mode] += 1
        if m % 97 == 0:
            assert {n_: led.profile(n_).coins for n_ in NAMES} == model
    assert {n_: led.profile(n_).coins for n_ in NAMES} == model
    assert led.db.execute("SELECT MIN(coins) FROM profiles").fetchone()[0] >= 0
    standings = {(week, name): pts for week in led.weeks()
                 for name, pts in led.standings(week)}
    assert standings == dict(league_paid), "the league is the sum of the points paid"
    assert led.held() == []
    led.audit()
    assert all(kinds[k] > 1000 for k in rw.MODES) and kinds["cancelled"] > 100, kinds
