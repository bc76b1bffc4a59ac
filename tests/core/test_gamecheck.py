"""``cardparty check``: one command, one report, each step able to fail with what to replay;
the same report whatever the number of processes; the balance figures as they are defined."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

from cardparty.client.cli import main
from cardparty.core.discovery import load_catalog
from cardparty.core.gamecheck import (
    check_game,
    chunks,
    decided_late,
    format_report,
    order_of_play,
)
from cardparty.core.simulate import seeded_game
from tests.core.test_authoring import KeepsTheDeal
from tests.core.test_simcheck_catches import LosesCards


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardparty.client.cli", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def broken() -> Iterator[None]:
    catalog = load_catalog()
    for plugin in (LosesCards(), KeepsTheDeal()):
        catalog.add(plugin)
    yield
    for vid in ("broken-lose", "broken-keep"):
        catalog.variants.pop(vid, None)
        catalog.plugins.pop(vid, None)


def small(**kw: object) -> dict[str, object]:
    return {"players": [2], "games": 30, "balance_games": 20, **kw}


def test_every_step_passes_on_a_built_in_game_and_the_report_says_what_it_did() -> None:
    report = check_game("pika", **small(jobs=1))
    assert report.ok and [s.name for s in report.steps] == [
        "contract", "random games", "clone", "bots", "balance"]
    text = format_report(report)
    for said in ("30 games (30 of 2 players)", "determinize:", "redealt: hand 0, hand 1, stock",
                 "easy: 4 games", "normal: 4 games", "hard: 1 game of 2 players",
                 "last round decides", "normal vs easy"):
        assert said in text, text
    [b] = report.balance
    assert b.players == 2 and abs(sum(b.firsts) - 1) < 1e-9 and len(b.lengths) == 20
    assert 0 <= b.late <= 1 and 0 <= b.normal_vs_easy <= 1 and b.p95 <= max(b.lengths)
    assert abs(sum(b.by_order) - 1) < 1e-9 and "by order of play" in text


def test_the_order_of_play_is_by_each_seats_first_move() -> None:
    table, _result = seeded_game("pika", 4, {"dealer": 2}, (), 3)
    assert order_of_play(table)[0] == 3                      # after the dealer, clockwise
    assert sorted(order_of_play(table)) == [0, 1, 2, 3]


def test_the_report_is_the_same_in_one_process_or_two() -> None:
    def figures(jobs: int) -> dict[str, object]:
        data = check_game("pika", **small(jobs=jobs)).as_json()
        for step in data["steps"]:
            step.pop("seconds")
            step["lines"] = [line for line in step["lines"] if " s)" not in line]
        data.pop("seconds")
        data.pop("jobs")
        return data

    assert figures(1) == figures(2)


@pytest.mark.parametrize(("variant", "said"), [
    ("broken-lose", "cards created or lost"),
    ("broken-keep", "never redeals zone"),
])
def test_a_broken_game_fails_its_step_with_the_seed_to_replay(broken: None, variant: str,
                                                                said: str) -> None:
    report = check_game("pika", [variant], **small(jobs=1))
    step = next(s for s in report.steps if s.name == "random games")
    assert not report.ok and not step.ok
    assert said in step.lines[0] and "replay: seed" in step.lines[0]


def test_the_command_prints_its_steps_as_they_end_or_one_json_object() -> None:
    done = run("check", "pika", "--players", "2", "--games", "20")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "pika" and lines[-1].startswith("ok: pika checked in ")
    assert [line.split(":")[0].strip() for line in lines if line.startswith("  ") and
            not line.startswith("    ")] == ["contract", "random games", "clone", "bots",
                                               "balance"]
    done = run("check", "pika", "--players", "2", "--games", "20", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ok"] and data["game"] == "pika" and data["balance"][0]["players"] == 2


def test_the_command_exits_1_on_a_failure_and_skips_what_follows(
        broken: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "pika", "--variant", "broken-lose", "--players", "2", "--games",
                 "20", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 1 and "FAILED: pika" in err
    assert "random games: FAILED" in out and "cards created or lost" in out
    assert "clone: skipped (not run: a step above failed)" in out
    assert out.splitlines()[-1].startswith("FAILED: pika checked in ")


@pytest.mark.parametrize("args", [
    ["check", "nope"],
    ["check", "pika", "--variant", "nope"],
    ["check", "pika", "--players", "9"],
    ["check", "piquet", "--setting", "deals=99"],
    ["check", "pika", "--games", "0"],
])
def test_what_cannot_be_checked_gets_one_line_and_exit_status_2(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_the_random_games_are_spread_over_the_player_counts_by_their_views_in_parts(
        ) -> None:
    """Every count is checked; a count of more seats, whose moves cost a view per seat,
    plays fewer games (2, 3 and 4 seats: as 1/2, 1/3 and 1/4)."""
    parts = chunks([2, 3, 4], 130)
    assert sum(k for _n, k, _first in parts) == 130
    assert {n: sum(k for m, k, _f in parts if m == n) for n in (2, 3, 4)} == {2: 60, 3: 40,
                                                                            4: 30}
    assert max(k for _n, k, _f in parts) <= 15
    assert sum(k for _n, k, _f in chunks(list(range(2, 9)), 240)) == 240


def test_a_game_is_decided_late_when_another_ending_of_its_last_round_changes_the_result(
        ) -> None:
    """Pika for two ends when a player lays his last card: one move before the end, the
    winner-to-be holds one card; laid at random the other way, the result often stands; from
    far enough back, some ending changes it."""
    table, result = seeded_game("pika", 2, None, (), 5)
    assert decided_late(table, result, len(table.journal), random.Random(1))
    late = [decided_late(*seeded_game("pika", 2, None, (), s), 2, random.Random(s))
            for s in range(30)]
    assert 0 < sum(late) < 30
