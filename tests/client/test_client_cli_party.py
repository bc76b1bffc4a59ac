"""The command line at a party: ``play --players 0`` refused, ``play --setting/--variant``
checked before the screen opens, ``watch`` with a player count that fits the game, ``host
--data`` that cannot be used said in one line, and every option of every command described
in ``--help``."""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cardparty.client.cli import build_parser, main

CARDPARTY = str(Path(sys.executable).with_name("cardparty"))


def test_play_refuses_zero_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "0"]) == 2
    assert capsys.readouterr().err == "cardparty play: error: Pika is for 2 to 4 players, not 0\n"


def test_play_checks_settings_and_variants_before_the_screen(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "piquet", "--setting", "nosuch=1"]) == 2
    assert "unknown setting 'nosuch' for piquet" in capsys.readouterr().err
    assert main(["play", "--game", "pika", "--setting", "hand_size=99"]) == 2
    assert "hand_size" in capsys.readouterr().err
    assert main(["play", "--game", "piquet", "--variant", "nope"]) == 2
    assert "no variant 'nope' for piquet" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["play", "--game", "pika", "--setting", "oops"])
    assert stop.value.code == 2
    assert "NAME=VALUE" in capsys.readouterr().err
    # Good ones pass the checks and stop only at the terminal (pytest has none).
    assert main(["play", "--game", "piquet", "--setting", "deals=1", "--variant",
                 "piquet-classic"]) == 1
    assert "needs a terminal" in capsys.readouterr().err


def test_watch_piquet_plays_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "--game", "piquet", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Piquet, 2 players, seed 2")
    assert main(["watch", "--game", "nosuch"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("kind", ["file", "corrupt"])
def test_host_data_that_cannot_be_used_is_one_line(tmp_path: Path, kind: str) -> None:
    data = tmp_path / "data"
    if kind == "file":
        data.write_text("not a directory")
    else:
        data.mkdir()
        (data / "host.sqlite3").write_bytes(b"garbage" * 1000)
    out = subprocess.run([CARDPARTY, "host", "--bind", "127.0.0.1", "--port", "0",
                          "--no-advertise", "--data", str(data)], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("cardparty host: error:")


def test_host_data_in_a_missing_directory_is_created(tmp_path: Path) -> None:
    from cardparty.client.commands.host import data_problem
    assert data_problem(str(tmp_path / "new" / "dir")) is None
    good = tmp_path / "good"
    good.mkdir()
    sqlite3.connect(good / "host.sqlite3").close()
    assert data_problem(str(good)) is None


def test_every_option_of_every_command_has_a_description() -> None:
    missing = []
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                missing += [(name, a.option_strings or a.dest) for a in sub._actions
                            if not a.help and not isinstance(a, argparse._HelpAction)]
    assert missing == []
