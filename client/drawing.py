"""Styled text as the screens draw it, and read back as words: what every screen's drawing
and the line mode share, below the renderer and the screens.

``Fragments`` are prompt-toolkit's formatted text, ``(style, text[, mouse handler])``;
``cells`` fits a text to a column of the terminal; ``plain`` and ``text_lines`` read a
drawing back as words (the line mode says what the full screen draws).

Must not know about: game rules, the wire, the controller.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.utils import get_cwidth

from cardparty.core.i18n import _, translate

Fragments = list[tuple[Any, ...]]


def cells(text: str, width: int, more: str = "…") -> str:
    """``text`` in exactly ``width`` columns of the terminal: cut (ending in ``more``) or
    padded by what each character takes on screen, so an emoji (two columns) in a name does
    not shift the columns after it."""
    if sum(get_cwidth(ch) for ch in text) > width:
        out, used = "", get_cwidth(more)
        for ch in text:
            if used + get_cwidth(ch) > width:
                break
            out += ch
            used += get_cwidth(ch)
        text = out + more
    return text + " " * max(0, width - sum(get_cwidth(ch) for ch in text))


def plain(text: str) -> str:
    """A drawn text as words: no run of spaces (a column's padding), nothing at either end."""
    return " ".join(text.split())


def text_lines(fragments: Fragments) -> list[str]:
    """A region the full screen draws, as its lines of words (empty ones left out)."""
    joined = "".join(f[1] for f in fragments)
    return [p for p in (plain(line) for line in joined.split("\n")) if p]


#: Counters whose value is a seat: shown by the player's name. The view has no type for a
#: seat, so these are the names the installed games give such counters (docs/playing.md).
SEAT_COUNTERS = frozenset({"dealer", "elder", "younger", "leader", "starter", "turn"})


def counter_text(value: Any, names: list[str] | None = None, key: str = "") -> str:
    """A counter's value in words: a list with one value per player (its length is the
    number of players) as "Eva 9, Petr 4"; other lists as "3, 12"; maps as "name value"; a
    seat counter (``SEAT_COUNTERS``) as the player's name."""
    if names and key in SEAT_COUNTERS and isinstance(value, int) and not isinstance(
            value, bool) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, list | tuple):
        if names and len(value) == len(names) and len(names) > 1:
            return ", ".join(f"{n} {counter_text(v)}" for n, v in zip(names, value,
                                                                        strict=True))
        return ", ".join(counter_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{translate(k)} {counter_text(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "-"
    return translate(value) if isinstance(value, str) else str(value)
