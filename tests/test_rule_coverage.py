"""Rules are law: every rule id of the rulebooks (../shared/rules/*.md) is cited by at least
one test, and documented in docs/rules/ (or docs/ for the platform-wide MO rules).

A test cites a rule by naming it in its name (``test_pk16_...``) or its text (``PK-16``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"
BOOKS = {"PI": "pika.md", "PK": "pikac.md", "KH": "kakhead.md", "PQ": "piquet.md",
         "MO": "modes.md"}


def rule_ids(prefix: str) -> list[str]:
    text = (RULES / BOOKS[prefix]).read_text(encoding="utf-8")
    found = sorted({int(n) for n in re.findall(rf"\b{prefix}-(\d+)\b", text)})
    return [f"{prefix}-{n}" for n in found]


def cited(folder: Path, suffix: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in folder.rglob(f"*{suffix}"))


def is_cited(rule: str, text: str) -> bool:
    prefix, n = rule.split("-")
    return bool(re.search(rf"\b{prefix}-{n}\b", text) or
                re.search(rf"(?<![a-z0-9]){prefix.lower()}{n}(?![0-9])", text))


@pytest.mark.skipif(not RULES.is_dir(), reason="../shared/rules is not beside the project")
@pytest.mark.parametrize("prefix", sorted(BOOKS))
def test_every_rule_id_is_cited_by_a_test(prefix: str) -> None:
    tests = cited(ROOT / "tests", ".py")
    missing = [r for r in rule_ids(prefix) if not is_cited(r, tests)]
    assert rule_ids(prefix), f"no {prefix} ids found in {BOOKS[prefix]}"
    assert not missing, f"rules no test cites: {', '.join(missing)}"


@pytest.mark.skipif(not RULES.is_dir(), reason="../shared/rules is not beside the project")
@pytest.mark.parametrize("prefix", sorted(BOOKS))
def test_every_rule_id_is_documented(prefix: str) -> None:
    docs = cited(ROOT / "docs", ".md")
    missing = [r for r in rule_ids(prefix) if not re.search(rf"\b{r}\b", docs)]
    assert not missing, f"rules docs/ does not state: {', '.join(missing)}"
