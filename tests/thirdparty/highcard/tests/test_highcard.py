"""High card's own tests: run them with ``python -m pytest`` in this folder once the package
is installed (``pip install -e .``). Then ``cardparty check highcard`` checks everything else
before you publish: the contract, a few hundred random games, save and restore, determinize,
bots of every level and the balance."""

from __future__ import annotations

from cardparty.core.contract import Move
from cardparty.core.discovery import load_catalog
from cardparty.core.simcheck import check_random_games
from cardparty.core.table import open_table

GAME = "highcard"
VARIANT = "highcard-lowball"
#: Seat 0 is dealt AS 7C 8C, seat 1 KH 9D TD: the ``deck`` setting builds an exact deal.
DEAL = {"deck": ["AS", "7C", "8C", "KH", "9D", "TD"]}


def test_the_game_and_its_variant_are_installed() -> None:
    catalog = load_catalog()
    assert catalog.game(GAME).id == GAME
    assert catalog.variant(GAME, VARIANT).game == GAME


def test_every_invariant_holds_in_random_games() -> None:
    info = load_catalog().game(GAME)
    for players in range(info.min_players, info.max_players + 1):
        check_random_games(GAME, players, 100, seed=players)
        check_random_games(GAME, players, 50, seed=players, variants=[VARIANT])


def test_the_highest_card_takes_the_trick() -> None:
    table = open_table(GAME, 2, DEAL, seed=1)
    table.play(0, Move("play", ("AS",)))
    table.play(1, Move("play", ("KH",)))
    assert table.view(None)["counters"]["tricks"] == [1, 0]


def test_lowball_changes_only_its_own_table() -> None:
    low = open_table(GAME, 2, DEAL, variants=[VARIANT], seed=1)
    high = open_table(GAME, 2, DEAL, seed=1)
    for table in (low, high):
        table.play(0, Move("play", ("AS",)))
        table.play(1, Move("play", ("KH",)))
    assert low.view(None)["counters"]["tricks"] == [0, 1]
    assert high.view(None)["counters"]["tricks"] == [1, 0]
