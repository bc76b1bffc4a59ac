"""MO-11 at the host: a real host process SIGKILLed at a sweep of points inside payouts (an
open table's rewards, an entry table's pot), refunds (a cancelled entry table), stakes and
purchases, each followed by a restart on the same data and ``Ledger.audit()``: coins created
or destroyed outside the rules 0, payouts doubled 0, stakes not refunded 0.

A longer sweep: ``bench/economy_crash.py``."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
sys.path.insert(0, BENCH)
try:
    from crashkit import sweep  # the machinery the longer sweep shares
finally:
    sys.path.remove(BENCH)

#: VM steps inside the armed operation before the kill; the last one is past its end (the
#: kill then comes once the scenario is done, before or after the store caught up).
POINTS = {"payout": [3, 40, 400, 10**7], "pot": [3, 200, 10**7], "refund": [3, 200, 10**7],
          "stake": [3, 10**7], "purchase": [3, 100, 10**7]}


def test_mo11_a_host_killed_inside_payouts_refunds_and_purchases_finishes_each_once(
        tmp_path: Path) -> None:
    outcomes = sweep(tmp_path, POINTS)
    for scenario in POINTS:
        mine = [o for o in outcomes if o.scenario == scenario]
        assert any(o.killed for o in mine), f"{scenario}: no kill landed inside the operation"
        assert not mine[-1].killed, f"{scenario}: the last point is past the operation"
