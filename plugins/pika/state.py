"""Pika's game state: declared fields, copied and saved by the kit (``core.kit``).

Must not know about: the rules (``rules``), sockets, terminals.
"""

from __future__ import annotations

from cardparty.core.kit import GameState, game_state


@game_state
class PikaState(GameState):
    """Everything about one Pika round. The pile's top is ``pile[-1]``, the stock's top is
    ``stock[-1]``; ``hands[s]`` is in the player's own order (PI-14)."""

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
