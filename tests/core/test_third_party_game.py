"""A game and a variant packaged outside the project (tests/thirdparty/highcard), installed with
pip into a temporary folder, found through the ``cardparty.games`` entry point and played
through the embedding API: a third-party game is a first-class citizen."""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardparty.core import newgame
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


# --- cardparty new-game: the template is the example ------------------------------------------

def test_the_template_is_what_the_example_generates() -> None:
    """``make template`` writes what ``generate`` makes of the example: run it after changing
    tests/thirdparty/highcard."""
    assert newgame.generate(PACKAGE) == newgame.read_template()


def test_the_template_made_for_high_card_is_the_example_itself() -> None:
    files = newgame.render(newgame.read_template(), newgame.names("highcard", "High card"))
    assert files == {target.replace("@@package@@", "cardparty_highcard")
                     .replace("@@id@@", "highcard"): (PACKAGE / source).read_text()
                     for source, _name, target in newgame.FILES}


@pytest.mark.parametrize(("name", "why"), [("My Game", "lower-case"), ("9lives", "letter"),
                                           ("a--b", "hyphens"), ("x" * 30, "24")])
def test_new_game_refuses_a_name_the_template_cannot_take_in_one_line(
        tmp_path: Path, name: str, why: str) -> None:
    done = cli("new-game", name, "--dir", str(tmp_path))
    assert done.returncode == 2 and why in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_new_game_writes_over_nothing_and_takes_no_installed_game(tmp_path: Path) -> None:
    assert cli("new-game", "pika", "--dir", str(tmp_path)).returncode == 2
    assert cli("new-game", "fresh", "--dir", str(tmp_path)).returncode == 0
    again = cli("new-game", "fresh", "--dir", str(tmp_path))
    assert again.returncode == 2 and "exists already" in again.stderr


def cli(*args: str, path: Path | None = None, cwd: Path | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``cardparty ARGS`` in a process of its own; ``path``: a folder of installed packages
    it sees (as a host where they are installed)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "cardparty.client.cli", *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)


def pip_install(folder: Path, target: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--no-build-isolation", "--target", str(target), str(folder)], check=True)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two packages made by ``cardparty new-game`` and installed into one folder: ``plain``
    as the template makes it, and ``aceslow`` changed in its rules only (four cards each,
    aces low)."""
    src = tmp_path_factory.mktemp("authors")
    site = tmp_path_factory.mktemp("site")
    for name in ("plain", "aceslow"):
        done = cli("new-game", name, "--dir", str(src))
        assert done.returncode == 0, done.stderr
        assert f"cardparty-{name}" in done.stdout
    rules = src / "cardparty-aceslow" / "cardparty_aceslow" / "__init__.py"
    text = rules.read_text()
    assert 'ORDER = "789TJQKA"' in text and "HAND = 3" in text
    rules.write_text(text.replace('ORDER = "789TJQKA"', 'ORDER = "A789TJQK"')
                     .replace("HAND = 3", "HAND = 4"))
    for name in ("plain", "aceslow"):
        pip_install(src / f"cardparty-{name}", site)
    return src, site


def test_a_new_game_installs_is_listed_and_passes_its_own_tests(made: tuple[Path, Path]
                                                                  ) -> None:
    src, site = made
    listed = cli("games", path=site).stdout
    assert any(line.split()[:2] == ["plain", "Plain"] for line in listed.splitlines())
    assert "variant plain-lowball" in listed and "variant aceslow-lowball" in listed
    env = {**os.environ, "PYTHONPATH": str(site)}
    own = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         cwd=src / "cardparty-plain", env=env, capture_output=True, text=True,
                         timeout=300)
    assert own.returncode == 0, own.stdout + own.stderr
    assert "4 passed" in own.stdout


def test_a_new_game_changed_only_in_its_rules_passes_check(made: tuple[Path, Path]) -> None:
    _src, site = made
    for variant in ((), ("--variant", "aceslow-lowball")):
        done = cli("check", "aceslow", *variant, "--games", "130", path=site, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        for step in ("contract: ok", "random games: ok", "clone: ok", "bots: ok",
                     "balance: ok"):
            assert step in done.stdout, done.stdout
        assert "130 games (60 of 2, 40 of 3, 30 of 4 players)" in done.stdout


def test_new_games_play_at_a_host_with_bots_of_every_level(made: tuple[Path, Path],
                                                            tmp_path: Path) -> None:
    """A ``cardparty host`` that has the packages installed; bot clients that have not (the
    host sends every view and every move's label); the host's bots fill the other seats."""
    _src, site = made
    env = {**os.environ, "PYTHONPATH": str(site)}
    host = subprocess.Popen([sys.executable, "-m", "cardparty.client.cli", "host", "--bind",
                             "127.0.0.1", "--port", "0", "--data", str(tmp_path),
                             "--heartbeat", "0.1", "--name", "authors", "--log-level",
                             "warning"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    players = []
    try:
        assert host.stdout is not None
        found = re.search(r"tcp://127\.0\.0\.1:\d+", host.stdout.readline())
        assert found, "the host printed no address"
        for game, players_at, level in (("plain", 3, "hard"), ("aceslow", 4, "easy"),
                                        ("aceslow", 2, "normal")):
            players.append(subprocess.Popen(
                [sys.executable, "-m", "cardparty.client.cli", "bot-client", "--json",
                 "--connect", found.group(0), "--create", game, "--players", str(players_at),
                 "--fill-bots", "--fill-level", level, "--timeout", "120"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        for proc in players:
            out, err = proc.communicate(timeout=150)
            assert proc.returncode == 0, err
            result = json.loads(out.splitlines()[-1])
            assert sorted(result["places"])[0] == 1
    finally:
        for proc in [*players, host]:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
