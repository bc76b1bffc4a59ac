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

import re
from typing import Any

from cardparty.client.command_line import COMMANDS
from cardparty.client.controller import Controller
from cardparty.client.dialog import Choice, CreateForm, TextField
from cardparty.client.keys_room import room_of
from cardparty.client.keys_table import stood_in
from cardparty.client.lobby_rows import invites_me
from cardparty.client.render import Renderer, counter_text
from cardparty.client.render_screens import mode_text, settings_text, status_text
from cardparty.client.theme import card_name, glyphs, label_of, to_ascii
from cardparty.client.words import variants_text
from cardparty.core.i18n import N_, _, ngettext, translate

#: At most this many moves are read out at each turn; more are counted (``moves`` reads all).
MOVES_READ = 12

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


def plain(text: str) -> str:
    """A drawn text as words: no run of spaces (a column's padding), nothing at either end."""
    return " ".join(text.split())


def text_lines(fragments: list[tuple[Any, ...]]) -> list[str]:
    """A region the full screen draws, as its lines of words (empty ones left out)."""
    joined = "".join(f[1] for f in fragments)
    return [p for p in (plain(line) for line in joined.split("\n")) if p]


class Narrator:
    """Says what changed in ``c`` since it last said anything (``lines``), and answers the
    queries (``look``...). ``ascii_only``: cards and symbols in ASCII (``10h``)."""

    def __init__(self, c: Controller, ascii_only: bool = False) -> None:
        self.c = c
        self.ascii = ascii_only
        # A wide screen: the full screen's texts come as whole sentences, never wrapped.
        self.r = Renderer(c, glyphs(ascii_only), ascii_only, width=lambda: 400,
                          height=lambda: 400)
        self.screen = ""
        self.banner = ""
        self.error = ""
        self.notice = ""
        self.table: Any = None
        self.log: Any = None
        self.log_total = 0
        self.lobby_total = c.lobby_chat.total
        self.room_chat: Any = None
        self.room_total = 0
        self.turn: Any = None
        self.over: Any = None
        self.standin = False
        self.rows: dict[Any, str] = {}
        self.profile = ""
        self.room: list[str] = []
        self.dialog: Any = None
        self.shown: list[str] = []
        self.hosts: list[tuple[str, str]] = []
        self.welcomed = c.welcomed
        #: The first welcome was said ("connected"); the next ones are a return.
        self.joined = c.welcomed

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
        if c.screen != self.screen or (c.screen == "lobby" and c.welcomed != self.welcomed):
            out += self.entered()
        out += self.said_since()
        out += self.screen_changes()
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

    def entered(self) -> list[str]:
        """A screen opened: what it is, and what it holds now."""
        c = self.c
        self.screen = c.screen
        self.welcomed = c.welcomed
        self.shown = []
        if c.screen == "start":
            return [_("Join a cardparty host."), *self.found_hosts(force=True)]
        if c.screen == "lobby":
            return self.lobby_opened()
        if c.screen == "room":
            self.room = []
            return [plain(self.r.title()[0][1]), *self.room_changes()]
        if c.screen == "table":
            return []                              # ``table_changes`` says it whole
        return []

    def said_since(self) -> list[str]:
        """The lines of the log, the lobby's and the room's chat said since the last call."""
        c = self.c
        out: list[str] = []
        if c.lobby_chat.total != self.lobby_total:
            out += c.lobby_chat.since(self.lobby_total)
            self.lobby_total = c.lobby_chat.total
        if c.room_chat is not self.room_chat:
            self.room_chat, self.room_total = c.room_chat, c.room_chat.total
        elif c.room_chat.total != self.room_total:
            out += c.room_chat.since(self.room_total)
            self.room_total = c.room_chat.total
        return out

    def screen_changes(self) -> list[str]:
        c = self.c
        if c.screen == "start":
            return self.found_hosts()
        if c.screen == "lobby":
            return self.lobby_changes()
        if c.screen == "room":
            return self.room_changes()
        if c.screen == "table":
            return self.table_changes()
        if c.screen in ("profile", "league", "shop", "events", "history", "replay"):
            return self.economy_changes()
        return []

    def overlays(self) -> list[str]:
        """The help, the scoreboard and a dialog, said as lines (nothing is drawn over the
        lines: the help and the scoreboard are said and closed)."""
        c = self.c
        out: list[str] = []
        if c.help:
            out += self.rules() if c.help == 2 else self.help()
            c.help = 0
        if c.scoreboard:
            out += text_lines(self.r.scoreboard())[:-1]    # "any key closes" is not so here
            c.scoreboard = False
        if c.dialog is not self.dialog:
            self.dialog = c.dialog
            out += self.dialog_opened()
        return out

    # --- the start screen -----------------------------------------------------------------

    def found_hosts(self, force: bool = False) -> list[str]:
        f = self.c.start
        if f.hosts == self.hosts and not force:
            return []
        self.hosts = list(f.hosts)
        if not f.hosts:
            return [_("Hosts on this network: {search}").format(
                search=translate(f.search) if f.search else _("none listed"))] if force else []
        out = [_("Hosts on this network (type the number to join one):")]
        out += [f"{i}. {label}, {address}" for i, (label, address) in enumerate(f.hosts, 1)]
        if f.search:
            out.append(f.search)
        return out

    # --- the lobby -------------------------------------------------------------------------

    def lobby_opened(self) -> list[str]:
        c = self.c
        self.rows = {}
        if c.link is not None and not c.welcomed:
            return []                              # the banner says what is tried
        out = [_("Lobby of {host}, as {name}.").format(host=c.host or "?", name=c.name or "?")]
        if c.profile or c.no_economy:
            self.profile = text_lines(self.r.lobby())[0]    # the profile line
            out.append(self.profile)
        out += self.tables()
        out.append(_("Type help for what you can do here."))
        return out

    def row_words(self, t: dict[str, Any]) -> str:
        """A table of the lobby in one sentence: its id, game, seats, mode and status."""
        seats = ", ".join(str(s) if s else _("(free)") for s in t.get("seats") or ())
        status = _("invited") if invites_me(self.c, t) else status_text(t)
        return _("{table}: {game}, {seats}; {mode}; {status}").format(
            table=t.get("id"), game=self.r.game_name(str(t.get("game", "?"))), seats=seats,
            mode=mode_text(t), status=status)

    def tables(self) -> list[str]:
        """Every table of the lobby, one a line (and as said, for what changes next)."""
        c = self.c
        self.rows = {t.get("id"): self.steady(t) for t in c.tables}
        if not c.tables:
            return [_("No tables yet: type create to make one, or seek for open play.")]
        out = [ngettext("{n} table:", "{n} tables:", len(c.tables)).format(n=len(c.tables))]
        return out + [self.row_words(t) for t in c.tables]

    def steady(self, t: dict[str, Any]) -> str:
        """A row's words without its countdown (``open 28s``): a table is said again when
        it changes, not every second."""
        return re.sub(r"\s\d+s\b", "", self.row_words(t))

    def lobby_changes(self) -> list[str]:
        c = self.c
        if c.link is not None and not c.welcomed:
            return []
        out: list[str] = []
        if c.profile or c.no_economy:          # the profile line, when it came or changed
            line = text_lines(self.r.lobby())[0]
            if line != self.profile:
                self.profile = line
                out.append(line)
        now = {t.get("id"): self.steady(t) for t in c.tables}
        out += [self.row_words(t) for t in c.tables if self.rows.get(t.get("id")) != now[
            t.get("id")]]
        out += [_("table {table} is gone").format(table=tid) for tid in self.rows
                if tid not in now]
        self.rows = now
        return out

    # --- the waiting room -------------------------------------------------------------------

    def room_now(self) -> list[str]:
        """The waiting room in lines: its table, seats, settings and what it waits for."""
        t = room_of(self.c)
        if t is None:
            return [_("waiting for the host to list the table...")]
        summary = t.get("summary") or {}
        seats, waiting = self.r.room_seats(summary.get("seats") or ())
        lines = [self.row_words(t), *text_lines(seats)[1:]]
        game = next((g for g in self.c.games if g.get("id") == t.get("game")), {})
        lines.append(_("Settings:") + " " + (settings_text(summary.get("settings") or {}, game)
                                            or _("the game's defaults")))
        variants = variants_text(summary.get("variants") or (), game)
        if variants:
            lines.append(_("Variants:") + " " + variants)
        lines += text_lines(self.r.room_start(waiting))
        return lines

    def room_changes(self) -> list[str]:
        now = self.room_now()
        if not self.room:
            self.room = now
            return [*now, _("Type ready when you are; help says the rest.")]
        out = [line for line in now if line not in self.room]
        self.room = now
        return out

    # --- the table ---------------------------------------------------------------------------

    def table_changes(self) -> list[str]:
        c = self.c
        tm = c.table
        out: list[str] = []
        if c.table_id != self.table or tm.log is not self.log:
            self.table, self.log, self.log_total = c.table_id, tm.log, 0
            self.turn = self.over = None
            self.standin = False
            out.append(plain(self.r.title()[0][1].replace(" · " + _("YOUR MOVE"), "")))
            out += self.players()
        if tm.log.total != self.log_total:
            out += tm.log.since(self.log_total)
            self.log_total = tm.log.total
        version = (c.table_id, tm.view.get("version"))
        if tm.over:
            if self.over != version:
                self.over = version
                out += self.round_over()
            return out
        if stood_in(c) != self.standin:
            self.standin = stood_in(c)
            if self.standin:
                out.append(_("A bot plays for you: your turn timed out. Type back to take "
                              "your seat back."))
        if tm.moves and self.turn != version and not self.standin:
            self.turn = version
            out += self.your_move()
        return out

    def your_move(self) -> list[str]:
        """It is this player's turn: said, with his hand, the table's state and his moves."""
        tm = self.c.table
        out = [_("Your move.")]
        if any(m["kind"] == "call" for m in tm.moves):
            out.append(_("Call now: type call."))
        out += [self.hand(), *self.public()]
        out += self.moves(most=MOVES_READ)
        return out

    def hand(self) -> str:
        tm = self.c.table
        if tm.seat is None:
            return _("You watch this table: you have no hand.")
        cards = " ".join(card_name(code, self.ascii) for code in tm.hand)
        return _("Your hand: {cards}").format(cards=cards or _("(no cards)"))

    def public(self) -> list[str]:
        """The table's cards in view and its counters, one line each."""
        v = self.c.table.view
        names = self.c.table.names
        out = []
        zones = [f"{translate(name)} {self.zone(value)}"
                 for name, value in (v.get("zones") or {}).items()]
        if zones:
            out.append(_("Table: {zones}").format(zones=", ".join(zones)))
        counters = [f"{translate(name)} {counter_text(value, names, str(name))}"
                    for name, value in (v.get("counters") or {}).items()]
        if counters:
            out.append(", ".join(counters))
        return out

    def zone(self, value: Any) -> str:
        if isinstance(value, list | tuple):
            return " ".join(card_name(str(code), self.ascii) for code in value) or _("empty")
        if value is None:
            return "-"
        return translate(value) if isinstance(value, str) else str(value)

    def moves(self, most: int | None = None) -> list[str]:
        """The listed moves, numbered (``most``: more are counted, not read)."""
        moves = self.c.table.moves
        if not moves:
            return [_("You have no move now.")]
        if most is not None and len(moves) > most:
            return [ngettext("You have {n} move: type moves to hear it, or type it (Tab "
                             "completes).", "You have {n} moves: type moves to hear them, or "
                             "type one (Tab completes).", len(moves)).format(n=len(moves))]
        labels = [f"{i}. {label_of(m, self.ascii)}" for i, m in enumerate(moves, 1)]
        return [_("Moves: {moves}").format(moves="; ".join(labels))]

    def players(self) -> list[str]:
        """One line per player: name, cards, status, place, public zones, countdowns."""
        lines = text_lines(self.r.players())
        turn = self.r.g.turn
        return [line.removeprefix(turn).strip() for line in lines]

    def look(self) -> list[str]:
        """The table as a whole, asked for."""
        c = self.c
        if c.screen != "table":
            return self.where()
        tm = c.table
        out = [plain(self.r.title()[0][1]), *self.players(), *self.public()]
        turn = tm.view.get("turn")
        names = tm.names
        if tm.over:
            out.append(_("The round is over."))
        elif turn == tm.seat and tm.moves:
            out.append(_("It is your turn."))
        elif isinstance(turn, int) and 0 <= turn < len(names):
            out.append(_("It is {name}'s turn.").format(name=names[turn]))
        if tm.seat is not None:
            out.append(self.hand())
        return out

    def round_over(self) -> list[str]:
        """The end of a round: the places, the game's summary, what was paid, and what each
        command does to the seat."""
        lines = text_lines(self.r.over())
        keys = self.r.over_keys()
        body = lines[:len(lines) - len(keys)]
        words = {"n": "again", "m": "match", "l": "lobby", "x": "leave"}
        said = [_("{command}: {what}").format(command=words.get(k, k), what=what)
                for k, what in keys]
        return [*body, _("Type one of these:"), *said]

    def log_lines(self, n: int = 10) -> list[str]:
        lines = list(self.c.table.log)[-n:]
        return lines or [_("Nothing has happened at this table yet.")]

    # --- the economy's screens --------------------------------------------------------------

    def economy_changes(self) -> list[str]:
        c = self.c
        draw = {"profile": self.r.profile, "league": self.r.league, "shop": self.r.shop,
                "events": self.r.events, "history": self.r.history, "replay": self.r.replay}
        now = text_lines(draw[c.screen]())
        if c.screen == "shop":
            # the keys g and v are the commands buy gold and buy vip here
            now = [re.sub(r"^g ", "buy gold: ", re.sub(r"^v ", "buy vip: ", line))
                   for line in now]
        out = [line for line in now if line not in self.shown]
        if out and not self.shown:
            out.append(_("Type lobby to go back."))
        self.shown = now
        return out

    # --- asked for --------------------------------------------------------------------------

    def where(self) -> list[str]:
        """Where the player is, said again (an empty line typed)."""
        c = self.c
        if c.screen == "lobby":
            return self.lobby_opened()
        if c.screen == "room":
            return self.room_now()
        if c.screen == "table":
            tm = c.table
            if tm.over:
                return self.round_over()
            if tm.moves:
                return self.your_move()
            return self.look()
        if c.screen in ("profile", "league", "shop", "events", "history", "replay"):
            self.shown = []
            return self.economy_changes()
        return [_("Join a cardparty host."), *self.found_hosts(force=True)]

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
                shown = label_of({"label": label, "cards": cards}, self.ascii)
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
