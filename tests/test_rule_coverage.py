"""Rules are law: every rule id of the project's rulebooks (docs/rules/*.md) is cited by at
least one test, and each rulebook numbers its rules from 1 without a gap (a rule lost in an
edit shows as a hole).

The rulebooks are the project's own: a clone has them all, so this test never depends on
anything beside the project. They follow the source rulebooks they name; ``make rules``
(``tests/rules_in_step.py``) says where the two differ, rule ids and revisions alike.

A test cites a rule by naming it in its name (``test_pk16_...``) or its text (``PK-16``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
BOOKS = {"PI": "pika.md", "PK": "pikac.md", "KH": "kakhead.md", "PQ": "piquet.md",
         "MO": "modes.md", "TO": "tournament.md"}
#: The rulebooks that are the project's own, with no source rulebook to follow (``make rules``
#: leaves them out).
OWN_BOOKS = frozenset({"TO"})


def numbers(prefix: str, folder: Path = RULES) -> list[int]:
    """The numbers of the ``prefix`` ids the rulebook in ``folder`` names, in order."""
    text = (folder / BOOKS[prefix]).read_text(encoding="utf-8")
    return sorted({int(n) for n in re.findall(rf"\b{prefix}-(\d+)\b", text)})


def rule_ids(prefix: str) -> list[str]:
    return [f"{prefix}-{n}" for n in numbers(prefix)]


def cited(folder: Path, suffix: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in folder.rglob(f"*{suffix}"))


def is_cited(rule: str, text: str) -> bool:
    prefix, n = rule.split("-")
    return bool(re.search(rf"\b{prefix}-{n}\b", text) or
                re.search(rf"(?<![a-z0-9]){prefix.lower()}{n}(?![0-9])", text))


@pytest.mark.parametrize("prefix", sorted(BOOKS))
def test_every_rule_id_is_cited_by_a_test(prefix: str) -> None:
    tests = cited(ROOT / "tests", ".py")
    missing = [r for r in rule_ids(prefix) if not is_cited(r, tests)]
    assert rule_ids(prefix), f"no {prefix} ids found in docs/rules/{BOOKS[prefix]}"
    assert not missing, f"rules no test cites: {', '.join(missing)}"


@pytest.mark.parametrize("prefix", sorted(BOOKS))
def test_every_rulebook_numbers_its_rules_from_one_without_a_gap(prefix: str) -> None:
    found = numbers(prefix)
    assert found == list(range(1, len(found) + 1)), (
        f"docs/rules/{BOOKS[prefix]}: {prefix} ids {found} leave a gap")
