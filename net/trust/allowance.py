"""How much one key, or one source address, may ask of a host: a token bucket per key or
address, the one rule for every limit counted that way (requests a second in the host's
``server``, lobby chat lines in ``lobby_chat``, new keys and names in ``roster``, invitations,
new connections a second in ``fdbudget``'s door, the key desk's answers to one address and its
new connections).

Owns: ``Allowances``, the buckets by key (the host's quota key: the key ZeroMQ authenticated,
so a new name or a new connection of the same key does not refill it) or by address
(``for_addresses``: what the ZAP handler saw, so a new key does not refill it). A bucket holds
``burst`` and refills at ``rate`` a second; the buckets are kept in the order their keys were
last heard, and the least recently heard go once their bucket would be full again anyway (or
past ``most`` keys): the memory follows the keys of the last seconds, not of all time. A limit
of the whole (the desk's new connections) is one key's bucket.

Must not know about: sockets, players, what is being counted.
"""
from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class Bucket:
    __slots__ = ("left", "at")

    def __init__(self, left: float, at: float) -> None:
        self.left = left
        self.at = at


class Allowances(Generic[K]):
    """See the module docstring."""

    __slots__ = ("rate", "burst", "most", "_buckets")

    def __init__(self, rate: float, burst: float, most: int) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self._buckets: OrderedDict[K, Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def spend(self, key: K, now: float, amount: float = 1.0) -> bool:
        """Take ``amount`` from ``key``'s bucket; False (and nothing taken) when it holds less."""
        buckets = self._buckets
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = Bucket(self.burst, now)
            full_after = self.burst / self.rate if self.rate > 0 else math.inf
            for _ in range(2):
                oldest = next(iter(buckets.values()))
                if len(buckets) > self.most or now - oldest.at > full_after:
                    buckets.popitem(last=False)
                else:
                    break
        else:
            buckets.move_to_end(key)
        left = min(self.burst, bucket.left + (now - bucket.at) * self.rate)
        bucket.at = now
        if left < amount:
            bucket.left = left
            return False
        bucket.left = left - amount
        return True

    def due(self, key: K, now: float) -> float:
        """When ``key``'s bucket next holds one (``now`` if it does): when a refused key may
        be read again."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return now
        left = min(self.burst, bucket.left + (now - bucket.at) * self.rate)
        if left >= 1.0:
            return now
        return now + (1.0 - left) / self.rate if self.rate > 0 else now + 3600.0

    def refund(self, key: K, amount: float = 1.0) -> None:
        """Give back ``amount`` that was spent for nothing (what it paid for did not happen)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.left = min(self.burst, bucket.left + amount)

    def charge(self, key: K, more: float) -> None:
        """A costly request takes ``more`` from ``key``'s bucket (which may go below zero: the
        key's next requests wait until it is paid back)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.left -= more


#: Addresses whose allowance is remembered at most (a LAN has far fewer).
MOST_ADDRESSES = 4096


def for_addresses(limit: tuple[float, float]) -> Allowances[str]:
    """Buckets by source address for ``limit``: (a burst, then so many a second), as
    ``config.Guests`` gives them."""
    burst, rate = limit
    return Allowances(rate, burst, MOST_ADDRESSES)
