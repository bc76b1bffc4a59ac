"""A game and a variant packaged outside the project (tests/thirdparty/highcard), installed with
pip into a temporary folder, found through the ``cardparty.games`` entry point and played
through the embedding API: a third-party game is a first-class citizen."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardparty.core.contract import Move
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.simcheck import check_random_games
from cardparty.core.table import open_table

PACKAGE = Path(__file__).parent.parent / "thirdparty" / "highcard"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("src")
    shutil.copytree(PACKAGE, build / "highcard")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--no-build-isolation", "--target", str(target), str(build / "highcard")],
                   check=True)
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    try:
        yield load_catalog(refresh=True)
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.startswith("cardparty_highcard")]:
            del sys.modules[name]
        importlib.invalidate_caches()
        load_catalog(refresh=True)


def test_the_installed_game_and_variant_are_discovered(installed: Catalog) -> None:
    assert installed.games["highcard"].name == "High card"
    assert installed.variants["highcard-lowball"].game == "highcard"
    assert "pika" in installed.games                      # built-ins come the same way


def test_the_third_party_game_plays_through_the_embedding_api(installed: Catalog) -> None:
    table = open_table("highcard", 2, {"deck": ["AS", "7C", "8C", "KH", "9D", "TD"]}, seed=1)
    assert [m.label for m in table.legal_moves(0)] == ["lay AS", "lay 7C", "lay 8C"]
    table.play(0, Move("play", ("AS",)))
    table.play(1, Move("play", ("KH",)))
    assert table.view(None)["counters"]["tricks"] == [1, 0]


def test_the_third_party_variant_changes_only_its_table(installed: Catalog) -> None:
    deck = {"deck": ["AS", "7C", "8C", "KH", "9D", "TD"]}
    low = open_table("highcard", 2, deck, variants=["highcard-lowball"], seed=1)
    high = open_table("highcard", 2, deck, seed=1)
    for table in (low, high):
        table.play(0, Move("play", ("AS",)))
        table.play(1, Move("play", ("KH",)))
    assert low.view(None)["counters"]["tricks"] == [0, 1]
    assert high.view(None)["counters"]["tricks"] == [1, 0]


def test_the_random_simulation_checker_holds_the_third_party_game(installed: Catalog) -> None:
    report = check_random_games("highcard", 3, 50, seed=5, variants=["highcard-lowball"])
    assert report.games == 50
