"""What the public history tells about the hidden hands, for the search's determinizations.

A player who had to draw because nothing fitted held, at that moment, no card that fits; a
player who took a pending count instead of passing it on probably held nothing that passes
it. A determinization that deals him such cards plays a game that cannot be the real one, and
a search on it learns the wrong thing (that naming his missing colour gains nothing, for one).
This module keeps that knowledge as *facts* (a set of cards a seat's cards of that moment do
not include, with a weight: 1 when the rules make it certain, less when the move was a
choice) and deals hidden cards that respect them.

Every card a seat holds is a *slot* carrying the facts learnt while it was in the hand. A
fact is added to every slot the seat holds when it is learnt; a card drawn later carries none
of it. A played card comes out of the most constrained slot it is consistent with: whatever
slot it really came from, what is left is then at most as constrained as the truth, so every
certain fact kept is true of the real hand (the slots of one seat are nested: an older slot
carries every fact a newer one does). Weighted facts are drawn per sample: each holds in a
sample with its weight.

A game feeds a ``Knowledge`` from the events its seat saw (``Table.events_for``: other seats'
private cards are counts) and the public parts of its state, and answers its
``cardparty_bot_sampler`` with ``sampler``, which deals with ``deal``. It must
not know about any particular game, sockets, terminals; it never sees a hidden card.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardparty.core.contract import SYSTEM
from cardparty.core.kit import redeal


def event_seat(event: Mapping[str, Any]) -> int:
    """The seat an event names, SYSTEM (-1) for the table itself (a reshuffle, the end)."""
    seat = event.get("seat")
    return SYSTEM if seat is None else int(seat)


def event_size(event: Mapping[str, Any]) -> int:
    """How many cards an event moved: its cards, or the count a redacted one shows."""
    cards = event.get("cards")
    return len(cards) if cards is not None else int(event.get("count") or 0)


class Knowledge:
    """The facts about every seat's hand that one seat learnt from the public history."""

    def __init__(self, counts: Sequence[int]) -> None:
        #: Per seat, one tuple of fact ids per card held (oldest cards first).
        self.slots: list[list[tuple[int, ...]]] = [[() for _ in range(max(0, c))]
                                                   for c in counts]
        #: Per fact: the cards it excludes and the chance that it holds.
        self.facts: list[tuple[frozenset[str], float]] = []
        #: Weighted facts a played card showed to be wrong.
        self.refuted: set[int] = set()

    def learn(self, seat: int, excluded: frozenset[str], weight: float = 1.0) -> int:
        """Every card ``seat`` holds now is none of ``excluded`` (with chance ``weight``)."""
        fact = len(self.facts)
        self.facts.append((excluded, weight))
        self.slots[seat] = [slot + (fact,) for slot in self.slots[seat]]
        return fact

    def gain(self, seat: int, n: int, facts: tuple[int, ...] = ()) -> None:
        """``seat`` took ``n`` cards it alone saw (carrying ``facts``: a drawn card that did
        not fit is none of the cards that would have)."""
        self.slots[seat].extend([facts] * max(0, n))

    def _excluded(self, slot: tuple[int, ...], alive: Sequence[bool] | None = None
                  ) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for f in slot:
            if f not in self.refuted and (alive is None or alive[f]):
                out = out | self.facts[f][0]
        return out

    def lose(self, seat: int, card: str) -> None:
        """``seat`` played ``card``: it came out of the most constrained slot it fits (the
        slots are nested, so what is left is never more constrained than the truth)."""
        slots = self.slots[seat]
        if not slots:
            return
        fitting = [i for i, s in enumerate(slots) if card not in self._excluded(s)]
        if not fitting:
            # A weighted fact was wrong (a certain one cannot be): forget the weighted facts
            # the card contradicts, then the least constrained slot gives it up.
            for s in slots:
                for f in s:
                    if self.facts[f][1] < 1.0 and card in self.facts[f][0]:
                        self.refuted.add(f)
            fitting = [i for i, s in enumerate(slots) if card not in self._excluded(s)]
            if not fitting:
                fitting = [min(range(len(slots)), key=lambda i: len(slots[i]))]
        best = max(fitting, key=lambda i: len(slots[i]))
        del slots[best]

    def constrained(self) -> bool:
        """Whether any seat's cards carry a fact still standing."""
        return any(f not in self.refuted for slots in self.slots for s in slots for f in s)

    def draw_excluded(self, seats: Sequence[int], rng: random.Random
                      ) -> list[list[frozenset[str]]]:
        """For one sample: per seat in ``seats``, the cards each of its slots excludes (only
        the non-empty ones), the weighted facts drawn by ``rng`` in the order learnt."""
        alive = [w >= 1.0 or rng.random() < w for _, w in self.facts]
        out: list[list[frozenset[str]]] = []
        for seat in seats:
            found = [self._excluded(s, alive) for s in self.slots[seat]]
            out.append([e for e in found if e])
        return out


def deal(rng: random.Random, zones: Sequence[list[str]], fixed: Sequence[set[int]],
         excluded: Sequence[Sequence[frozenset[str]]],
         known: Sequence[Sequence[str]] | None = None) -> bool:
    """Redeal the cards of ``zones`` that are not at a ``fixed`` position, in place and each
    zone keeping its size, so that zone k holds ``known[k]`` (cards the history showed going
    there: a pile a player took) and, for each set in ``excluded[k]``, one more card outside
    it; False (the zones untouched) when this sample's facts cannot all be met.

    As ``kit.redeal``, the pool is sorted first: the result depends on what the seat sees and
    the rng, never on where the hidden cards lie. The known cards are placed first, then the
    most constrained cards, each drawn uniformly among the cards still free that it allows.
    """
    musts = known if known is not None else [()] * len(zones)
    if any(len(exs) + len(must) > len(zone) - len(kept)
           for zone, kept, exs, must in zip(zones, fixed, excluded, musts, strict=True)):
        return False
    pool = sorted(c for zone, kept in zip(zones, fixed, strict=True)
                  for i, c in enumerate(zone) if i not in kept)
    picked: list[list[str]] = [[] for _ in zones]
    for k, must in enumerate(musts):
        for card in must:
            at = bisect.bisect_left(pool, card)
            if at == len(pool) or pool[at] != card:
                return False
            picked[k].append(pool.pop(at))
    wants = sorted(((len(ex), k, j, ex) for k, exs in enumerate(excluded)
                    for j, ex in enumerate(exs)), key=lambda w: (-w[0], w[1], w[2]))
    for _, k, _, ex in wants:
        allowed = [i for i, c in enumerate(pool) if c not in ex]
        if not allowed:
            return False
        picked[k].append(pool.pop(allowed[rng.randrange(len(allowed))]))
    rng.shuffle(pool)
    it = iter(pool)
    for zone, kept, mine in zip(zones, fixed, picked, strict=True):
        free = len(zone) - len(kept)
        fill = mine + [next(it) for _ in range(free - len(mine))]
        cards = iter(fill)
        zone[:] = [c if i in kept else next(cards) for i, c in enumerate(zone)]
    return True


class Refill:
    """What a seat knows of a stock refilled from the pile (``core.stock``: every pile card
    but the top one, shuffled under an empty stock).

    The refill's cards are the cards it saw thrown since the last refill, so until the next
    one the stock holds only cards of it, less those the seat drew itself; the others' draws
    since took cards of it too, unseen, which ``stock_from`` leaves to chance. Without this a
    sample pours the others' old hands and the refill together and deals the stock from both:
    after a refill the stock is the one zone of the deal the seat can count exactly.

    A game's tracker feeds it the events in order: ``turned`` (a card turned from the stock
    onto the pile), ``thrown``, ``refilled`` (the event a refill writes before its draw's own)
    and ``drawn`` (every card leaving the stock: a deal, a draw, a count taken)."""

    def __init__(self, cards: int) -> None:
        #: The stock's size; ``cards`` is the whole deck, the stock before the deal.
        self.stock = cards
        self.pile: list[str] = []
        #: The last refill's cards less those the seat drew; None before any refill.
        self.refill: Counter[str] | None = None
        self._due = False

    def turned(self, card: str) -> None:
        self.stock -= 1
        self.pile.append(card)

    def thrown(self, cards: Iterable[str]) -> None:
        self.pile.extend(cards)

    def refilled(self) -> None:
        self._due = True

    def drawn(self, n: int, cards: Sequence[str] | None = None) -> None:
        """``n`` cards left the stock; ``cards`` when the seat saw them (its own). A draw that
        refilled took the old stock's cards first (``core.stock.draw``), then the refill's."""
        fresh = cards
        if self._due:
            self._due = False
            moved, self.pile = self.pile[:-1], self.pile[-1:]
            self.refill = Counter(moved)
            fresh = cards[self.stock:] if cards is not None else None
            self.stock += len(moved)
        self.stock -= n
        if self.refill is not None and fresh:
            self.refill.subtract(fresh)

    def stock_from(self, hidden: Iterable[str], stock: int) -> list[str] | None:
        """The cards the stock of ``stock`` cards is drawn from (sorted: what the seat saw,
        not where the cards lie), given the cards it cannot see; None before any refill, or
        when the history does not add up to the stock (a variant's other rules)."""
        if self.refill is None or self.stock != stock:
            return None
        held = +self.refill & Counter(hidden)
        pool = sorted(held.elements())
        return pool if len(pool) >= stock else None


def sampler(state: Any, seat: int, players: int, know: Knowledge | None,
            hidden: Callable[[Any, list[int]], list[list[str]]],
            stock_fixed: set[int] | None = None,
            stock_from: Sequence[str] | None = None) -> Callable[[random.Random], Any] | None:
    """A game's ``cardparty_bot_sampler`` from its ``Knowledge``: each sample copies
    ``state`` and deals the cards of ``hidden(twin, others)`` (the other seats' hands, in
    ``others``' order, then the stock, whose positions ``stock_fixed`` the seat can see) so
    that the facts hold, or as the plain ``kit.redeal`` when this sample's facts cannot all be
    met. ``stock_from`` (``Refill.stock_from``, sorted): the cards the stock's free positions
    are drawn from, at random in each sample; the rest go to the hands.

    None when nothing constrains the deal (the game's ``cardparty_determinize`` does as
    well), or when ``know`` counts other hands than ``state.hands`` (a history the game's
    tracker misread: no facts rather than wrong ones)."""
    if know is not None and ([len(s) for s in know.slots] != [len(h) for h in state.hands]
                             or not know.constrained()):
        know = None
    if know is None and stock_from is None:
        return None
    others = [s for s in range(players) if s != seat]
    fixed: list[set[int]] = [set() for _ in others]
    fixed.append(set(stock_fixed or ()))
    none: list[list[frozenset[str]]] = [[] for _ in fixed]

    def sample(rng: random.Random) -> Any:
        twin = state.copy()
        zones = hidden(twin, others)
        known: list[list[str]] | None = None
        if stock_from is not None:
            pool = list(stock_from)
            rng.shuffle(pool)
            known = [[] for _ in others] + [pool[:len(zones[-1]) - len(fixed[-1])]]
        facts = [*know.draw_excluded(others, rng), []] if know is not None else none
        if not deal(rng, zones, fixed, facts, known) and \
                (known is None or not deal(rng, zones, fixed, none, known)):
            redeal(rng, zones, fixed)
        return twin

    return sample
