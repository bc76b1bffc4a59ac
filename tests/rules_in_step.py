"""Whether the project's rulebooks (docs/rules/) are in step with the source rulebooks they
follow (by default ``../shared/rules`` beside the project): the same rule ids in each book,
and every rule the source marks *revised* noted as revised, with its date, in the project's
book. The tests read the project's books only (tests/test_rule_coverage.py); this is what to
run when the source changes: ``make rules`` (or ``python -m tests.rules_in_step DIR``).
Prints one line per difference; exit status 1 when there is any.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.test_rule_coverage import BOOKS, OWN_BOOKS, ROOT, RULES, numbers

#: A source line marking a revision: its date.
REVISED = re.compile(r"revised (\d{4}-\d{2}-\d{2})", re.I)
#: A rule's first line in a book: ``- PK-19 ...`` or ``- **PK-19** ...``.
RULE = re.compile(r"^\s*-\s+\**([A-Z]{2}-\d+)\b")


def revisions(text: str) -> dict[str, set[str]]:
    """The dates each rule of ``text`` is marked revised on (a mark belongs to the rule whose
    item it stands in)."""
    out: dict[str, set[str]] = {}
    rule = ""
    for line in text.splitlines():
        m = RULE.match(line)
        if m:
            rule = m.group(1)
        elif line.startswith("#"):
            rule = ""
        for date in REVISED.findall(line):
            out.setdefault(rule, set()).add(date)
    return out


def differences(source: Path) -> list[str]:
    """What the project's books lack or hold beyond ``source``'s, in words."""
    out = []
    for prefix, book in sorted(BOOKS.items()):
        if prefix in OWN_BOOKS:
            continue
        if not (source / book).is_file():
            out.append(f"{book}: not in {source}")
            continue
        theirs, ours = set(numbers(prefix, source)), set(numbers(prefix))
        for n in sorted(theirs - ours):
            out.append(f"{book}: {prefix}-{n} is in the source, not in docs/rules")
        for n in sorted(ours - theirs):
            out.append(f"{book}: {prefix}-{n} is in docs/rules, not in the source")
        noted = revisions((RULES / book).read_text(encoding="utf-8"))
        for rule, dates in sorted(revisions((source / book).read_text(
                encoding="utf-8")).items()):
            for date in sorted(dates - noted.get(rule, set())):
                out.append(f"{book}: {rule or 'a line'} is revised {date} in the source; "
                           "docs/rules does not note it")
    return out


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else ROOT.parent / "shared" / "rules"
    if not source.is_dir():
        print(f"rules_in_step: no source rulebooks at {source}", file=sys.stderr)
        return 2
    found = differences(source)
    for line in found:
        print(line)
    if not found:
        print(f"docs/rules is in step with {source}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
