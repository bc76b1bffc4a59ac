"""Events in the client (docs/playing.md, "Events"): the events screen, its keys, and the
host's event messages.

Screen it adds: ``events`` (the host's events, newest first, one chosen; its standings below:
rank, name, points, Buchholz, first places and each round's points; the player's own line
marked). From it a player signs up (or enters late, or comes back), withdraws, and, as the
event's organiser, starts it; ``x`` writes the standings beside the client as CSV and as one
HTML page for a big screen. When a round seats him the client says where and opens that
table's waiting room (or the table, once it plays); the round-over box of an event's table
says where he stands (``standing_line``).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardparty.client.keymap import Keys
from cardparty.core.i18n import N_, _
from cardparty.core.tourney.export import to_csv, to_html

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

EVENTS = Keys("events")
#: The key of an event's table once its round is over: the standings.
EVENT_TABLE = Keys("table")


def open_events(c: Controller) -> None:
    """The events screen, its list asked for again (and the chosen event with it)."""
    c.screen = "events"
    c.request("events")
    chosen = chosen_event(c)
    if chosen is not None:
        c.request("event", event=chosen)


def chosen_event(c: Controller) -> str | None:
    if not c.events_list:
        return c.event_id
    c.events_cursor = max(0, min(c.events_cursor, len(c.events_list) - 1))
    return str(c.events_list[c.events_cursor].get("id"))


def shown_event(c: Controller) -> dict[str, Any] | None:
    """The event the screen shows: the chosen one, as the host last told it."""
    chosen = chosen_event(c)
    return None if chosen is None else c.events.get(chosen)


def event_message(c: Controller, msg: dict[str, Any]) -> None:
    """The link's ``events``, ``event`` and ``event_seat`` messages."""
    kind = msg.get("type")
    if kind == "events":
        c.events_list = [e for e in msg.get("events") or () if isinstance(e, dict)]
        chosen = chosen_event(c)
        if chosen is not None and chosen not in c.events:
            c.request("event", event=chosen)
    elif kind == "event":
        event = msg.get("event")
        if isinstance(event, dict) and event.get("id"):
            c.events[str(event["id"])] = event
            if c.event_id is None:
                c.event_id = str(event["id"])
            for i, e in enumerate(c.events_list):     # the list's line follows the event
                if e.get("id") == event["id"]:
                    c.events_list[i] = {**e, **{k: event[k] for k in e if k in event}}
    elif kind == "event_seat":
        c.event_id = str(msg.get("event"))
        c.event_seat = msg
        c.notice = _("{event}, round {round}: table {table}, seat {seat}").format(
            event=msg.get("title") or msg.get("event"), round=msg.get("round"),
            table=msg.get("table"), seat=int(msg.get("seat") or 0) + 1)
        if c.screen in ("events", "lobby"):
            c.screen = "lobby"
            c.pending_room = msg.get("table")     # its waiting room opens once it is listed


def standing_line(c: Controller, event_id: Any) -> str | None:
    """Where this player stands in ``event_id`` as the host last told it (the round-over
    box of an event's table), or None."""
    event = c.events.get(str(event_id)) if event_id else None
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


def is_entered(c: Controller) -> bool:
    event = shown_event(c)
    me = c.name.casefold()
    return event is not None and any(
        str(s.get("name", "")).casefold() == me and s.get("status") == "in"
        for s in event.get("standings") or ())


def may_join(c: Controller) -> bool:
    event = shown_event(c)
    return event is not None and event.get("status") != "over" and not is_entered(c)


def may_withdraw(c: Controller) -> bool:
    event = shown_event(c)
    return event is not None and event.get("status") != "over" and is_entered(c)


def may_start(c: Controller) -> bool:
    event = shown_event(c)
    return (event is not None and event.get("status") == "signup"
            and str(event.get("organiser", "")).casefold() == c.name.casefold())


def has_event(c: Controller) -> bool:
    return shown_event(c) is not None


def several(c: Controller) -> bool:
    return len(c.events_list) > 1


def event_of(c: Controller) -> str | None:
    """The event whose round the table on screen plays (None: none)."""
    event = (c.match_summary() or {}).get("event")
    return str(event) if event else None


def event_round_over(c: Controller) -> bool:
    return c.table.over and event_of(c) is not None


@EVENT_TABLE.add("e", help=N_("round over: the event's standings"), when=event_round_over)
def standings(c: Controller, key: str) -> None:
    """when an event's round is over at this table: the event's standings (q there: back to
    the lobby, where the next round's table opens once it is seated)"""
    c.event_id = event_of(c)
    c.events_cursor = next((i for i, e in enumerate(c.events_list)
                            if e.get("id") == c.event_id), c.events_cursor)
    open_events(c)


@EVENTS.add("up", "down", help=N_("choose an event"), when=several)
def choose_event(c: Controller, key: str) -> None:
    """choose an event among the host's (newest first)"""
    c.events_cursor = max(0, min(len(c.events_list) - 1,
                                 c.events_cursor + (1 if key == "down" else -1)))
    chosen = chosen_event(c)
    if chosen is not None:
        c.event_id = chosen
        c.request("event", event=chosen)


@EVENTS.add("enter", help=N_("sign up (or enter late, or come back)"),
            footer=N_("Enter: sign up"), when=may_join)
def join(c: Controller, key: str) -> None:
    """sign up for the chosen event; after its start, enter late (or come back after
    withdrawing) while its rules allow"""
    chosen = chosen_event(c)
    if chosen is not None:
        c.request("event_join", event=chosen)


@EVENTS.add("w", help=N_("withdraw from the event"), footer=N_("w: withdraw"),
            when=may_withdraw)
def withdraw(c: Controller, key: str) -> None:
    """withdraw from the chosen event: before its start, your sign-up is taken back; after,
    you sit in no later round and keep your points"""
    chosen = chosen_event(c)
    if chosen is not None:
        c.request("event_leave", event=chosen)


@EVENTS.add("s", help=N_("start the event (its organiser)"), footer=N_("s: start"),
            when=may_start)
def start(c: Controller, key: str) -> None:
    """start the chosen event (its organiser only): the sign-ups close and round 1 is
    seated"""
    chosen = chosen_event(c)
    if chosen is not None:
        c.request("event_start", event=chosen)


@EVENTS.add("x", help=N_("write the standings as CSV and as a web page"),
            footer=N_("x: export"), when=has_event)
def export(c: Controller, key: str) -> None:
    """write the chosen event's standings beside the client: EVENT.csv, and EVENT.html, one
    page with nothing to fetch, for a big screen"""
    event = shown_event(c)
    if event is None:
        return
    stem = f"cardparty-{event.get('id')}"
    try:
        Path(f"{stem}.csv").write_text(to_csv(event), encoding="utf-8")
        Path(f"{stem}.html").write_text(to_html(event), encoding="utf-8")
    except OSError as exc:
        c.error = _("cannot write the standings: {error}").format(error=exc.strerror or exc)
        return
    c.notice = _("the standings are in {csv} and {html}").format(csv=f"{stem}.csv",
                                                                  html=f"{stem}.html")


@EVENTS.add("q", "escape", help=N_("back to the lobby"), footer=N_("q: lobby"))
def back_to_lobby(c: Controller, key: str) -> None:
    """back to the lobby"""
    c.screen = "lobby"
