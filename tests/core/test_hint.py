"""The hint for a practising player (``cardparty.core.hint``): the hard bot's move from the
seat's own view, with a one-line reason; it never cheats, leaves the table alone, and a host
can ask it of a save off its loop."""

from __future__ import annotations

import random

import pytest

from cardparty.core.contract import Move
from cardparty.core.hint import hint, hint_index
from cardparty.core.i18n import Msg, translate
from cardparty.core.search import Budget, search
from cardparty.core.table import Table
from cardparty.plugins.pikac import bot as pikac_bot
from tests.core.test_search import decision_points, hidden_elsewhere

SMALL = Budget(iterations=40, seconds=None, rollout_moves=30)
GAMES = [("pikac", 2), ("pika", 2), ("pika", 4), ("kakhead", 2), ("piquet", 2)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_hint_is_the_hard_bots_move_with_a_reason(game: str, players: int) -> None:
    for table, seat in decision_points(game, players, 2):
        before = table.save()
        move, reason = hint(table, seat, SMALL, seed=5)
        assert any(m is move for m in table.legal_moves(seat))
        assert move.same(search(table, seat, random.Random(5), SMALL))
        assert isinstance(reason, Msg) and str(reason)
        assert table.save() == before


@pytest.mark.parametrize(("game", "players"), [("pika", 2), ("pikac", 2)])
def test_the_hint_sees_only_the_seat(game: str, players: int) -> None:
    """A table the seat sees alike, the hidden cards elsewhere: the same hint, word for word."""
    for n, (table, seat) in enumerate(decision_points(game, players, 3)):
        twin = hidden_elsewhere(table, seat, n)
        a, why_a = hint(table, seat, SMALL, seed=3)
        b, why_b = hint(twin, seat, SMALL, seed=3)
        assert a.same(b) and why_a == why_b
        assert (why_a.to_wire() if why_a else None) == (why_b.to_wire() if why_b else None)


def test_a_host_asks_the_hint_of_a_save() -> None:
    for table, seat in decision_points("pikac", 4, 2):
        index, wire = hint_index(table.save(), seat, 9, SMALL)
        move, reason = hint(table, seat, SMALL, seed=9)
        assert table.legal_moves(seat)[index].same(move)
        assert wire == (reason.to_wire() if reason else None)


def test_a_single_move_says_so_and_no_move_is_an_error() -> None:
    table = Table("pika", 2, seed=1)
    rng = random.Random(1)
    while True:
        seat = table.to_move()[0]
        moves = table.legal_moves(seat)
        if len(moves) == 1:
            break
        table.play(seat, moves[rng.randrange(len(moves))])
    assert hint(table, seat, SMALL) == (moves[0], "the only move")
    with pytest.raises(ValueError, match="no legal move"):
        hint(table, 1 - seat, SMALL)


def test_the_reason_names_the_move_the_search_beat() -> None:
    """Where the search plays another move than the game's policy, the reason says which and
    by how much; where it keeps the policy's, the game's own reason."""
    overruled = kept = 0
    for table, seat in decision_points("pikac", 2, 5) + decision_points("pika", 2, 5):
        busy = Budget(iterations=150, seconds=None, trust=0.0, confidence=0.0, min_samples=2)
        move, reason = hint(table, seat, busy, seed=1)
        assert reason is not None
        own = table.pm.hook.cardparty_bot_move(view=lambda t=table, s=seat: t.view(s),
                                               moves=table.legal_moves(seat),
                                               rng=random.Random(0), level="normal")
        if own is not None and move is not own:
            assert reason.id.startswith("better than {other} by {gain} in 100")
            assert str(own.label) in reason
            overruled += 1
        else:
            kept += 1
    assert overruled and kept


def pikac_view(hand: list[str], pending: int = 0) -> dict:
    return {"hand": hand, "seat": 0, "direction": 1, "counters": {"pending draw": pending},
            "players": [{"count": len(hand), "place": None}, {"count": 7, "place": None}]}


def test_pikac_says_which_defenders_a_throw_keeps() -> None:
    """PK-14: the 2♦ and J♠ pass and cancel a count; shedding a normal card keeps them."""
    hand = ["JS", "5H", "2D", "9C"]
    moves = [Move("play", ("JS",)), Move("play", ("5H",)), Move("play", ("2D",)), Move("draw")]
    reason = pikac_bot.cardparty_bot_reason(pikac_view(hand), moves, moves[1])
    assert reason == "sheds 5♥ and keeps J♠ 2♦ to pass a count"
    assert translate(reason, "cs") != str(reason) != translate(reason, "ca")
    passing = pikac_bot.cardparty_bot_reason(pikac_view(["2D", "9C"], pending=4),
                                             [Move("play", ("2D",)), Move("take")],
                                             Move("play", ("2D",)))
    assert passing == "passes the count on with 2♦, the defence you need least"
