"""Piquet's reading of the public history, for the search bot's determinizations.

PQ-11: a player must follow suit if he can. One who did not follow the suit led holds no card
of it for the rest of the deal (in play his hand only shrinks), so a determinization that
deals him one plays a deal that cannot be the real one. During play this module deals the
opponent's hand without the suits he showed he lacks (``core.infer.deal``); his shown
declared cards stay where they are and everything else he might hold (his discards, what is
left of the talons) is dealt from the rest, as ``cardparty_determinize`` does.

It reads only the events as the deciding seat saw them (the plays are public).

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core.hookspecs import hookimpl
from cardparty.core.infer import deal, event_seat
from cardparty.core.kit import redeal

SUITS = "SHDC"
DECK = tuple(r + s for s in SUITS for r in "789TJQKA")


def voids(seat: int, events: list[dict[str, Any]]) -> frozenset[str]:
    """The cards of every suit the other player failed to follow in this deal."""
    lacking: set[str] = set()
    led: str | None = None
    for e in events:
        kind = e.get("type")
        if kind == "deal":
            lacking.clear()
            led = None
        elif kind == "play":
            card = (e.get("cards") or [""])[0]
            if e.get("lead"):
                led = card
            elif led is not None:
                if event_seat(e) != seat and card[1:] != led[1:]:
                    lacking.add(led[1:])
                led = None
    return frozenset(c for c in DECK if c[1:] in lacking)


@hookimpl
def cardparty_bot_sampler(state: Any, seat: int, events: list[dict[str, Any]]
                          ) -> Callable[[random.Random], Any] | None:
    """Determinizations for ``seat`` in play that deal the opponent no card of a suit he did
    not follow (None: before play, or no such suit)."""
    if state.phase != "play":
        return None
    excluded = voids(seat, events)
    if not excluded:
        return None
    other = 1 - seat

    def sample(rng: random.Random) -> Any:
        twin = state.copy()
        hand = twin.hands[other]
        kept = set(twin.shown[other])
        shown = {i for i, c in enumerate(hand) if c in kept}
        zones = [hand, twin.discards[other], twin.talon1, twin.talon2, twin.left]
        fixed = [shown, set(), set(), set(), set()]
        wants = [[excluded] * (len(hand) - len(shown)), [], [], [], []]
        if not deal(rng, zones, fixed, wants):
            redeal(rng, zones, fixed)
        if other == 1 - state.dealer:           # elder's claims: hidden, as determinize has it
            twin.claims = [None, None, None]
        return twin

    return sample
