"""What is due when, in the order it falls due: the loop's wake costs what is due, not what
exists (the zguide's ``ppqueue``: keep what expires in expiry order, and stop at the first
entry that is not due).

Owns: ``Schedule``, one due time per key (a table, a player) in a heap. Setting a key's time
again leaves its old entry in the heap, stale, to be dropped when it comes to the top (cheaper
than finding it); the heap is rebuilt from the live times when stale entries outnumber them, so
it stays within a small multiple of the keys it holds however often their times move.

Used for every kind of due time of the host: the tables' timers (``timers``), the fill
timeouts and the dropping of tables nobody needs (``model.Tables``), players' liveness and
forgetting (``roster``).

Must not know about: what a key is, the clock (times come in as numbers).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

#: Stale entries the heap may hold beyond twice its live ones before it is rebuilt.
SLACK = 64


class Schedule(Generic[K]):
    """Keys by when they are due, the earliest first."""

    __slots__ = ("_heap", "_at", "_order")

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, K]] = []
        #: each key's live due time (what a heap entry must match to be live)
        self._at: dict[K, float] = {}
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._at)

    def __contains__(self, key: object) -> bool:
        return key in self._at

    def at(self, key: K) -> float | None:
        """When ``key`` is due (None: it is not scheduled)."""
        return self._at.get(key)

    def set(self, key: K, due: float | None) -> None:
        """``key`` is due at ``due`` (None: no longer scheduled)."""
        if due is None:
            self._at.pop(key, None)
            return
        if self._at.get(key) == due:
            return
        self._at[key] = due
        heap = self._heap
        heapq.heappush(heap, (due, next(self._order), key))
        if len(heap) > 2 * len(self._at) + SLACK:
            self._rebuild()

    def discard(self, key: K) -> None:
        self._at.pop(key, None)

    def next_due(self) -> float | None:
        """The earliest due time (None: nothing is scheduled). Drops stale entries on top."""
        heap, at = self._heap, self._at
        while heap:
            due, _, key = heap[0]
            if at.get(key) == due:
                return due
            heapq.heappop(heap)
        return None

    def pop_due(self, now: float, most: int | None = None) -> list[K]:
        """The keys due at ``now`` (at most ``most``), earliest first, taken off the schedule:
        a caller that wants one again sets its time again."""
        heap, at = self._heap, self._at
        out: list[K] = []
        while heap and heap[0][0] <= now and (most is None or len(out) < most):
            due, _, key = heapq.heappop(heap)
            if at.get(key) == due:
                del at[key]
                out.append(key)
        return out

    def _rebuild(self) -> None:
        order = self._order
        self._heap = [(due, next(order), key) for key, due in self._at.items()]
        heapq.heapify(self._heap)
