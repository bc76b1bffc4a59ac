"""A host's free text, made fit to draw: whatever a host sends, a chat line is one line, a
name reads as what it is, and nothing reorders, recolours or moves the screen.

A host of this project checks what its players send (net/names/safetext.py), but a client may meet
a host that does not: a chat line holding a newline would draw a second line of its own
("<Eva> I resign") and a U+202E would turn the rest of a line around. Every piece of a host's
free text (chat, names, table titles, reasons) goes through ``host_text`` where it enters the
client's messages (``net_link``, ``economy_link``), so every screen draws it safely:

- anything a terminal would act on instead of drawing (controls, escape sequences, line and
  paragraph breaks, bidirectional overrides and isolates, invisible characters) is shown as
  an escape (``\\x0a``, ``\\u202e``): the line stays one line, and the reader sees that
  something was there;
- a name is held to the host's own rules for names (``safetext.name_problem``): one that
  passes is shown as the host keeps it (NFC); one that does not (mixed scripts, a filler, an
  accent no letter has) is shown with every character outside ASCII escaped, so that a
  Cyrillic "Vіc" reads as ``V\\u0456c``, never as Vic;
- ``lines=True`` (a game's narration, whose summaries run over several lines) keeps line
  breaks and neutralises each line.

Must not know about: terminals' libraries, the wire, game rules.
"""

from __future__ import annotations

from cardparty.net.names.safetext import JOINERS, name_problem, safe, shown_name

#: The longest piece of a host's text drawn (a chat line is at most 500 characters at a host).
LIMIT = 500


def host_text(text: object, limit: int = LIMIT, *, name: bool = False,
              lines: bool = False) -> str:
    """``text`` from a host as it may be drawn: see the module docstring."""
    s = text if isinstance(text, str) else "" if text is None else str(text)
    if name:
        s = shown_name(s)
        if name_problem(s) is not None:
            return "".join(c if c.isascii() else _escape(c) for c in safe(s, limit))
        return safe(s, limit)
    if lines:
        return "\n".join(_line(part, limit) for part in s.split("\n"))
    return _line(s, limit)


def _line(s: str, limit: int) -> str:
    """One line, emoji joiners kept (they move nothing)."""
    return safe(s, limit, keep=JOINERS)


def _escape(c: str) -> str:
    return f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}"
