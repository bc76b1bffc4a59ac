"""The command line at the bottom of the screen (``:`` or ``/``): a prompt-toolkit buffer
with completion of every listed move and command (``command_line.candidates``), a history of
the lines typed (up/down), Enter to do the line, Esc to close it (and its menu, at once).

Must not know about: game rules, the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import BufferControl, ConditionalContainer, VSplit, Window
from prompt_toolkit.layout.processors import BeforeInput

from cardparty.client.command_line import candidates, normal
from cardparty.client.controller import Controller

#: Lines kept in the history (per run of the client).
HISTORY = 200


class LineCompleter(Completer):
    """Moves and commands that start like what is typed (compared as ``normal`` does, so
    ``play 7h`` completes to ``play 7♥``)."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        typed = document.text_before_cursor
        want = normal(typed)
        for option in candidates(self.c):
            if normal(option).startswith(want) and option != typed:
                yield Completion(option, start_position=-len(typed))


class BoundedHistory(InMemoryHistory):
    """The lines typed, the newest ``HISTORY`` of them."""

    def store_string(self, string: str) -> None:
        super().store_string(string)
        del self._storage[:-HISTORY]


def build_prompt(c: Controller, focus_back: Callable[[], None]
                 ) -> tuple[ConditionalContainer, Buffer, KeyBindings, Condition]:
    """The command line's window, its buffer, its keys, and the filter "it is open" (the
    screen's own keys are off while it is)."""
    is_open = Condition(lambda: c.command_open)

    def accept(buf: Buffer) -> bool:
        line = buf.text
        c.command(line)
        focus_back()
        return False                               # the buffer empties; history keeps it

    buffer = Buffer(completer=LineCompleter(c), complete_while_typing=True,
                    history=BoundedHistory(), multiline=False, accept_handler=accept)
    window = Window(BufferControl(buffer, input_processors=[BeforeInput(":",
                                                                        style="class:key")]),
                    height=1, style="class:title")
    container = ConditionalContainer(VSplit([window]), filter=is_open)

    kb = KeyBindings()

    @kb.add("escape", filter=is_open, eager=True)
    def _(event: Any) -> None:
        # One Esc closes the menu and the line together: a line left open behind a closed
        # menu took the next ':' as text.
        if buffer.complete_state is not None:
            buffer.cancel_completion()
        buffer.reset()
        c.command_open = False
        focus_back()

    return container, buffer, kb, is_open
