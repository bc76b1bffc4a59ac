"""The line mode on a terminal: lines printed as they come, a prompt that takes typed lines
with completion and a history (``--line`` of ``play`` and ``join``; docs/playing.md, "The line
mode").

prompt-toolkit's prompt, not its full screen: what the narrator says (``line_words``) is
printed above the prompt as plain lines, the way a screen reader or a braille display follows
a terminal; Tab lists the completions as plain lines too (readline's way, not a floating
menu). The link's messages come in on the prompt's event loop; every message and every line
typed is followed by what it changed, said.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.patch_stdout import patch_stdout
from prompt_toolkit.shortcuts import CompleteStyle

from cardparty.client.command_line import COMMANDS, normal
from cardparty.client.controller import Controller
from cardparty.client.dialog import Choice
from cardparty.client.line_typed import LineInput
from cardparty.client.line_words import QUERIES, QUERIES_WHERE, Narrator
from cardparty.client.link import Message
from cardparty.client.theme import label_of


class LineCompleter(Completer):
    """What may be typed now, starting like what is typed: a dialog's choices, the listed
    moves, the commands and the line mode's questions (compared as ``normal`` does)."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def options(self) -> list[str]:
        d = self.c.dialog
        if isinstance(d, Choice):
            return [label_of({"kind": "", "label": label, "cards": list(
                value.get("cards") or () if isinstance(value, dict) else ())})
                    for label, value in d.options]
        c = self.c
        if c.dialog is not None or c.screen == "start":
            return []
        moves = [label_of(m) for m in c.table.moves] if c.screen == "table" else []
        here = [offer for cmd in COMMANDS if cmd.of_use(c.screen) for offer in cmd.offers]
        asked = [w for w in QUERIES if c.screen in QUERIES_WHERE.get(w, (c.screen,))]
        return [*moves, *here, *asked]

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        typed = document.text_before_cursor
        want = normal(typed)
        for option in dict.fromkeys(self.options()):
            if normal(option).startswith(want) and option != typed:
                yield Completion(option, start_position=-len(typed))


def run_line(c: Controller, start: Callable[[Callable[[Message], None]], Any] | None,
             ascii_only: bool = False) -> int:
    """The line mode until the player quits; ``start(deliver)`` starts what feeds the
    controller (its link, the LAN's hosts) once the loop runs."""
    asyncio.run(_serve(c, start, ascii_only))
    return 0


async def _serve(c: Controller, start: Callable[[Callable[[Message], None]], Any] | None,
                 ascii_only: bool) -> None:
    loop = asyncio.get_running_loop()
    narrator = Narrator(c, ascii_only)
    typed = LineInput(c, narrator)
    session: PromptSession[str] = PromptSession(
        completer=LineCompleter(c), complete_style=CompleteStyle.READLINE_LIKE,
        complete_while_typing=False, history=InMemoryHistory(), mouse_support=False)

    def say(lines: Iterable[str]) -> None:
        for line in lines:
            print(line, flush=True)

    def changed() -> None:
        say(narrator.lines())
        if session.app.is_running:
            session.app.invalidate()             # the prompt follows (your move: ...)

    def apply(msg: Message) -> None:
        c.receive(msg)
        changed()

    def deliver(msg: Message) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody reads now
            loop.call_soon_threadsafe(apply, msg)

    def exit_now() -> None:
        if session.app.is_running:
            session.app.exit(exception=EOFError())

    def attention(why: str) -> None:
        if why:                                  # the bell, as the full screen rings it
            print("\a", end="", flush=True)

    c.deliver = deliver
    c.on_exit = exit_now
    c.on_attention = attention
    say(narrator.lines())                       # before the prompt shows: read first
    with patch_stdout(raw=True):
        if start is not None:
            start(deliver)
        while not c.quit:
            try:
                line = await session.prompt_async(typed.prompt)
            except (EOFError, KeyboardInterrupt):
                break
            try:
                say(typed.typed(line))
            except Exception as exc:             # one line, never a traceback
                c.failures.append(exc)
                c.error = f"{type(exc).__name__}: {exc}"
            changed()
    if not c.quit:
        c.exit()
