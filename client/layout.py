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

from collections.abc import Callable, Mapping
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
from cardparty.client.screen import Box, Screen

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
    """A screen's regions (the table's), drawn once per frame, and the lines each takes at
    the screen's width (the windows are exactly that high, so nothing is cut off). The
    screen's chrome (the banner and the status line) is one too, which the regions' screen
    shares (``chrome``)."""

    def __init__(self, draw: Mapping[str, Callable[[], Any]], frame: Callable[[], int],
                 columns: Callable[[], int], chrome: Regions | None = None) -> None:
        self.draw = dict(draw)
        self.frame = frame
        self.columns = columns
        self.shared = chrome
        self.memo: dict[str, tuple[int, Any, int]] = {}

    def get(self, name: str) -> Any:
        frame = self.frame()
        memo = self.memo.get(name)
        if memo is None or memo[0] != frame:
            try:
                fragments = self.draw[name]()
            except Exception as exc:         # a drawing bug shows as a line (see ``drawn``)
                fragments = [("class:error", f" (could not draw: {type(exc).__name__}: "
                                             f"{exc})")]
            lines = count_lines(fragments, self.columns())
            memo = (frame, fragments, min(MAX_MESSAGE_LINES, lines) if self.shared is None
                    else lines)
            self.memo[name] = memo
        return memo[1]

    def lines(self, name: str) -> int:
        self.get(name)
        return self.memo[name][2]

    def chrome(self, banner: str) -> int:
        """The lines around the regions: the title, the banner, the status line(s)."""
        shared = self.shared or self
        return 1 + (shared.lines("banner") if banner else 0) + shared.lines("status")

    def needed(self, banner: str) -> tuple[int, int]:
        """The smallest terminal (columns, rows) the regions show completely in."""
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


def regions_screen(c: Controller, screen: Screen, r: Renderer, regions: Regions,
                   term: Terminal) -> AnyContainer:
    """A screen of regions (the table's: ``Screen.regions``), or, in a terminal too small for
    them, what it needs."""
    def log_text() -> Any:
        # The lines left between the regions (the window's own height is known only after
        # the frame is drawn, and a log longer than its window would lose its newest lines).
        rows = term.size().rows - regions.chrome(c.banner)
        return r.asciify(screen.log(r, rows - sum(regions.lines(n) for n in regions.draw)))

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


def screen_body(c: Controller, screen: Screen, r: Renderer, term: Terminal, chrome: Regions
                ) -> AnyContainer:
    """What ``screen`` draws: one window of its text, or its regions."""
    parts = screen.regions(r)
    if parts is None:
        return Window(drawn(lambda: r.screen(screen.name)), wrap_lines=screen.wrap)
    draw = {name: (lambda part=part: r.asciify(part())) for name, part in parts.items()}
    regions = Regions(draw, term.frame, lambda: term.size().columns, chrome)
    return regions_screen(c, screen, r, regions, term)


def overlays(c: Controller, r: Renderer, ascii_only: bool, term: Terminal) -> list[Float]:
    """The boxes over the screen, each while it is open, and the completions menu."""
    def box(draw: Callable[[], Any], width: Any, when: Callable[[], bool],
            style: str = "") -> Float:
        window = Window(drawn(draw), width=width, wrap_lines=True)
        return Float(ConditionalContainer(boxed(window, ascii_only, style),
                                          filter=Condition(when)))

    def bare() -> bool:
        return not c.help and c.dialog is None

    def screen_box(screen: Screen, b: Box) -> Float:
        return box(lambda: r.asciify(b.draw()), lambda: term.content_width(b.least, b.most),
                   lambda: c.current is screen and bare() and b.when())

    return [
        *(screen_box(screen, b) for screen in c.screens.values() for b in screen.boxes(r)),
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
    chrome = Regions({"status": r.status, "banner": r.banner}, term.frame,
                     lambda: term.size().columns)
    title_control = drawn(r.title)
    title_control.focusable = to_filter(True)
    title = Window(title_control, height=1, style="class:title")
    screens = {name: screen_body(c, screen, r, term, chrome)
               for name, screen in c.screens.items()}
    body = HSplit([
        title,
        ConditionalContainer(Window(drawn(lambda: chrome.get("banner")), style="class:banner",
                                    height=lambda: Dimension.exact(chrome.lines("banner"))),
                             filter=Condition(lambda: bool(c.banner))),
        DynamicContainer(lambda: screens[c.screen]),
        ConditionalContainer(Window(drawn(lambda: chrome.get("status")), wrap_lines=True,
                                    height=lambda: Dimension.exact(chrome.lines("status"))),
                             filter=~prompt_open),
        prompt,
    ])
    return FloatContainer(content=body, floats=overlays(c, r, ascii_only, term)), title
