"""The random-simulation checker over Piquet: 2,000 seeded single deals and 200 full matches
at the Czech table, and the classic laws. Card conservation, no leaked card in any view
(talons, discards, the cards nobody took), refusal agreeing with the listing, save/restore,
determinize and replay, after every move (``cardparty.core.simcheck``)."""

from __future__ import annotations

import pytest

from cardparty.core.simcheck import check_random_games

DEALS_PER_CHUNK = 500
MATCHES_PER_CHUNK = 100


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_two_thousand_random_deals_keep_every_invariant(chunk):
    report = check_random_games("piquet", 2, DEALS_PER_CHUNK, seed=chunk * DEALS_PER_CHUNK,
                                settings={"deals": 1})
    assert report.games == DEALS_PER_CHUNK
    assert sum(report.outcomes.values()) == DEALS_PER_CHUNK


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
def test_two_hundred_random_matches_to_101_keep_every_invariant(chunk):
    report = check_random_games("piquet", 2, MATCHES_PER_CHUNK, seed=50_000 + chunk * 1_000)
    assert report.games == MATCHES_PER_CHUNK
    assert report.moves / report.games > 60          # whole matches, several deals each


@pytest.mark.slow
def test_random_deals_under_the_classic_laws_keep_every_invariant():
    report = check_random_games("piquet", 2, 300, seed=90_000, variants=["piquet-classic"],
                                settings={"deals": 1})
    assert report.games == 300


@pytest.mark.slow
def test_random_rubicon_parties_keep_every_invariant():
    report = check_random_games("piquet", 2, 20, seed=95_000, variants=["piquet-classic"])
    assert report.games == 20
    assert report.moves / report.games > 6 * 20      # six deals each


@pytest.mark.slow
def test_random_deals_with_every_table_option_keep_every_invariant():
    report = check_random_games("piquet", 2, 150, seed=97_000,
                                settings={"deals": 2, "premiums": True, "carte_rouge": True,
                                          "last_trick": 3, "target": 100})
    assert report.games == 150
