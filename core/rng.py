"""The seeded random number generator every table owns.

A game replays exactly from its seed and its move log (DESIGN: "pure and deterministic"), so
every random choice of a game goes through the ``random.Random`` the driver passes in, and the
generator's state travels in a save as plain data.

Must not know about: games, sockets, terminals.
"""

from __future__ import annotations

import random
from typing import Any


def new_rng(seed: int | str | None) -> random.Random:
    """A generator for ``seed``; None draws a fresh seed from the OS."""
    return random.Random(seed)


def fresh_seed() -> int:
    """A seed for a table whose creator gave none; recorded so the game can be replayed."""
    return random.SystemRandom().getrandbits(63)


def rng_state(rng: random.Random) -> list[Any]:
    """The generator's state as msgpack-ready data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(data: list[Any]) -> random.Random:
    """The generator ``rng_state`` saved, at the same point of its sequence."""
    rng = random.Random()
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng
