"""Turn order shared by games: clockwise or counter-clockwise, skipping seats that are out.

Pika's Block and Reverse, Pikáč's stops, K♣ choosing the next player and Kakhead's 8s all
reduce to "the next seat still playing, n steps away in this direction" or "that seat".

Must not know about: any game's rules, sockets, terminals.
"""

from __future__ import annotations

from collections.abc import Sequence

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
