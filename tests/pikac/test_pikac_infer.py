"""Pikáč's reading of the public history for the search bot (``plugins/pikac/infer.py``):
nothing a player does is forced, so every fact is weighed; the history adds up to the hands
all game, and nothing hidden is read."""

from __future__ import annotations

import random
from collections import Counter

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.table import Table
from cardparty.plugins.pikac.deck import CLASS, FUNCTION
from cardparty.plugins.pikac.infer import (
    TAKE_WEIGHT,
    Context,
    excluded_by_choice,
    knowledge,
    refill,
)
from tests.pikac.helpers import deal, throw

TAKE = Move("take", (), None)
STOCK = ("2S", "7C", "KS", "X", "2D", "JS", "KH", "7D", "2C", "JC", "X", "7S")


def taken_count() -> Table:
    """Seat 0 throws 7♥ on the 5♥ starter; seat 1, holding 3♠ 4♦ and no function card,
    takes the two cards (2♠, 7♣)."""
    table = deal([["7H", "9C"], ["3S", "4D"]], starter="5H", stock=STOCK)
    throw(table, 0, "7H")
    table.play(1, TAKE)
    assert table.state.hands[1] == ["3S", "4D", "2S", "7C"] and table.to_move() == (0,)
    return table


def test_pk11_a_player_who_took_the_count_is_mostly_dealt_no_card_that_passes_it() -> None:
    """PK-11: a player takes the count or passes it on with a function card; taking it while
    holding one is allowed, so the fact is weighed (``TAKE_WEIGHT``): in seat 0's samples
    seat 1's two older cards are mostly not function cards, and its four cards hold about
    half the function cards that the plain determinization deals it (a third of the deck)."""
    table = taken_count()
    sample = table.sampler(0)

    def functions(hand: list[str]) -> int:
        return sum(CLASS[c] == FUNCTION for c in hand)

    weighed = sum(functions(sample(random.Random(k)).hands[1]) for k in range(400)) / 400
    plain = sum(functions(table.determinize(0, random.Random(k)).hands[1])
                for k in range(400)) / 400
    assert 0.4 < weighed < 0.6 * (1 + (1 - TAKE_WEIGHT)) + 0.15
    assert plain > 1.0


def test_pk9_pk20_draws_and_stands_are_weighed_facts_and_the_history_adds_up() -> None:
    """PK-9 (a player may draw when he does not want to play) and PK-20 (he may stand when
    he could counter with Aces): no fact is certain; the events, as each seat saw them, add
    up to every hand's size all game, at 2 and 4 players."""
    bot = PolicyBot("normal")
    facts = 0
    for players in (2, 4):
        for seed in range(8):
            table = Table("pikac", players, seed=seed)
            rng = random.Random(seed)
            while table.result() is None:
                seat = table.to_move()[0]
                if len(table.journal) % 3:
                    table.play(seat, bot.choose(table, seat, rng))
                    continue
                know = knowledge(table.state, seat, table.events_for(seat))
                assert know is not None           # the history adds up to every hand
                assert [len(s) for s in know.slots] == [len(h) for h in table.state.hands]
                assert all(w < 1.0 for _, w in know.facts)
                facts += len(know.facts)
                table.play(seat, bot.choose(table, seat, rng))
    assert facts > 100


def test_the_sampler_reads_only_what_the_seat_saw() -> None:
    table = taken_count()
    twin = table.clone()
    twin.state = table.determinize(0, random.Random(9))
    twin.events = [{**e, "cards": ["X"] * len(e["cards"])}
                   if e.get("private") and e.get("seat") != 0 else e for e in table.events]
    assert twin.view(0) == table.view(0) and twin.events_for(0) == table.events_for(0)
    assert twin.save() != table.save()
    a, b = table.sampler(0), twin.sampler(0)
    for k in range(20):
        assert a(random.Random(k)).hands == b(random.Random(k)).hands


def test_every_choice_a_normal_player_makes_rules_out_only_cards_he_does_not_hold() -> None:
    """The facts read from a choice (``excluded_by_choice``: the cards that would have made
    the normal policy choose otherwise) are true of a normal player's real hand at 2 and 4
    players; few choices tell nothing."""
    bot = PolicyBot("normal")
    true = false = 0
    for players in (2, 4):
        for seed in range(8):
            table = Table("pikac", players, seed=seed)
            rng = random.Random(seed)
            ctx = Context(players)
            seen = 0
            while table.result() is None:
                seat = table.to_move()[0]
                before = [list(h) for h in table.state.hands]
                table.play(seat, bot.choose(table, seat, rng))
                for e in table.events[seen:]:
                    if e.get("type") in ("play", "draw", "take", "stand"):
                        ruled_out = excluded_by_choice(ctx, e["seat"], e)
                        hand = list(before[e["seat"]])
                        for c in e.get("cards", ()) if e["type"] == "play" else ():
                            hand.remove(c)
                        if ruled_out:
                            false += bool(set(hand) & ruled_out)
                            true += not set(hand) & ruled_out
                    ctx.follow(e)
                seen = len(table.events)
    assert true > 500 and false <= true // 200


def test_a_count_passed_with_2d_rules_out_every_adder_and_cheaper_defender() -> None:
    """PK-11, PK-14: with a count pending the normal policy passes it with an adder if it can,
    else with the defender it needs least; a 2♦ says he held no 7, K♠, Joker, 2♥, 2♠, K♦, K♣,
    2♣, J♣ or K♥."""
    ctx = Context(2)
    for e in [{"type": "dealt", "seat": 0, "count": 5}, {"type": "dealt", "seat": 1, "count": 5},
              {"type": "starter", "seat": None, "cards": ["5H"]},
              {"type": "play", "seat": 0, "cards": ["7H"], "choice": None},
              {"type": "count", "seat": 0, "count": 2}]:
        ctx.follow(e)
    ruled_out = excluded_by_choice(ctx, 1, {"type": "play", "seat": 1, "cards": ["2D"]})
    assert {"7S", "KS", "X", "2H", "2S", "KD", "KC", "2C", "JC", "KH"} <= ruled_out
    assert "JS" not in ruled_out and not any(CLASS[c] != FUNCTION for c in ruled_out)


def refilled_positions(limit: int) -> list[tuple[Table, int]]:
    """Positions of 4-player normal games after the stock was refilled (PK-24), a copy of
    the table and the seat to move, every fifth such decision."""
    bot = PolicyBot("normal")
    found: list[tuple[Table, int]] = []
    for seed in range(40):
        table = Table("pikac", 4, seed=seed)
        rng = random.Random(seed)
        k = 0
        while table.result() is None and len(found) < limit:
            seat = table.to_move()[0]
            if any(e.get("type") == "reshuffle" for e in table.events):
                k += 1
                if k % 5 == 0:
                    found.append((table.clone(), seat))
            table.play(seat, bot.choose(table, seat, rng))
    return found


def test_pk24_after_a_refill_the_stock_is_dealt_from_the_refill_the_seat_saw_thrown() -> None:
    """PK-24: the pile but its top card becomes the stock, and every card of it was seen
    thrown. So after a refill a sample deals the stock from the refill's cards (less those
    the seat drew itself and those seen thrown again), never from the others' older cards:
    the real stock is always among those cards, and a sample's stock too."""
    positions = refilled_positions(60)
    assert len(positions) == 60
    told = 0
    for table, seat in positions:
        state = table.state
        hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + state.stock
        pool = refill(state, seat, table.events_for(seat)).stock_from(hidden, len(state.stock))
        assert pool is not None and not Counter(state.stock) - Counter(pool)
        told += len(pool) < len(hidden)          # some hidden cards cannot be in the stock
        sample = table.sampler(seat)
        for k in range(3):
            twin = sample(random.Random(k))
            assert not Counter(twin.stock) - Counter(pool)
            assert sorted(twin.stock + [c for s, h in enumerate(twin.hands) if s != seat
                                        for c in h]) == sorted(hidden)
    assert told >= 30


def test_after_a_refill_the_sampler_still_reads_only_what_the_seat_saw() -> None:
    """The refill's cards come from the events as the seat saw them and the multiset of the
    hidden cards: a twin holding those cards elsewhere gets the same samples."""
    for table, seat in refilled_positions(6):
        twin = table.clone()
        twin.state = table.determinize(seat, random.Random(9))
        twin.events = [{**e, "cards": ["X"] * len(e["cards"])}
                       if e.get("private") and e.get("seat") != seat else e
                       for e in table.events]
        assert twin.view(seat) == table.view(seat)
        assert twin.events_for(seat) == table.events_for(seat)
        a, b = table.sampler(seat), twin.sampler(seat)
        for k in range(5):
            x, y = a(random.Random(k)), b(random.Random(k))
            assert (x.hands, x.stock) == (y.hands, y.stock)
