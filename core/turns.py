"""Turn order shared by games: clockwise or counter-clockwise, skipping seats that are out.

Pika's Block and Reverse, Pikáč's stops, K♣ choosing the next player and Kakhead's 8s all
reduce to "the next seat still playing, n steps away in this direction" or "that seat".
Bot-only drivers (the referee's any-order mode, the search bot) draw who acts next here too.

Must not know about: any game's rules, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardparty.core.contract import SYSTEM

CLOCKWISE = 1
COUNTER_CLOCKWISE = -1


def next_seat(seat: int, direction: int, playing: Sequence[bool], steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` in ``direction``, counting only seats whose
    ``playing`` flag is set. ``seat`` itself need not be playing. If nobody else plays, the
    answer is ``seat`` when it plays (it keeps the turn)."""
    n = len(playing)
    current = seat
    for _ in range(steps):
        for _ in range(n):
            current = (current + direction) % n
            if playing[current]:
                break
        else:
            return seat
    return current


def seats_in_order(start: int, direction: int, n: int) -> list[int]:
    """All n seats starting at ``start`` and going round in ``direction``."""
    return [(start + direction * i) % n for i in range(n)]


def draw_actor(actors: Sequence[int], deadline: bool, rng: random.Random) -> int | None:
    """One of ``actors`` (plus SYSTEM when a deadline runs), drawn with ``rng``; None when
    nobody can move. The draw is skipped when there is only one, so the rng's stream is the
    simulator's whichever driver (a table, or the search on its own states) asks."""
    if deadline:
        actors = (*actors, SYSTEM)
    if len(actors) == 1:
        return actors[0]
    if not actors:
        return None
    return actors[rng.randrange(len(actors))]
