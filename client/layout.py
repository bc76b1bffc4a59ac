"""The screen's layout: the windows each screen is drawn in, the regions of the table (each
exactly as high as its lines, the event log taking what is left), and the boxes over the
screen (the end of a round, the scoreboard, the help, a dialog, the command line's
completions).

Every window draws a ``render.Renderer`` function; a drawing bug shows as one line in its
window, never a traceback. The layout is made before the application that runs it, and asks
it for the terminal's size through ``Terminal``.

Must not know about: game rules, the wire, what a key does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.filters import Condition, Filter, to_filter
from prompt_toolkit.formatted_text.utils import fragment_list_width, split_lines
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer

#: The fewest lines of the event log a table screen shows, and the narrowest terminal it is
#: drawn in; below that the screen says it is too small instead of dropping lines.
MIN_LOG = 1
MIN_COLUMNS = 40
#: The most lines the banner and the message line take (each wraps between words: a
#: refusal's advice is read whole).
MAX_MESSAGE_LINES = 8


class Terminal:
    """The application, once built: its terminal's size and the frame being drawn."""

    def __init__(self) -> None:
        self.app: Application[Any] | None = None

    def size(self) -> Size:
        return self.app.output.get_size() if self.app is not None else Size(24, 80)

    def frame(self) -> int:
        return self.app.render_counter if self.app is not None else 0

    def box_width(self, most: int) -> int:
        """A box at most ``most`` wide, and never wider than the terminal (with its frame):
        a box wider than the screen draws nothing at all."""
        return max(10, min(most, self.size().columns - 2))

    def content_width(self, least: int, most: int) -> Dimension:
        """As wide as the box's longest line, between ``least`` and ``most`` (a match of
        many rounds widens the end of a round's box), never wider than the terminal."""
        return Dimension(min=min(least, self.box_width(most)), max=self.box_width(most))


class Regions:
    """The table's regions drawn once per frame, and the lines each takes at the screen's
    width (the windows are exactly that high, so nothing is cut off)."""

    def __init__(self, r: Renderer, frame: Callable[[], int],
                 columns: Callable[[], int]) -> None:
        self.draw = {"top": r.table_top_ruled, "hand": r.hand_ruled, "actions": r.actions}
        self.lines_of = {"status": r.status, "banner": r.banner}
        self.frame = frame
        self.columns = columns
        self.memo: dict[str, tuple[int, Any, int]] = {}

    def get(self, name: str) -> Any:
        frame = self.frame()
        memo = self.memo.get(name)
        if memo is None or memo[0] != frame:
            try:
                fragments = (self.lines_of.get(name) or self.draw[name])()
            except Exception as exc:         # a drawing bug shows as a line (see ``drawn``)
                fragments = [("class:error", f" (could not draw: {type(exc).__name__}: "
                                             f"{exc})")]
            lines = count_lines(fragments, self.columns())
            memo = (frame, fragments, min(MAX_MESSAGE_LINES, lines) if name in self.lines_of
                    else lines)
            self.memo[name] = memo
        return memo[1]

    def lines(self, name: str) -> int:
        self.get(name)
        return self.memo[name][2]

    def chrome(self, banner: str) -> int:
        """The lines around the table: the title, the banner, the status line(s)."""
        return 1 + (self.lines("banner") if banner else 0) + self.lines("status")

    def needed(self, banner: str) -> tuple[int, int]:
        """The smallest terminal (columns, rows) this table shows completely in."""
        rows = self.chrome(banner) + MIN_LOG + sum(self.lines(n) for n in self.draw)
        return MIN_COLUMNS, rows


def count_lines(fragments: Any, width: int) -> int:
    """How many screen lines ``fragments`` take, wrapped at ``width`` columns."""
    width = max(1, width)
    total = 0
    for line in split_lines(fragments):
        total += max(1, -(-fragment_list_width(line) // width))
    return max(1, total)


def drawn(fn: Callable[[], Any]) -> FormattedTextControl:
    """A control drawing ``fn``; a drawing bug shows as a line, never a traceback."""
    def get() -> Any:
        try:
            return fn()
        except Exception as exc:
            return [("class:error", f" (could not draw: {type(exc).__name__}: {exc})")]
    return FormattedTextControl(get, focusable=False, show_cursor=False)


def boxed(body: Window, ascii_only: bool, style: str = "") -> HSplit:
    """A frame around ``body`` (prompt-toolkit's Frame draws Unicode lines only)."""
    if ascii_only:
        h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
    else:
        h, v, tl, tr, bl, br = "─", "│", "┌", "┐", "└", "┘"

    def edge(left: str, right: str) -> VSplit:
        return VSplit([Window(width=1, height=1, char=left), Window(height=1, char=h),
                       Window(width=1, height=1, char=right)])

    return HSplit([edge(tl, tr), VSplit([Window(width=1, char=v), body,
                                         Window(width=1, char=v)]), edge(bl, br)],
                  style=style)


def table_screen(c: Controller, r: Renderer, regions: Regions, term: Terminal
                 ) -> AnyContainer:
    """The table's regions, or, in a terminal too small for them, what it needs."""
    def log_text() -> Any:
        # The lines left between the regions (the window's own height is known only after
        # the frame is drawn, and a log longer than its window would lose its newest lines).
        rows = term.size().rows - regions.chrome(c.banner)
        return r.log(rows - sum(regions.lines(n) for n in regions.draw))

    def region(name: str) -> Window:
        return Window(drawn(lambda: regions.get(name)), wrap_lines=True,
                      height=lambda: Dimension.exact(regions.lines(name)))

    # Few windows: each costs prompt-toolkit time on every frame (the render path's budget is
    # 20 ms), so the rules above and below the log are drawn by the regions next to them.
    # Each region is exactly as high as its lines: the log gives way, never a player's line.
    body = HSplit([region("top"), Window(drawn(log_text), wrap_lines=False,
                                         height=Dimension(min=MIN_LOG)),
                   region("hand"), region("actions")])

    def fits() -> bool:
        if term.app is None:                  # the application is being built: not drawn yet
            return True
        size = term.size()
        columns, rows = regions.needed(c.banner)
        return size.rows >= rows and size.columns >= columns

    too_small = Window(drawn(lambda: r.too_small(regions.needed(c.banner))), wrap_lines=True)
    return DynamicContainer(lambda: body if fits() else too_small)


def overlays(c: Controller, r: Renderer, ascii_only: bool, term: Terminal) -> list[Float]:
    """The boxes over the screen, each while it is open, and the completions menu."""
    def box(draw: Callable[[], Any], width: Any, when: Callable[[], bool],
            style: str = "") -> Float:
        window = Window(drawn(draw), width=width, wrap_lines=True)
        return Float(ConditionalContainer(boxed(window, ascii_only, style),
                                          filter=Condition(when)))

    def at_table() -> bool:
        return c.screen == "table" and not c.help and c.dialog is None

    return [
        box(r.over, lambda: term.content_width(60, 76),
            lambda: at_table() and c.table.over and not c.scoreboard),
        box(r.scoreboard, lambda: term.content_width(40, 76),
            lambda: at_table() and c.scoreboard),
        box(r.help, lambda: term.box_width(76), lambda: bool(c.help)),
        box(r.dialog, lambda: Dimension(max=term.box_width(70)),
            lambda: c.dialog is not None and not c.help, style="class:dialog"),
        # Arrows beside a menu longer than its 8 rows say there are more.
        Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8, scroll_offset=1,
                                                                  display_arrows=True)),
    ]


def build_layout(c: Controller, r: Renderer, ascii_only: bool, term: Terminal,
                 prompt: AnyContainer, prompt_open: Filter) -> tuple[FloatContainer, Window]:
    """The whole screen, and the title's window (it holds the focus while the command line
    is closed: focusable, so that the line editor's keys are off, as they apply only while a
    buffer has the focus)."""
    regions = Regions(r, term.frame, lambda: term.size().columns)
    title_control = drawn(r.title)
    title_control.focusable = to_filter(True)
    title = Window(title_control, height=1, style="class:title")
    table = table_screen(c, r, regions, term)
    screens = {"start": Window(drawn(r.start)), "lobby": Window(drawn(r.lobby)),
               "league": Window(drawn(r.league)), "shop": Window(drawn(r.shop)),
               "profile": Window(drawn(r.profile)), "events": Window(drawn(r.events)),
               "history": Window(drawn(r.history)),
               "replay": Window(drawn(r.replay), wrap_lines=True),
               "room": Window(drawn(r.room), wrap_lines=True), "table": table}
    body = HSplit([
        title,
        ConditionalContainer(Window(drawn(lambda: regions.get("banner")), style="class:banner",
                                    height=lambda: Dimension.exact(regions.lines("banner"))),
                             filter=Condition(lambda: bool(c.banner))),
        DynamicContainer(lambda: screens.get(c.screen, table)),
        ConditionalContainer(Window(drawn(lambda: regions.get("status")), wrap_lines=True,
                                    height=lambda: Dimension.exact(regions.lines("status"))),
                             filter=~prompt_open),
        prompt,
    ])
    return FloatContainer(content=body, floats=overlays(c, r, ascii_only, term)), title
