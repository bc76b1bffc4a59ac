"""The events screen (docs/playing.md, "Events"): the host's events, newest first, one chosen;
its standings below (rank, name, points, Buchholz, first places and each round's points; the
player's own line marked). From it a player signs up (or enters late, or comes back),
withdraws, and, as the event's organiser, starts it; ``x`` writes the standings beside the
client as CSV and as one HTML page for a big screen. The lobby's ``e`` and the command
``events`` open it.

It owns the host's events as last told (the list, each event whole, the one chosen) and where
the last round seated this player. When a round seats him it says where and opens that
table's waiting room once the lobby lists it; at the end of an event's round the table's box
says where he stands, and ``e`` there opens the standings (``over_words``, ``over_keys``).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from cardparty.client.command_line import LOBBY_SIDE, command
from cardparty.client.drawing import Fragments, cells
from cardparty.client.event_link import EventSeatShown, EventShown, EventsShown
from cardparty.client.keymap import Keys
from cardparty.client.link import Message
from cardparty.client.lobby_rows import summary_of
from cardparty.client.screen import Receiver, Screen, back_keys
from cardparty.client.screens.room import RoomScreen
from cardparty.core.i18n import N_, _, ngettext
from cardparty.core.tourney.export import to_csv, to_html
from cardparty.net.wire.event_replies import EventBrief, EventWire

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.render import Renderer

EVENTS = Keys("events")
#: The lobby's key that opens this screen.
FROM_LOBBY = Keys("lobby")
#: The key of an event's table once its round is over: the standings.
FROM_TABLE = Keys("table")


class EventsScreen(Screen):
    """See the module docstring."""

    name = "events"
    heading = N_("events")
    keys = (FROM_LOBBY, FROM_TABLE, EVENTS, back_keys("events"))

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: The host's events, newest first (``events``), and the row chosen.
        self.listed: list[EventBrief] = []
        self.cursor = 0
        #: Each event as the host last told it, by id (its standings and rounds).
        self.events: dict[str, EventWire] = {}
        #: The event last chosen or seated in (None: none yet).
        self.chosen_id: str | None = None
        #: Where the last round seated this player (``event_seat``).
        self.seat: EventSeatShown | None = None

    # --- what the host tells ---------------------------------------------------------------

    def receivers(self) -> Mapping[str, Receiver]:
        return {"events": self._events, "event": self._event, "event_seat": self._seat}

    def _events(self, msg: Message) -> None:
        listed = cast(EventsShown, msg)           # an ``events`` message, by its receiver
        self.listed = [e for e in listed.get("events") or () if isinstance(e, dict)]
        chosen = self.chosen()
        if chosen is not None and chosen not in self.events:
            self.c.request("event", event=chosen)

    def _event(self, msg: Message) -> None:
        event = cast(EventShown, msg).get("event")   # an ``event`` message, by its receiver
        if isinstance(event, dict) and event.get("id"):
            self.events[str(event["id"])] = event
            if self.chosen_id is None:
                self.chosen_id = str(event["id"])
            for i, e in enumerate(self.listed):      # the list's line follows the event
                if e.get("id") == event["id"]:
                    self.listed[i] = event           # an event whole says its line too

    def _seat(self, msg: Message) -> None:
        c = self.c
        seat = self.seat = cast(EventSeatShown, msg)   # an ``event_seat``, by its receiver
        self.chosen_id = str(seat.get("event"))
        c.notice = _("{event}, round {round}: table {table}, seat {seat}").format(
            event=seat.get("title") or seat.get("event"), round=seat.get("round"),
            table=seat.get("table"), seat=int(seat.get("seat") or 0) + 1)
        if c.screen in (self.name, "lobby"):
            c.show("lobby")
            c.get(RoomScreen).wait_for(seat.get("table"))  # its room opens once it is listed

    # --- what it shows ---------------------------------------------------------------------

    def chosen(self) -> str | None:
        """The id of the event chosen (the list's row, else the last one told)."""
        if not self.listed:
            return self.chosen_id
        self.cursor = max(0, min(self.cursor, len(self.listed) - 1))
        return str(self.listed[self.cursor].get("id"))

    def shown(self) -> None:
        """Each time it opens: the list asked for again (and the chosen event with it)."""
        self.c.request("events")
        chosen = self.chosen()
        if chosen is not None:
            self.c.request("event", event=chosen)

    def shown_event(self) -> EventWire | None:
        """The event the screen shows: the chosen one, as the host last told it."""
        chosen = self.chosen()
        return None if chosen is None else self.events.get(chosen)

    def draw(self, r: Renderer) -> Fragments:
        """The host's events (the chosen one marked) and the chosen one's standings: rank,
        name, points, Buchholz, first places and each round's points; the player's own line
        marked, a withdrawn entrant's dim."""
        c = self.c
        out: Fragments = [("class:heading", " " + _("Events") + "\n")]
        if not self.listed:
            out.append(("class:dim", " " + _("no event at this host yet (an organiser the "
                                             "host's operator names creates them)") + "\n"))
            return out
        chosen = self.chosen()
        for e in self.listed[:6]:
            mark = "class:me" if e.get("id") == chosen else ""
            out.append((mark, " " + ("> " if e.get("id") == chosen else "  ") + _(
                "{title} · {game} at tables of {seats} · {format}{duplicate} · round {round} "
                "of {rounds} · {status} · {n} entrants").format(
                title=e.get("title") or e.get("id"), game=r.game_name(str(e.get("game"))),
                seats=e.get("seats"), format=_(str(e.get("format") or "swiss")),
                duplicate=", " + _("duplicate") if e.get("duplicate") else "",
                round=e.get("round"), rounds=e.get("rounds"), status=_(str(e.get("status"))),
                n=e.get("entrants")) + "\n"))
        event = self.events.get(chosen) if chosen else None
        if event is None:
            out.append(("class:dim", "\n " + _("asking the host...") + "\n"))
            return out
        rounds = int(event.get("round") or 0)
        out.append(("class:heading", "\n " + _("Standings") + "\n"))
        lines = [s for s in event.get("standings") or () if isinstance(s, dict)]
        if not lines:
            out.append(("class:dim", " " + _("nobody has signed up yet") + "\n"))
        width = max(20, r.width() - 2)
        head = f"{'#':>3}  {_('name'):<18} {_('points'):>7} {_('Buchholz'):>8} {_('firsts'):>6}"
        head += "".join(f" {'r' + str(i + 1):>5}" for i in range(rounds))
        out.append(("class:dim", " " + head[:width] + "\n"))
        room = max(3, r.height() - 14 - min(6, len(self.listed)))
        me = c.name.casefold()
        for s in lines[:room]:
            style = ("class:me" if str(s.get("name", "")).casefold() == me
                     else "class:dim" if s.get("status") == "withdrawn" else "")
            per = "".join(f" {points(p) if p is not None else '-':>5}"
                          for p in list(s.get("rounds") or ())[:rounds])
            text = (f"{s.get('rank', '?'):>3}. {cells(str(s.get('name', '?')), 18)} "
                    f"{points(s.get('points')):>7} {points(s.get('buchholz')):>8} "
                    f"{s.get('firsts', 0):>6}{per}")
            if s.get("status") == "withdrawn":
                text += " " + _("(withdrawn)")
            out.append((style, " " + text[:width] + "\n"))
        if len(lines) > room:
            out.append(("class:dim", " " + ngettext("and {n} more", "and {n} more",
                                                    len(lines) - room).format(
                n=len(lines) - room) + "\n"))
        seat = self.seat
        if seat is not None and seat.get("event") == event.get("id"):
            out.append(("class:notice", "\n " + _(
                "round {round}: your table {table}, seat {seat}").format(
                round=seat.get("round"), table=seat.get("table"),
                seat=int(seat.get("seat") or 0) + 1) + "\n"))
        return out

    # --- what it adds to the end of a round at an event's table --------------------------

    def over_words(self) -> str | None:
        """Where this player stands in the event of the table on screen (None: no event)."""
        return standing_line(self.c, event_of(self.c))

    def over_keys(self) -> list[tuple[str, str]] | None:
        """An event seats its next round itself: the standings, or the lobby to wait."""
        if event_of(self.c) is None:
            return None
        return [("e", _("the event's standings")),
                ("l", _("back to the lobby: the event seats the next round and tells you "
                        "where"))]


def open_events(c: Controller) -> None:
    """The events screen (its list asked for again: ``EventsScreen.shown``)."""
    c.show(EventsScreen.name)


def event_of(c: Controller) -> str | None:
    """The event whose round the table on screen plays (None: none)."""
    summary = summary_of(c, c.table_id)
    event = summary.get("event") if summary is not None else None
    return str(event) if event else None


def standing_line(c: Controller, event_id: Any) -> str | None:
    """Where this player stands in ``event_id`` as the host last told it (the round-over
    box of an event's table), or None."""
    event = c.get(EventsScreen).events.get(str(event_id)) if event_id else None
    if not event:
        return None
    me = c.name.casefold()
    mine = next((s for s in event.get("standings") or ()
                 if str(s.get("name", "")).casefold() == me), None)
    if mine is None:
        return None
    return _("{event} after round {round} of {rounds}: you are {rank}. with {points} points "
             "(e: the standings)").format(
        event=event.get("title") or event.get("id"), round=event.get("round"),
        rounds=event.get("rounds"), rank=mine.get("rank"), points=points(mine.get("points")))


def points(value: Any) -> str:
    if isinstance(value, float) and value != int(value):
        return f"{value:.2f}".rstrip("0")
    return str(int(value)) if isinstance(value, int | float) else "-"


# --- the keys -------------------------------------------------------------------------------

def is_entered(c: Controller) -> bool:
    event = c.get(EventsScreen).shown_event()
    me = c.name.casefold()
    return event is not None and any(
        str(s.get("name", "")).casefold() == me and s.get("status") == "in"
        for s in event.get("standings") or ())


def may_join(c: Controller) -> bool:
    event = c.get(EventsScreen).shown_event()
    return event is not None and event.get("status") != "over" and not is_entered(c)


def may_withdraw(c: Controller) -> bool:
    event = c.get(EventsScreen).shown_event()
    return event is not None and event.get("status") != "over" and is_entered(c)


def may_start(c: Controller) -> bool:
    event = c.get(EventsScreen).shown_event()
    return (event is not None and event.get("status") == "signup"
            and str(event.get("organiser", "")).casefold() == c.name.casefold())


def has_event(c: Controller) -> bool:
    return c.get(EventsScreen).shown_event() is not None


def several(c: Controller) -> bool:
    return len(c.get(EventsScreen).listed) > 1


def event_round_over(c: Controller) -> bool:
    return c.table.over and event_of(c) is not None


@FROM_LOBBY.add("e", help=N_("the host's events: sign up, standings"))
def events_key(c: Controller, key: str) -> None:
    """the host's events (tournaments): sign up, follow the rounds, the standings"""
    open_events(c)


@FROM_TABLE.add("e", help=N_("round over: the event's standings"), when=event_round_over)
def standings(c: Controller, key: str) -> None:
    """when an event's round is over at this table: the event's standings (q there: back to
    the lobby, where the next round's table opens once it is seated)"""
    screen = c.get(EventsScreen)
    screen.chosen_id = event_of(c)
    screen.cursor = next((i for i, e in enumerate(screen.listed)
                          if e.get("id") == screen.chosen_id), screen.cursor)
    open_events(c)


@EVENTS.add("up", "down", help=N_("choose an event"), when=several)
def choose_event(c: Controller, key: str) -> None:
    """choose an event among the host's (newest first)"""
    screen = c.get(EventsScreen)
    screen.cursor = max(0, min(len(screen.listed) - 1,
                               screen.cursor + (1 if key == "down" else -1)))
    chosen = screen.chosen()
    if chosen is not None:
        screen.chosen_id = chosen
        c.request("event", event=chosen)


@EVENTS.add("enter", help=N_("sign up (or enter late, or come back)"),
            footer=N_("Enter: sign up"), when=may_join)
def join(c: Controller, key: str) -> None:
    """sign up for the chosen event; after its start, enter late (or come back after
    withdrawing) while its rules allow"""
    chosen = c.get(EventsScreen).chosen()
    if chosen is not None:
        c.request("event_join", event=chosen)


@EVENTS.add("w", help=N_("withdraw from the event"), footer=N_("w: withdraw"),
            when=may_withdraw)
def withdraw(c: Controller, key: str) -> None:
    """withdraw from the chosen event: before its start, your sign-up is taken back; after,
    you sit in no later round and keep your points"""
    chosen = c.get(EventsScreen).chosen()
    if chosen is not None:
        c.request("event_leave", event=chosen)


@EVENTS.add("s", help=N_("start the event (its organiser)"), footer=N_("s: start"),
            when=may_start)
def start(c: Controller, key: str) -> None:
    """start the chosen event (its organiser only): the sign-ups close and round 1 is
    seated"""
    chosen = c.get(EventsScreen).chosen()
    if chosen is not None:
        c.request("event_start", event=chosen)


@EVENTS.add("x", help=N_("write the standings as CSV and as a web page"),
            footer=N_("x: export"), when=has_event)
def export(c: Controller, key: str) -> None:
    """write the chosen event's standings beside the client: EVENT.csv, and EVENT.html, one
    page with nothing to fetch, for a big screen"""
    event = c.get(EventsScreen).shown_event()
    if event is None:
        return
    stem = f"cardparty-{event.get('id')}"
    try:
        Path(f"{stem}.csv").write_text(to_csv(dict(event)), encoding="utf-8")
        Path(f"{stem}.html").write_text(to_html(dict(event)), encoding="utf-8")
    except OSError as exc:
        c.error = _("cannot write the standings: {error}").format(error=exc.strerror or exc)
        return
    c.notice = _("the standings are in {csv} and {html}").format(csv=f"{stem}.csv",
                                                                  html=f"{stem}.html")


# --- the commands ------------------------------------------------------------------------------

@command("events", help=N_("the host's events: sign up, standings"), where=LOBBY_SIDE)
def events_command(c: Controller, table: Any, rest: str) -> None:
    open_events(c)


@command("signup", help=N_("sign up for the event shown (or enter late, or come back)"),
         where=("events",))
def signup_command(c: Controller, table: Any, rest: str) -> None:
    join(c, "enter")


@command("withdraw", help=N_("withdraw from the event shown"), where=("events",))
def withdraw_command(c: Controller, table: Any, rest: str) -> None:
    withdraw(c, "w")


@command("export", help=N_("write the standings of the event shown as CSV and as a web page"),
         where=("events",))
def export_command(c: Controller, table: Any, rest: str) -> None:
    export(c, "x")
