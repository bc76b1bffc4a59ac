"""Pika's game state: plain fields, copied cheaply, saved as a map.

Must not know about: the rules (``rules``), sockets, terminals.
"""

from __future__ import annotations

from typing import Any

FIELDS = ("n", "hands", "stock", "pile", "turn", "direction", "colour", "pending",
          "pending_kind", "drawn", "idle", "out_pending", "warned", "places", "outcome",
          "dealer", "warning_seconds")


class PikaState:
    """Everything about one Pika round. The pile's top is ``pile[-1]``, the stock's top is
    ``stock[-1]``; ``hands[s]`` is in the player's own order (PI-14)."""

    __slots__ = FIELDS

    n: int
    hands: list[list[str]]
    stock: list[str]
    pile: list[str]
    turn: int
    direction: int
    colour: str                  # the colour in force (chosen after a black card)
    pending: int                 # accumulated +2/+4 draw, 0 when none (PI-9)
    pending_kind: str            # "+2" or "+4" while pending: what may chain
    drawn: str | None            # the card just drawn that may be played at once (PI-5)
    idle: int                    # turns in a row on which no card moved (PI-6)
    out_pending: list[int]       # seats that went out on a +2/+4 still in play (PI-11)
    warned: list[int]            # seats whose Pika warning runs (PI-10)
    places: list[int] | None     # set when the round is over
    outcome: str
    dealer: int
    warning_seconds: float

    def copy(self) -> PikaState:
        twin = PikaState.__new__(PikaState)
        for name in FIELDS:
            setattr(twin, name, getattr(self, name))
        twin.hands = [list(h) for h in self.hands]
        twin.stock = list(self.stock)
        twin.pile = list(self.pile)
        twin.out_pending = list(self.out_pending)
        twin.warned = list(self.warned)
        twin.places = None if self.places is None else list(self.places)
        return twin

    def to_data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in FIELDS}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PikaState:
        state = cls.__new__(cls)
        for name in FIELDS:
            setattr(state, name, data[name])
        return state.copy()
