"""Text a client sends, checked on the way in and shown safely on the way out.

Owns: what a username, a table title and a chat line may hold (``name_problem``,
``line_problem``: printable, one line, no control or bidirectional-override characters,
bounded length; a name also shows a letter or digit, holds nothing invisible, does not mix
scripts and draws no accent its letters lack: docs/security.md), the form a name is kept and
shown in (``shown_name``: NFC), the forms under which it is owned (``name_folds``: "Eva",
"eva", "Ｅｖａ" and a Cyrillic "Еѵа" are one name, by Unicode's confusables skeleton) and the
one a player's handle is made from (``name_key``), and ``safe``, which renders any text from
the wire so that it cannot move a terminal's cursor, change its colours, reorder a line (bidi
overrides) or forge another line of a log.

Must not know about: sockets, players, terminals' libraries.
"""

from __future__ import annotations

from cardparty.net.names.confusable import invisible, script_of, scripts_of, skeleton
from cardparty.net.names.ucd import category, normalize, printable

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

#: Scripts one name may mix (UTS #39's "highly restrictive" level): Japanese, Chinese with
#: Bopomofo and Korean writing mix scripts, each also with Latin; any other mix lets a name
#: pass for another ("Vіc" with a Cyrillic і).
MIXES = (frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
         frozenset({"Latin", "Han", "Bopomofo"}),
         frozenset({"Latin", "Han", "Hangul"}))
#: Scripts whose accented letters exist as one character each: a combining mark still left on
#: one of them after NFC draws an accent the letter does not have, which terminals draw in
#: the wrong place or not at all.
PRECOMPOSED = frozenset({"Latin", "Greek", "Cyrillic"})
#: Combining marks in a row a name may hold (scripts that need marks need few; "Zalgo" text
#: stacks dozens).
MARKS_IN_A_ROW = 3


def _bad_char(c: str, *, joiners: bool) -> str | None:
    if c in BIDI:
        return "bidirectional-override characters"
    if c in "\r\n\u2028\u2029\x85\x0b\x0c":
        return "more than one line"
    if category(c) == "Cc":
        return "control characters"
    if printable(c) or c == " " or (joiners and c in JOINERS):
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
    characters, no invisible ones, no spaces at either end or twice in a row, at least one
    letter or digit, one script (or a mix of ``MIXES``), no accent its letters lack (after
    NFC, ``shown_name``)."""
    why = line_problem(name, NAME_MAX, min_len=1, joiners=False)
    if why is not None:
        return why
    shown = shown_name(name)
    for c in shown:
        if invisible(c):
            return f"may not hold the invisible character U+{ord(c):04X}"
    if name != name.strip() or "  " in name:
        return "may not start or end with a space or hold two in a row"
    why = _marks_problem(shown)
    if why is not None:
        return why
    scripts = scripts_of(shown)
    if len(scripts) > 1 and not any(scripts <= mix for mix in MIXES):
        return (f"mixes letters of {' and '.join(sorted(scripts))}, so it could pass for "
                "another name: write it in one script")
    if not any(category(c)[0] in "LN" for c in shown):
        return "must show at least one letter or digit"
    return None


def _marks_problem(shown: str) -> str | None:
    base: str | None = None
    run = 0
    for c in shown:
        if category(c)[0] != "M":
            base, run = c, 0
            continue
        run += 1
        if run > MARKS_IN_A_ROW:
            return f"may not stack more than {MARKS_IN_A_ROW} combining marks"
        script = script_of(base) if base is not None else None
        if script is None or script in PRECOMPOSED:
            return (f"may not put the combining mark U+{ord(c):04X} on "
                    f"{'nothing' if base is None else repr(base)} (write the letter with its "
                    "accent as one character)")
    return None


def shown_name(name: str) -> str:
    """The form a host keeps and shows a name in: NFC (a letter and its accent as one
    character where Unicode has one, however the client's keyboard sent them)."""
    return normalize("NFC", name)


def name_folds(name: str) -> tuple[str, str]:
    """The forms a name is owned under: two names that read alike share one. Both begin with
    NFKC (width and compatibility forms) and spaces squeezed, and end case-folded through
    Unicode's confusables skeleton (UTS #39: a Cyrillic "е" is an "e", "rn" an "m"). The first
    takes the skeleton before folding the case too (a Cyrillic "ТОМ" reads as "TOM", so as
    "Tom"); the second does not (the skeleton takes a capital "I" for an "l", which case
    folding alone, "VIC" for "Vic", must not undo)."""
    text = " ".join(normalize("NFKC", name).split())
    return skeleton(skeleton(text).casefold()), skeleton(text.casefold())


def name_key(name: str) -> str:
    """The form a player's handle is made from (``store.identity``): NFKC, case-folded,
    spaces squeezed; "eva" and "Ｅｖａ" say hello as the same player as "Eva". (Who owns a
    name is by ``name_folds``, which also fold what merely reads alike.)"""
    return " ".join(normalize("NFKC", name).casefold().split())


def safe(text: object, limit: int = 200, keep: frozenset[str] = frozenset()) -> str:
    """``text`` as one harmless line for a terminal or a log: every character that is not
    printable (escape sequences, line breaks, bidi overrides, invisible ones) shown as an
    escape like ``\\x1b`` or ``\\u202e``, but those of ``keep`` (e.g. ``JOINERS``); cut to
    ``limit`` characters with an ellipsis."""
    s = text if isinstance(text, str) else str(text)
    if s.isascii() and s.isprintable():
        return s if len(s) <= limit else s[: max(0, limit - 1)] + "…"
    out: list[str] = []
    for c in s:
        if (printable(c) and c not in BIDI) or c in keep:
            out.append(c)
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    joined = "".join(out)
    return joined if len(joined) <= limit else joined[: max(0, limit - 1)] + "…"
