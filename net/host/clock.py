"""The host's one source of time.

Owns: ``Clock`` (what a part asks: ``now()``, monotonic seconds for timers, liveness and
rates; ``wall()``, seconds since the epoch for what a message shows as a time of day),
``SystemClock`` (the real one) and ``ManualClock`` (a clock a test moves by hand, so that
timers and liveness are tested in milliseconds without sleeping).

Every part of the host is given one Clock when it is built and never reads ``time`` itself:
a test that moves the clock moves the whole host.

Must not know about: sockets, tables, players.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds: timers, liveness, rate limits."""
        ...

    def wall(self) -> float:
        """Seconds since the epoch: the time a chat line or a pong shows."""
        ...


class SystemClock:
    """The machine's clocks."""

    now = staticmethod(time.monotonic)
    wall = staticmethod(time.time)


class ManualClock:
    """A clock that moves only when told (tests)."""

    def __init__(self, start: float = 1000.0, wall: float = 1_800_000_000.0) -> None:
        self.t = start
        self.w = wall

    def now(self) -> float:
        return self.t

    def wall(self) -> float:
        return self.w + self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
