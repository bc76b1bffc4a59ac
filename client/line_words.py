"""The line mode's words: what the client's state says, as plain lines, each said once, when it
changes (``Narrator.lines``), and what a player asks for (``look``, ``hand``, ``moves``...).

The line mode (``cardparty play --line``, ``join --line``) is for players who read the game
with a screen reader or a braille display, for whom a full-screen program is nearly mute.
lichess's blind mode is the model: what happens is announced as it happens, in sentences; the
state is asked for with short words rather than read off a board; moves are typed. So here:
each event of the table's log is a line as it comes, with the chat; when it becomes the
player's turn, one line says so, then his hand, the table's public state and his moves,
numbered (typed by number, label or kind and cards); the end of a round says the places and
what each command does to the seat; the lobby says its tables when it opens and then only
what changes; the waiting room its seats; a dialog its choices, numbered. Nothing is drawn:
no box, no column of spaces, no colour, no cursor; and nothing is said twice unless asked.

It reads the same controller the full screen draws (``controller``), and draws its longer
texts (the profile, the league, the shop, the end of a round, the scoreboard) with the
full screen's own functions (``render``), read as lines.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import Any, TypeVar

from cardparty.client.command_line import COMMANDS
from cardparty.client.controller import Controller
from cardparty.client.dialog import Choice, CreateForm, TextField
from cardparty.client.drawing import plain, text_lines
from cardparty.client.render import Renderer
from cardparty.client.screen import Narration
from cardparty.client.screens.table import TableScreen
from cardparty.client.theme import glyphs, label_of, to_ascii
from cardparty.core.i18n import N_, _

__all__ = ["QUERIES", "QUERIES_WHERE", "Narrator", "plain", "text_lines"]

N = TypeVar("N", bound=Narration)

#: Where each of ``QUERIES`` is of use (none: everywhere).
QUERIES_WHERE = {"hand": ("table",), "moves": ("table",), "log": ("table",),
                 "tables": ("lobby",), "room": ("room",), "rules": ("table",)}

#: The words the line mode answers itself (``line_typed``), each with what it says: the
#: state is asked for, never drawn.
QUERIES: dict[str, str] = {
    "look": N_("the table: every player, the cards in view, the counters, whose turn"),
    "hand": N_("your hand"),
    "moves": N_("your moves, numbered: type the number, or the move"),
    "log": N_("the last lines of the table's log (log 20: the last 20)"),
    "tables": N_("the lobby's tables"),
    "room": N_("the waiting room: its seats, settings, who is ready"),
    "rules": N_("the rules of this game in short"),
    "keys": N_("what the full screen's keys do here (each has its command)"),
}


class Narrator:
    """Says what changed in ``c`` since it last said anything (``lines``), and answers the
    queries (``look``...). ``ascii_only``: cards and symbols in ASCII (``10h``). Each screen
    says itself (``Screen.narration``: one ``Narration`` per screen, made here once); the
    narrator says what lies over any screen (the banner, the chat, the help, a dialog, the
    last error and notice)."""

    def __init__(self, c: Controller, ascii_only: bool = False) -> None:
        self.c = c
        self.ascii = ascii_only
        # A wide screen: the full screen's texts come as whole sentences, never wrapped.
        self.r = Renderer(c, glyphs(ascii_only), ascii_only, width=lambda: 400,
                          height=lambda: 400)
        self.screen = ""
        self.state: Any = None
        self.banner = ""
        self.error = ""
        self.notice = ""
        self.lobby_total = c.lobby_chat.total
        self.dialog: Any = None
        #: The first welcome was said ("connected"); the next ones are a return.
        self.joined = c.welcomed
        #: Each screen's words, by its name.
        self.narrations: dict[str, Narration] = {
            name: screen.narration(self) for name, screen in c.screens.items()}

    def narration(self, kind: type[N]) -> N:
        """The one narration of class ``kind`` (a screen's words another screen reuses)."""
        found = next(n for n in self.narrations.values() if isinstance(n, kind))
        return found

    @property
    def shown(self) -> Narration:
        """The narration of the screen shown."""
        return self.narrations[self.c.screen]

    # --- what changed ----------------------------------------------------------------------

    def lines(self) -> list[str]:
        """Every line that the state's changes since the last call say, in order."""
        c = self.c
        out: list[str] = []
        if c.banner != self.banner:
            self.banner = c.banner
            if c.banner:                          # no Esc here: its word is typed
                out.append(c.banner.replace(_("(Esc: back to the start screen)"),
                                            _("(cancel: back to the start screen)")))
            elif c.welcomed and not self.joined:
                self.joined = True
                out.append(_("connected to {host}").format(host=c.host))
            elif c.welcomed:
                out.append(_("the host answers again"))
        narration = self.shown
        if c.screen != self.screen or narration.state() != self.state:
            self.screen = c.screen
            self.state = narration.state()
            out += narration.opened()
        out += self.said_since()
        out += narration.changed()
        out += self.overlays()
        if c.error != self.error:
            self.error = c.error
            if c.error:
                out.append(c.error)
        if c.notice != self.notice:
            self.notice = c.notice
            if c.notice:
                out.append(c.notice)
        return [self.spelled(line) for line in out]

    def spelled(self, line: str) -> str:
        return to_ascii(line) if self.ascii else line

    def said_since(self) -> list[str]:
        """The lines of the lobby's chat said since the last call."""
        c = self.c
        out: list[str] = []
        if c.lobby_chat.total != self.lobby_total:
            out += c.lobby_chat.since(self.lobby_total)
            self.lobby_total = c.lobby_chat.total
        return out

    def overlays(self) -> list[str]:
        """The help, the scoreboard and a dialog, said as lines (nothing is drawn over the
        lines: the help and the scoreboard are said and closed)."""
        c = self.c
        out: list[str] = []
        if c.help:
            out += self.rules() if c.help == 2 else self.help()
            c.help = 0
        table = c.get(TableScreen)
        if table.scoreboard:
            out += text_lines(self.r.scoreboard())[:-1]    # "any key closes" is not so here
            table.scoreboard = False
        if c.dialog is not self.dialog:
            self.dialog = c.dialog
            out += self.dialog_opened()
        return out

    # --- asked for --------------------------------------------------------------------------

    def where(self) -> list[str]:
        """Where the player is, said again (an empty line typed)."""
        return self.shown.where()

    def look(self) -> list[str]:
        """The screen as a whole, asked for (the table: every player, the cards in view)."""
        return self.shown.look()

    def rules(self) -> list[str]:
        c = self.c
        if c.screen != "table":
            return [_("the rules in short are told at a table")]
        lines = text_lines(self.r.help_rules())
        return [lines[0], " ".join(lines[1:])]      # the rules as one paragraph, unbroken

    def help(self) -> list[str]:
        """What may be typed here: the commands (each with what it does) and the queries,
        in the player's language."""
        c = self.c
        out = [_("Type a move (at the table: its number, its words as listed, or its kind "
                 "and cards: play 7h), or one of these:")]
        out += [f"{word}: {_(what)}" for word, what in QUERIES.items()
                if c.screen in QUERIES_WHERE.get(word, (c.screen,))]
        out += [f"{cmd.words[0]}: {_(cmd.help)}" for cmd in COMMANDS if cmd.of_use(c.screen)]
        if c.screen == "table":
            out.append(_("Tab completes what you type; an empty line says again where you "
                         "are."))
        return out

    def keys(self) -> list[str]:
        """The full screen's keys here, for a player who knows them (each is a command)."""
        return [f"{keys}: {what}" for keys, what in self.c.keys.help_lines(self.c)]

    # --- dialogs -----------------------------------------------------------------------------

    def dialog_opened(self) -> list[str]:
        d = self.c.dialog
        if isinstance(d, Choice):
            out = [d.title]
            for i, (label, value) in enumerate(d.options, 1):
                cards = value.get("cards") if isinstance(value, dict) else None
                shown = label_of({"kind": "", "label": label, "cards": list(cards or ())},
                                 self.ascii)
                out.append(f"{i}. {shown}")
            out.append(_("Type the number of your choice; cancel: none."))
            return out
        if isinstance(d, TextField):
            return [plain(d.prompt) + " " + _("(an empty line: nothing)")]
        if isinstance(d, CreateForm):
            return [_("{form}: each field in turn; Enter keeps its value, a value changes "
                      "it, done makes the table now, cancel gives up.").format(
                form=_(self.r.form_title(d)))]
        return []
