"""The full-screen prompt-toolkit application: the layout, the key bindings, and the bridge that
brings the link's messages (from any thread) onto the screen's event loop.

The screen is drawn from the controller's state by ``render``; every key goes to
``Controller.key`` by its prompt-toolkit name. An 80x24 terminal is enough: the event log takes
whatever height is left. Redraws happen on every message and key, and four times a second while
a deadline counts down.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition, to_filter
from prompt_toolkit.formatted_text.utils import fragment_list_width, split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.output import ColorDepth, Output

from cardparty.client.controller import Controller
from cardparty.client.link import Message
from cardparty.client.prompt_box import build_prompt
from cardparty.client.render import Renderer
from cardparty.client.theme import STYLE, glyphs, no_color
from cardparty.core.i18n import _

#: Keys bound by name; everything else arrives through Keys.Any as the typed character.
NAMED_KEYS = {
    "enter": "enter", "c-m": "enter", "c-j": "enter", "escape": "escape", "up": "up",
    "down": "down", "left": "left", "right": "right", "s-left": "s-left",
    "s-right": "s-right", "tab": "tab", "s-tab": "s-tab", "backspace": "backspace",
    "c-h": "backspace", "c-c": "c-c", "c-q": "c-q", "c-u": "c-u", "space": "space",
    "home": "home", "end": "end", "pageup": "pageup", "pagedown": "pagedown", "delete": "delete",
}


#: The fewest lines of the event log a table screen shows, and the narrowest terminal it is
#: drawn in; below that the screen says it is too small instead of dropping lines.
MIN_LOG = 1
MIN_COLUMNS = 40


class Regions:
    """The table's regions drawn once per frame, and the lines each takes at the screen's
    width (the windows are exactly that high, so nothing is cut off)."""

    def __init__(self, r: Renderer, frame: Callable[[], int],
                 columns: Callable[[], int]) -> None:
        self.draw = {"top": r.table_top_ruled, "hand": r.hand_ruled, "actions": r.actions}
        self.status = r.status
        self.frame = frame
        self.columns = columns
        self.memo: dict[str, tuple[int, Any, int]] = {}

    def get(self, name: str) -> Any:
        frame = self.frame()
        memo = self.memo.get(name)
        if memo is None or memo[0] != frame:
            try:
                fragments = (self.status if name == "status" else self.draw[name])()
            except Exception as exc:         # a drawing bug shows as a line (see ``text``)
                fragments = [("class:error", f" (could not draw: {type(exc).__name__}: "
                                             f"{exc})")]
            lines = count_lines(fragments, self.columns())
            memo = (frame, fragments, min(2, lines) if name == "status" else lines)
            self.memo[name] = memo
        return memo[1]

    def lines(self, name: str) -> int:
        self.get(name)
        return self.memo[name][2]

    def chrome(self, banner: str) -> int:
        """The lines around the table: the title, the banner, the status line(s)."""
        return 1 + (1 if banner else 0) + self.lines("status")

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


class Inbox:
    """Messages from the link, handed to the event loop thread-safely; those that arrive
    before the loop runs wait here."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self.app: Application[Any] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pending: list[Message] = []
        self.lock = threading.Lock()
        self.on_applied: Callable[[Message], None] | None = None

    def deliver(self, msg: Message) -> None:
        with self.lock:
            loop = self.loop
            if loop is None:
                self.pending.append(msg)
                return
        with contextlib.suppress(RuntimeError):  # a closed loop: the application is gone
            loop.call_soon_threadsafe(self._apply, msg)

    def bind(self, app: Application[Any]) -> None:
        """Called once the loop runs: from now on messages go straight onto it."""
        self.app = app
        with self.lock:
            self.loop = asyncio.get_running_loop()
            pending, self.pending = self.pending, []
        for msg in pending:
            self._apply(msg)

    def _apply(self, msg: Message) -> None:
        self.controller.receive(msg)
        if self.app is not None:
            self.app.invalidate()
        if self.on_applied is not None:
            self.on_applied(msg)


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


def build_app(controller: Controller, *, ascii_only: bool = False, mouse: bool = True,
              input: Input | None = None, output: Output | None = None
              ) -> tuple[Application[Any], Inbox]:
    """The application drawing ``controller``, and the inbox its link must deliver to."""
    c = controller
    inbox = Inbox(c)

    def click(index: int) -> None:
        c.key_click(index)

    r = Renderer(c, glyphs(ascii_only), ascii_only, on_card_click=click,
                 width=lambda: app.output.get_size().columns)

    def text(fn: Callable[[], Any]) -> FormattedTextControl:
        def get() -> Any:
            try:
                return fn()
            except Exception as exc:  # a drawing bug shows as a line, never a traceback
                return [("class:error", f" (could not draw: {type(exc).__name__}: {exc})")]
        return FormattedTextControl(get, focusable=False, show_cursor=False)

    regions = Regions(r, lambda: app.render_counter,
                      lambda: app.output.get_size().columns)

    def log_text() -> Any:
        # The lines left between the regions (the window's own height is known only after
        # the frame is drawn, and a log longer than its window would lose its newest lines).
        rows = app.output.get_size().rows - regions.chrome(c.banner)
        return r.log(rows - sum(regions.lines(n) for n in regions.draw))

    log_window = Window(text(log_text), wrap_lines=False, height=Dimension(min=MIN_LOG))
    # Few windows: each costs prompt-toolkit time on every frame (the render path's budget is
    # 20 ms), so the rules above and below the log are drawn by the regions next to them.
    # Each region is exactly as high as its lines: the log gives way, never a player's line.
    table_body = HSplit([
        Window(text(lambda: regions.get("top")), wrap_lines=True,
               height=lambda: Dimension.exact(regions.lines("top"))),
        log_window,
        Window(text(lambda: regions.get("hand")), wrap_lines=True,
               height=lambda: Dimension.exact(regions.lines("hand"))),
        Window(text(lambda: regions.get("actions")), wrap_lines=True,
               height=lambda: Dimension.exact(regions.lines("actions"))),
    ])

    def fits() -> bool:
        try:
            size = app.output.get_size()
        except NameError:                     # the application is being built: not drawn yet
            return True
        need = regions.chrome(c.banner) + regions.lines("top") + regions.lines("hand") \
            + regions.lines("actions") + MIN_LOG
        return size.rows >= need and size.columns >= MIN_COLUMNS

    too_small = Window(text(lambda: r.too_small(regions.needed(c.banner))), wrap_lines=True)
    table_or_not = DynamicContainer(lambda: table_body if fits() else too_small)
    def focus_back() -> None:
        with contextlib.suppress(ValueError):
            app.layout.focus(title_window)

    prompt_window, prompt_buffer, prompt_keys, prompt_open = build_prompt(c, focus_back)
    # The title holds the focus while the command line is closed: focusable, so that the
    # line editor's keys are off (they apply only while a buffer has the focus).
    title_control = text(r.title)
    title_control.focusable = to_filter(True)
    title_window = Window(title_control, height=1, style="class:title")

    screens = {"start": Window(text(r.start)), "lobby": Window(text(r.lobby)),
               "league": Window(text(r.league)), "shop": Window(text(r.shop)),
               "room": Window(text(r.room), wrap_lines=True),
               "table": table_or_not}
    body = HSplit([
        title_window,
        ConditionalContainer(Window(text(r.banner), height=1, style="class:banner"),
                             filter=Condition(lambda: bool(c.banner))),
        DynamicContainer(lambda: screens.get(c.screen, table_or_not)),
        ConditionalContainer(
            Window(text(lambda: regions.get("status")), wrap_lines=True,
                   height=lambda: Dimension.exact(regions.lines("status"))),
            filter=~prompt_open),
        prompt_window,
    ])
    floats = [
        Float(ConditionalContainer(
            boxed(Window(text(r.over), width=lambda: content_width(60, 76), wrap_lines=True),
                  ascii_only),
            filter=Condition(lambda: c.screen == "table" and c.table.over and not c.help
                             and c.dialog is None and not c.scoreboard))),
        Float(ConditionalContainer(
            boxed(Window(text(r.scoreboard), width=lambda: content_width(40, 76),
                         wrap_lines=True),
                  ascii_only),
            filter=Condition(lambda: c.screen == "table" and c.scoreboard and not c.help
                             and c.dialog is None))),
        Float(ConditionalContainer(
            boxed(Window(text(r.help), width=lambda: fit_width(76), wrap_lines=True),
                  ascii_only),
            filter=Condition(lambda: bool(c.help)))),
        Float(ConditionalContainer(
            boxed(Window(text(r.dialog), width=lambda: Dimension(max=fit_width(70)),
                         wrap_lines=True),
                  ascii_only, style="class:dialog"),
            filter=Condition(lambda: c.dialog is not None and not c.help))),
    ]
    def fit_width(most: int) -> int:
        """A box at most ``most`` wide, and never wider than the terminal (with its frame):
        a box wider than the screen draws nothing at all."""
        return max(10, min(most, app.output.get_size().columns - 2))

    def content_width(least: int, most: int) -> Dimension:
        """As wide as the box's longest line, between ``least`` and ``most`` (a match of
        many rounds widens the end of a round's box), never wider than the terminal."""
        return Dimension(min=min(least, fit_width(most)), max=fit_width(most))

    floats.append(Float(xcursor=True, ycursor=True,
                        content=CompletionsMenu(max_height=8, scroll_offset=1)))
    root = FloatContainer(content=body, floats=floats)

    kb = KeyBindings()

    screen_keys = ~prompt_open

    def bind(key: str, name: str) -> None:
        # Ctrl-C quits even from the command line; the screen's other keys wait while it is
        # open (the line editor has them).
        @kb.add(key, eager=True, filter=to_filter(True) if name == "c-c" else screen_keys)
        def _(event: Any) -> None:
            c.key(name)

    for key, name in NAMED_KEYS.items():
        try:
            bind(key, name)
        except ValueError:
            continue

    @kb.add(Keys.Any, filter=screen_keys)
    def typed(event: Any) -> None:
        data = event.data or ""
        if len(data) == 1 and data.isprintable():
            c.key(data)

    color_depth = ColorDepth.MONOCHROME if no_color() else None
    app: Application[Any] = Application(
        layout=Layout(root, focused_element=title_window),
        key_bindings=merge_key_bindings([kb, prompt_keys]), style=STYLE, full_screen=True,
        mouse_support=mouse, input=input, output=output,
        color_depth=color_depth, max_render_postpone_time=0)
    app.ttimeoutlen = 0.05
    app.timeoutlen = 0.05

    def on_exit() -> None:
        if app.is_running and not app.future.done():
            app.exit()

    def attention(why: str) -> None:
        """The bell and the window title (``Controller.attention``); the title goes back to
        plain "cardparty" when nothing is due."""
        out = app.output
        with contextlib.suppress(Exception):
            if why:
                out.bell()
                out.set_title("cardparty: " + (_("call now!") if why == "call"
                                               else _("your move")))
            else:
                out.set_title("cardparty")
            out.flush()

    def open_prompt() -> None:
        prompt_buffer.reset()
        app.layout.focus(prompt_buffer)

    c.on_exit = on_exit
    c.on_command = open_prompt
    c.on_attention = attention
    c.on_change = app.invalidate
    c.deliver = inbox.deliver
    return app, inbox


#: Whether gc.freeze() has run in this process (once is enough: later objects are garbage
#: like any other).
_FROZEN: list[bool] = []


async def tick(app: Application[Any], c: Controller, every: float = 0.25) -> None:
    """Redraw while a countdown runs (a deadline at the table); idle otherwise, so that a
    view arriving never waits behind a redraw nobody needed. Also the garbage collector's
    turn (see ``run_async``): between redraws, in small steps."""
    ticks = 0
    while True:
        await asyncio.sleep(every)
        ticks += 1
        gc.collect(2 if ticks % 240 == 0 else 1 if ticks % 8 == 0 else 0)
        if c.screen == "table" and c.table.view.get("deadlines"):
            app.invalidate()


async def run_async(app: Application[Any], inbox: Inbox,
                    start: Callable[[], None] | None = None) -> None:
    """Run ``app`` until the player quits; ``start`` (the link's start) runs once the loop
    is up, so that no message is lost."""
    ticker: asyncio.Task[None] | None = None

    def pre_run() -> None:
        nonlocal ticker
        # Everything built so far (modules, the game catalog, the layout) lives as long as
        # the program: keep it out of the garbage collector's full passes, which would
        # otherwise land in the middle of a redraw now and then.
        if not _FROZEN:
            _FROZEN.append(True)
            gc.freeze()
            # The collector runs between redraws, never inside one: with automatic collection
            # a pass lands in a redraw about once in a hundred views and takes it past 20 ms
            # (bench/client_render.py). ``tick`` collects the young generations four times a
            # second and everything every minute.
            gc.disable()
        inbox.bind(app)
        ticker = asyncio.ensure_future(tick(app, inbox.controller))
        if start is not None:
            start()

    try:
        await app.run_async(pre_run=pre_run)
    finally:
        if ticker is not None:
            ticker.cancel()
