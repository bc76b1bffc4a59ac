"""``cardparty play`` and ``cardparty join`` on the command line: what they refuse, in one
line, before any screen opens."""

from __future__ import annotations

import pytest

from cardparty.client.cli import main
from cardparty.client.net_link import address_problem


def test_play_refuses_an_unknown_game_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "nosuchgame"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game 'nosuchgame' is installed" in err


def test_play_refuses_a_player_count_the_game_does_not_allow(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "pika", "--players", "9"]) == 2
    assert "Pika is for 2 to 4 players, not 9" in capsys.readouterr().err


def test_play_and_join_need_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play"]) == 1            # pytest's stdin is not a terminal
    assert main(["join", "127.0.0.1"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["cardparty play: the client needs a terminal (stdin and stdout must be a "
                   "tty)", "cardparty join: the client needs a terminal (stdin and stdout "
                   "must be a tty)"]


def test_join_refuses_an_address_that_cannot_be_one(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    assert main(["join", "host:99999"]) == 2
    assert "the port must be a number from 1 to 65535" in capsys.readouterr().err
    assert address_problem("192.168.1.20") is None
    assert address_problem("tcp://192.168.1.20:7770") is None
    assert address_problem("kitchen:7770") is None
    assert address_problem("a b") is not None
    assert address_problem("") is not None
