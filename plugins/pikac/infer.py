"""Pikáč's reading of the public history, for the search bot's determinizations.

Nothing a Pikáč player does tells his hand for certain: he may draw when he does not want to
play (PK-9), take a count he could pass on (PK-11) and stand when he could counter with Aces
(PK-20). But a player who wants to win chooses for reasons, and the reasons of a careful
player are the normal policy's (``bot``): he passes a count on when he can, with an adder
before a defender and the defence he needs least before the others; he sheds as many normal
cards of a rank as he holds, an Ace before a single normal card, and draws rather than throw a
defender idly. So every choice he makes rules out the cards that would have made another
choice better by those reasons, at that moment (``excluded_by_choice``): a player who passed
a count with 2♦ held no adder and no cheaper defender; one who threw one 5♥ holds no other
normal 5 and held no Ace that fitted. Each such fact is weighed (``CHOICE_WEIGHT``: a player
is not always careful) and binds the cards he held then (``core.infer``); the search deals the
other hands so that they respect the facts in proportion to their weights.

To judge a choice it follows the public state from the events (``Context``: the top card, the
suit in force, the count, the chain and its K♦ bar, stops, hand sizes, the direction) and asks
the rules' own test of which cards may open a throw (``legality``). It reads only the events
as the deciding seat saw them (other seats' cards are counts) and the hands' sizes.

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from cardparty.core.contract import Move
from cardparty.core.hookspecs import hookimpl
from cardparty.core.infer import Knowledge, Refill, event_seat, event_size, sampler
from cardparty.plugins.pikac.bot import _score
from cardparty.plugins.pikac.deck import ACE, CLASS, CODES, FUNCTION, GROUP, GROUP_MEMBERS, QUEEN
from cardparty.plugins.pikac.deck import SUIT_OF as SUIT
from cardparty.plugins.pikac.legality import _openers as openers
from cardparty.plugins.pikac.state import DONE, IN, PROBATION, PikacState

#: The chance that a player's choice was made for the normal policy's reasons (a careful
#: player's): the cards a better choice needed are then not in his hand.
CHOICE_WEIGHT = 0.98
#: The chance that a player who took a count held nothing that passes it (kept for the tests
#: that read it: a take is a choice like the others).
TAKE_WEIGHT = CHOICE_WEIGHT
ACES = frozenset(c for c in CODES if CLASS[c] == ACE)


@dataclass
class Context:
    """The public state of a round, followed from its events: what ``legality``'s opener
    test and the normal policy's scores read (the names are ``PikacState``'s)."""

    n: int
    pile: list[str] = field(default_factory=lambda: ["X"])
    suit: str = ""
    count: int = 0
    chain: bool = False
    kd_bar: bool = False
    starter_top: bool = True
    direction: int = 1
    stops: list[int] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stops = [0] * self.n
        self.status = [IN] * self.n
        self.sizes = [0] * self.n

    def openers(self, seat: int) -> list[str]:
        """The card codes that could open a throw of ``seat`` now (PK-10, PK-11, PK-16, PK-20)."""
        return openers(cast(PikacState, self), seat, CODES)

    def danger(self, seat: int) -> bool:
        """The normal policy's alarm: the next seat holds two cards or fewer (a seat that
        finished holds none: the policy reads only the count, places come at the end)."""
        return self.sizes[(seat + self.direction) % self.n] <= 2

    def follow(self, e: dict[str, Any]) -> None:
        """The public state after event ``e``."""
        kind, who = e.get("type"), event_seat(e)
        if kind == "dealt":
            self.sizes[who] = event_size(e)
        elif kind == "starter":
            self.pile = [e["cards"][0]]
            self.suit = SUIT[self.pile[-1]]
            self.starter_top = True
        elif kind == "shown":
            self.suit = e.get("choice") or ""
        elif kind == "play":
            self._played(who, e["cards"], e.get("choice"))
        elif kind == "count":
            self.count = int(e.get("count") or 0)
        elif kind == "reverse":
            self.direction = -self.direction
        elif kind == "stop":
            self.stops[who] += int(e.get("count") or 0)
        elif kind == "stand":
            self.stops[who] = int(e.get("count") or 0)
        elif kind in ("draw", "take"):
            self.sizes[who] += event_size(e)
            self.count = 0
            self.chain = self.kd_bar = False
        elif kind == "out":
            self.status[who] = PROBATION
        elif kind == "back":
            self.status[who] = IN
        elif kind == "finished":
            self.status[who] = DONE

    def _played(self, who: int, cards: list[str], choice: str | None) -> None:
        self.sizes[who] -= len(cards)
        last = cards[-1]
        self.pile = [last]
        self.starter_top = False
        if CLASS[last] == FUNCTION:
            self.chain = True
            self.suit = SUIT[last]
            self.kd_bar = self.kd_bar or last == "KD"
            return
        self.chain = self.kd_bar = False
        self.suit = (choice or "") if CLASS[last] == QUEEN else SUIT[last]
        if CLASS[last] == ACE:
            self.stops[who] = 0


def excluded_by_choice(ctx: Context, who: int, e: dict[str, Any]) -> frozenset[str]:
    """The cards that would have made the normal policy choose otherwise than event ``e``
    of ``who`` (a throw, a draw, a take, a stand), judged in ``ctx`` just before it: for a
    throw, those left in his hand afterwards; otherwise those in his hand then."""
    kind = e.get("type")
    left = ctx.sizes[who]
    opening = ctx.openers(who)
    if kind == "take" or kind == "stand":
        return frozenset(opening)                   # PK-11, PK-20: he would have thrown
    pending = ctx.count
    danger = ctx.danger(who)
    hand = ["?"] * left                             # _score reads only the hand's size

    def score(cards: tuple[str, ...]) -> float:
        return _score(Move("play", cards), hand, pending, danger, left)

    if kind == "draw":
        if pending or ctx.stops[who]:
            return frozenset()
        if left <= 4:
            return frozenset(opening)               # a small hand draws only with no throw
        return frozenset(c for c in opening if score((c,)) >= 5.0)
    if kind != "play":
        return frozenset()
    cards = tuple(e["cards"])
    if len(cards) >= left:
        return frozenset()                          # he went out: every throw would
    chosen = score(cards)
    out = {c for c in opening if score((c,)) > chosen}
    group = GROUP[cards[0]]
    if group is not None and score((*cards, cards[0])) > chosen:
        out.update(GROUP_MEMBERS[group])            # he threw all of the group he held
    return frozenset(out)


def knowledge(state: Any, seat: int, events: list[dict[str, Any]]) -> Knowledge | None:
    """The weighted facts ``seat`` learnt about the other hands, or None when the history
    cannot be counted back to the deal; facts that do not add up to the hands' sizes (a
    variant that changes the rules) are set aside by ``core.infer.sampler``."""
    counts = [len(h) for h in state.hands]
    for e in events:
        kind, who = e.get("type"), event_seat(e)
        if kind in ("dealt", "draw", "take"):
            counts[who] -= event_size(e)
        elif kind == "play":
            counts[who] += len(e["cards"])
    if min(counts) < 0:
        return None
    know = Knowledge(counts)
    ctx = Context(state.n)
    for e in events:
        kind, who = e.get("type"), event_seat(e)
        other = 0 <= who != seat and ctx.status[who] != DONE
        if kind == "play":
            facts = excluded_by_choice(ctx, who, e) if other else frozenset()
            for card in e["cards"]:
                know.lose(who, card)
            if facts:
                know.learn(who, facts, CHOICE_WEIGHT)
        elif kind in ("take", "draw", "stand") and other:
            facts = excluded_by_choice(ctx, who, e)
            if facts:
                know.learn(who, facts, CHOICE_WEIGHT)
        if kind in ("take", "draw", "dealt"):
            know.gain(who, event_size(e))
        ctx.follow(e)
    return know


def refill(state: Any, seat: int, events: list[dict[str, Any]]) -> Refill:
    """PK-24 followed from the events: the pile since the last refill, the stock's size, and
    the refill's cards less those ``seat`` drew (``core.infer.Refill``)."""
    whole = sum(len(h) for h in state.hands) + len(state.stock) + len(state.pile)
    track = Refill(whole)
    for e in events:
        kind, who = e.get("type"), event_seat(e)
        if kind == "starter":
            track.turned(e["cards"][0])
        elif kind == "play":
            track.thrown(e["cards"])
        elif kind == "reshuffle":
            track.refilled()
        elif kind in ("dealt", "draw", "take"):
            track.drawn(event_size(e), e.get("cards") if who == seat else None)
    return track


@hookimpl
def cardparty_bot_sampler(state: Any, seat: int, events: list[dict[str, Any]]
                          ) -> Callable[[random.Random], Any] | None:
    """Determinizations for ``seat`` weighted by what the history told it (None: nothing was
    learnt, the plain ``cardparty_determinize`` does as well); the stock's shown bottom card
    stays where it is, and after a refill (PK-24) the stock is dealt from the refill's cards
    that nobody is known to have drawn."""
    hidden = [c for zone in _hidden(state, [s for s in range(state.n) if s != seat])
              for c in zone]
    return sampler(state, seat, state.n, knowledge(state, seat, events), _hidden,
                   {0} if state.shown_bottom else None,
                   refill(state, seat, events).stock_from(hidden, len(state.stock)))


def _hidden(twin: Any, others: list[int]) -> list[list[str]]:
    """The zones a seat cannot see: the others' hands, then the stock."""
    return [twin.hands[s] for s in others] + [twin.stock]


__all__ = ["ACES", "CHOICE_WEIGHT", "TAKE_WEIGHT", "Context", "cardparty_bot_sampler",
           "excluded_by_choice", "knowledge", "refill"]
