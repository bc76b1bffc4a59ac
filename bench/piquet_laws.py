"""Piquet's laws over many random deals: the automatic declarations, the spoken ones made in
full, and an independent count (piquet_reference.py) held to each other, category by
category, at the Czech table and under the classic laws (piquet_crosscheck.py).

The suite checks a few hundred deals (tests/piquet/test_piquet_crosscheck.py); this runs the
full count and prints, per table, the deals, how many differ and in which categories, how
often each law came up, and one verdict line. A difference is a bug: its deal's seed replays
it (``piquet_crosscheck.play_deal(classic, seed)``), to become a scenario test.

    python bench/piquet_laws.py                   # 10,300 deals of each table
    python bench/piquet_laws.py --deals 500       # a quick run
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from piquet_crosscheck import Report, check_deals

SHOWN = ("point", "sequence", "several sequences", "equal sequences scored", "set",
         "several sets", "carte blanche", "carte rouge", "repique", "pique", "capot", "premium")


def _print(label: str, report: Report, seconds: float) -> None:
    print(f"{label}: {report.deals} deals in {seconds:.1f} s, {report.deals_apart()} differ "
          f"({len(report.logs_apart)} with automatic and spoken logs apart)")
    wrong = Counter((d.table, d.category) for d in report.differences)
    for (table, category), n in sorted(wrong.items()):
        print(f"  {table} {category}: {n} deals")
    for d in report.differences[:5]:
        print(f"  e.g. {d}")
    print("  met: " + ", ".join(f"{law} {report.seen[law]}" for law in SHOWN), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_300, help="deals of each table")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args(argv)
    apart = 0
    for label, classic in (("Czech table", False), ("classic laws", True)):
        t0 = time.perf_counter()
        report = check_deals(args.deals, seed=args.seed, classic=classic)
        _print(label, report, time.perf_counter() - t0)
        apart += report.deals_apart()
    print("verdict: " + ("every deal agrees with the laws" if not apart else
                         f"FAIL: {apart} deals differ"))
    return 1 if apart else 0


if __name__ == "__main__":
    sys.exit(main())
