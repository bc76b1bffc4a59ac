"""PK-1 ... PK-24 under random play: 210 seeded Pikáč games, 30 for each table size from 2 to 8
players (``bench/check_games.py`` plays 2,002), with every invariant of core/simcheck.py checked
after every move (cards conserved, no hidden card in any view, the listing agreeing with the
refusal, save/restore, determinize, replay, the ranking). A failing seed is a bug to fix, then a
scenario test.

Random Pikáč is long: the bots continue chains at random, so counts grow (2♠ doubles, Jokers
add 5) and someone takes half the deck; an average checked game runs from about 400 moves (2
players) to 1,800 (8 players). The whole run is therefore slow; see docs/rules/pikac.md.
"""

from __future__ import annotations

import pytest

from cardparty.core.simcheck import check_random_games

GAMES_PER_CHUNK = 15
CHUNKS = 2                      # 30 games per table size, 210 in all


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", range(2, 9))
def test_pikac_random_games_keep_every_invariant(players: int, chunk: int) -> None:
    seed = 10_000 * players + chunk * GAMES_PER_CHUNK
    report = check_random_games("pikac", players, GAMES_PER_CHUNK, seed=seed)
    assert report.games == GAMES_PER_CHUNK
    assert report.outcomes.get("finished", 0) + report.outcomes.get("stalled", 0) \
        == GAMES_PER_CHUNK
    # the loser is not always the same seat: the places are a ranking, not a constant
    assert sum(1 for places in report.places if places[players - 1] > 0) > 1


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["pikac-play-drawn", "pikac-live-starter"])
def test_pikac_variants_keep_every_invariant(variant: str) -> None:
    report = check_random_games("pikac", 3, 20, seed=77, variants=[variant])
    assert report.games == 20


def test_pikac_a_few_random_games_keep_every_invariant() -> None:
    """The quick guard that runs with every test run: a handful of short two-player games."""
    report = check_random_games("pikac", 2, 6, seed=5)
    assert report.games == 6
