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

from typing import Any

from cardparty.client.economy_link import EconomyLink, send
from cardparty.client.hosttext import host_text
from cardparty.core.i18n import _

ACTIONS = ("events", "event", "event_join", "event_leave", "event_start")


def request(link: EconomyLink, action: str, args: dict[str, Any]) -> None:
    """Send one of ``ACTIONS``; the reply becomes the client's message."""
    fields: dict[str, Any] = {} if action == "events" else {"event": str(args["event"])}
    def answered(reply: dict[str, Any]) -> None:
        if reply.get("type") == "events":
            link.deliver({"type": "events", "events": [drawable(e) for e in
                                                       reply.get("events") or ()]})
        elif reply.get("type") == "event":
            link.deliver({"type": "event", "event": drawable(reply.get("event"))})
        elif action == "event_leave":
            link.deliver({"type": "notice", "text": _("you withdrew from {event}").format(
                event=args["event"])})
            request(link, "event", args)
        elif action == "event_start":
            link.deliver({"type": "notice", "text": _("{event} starts: {n} rounds").format(
                event=args["event"], n=reply.get("rounds"))})


    send(link.session, link.deliver, action, fields, answered)


def drawable(event: Any) -> Any:
    """An event's map with every name and title as it may be drawn (``host_text``)."""
    if not isinstance(event, dict):
        return event
    out = {**event, "title": host_text(str(event.get("title") or ""), 64),
           "organiser": host_text(str(event.get("organiser") or ""), name=True)}
    if isinstance(event.get("standings"), list):
        out["standings"] = [{**s, "name": host_text(str(s.get("name") or "?"), name=True)}
                            for s in event["standings"] if isinstance(s, dict)]
    return out


def pushed(link: EconomyLink, msg: dict[str, Any]) -> bool:
    """A pushed ``event`` or ``event_seat``: delivered; True when it was one."""
    kind = msg.get("type")
    if kind == "event":
        link.deliver({"type": "event", "event": drawable(msg.get("event"))})
        return True
    if kind == "event_seat":
        link.deliver({"type": "event_seat", "event": msg.get("event"),
                      "round": msg.get("round"), "table": msg.get("table"),
                      "seat": msg.get("seat"),
                      "names": [host_text(str(n), name=True) for n in msg.get("names") or ()],
                      "title": host_text(str(msg.get("title") or ""), 64)})
        link.refresh_lobby()                     # the lobby lists the table: its room opens
        return True
    return False
