"""``cardparty league --data DIR`` (read-only standings and profiles) and the host's settings
file for every default of modes.md (``cardparty host --config``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardparty.client.cli import main
from cardparty.core.economy import rewards as rw
from cardparty.core.economy.ledger import Ledger
from cardparty.net.host.settings import SettingsError, load


def economy(tmp_path: Path) -> Path:
    tmp_path.mkdir(exist_ok=True)
    led = Ledger(tmp_path / "economy.sqlite3")
    for name in ("eva", "petr"):
        led.enter(name, f"key-{name}")
    led.pay_result("m1", rw.OPEN, ["eva", "petr"], [1, 2])
    led.close()
    return tmp_path


def test_mo10_league_prints_this_weeks_standings_and_profiles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = economy(tmp_path)
    before = (data / "economy.sqlite3").read_bytes()
    assert main(["league", "--data", str(data), "--player", "eva"]) == 0
    out = capsys.readouterr().out
    assert "(this week)" in out and "1. eva" in out and "2. petr" in out
    assert "eva: 1100 coins, level 0 (50/100 XP), 10 league points" in out
    assert main(["league", "--data", str(data), "--json", "--weeks"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["standings"] == [{"rank": 1, "name": "eva", "points": 10},
                                {"rank": 2, "name": "petr", "points": 6}]
    assert doc["weeks"] == [doc["current"]]
    assert (data / "economy.sqlite3").read_bytes() == before, "read-only"


def test_league_refuses_a_directory_without_an_economy_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no economy" in err
    data = economy(tmp_path / "d")
    assert main(["league", "--data", str(data), "--player", "nobody"]) == 1
    assert "no profile 'nobody'" in capsys.readouterr().err


def test_mo7_mo8_every_default_is_a_host_setting(tmp_path: Path) -> None:
    cfg = tmp_path / "host.toml"
    cfg.write_text("fill_timeout = 10\n[economy]\nnew_profile_coins = 500\n"
                   "base_coins = [50, 20]\nstakes = [10, 20]\nbooster_price = 5\n"
                   "vip_days = 1\n")
    s = load(cfg)
    assert s.fill_timeout == 10 and s.rules.new_profile_coins == 500
    assert s.rules.base_coins == (50, 20) and s.rules.stakes == (10, 20)
    assert load(cfg, fill_timeout=2).fill_timeout == 2, "the command line wins"
    led = Ledger(":memory:", rules=s.rules)
    assert led.enter("eva", "k").coins == 500
    assert led.pay_result("m", rw.OPEN, ["eva", None], [1, 2])[0].coins == 50
    led.buy("eva", "gold")
    assert led.profile("eva").coins == 545
    led.take_stake("t", "eva", 20)
    cfg.write_text("[economy]\nbase_coin = [1]\n")
    with pytest.raises(SettingsError, match="unknown setting economy.base_coin"):
        load(cfg)
    cfg.write_text("fill_timeout = -1\n")
    with pytest.raises(SettingsError, match="fill_timeout"):
        load(cfg)
    cfg.write_text("[economy]\nstakes = [0]\n")
    with pytest.raises(SettingsError, match="stakes must be positive"):
        load(cfg)


def test_host_refuses_a_bad_config_in_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "host.toml"
    cfg.write_text("fill_timeout = 'soon'\n")
    assert main(["host", "--port", "0", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fill_timeout must be a number" in err


def status(argv: list[str]) -> int:
    """The exit status of ``cardparty ARGV``, whether the parser or the command refused."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def test_league_finds_a_player_whatever_the_case_as_the_host_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27, item 15: a name is a player's whatever its capitals (net/safetext.name_key)."""
    tmp_path.mkdir(exist_ok=True)
    led = Ledger(tmp_path / "economy.sqlite3")
    led.enter("Petr", "key-petr")
    led.close()
    for asked in ("petr", "PETR", "Petr"):
        assert main(["league", "--data", str(tmp_path), "--player", asked]) == 0
        assert "Petr: 1000 coins" in capsys.readouterr().out


def test_one_unknown_player_does_not_hide_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = economy(tmp_path)
    assert main(["league", "--data", str(data), "--player", "nobody", "--player", "eva",
                 "--player", "ghost"]) == 1
    done = capsys.readouterr()
    assert "eva: 1100 coins" in done.out and "1. eva" in done.out
    assert done.err.splitlines() == ["cardparty league: error: no profile 'nobody' on this host",
                                     "cardparty league: error: no profile 'ghost' on this host"]
    assert main(["league", "--data", str(data), "--player", "nobody", "--player", "eva",
                 "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in doc["profiles"]] == ["eva"] and doc["unknown"] == ["nobody"]


@pytest.mark.parametrize("week", ["2026-W99", "2026-W00", "2025-W53", "2026-48", "W48", "soon",
                                  "2026-W4", ""])
def test_a_week_that_is_no_iso_week_is_refused_in_one_line(
        week: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = economy(tmp_path)
    assert status(["league", "--data", str(data), "--week", week]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a week" in err and "2026-W48" in err


def test_a_real_iso_week_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = economy(tmp_path)
    for week, shown in (("2026-W53", "League 2026-W53"), ("2020-w53", "League 2020-W53"),
                        ("2026-W01", "League 2026-W01")):
        assert main(["league", "--data", str(data), "--week", week]) == 0
        out = capsys.readouterr().out
        assert out.startswith(shown) and "nobody has points yet" in out


def test_league_speaks_the_players_language(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from cardparty.core.i18n import set_language

    data = economy(tmp_path)
    try:
        for lang in ("cs", "ca"):
            assert status(["--lang", lang, "league", "--data", str(data), "--player", "eva",
                           "--player", "nobody", "--week", "2026-W99"]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "is not a week" not in err
            assert main(["--lang", lang, "league", "--data", str(data), "--player", "eva",
                         "--player", "nobody"]) == 1
            done = capsys.readouterr()
            for english in ("this week", "coins", "league points", "no profile"):
                assert english not in done.out + done.err, (lang, english)
    finally:
        set_language("en")
