"""What the public history tells about hidden hands (``cardparty.core.infer``): facts stay
true of the real hand whatever card a player plays, and the deal respects them without
depending on where the hidden cards lie."""

from __future__ import annotations

import random

from cardparty.core.infer import Knowledge, Refill, deal, sampler

RED = frozenset({"R1", "R2", "R3"})
BLUE = frozenset({"B1", "B2"})


def test_a_fact_binds_the_cards_held_then_not_the_cards_drawn_later() -> None:
    know = Knowledge([0, 2])
    know.learn(1, RED)
    know.gain(1, 1)
    assert [know._excluded(s) for s in know.slots[1]] == [RED, RED, frozenset()]


def test_a_played_card_leaves_the_most_constrained_slot_it_fits() -> None:
    """Slots are nested (older cards carry every later fact), so taking the most constrained
    slot a card fits leaves what is left no more constrained than the truth."""
    know = Knowledge([3])
    know.learn(0, RED)                       # the three cards then: no red
    know.gain(0, 1)                          # a fourth, unknown
    know.learn(0, BLUE)                      # all four: no blue
    know.lose(0, "G5")                       # fits every slot: an old one goes
    assert sorted(len(know._excluded(s)) for s in know.slots[0]) == [2, 5, 5]
    know.lose(0, "R1")                       # red: only the newer card can be it
    assert sorted(len(know._excluded(s)) for s in know.slots[0]) == [5, 5]


def test_a_weighted_fact_a_play_contradicts_is_forgotten() -> None:
    know = Knowledge([2])
    know.learn(0, RED, 0.9)
    assert know.constrained()
    know.lose(0, "R2")
    assert not know.constrained()
    assert len(know.slots[0]) == 1


def test_weighted_facts_hold_in_about_their_share_of_samples() -> None:
    know = Knowledge([0, 3])
    know.learn(1, RED, 0.75)
    rng = random.Random(1)
    held = sum(bool(know.draw_excluded([1], rng)[0]) for _ in range(2000))
    assert 1400 < held < 1600


def test_the_deal_respects_every_fact_and_keeps_the_sizes() -> None:
    rng = random.Random(3)
    for _ in range(200):
        hand = ["R1", "B1", "G1"]
        stock = ["R2", "R3", "B2", "G2", "G3", "Y1"]
        assert deal(rng, [hand, stock], [set(), set()], [[RED | BLUE, RED], []])
        assert len(hand) == 3 and len(stock) == 6
        assert sorted(hand + stock) == sorted(["R1", "B1", "G1", "R2", "R3", "B2", "G2", "G3",
                                               "Y1"])
        assert sum(c not in RED | BLUE for c in hand) >= 1
        assert sum(c not in RED for c in hand) >= 2


def test_the_deal_depends_on_the_cards_not_on_where_they_lie() -> None:
    """The pool is sorted before it is dealt: the same cards in other places, the same rng,
    the same deal (a bot must not learn the real deal from its samples)."""
    a, b = ["R1", "G1"], ["B1", "Y1", "G2"]
    c, d = ["G2", "Y1"], ["G1", "R1", "B1"]
    assert deal(random.Random(5), [a, b], [set(), set()], [[RED], []])
    assert deal(random.Random(5), [c, d], [set(), set()], [[RED], []])
    assert (a, b) == (c, d)


def test_a_deal_that_cannot_meet_the_facts_says_so_and_changes_nothing() -> None:
    hand, stock = ["R1", "R2"], ["R3", "G1"]
    assert not deal(random.Random(0), [hand, stock], [set(), set()], [[RED, RED], []])
    assert (hand, stock) == (["R1", "R2"], ["R3", "G1"])


def test_fixed_positions_stay_where_they_are() -> None:
    hand, stock = ["R1", "G1"], ["B1", "Y1", "G2"]
    for seed in range(30):
        assert deal(random.Random(seed), [hand, stock], [set(), {0}], [[RED], []])
        assert stock[0] == "B1"


def test_the_sampler_sets_aside_facts_that_do_not_add_up_to_the_hands() -> None:
    """A history the game's tracker misread (a variant that changes the rules) counts other
    hands than the state holds: no facts rather than wrong ones."""
    class State:
        hands = [["R1", "B1"], ["R2", "B2"]]

        def copy(self) -> State:
            return self

    def hidden(twin: State, others: list[int]) -> list[list[str]]:
        return [twin.hands[s] for s in others] + [[]]

    adds_up, short = Knowledge([2, 2]), Knowledge([2, 1])
    for know in (adds_up, short):
        know.learn(1, RED)
    assert sampler(State(), 0, 2, adds_up, hidden) is not None
    assert sampler(State(), 0, 2, short, hidden) is None


def test_a_refill_is_the_pile_under_its_top_and_the_seat_counts_its_own_draws_out() -> None:
    """``core.stock``: a draw that empties the stock takes its last cards first, then the
    refill's (every pile card but the top); the stock is then dealt from the refill's cards
    less those the seat drew, and only from those still hidden."""
    track = Refill(12)
    track.drawn(4)                           # the deal: 8 cards left
    track.turned("R1")                       # 7 left
    track.thrown(["R2", "B1", "B2"])
    track.drawn(5)                           # 2 left
    assert track.stock_from(["G1", "G2"], 2) is None      # no refill yet
    track.refilled()
    track.drawn(3, ["G1", "G2", "R1"])       # the seat: the old stock's two, then R1
    assert track.stock == 2 and track.pile == ["B2"]
    assert track.stock_from(["R2", "B1", "Y1"], 2) == ["B1", "R2"]
    track.drawn(1)                           # another seat drew one of them, unseen
    assert track.stock_from(["R2", "B1", "Y1"], 1) == ["B1", "R2"]
    assert track.stock_from(["R2", "Y1"], 1) == ["R2"]    # B1 was seen played since
    assert track.stock_from(["R2", "B1"], 2) is None      # the history says 1, not 2


def test_a_sampler_deals_the_stock_from_the_refill_and_the_rest_to_the_hands() -> None:
    class State:
        def __init__(self) -> None:
            self.hands = [["Y1"], ["R1", "G1", "G2"]]
            self.stock = ["R2", "B1"]

        def copy(self) -> State:
            twin = State()
            twin.hands = [list(h) for h in self.hands]
            twin.stock = list(self.stock)
            return twin

    def hidden(twin: State, others: list[int]) -> list[list[str]]:
        return [twin.hands[s] for s in others] + [twin.stock]

    sample = sampler(State(), 0, 2, None, hidden, stock_from=["B1", "R1", "R2"])
    assert sample is not None
    stocks = set()
    for seed in range(60):
        twin = sample(random.Random(seed))
        assert set(twin.stock) <= {"B1", "R1", "R2"} and {"G1", "G2"} <= set(twin.hands[1])
        stocks.add(tuple(sorted(twin.stock)))
    assert len(stocks) == 3
    assert sampler(State(), 0, 2, None, hidden) is None   # nothing known: the plain deal
