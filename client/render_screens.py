"""What the renderer draws besides the table's regions and the screens' own drawings: the
end of a round, the dialogs and the create form, the help; the parts the lobby and the room
draw with (a table's row, its seats, the newest chat lines); and what every drawing shares
(``asciified``). A mixin of ``render.Renderer``.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prompt_toolkit.utils import get_cwidth

from cardparty.client.at_table import plays_again
from cardparty.client.dialog import Choice, CreateForm, SeekForm, TextField
from cardparty.client.drawing import Fragments, cells
from cardparty.client.economy_words import reward_text
from cardparty.client.lobby_rows import game_of, invites_me, seats_of
from cardparty.client.scoreboard import grid, match_of
from cardparty.client.theme import Glyphs, pretty_text, to_ascii
from cardparty.client.words import summary_words, variants_text
from cardparty.core.i18n import N_, _, from_wire, ngettext, translate
from cardparty.core.narrate import with_names

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.link import LobbyRow
    from cardparty.client.table_model import Said
    from cardparty.net.wire.replies import GameWire, TableSummary

def mode_text(t: LobbyRow) -> str:
    """A lobby row's mode, with the stake of an entry table; a friends table whose creator
    turned hints on says so (a practice table always gives them)."""
    mode = translate(str(t.get("mode") or ""))
    if t.get("hints") and t.get("mode") == "friends":
        mode = _("{mode}+hint").format(mode=mode)
    if t.get("stake"):
        mode = _("entry {stake}").format(stake=t["stake"])
    if t.get("seeking") and t.get("status") == "open":   # open play, still seating
        mode = _("seek {stake}").format(stake=t["stake"]) if t.get("stake") else _("seek")
    return mode[:12]


def status_text(t: LobbyRow) -> str:
    """A lobby row's status, with the seconds before bots (or a cancel) at a table waiting
    for players ("open 28s"): in the status column, where they fit beside any stake."""
    status = translate(str(t.get("status", "")))
    fill = t.get("fill_in")
    seats = seats_of(t)
    if t.get("status") == "open" and seats and all(
            isinstance(s, dict) and s.get("kind") != "empty" for s in seats):
        # Every seat taken: nobody else may sit, the game waits for its players' ready.
        ready = sum(1 for s in seats if s.get("kind") == "bot" or s.get("ready"))
        status = _("ready {n}/{count}").format(n=ready, count=len(seats))
    elif t.get("status") == "open" and isinstance(fill, int | float):
        status = f"{status[:7]} {fill:.0f}s"
    return status[:12]


#: The words of a lobby row the host sends as codes: a table's mode and its status.
TABLE_WORDS = (N_("open"), N_("friends"), N_("practice"), N_("entry"), N_("playing"),
               N_("over"), N_("broken"), N_("cancelled"))


#: The lobby's columns but the seats', and what separates them: the seats take the rest of
#: the width, up to ``SEATS_MOST`` and down to ``SEATS_LEAST`` (every column stays on a
#: line of 60: the status is never the one cut).
FIXED_COLUMNS = 1 + 6 + 1 + 9 + 1 + 1 + 12 + 1 + 12
SEATS_MOST, SEATS_LEAST = 33, 10


def seats_width(width: int) -> int:
    """How wide the lobby's seats column is at a terminal ``width`` columns wide."""
    return max(SEATS_LEAST, min(SEATS_MOST, width - 1 - FIXED_COLUMNS))


def table_heading(seats_cells: int = SEATS_MOST) -> str:
    """The columns of the lobby's list of tables (and of the waiting room's row)."""
    table, game, seats, mode, status = (_("Table"), _("Game"), _("Seats"), _("Mode"),
                                        _("Status"))
    return (f" {cells(table, 6)} {cells(game, 9)} {cells(seats, seats_cells)} "
            f"{cells(mode, 12)} {cells(status, 12)}").rstrip()


def settings_text(values: dict[str, object], game: GameWire | None) -> str:
    """A table's settings as the waiting room lists them: each by the name its game gives it,
    in the player's language; yes and no for a switch."""
    declared = (game.get("settings") if game is not None else None) or {}
    out = []
    for name, value in values.items():
        if name == "deck":
            continue
        setting = declared.get(name)
        label = (setting.get("label") if setting is not None else None) or name.replace("_", " ")
        shown = (_("yes") if value else _("no")) if isinstance(value, bool) else value
        if name == "dealer" and value == -1:   # the games' word for a dealer drawn by lot
            shown = _("drawn at random")
        elif name == "dealer" and isinstance(value, int) and value >= 0:
            shown = _("seat {n}").format(n=value + 1)
        out.append(f"{translate(str(label))} {shown}")
    return ", ".join(out)


def asciified(method: Callable[..., Fragments]) -> Callable[..., Fragments]:
    """In ``--ascii`` mode every text a region draws (host messages, narration, names) is
    spelled in ASCII."""

    def draw(self: Any, *args: Any) -> Fragments:
        out = method(self, *args)
        if not self.ascii:
            return out
        return [(f[0], to_ascii(f[1]), *f[2:]) for f in out]

    draw.__name__ = method.__name__
    draw.__doc__ = method.__doc__
    return draw



class ScreenParts:
    """See the module docstring; ``render.Renderer`` sets what it draws with."""

    c: Controller
    g: Glyphs
    ascii: bool
    width: Callable[[], int]
    height: Callable[[], int]

    def asciify(self, out: Fragments) -> Fragments:
        """``out`` spelled in ASCII in ``--ascii`` mode (as ``asciified`` does)."""
        if not self.ascii:
            return out
        return [(f[0], to_ascii(f[1]), *f[2:]) for f in out]

    def wrapped(self, style: str, text: str, first: str = " ") -> Fragments:
        """``text`` on as many lines of the screen's width as it needs, broken between
        words only (a refusal's advice is read whole, at any width)."""
        width = max(10, self.width() - 1)
        lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=" ",
                              break_on_hyphens=False, break_long_words=True) or [first]
        return [(style, "\n".join(lines))]

    def game_name(self, game_id: str) -> str:
        for g in self.c.games:
            if g.get("id") == game_id:
                return translate(str(g.get("name") or game_id))
        return game_id

    @asciified
    def over(self) -> Fragments:
        tm = self.c.table
        result = tm.view.get("result") or {}
        names = tm.names
        places = result.get("places") or [p.get("place") for p in tm.players]
        scores = result.get("scores")
        out: Fragments = [("class:heading", _("Round over")), ("", "\n\n")]
        order = sorted(range(len(names)), key=lambda s: (places[s] or 99, s))
        match = match_of(self.c.match_summary(), names, tm.view)
        if len(match.rounds) > 1:
            # A match: this round's places lead each line, the rounds and totals follow.
            lines = grid(match, self.box_width(76) - 2, order, places)
            out.append(("class:dim", f" {lines[0]}\n"))
            out += [("class:dim", f"{line}\n") for line in lines[1:-len(order)]]
            for s, line in zip(order, lines[-len(order):], strict=True):
                out.append(("class:me" if s == tm.seat else "", line + "\n"))
        else:
            for s in order:
                style = "class:me" if s == tm.seat else ""
                line = f" {places[s] or '-'}. {names[s]:<18}"
                if scores is not None and s < len(scores):
                    line += " " + _("score {n}").format(n=scores[s])
                out.append((style, line + "\n"))
        if result.get("summary"):
            summary = with_names(summary_words(from_wire(result.get("summary_msg")),
                                               str(result["summary"]), names), names)
            out.append(("class:dim", f"\n {summary}\n"))
        for screen in self.c.screens.values():
            standing = screen.over_words()
            if standing is None:
                continue
            wrapped = textwrap.fill(standing, 56, initial_indent=" ", subsequent_indent=" ")
            out.append(("class:notice", f"\n{wrapped}\n"))
        reward = self.c.rewards.get(self.c.table_id)
        if reward is not None and tm.seat is not None:
            wrapped = textwrap.fill(reward_text(reward), 56, initial_indent=" ",
                                    subsequent_indent=" ")
            out.append(("class:notice", f"\n{wrapped}\n"))
        out.append(("", "\n"))
        for key, what in self.over_keys():
            out += [("", " "), ("class:key", key), ("", f" {what}\n")]
        out[-1] = ("", out[-1][1].rstrip("\n"))
        return out

    def over_keys(self) -> list[tuple[str, str]]:
        """What the end of a round offers, a key a line: each says what it does to the seat
        (back to the lobby keeps it for the next round; leaving gives it to a bot). The
        replay (``r``) and, for a seat, the review (``v``) come before leaving, whoever
        offers the rest (an event's screen its own)."""
        c = self.c
        replay = ("r", _("replay the round, every hand shown"))
        if c.table.seat is None:               # a spectator plays no next round
            return [("m", _("the match")), replay, ("l", _("stop watching"))]
        records = [replay, ("v", _("review your moves"))]
        for screen in c.screens.values():       # an event seats its next round itself
            keys = screen.over_keys()
            if keys is not None:
                at = next((i for i, (key, _what) in enumerate(keys) if key == "l"), len(keys))
                return [*keys[:at], *records, *keys[at:]]
        if not plays_again(c):                 # an entry table plays one round
            return [("m", _("the match")), *records,
                    ("l", _("back to the lobby: this table plays no other round (an entry "
                            "table plays one)"))]
        return [("n", _("play again")), ("m", _("the match")), *records,
                ("l", _("back to the lobby, keeping your seat for the next round")),
                ("x", _("leave the table: a bot takes your seat in the next round"))]

    def box_width(self, most: int) -> int:
        """The inside of a box at most ``most`` wide on this terminal (``app.fit_width``)."""
        return max(10, min(most, self.width() - 2))

    @asciified
    def scoreboard(self) -> Fragments:
        """The match at this table (key m): per round each player's place and score, and
        the totals; players by seat."""
        tm = self.c.table
        summary = self.c.match_summary()
        match = match_of(summary, tm.names, tm.view)
        now = (summary.get("round") if summary is not None else None) or 1
        out: Fragments = [("class:heading", _("The match at table {table}, round {n}").format(
            table=self.c.table_id, n=now)), ("", "\n\n")]
        if not match.rounds:
            out.append(("class:dim", " " + _("No round is over yet: each round shows here "
                                             "when it ends.") + "\n"))
        else:
            lines = grid(match, self.box_width(76) - 2)
            out.append(("", f" {lines[0]}\n"))
            out += [("class:dim", f"{line}\n") for line in lines[1:-len(match.names)]]
            for s, line in enumerate(lines[-len(match.names):]):
                out.append(("class:me" if s == tm.seat else "", line + "\n"))
        out.append(("class:dim", "\n " + _("any key closes the scoreboard")))
        return out

    # --- overlays -----------------------------------------------------------------------------

    @asciified
    def dialog(self) -> Fragments:
        d = self.c.dialog
        if isinstance(d, Choice):
            out: Fragments = [("class:heading", d.title), ("", "\n")]
            shown = 12
            first = max(0, min(d.cursor - shown // 2, len(d.options) - shown))
            if first:
                out.append(("class:dim", f"   {self.g.more} "
                            + _("{n} more above").format(n=first) + "\n"))
            for i, (label, value) in enumerate(d.options[first:first + shown], first):
                style = "class:dialog.cursor" if i == d.cursor else ""
                num = f"{i + 1}" if i < 9 else " "
                if isinstance(value, dict):
                    label = pretty_text(label, value.get("cards"), self.ascii)
                out.append((style, f" {num} {label} \n"))
            below = len(d.options) - first - shown
            if below > 0:
                out.append(("class:dim", f"   {self.g.more} "
                            + _("{n} more below").format(n=below) + "\n"))
            out.append(("class:dim", " " + _("up/down, Enter; Esc: cancel")))
            return out
        if isinstance(d, TextField):
            return [("", d.prompt), ("class:turn", d.text), ("class:cursor", " ")]
        if isinstance(d, CreateForm):
            return self.create_form(d)
        return []

    @staticmethod
    def form_title(f: CreateForm) -> str:
        """The form's title, a message id (translated where it is shown)."""
        return N_("Open play: seek a table") if isinstance(f, SeekForm) else N_("Create a table")

    def create_form(self, f: CreateForm) -> Fragments:
        out: Fragments = [("class:heading", _(self.form_title(f))), ("", "\n")]
        for i, row in enumerate(f.rows):
            style = "class:dialog.cursor" if i == f.cursor else ""
            if row.kind == "action":
                out.append((style, f" {translate(row.label)} \n"))
                continue
            value = (_("yes") if row.value else _("no")) if row.kind == "bool" else (
                translate(row.value) if isinstance(row.value, str) else row.value)
            bounds = ""
            if row.kind in ("int", "float") and row.min is not None and row.max is not None:
                bounds = " " + _("({low} to {high})").format(low=f"{row.min:g}",
                                                              high=f"{row.max:g}")
            label = translate(row.label)
            label = label if len(label) <= 24 else label[:23] + self.g.more[:1]
            out.append((style, f" {label:<24} < {value} >{bounds} \n"))
        row = f.rows[f.cursor]
        if row.help:                 # whole, wrapped between words inside the box
            for part in textwrap.wrap(translate(row.help), 68)[:3]:
                out.append(("class:dim", f" {part}\n"))
        button = translate(f.rows[-1].label).strip("[] ")
        out.append(("class:dim", " " + _("up/down: field · left/right: change · Enter on "
                                         "{button}").format(button=button)))
        return out

    @asciified
    def help(self) -> Fragments:
        """Page 1: the keys; page 2 (``?`` again at a table): the game's rules in short."""
        c = self.c
        if c.help == 2:
            return [*self.help_rules(), ("class:dim", "\n" + _("any key closes this help"))]
        out: Fragments = [("class:heading", _("Keys")), ("", "\n")]
        lines = c.keys.help_lines(c)
        column = min(13, max((len(keys) for keys, _what in lines), default=1))
        indent = " " * (column + 2)
        for keys, what in lines:
            # Wrapped between words inside the box, under the column of what keys do; keys
            # wider than the column have a line of their own, so that every row's words
            # start in the column (`< > , . S-left S-right` pushed its own aside).
            head = f" {keys:<{column}} "
            body = textwrap.wrap(what, max(10, self.box_width(76) - len(indent))) or [""]
            if len(head) > len(indent):
                out.append(("class:key", head.rstrip() + "\n"))
                body[0] = indent + body[0]
            else:
                out.append(("class:key", head))
            out.append(("", "\n".join([body[0], *(indent + line for line in body[1:])]) + "\n"))
        more = _("? again: the rules of this game; ") if c.screen == "table" else ""
        closing = textwrap.wrap(more + _("any other key closes this help"),
                                self.box_width(76) - 1)
        out.append(("class:dim", "\n".join(" " + line for line in closing)))
        return out

    def help_rules(self) -> Fragments:
        """The game's rules in short, as the host describes them, and the table's house
        rules (the help's second page; the line mode's ``rules``)."""
        c = self.c
        game = str(c.table.view.get("game", ""))
        summary = next((g.get("summary") for g in c.games if g.get("id") == game), "")
        text = " ".join(translate(summary or N_("The host sent no summary of this game."))
                        .split())
        house = variants_text(c.table.view.get("variants") or (), game_of(c, game))
        if house:
            text += " " + _("House rules at this table: {variants}.").format(variants=house)
        text = textwrap.fill(text, width=min(74, max(20, self.width() - 6)))
        return [("class:heading",
                 _("{game}: the rules in short").format(game=self.game_name(game))),
                ("", f"\n{text}\n")]

    # --- the other screens ----------------------------------------------------------------------

    def newest_lines(self, said: Any, rows: int) -> list[str]:
        """The newest of ``said`` that fit in ``rows`` screen lines, oldest first, each
        wrapped to the screen's width."""
        width = max(20, self.width() - 2)
        out: list[str] = []
        for line in reversed(list(said)):
            wrapped = textwrap.wrap(line, width, initial_indent=" ", subsequent_indent="   ",
                                    break_on_hyphens=False) or [" "]
            if len(out) + len(wrapped) > rows:
                break
            out[:0] = wrapped
        return out

    def lines_in(self, fragments: Fragments) -> int:
        """How many screen lines ``fragments`` take at the screen's width."""
        width = max(1, self.width())
        return sum(max(1, -(-sum(get_cwidth(ch) for ch in line) // width))
                   for line in "".join(f[1] for f in fragments).split("\n")[:-1])

    def table_row(self, t: LobbyRow, status: str | None = None) -> str:
        """A table's line in the lobby's columns (``table_heading``), each as wide on the
        screen as its heading whatever the names hold."""
        seats = ", ".join(str(s) if s else _("(free)") for s in t.get("seats") or [])
        return (f" {cells(str(t.get('id', '?')), 6)} "
                f"{cells(self.game_name(str(t.get('game', '?'))), 9)} "
                f"{cells(seats, seats_width(self.width()), self.g.more[:1])} "
                f"{cells(mode_text(t), 12)} {cells(status or status_text(t), 12)}")

    def row_words(self, t: LobbyRow) -> str:
        """A table of the lobby in one sentence (the line mode): its id, game, seats, mode
        and status."""
        seats = ", ".join(str(s) if s else _("(free)") for s in t.get("seats") or ())
        status = _("invited") if invites_me(self.c, t) else status_text(t)
        return _("{table}: {game}, {seats}; {mode}; {status}").format(
            table=t.get("id"), game=self.game_name(str(t.get("game", "?"))), seats=seats,
            mode=mode_text(t), status=status)

    def room_row(self, t: LobbyRow) -> Fragments:
        """The table as the lobby lists it, under the lobby's heading."""
        return [("class:heading", table_heading(seats_width(self.width()))), ("", "\n"),
                ("class:dialog.cursor", self.table_row(t) + "\n"), ("", "\n")]

    def room_seats(self, seats: Any) -> tuple[Fragments, int]:
        """One line per seat (who sits, ready or not, away), and how many are still to come
        or to be ready."""
        out: Fragments = [("class:heading", " " + _("Seats") + "\n")]
        me = self.c.name.casefold()
        waiting = 0
        for i, s in enumerate(seats):
            kind, name = s.get("kind"), str(s.get("name") or "")
            if kind == "empty" or not name:
                out.append(("class:dim", f"  {i + 1}. " + _("(free)") + "\n"))
                waiting += 1
                continue
            mine = kind == "human" and name.casefold() == me
            ready = kind == "bot" or bool(s.get("ready"))
            if kind == "bot":
                state = (_("bot ({level}), ready").format(level=_(str(s["level"])))
                         if s.get("level") else _("bot, ready"))
            else:
                state = _("ready") if s.get("ready") else _("not ready")
                waiting += 0 if s.get("ready") else 1
                if s.get("connected") is False:
                    state = _("{state}, away").format(state=state)
            you = " " + _("(you)") if mine else ""
            out.append(("class:me" if mine else "", f"  {i + 1}. {cells(name, 24)}{you:<7}"))
            out.append(("class:notice" if ready else "class:warn", f"{state}\n"))
        return out, waiting

    def room_rules(self, t: LobbyRow, summary: TableSummary) -> Fragments:
        """The table's settings and variants in its game's words, and its bots' settings,
        each broken between words at the screen's width."""
        game = game_of(self.c, t.get("game"))
        out: Fragments = [("", "\n"),
                          *self.labelled(_("Settings:"), settings_text(
                              summary.get("settings") or {}, game) or _("the game's defaults")),
                          *self.labelled(_("Variants:"), variants_text(
                              summary.get("variants") or (), game) or _("none"))]
        if summary.get("bot_budget_ms") is not None:
            out += self.labelled(_("Bots:"), _(
                "hard bots think {ms} ms a move; idle stand-in: {level}").format(
                ms=summary["bot_budget_ms"], level=_(str(summary.get("standin_level", "normal")))))
        out.append(("", "\n"))
        return out

    def labelled(self, label: str, value: str) -> Fragments:
        """`` label value`` on as many lines as it needs, the label dim, then a new line."""
        body = "".join(f[1] for f in self.wrapped("", f"{label} {value}", " "))
        head = f" {label}"
        return [("class:dim", head), ("", body[len(head):] + "\n")]

    def room_start(self, waiting: int) -> Fragments:
        """When the game starts: how many seats or players it still waits for."""
        if not waiting:
            return [*self.wrapped("class:notice", _("Everyone is ready: the game starts.")),
                    ("", "\n\n")]
        return [*self.wrapped("class:dim", ngettext(
            "The game starts when every seat is taken and every player is ready "
            "({n} to go).", "The game starts when every seat is taken and every player "
            "is ready ({n} to go).", waiting).format(n=waiting)), ("", "\n\n")]

    def room_chat(self, said: Said, used: int = 0) -> Fragments:
        """The room's chat: the newest lines that fit below ``used`` rows of the room."""
        left = self.height() - used - 3 - (1 if self.c.banner else 0)
        return [("class:heading", " " + _("Chat")), ("class:dim", " " + _("(t to talk)") + "\n"),
                *[("class:chat", f"{line}\n")
                  for line in self.newest_lines(said, max(1, left))]]
