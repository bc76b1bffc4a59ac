"""``cardparty play`` and ``cardparty join`` on the command line: what they refuse, in one
line, before any screen opens."""

from __future__ import annotations

import pytest

from cardparty.client.cli import main
from cardparty.core.i18n import set_language
from cardparty.net.wire.address import address_problem


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
    assert err == ["cardparty play: error: the client needs a terminal (stdin and stdout must "
                   "be a tty)", "cardparty join: error: the client needs a terminal (stdin and "
                   "stdout must be a tty)"]


def test_join_refuses_an_address_that_cannot_be_one(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    assert main(["join", "host:99999"]) == 2
    assert "the port must be a number from 1 to 65534" in capsys.readouterr().err
    assert address_problem("192.168.1.20") is None
    assert address_problem("tcp://192.168.1.20:7770") is None
    assert address_problem("kitchen:7770") is None
    assert address_problem("a b") is not None
    assert address_problem("") is not None


def play(*args: str) -> int:
    """``cardparty play`` through its entry point: the exit status, whether the parser or
    the command refused."""
    try:
        return main(["play", *args])
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize(("args", "says"), [
    (["--game", "kakhead", "--players", "2", "--setting", "dealer=3"],
     "setting dealer: there is no seat 3 at a 2-seat table"),
    (["--game", "pika", "--players", "3", "--setting", "dealer=3"],
     "setting dealer: there is no seat 3 at a 3-seat table"),
    (["--bot-delay", "100000"], "--bot-delay: seconds from 0 to 10"),
    (["--bot-delay", "-1"], "--bot-delay: seconds from 0 to 10"),
    (["--bot-delay", "nan"], "--bot-delay: seconds from 0 to 10"),
    (["--bot-delay", "soon"], "--bot-delay: seconds from 0 to 10"),
])
def test_play_refuses_in_one_line_what_the_host_would_refuse_after_the_screen(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27, item 8: the host's own checks (the game's setup, the wire's bounds), made
    before the screen takes the terminal."""
    assert play(*args) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_play_takes_the_bounds_themselves(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--bot-delay", "0"], ["--bot-delay", "10"],
                 ["--game", "kakhead", "--players", "2", "--setting", "dealer=1"]):
        assert play(*args) == 1            # past every check, stopped at the terminal
        assert "needs a terminal" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["cs", "ca"])
def test_play_refuses_in_the_players_language(lang: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    try:
        for args in (["--setting", "hand_size=99"], ["--players", "9"],
                     ["--game", "kakhead", "--players", "2", "--setting", "dealer=3"],
                     ["--game", "nosuchgame"], ["--bot-delay", "-1"]):
            assert play("--lang", lang, *args) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1
            for english in ("must be between", "is for 2 to 4 players", "there is no seat",
                            "is installed", "seconds from"):
                assert english not in err, err
    finally:
        set_language("en")


@pytest.mark.parametrize(("name", "says"), [
    ("x" * 40, "a name has at most 32 letters (this one has 40)"),
    (" Eva", "a name has no space at either end"),
    ("Eva  Novak", "a name has no space at either end, nor two in a row"),
    ("Ev\u200ba", "a name is letters or digits of one script"),
])
def test_play_refuses_a_name_no_host_takes_before_the_screen(
        name: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27, item 4: ``play --name`` went to the host, which refused the hello, and the
    screen stayed on 'connecting' with the wire's words."""
    assert play("--name", name) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardparty play: error: --name: ") and says in err, err
    assert err.count("\n") == 1


def test_play_takes_a_name_a_host_takes_and_a_login_it_would_not_is_not_the_default(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from cardparty.client.commands import play as play_command

    assert play("--name", "Eva Nováková") == 1          # past the check, at the terminal
    assert "needs a terminal" in capsys.readouterr().err
    monkeypatch.setattr(play_command.getpass, "getuser", lambda: "l" * 40)
    assert play_command.default_name() == "You"
    monkeypatch.setattr(play_command.getpass, "getuser", lambda: "eva")
    assert play_command.default_name() == "eva"
