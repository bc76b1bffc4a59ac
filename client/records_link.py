"""Game records on the link to a real host: the player's list of his rounds (``records``),
a round's steps from any seat (``replay``), the shared replay at a table (``replay_lead``,
``replay_end`` and the host's ``replay_shared`` and ``replay_ended`` pushes) and the review
(``review``), as the client's messages (docs/protocol.md, "Game records").

The client's messages it delivers: ``records`` (a page of the player's records, newest first,
and whether older ones remain), ``replay`` (one step of a round as one seat saw it: the view,
that step's events in words; ``shared`` with its leader's name when the table's shared replay
moved), ``replay_ended`` (the leader ended it), ``review`` (the marked decisions, each with
its loss and its reason in the player's language) and one-line ``error``s. Functions of a
``NetLink`` (its session and deliver), kept apart so that the link stays about tables.

Must not know about: game rules, terminals, the screens.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from cardparty.client.economy_link import send
from cardparty.client.hosttext import host_text
from cardparty.client.link import Deliver
from cardparty.client.replay_model import (
    MarkShown,
    RecordsShown,
    ReplayEndedShown,
    ReplayShown,
    ReviewShown,
)
from cardparty.core.contract import View, WireEvent
from cardparty.core.i18n import shown
from cardparty.net.player.session import Session
from cardparty.net.wire.play_replies import HostMessage, ReviewReply
from cardparty.net.wire.record_replies import (
    RecordEntry,
    RecordsReply,
    ReplayEndedPush,
    ReplayReply,
    ReplaySharedPush,
)

ACTIONS = ("records", "replay", "replay_lead", "replay_end", "review")


class RecordsLink(Protocol):
    """What these functions use of the link (``NetLink``)."""

    session: Session
    deliver: Deliver


def request(link: RecordsLink, action: str, args: dict[str, Any]) -> None:
    """Send one of ``ACTIONS`` with the fields ``args`` names (the keywords the client's
    request was given, as ``NetLink.request`` passes them on: any the screen put there);
    the reply becomes the client's message (a refusal, one line of ``error``). Each reply is
    of its request's type: the one cast here reads it as such."""
    if action == "records":
        before = args.get("before")
        send(link.session, link.deliver, action, {"before": before, "most": 20},
             lambda reply: link.deliver({**records_message(cast(RecordsReply, reply),
                                                           before)}))
    elif action == "review":
        send(link.session, link.deliver, action, {"id": str(args["id"])},
             lambda reply: link.deliver({**review_message(cast(ReviewReply, reply))}))
    elif action == "replay_end":
        send(link.session, link.deliver, action, {"table": args["table"]}, ignored)
    else:
        fields = {"step": max(0, int(args.get("step") or 0)), "seat": args.get("seat")}
        if args.get("record") is not None:
            fields["record"] = str(args["record"])
        if action == "replay_lead" or args.get("record") is None:
            fields["table"] = args.get("table")
        if action == "replay_lead":
            fields["record"] = args.get("record")
        answered = ((lambda reply: link.deliver({**step_message(cast(ReplayReply, reply))}))
                    if action == "replay" else ignored)          # replay_lead: its push shows
        send(link.session, link.deliver, action, fields, answered)


def ignored(reply: object) -> None:
    """A reply that says nothing the client shows (``ok``): the host's pushes tell it."""


def records_message(reply: RecordsReply, before: float | None) -> RecordsShown:
    """A host's ``records`` as the client's: each listed record's words as they may be
    drawn, and the ``before`` it answers."""
    return {"type": "records", "records": [entry(r) for r in reply.get("records") or ()
                                           if isinstance(r, dict)],
            "more": bool(reply.get("more")), "before": before}


def entry(r: RecordEntry) -> RecordEntry:
    """A listed record with its host's words as they may be drawn (``host_text``)."""
    return {**r, "names": [host_text(str(n), name=True) for n in r.get("names") or ()],
            "title": host_text(str(r.get("title") or ""), 64)}


def step_message(msg: ReplayReply | ReplaySharedPush) -> ReplayShown:
    """A host's ``replay`` (or ``replay_shared``) as the client's ``replay`` message: the
    view's names and each event's words as they may be drawn."""
    view: View = {**msg["view"]}
    if isinstance(view.get("players"), list):
        view["players"] = [{**p, "name": host_text(str(p.get("name") or ""), name=True)}
                           if isinstance(p, dict) else p for p in view["players"]]
    events: list[WireEvent] = [
        {**e, "text": host_text(shown(e.get("text"), e.get("msg")), 300)}
        for e in msg.get("events") or () if isinstance(e, dict)]
    out: ReplayShown = {
        "type": "replay", "record": msg.get("record"), "table": msg.get("table"),
        "step": int(msg.get("step") or 0), "steps": int(msg.get("steps") or 0),
        "seat": msg.get("seat"), "live": bool(msg.get("live")), "mover": msg.get("mover"),
        "at": msg.get("at"), "view": view, "events": events,
        "shared": msg["type"] == "replay_shared"}
    if msg["type"] == "replay_shared":
        out["leader"] = msg.get("leader")
        out["leader_name"] = host_text(str(msg.get("leader_name") or "?"), name=True)
    return out


def review_message(msg: ReviewReply) -> ReviewShown:
    """A host's ``review`` as the client's: each mark's labels and reason as they may be
    drawn, the reason in the player's language. (``msg`` is the reply to ``review``, whose
    shape the review's part of the wire declares; one that is not makes the one error line
    of ``economy_link.send``.)"""
    marks: list[MarkShown] = [
        {"step": int(m["step"]), "loss": float(m["loss"]),
         "played": host_text(str(m["played"]), 80), "better": host_text(str(m["better"]), 80),
         "reason": host_text(shown(m["reason"], m["reason_msg"]), 300)}
        for m in msg["marks"]]
    return {"type": "review", "record": msg["record"], "seat": msg["seat"],
            "decisions": int(msg["decisions"]), "margin": float(msg["margin"]), "marks": marks}


def pushed(link: RecordsLink, msg: HostMessage) -> bool:
    """A pushed ``replay_shared`` or ``replay_ended``: delivered; True when it was one.
    (``msg``: any message the host pushed, its type not known yet; read as its type's
    shape once it is known.)"""
    kind = msg.get("type")
    if kind == "replay_shared":
        link.deliver({**step_message(cast(ReplaySharedPush, msg))})
        return True
    if kind == "replay_ended":
        ended = cast(ReplayEndedPush, msg)
        told: ReplayEndedShown = {"type": "replay_ended", "table": ended.get("table"),
                                  "record": ended.get("record"),
                                  "by": host_text(str(ended.get("by") or "?"), name=True)}
        link.deliver({**told})
        return True
    return False
