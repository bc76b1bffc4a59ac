"""Kakhead's game state: declared fields, copied and saved by the kit (``core.kit``).

Must not know about: the rules (``rules``), sockets, terminals.
"""

from __future__ import annotations

from cardparty.core.kit import GameState, game_state


@game_state
class KakheadState(GameState):
    """Everything about one Kakhead game.

    The pile's top is ``pile[-1]``, the stock's top is ``stock[-1]``. ``hands[s]`` is in the
    player's own order; ``blind[s]`` are face down (KH-3) and nobody, the owner included, may
    see them until one is turned (KH-8).
    """

    n: int
    dealer: int
    phase: str                   # "swap" (KH-3), "play", "over"
    hands: list[list[str]]
    faceup: list[list[str]]
    blind: list[list[str]]
    stock: list[str]
    pile: list[str]
    burned: list[str]            # out of the game (KH-9 10, KH-10)
    ready: list[bool]            # KH-3: said ready in the swap phase
    swaps: list[int]             # swaps made so far in the swap phase (bounded, KH-3)
    turn: int
    direction: int               # 1 clockwise, -1 after an odd number of K-A-Ks (KH-9)
    force_count: int             # cards in the play that set the card in force (8s, KH-9)
    finished: list[int]          # seats in finishing order (KH-11)
    idle: int                    # moves since the game last made progress (KH-12)
    offer_at: int                # the idle count from which a draw may be offered (KH-12)
    offer_by: int                # the seat offering a draw now, -1 when none (KH-12)
    offer_yes: list[int]         # seats that accepted the running offer
    outcome: str                 # "" while playing, "finished" or "draw agreed"
    offer_after: int             # KH-12: the table setting, moves without progress per offer
