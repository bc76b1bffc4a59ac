"""The search bot (ISMCTS, ``cardparty.core.search``): it never cheats, it leaves the table
alone, it is deterministic under an iteration budget, and the host's off-loop entry point
(``decide``) agrees with it."""

from __future__ import annotations

import random

import pytest

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.playout import Rules
from cardparty.core.search import Budget, decide, pairwise_shares, scores_of, search
from cardparty.core.table import Table

GAMES = [("pikac", 2), ("pikac", 4), ("pika", 2), ("pika", 4), ("kakhead", 2), ("piquet", 2)]
SMALL = Budget(iterations=40, seconds=None, rollout_moves=30)
TREE = Budget(iterations=40, seconds=None, rollout_moves=30, method="tree")


def advance(table: Table, moves: int, rng: random.Random) -> None:
    """Play ``moves`` moves of normal bots (fewer if the game ends)."""
    bot = PolicyBot("normal")
    for _ in range(moves):
        if table.result() is not None:
            return
        actors = table.to_move()
        seat = actors[rng.randrange(len(actors))]
        table.play(seat, bot.choose(table, seat, rng))


def decision_points(game: str, players: int, count: int) -> list[tuple[Table, int]]:
    """Tables at points where the seat to move has a real choice."""
    found: list[tuple[Table, int]] = []
    for seed in range(40):
        table = Table(game, players, seed=seed)
        advance(table, 3 + 7 * seed % 23, random.Random(seed))
        if table.result() is not None:
            continue
        seat = table.to_move()[0]
        if len(table.legal_moves(seat)) > 1:
            found.append((table, seat))
        if len(found) == count:
            break
    assert found, f"no decision point in {game}"
    return found


def hidden_elsewhere(table: Table, seat: int, seed: int) -> Table:
    """A table the seat sees exactly as ``table``, the cards it cannot see somewhere else:
    the same position dealt from another deck, and the cards other seats drew or were dealt
    in private (the events the seat saw as counts) other cards."""
    twin = table.clone()
    for k in range(50):
        twin.state = table.determinize(seat, random.Random(seed * 100 + k))
        if twin.save() != table.save():
            break
    twin._legal_cache.clear()
    rng = random.Random(seed)
    deck = sorted({c for e in table.events for c in e.get("cards", ())})
    twin.events = [{**e, "cards": [rng.choice(deck) for _ in e["cards"]]}
                   if e.get("private") and e.get("seat") != seat and e.get("cards") else e
                   for e in table.events]
    return twin


@pytest.mark.parametrize("budget", [SMALL, TREE], ids=["race", "tree"])
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_same_view_gives_the_same_move(game: str, players: int, budget: Budget) -> None:
    """The bot sees only its seat: two tables that agree on everything the seat sees but
    hold the unseen cards in other places get the same move and the same root statistics
    for the same rng."""
    differ = scrambled = 0
    for n, (table, seat) in enumerate(decision_points(game, players, 3)):
        twin = hidden_elsewhere(table, seat, n)
        assert twin.view(seat) == table.view(seat)
        assert twin.events_for(seat) == table.events_for(seat)
        differ += twin.save() != table.save()
        scrambled += twin.events != table.events
        a: dict[Move, tuple[int, float]] = {}
        b: dict[Move, tuple[int, float]] = {}
        move_a = search(table, seat, random.Random(7), budget, stats=a)
        move_b = search(twin, seat, random.Random(7), budget, stats=b)
        assert move_a.same(move_b)
        assert a == b
    assert differ, "every twin held its hidden cards where the table does: nothing was tested"
    assert scrambled or game not in ("pika", "pikac"), "no private event was changed"


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_search_plays_a_legal_move_and_leaves_the_table_alone(game: str, players: int) -> None:
    for table, seat in decision_points(game, players, 2):
        before = table.save()
        move = search(table, seat, random.Random(3), SMALL)
        assert any(m is move for m in table.legal_moves(seat))
        assert table.save() == before
        table.play(seat, move)


@pytest.mark.parametrize("budget", [SMALL, TREE], ids=["race", "tree"])
def test_the_iteration_budget_makes_the_search_deterministic(budget: Budget) -> None:
    table, seat = decision_points("piquet", 2, 1)[0]
    first: dict[Move, tuple[int, float]] = {}
    again: dict[Move, tuple[int, float]] = {}
    search(table, seat, random.Random(5), budget, stats=first)
    search(table, seat, random.Random(5), budget, stats=again)
    assert first == again
    spent = sum(v for v, _ in first.values())
    if budget.method == "tree":
        assert spent == budget.iterations
    else:                           # the race may end early, when only the policy's move is left
        assert 0 < spent <= budget.iterations


def test_decide_from_a_snapshot_agrees_with_the_search() -> None:
    """The host's entry point: a pure function of a saved table, a seat, a seed, a budget."""
    for table, seat in decision_points("pikac", 4, 2):
        index = decide(table.save(), seat, 11, SMALL)
        move = search(table, seat, random.Random(11), SMALL)
        assert table.legal_moves(seat)[index].same(move)


def test_a_single_legal_move_is_played_without_searching() -> None:
    table = Table("pikac", 2, seed=1)
    seat = table.to_move()[0]
    legal = table.legal_moves(seat)
    if len(legal) == 1:
        assert search(table, seat, random.Random(0), SMALL) is legal[0]
    with pytest.raises(ValueError, match="no legal move"):
        search(table, 1 - seat, random.Random(0), SMALL)


def test_a_budget_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="iterations, seconds or both"):
        Budget(iterations=None, seconds=None)
    with pytest.raises(ValueError, match="at least one iteration"):
        Budget(iterations=0)


def test_scores_and_estimates_rank_seats() -> None:
    from cardparty.core.contract import Result

    assert scores_of(Result(places=(2, 1))) == [0.0, 1.0]
    assert scores_of(Result(places=(1, 1, 3, 4))) == [1.0, 1.0, 1 / 3, 0.0]
    two = pairwise_shares([0.0, -3.0], 2.0)
    assert two[0] > 0.5 > two[1] and abs(sum(two) - 1.0) < 1e-9
    four = pairwise_shares([0.0, 0.0, -5.0, 5.0], 2.0)
    assert four[3] > four[0] == four[1] > four[2]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_race_keeps_the_policys_move_without_enough_samples(game: str, players: int) -> None:
    """The race plays another move than the game's own only on ``min_samples`` paired samples
    or more: below that, whatever the rollouts say, the policy's move is played."""
    shy = Budget(iterations=60, seconds=None, min_samples=1000)
    normal = PolicyBot("normal")
    for table, seat in decision_points(game, players, 3):
        stats: dict[Move, tuple[int, float]] = {}
        move = search(table, seat, random.Random(2), shy, stats=stats)
        assert move.same(normal.choose(table, seat, random.Random(0)))
        assert 1 < sum(n for n, _ in stats.values()) <= shy.iterations


@pytest.mark.parametrize(("game", "players"), [("pika", 2), ("pika", 4), ("pikac", 2),
                                               ("pikac", 4), ("piquet", 2)])
def test_the_rollouts_policy_read_from_the_state_is_the_normal_policy(game: str,
                                                                       players: int) -> None:
    """``cardparty_bot_rollout`` (the normal policy without the view, for speed) answers the
    very move ``cardparty_bot_move`` answers at "normal", with the same draws from the rng."""
    rules = Rules(Table(game, players, seed=0))
    assert rules.fast is not None and rules.policy is not None
    bot = PolicyBot("normal")
    asked = 0
    for seed in range(8):
        table = Table(game, players, seed=seed)
        rng = random.Random(seed)
        while table.result() is None:
            actors = table.to_move()
            seat = actors[rng.randrange(len(actors))]
            moves = table.legal_moves(seat)
            if seat >= 0 and len(moves) > 1:
                state = table.state

                def view(s: int = seat, st: object = state) -> dict[str, object]:
                    return {**rules.view(state=st, seat=s), "seat": s}

                fast, slow = random.Random(asked), random.Random(asked)
                assert rules.fast(state=state, seat=seat, moves=moves, rng=fast) is \
                    rules.policy(view=view, moves=moves, rng=slow, level="normal")
                assert fast.random() == slow.random()
                asked += 1
            table.play(seat, bot.choose(table, seat, rng))
    assert asked > 60
