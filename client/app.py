"""The full-screen prompt-toolkit application: the layout (``layout``), the key bindings
(``bindings``, from the keys the screens declare, ``client/screens/``), the bell and the
title, and the bridge that brings the link's messages (from any thread) onto the screen's
event loop.

The screen is drawn from the controller's state by ``render``. An 80x24 terminal is enough:
the event log takes whatever height is left. Redraws happen on every message and key, and
four times a second while a deadline counts down.

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
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import ColorDepth, Output

from cardparty.client.bindings import key_bindings
from cardparty.client.controller import Controller
from cardparty.client.layout import Terminal, build_layout
from cardparty.client.link import Message
from cardparty.client.prompt_box import build_prompt
from cardparty.client.render import Renderer
from cardparty.client.theme import STYLE, glyphs, no_color
from cardparty.core.i18n import _


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


def build_app(controller: Controller, *, ascii_only: bool = False, mouse: bool = True,
              input: Input | None = None, output: Output | None = None
              ) -> tuple[Application[Any], Inbox]:
    """The application drawing ``controller``, and the inbox its link must deliver to."""
    c = controller
    term = Terminal()
    r = Renderer(c, glyphs(ascii_only), ascii_only, on_card_click=c.key_click,
                 width=lambda: term.size().columns, height=lambda: term.size().rows)

    def focus_back() -> None:
        with contextlib.suppress(ValueError):
            app.layout.focus(title)

    prompt, prompt_buffer, prompt_keys, prompt_open = build_prompt(c, focus_back)
    root, title = build_layout(c, r, ascii_only, term, prompt, prompt_open)
    app: Application[Any] = Application(
        layout=Layout(root, focused_element=title),
        key_bindings=merge_key_bindings([key_bindings(c, c.keys), prompt_keys]), style=STYLE,
        full_screen=True, mouse_support=mouse, input=input, output=output,
        color_depth=ColorDepth.MONOCHROME if no_color() else None, max_render_postpone_time=0)
    app.ttimeoutlen = 0.05
    app.timeoutlen = 0.05
    term.app = app
    inbox = Inbox(c)
    hook_up(c, app, prompt_buffer, inbox)
    return app, inbox


def hook_up(c: Controller, app: Application[Any], prompt: Buffer, inbox: Inbox) -> None:
    """What the controller asks of the screen: to quit, to open the command line, to ring,
    to redraw; and where a link it starts delivers."""
    def on_exit() -> None:
        if app.is_running and app.future is not None and not app.future.done():
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
        prompt.reset()
        app.layout.focus(prompt)

    c.on_exit = on_exit
    c.on_command = open_prompt
    c.on_attention = attention
    c.on_change = app.invalidate
    c.deliver = inbox.deliver


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
        if c.current.ticking():
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
