"""Events and ratings on the link to a real host (docs/protocol.md, "Events and ratings"): the
requests ``events``, ``event``, ``event_join``, ``event_leave`` and ``event_start``, and the
host's ``event`` and ``event_seat`` pushes, as the client's messages.

The client's messages it delivers: ``events`` (every event the host keeps, newest first),
``event`` (one event whole: its standings and rounds), ``event_seat`` (where this player sits
in a round just seated) and one-line ``notice``s. Every name in them is made fit to draw
(``host_text``). Functions of a ``NetLink`` (its session and deliver), kept apart so that the
link stays about tables.

Must not know about: game rules, terminals, the screens.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from cardparty.client.economy_link import EconomyLink, send
from cardparty.client.hosttext import host_text
from cardparty.core.i18n import _
from cardparty.net.wire.event_replies import (
    EventBrief,
    EventPush,
    EventReply,
    EventSeat,
    EventSeatPush,
    EventsReply,
    EventStartReply,
    EventWire,
)
from cardparty.net.wire.play_replies import HostMessage

ACTIONS = ("events", "event", "event_join", "event_leave", "event_start")


class EventsShown(TypedDict):
    """The client's ``events`` message: every event the host keeps, newest first, their
    words as they may be drawn."""

    type: Literal["events"]
    events: list[EventBrief]


class EventShown(TypedDict):
    """The client's ``event`` message: one event whole, its words as they may be drawn."""

    type: Literal["event"]
    event: EventWire


class EventSeatShown(EventSeat):
    """The client's ``event_seat`` message: where a round just seated this player, the
    names and title as they may be drawn."""

    type: Literal["event_seat"]


def request(link: EconomyLink, action: str, args: dict[str, Any]) -> None:
    """Send one of ``ACTIONS`` (``args``: the keywords the client's request was given, as
    ``NetLink.request`` passes them on); the reply becomes the client's message. Each reply
    is of its request's type: the one cast here reads it as such."""
    fields = {} if action == "events" else {"event": str(args["event"])}
    if action == "events":
        send(link.session, link.deliver, action, fields,
             lambda reply: told_events(link, cast(EventsReply, reply)))
    elif action in ("event", "event_join"):
        send(link.session, link.deliver, action, fields,
             lambda reply: told_event(link, cast(EventReply, reply)))
    elif action == "event_leave":
        def left(reply: object) -> None:
            link.deliver({"type": "notice", "text": _("you withdrew from {event}").format(
                event=args["event"])})
            request(link, "event", args)

        send(link.session, link.deliver, action, fields, left)
    elif action == "event_start":
        def started(reply: EventStartReply) -> None:
            link.deliver({"type": "notice", "text": _("{event} starts: {n} rounds").format(
                event=args["event"], n=reply.get("rounds"))})

        send(link.session, link.deliver, action, fields,
             lambda reply: started(cast(EventStartReply, reply)))


def told_events(link: EconomyLink, msg: EventsReply) -> None:
    """The host's events as the client's ``events`` message."""
    out: EventsShown = {"type": "events", "events": [
        drawable_brief(e) for e in msg.get("events") or () if isinstance(e, dict)]}
    link.deliver({**out})


def told_event(link: EconomyLink, msg: EventReply | EventPush) -> None:
    """One event (the reply to ``event``, ``event_create`` and ``event_join``, or its push)
    as the client's ``event`` message."""
    event = msg.get("event")
    if isinstance(event, dict):
        out: EventShown = {"type": "event", "event": drawable(event)}
        link.deliver({**out})


def drawable_brief(event: EventBrief) -> EventBrief:
    """An ``events`` entry with its title and organiser as they may be drawn
    (``host_text``)."""
    return {**event, "title": host_text(str(event.get("title") or ""), 64),
            "organiser": host_text(str(event.get("organiser") or ""), name=True)}


def drawable(event: EventWire) -> EventWire:
    """An event's map with every name and title as it may be drawn (``host_text``)."""
    out: EventWire = {**event, "title": host_text(str(event.get("title") or ""), 64),
                      "organiser": host_text(str(event.get("organiser") or ""), name=True)}
    if isinstance(event.get("standings"), list):
        out["standings"] = [{**s, "name": host_text(str(s.get("name") or "?"), name=True)}
                            for s in event["standings"] if isinstance(s, dict)]
    return out


def pushed(link: EconomyLink, msg: HostMessage) -> bool:
    """A pushed ``event`` or ``event_seat``: delivered; True when it was one. (``msg``: any
    message the host pushed, its type not known yet; read as its type's shape once it is
    known.)"""
    kind = msg.get("type")
    if kind == "event":
        told_event(link, cast(EventPush, msg))
        return True
    if kind == "event_seat":
        seat = cast(EventSeatPush, msg)
        out: EventSeatShown = {
            "type": "event_seat", "event": seat.get("event"), "round": seat.get("round"),
            "table": seat.get("table"), "seat": seat.get("seat"),
            "names": [host_text(str(n), name=True) for n in seat.get("names") or ()],
            "title": host_text(str(seat.get("title") or ""), 64)}
        link.deliver({**out})
        link.refresh_lobby()                     # the lobby lists the table: its room opens
        return True
    return False
