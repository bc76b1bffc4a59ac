"""Writes ``net/wire/requests.py``: one TypedDict per request of ``protocol.REQUESTS``, with the
fields ``check_request`` gives it and each field's type as its check says (``protocol.typed``),
so mypy sees every field a handler reads and a typo in a key fails the type check, not a
player. ``python -m cardparty.net.wire.typegen`` writes the module again after a request
changed; ``tests/wire/test_request_types.py`` fails while the two disagree.

Must not know about: sockets, players, tables, terminals.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cardparty.net.wire.protocol import REQUESTS, request_id, wire_type

HEAD = '''"""The requests a client may send, as checked by ``protocol.check_request``: one TypedDict
per request type, written from ``protocol.REQUESTS`` by ``typegen`` (do not edit by hand:
``python -m cardparty.net.wire.typegen`` writes it again). A handler takes its request's type,
so mypy sees every field it reads.

Must not know about: sockets, players, tables, terminals.
"""

from __future__ import annotations

from typing import Literal, TypedDict'''


def class_name(kind: str) -> str:
    """``standby_ok`` -> ``StandbyOkRequest``."""
    return "".join(part.capitalize() for part in kind.split("_")) + "Request"


def source() -> str:
    """The text of ``requests.py`` as the declarations say it now."""
    out = [HEAD]
    for kind, fields in REQUESTS.items():
        out.append(f"\n\nclass {class_name(kind)}(TypedDict):")
        out.append(f'    """``{kind}`` (docs/protocol.md)."""\n')
        out.append(f'    type: Literal["{kind}"]')
        out.append(f"    rid: {wire_type(request_id)} | None")
        out += [f"    {name}: {field.type}" for name, field in fields.items()]
    members = " | ".join(class_name(kind) for kind in REQUESTS)
    out.append("\n\n#: Any checked request (``type`` tells which).")
    lines, line = [], "Request = ("
    for word in members.split(" "):
        if len(line) + len(word) + 1 > 96:
            lines.append(line.rstrip())
            line = "    "
        line += word + " "
    lines.append(line.rstrip() + ")")
    out += lines
    return "\n".join(out) + "\n"


PATH = Path(__file__).with_name("requests.py")


def main(argv: list[str] | None = None) -> int:
    PATH.write_text(source(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
