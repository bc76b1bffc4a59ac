"""The controller's state as styled text: one function per region of the screen.

Each function returns prompt-toolkit fragments ``(style, text[, mouse handler])`` built straight
from the generic view (players, zones, counters, moves with labels, deadlines): whatever the
view names is shown, in the order it comes, so a game never seen before still shows fully.
This is the client's render path; ``bench/client_render.py`` holds it to 20 ms per view.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from typing import Any

from cardparty.client.at_table import host_gone, stood_in
from cardparty.client.controller import Controller
from cardparty.client.drawing import Fragments, counter_text
from cardparty.client.render_screens import ScreenParts, asciified
from cardparty.client.theme import Glyphs, card_class, card_name, label_of
from cardparty.core.i18n import N_, _, ngettext, translate
from cardparty.net.wire.replies import Timer

__all__ = ["Fragments", "Renderer", "asciified", "counter_text"]


#: The names of the host's own timers (docs/protocol.md, "Timers the host owns"): words of
#: the catalogs, shown by the player's countdown like a game's deadline.
TIMER_WORDS = (N_("idle"),)

class Renderer(ScreenParts):
    """Draws a ``Controller``; ``ascii_only`` for terminals without Unicode."""

    def __init__(self, c: Controller, glyphs: Glyphs, ascii_only: bool = False,
                 on_card_click: Callable[[int], None] | None = None,
                 width: Callable[[], int] = lambda: 80,
                 height: Callable[[], int] = lambda: 24) -> None:
        self.c = c
        self.width = width
        self.height = height
        self.g = glyphs
        self.ascii = ascii_only
        self.on_card_click = on_card_click

    # --- small pieces -----------------------------------------------------------------------

    def card(self, code: str, extra: str = "") -> tuple[str, str]:
        return (f"class:{card_class(code, self.c.four_colour)} {extra}".strip(),
                card_name(code, self.ascii))

    def cards(self, codes: list[str], limit: int = 12) -> Fragments:
        out: Fragments = []
        if len(codes) > limit:
            out.append(("class:dim", self.g.more))
            codes = codes[-limit:]
        for i, code in enumerate(codes):
            if i:
                out.append(("", " "))
            out.append(self.card(str(code)))
        return out

    def zone_value(self, value: Any) -> Fragments:
        if isinstance(value, list | tuple):
            if not value:
                return [("class:dim", _("empty"))]
            return self.cards([str(v) for v in value])
        if value is None:
            return [("class:dim", "-")]
        return [("", translate(value) if isinstance(value, str) else str(value))]

    # --- top and bottom lines -----------------------------------------------------------------

    @asciified
    def title(self) -> Fragments:
        text = " " + self.c.current.title(self)
        if self.ascii:
            text = text.replace("·", "|")
        return [("class:title", text)]

    @asciified
    def body(self) -> Fragments:
        """The screen shown, as it draws itself."""
        return self.c.current.draw(self)

    @asciified
    def screen(self, name: str) -> Fragments:
        """The screen registered as ``name``, as it draws itself (shown or not)."""
        return self.c.screens[name].draw(self)

    @asciified
    def banner(self) -> Fragments:
        if not self.c.banner:
            return []
        return self.wrapped("class:banner", self.c.banner, f" {self.g.warn} ")

    @asciified
    def status(self) -> Fragments:
        c = self.c
        if c.error:
            return self.wrapped("class:error", c.error)
        if c.notice:
            return self.wrapped("class:notice", c.notice)
        # The keys' short forms, as the screen's bindings declare them (``keymap``), broken
        # between keys.
        return self.flow([[("class:dim", (self.g.sep if i else " ") + k)]
                          for i, k in enumerate(c.keys.footer(c))])

    # --- the table ----------------------------------------------------------------------------

    @asciified
    def players(self) -> Fragments:
        """One line per seat (wrapped between items, never inside one): name, cards, status,
        place, the seat's public zones, its countdowns."""
        tm = self.c.table
        v = tm.view
        out: Fragments = []
        turn = v.get("turn")
        clocks: dict[int | None, list[tuple[Timer, float]]] = {}
        for d, left in tm.deadlines():
            clocks.setdefault(d.get("seat"), []).append((d, left))
        for i, p in enumerate(tm.players):
            mark = self.g.turn if i == turn else " "
            name = str(p.get("name", _("seat {n}").format(n=i)))
            me = i == tm.seat
            style = "class:me" if me else ("class:turn" if i == turn else "")
            head: Fragments = [(style, f" {mark} {name[:16]:<16}")]
            count = p.get("count")
            if count is not None:
                head.append(("", " " + ngettext("{n:>2} card ", "{n:>2} cards", count).format(
                    n=count)))
            groups = [head]
            status = p.get("status")
            here = None                          # the host's newest word on who is here
            if i in tm.absent():
                status = here = N_("disconnected")
            elif i in tm.returned:               # until the table's next move
                status = here = N_("back")
            shown = translate(status) if status else ""
            if p.get("standin") and here is None:   # a stand-in ends when he is back
                shown = _("{status} (a bot stands in)").format(status=shown).strip()
            if shown:
                groups.append([("class:turn" if i == turn else "class:dim", f"  {shown}")])
            if p.get("place") is not None:
                groups.append([("class:warn", "  " + _("place {n}").format(n=p["place"]))])
            if me:
                groups.append([("class:dim", "  " + _("(you)"))])
            # ``marked``: a key the game adds to its view (docs/protocol.md).
            hints: Mapping[str, Any] = v
            marked = (hints.get("marked") or {}) if me else {}
            for zname, zval in (p.get("zones") or {}).items():
                # The game counts the own cards it names among the hand's ("shown: 3") and
                # marks which they are: written out, as the opponent sees them.
                if isinstance(marked.get(zname), list) and isinstance(zval, int):
                    zval = [str(x) for x in marked[zname]]
                groups.append([("class:dim", f"  {translate(zname)}: "),
                               *self.zone_value(zval)])
            for d, left in clocks.get(i, ()):
                groups.append([("class:warn",
                                f"  {self.g.clock} {translate(d.get('name', ''))} {left:.1f}s")])
            out += self.flow(groups, indent=6)
            out.append(("", "\n"))
        if out:
            out.pop()
        return out

    def flow(self, groups: list[Fragments], indent: int = 1) -> Fragments:
        """Groups of fragments on lines of the screen's width, breaking only between groups
        (a zone's cards stay together)."""
        width = max(20, self.width() - 1)
        out: Fragments = []
        col = 0
        for group in groups:
            size = sum(len(f[1]) for f in group)
            if col and col + size > width:
                out.append(("", "\n" + " " * indent))
                col = indent
                group = [(group[0][0], group[0][1].lstrip(" ·|"), *group[0][2:]), *group[1:]]
                size = sum(len(f[1]) for f in group)
            out += group
            col += size
        return out

    @asciified
    def table_top(self) -> Fragments:
        """The players, then the public zones and the counters: one region, one window."""
        out = self.players()
        out.append(("", "\n"))
        return out + self.zones()

    def rule(self) -> tuple[str, str]:
        return ("class:dim", self.g.rule * max(1, self.width()))

    @asciified
    def table_top_ruled(self) -> Fragments:
        """The table's top region and the rule under it."""
        return [*self.table_top(), ("", "\n"), self.rule()]

    @asciified
    def hand_ruled(self) -> Fragments:
        """The rule above the hand, and the hand."""
        return [self.rule(), ("", "\n"), *self.hand()]

    @asciified
    def zones(self) -> Fragments:
        v = self.c.table.view
        sep = self.g.sep
        groups: list[Fragments] = []
        for i, (name, value) in enumerate((v.get("zones") or {}).items()):
            groups.append([("class:dim", f"{sep if i else ' '}{translate(name)}: "),
                           *self.zone_value(value)])
        out = self.flow(groups)
        counters = v.get("counters") or {}
        names = self.c.table.names
        if counters:
            groups = [[("class:dim", f"{sep if i else ' '}{translate(name)}: "),
                       ("class:turn", counter_text(value, names, str(name)))]
                      for i, (name, value) in enumerate(counters.items())]
            out += [("", "\n"), *self.flow(groups)]
        return out

    @asciified
    def too_small(self, needed: tuple[int, int]) -> Fragments:
        """Instead of a table with lines cut off: what the terminal needs."""
        columns, rows = needed
        text = _("It needs at least {rows} lines of {columns} columns here; make it larger "
                 "(or the font smaller) and the table comes back. q leaves the table, Ctrl-C "
                 "quits.").format(rows=rows, columns=columns)
        width = max(10, self.width() - 2)
        # Both broken between words: at 40 columns the first line ran over the edge and the
        # terminal broke it inside a word.
        head = textwrap.wrap(f"{self.g.warn} " + _("This terminal is too small for this "
                                                   "table."), width)
        lines = textwrap.wrap(text, width)
        return [("class:warn", "\n".join(f" {line}" for line in head)),
                ("", "".join(f"\n {line}" for line in lines))]

    @asciified
    def log(self, height: int) -> Fragments:
        """The newest entries that fit, each wrapped to the screen's width (a deal's summary
        runs over several lines: none is cut off)."""
        height = max(1, height)
        width = max(20, self.width() - 2)
        rows: list[tuple[str, str]] = []
        for entry in reversed(self.c.table.log):
            style = "class:chat" if entry.startswith("<") else ""
            wrapped: list[str] = []
            for i, part in enumerate(entry.split("\n")):
                wrapped += textwrap.wrap(part, width, initial_indent="" if i == 0 else "  ",
                                         subsequent_indent="    ",
                                         break_on_hyphens=False) or [""]
            rows[:0] = [(style, f" {w}\n") for w in wrapped]
            if len(rows) >= height:
                break
        return list(rows[-height:])

    @asciified
    def hand(self) -> Fragments:
        tm = self.c.table
        if tm.seat is None:
            return [("class:dim", " " + _("spectating: no hand"))]
        out: Fragments = [("class:heading", _("Hand")), ("", " ")]
        legal = tm.legal_codes()
        for i, code in enumerate(tm.hand):
            extra = "legal" if code in legal else "illegal"
            if i in tm.selection:
                extra += " selected"
                out.append(("class:selected", f"{tm.selection.index(i) + 1}:"))
            if i == tm.cursor:
                extra += " cursor"
            style, text = self.card(code, f"class:{extra.replace(' ', ' class:')}")
            handler = self._click(i)
            out.append((style, f"{text}", handler) if handler else (style, text))
            out.append(("", " "))
        if not tm.hand:
            out.append(("class:dim", _("(no cards)")))
        return out

    def _click(self, index: int) -> Callable[[Any], Any] | None:
        if self.on_card_click is None:
            return None
        callback = self.on_card_click

        def handler(event: Any) -> Any:
            from prompt_toolkit.mouse_events import MouseEventType
            if event.event_type == MouseEventType.MOUSE_UP:
                callback(index)
                return None
            return NotImplemented

        return handler

    @asciified
    def actions(self) -> Fragments:
        tm = self.c.table
        out: Fragments = []
        me = tm.seat
        for d, left in tm.deadlines():
            # A long timer (the host's idle turn) only counts down by the player's name
            # until its last half minute; a short one (Pika's warning) is shown at once.
            if d.get("seat") == me and (left < 30 or float(d.get("seconds") or 0) < 30):
                out.append(("class:warn", f" {self.g.warn} "
                            f"{translate(d.get('name') or N_('deadline'))} {left:.1f}s"))
                if any(m["kind"] == "call" for m in tm.moves):
                    out.append(("class:warn", " - " + _("press p to call!")))
                out.append(("", "\n"))
        if tm.moves and not tm.over and host_gone(self.c):
            # Nothing reaches a host that is gone: no move is offered as if it would.
            out.append(("class:warn", " " + _("the host is gone: your move waits until it is "
                                               "back")))
            return out
        if stood_in(self.c):
            out.append(("class:warn", " " + _("A bot plays for you: your turn timed out. "
                                               "Enter: take your seat back")))
            return out
        hint = tm.suggested()
        if hint is not None and tm.suggestion is not None:
            out.append(("class:notice", f" Enter: {label_of(hint, self.ascii)}"))
            out.append(("class:dim", "  " + _("(move {n} of {count}, Tab: next)").format(
                n=tm.suggestion + 1, count=len(tm.moves)) + "\n"))
        groups = tm.action_groups()
        if groups:
            out.append(("", " "))
            for n, (kind, moves) in enumerate(groups[:9], 1):
                label = label_of(moves[0], self.ascii) if len(moves) == 1 else \
                    _("{kind} ({n} choices)").format(kind=translate(kind), n=len(moves))
                out.append(("class:key", f"{n}"))
                out.append(("", f" {label}  "))
        elif tm.moves and not tm.over:
            if hint is None:
                out.append(("class:dim", " " + _("your move: choose cards, Enter to play")))
        elif not tm.over and tm.seat is not None:
            turn = tm.view.get("turn")
            names = tm.names
            if isinstance(turn, int) and 0 <= turn < len(names):
                out.append(("class:dim", " " + _("waiting for {name}").format(name=names[turn])))
        return out
