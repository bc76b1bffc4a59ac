"""Text a client sends, checked on the way in and shown safely on the way out.

Owns: what a username, a table title and a chat line may hold (``name_problem``,
``line_problem``: printable, one line, no control or bidirectional-override characters,
bounded length), the form under which a name is owned (``name_key``: "Eva", "eva" and
"Ｅｖａ" are one name), and ``safe``, which renders any text from the wire so that it cannot
move a terminal's cursor, change its colours, reorder a line (bidi overrides) or forge another
line of a log.

Must not know about: sockets, players, terminals' libraries.
"""

from __future__ import annotations

import unicodedata

#: Characters that reorder what follows them on screen (Trojan Source): never accepted.
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                 "\u2066\u2067\u2068\u2069")
#: Joiners that emoji sequences need: allowed in chat (they move nothing).
JOINERS = frozenset("\u200c\u200d")

#: The longest username and table title a host accepts (characters).
NAME_MAX = 32
TITLE_MAX = 64
CHAT_MAX = 500
#: The longest line said to the whole lobby (it may reach every player of a host).
LOBBY_CHAT_MAX = 200


def _bad_char(c: str, *, joiners: bool) -> str | None:
    if c in BIDI:
        return "bidirectional-override characters"
    if c in "\r\n\u2028\u2029\x85\x0b\x0c":
        return "more than one line"
    cat = unicodedata.category(c)
    if cat == "Cc":
        return "control characters"
    if c.isprintable() or c == " " or (joiners and c in JOINERS):
        return None
    return f"the invisible character U+{ord(c):04X}"


def line_problem(text: str, max_len: int, *, min_len: int = 0,
                 joiners: bool = True) -> str | None:
    """Why ``text`` is not an acceptable line (title, chat), or None when it is."""
    if not min_len <= len(text) <= max_len:
        return f"must be {min_len} to {max_len} characters long"
    for c in text:
        why = _bad_char(c, joiners=joiners)
        if why is not None:
            return f"may not hold {why}"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` is not an acceptable username, or None: 1 to NAME_MAX printable
    characters, no invisible ones, no spaces at either end or twice in a row."""
    why = line_problem(name, NAME_MAX, min_len=1, joiners=False)
    if why is not None:
        return why
    if name != name.strip() or "  " in name:
        return "may not start or end with a space or hold two in a row"
    if not name_key(name):
        return "must hold a letter, digit or symbol"
    return None


def name_key(name: str) -> str:
    """The form a name is owned under: NFKC, case-folded, spaces squeezed. Two names with one
    key are one name at a host (nobody takes "eva" or "Ｅｖａ" from Eva)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def safe(text: object, limit: int = 200) -> str:
    """``text`` as one harmless line for a terminal or a log: every character that is not
    printable (escape sequences, line breaks, bidi overrides, invisible ones) shown as an
    escape like ``\\x1b`` or ``\\u202e``; cut to ``limit`` characters with an ellipsis."""
    s = text if isinstance(text, str) else str(text)
    out: list[str] = []
    for c in s:
        if c.isprintable() and c not in BIDI:
            out.append(c)
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    joined = "".join(out)
    return joined if len(joined) <= limit else joined[: max(0, limit - 1)] + "…"
