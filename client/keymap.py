"""What a key binding of the client is, and the one table of them (ptpython's way: each key is
declared once, with when it applies and what it does).

A binding names the screens it works on, the keys it takes, a filter (``when``: it applies
only while that holds, e.g. "the round is over"), its action, its line in the help (``help``,
translated) and, if it has one, its short form on the bottom line (``footer``). The action's
docstring is what ``docs/playing.md`` says the key does (``keydoc`` writes the doc's tables).
Everything that lists or dispatches keys reads these declarations: ``Controller.key`` (the
headless client and its tests), ``bindings`` (prompt-toolkit's bindings in the terminal), the
help screen, the bottom line and the doc. So a new key is one declaration, next to its action::

    @LOBBY.add("w", help=N_("wave at the lobby"), footer=N_("w: wave"))
    def wave(c: Controller, key: str) -> None:
        \"\"\"wave at everyone in the lobby\"\"\"
        ...

Keys are prompt-toolkit's names ("enter", "s-tab", "c-c", "left") or the character typed
("c", "?", "$"); ``TYPED`` stands for any printable character (the start screen's fields).
Where two bindings take the same key on a screen, the one declared later wins while its
filter holds, as in prompt-toolkit: declare the special case after the general one.

Must not know about: terminals (prompt-toolkit's key names are only names here), game rules,
the wire.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

Action = Callable[["Controller", str], None]
Filter = Callable[["Controller"], bool]

#: Any printable character typed (a field being edited).
TYPED = "<typed>"

#: The other names prompt-toolkit gives the keys this client names once.
ALIASES = {"c-m": "enter", "c-j": "enter", "c-i": "tab", "c-h": "backspace", " ": "space"}

#: How a key reads in the help (translated) and in the doc (as written here); arrows go in
#: pairs ("left" alone is another word of the catalogs: cards left).
KEY_NAMES = {"enter": "Enter", "escape": "Esc", "tab": "Tab", "space": N_("space"),
             "backspace": "Backspace", TYPED: N_("typing")}
PAIRS = {("left", "right"): N_("left right"), ("up", "down"): N_("up down"),
         ("s-left", "s-right"): N_("S-left S-right")}


def canonical(key: str) -> str:
    """The one name this client knows ``key`` by ("c-m" and "c-j" are "enter")."""
    return ALIASES.get(key, key)


def key_name(key: str, say: Callable[[str], str] = _) -> str:
    """``key`` as a player reads it ("s-tab": "S-Tab", "c-c": "Ctrl-C"); ``say`` translates
    the words among them (the doc passes ``str``: English)."""
    if key in KEY_NAMES:
        return say(KEY_NAMES[key])
    if key.startswith("s-"):
        return "S-" + key_name(key[2:], say)
    if key.startswith("c-"):
        return "Ctrl-" + key[2:].upper()
    return key


def key_words(keys: Iterable[str], say: Callable[[str], str] = _,
              pairs: bool = True) -> list[str]:
    """Keys as a player reads them: each by ``key_name``, arrows in pairs ("left right";
    ``pairs`` False: each alone, as the doc writes them), the digits 1 to 9 as "1-9"."""
    keys = list(keys)
    digits = [str(n) for n in range(1, 10)]
    words: list[str] = []
    for k in keys:
        pair = next(((p, w) for p, w in PAIRS.items() if k in p and set(p) <= set(keys)),
                    None) if pairs else None
        if pair is not None:
            if k == pair[0][0]:
                words.append(say(pair[1]))
        elif k in digits and set(digits) <= set(keys):
            if k == "1":
                words.append("1-9")
        else:
            words.append(key_name(k, say))
    return words


def keys_label(keys: Iterable[str]) -> str:
    """Keys as the help lists them, translated: "left right", "Tab S-Tab", "1-9"."""
    return " ".join(key_words(keys))


@dataclass(frozen=True)
class Binding:
    """One declaration (see the module docstring). ``action`` None: a line of the help for
    what the mouse does (``label`` names it; the hand's drawing carries the handlers)."""

    screens: frozenset[str]
    keys: tuple[str, ...]
    action: Action | None
    help: str
    when: Filter | None = None
    footer: str = ""
    #: Also over a dialog, the help and the command line (Ctrl-C).
    always: bool = False
    #: A key on a screen first clears the last error (it was read), except Esc.
    clears_error: bool = True
    label: str = ""
    doc_text: str = ""
    #: The bottom line shows ``footer`` only while this holds too (a key every player has,
    #: listed there for those with few others: a spectator's ``t`` and ``m``).
    footer_when: Filter | None = None

    @property
    def doc(self) -> str:
        """What the doc says the key does: the action's docstring, on one line."""
        text = self.doc_text or inspect.getdoc(self.action) or ""
        return " ".join(text.split())

    def holds(self, c: Controller) -> bool:
        """On this screen, and its filter holds: the help and the bottom line show it."""
        return c.screen in self.screens and (self.when is None or self.when(c))

    def applies(self, c: Controller) -> bool:
        """It holds, and nothing over the screen (a dialog, the help, the scoreboard, the
        command line) takes the keys instead."""
        return self.holds(c) and (self.always or not c.covered())

    @property
    def reach(self) -> int:
        """On how many screens it works: the help lists a screen's own keys first, then those
        it shares with others (a key of every screen but a few last)."""
        return 1 << 16 if isinstance(self.screens, AllBut) else len(self.screens)


class AllBut(frozenset[str]):
    """Every screen but these: the keys every screen shares (``keys_shared``), so a screen
    registered later has them too without naming it there."""

    def __contains__(self, screen: object) -> bool:
        return not super().__contains__(screen)


class Keys:
    """The bindings of one screen, or of several, in the order the help lists them; ``add``
    declares one, as prompt-toolkit's ``KeyBindings.add`` does."""

    def __init__(self, *screens: str, clears_error: bool = True,
                 but: tuple[str, ...] | None = None) -> None:
        """``screens``: where the keys work; ``but``: instead, every screen but these."""
        self.screens: frozenset[str] = frozenset(screens) if but is None else AllBut(but)
        self.clears_error = clears_error
        self.bindings: list[Binding] = []

    def add(self, *keys: str, help: str, when: Filter | None = None,
            footer: str = "", always: bool = False, footer_when: Filter | None = None
            ) -> Callable[[Action], Action]:
        """Declare ``keys`` for the decorated action (see the module docstring)."""
        def declare(action: Action) -> Action:
            self.bindings.append(Binding(self.screens, tuple(canonical(k) for k in keys),
                                         action, help, when, footer, always,
                                         self.clears_error, footer_when=footer_when))
            return action
        return declare

    def mouse(self, label: str, help: str, doc: str) -> None:
        """A line of the help (and a row of the doc) for what the mouse does here."""
        self.bindings.append(Binding(self.screens, (), None, help, label=label, doc_text=doc))


class KeyMap:
    """Groups of bindings merged, in the order given (prompt-toolkit's
    ``merge_key_bindings``): what a key does now, and what the help and the bottom line
    show."""

    def __init__(self, *groups: Keys) -> None:
        self.groups = groups
        self.bindings = [b for g in groups for b in g.bindings]
        self.by_key: dict[str, list[Binding]] = {}
        for b in self.bindings:
            for k in b.keys:
                self.by_key.setdefault(k, []).append(b)

    def find(self, c: Controller, key: str) -> Binding | None:
        """The binding ``key`` runs now: the last declared that applies; for a printable
        character no binding names, a ``TYPED`` one."""
        return self._winner(c, canonical(key), Binding.applies)

    def _winner(self, c: Controller, key: str, test: Callable[[Binding, Controller], bool]
                ) -> Binding | None:
        for b in reversed(self.by_key.get(key, ())):
            if test(b, c):
                return b
        if len(key) == 1 and key.isprintable():
            for b in reversed(self.by_key.get(TYPED, ())):
                if test(b, c):
                    return b
        return None

    def shown(self, c: Controller) -> list[tuple[Binding, tuple[str, ...]]]:
        """The bindings that hold on this screen now, each with the keys it still takes (a
        later binding may take some: the round is over), the screen's own first; one without
        help is shown nowhere (tests/client/test_client_keys.py fails on it)."""
        out = []
        for b in self.bindings:
            if not b.holds(c):
                continue
            live = tuple(k for k in b.keys
                         if k == TYPED or self._winner(c, k, Binding.holds) is b)
            if b.help and (live or b.action is None):
                out.append((b, live))
        return sorted(out, key=lambda pair: pair[0].reach)

    def help_lines(self, c: Controller) -> list[tuple[str, str]]:
        """The help of this screen now: (keys, what they do), translated."""
        return [(_(b.label) if b.action is None else keys_label(live), _(b.help))
                for b, live in self.shown(c)]

    def footer(self, c: Controller) -> list[str]:
        """The bottom line's keys, translated, in the order declared."""
        shown = {id(b) for b, _live in self.shown(c)}
        return [_(b.footer) for b in self.bindings if b.footer and id(b) in shown
                and (b.footer_when is None or b.footer_when(c))]

    def on_screen(self, screen: str) -> list[Binding]:
        """Every binding of ``screen``, its own first, whatever the filters say (the doc)."""
        return sorted((b for b in self.bindings if screen in b.screens), key=lambda b: b.reach)
