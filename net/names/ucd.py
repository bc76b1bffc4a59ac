"""Unicode's character database as the name rules read it: one version, the one their
confusable tables were made from (``unicode_names.txt``, ``VERSION`` there).

The interpreter's own ``unicodedata`` carries the Unicode of its release (14.0 for Python
3.11): a letter added since is unassigned to it, so a name written in it would be refused as
invisible while the confusable tables know its script. ``unicodedata2`` carries Unicode's
current tables with the same functions, so every property the name rules read comes from here:
normalization (NFC, NFD, NFKC), the general category (letters, marks, spaces, controls) and
``printable``, which the interpreter's ``str.isprintable`` answers from its own version.
Case folding (``str.casefold``) is the interpreter's: ``unicodedata2`` has none, and a folding
that changes is rare (a cased script added since folds nothing there).

Owns: ``normalize``, ``category``, ``printable`` and ``unidata_version``.

Must not know about: what a name may hold (``safetext``), the confusable tables' contents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:       # unicodedata2 ships no types: its functions are the standard library's
    from unicodedata import category, normalize, unidata_version
else:
    from unicodedata2 import category, normalize, unidata_version

__all__ = ["category", "normalize", "printable", "unidata_version"]


def printable(c: str) -> bool:
    """``str.isprintable`` of one character by these tables: neither Other (controls,
    formats, surrogates, private use, unassigned) nor a separator, but the plain space."""
    if c < "\x80":
        return c.isprintable()          # ASCII reads the same in every version
    return category(c)[0] not in "CZ"
