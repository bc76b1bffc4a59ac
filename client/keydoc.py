"""The key tables of ``docs/playing.md``, written from the keys the screens declare
(``client/screens/``): each screen's table between the lines ``<!-- keys: SCREEN -->`` and
``<!-- /keys -->``, a row per binding (its keys, and its action's docstring). The doc's other
words are its own. ``python -m cardparty.client.keydoc docs/playing.md`` writes the tables
again after a key changed; ``tests/client/test_client_keys.py`` checks that they agree.

Must not know about: terminals, game rules, the wire.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from cardparty.client.controller import KEYMAP
from cardparty.client.keymap import Binding, KeyMap, key_words
from cardparty.client.screens import SCREENS as REGISTERED

#: The screens with a table in the doc, by the name its markers give them: every one
#: registered.
SCREENS = tuple(screen.name for screen in REGISTERED)

BLOCK = re.compile(r"(<!-- keys: (\w+) -->\n)(.*?)(<!-- /keys -->)", re.S)


def keys_cell(b: Binding) -> str:
    """A binding's keys as the doc writes them (`` `up`, `down`, `k`, `j` ``; the mouse as
    what it does with it)."""
    if b.action is None:
        return f"mouse {b.label}"
    return ", ".join(f"`{word}`" for word in key_words(b.keys, str, pairs=False))


def table(screen: str, keymap: KeyMap = KEYMAP) -> str:
    """The doc's table of ``screen``'s keys (markdown)."""
    rows = ["| key | what it does |", "|---|---|"]
    rows += [f"| {keys_cell(b)} | {b.doc} |" for b in keymap.on_screen(screen)]
    return "\n".join(rows) + "\n"


def tables_in(text: str) -> dict[str, str]:
    """The tables a doc holds now, by screen."""
    return {m.group(2): m.group(3) for m in BLOCK.finditer(text)}


def rewrite(text: str, keymap: KeyMap = KEYMAP) -> str:
    """``text`` with every marked table written from the declarations."""
    return BLOCK.sub(lambda m: m.group(1) + table(m.group(2), keymap) + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    paths = (argv if argv is not None else sys.argv[1:]) or ["docs/playing.md"]
    for name in paths:
        path = Path(name)
        path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
