"""The ``cardparty`` command line: games, simulate, watch; one-line errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from cardparty.client.cli import main
from cardparty.core.discovery import load_catalog
from tests.core.test_simcheck_catches import LosesCards


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardparty.client.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_games_lists_id_name_and_player_range() -> None:
    out = run("games").stdout
    assert any(line.split()[:2] == ["pika", "Pika"] and "2-4 players" in line
               for line in out.splitlines())


def test_simulate_json_reports_the_figures_and_places_per_seat() -> None:
    done = run("simulate", "--game", "pika", "--players", "3", "--games", "20", "--seed", "4",
               "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["game"] == "pika" and report["players"] == 3 and report["games"] == 20
    assert report["moves"] > 20 * 10 and report["seconds"] > 0
    assert len(report["places"]) == 3 and all(len(p) == 3 for p in report["places"])
    assert sum(p[0] for p in report["places"]) >= 20           # every game has a winner


def test_simulate_plain_output_names_the_rates() -> None:
    done = run("simulate", "--game", "pika", "--players", "2", "--games", "5", "--check")
    assert done.returncode == 0
    assert "games/s" in done.stdout and "moves/s" in done.stdout and "seat 1:" in done.stdout


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "pika"],
    ["simulate", "--game", "pika", "--players", "two"],
    ["simulate", "--game", "nope", "--players", "2"],
    ["simulate", "--game", "pika", "--players", "9"],
    ["simulate", "--game", "pika", "--players", "2", "--variant", "nope"],
    ["frobnicate"],
])
def test_bad_arguments_get_one_line_and_exit_status_2(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "error" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture
def losing_variant() -> Iterator[None]:
    catalog = load_catalog()
    catalog.add(LosesCards())
    yield
    catalog.variants.pop("broken-lose", None)
    catalog.plugins.pop("broken-lose", None)


def test_an_invariant_failure_exits_1_with_the_seed_and_move(
        losing_variant: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--game", "pika", "--players", "2", "--games", "10", "--seed",
                 "30", "--variant", "broken-lose", "--check"])
    err = capsys.readouterr().err
    assert code == 1
    assert "FAILED: seed 3" in err and "move" in err and "cards created or lost" in err


def test_watch_narrates_a_game_in_words() -> None:
    done = run("watch", "--game", "pika", "--players", "3", "--seed", "8")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "Pika, 3 players, seed 8"
    assert any(" plays " in line for line in lines) and "won" in lines[-1]
