"""KH-1 ... KH-12 under random play: 140 seeded Kakhead games, 2 to 8 players, with every
invariant of core/simcheck.py checked after every move (cards conserved, no view showing a card
its seat may not see -- blind cards to nobody, their owner included -- listing and refusal
agreeing, determinize, replay, places a ranking). A failing seed is a bug to fix, then a
scenario test.

Random Kakhead games are long (about 450 moves at four players, 580 at eight: random players
take the pile often). The game's state round-trips after every move; the whole table's save
(which holds the journal) at the checker's default interval and at the end.
"""

from __future__ import annotations

import pytest

from cardparty.core.simcheck import check_random_games

# 7 player counts x 20 games = 140 games here; ``bench/check_games.py`` plays the
# same check over 2,002 (its figures are in docs/performance.md). The suite keeps to what fits
# its five minutes on two cores.
GAMES = 20


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_kakhead_random_games_keep_every_invariant(players: int) -> None:
    report = check_random_games("kakhead", players, GAMES, seed=10_000 * players)
    assert report.games == GAMES
    # KH-12: games that cycle end in an agreed draw; most games are played out (KH-11)
    assert set(report.outcomes) <= {"finished", "draw agreed"}
    assert report.outcomes["finished"] > GAMES // 2
    # the places are a ranking, not a constant: at two to four players every seat is the
    # Kakhead sometimes; at more, in 20 games, some seat may never be (7 x (6/7)**20: one
    # chance in three at seven), so there at least four seats are
    assert sum(1 for places in report.places if places[-1] > 0) >= min(players, 4)


def test_kakhead_random_games_with_the_draw_offer_at_its_lowest_bound() -> None:
    """KH-12 revised: with ``offer_after`` at 10 random players offer early, refuse now and
    then, and agree; every invariant still holds (the full 2,000-game run is `cardparty
    simulate`'s, see docs/rules/kakhead.md)."""
    report = check_random_games("kakhead", 4, 20, seed=77_000, settings={"offer_after": 10})
    assert report.games == 20
    assert set(report.outcomes) == {"finished", "draw agreed"}
