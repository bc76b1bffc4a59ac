"""Kakhead's reading of the public history for the search bot (``plugins/kakhead/infer.py``):
the pile a player took and the face-up cards he swapped in stay in his hand in every sample
until he plays them; nothing hidden is read."""

from __future__ import annotations

import random
from collections import Counter

from cardparty.core.bots import PolicyBot
from cardparty.core.table import Table
from cardparty.plugins.kakhead.infer import known_cards, read
from tests.normal_play import normal_tables


def until_taken(players: int, seed: int) -> tuple[Table, int, list[str]]:
    """Normal bots play until a seat takes the pile (KH-7): the table, that seat, the pile."""
    bot = PolicyBot("normal")
    table = Table("kakhead", players, seed=seed)
    rng = random.Random(seed)
    while True:
        seat = table.to_move()[0]
        move = bot.choose(table, seat, rng)
        pile = list(table.state.pile)
        table.play(seat, move)
        if move.kind == "take" and len(pile) >= 2:
            return table, seat, pile


def test_kh7_the_pile_a_player_took_is_in_his_hand_in_every_sample() -> None:
    """KH-7: the others saw the pile's cards go into his hand; every sample deals them there,
    where the plain determinization scatters them."""
    table, taker, pile = until_taken(2, 3)
    watcher = 1 - taker
    assert not Counter(pile) - Counter(known_cards(table.state, watcher,
                                                   table.events_for(watcher))[taker])
    sample = table.sampler(watcher)
    for k in range(50):
        assert not Counter(pile) - Counter(sample(random.Random(k)).hands[taker])
    plain = [Counter(table.determinize(watcher, random.Random(k)).hands[taker])
             for k in range(50)]
    assert any(Counter(pile) - hand for hand in plain)


def test_the_known_cards_are_true_of_every_real_hand_and_samples_keep_every_card() -> None:
    bot = PolicyBot("normal")
    checked = 0
    for table, rng in normal_tables("kakhead", (2, 4), range(3)):
        deck = sorted(c for z in table.zones() for c in z.cards)
        for move in range(150):
            if table.result() is not None:
                break
            seat = table.to_move()[0]
            if move % 4 == 0:
                known = known_cards(table.state, seat, table.events_for(seat))
                for s, cards in enumerate(known):
                    assert not Counter(cards) - Counter(table.state.hands[s])
                    checked += len(cards)
                st = table.sampler(seat)(rng)
                assert [len(h) for h in st.hands] == [len(h) for h in table.state.hands]
                assert sorted([*st.stock, *st.pile, *st.burned,
                               *(c for zs in (st.hands, st.faceup, st.blind) for z in zs
                                 for c in z)]) == deck
            table.play(seat, bot.choose(table, seat, rng))
    assert checked > 40


def test_the_sampler_reads_only_what_the_seat_saw() -> None:
    table, taker, _ = until_taken(3, 5)
    seat = table.to_move()[0]
    twin = table.clone()
    twin.state = table.determinize(seat, random.Random(9))
    assert twin.view(seat) == table.view(seat) and twin.save() != table.save()
    assert any(known_cards(table.state, seat, table.events_for(seat)))
    a, b = table.sampler(seat), twin.sampler(seat)
    for k in range(10):
        assert a(random.Random(k)).hands == b(random.Random(k)).hands


def test_kh7_a_player_who_took_the_pile_from_his_hand_held_nothing_that_fitted() -> None:
    """KH-7: a valid play may not be refused, so the unseen cards he held when he took the
    pile fit none of it: no sample deals him a 2, 3 or 10 among them (they go on anything)."""
    table, taker, pile = until_taken(2, 3)
    watcher = 1 - taker
    reading = read(table.state, watcher, table.events_for(watcher))
    certain = [ex for ex, weight in reading.know.facts if weight == 1.0]
    assert certain and all({"2S", "3H", "TD"} <= ex for ex in certain)
    sample = table.sampler(watcher)
    unseen = Counter(table.state.hands[taker]) - Counter(reading.known[taker])
    assert not any(c[0] in "23T" for c in unseen)          # true of the real hand
    for k in range(30):
        hand = Counter(sample(random.Random(k)).hands[taker])
        dealt = hand - Counter(reading.known[taker])
        assert sum(dealt.values()) == sum(unseen.values())
