"""The check that no message a client received holds another seat's hidden card."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from cardparty.core.simcheck import view_cards


def moves_cards(view: dict[str, Any]) -> Counter[str]:
    """The cards the listed moves name: moves are alternatives, so the most of each card any
    one move names."""
    found: Counter[str] = Counter()
    for m in view.get("moves", ()):
        found |= Counter(m.get("cards", ()))
    return found


TOKEN = re.compile(r"[0-9A-Z+]+")


def check_messages(messages: list[dict[str, Any]], seat: int | None,
                   seen: dict[tuple[str, int], dict[int | None, Counter[str]]],
                   deck: dict[str, set[str]] | None = None) -> int:
    """Every view in ``messages`` (received by the client at ``seat``) shows only cards that
    seat could see at that version; every event carrying cards is the seat's own private
    event or shows cards that were public at some version up to then; and no event's words
    name a card code this seat never could see up to then (``deck``: each table's codes).
    Returns the number of views checked; raises AssertionError naming the leak."""
    checked = 0
    public_upto: dict[tuple[str, int], Counter[str]] = {}
    mine_upto: dict[tuple[str, int], set[str]] = {}
    running: dict[str, Counter[str]] = {}
    codes: dict[str, set[str]] = {}
    for (t, v) in sorted(seen):
        running[t] = running.get(t, Counter()) | seen[(t, v)][None]
        public_upto[(t, v)] = running[t]
        codes[t] = codes.get(t, set()) | set(seen[(t, v)].get(seat, ()))
        mine_upto[(t, v)] = codes[t]
    for msg in messages:
        if msg.get("type") != "view":
            continue
        table, version = msg["table"], msg["version"]
        assert msg["seat"] == seat, f"a view of seat {msg['seat']} reached seat {seat}"
        may_see = seen[(table, version)][seat]
        shown = view_cards(msg["view"]) | moves_cards(msg["view"])
        leaked = shown - may_see
        assert not leaked, (f"seat {seat} was shown {sorted(leaked.elements())} at {table} "
                            f"version {version}")
        public_so_far = public_upto[(table, version)]
        never_seen = (deck or {}).get(table, set()) - mine_upto[(table, version)]
        for event in msg["events"]:
            named = set(TOKEN.findall(str(event.get("text", "")))) & never_seen
            assert not named, f"seat {seat} was told of unseen cards {named}: {event['text']}"
            cards = Counter(event.get("cards", ()))
            if not cards:
                continue
            if event.get("private"):
                assert event.get("seat") == seat, (
                    f"seat {seat} got seat {event.get('seat')}'s private cards: {event}")
            else:
                hidden = cards - public_so_far
                assert not hidden, f"seat {seat} saw hidden cards in an event: {event}"
        checked += 1
    return checked
