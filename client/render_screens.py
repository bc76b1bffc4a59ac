"""The screens and overlays other than the table's regions: the end of a round, the
dialogs and the create form, the help, the start screen and the lobby; and what every drawing
shares (``Fragments``, ``asciified``). A mixin of ``render.Renderer``.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from cardparty.client.dialog import Choice, CreateForm, TextField
from cardparty.client.theme import pretty_text, to_ascii
from cardparty.core.i18n import N_, _, translate
from cardparty.core.i18n import shown as shown_text
from cardparty.core.narrate import with_names

Fragments = list[tuple[Any, ...]]

KEYS_TABLE = [
    (N_("left right"), N_("move along your hand")),
    (N_("space"), N_("select a card (selection order = play order)")),
    ("Enter", N_("play the selection, or the card at the cursor")),
    (N_("click"), N_("select a card with the mouse")),
    ("Tab S-Tab", N_("step through your legal moves; Enter plays it")),
    ("1-9", N_("moves without cards (draw, take, ...): bottom line")),
    ("p", N_("call (Pika!); with a card chosen: play it and call")),
    ("< >", N_("move the card at the cursor (also Shift-arrows)")),
    ("o", N_("sort your hand by suit or colour")),
    ("Esc", N_("clear the selection; close a dialog")),
    ("t", N_("chat")),
    ("B", N_("bell on/off: rings when it is your turn or a call is due")),
    (": /", N_("command line: a move (play 7h) or a command; Tab completes")),
    ("n l", N_("round over: play again / back to the lobby")),
    ("q", N_("leave the table    Ctrl-C: quit")),
]
KEYS_LOBBY = [
    (N_("up down"), N_("choose a table")),
    ("Enter", N_("sit at the table")),
    ("s", N_("spectate the table")),
    ("c", N_("create a table (game, players, mode, settings, variants)")),
    ("b", N_("add a bot to the table")),
    ("r", N_("ready")),
    ("i", N_("invite players by username to your friends table")),
    ("l", N_("leave the table")),
    ("t", N_("chat")),
    ("B", N_("bell on/off: rings when it is your turn or a call is due")),
    (": /", N_("command line: sit, ready, bot, chat...; Tab completes")),
    ("q", N_("quit    Ctrl-C: quit at once")),
]


KEYS_ROOM = [
    ("r", N_("ready: the game starts when every seat is taken and every player is ready")),
    ("b", N_("add a bot to an empty seat")),
    ("t", N_("chat with the table")),
    ("i", N_("invite players by username (a friends table)")),
    ("l", N_("leave the table (the seat is freed)")),
    ("q Esc", N_("back to the lobby, keeping the seat (Enter on it comes back)")),
    (": /", N_("command line: ready, bot, chat...; Tab completes")),
    ("B", N_("bell on/off: rings when the game starts and it is your turn")),
    ("Ctrl-C", N_("quit")),
]


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
    """See the module docstring."""

    @asciified
    def over(self) -> Fragments:
        tm = self.c.table
        result = tm.view.get("result") or {}
        names = tm.names
        places = result.get("places") or [p.get("place") for p in tm.players]
        scores = result.get("scores")
        out: Fragments = [("class:heading", _("Round over")), ("", "\n\n")]
        order = sorted(range(len(names)), key=lambda s: (places[s] or 99, s))
        for s in order:
            style = "class:me" if s == tm.seat else ""
            line = f" {places[s] or '-'}. {names[s]:<18}"
            if scores is not None and s < len(scores):
                line += " " + _("score {n}").format(n=scores[s])
            out.append((style, line + "\n"))
        if result.get("summary"):
            summary = with_names(shown_text(str(result["summary"]), result.get("summary_msg")),
                                 names)
            out.append(("class:dim", f"\n {summary}\n"))
        out.append(("", "\n "))
        out.append(("class:key", "n"))
        out.append(("", " " + _("play again") + "   "))
        out.append(("class:key", "l"))
        out.append(("", " " + _("back to the lobby")))
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

    def create_form(self, f: CreateForm) -> Fragments:
        out: Fragments = [("class:heading", _("Create a table")), ("", "\n")]
        for i, row in enumerate(f.rows):
            style = "class:dialog.cursor" if i == f.cursor else ""
            if row.kind == "action":
                out.append((style, f" {translate(row.label)} \n"))
                continue
            value = (_("yes") if row.value else _("no")) if row.kind == "bool" else row.value
            bounds = ""
            if row.kind in ("int", "float") and row.min is not None and row.max is not None:
                bounds = " " + _("({low} to {high})").format(low=f"{row.min:g}",
                                                              high=f"{row.max:g}")
            label = translate(row.label)
            label = label if len(label) <= 24 else label[:23] + self.g.more[:1]
            out.append((style, f" {label:<24} < {value} >{bounds} \n"))
        row = f.rows[f.cursor]
        if row.help:
            out.append(("class:dim", f" {translate(row.help)[:70]}\n"))
        out.append(("class:dim",
                    " " + _("up/down: field · left/right: change · Enter on Create")))
        return out

    @asciified
    def help(self) -> Fragments:
        """Page 1: the keys; page 2 (``?`` again at a table): the game's rules in short."""
        c = self.c
        if c.help == 2:
            game = str(c.table.view.get("game", ""))
            summary = next((g.get("summary") for g in c.games if g.get("id") == game), "")
            text = " ".join(translate(summary or N_("The host sent no summary of this game."))
                            .split())
            text = textwrap.fill(text, width=min(74, max(20, self.width() - 6)))
            return [("class:heading",
                     _("{game}: the rules in short").format(game=self.game_name(game))),
                    ("", f"\n{text}\n"), ("class:dim", "\n" + _("any key closes this help"))]
        keys = {"lobby": KEYS_LOBBY, "room": KEYS_ROOM}.get(c.screen, KEYS_TABLE)
        out: Fragments = [("class:heading", _("Keys")), ("", "\n")]
        for k, what in keys:
            out.append(("class:key", f" {_(k):<10}"))
            out.append(("", f" {_(what)}\n"))
        more = _("? again: the rules of this game; ") if c.screen == "table" else ""
        out.append(("class:dim", f" {more}" + _("any other key closes this help")))
        return out

    # --- the other screens ----------------------------------------------------------------------

    @asciified
    def start(self) -> Fragments:
        f = self.c.start
        out: Fragments = [("class:heading", "Join a cardparty host"), ("", "\n\n")]
        for row, (label, value) in enumerate((("Your name", f.name),
                                              ("Host address", f.address))):
            active = row == f.row
            out.append(("class:turn" if active else "", f" {label:<14}"))
            out.append(("class:cursor" if active else "", f" {value} "))
            if row == 1 and not value:
                out.append(("class:dim", " type it, or choose a host found below"
                            if f.hosts else " type it, e.g. 192.168.1.20"))
            out.append(("", "\n"))
        out.append(("", "\n"))
        out.append(("class:heading", "Hosts on this network"))
        out.append(("", "\n"))
        if f.hosts:
            for i, (label, address) in enumerate(f.hosts, 2):
                style = "class:dialog.cursor" if f.row == i else ""
                out.append((style, f"   {label[:40]:<40} {address} "))
                out.append(("", "\n"))
            out.append(("class:dim", "   up/down to one, Enter to join it\n"))
        else:
            out.append(("class:dim", f"   {f.search or 'none listed'}: type the host's "
                        "address, e.g. 192.168.1.20 or 192.168.1.20:7770\n"))
        return out

    @asciified
    def lobby(self) -> Fragments:
        c = self.c
        out: Fragments = [("class:heading", f" {'Table':<7}{'Game':<10}{'Seats':<34}"
                                            f"{'Mode':<9}{'Status':<12}"), ("", "\n")]
        if not c.tables:
            out.append(("class:dim", " no tables yet: press c to create one\n"))
        for i, t in enumerate(c.tables):
            seats = t.get("seats") or []
            shown = ", ".join(str(s) if s else "(free)" for s in seats)
            if len(shown) > 32:
                shown = shown[:31] + self.g.more[:1]
            status = str(t.get("status", ""))
            style = "class:dialog.cursor" if i == c.lobby_cursor else ""
            if c.invites_me(t):                  # a friends table waiting for this player
                status = "invited"
                style = style or "class:notice"
            line = (f" {str(t.get('id', '?')):<7}{self.game_name(str(t.get('game', '?'))):<10}"
                    f"{shown:<34}{str(t.get('mode', ''))[:8]:<9}{status:<12}")
            out.append((style, line + "\n"))
        if c.lobby_chat:
            out.append(("", "\n"))
            for line in list(c.lobby_chat)[-5:]:
                out.append(("class:chat", f" {line}\n"))
        return out

    @asciified
    def room(self) -> Fragments:
        """The waiting room: the table's lobby row, its seats one per line with who is ready,
        its settings and variants, and its chat."""
        c = self.c
        t = c.room()
        if t is None:
            return [("class:dim", " waiting for the host to list the table...")]
        summary = t.get("summary") or {}
        out: Fragments = [("class:heading", f" {'Table':<7}{'Game':<10}{'Seats':<34}"
                                            f"{'Mode':<9}{'Status':<12}"), ("", "\n")]
        seats_line = ", ".join(str(s) if s else "(free)" for s in t.get("seats") or [])
        if len(seats_line) > 32:
            seats_line = seats_line[:31] + self.g.more[:1]
        out.append(("class:dialog.cursor",
                    f" {str(t.get('id', '?')):<7}{self.game_name(str(t.get('game'))):<10}"
                    f"{seats_line:<34}{str(t.get('mode', ''))[:8]:<9}"
                    f"{str(t.get('status', '')):<12}\n"))
        out.append(("", "\n"))
        out.append(("class:heading", " Seats\n"))
        me = c.name.casefold()
        waiting = 0
        for i, s in enumerate(summary.get("seats") or ()):
            kind, name = s.get("kind"), str(s.get("name") or "")
            if kind == "empty" or not name:
                out.append(("class:dim", f"  {i + 1}. (free)\n"))
                waiting += 1
                continue
            mine = kind == "human" and name.casefold() == me
            if kind == "bot":
                state = "bot, ready"
            else:
                state = "ready" if s.get("ready") else "not ready"
                waiting += 0 if s.get("ready") else 1
                if s.get("connected") is False:
                    state += ", away"
            out.append(("class:me" if mine else "",
                        f"  {i + 1}. {name[:24]:<24}{' (you)' if mine else '':<7}"))
            out.append(("class:notice" if state.startswith("ready") or kind == "bot"
                        else "class:warn", f"{state}\n"))
        settings = {k: v for k, v in (summary.get("settings") or {}).items() if k != "deck"}
        out.append(("class:dim", "\n Settings: "))
        out.append(("", ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in settings.items())
                    or "the game's defaults"))
        out.append(("class:dim", "\n Variants: "))
        out.append(("", ", ".join(str(v) for v in summary.get("variants") or ()) or "none"))
        out.append(("", "\n\n"))
        if waiting:
            out.append(("class:dim", f" The game starts when every seat is taken and every "
                                     f"player is ready ({waiting} to go).\n"))
        else:
            out.append(("class:notice", " Everyone is ready: the game starts.\n"))
        out.append(("", "\n"))
        out.append(("class:heading", " Chat"))
        out.append(("class:dim", " (t to talk)\n"))
        for line in list(c.room_chat)[-8:]:
            out.append(("class:chat", f" {line}\n"))
        return out
