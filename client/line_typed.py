"""The line mode's typed lines: what a line does, and the prompt that asks for it.

A line is, in this order: an answer to what is open (a dialog's choice by its number, a text
field's text, the create form's field after field), the start screen's name then address, a
question (``look``, ``hand``, ``moves``, ``log``, ``tables``, ``room``, ``rules``, ``keys``:
``line_words`` answers), at the table the number of a listed move, and otherwise what the
full screen's command line takes: a move by its label or its kind and cards, or a command
(``command_line``). An empty line says again where the player is and what he may do.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import Any

from cardparty.client.command_line import normal
from cardparty.client.controller import Controller
from cardparty.client.dialog import Choice, CreateForm, Row, TextField
from cardparty.client.line_words import QUERIES, Narrator, plain
from cardparty.client.screens.lobby import LobbyNarration
from cardparty.client.screens.room import RoomNarration
from cardparty.client.screens.start import StartScreen, give_up, join
from cardparty.client.screens.table import TableNarration, play_moves
from cardparty.core.i18n import _, translate

#: Words that close what is open without choosing.
CANCEL = frozenset({"cancel", "esc", "no"})


class LineInput:
    """See the module docstring."""

    def __init__(self, c: Controller, narrator: Narrator) -> None:
        self.c = c
        self.n = narrator

    # --- the prompt -------------------------------------------------------------------------

    def prompt(self) -> str:
        """What the line typed next answers (said before the cursor)."""
        c = self.c
        d = c.dialog
        if isinstance(d, CreateForm):
            return self.question(d)
        if isinstance(d, Choice):
            return _("choose 1 to {n}: ").format(n=len(d.options))
        if isinstance(d, TextField):
            return plain(d.prompt) + " "
        return c.current.prompt()

    # --- a line --------------------------------------------------------------------------------

    def typed(self, line: str) -> list[str]:
        """Do ``line``; the lines that answer it at once (what it changes, the narrator
        says after)."""
        c = self.c
        text = " ".join(line.split())
        d = c.dialog
        if isinstance(d, CreateForm):
            return self.form_answer(d, text)
        if isinstance(d, Choice):
            return self.choose(d, text)
        if isinstance(d, TextField):
            d.text = line.strip()[:d.limit]
            c.overlay_key("enter")
            return []
        if c.screen == "start":
            return self.start(text)
        if text[:1] in (":", "/"):                 # the full screen's habit: the same here
            text = text[1:].strip()
        if not text:
            return self.n.where()
        word, _sep, rest = text.partition(" ")
        query = word.lower()
        if query in QUERIES:
            return self.query(query, rest)
        if c.screen == "table" and text.isdigit():
            return self.nth_move(int(text))
        if query == "cancel" and c.screen == "lobby" and not c.welcomed and c.connect:
            give_up(c)
            return []
        c.command(text)
        return []

    def query(self, word: str, rest: str) -> list[str]:
        n = self.n
        c = self.c
        if word == "look":
            return n.look()
        if word in ("hand", "moves", "log") and c.screen != "table":
            return [_("{command}: at a table").format(command=word)]
        table = n.narration(TableNarration)
        if word == "hand":
            return [table.hand()]
        if word == "moves":
            return table.moves()
        if word == "log":
            return table.log_lines(int(rest) if rest.isdigit() else 10)
        if word == "tables":
            return n.narration(LobbyNarration).tables()
        if word == "room":
            return n.narration(RoomNarration).now() if c.screen == "room" else [
                _("{command}: in a waiting room").format(command=word)]
        if word == "rules":
            return n.rules()
        return n.keys()

    def nth_move(self, number: int) -> list[str]:
        moves = self.c.table.moves
        if not 1 <= number <= len(moves):
            return [_("no move {number}: you have {n} (moves lists them)").format(
                number=number, n=len(moves))]
        play_moves(self.c, str(number), [moves[number - 1]])
        return []

    # --- the start screen -------------------------------------------------------------------

    def start(self, text: str) -> list[str]:
        """The name (an empty line keeps the one offered), then the address or the number of
        a host found."""
        c = self.c
        f = c.get(StartScreen).form
        if f.row == 0:
            if text:
                f.name = text
            if not f.name:
                return [_("type your name first")]
            f.row = 1
            return []
        if not text:
            return [_("type the host's address (for example 192.168.1.20:5555)")]
        if text.isdigit() and 1 <= int(text) <= len(f.hosts):
            f.address = f.hosts[int(text) - 1][1]
        else:
            f.address = text
        join(c, f.name.strip(), f.address.strip())
        return []

    # --- dialogs --------------------------------------------------------------------------------

    def choose(self, d: Choice, text: str) -> list[str]:
        c = self.c
        if not text or text.lower() in CANCEL:
            c.dialog = None
            return [_("nothing chosen")]
        picked: Any = None
        if text.isdigit() and 1 <= int(text) <= len(d.options):
            picked = d.options[int(text) - 1]
        else:
            want = normal(text)
            found = [o for o in d.options if normal(translate(o[0])).startswith(want)]
            picked = found[0] if len(found) == 1 else None
        if picked is None:
            return [_("type a number from 1 to {n}, or cancel").format(n=len(d.options))]
        c.dialog = None
        d.on_pick(picked[1])
        return []

    def question(self, f: CreateForm) -> str:
        """The form's field under its cursor as a question: its label, its value, and what
        it takes."""
        row = f.rows[f.cursor]
        if row.kind == "action":
            return _("{button}: Enter makes it, cancel gives up: ").format(
                button=translate(row.label).strip("[] "))
        takes = ""
        if row.kind == "bool":
            takes = _("yes or no")
        elif row.kind == "choice":
            takes = ", ".join(self.shown(v) for v in row.choices)
        elif row.min is not None and row.max is not None:
            takes = _("{low} to {high}").format(low=f"{row.min:g}", high=f"{row.max:g}")
        return _("{field} ({value}; {takes}): ").format(
            field=translate(row.label), value=self.shown(row.value), takes=takes)

    @staticmethod
    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return translate(value) if isinstance(value, str) else str(value)

    def form_answer(self, f: CreateForm, text: str) -> list[str]:
        c = self.c
        word = text.lower()
        if word in ("cancel", "esc"):
            c.dialog = None
            return [_("nothing created")]
        row = f.rows[f.cursor]
        if word in ("done", "create") or (row.kind == "action" and not text):
            f.cursor = len(f.rows) - 1
            c.overlay_key("enter")                # the form's own Enter on its button
            return []
        if word == "back":
            f.cursor = max(0, f.cursor - 1)
            return []
        if text and row.kind != "action":
            problem = self.set_value(f, row, text)
            if problem:
                return [problem]
        f.cursor = min(f.cursor + 1, len(f.rows) - 1)
        row = f.rows[f.cursor]
        if row.help:                               # what the next field means, before it
            return [translate(row.help)]
        return []

    def set_value(self, f: CreateForm, row: Row, text: str) -> str | None:
        """Set ``row`` to what ``text`` names, through the form's own steps (a game chosen
        rebuilds the form); the line that says why not, or None."""
        want = normal(text)
        index = f.cursor
        if row.kind == "bool":
            yes = {normal(_("yes")), "yes", "y", "on", "true", "1"}
            no = {normal(_("no")), "no", "n", "off", "false", "0"}
            if want not in yes | no:
                return _("{field}: yes or no").format(field=translate(row.label))
            if (want in yes) != bool(row.value):
                f.key("space")
            return None
        if row.kind == "choice":
            found = [v for v in row.choices if normal(self.shown(v)) == want
                     or normal(str(v)) == want]
            found = found or [v for v in row.choices if normal(self.shown(v)).startswith(want)]
            if len(found) != 1:
                return _("{field}: one of {choices}").format(
                    field=translate(row.label),
                    choices=", ".join(self.shown(v) for v in row.choices))
            for _step in range(len(row.choices)):
                current = f.rows[index]
                if current.value == found[0]:
                    break
                f.cursor = index
                f.key("right")
            return None
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            number = float("nan")
        low = row.min if row.min is not None else number
        high = row.max if row.max is not None else number
        if not low <= number <= high:
            return _("{field}: from {low} to {high}").format(
                field=translate(row.label), low=f"{low:g}", high=f"{high:g}")
        row.value = int(number) if row.kind == "int" else round(number, 2)
        if row.key == "players":
            f.fit_seats()                          # the seats that fit (the dealer's) follow
        return None
