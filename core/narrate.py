"""Events in words: the one place narration is made ("Eva plays K♣ and sends 12 cards to Petr").

A game may describe its own events (``cardparty_describe``); events several games share (a
reshuffle, the direction turning, the places at the end) have their words here (``common``);
everything else gets a generic sentence from the event's fields, so a client can narrate a game
it has never seen.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from cardparty.core.cards import pretty_all
from cardparty.core.contract import SYSTEM
from cardparty.core.i18n import Msg, plural_msg


def seat_name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return Msg("the table") if seat in (None, SYSTEM) else str(seat)


_SEATS = re.compile(r"\bseats? (\d+(?:(?:, | and )\d+)*)\b")


def with_names(text: str, names: Sequence[str]) -> str:
    """A game's sentence about seats (a result's summary: "seat 3 won (out of cards)",
    "seat 0, 2 won") with the players' names where it says seat numbers; numbers that are no
    seat of ``names`` stay as they are."""
    def name(m: re.Match[str]) -> str:
        seats = [int(n) for n in re.findall(r"\d+", m.group(1))]
        if not names or any(not 0 <= s < len(names) for s in seats):
            return m.group(0)
        joiner = " and " if " and " in m.group(1) else ", "
        return joiner.join(names[s] for s in seats)

    return _SEATS.sub(name, text)


#: "seat " or "seats " before a message's ``{seats}`` field: gone once the field holds names.
_SEAT_WORD = re.compile(r"\bseats? (?=\{seats\})")


def named_summary(summary: str, names: Sequence[str]) -> str:
    """A result's summary as the players read it (docs/protocol.md): where the game names
    seats, their players' names. In a message, the parameter ``seats`` (seat numbers, ``0`` or
    ``0, 2``), in it or in a message it holds, becomes the names, and a "seat {seats}" of a
    game that still writes one loses its "seat"; plain words get ``with_names``. The built-in
    games write "{seats} won ({how})", so the catalogs hold the sentence as it is sent."""
    if isinstance(summary, Msg):
        return _named(summary, names)
    return with_names(summary, names) if summary else summary


def named_label(label: str, names: Sequence[str]) -> str:
    """A move's label as the players read it: a message's parameter ``seats`` (a seat
    number, ``"1"``, or several, ``"0, 2"``), in it or in a message it holds, becomes the
    players' names, and the "seat" before it goes, as in a result's summary
    (``named_summary``): ``Msg("swap hands with {seats}", seats="1")`` reads "swap hands
    with Eva". A plain label's "seat 1" becomes the name too. The table's views do this for
    every label they list (``Table.view``), so a game's labels stay free of names."""
    if type(label) is Msg:
        return _named(label, names) if label.params else label
    return with_names(label, names) if "seat" in label else label


def _named(said: Msg, names: Sequence[str]) -> Msg:
    params: dict[str, Any] = {}
    changed = False
    for key, value in said.params.items():
        if isinstance(value, Msg):
            now: Any = _named(value, names)
        elif key == "seats":
            now = _seat_names(value, names)
        else:
            now = value
        changed = changed or now is not value
        params[key] = now
    if not changed:
        return said
    plural = None if said.plural is None else _SEAT_WORD.sub("", said.plural)
    return Msg._make(_SEAT_WORD.sub("", said.id), plural, said.n, params)


def _seat_names(value: Any, names: Sequence[str]) -> Any:
    """``value`` ("0" or "0, 2", or a number) as the names of those seats; itself when it
    names no seat of ``names``."""
    parts = str(value).split(", ")
    if not names or not all(p.isdigit() and int(p) < len(names) for p in parts):
        return value
    return ", ".join(names[int(p)] for p in parts)


def generic(event: Mapping[str, Any], names: Sequence[str], ascii_only: bool = False) -> str:
    """A plain sentence for any event: who, what kind, which cards or how many. The kind is
    the game's own word (a known one is translated where the sentence is shown)."""
    who = seat_name(names, event.get("seat"))
    kind = str(event.get("type", "event")).replace("_", " ")
    text = event.get("text")
    if isinstance(text, str) and text:
        return Msg("{who}: {text}", who=who, text=text)
    said = Msg("{who} {kind}", who=who, kind=Msg(kind))
    cards = event.get("cards")
    if cards:
        said = Msg("{said} {cards}", said=said, cards=pretty_all(cards, ascii_only))
    elif event.get("count") is not None:
        said = Msg("{said} {count}", said=said,
                   count=plural_msg("{n} card", "{n} cards", int(event["count"])))
    if event.get("choice") is not None:
        said = Msg("{said} ({choice})", said=said, choice=str(event["choice"]))
    return said


def common(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """Words for the events several games share, when the game has none of its own."""
    kind = event.get("type")
    if kind == "reshuffle":
        return Msg("the pile is shuffled into a new stock")
    if kind == "reverse":
        return Msg("the direction turns")
    if kind == "undo" and isinstance(event.get("moves"), int):
        return plural_msg("{who} takes back {n} move, as everybody at the table agreed",
                          "{who} takes back {n} moves, as everybody at the table agreed",
                          int(event["moves"]), who=seat_name(names, event.get("seat")))
    places = event.get("places")
    if kind == "over" and isinstance(places, list):
        order = sorted(range(len(places)), key=lambda s: places[s])
        return Msg("round over: {places}", places=", ".join(
            f"{places[s]}. {seat_name(names, s)}" for s in order))
    return None


class Describer(Protocol):
    """What ``describe`` asks a game's words of: a table's rule hooks (``Table.hook``) or a
    PluginManager's ``pm.hook``."""

    @property
    def cardparty_describe(self) -> Callable[..., str | None]: ...


def describe(event: Mapping[str, Any], names: Sequence[str], hook: Describer | None = None,
             ascii_only: bool = False) -> str:
    """``event`` in words, by the game's own hook when it has one, else ``common`` words, else
    the ``generic`` sentence."""
    if hook is not None:
        said = hook.cardparty_describe(event=event, names=list(names))
        if said:
            return said
    return common(event, names) or generic(event, names, ascii_only)
