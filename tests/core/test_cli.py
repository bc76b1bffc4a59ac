"""The ``cardparty`` command line: games, simulate, watch; one-line errors and exit codes."""

from __future__ import annotations

import json
import re
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


def test_simulate_takes_a_table_setting_to_shorten_a_match() -> None:
    """A match to a target is long; ``--setting`` plays a shorter one to test it."""
    lengths = {}
    for deals in ("1", "3"):
        done = run("simulate", "--game", "piquet", "--players", "2", "--games", "8",
                   "--setting", f"deals={deals}", "--json", "--bots", "normal")
        assert done.returncode == 0, done.stderr
        lengths[deals] = json.loads(done.stdout)["average_length"]
    assert lengths["1"] < lengths["3"] / 2
    checked = run("simulate", "--game", "piquet", "--players", "2", "--games", "3",
                  "--setting", "deals=1", "--check", "--json")
    assert checked.returncode == 0 and json.loads(checked.stdout)["average_length"] < 100


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "piquet", "--players", "2", "--setting", "deals=99"],
    ["simulate", "--game", "piquet", "--players", "2", "--setting", "nope=1"],
    ["simulate", "--game", "piquet", "--players", "2", "--setting", "deals"],
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


def test_games_lists_every_setting_with_its_default_and_bounds() -> None:
    """Issue 27, item 9: what ``--setting`` takes, as ``play --help`` says ``games`` lists."""
    out = unwrapped(run("games").stdout)
    assert ("  setting hand_size: cards dealt to each player (PI-3); default 7 (2 to 15)"
            in out.splitlines())
    assert ("  setting warning (seconds to call): seconds to call «Pika!» with one card left "
            "(PI-10); default 3.0 (0.5 to 30)") in out.splitlines()
    assert any(line.startswith("  setting premiums: ") and "default false (true or false)"
               in line for line in out.splitlines())
    for info in load_catalog().games.values():
        for name in info.settings:
            assert f"  setting {name}" in out, (info.id, name)


def test_games_speaks_the_players_language() -> None:
    """Issue 27, item 13: the games' words follow the language as in the client."""
    from cardparty.core.i18n import translate

    catalog = load_catalog()
    hand = catalog.game("pika").settings["hand_size"]
    variant = catalog.variants_of("kakhead")[0]
    for lang, done in (("cs", run("--lang", "cs", "games")),
                       ("cs", run_env({"LANG": "cs_CZ.UTF-8"}, "games")),
                       ("ca", run("--lang", "ca", "games"))):
        out = unwrapped(done.stdout)
        assert done.returncode == 0 and translate(hand.help, lang) in out
        assert translate(variant.description, lang) in out
        for english in (hand.help, variant.description, "players", "default", "true or false"):
            assert english not in out, (lang, english)


def run_env(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-m", "cardparty.client.cli", *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LC_ALL": "", "LC_MESSAGES": "", **env})


def unwrapped(out: str) -> str:
    """``games`` output with each item's wrapped lines joined again."""
    return out.replace("\n      ", " ")


FRENCH_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|X)\b")


def test_watch_writes_the_cards_as_the_client_does() -> None:
    """Issue 27, item 13: ``2♦`` and ``Joker`` as on the client's screen, never ``2D``, ``X``."""
    lines = run("watch", "--game", "kakhead", "--players", "3", "--seed", "8").stdout.splitlines()
    assert "Jana plays 4♦" in lines and "Jana plays Joker" in lines
    assert not [line for line in lines if FRENCH_CODE.search(line)]
    plain = run("watch", "--game", "kakhead", "--players", "3", "--seed", "8",
                "--ascii").stdout.splitlines()
    assert "Jana plays 4d" in plain and "Jana plays Joker" in plain
    assert all(line.isascii() for line in plain)


def test_watch_narrates_in_the_players_language() -> None:
    english = run("watch", "--game", "pika", "--players", "3", "--seed", "8").stdout
    for done in (run("--lang", "cs", "watch", "--game", "pika", "--players", "3", "--seed", "8"),
                 run_env({"LANG": "cs_CZ.UTF-8"}, "watch", "--game", "pika", "--players", "3",
                         "--seed", "8"),
                 run("--lang", "ca", "watch", "--game", "pika", "--players", "3", "--seed",
                     "8")):
        out = done.stdout
        assert done.returncode == 0
        assert len(out.splitlines()) == len(english.splitlines())
        for word in (" plays ", " draws ", " players, seed ", " won", "round over"):
            assert word in english and word not in out, word


def test_a_failure_no_command_foresaw_is_one_line_without_a_traceback() -> None:
    """``watch --delay -1`` reached time.sleep(-1) and printed its traceback."""
    done = run("watch", "--game", "pika", "--players", "2", "--seed", "1", "--delay", "-1")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("cardparty watch: error: ")
