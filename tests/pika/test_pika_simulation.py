"""PI-1 ... PI-15 under random play: 600 seeded Pika games (``bench/check_games.py`` plays 2,040)
with every invariant checked after every move (core/simcheck.py). A failing seed is a bug to
fix, then a scenario test."""

from __future__ import annotations

import pytest

from cardparty.core.simcheck import check_random_games

GAMES_PER_CHUNK = 50
CHUNKS = 4


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pika_random_games_keep_every_invariant(players: int, chunk: int) -> None:
    seed = 10_000 * players + chunk * GAMES_PER_CHUNK
    report = check_random_games("pika", players, GAMES_PER_CHUNK, seed=seed)
    assert report.games == GAMES_PER_CHUNK
    assert sum(report.outcomes.values()) == GAMES_PER_CHUNK
    # every seat finished first sometimes: the places are a ranking, not a constant
    assert all(places[0] > 0 for places in report.places)


@pytest.mark.slow
def test_pika_strict_plus4_variant_keeps_every_invariant() -> None:
    report = check_random_games("pika", 4, 100, seed=77, variants=["pika-strict-plus4"])
    assert report.games == 100
