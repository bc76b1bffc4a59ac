"""Pika's reading of the public history for the search bot (``plugins/pika/infer.py``):
what the rules make certain is respected by every determinization and is true of the real
hands, what was a choice is weighed, and nothing hidden is read."""

from __future__ import annotations

import random

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.table import Table, open_table
from cardparty.plugins.pika.infer import DANGER_WEIGHT, fitting, knowledge, stopping
from tests.normal_play import normal_tables

DRAW = Move("draw", (), None)


def forced_draw() -> Table:
    """Seat 0 holds R1 R2 on the turned B5: nothing fits, it draws G7 (which does not fit
    either) and the turn passes to seat 1."""
    deck = ["R1", "R2", "B3", "G4", "B5", "G7", "Y8", "B9", "R5", "W", "Y1", "W+4", "G5"]
    table = open_table("pika", 2, {"deck": deck, "hand_size": 2, "dealer": 1}, seed=1)
    assert [m.kind for m in table.legal_moves(0)] == ["draw"]
    table.play(0, DRAW)
    assert table.to_move() == (1,) and table.state.hands[0] == ["R1", "R2", "G7"]
    return table


def test_pi5_a_player_who_had_to_draw_is_dealt_nothing_that_fitted() -> None:
    """PI-5 (and its Decision): a player may draw only when nothing fits, and a drawn card
    that fits may be played at once; so seat 0 held no blue, no 5 and no black card, nor
    did it draw one. Every sample of seat 1's search says so; the plain determinization does
    not."""
    table = forced_draw()
    banned = fitting("B5", "B")
    sample = table.sampler(1)
    dealt: set[str] = set()
    for k in range(200):
        hand = sample(random.Random(k)).hands[0]
        assert len(hand) == 3 and not banned & set(hand)
        dealt |= set(hand)
    assert len(dealt) > 3                            # samples, not the real hand
    plain = [table.determinize(1, random.Random(k)).hands[0] for k in range(200)]
    assert any(banned & set(h) for h in plain)


def test_pi5_the_facts_are_true_of_the_real_hands_all_game() -> None:
    """Whatever the players do, the certain facts a seat holds about the others are true of
    their real hands (a play never leaves a fact on a card that might be the played one)."""
    bot = PolicyBot("normal")
    checked = 0
    for players in (2, 4):
        for seed in range(12):
            table = Table("pika", players, seed=seed)
            rng = random.Random(seed)
            while table.result() is None:
                actors = table.to_move()
                seat = actors[rng.randrange(len(actors))]
                if seat >= 0:
                    know = knowledge(table.state, seat, table.events_for(seat))
                    assert know is not None       # the history adds up to every hand
                    assert [len(s) for s in know.slots] == [len(h) for h in table.state.hands]
                    certain = [w >= 1.0 for _, w in know.facts]
                    for other in range(players):
                        hand = table.state.hands[other]
                        ex = sorted((know._excluded(s, certain) for s in know.slots[other]),
                                    key=len, reverse=True)
                        for i, e in enumerate(ex):
                            assert sum(c not in e for c in hand) >= i + 1
                            checked += bool(e)
                    table.play(seat, bot.choose(table, seat, rng))
                else:
                    table.play(seat, table.legal_moves(seat)[0])
    assert checked > 1000


def test_pi9_taking_the_count_is_a_weighed_fact() -> None:
    """PI-9's Decision: a player may take the count even when he could chain, so a take is
    weighed (``TAKE_WEIGHT``), not certain."""
    table = Table("pika", 2, seed=3)
    know = knowledge(table.state, 0, [{"type": "play", "seat": 0, "cards": ["R+2"],
                                       "choice": None},
                                      {"type": "take", "seat": 1, "count": 2, "owed": 2}])
    if know is not None:                     # the made-up history may not add up to seed 3
        assert all(w < 1.0 for _, w in know.facts)


def test_the_sampler_reads_only_what_the_seat_saw() -> None:
    """Another deck behind the same view, and other cards in the draws seat 1 saw as a
    count: the same samples."""
    table = forced_draw()
    twin = table.clone()
    twin.state = table.determinize(1, random.Random(9))
    twin.events = [{**e, "cards": ["W"] * len(e["cards"])} if e.get("private") else e
                   for e in table.events]
    assert twin.view(1) == table.view(1) and twin.events_for(1) == table.events_for(1)
    assert twin.save() != table.save()
    a, b = table.sampler(1), twin.sampler(1)
    for k in range(20):
        assert a(random.Random(k)).hands == b(random.Random(k)).hands


def test_a_player_who_did_not_stop_the_next_one_about_to_go_out_held_nothing_that_would() -> None:
    """The normal policy blocks, reverses or adds when the next player holds two cards or
    fewer; a normal player who played another card then held none that fitted (a weighed
    fact, ``DANGER_WEIGHT``): every such fact, read as it is learnt, is true of his hand."""
    bot = PolicyBot("normal")
    checked = 0
    for table, rng in normal_tables("pika", (2, 3), range(12)):
        players = table.players
        learnt = [0] * players
        while table.result() is None:
            actors = table.to_move()
            seat = actors[rng.randrange(len(actors))]
            table.play(seat, bot.choose(table, seat, rng))
            for watcher in range(players):
                know = knowledge(table.state, watcher, table.events_for(watcher))
                assert know is not None
                for f in range(learnt[watcher], len(know.facts)):
                    cards, weight = know.facts[f]
                    if cards != stopping(*_last_top(table)) or weight != DANGER_WEIGHT:
                        continue
                    for s in range(players):
                        if any(f in slot for slot in know.slots[s]):
                            assert not set(table.state.hands[s]) & cards
                            checked += 1
                learnt[watcher] = len(know.facts)
    assert checked > 20


def _last_top(table: Table) -> tuple[str, str]:
    """The top card and colour in force before the last card played."""
    plays = [e for e in table.events if e.get("type") == "play"]
    if len(plays) < 2:
        return table.state.pile[0], table.state.pile[0][0]
    before = plays[-2]
    card = before["cards"][0]
    return card, before.get("choice") or card[0]
