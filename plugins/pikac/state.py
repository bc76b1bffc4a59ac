"""Pikáč's game state: declared fields, copied and saved by the kit (``core.kit``).

Must not know about: the rules (``rules``, ``legality``), sockets, terminals.
"""

from __future__ import annotations

from cardparty.core.kit import GameState, game_state

#: Seat statuses (PK-21): holding cards, out on probation, finished for good.
IN = "in"
PROBATION = "probation"
DONE = "done"

@game_state
class PikacState(GameState):
    """Everything about one Pikáč round.

    The pile's top is ``pile[-1]``, the stock's top is ``stock[-1]`` and its bottom
    ``stock[0]`` (shown to everyone after a Queen starter while ``shown_bottom``, PK-6).
    ``hands[s]`` is in the player's own order.
    """

    n: int
    phase: str                   # "deal" (PK-5), "play", "over"
    dealer: int
    hand_size: int               # 0 until the dealer has chosen (PK-5)
    hands: list[list[str]]
    stock: list[str]
    pile: list[str]
    turn: int
    direction: int               # 1 clockwise, -1 counter-clockwise (PK-7, 2♣)
    suit: str                    # the suit in force; "" when free (Joker, PK-6, PK-10)
    count: int                   # the count of cards to take (PK-14); > 0: a draw is pending
    chain: bool                  # a chain is live (PK-13)
    kd_bar: bool                 # a K♦ was thrown in this chain (PK-16)
    js_cancelled: int | None     # what the chain's last J♠ cancelled, for a 2♥ (PK-14)
    kc_seat: int | None          # who threw this chain's last K♣, for a J♣ (PK-14)
    stops: list[int]             # turns each seat has to miss (PK-19, PK-20)
    status: list[str]            # IN, PROBATION or DONE per seat (PK-21)
    finished: list[int]          # seats in the order they finished for good (PK-22)
    starter_top: bool            # the pile's top is still the starter card (PK-6)
    shown_bottom: bool           # stock[0] is the card shown after a Queen starter (PK-6)
    idle: int                    # draws in a row that found no card at all (stalled round)
    moves: int                   # moves played this round (the round's hard limit)
    outcome: str                 # "" while playing; "finished", "stalled" or "limit"
    drawn: str | None            # the drawn card that may be played: only the variant
                                 # pikac-play-drawn (play_drawn.py) sets it
