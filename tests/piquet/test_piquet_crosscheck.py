"""PQ-4 ... PQ-16 over random deals: the automatic declarations, the spoken ones made in full,
and an independent count of the laws (bench/piquet_reference.py) agree on every category of
every deal, at the Czech table and under the classic laws. bench/piquet_laws.py runs the same
check over tens of thousands of deals."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.piquet.test_piquet_worked_deal import EVA, PETR, TALON1, TALON2, TRICKS

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
sys.path.insert(0, BENCH)
try:                                    # the checks bench/piquet_laws.py runs at full size
    import piquet_reference as reference
    from piquet_crosscheck import Report, check_deals
finally:
    sys.path.remove(BENCH)
DEALS = 200


def test_the_reference_counts_the_worked_deal_as_the_rules_document_it() -> None:
    """The reference itself, on docs/rules/piquet.md's worked deal (Eva elder, seat 0)."""
    plays = [(0, ("AS", "KS", "QS", "JS")), *[(1, (c,)) for c in ("8S", "TS", "QD", "JH")]]
    for lead, follow in TRICKS:
        plays += [(0, (lead,)), (1, (follow,))]
    plays += [(1, ("KC",)), (0, ("7C",))]
    count = reference.count_deal(reference.Table(), [*EVA, *PETR, *TALON1, *TALON2], 1,
                                 [["7H", "8H", "8D", "7D"], ["7S", "9H", "JD", "TD"]], plays)
    assert count.by_category() == Counter({
        (0, "point"): 5, (1, "sequence"): 15, (0, "set"): 4, (0, "lead"): 11,
        (1, "trick"): 1, (1, "lead"): 1, (1, "last trick"): 1, (0, "cards"): 10})
    assert count.totals() == [30, 18]


def _assert_agree(report: Report) -> None:
    assert report.deals == DEALS
    assert not report.differences, "\n".join(map(str, report.differences[:10]))
    assert not report.logs_apart, report.logs_apart[:10]


@pytest.mark.parametrize("classic", [False, True], ids=["Czech", "classic"])
def test_pq16_automatic_and_spoken_in_full_score_what_the_laws_count(classic: bool) -> None:
    report = check_deals(DEALS, seed=0, classic=classic)
    _assert_agree(report)
    # the deals met every law the check is for, not only ordinary hands
    for law in ("point", "sequence", "set", "carte blanche", "carte rouge", "repique",
                "pique", "capot", "premium"):
        assert report.seen[law] > 0, law
    if classic:
        assert report.seen["several sequences"] > 0 and report.seen["several sets"] > 0
        assert report.seen["equal sequences scored"] > 0
