"""The screen's one line for messages: the last refusal (``error``) or the last notice, the
newest of the two winning, and each notice leaving once what it says stops being true.

Why one line with rules: a push from the host (an invitation, "you no longer sit at that
table") must be read at once, so it replaces an older refusal instead of waiting behind it
for a key; and a notice about a table taking seats ("waiting at table t3 ... u: stop
waiting", "seat 2 of table t1 is free") goes once that table has started or gone. A notice
says how long it holds: ``while_open`` (a table id: while that table is listed as taking
seats, and is not the table on screen), ``holds`` (any condition on the client), or, by
default, while the screen it was said on stays.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardparty.client.controller import Controller


@dataclass(frozen=True)
class Notice:
    """A notice and how long it holds (see the module docstring)."""

    text: str
    screen: str
    while_open: Any = None
    holds: Callable[[Controller], bool] | None = None

    def still_true(self, c: Controller) -> bool:
        if self.holds is not None:
            return self.holds(c)
        if self.while_open is not None:
            return table_taking_seats(c, self.while_open)
        return c.screen == self.screen


def table_taking_seats(c: Controller, table: Any) -> bool:
    """``table`` still takes seats as this client knows it: not started (its view is not on
    the screen, its lobby row, if listed yet, says open) and not gone from a listing that had
    it."""
    if c.screen == "table" and c.table_id == table:
        return False
    row = next((t for t in c.tables if t.get("id") == table), None)
    if row is None:
        return table not in c.listed_once
    return row.get("status") == "open"


class MessageLine:
    """The error and the notice of one client (see the module docstring)."""

    def __init__(self) -> None:
        self.error = ""
        self.notice: Notice | None = None

    def set_error(self, text: str) -> None:
        self.error = text
        if text:
            self.notice = None

    def say(self, text: str, screen: str, *, while_open: Any = None,
            holds: Callable[[Controller], bool] | None = None) -> None:
        self.notice = Notice(text, screen, while_open, holds) if text else None
        if text:
            self.error = ""

    @property
    def notice_text(self) -> str:
        return self.notice.text if self.notice is not None else ""

    def expire(self, c: Controller) -> None:
        """Drop the notice once it is no longer true (after every key and message)."""
        if self.notice is not None and not self.notice.still_true(c):
            self.notice = None
