"""What a screen of the terminal client is: one class in one module, registered in one line
(``client/screens/__init__.py``).

A screen owns, in its module:

- its **keys**: ``Keys`` declarations (``keymap``: each key with a filter saying when it
  applies, its action and its line of help, ptpython's way), its own and any it adds to
  another screen (the key in the lobby that opens it);
- the **part of the client's state it changes**: its instance's attributes (the lobby's
  cursor, the waiting room's table and chat, the table's model). The controller keeps only
  what every screen shares: the connection, what the host lists, the
  player's profile, and what lies over any screen (a dialog, the help, the command line);
- what each **message** from the link changes on it (``receivers``);
- how the **full screen** draws it (``title``, ``draw``, or for a screen of regions such as
  the table's ``regions``, and the boxes over it, ``boxes``) and how the **line mode** says
  it (``narration``, ``prompt``);
- its **commands** (``command_line.command``), which the command line and the line mode
  take.

The controller, prompt-toolkit's key bindings, the help, the bottom line, the layout, the
line mode and docs/playing.md's key tables all read the registry, so nothing else names a
screen to add one. A screen is shown with ``Controller.show(name)``; ``Controller.get(Class)``
is the instance of a screen (typed), for the few places one screen hands over to another.

The smallest screen draws text and goes back to the lobby on ``q``::

    class Hello(Screen):
        name = "hello"
        heading = N_("hello")
        keys = (back_keys("hello"),)

        def draw(self, r: Renderer) -> Fragments:
            return [("", " " + _("hello") + "\\n")]

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardparty.client.drawing import Fragments, text_lines
from cardparty.client.keymap import Keys
from cardparty.client.link import Message
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer

#: A screen's handler of one kind of message from the link.
Receiver = Callable[[Message], None]


@dataclass(frozen=True)
class Box:
    """A box a screen draws over itself while ``when`` holds (the end of a round, the
    scoreboard): ``draw`` its text, ``least`` and ``most`` its width in columns (it is as
    wide as its longest line between them, never wider than the terminal)."""

    draw: Callable[[], Fragments]
    when: Callable[[], bool]
    least: int = 60
    most: int = 76


class Screen:
    """One screen (see the module docstring). A subclass sets ``name`` (a word, the one
    ``Controller.show`` takes and ``Keys`` declarations name), ``heading`` (a message id:
    the title line says it, the line mode's prompt too) and ``keys``, and draws itself."""

    #: The screen's name: ``Controller.show(name)``, ``Keys(name)``, ``<!-- keys: name -->``.
    name: ClassVar[str]
    #: The screen in a word or two, a message id (the title line, the line mode's prompt).
    heading: ClassVar[str] = ""
    #: Its key declarations: its own and those it adds to other screens.
    keys: ClassVar[tuple[Keys, ...]] = ()
    #: The full screen breaks its long lines at the terminal's width.
    wrap: ClassVar[bool] = False
    #: Pages of the help: 1, the keys; 2, also the game's rules in short (``?`` again).
    help_pages: ClassVar[int] = 1

    def __init__(self, c: Controller) -> None:
        self.c = c

    # --- what the controller asks --------------------------------------------------------

    def receivers(self) -> Mapping[str, Receiver]:
        """What each kind of message from the link changes on this screen, whether it shows
        or not (the controller's own handling goes first; screens in the registry's
        order)."""
        return {}

    def shown(self) -> None:
        """It has just become the screen shown (``Controller.show``)."""

    def covered(self) -> bool:
        """Something of its own lies over it and takes the keys (the table's scoreboard)."""
        return False

    def overlay_key(self, key: str) -> None:
        """A key while ``covered``: what lies over it takes it (any key closes the
        scoreboard)."""

    def chat(self, table: Any, line: str) -> bool:
        """A chat line said at ``table``: shown here (True), or not this screen's."""
        return False

    # --- what the command line asks (``command_line``) ------------------------------------

    def offers(self) -> list[str]:
        """What completion offers here before the commands (the table's listed moves)."""
        return []

    def typed(self, line: str) -> bool:
        """A line of the command line that is this screen's before any command (the table's
        moves): done (True), or not this screen's."""
        return False

    def unknown(self, line: str) -> str:
        """The error for ``line``, which names nothing here."""
        return _("no command {line}: Tab lists what you can type").format(line=repr(line))

    def table_meant(self) -> Any:
        """The table a command typed here is about (None: none)."""
        return None

    def leave(self, table: Any) -> None:
        """The command ``leave``: leave ``table`` (the one ``table_meant`` says)."""
        self.c.request("leave", table=table)

    def to_lobby(self) -> None:
        """The command ``lobby``: back to the lobby (a seat kept where there is one)."""
        self.c.show("lobby")

    # --- the full screen -----------------------------------------------------------------

    def title(self, r: Renderer) -> str:
        """The title line's words (without the leading space)."""
        c = self.c
        return _("cardparty · {screen} · {name} at {host}").format(
            screen=_(self.heading), name=c.name or "?", host=c.host or "?")

    def draw(self, r: Renderer) -> Fragments:
        """The screen's body as styled text (``r``: the drawing kit, at the terminal's
        width)."""
        return []

    def regions(self, r: Renderer) -> Mapping[str, Callable[[], Fragments]] | None:
        """Instead of ``draw``, a screen of regions (``layout``): ``top``, ``hand`` and
        ``actions`` each exactly as high as its lines, ``log(height)`` taking the rest."""
        return None

    def log(self, r: Renderer, height: int) -> Fragments:
        """The region between the others on a screen of ``regions``."""
        return []

    def boxes(self, r: Renderer) -> list[Box]:
        """The boxes it draws over itself, each while it applies."""
        return []

    def over_words(self) -> str | None:
        """A line it adds to the box at the end of a round at the table (an event's
        standing), or None."""
        return None

    def over_keys(self) -> list[tuple[str, str]] | None:
        """The keys the end of a round offers instead of the table's own (an event seats
        its next round itself), or None; the first screen in the registry's order that
        says some is heard."""
        return None

    def ticking(self) -> bool:
        """A countdown runs on it: the full screen redraws four times a second."""
        return False

    # --- the line mode -------------------------------------------------------------------

    def narration(self, n: Narrator) -> Narration:
        """What says this screen in the line mode (one per screen, made once)."""
        return Narration(self, n)

    def prompt(self) -> str:
        """What the line mode's prompt says here."""
        return _(self.heading) + ": "


class Narration:
    """A screen said in the line mode (``line_words``): what it says when it opens, after
    each change while it shows, and when an empty line asks where the player is. By default
    its drawing's lines, each said once, when it first shows or changes (a profile, a
    league's standings), and how to go back."""

    def __init__(self, screen: Screen, n: Narrator) -> None:
        self.screen = screen
        self.n = n
        self.said: list[str] = []

    @property
    def c(self) -> Controller:
        return self.screen.c

    def state(self) -> Any:
        """What, when it changes while the screen shows, makes it said again as if it had
        just opened (the lobby: once the host answers)."""
        return None

    def now(self) -> list[str]:
        """The screen's lines now, as words."""
        return text_lines(self.screen.draw(self.n.r))

    def opened(self) -> list[str]:
        self.said = []
        return self.changed()

    def changed(self) -> list[str]:
        now = self.now()
        out = [line for line in now if line not in self.said]
        if out and not self.said:
            out.append(_("Type lobby to go back."))
        self.said = now
        return out

    def where(self) -> list[str]:
        """Where the player is, said again (an empty line typed)."""
        return self.opened()

    def look(self) -> list[str]:
        """The screen as a whole, asked for (``look``): here, where the player is."""
        return self.where()


def back_keys(*screens: str) -> Keys:
    """``q`` and Esc back to the lobby, on ``screens`` (a screen the lobby opens)."""
    keys = Keys(*screens)

    @keys.add("q", "escape", help=N_("back to the lobby"), footer=N_("q: lobby"))
    def back_to_lobby(c: Controller, key: str) -> None:
        """back to the lobby"""
        c.show("lobby")

    return keys
