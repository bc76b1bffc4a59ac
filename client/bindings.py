"""The keymap's declarations (``keymap``) as prompt-toolkit key bindings: one binding per
declared key, filtered by when its declaration applies, so the terminal and the headless
``Controller.key`` run the same table.

A last binding takes every other key (``Keys.Any``): what lies over the screen has its own
keys (a dialog's up/down and Enter, the help's ``?``, any key closing the scoreboard), and
on a bare screen a key that means nothing there clears the last error. The command line's
own keys are the line editor's (``prompt_box``); while it is open the screen's keys wait,
all but Ctrl-C.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from cardparty.client.keymap import TYPED, Binding, KeyMap, canonical

if TYPE_CHECKING:
    from cardparty.client.controller import Controller


def key_name(event: KeyPressEvent) -> str:
    """The name a key press goes by in the client ("enter", "up", "c-u", "?")."""
    key = event.key_sequence[0].key
    return canonical(key.value if isinstance(key, Keys) else key)


def key_bindings(c: Controller, keymap: KeyMap) -> KeyBindings:
    """Every declared key of ``keymap``, then the one that takes the rest."""
    kb = KeyBindings()

    # Added first, so that a declared binding that applies always goes before it (the last
    # added wins among the bindings whose filters hold, and a named key before Keys.Any).
    @kb.add(Keys.Any, filter=Condition(lambda: not c.command_open))
    def _(event: KeyPressEvent) -> None:
        c.key(key_name(event))

    for binding in keymap.bindings:
        for key in binding.keys:
            bind(kb, c, binding, key)
    return kb


def bind(kb: KeyBindings, c: Controller, binding: Binding, key: str) -> None:
    """``key`` runs ``binding`` while it applies; a ``TYPED`` key is any printable
    character (any other key it meets goes on as the last binding's would)."""
    applies = Condition(lambda: binding.applies(c))
    if key == TYPED:
        @kb.add(Keys.Any, filter=applies)
        def typed(event: KeyPressEvent) -> None:
            data = event.data or ""
            if len(data) == 1 and data.isprintable():
                c.press(binding, canonical(data))
            else:
                c.key(key_name(event))
        return

    @kb.add(key, filter=applies, eager=True)
    def named(event: KeyPressEvent) -> None:
        c.press(binding, key)
