"""An independent count of one Piquet deal, written from docs/rules/piquet.md alone.

It imports nothing of the game (``cardparty.plugins.piquet``): given the deck as dealt, the
two players' discards and the cards played, it says what the laws score, category by
category, for the Czech table or the classic (Portland) laws. ``crosscheck`` holds the game
to it over many random deals, so that a slip in the game's rules (or one shared by its
automatic and its spoken declarations) shows as a difference.

The count follows the rules' order (PQ-10's Decision): carte blanche, point, sequence, set,
carte rouge, then the points in play trick by trick, then the cards; a repique or pique is
checked after every score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

RANKS = "789TJQKA"
SUITS = "SHDC"
POINT_VALUE = {"7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}  # PQ-1
SEQUENCE_SCORE = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}                          # PQ-7
SET_RANKS = "TJQKA"                                                                 # PQ-8
DECLARATION = ("carte blanche", "point", "sequence", "set", "carte rouge")
IN_PLAY = ("lead", "trick", "last trick")


@dataclass(frozen=True)
class Table:
    """The laws and the table options one deal is played under."""

    classic: bool = False        # PQ-16: the Portland laws
    carte_blanche: bool = True   # PQ-4
    carte_rouge: bool = False    # PQ-15
    last_trick: int = 2          # PQ-13: the last trick's worth in all (2 or 3)
    premiums: bool = False       # PQ-15: 200 / 100 / 300 for repique / pique / capot


@dataclass(frozen=True)
class Holding:
    """One combination: what it compares by, what it scores, its cards."""

    rank: tuple[int, int]
    points: int
    cards: frozenset[str]


def point(hand: Sequence[str], classic: bool) -> Holding | None:
    """PQ-6: the longest suit (classic: any length; else at least 4), ties by value."""
    best: Holding | None = None
    for suit in SUITS:
        cards = [c for c in hand if c[1] == suit]
        if not cards or (len(cards) < 4 and not classic):
            continue
        h = Holding((len(cards), sum(POINT_VALUE[c[0]] for c in cards)), len(cards),
                    frozenset(cards))
        if best is None or h.rank > best.rank:
            best = h
    return best


def sequences(hand: Sequence[str]) -> list[Holding]:
    """PQ-7: every longest run of 3 or more in a suit, best first."""
    found = []
    held = set(hand)
    for suit in SUITS:
        run: list[str] = []
        for r in RANKS + " ":                            # a blank ends the last run
            card = r + suit
            if card in held:
                run.append(card)
                continue
            if len(run) >= 3:
                top = RANKS.index(run[-1][0])
                found.append(Holding((len(run), top), SEQUENCE_SCORE[len(run)],
                                     frozenset(run)))
            run = []
    return sorted(found, key=lambda h: h.rank, reverse=True)


def sets(hand: Sequence[str], classic: bool) -> list[Holding]:
    """PQ-8: three or four of a kind from the ten up; four score 4 (classic 14)."""
    found = []
    for r in SET_RANKS:
        cards = frozenset(c for c in hand if c[0] == r)
        if len(cards) >= 3:
            found.append(Holding((len(cards), RANKS.index(r)),
                                 3 if len(cards) == 3 else (14 if classic else 4), cards))
    return sorted(found, key=lambda h: h.rank, reverse=True)


def winner(a: list[Holding], b: list[Holding]) -> int | None:
    """PQ-5: whose best holding is higher; None when equal or when neither has one."""
    if not a and not b:
        return None
    if a and b and a[0].rank == b[0].rank:
        return None
    return 0 if not b or (a and a[0].rank > b[0].rank) else 1


class Count:
    """The deal's scores as they are made: each ``(seat, category, points)``, and the
    repique or pique (and its premium) checked after each one (PQ-10)."""

    def __init__(self, table: Table, elder: int) -> None:
        self.table = table
        self.elder = elder
        self.entries: list[tuple[int, str, int]] = []
        self.declared = [0, 0]
        self.scored = [0, 0]
        self.blanche: set[int] = set()
        self.premium_won = False

    def add(self, seat: int, category: str, points: int) -> None:
        self.entries.append((seat, category, points))
        self.scored[seat] += points
        if category in DECLARATION:
            self.declared[seat] += points
        other = 1 - seat
        if self.premium_won or self.scored[other] or other in self.blanche:
            return
        if category in DECLARATION and self.declared[seat] >= 30:
            self._premium(seat, "repique", 60, 200)
        elif category in IN_PLAY and seat == self.elder and self.scored[seat] >= 30:
            self._premium(seat, "pique", 30, 100)

    def _premium(self, seat: int, kind: str, points: int, premium: int) -> None:
        self.premium_won = True
        self.entries.append((seat, kind, points))
        self.scored[seat] += points
        if self.table.premiums:
            self.entries.append((seat, "premium", premium))
            self.scored[seat] += premium

    def by_category(self) -> Counter[tuple[int, str]]:
        out: Counter[tuple[int, str]] = Counter()
        for seat, category, points in self.entries:
            out[seat, category] += points
        return out

    def totals(self) -> list[int]:
        out = [0, 0]
        for seat, _, points in self.entries:
            out[seat] += points
        return out


def count_deal(table: Table, deck: Sequence[str], dealer: int, discards: Sequence[Sequence[str]],
               plays: Sequence[tuple[int, Sequence[str]]]) -> Count:
    """The deal dealt from ``deck`` (elder's 12, the dealer's 12, talon 1, talon 2), with
    each seat's ``discards``, and ``plays``: every play move in order, as (seat, its cards; a
    leader's run is several). Also checks that each player played from his hand and followed
    suit (PQ-11) and that the leader was the one the laws say."""
    elder = 1 - dealer
    dealt = {elder: list(deck[:12]), dealer: list(deck[12:24])}
    talon = list(deck[24:])
    count = Count(table, elder)
    for seat in (elder, dealer):                                          # PQ-4
        if table.carte_blanche and not any(c[0] in "KQJ" for c in dealt[seat]):
            count.blanche.add(seat)
            count.add(seat, "carte blanche", 10)
    hands = {}
    for seat in (elder, dealer):                                          # PQ-3
        out = list(discards[seat])
        assert all(c in dealt[seat] for c in out)
        hands[seat] = [c for c in dealt[seat] if c not in out] + talon[:len(out)]
        talon = talon[len(out):]
    _declarations(count, [hands[0], hands[1]])
    _play(count, [list(hands[0]), list(hands[1])], plays)
    return count


def _declarations(count: Count, hands: list[list[str]]) -> None:
    """PQ-5 ... PQ-8, PQ-16, then carte rouge (PQ-15)."""
    classic = count.table.classic
    best_points = [point(h, classic) for h in hands]
    held = {"point": [[p] if p else [] for p in best_points],
            "sequence": [sequences(h) for h in hands],
            "set": [sets(h, classic) for h in hands]}
    covered: list[set[str]] = [set(), set()]
    for category in ("point", "sequence", "set"):
        a, b = held[category]
        seat = winner(a, b)
        if seat is None:
            continue
        mine = held[category][seat]
        for h in (mine if classic else mine[:1]):      # classic: all of them (PQ-16)
            count.add(seat, category, h.points)
            covered[seat] |= h.cards
    if count.table.carte_rouge:
        for seat in (count.elder, 1 - count.elder):
            if count.declared[seat] and not count.declared[1 - seat] \
                    and covered[seat] >= set(hands[seat]):
                count.add(seat, "carte rouge", 20)


def _play(count: Count, hands: list[list[str]], plays: Sequence[tuple[int, Sequence[str]]]
          ) -> None:
    """PQ-11 ... PQ-14: trick by trick, the lead scores 1, a trick won by the second player 1,
    the last trick 1 more (2 with ``last_trick`` 3); 7 tricks the cards (10), 12 capot (40)."""
    leader = count.elder
    queue: list[str] = []
    lead: str | None = None
    won = [0, 0]
    for seat, cards in plays:
        if lead is None:
            assert seat == leader and not queue, "the leader leads"
            queue = list(cards)
            lead = queue.pop(0)
            hands[seat].remove(lead)
            count.add(seat, "lead", 1)
            continue
        assert seat == 1 - leader and len(cards) == 1
        follow = cards[0]
        assert follow[1] == lead[1] or not any(c[1] == lead[1] for c in hands[seat]), \
            "the follower follows suit"
        hands[seat].remove(follow)
        beaten = follow[1] == lead[1] and RANKS.index(follow[0]) > RANKS.index(lead[0])
        taker = seat if beaten else leader
        won[taker] += 1
        if taker != leader:
            count.add(taker, "trick", 1)
        if not hands[0] and not hands[1]:
            count.add(taker, "last trick", count.table.last_trick - 1)
        lead = None
        if queue:                                          # the run's next card (PQ-12)
            assert taker == leader, "a card of a run cannot lose"
            lead = queue.pop(0)
            hands[leader].remove(lead)
            count.add(leader, "lead", 1)
        leader = taker
    assert sum(won) == 12
    for seat in (count.elder, 1 - count.elder):
        if won[seat] == 12:
            count.add(seat, "capot", 40)
            if count.table.premiums:
                count.add(seat, "premium", 300)
        elif won[seat] >= 7:
            count.add(seat, "cards", 10)
