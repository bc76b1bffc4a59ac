"""The economy (docs/economy.md): each MO rule on a real SQLite file, and a payout killed at
every point of its transaction losing and doubling nothing (MO-11)."""

from __future__ import annotations

import datetime as dt
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cardparty.core.economy import rewards as rw
from cardparty.core.economy.ledger import EconomyError, Ledger


class Clock:
    def __init__(self) -> None:
        # a Wednesday; the host's time zone is the process's
        self.t = dt.datetime(2026, 12, 2, 12, 0).astimezone().timestamp()

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ledger(tmp_path: Path, clock: Clock) -> Ledger:
    led = Ledger(tmp_path / "economy.sqlite", now=clock)
    for name in ("eva", "petr", "jana", "karel"):
        led.enter(name, f"key-{name}")
    return led


def coins(led: Ledger, *names: str) -> list[int]:
    return [led.profile(n).coins for n in names]


# --- profiles ------------------------------------------------------------------------------

def test_mo1_a_new_profile_gets_1000_coins_and_its_name_is_bound_to_its_key(
        ledger: Ledger) -> None:
    assert ledger.profile("eva").coins == 1000
    assert ledger.enter("eva", "key-eva").coins == 1000        # the same player again: no gift
    with pytest.raises(EconomyError, match="belongs to another player"):
        ledger.enter("eva", "someone-else")


def test_mo2_every_coin_movement_is_a_ledger_row_and_the_audit_proves_it(
        ledger: Ledger) -> None:
    ledger.pay_result("m1", rw.OPEN, ["eva", "petr"], [1, 2])
    ledger.buy("eva", "gold")
    ledger.audit()
    rows = ledger.db.execute("SELECT username, delta, reason FROM ledger WHERE "
                             "username = 'eva' ORDER BY id").fetchall()
    assert rows == [("eva", 1000, "welcome"), ("eva", 100, "reward"), ("eva", -200, "purchase")]
    ledger.db.execute("UPDATE profiles SET coins = coins + 5 WHERE username = 'petr'")
    with pytest.raises(EconomyError, match="petr holds 1065 coins but the ledger says 1060"):
        ledger.audit()


def test_mo2_a_balance_never_goes_below_zero(ledger: Ledger) -> None:
    ledger.buy("eva", "vip")
    with pytest.raises(EconomyError, match="not enough coins"):
        ledger.buy("eva", "vip")
    assert ledger.profile("eva").coins == 0
    ledger.audit()


# --- modes ---------------------------------------------------------------------------------

def test_mo3_against_the_machine_pays_no_coins_and_no_xp(ledger: Ledger) -> None:
    ledger.buy("eva", "gold")
    paid = ledger.pay_result("m1", rw.PRACTICE, ["eva", None, None], [1, 2, 3])
    assert paid == [rw.Reward()] * 3
    assert ledger.profile("eva").coins == 800 and ledger.profile("eva").xp == 0


def test_mo4_with_friends_only_the_winner_is_paid_at_half_the_base(ledger: Ledger) -> None:
    ledger.pay_result("m1", rw.FRIENDS, ["eva", "petr", "jana"], [2, 1, 3])
    assert coins(ledger, "eva", "petr", "jana") == [1000, 1050, 1000]
    assert ledger.profile("petr").xp == 25
    assert ledger.standings() == []                      # friends tables count for no league


def test_mo5_open_tables_pay_every_place_and_count_for_the_league(ledger: Ledger) -> None:
    ledger.pay_result("m1", rw.OPEN, ["eva", "petr", "jana", "karel"], [1, 2, 3, 4])
    assert coins(ledger, "eva", "petr", "jana", "karel") == [1100, 1060, 1030, 1010]
    assert ledger.standings() == [("eva", 10), ("petr", 6), ("jana", 3), ("karel", 1)]


def test_mo5_league_points_are_halved_when_bots_filled_the_table(ledger: Ledger) -> None:
    ledger.pay_result("m1", rw.OPEN, ["eva", None, "petr", None], [1, 2, 3, 4],
                      bots_filled=True)
    assert ledger.standings() == [("eva", 5), ("petr", 1)]
    assert coins(ledger, "eva", "petr") == [1100, 1030]       # coins are not halved


def test_mo6_the_stake_is_paid_when_sitting_and_the_pot_goes_to_the_winner(
        ledger: Ledger) -> None:
    for name in ("eva", "petr", "jana"):
        ledger.take_stake("t1", name, 250)
    assert coins(ledger, "eva", "petr", "jana") == [750, 750, 750]
    ledger.audit()                                            # the stakes sit in escrow
    paid = ledger.pay_result("m1", rw.ENTRY, ["eva", "petr", "jana"], [2, 1, 3],
                             table_id="t1")
    assert paid is not None and [r.coins for r in paid] == [0, 750, 0]
    assert coins(ledger, "eva", "petr", "jana") == [750, 1500, 750]
    ledger.audit()


def test_mo6_tied_winners_split_the_pot_odd_coins_one_each_in_seat_order() -> None:
    assert rw.pot_shares(1000, [1, 3, 1, 1]) == [334, 0, 333, 333]
    assert rw.pot_shares(500, [2, 1, 1]) == [0, 250, 250]
    assert sum(rw.pot_shares(1001, [1, 1, 1])) == 1001


def test_mo6_no_sitting_without_the_stake_and_stakes_are_fixed(ledger: Ledger) -> None:
    ledger.buy("eva", "vip")
    with pytest.raises(EconomyError, match="not enough coins"):
        ledger.take_stake("t1", "eva", 100)
    with pytest.raises(EconomyError, match="stakes are 100, 250, 500, 1000"):
        ledger.take_stake("t1", "petr", 300)
    ledger.take_stake("t1", "petr", 100)
    with pytest.raises(EconomyError, match="already paid"):
        ledger.take_stake("t1", "petr", 100)


def test_mo6_entry_tables_are_for_humans_only(ledger: Ledger) -> None:
    ledger.take_stake("t1", "eva", 100)
    with pytest.raises(EconomyError, match="every seat paid its stake"):
        ledger.pay_result("m1", rw.ENTRY, ["eva", None], [1, 2], table_id="t1")


def test_mo6_and_mo11_a_cancelled_entry_table_refunds_exactly_the_stakes_once(
        ledger: Ledger) -> None:
    ledger.take_stake("t1", "eva", 500)
    ledger.take_stake("t1", "petr", 500)
    assert ledger.refund_table("t1") == 1000
    assert ledger.refund_table("t1") == 0
    assert coins(ledger, "eva", "petr") == [1000, 1000]
    ledger.audit()


# --- rewards -------------------------------------------------------------------------------

def test_mo7_rewards_by_place_for_n_players_use_the_first_n_entries() -> None:
    assert rw.by_place(rw.BASE_COINS, [1, 2]) == [100, 60]
    assert rw.by_place(rw.BASE_XP, [3, 1, 2]) == [20, 50, 30]
    assert rw.by_place(rw.BASE_LEAGUE, [1, 2, 3, 4]) == [10, 6, 3, 1]


def test_mo7_shared_places_split_the_sum_of_the_places_they_cover_rounded_down() -> None:
    assert rw.by_place(rw.BASE_COINS, [1, 1, 3, 4]) == [80, 80, 30, 10]
    assert rw.by_place(rw.BASE_COINS, [1, 2, 2, 2]) == [100, 33, 33, 33]
    assert rw.by_place(rw.BASE_LEAGUE, [1, 2, 2]) == [10, 4, 4]


def test_mo8_the_gold_booster_doubles_coins_for_an_hour(ledger: Ledger, clock: Clock) -> None:
    ledger.buy("eva", "gold")
    assert ledger.profile("eva").coins == 800
    ledger.pay_result("m1", rw.OPEN, ["eva", "petr"], [1, 2])
    assert coins(ledger, "eva", "petr") == [1000, 1060]
    assert ledger.profile("eva").xp == 50                      # XP is not doubled
    clock.t += 61 * 60
    ledger.pay_result("m2", rw.OPEN, ["eva", "petr"], [1, 2])
    assert ledger.profile("eva").coins == 1100


def test_mo8_the_vip_pass_multiplies_coins_and_xp_by_one_and_a_half_for_a_week(
        ledger: Ledger, clock: Clock) -> None:
    ledger.buy("petr", "vip")
    ledger.pay_result("m1", rw.OPEN, ["eva", "petr"], [2, 1])
    assert ledger.profile("petr").coins == 150 and ledger.profile("petr").xp == 75
    clock.t += 7 * 86400 + 1
    ledger.pay_result("m2", rw.OPEN, ["eva", "petr"], [2, 1])
    assert ledger.profile("petr").coins == 250


def test_mo8_boosters_never_multiply_a_pot(ledger: Ledger) -> None:
    ledger.buy("eva", "gold")
    ledger.take_stake("t1", "eva", 100)
    ledger.take_stake("t1", "petr", 100)
    ledger.pay_result("m1", rw.ENTRY, ["eva", "petr"], [1, 2], table_id="t1")
    assert coins(ledger, "eva", "petr") == [900, 900]
    ledger.audit()


def test_mo8_both_boosts_multiply() -> None:
    assert rw.boosted(rw.Reward(100, 50, 10), rw.Boosts(gold=True, vip=True)) == \
        rw.Reward(300, 75, 10)


def test_mo9_level_n_needs_100_n_n_plus_1_over_2_xp() -> None:
    assert [rw.level(x) for x in (0, 99, 100, 299, 300, 599, 600, 5500)] == \
        [0, 0, 1, 1, 2, 2, 3, 10]


def test_mo10_the_league_week_is_the_iso_week_and_resets_on_monday(
        ledger: Ledger, clock: Clock) -> None:
    assert rw.league_week(dt.datetime(2026, 12, 2, 12, 0)) == "2026-W49"
    assert rw.league_week(dt.datetime(2027, 1, 1, 12, 0)) == "2026-W53"
    ledger.pay_result("m1", rw.OPEN, ["eva", "petr"], [1, 2])
    assert ledger.standings()[0] == ("eva", 10)
    clock.t = dt.datetime(2026, 12, 7, 0, 1).astimezone().timestamp()   # the next Monday
    assert ledger.standings() == []
    assert ledger.standings("2026-W49") == [("eva", 10), ("petr", 6)]


# --- never lose or double a coin ------------------------------------------------------------

def test_mo11_paying_the_same_match_twice_pays_once(ledger: Ledger) -> None:
    assert ledger.pay_result("m1", rw.OPEN, ["eva", "petr"], [1, 2]) is not None
    assert ledger.pay_result("m1", rw.OPEN, ["eva", "petr"], [1, 2]) is None
    assert coins(ledger, "eva", "petr") == [1100, 1060]


CHILD = """
import os, signal, sys
from cardparty.core.economy.ledger import Ledger
led = Ledger(sys.argv[1])
led.db.set_progress_handler(lambda: os.kill(os.getpid(), signal.SIGKILL), int(sys.argv[2]))
led.pay_result("match-1", "open", ["eva", "petr", "jana", None], [1, 2, 3, 4])
"""


def test_mo11_a_payout_killed_at_any_point_neither_loses_nor_doubles_coins(
        tmp_path: Path) -> None:
    """The payout runs in a real process that SIGKILLs itself after N SQLite VM steps; N sweeps
    the whole transaction. After each crash the ledger is audited and paid again."""
    outcomes = set()
    for step in (1, 3, 10, 30, 60, 100, 200, 400, 700, 1000, 2000, 4000, 100_000):
        path = tmp_path / f"crash-{step}.sqlite"
        setup = Ledger(path)
        for name in ("eva", "petr", "jana"):
            setup.enter(name, f"key-{name}")
        setup.close()
        child = subprocess.run([sys.executable, "-c", CHILD, str(path), str(step)],
                               capture_output=True, timeout=60)
        killed = child.returncode == -9
        after = Ledger(path)
        after.audit()
        before_retry = [after.profile(n).coins for n in ("eva", "petr", "jana")]
        assert before_retry in ([1000, 1000, 1000], [1100, 1060, 1030])
        outcomes.add((killed, before_retry[0]))
        after.pay_result("match-1", "open", ["eva", "petr", "jana", None], [1, 2, 3, 4])
        assert [after.profile(n).coins for n in ("eva", "petr", "jana")] == [1100, 1060, 1030]
        after.audit()
        after.close()
    assert (True, 1000) in outcomes and (False, 1100) in outcomes, outcomes


def test_mo2_the_store_is_a_plain_sqlite_file(tmp_path: Path) -> None:
    Ledger(tmp_path / "e.sqlite").enter("eva", "k")
    tables = {r[0] for r in sqlite3.connect(tmp_path / "e.sqlite").execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"profiles", "ledger", "stakes", "payouts", "league"} <= tables
