"""What a Piquet hand declares and how a deal's score log turns into pique and repique.

Pure functions over card codes and score entries: no state, no hooks. The rules module asks
this one what each hand holds (PQ-6 point, PQ-7 sequences, PQ-8 sets), who wins each category
(PQ-5), and, after every score, whether a repique or a pique has just been earned (PQ-10) —
decided from the order of the deal's score log alone, so the hardest rule is testable on a
list of entries.

Must not know about: the game state, moves, sockets, terminals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.i18n import N_, Msg

RANKS = "789TJQKA"
ORDER = {r: i for i, r in enumerate(RANKS)}
VALUE = {"7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}     # PQ-1
SUITS = "SHDC"
FACES = frozenset("KQJ")
SEQUENCE_POINTS = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}                        # PQ-7
SEQUENCE_NAME = {3: N_("tierce"), 4: N_("quart"), 5: N_("quint"), 6: N_("sixième"),
                 7: N_("septième"), 8: N_("huitième")}
SET_RANKS = "TJQKA"                                                                # PQ-8
RANK_WORD = {"7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
             "K": "king", "A": "ace"}
RANK_PLURAL = {"T": N_("tens"), "J": N_("jacks"), "Q": N_("queens"), "K": N_("kings"),
               "A": N_("aces")}
#: "to the ace" is a phrase of its own in each language (Czech says it in the genitive,
#: "do esa"), so the rank is never a word slotted into another sentence.
TO_RANK = {"7": N_("to the seven"), "8": N_("to the eight"), "9": N_("to the nine"),
           "T": N_("to the ten"), "J": N_("to the jack"), "Q": N_("to the queen"),
           "K": N_("to the king"), "A": N_("to the ace")}
#: "in hearts" likewise (Czech: "v srdcích", the locative).
IN_SUIT = {"S": N_("in spades"), "H": N_("in hearts"), "D": N_("in diamonds"),
           "C": N_("in clubs")}
#: The three categories declared, as words (the codes stay English).
CATEGORY_WORD = {"point": N_("point"), "sequence": N_("sequence"), "set": N_("set")}

#: Categories scored in the declarations (PQ-10 counts these for a repique), in their order.
DECLARATIONS = ("carte blanche", "point", "sequence", "set", "carte rouge")
DECLARATION = frozenset(DECLARATIONS)
#: Points in play (PQ-13): with the declarations, what counts for a pique.
PLAY = frozenset(("lead", "trick", "last trick"))
#: Scores that are consequences of others and never count towards pique or repique.
BONUSES = frozenset(("repique", "pique", "premium"))
REPIQUE = 60
PIQUE = 30
PREMIUM = {"repique": 200, "pique": 100, "capot": 300}                             # PQ-15


def beats(a: str, b: str) -> bool:
    """PQ-11: ``a`` beats ``b`` when both are of one suit and ``a`` ranks higher."""
    return a[1] == b[1] and ORDER[a[0]] > ORDER[b[0]]


def is_carte_blanche(hand: Iterable[str]) -> bool:
    """PQ-4: a hand without king, queen or jack."""
    return not any(c[0] in FACES for c in hand)


@dataclass(frozen=True, slots=True)
class Combo:
    """One declarable combination: what it compares by, what it scores, its cards, its name.

    The name (``text``) is made when it is read, not with the combination: a bot's search
    lists thousands of combinations and names none of them."""

    category: str                # "point", "sequence", "set"
    key: tuple[int, int]         # compared as a tuple: the higher wins (PQ-6..PQ-8)
    points: int
    cards: tuple[str, ...]
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> Msg:
        """The combination in words: "point of 5 in hearts (48)", "quint to the king in
        spades", "trio of aces (three aces)"."""
        d = self.detail
        if self.category == "point":
            return Msg("point of {n} {suit} ({value})", n=d["size"],
                       suit=Msg(IN_SUIT[d["suit"]]), value=d["value"])
        if self.category == "sequence":
            return Msg("{name} {top} {suit}", name=Msg(SEQUENCE_NAME[d["size"]]),
                       top=Msg(TO_RANK[d["top"]]), suit=Msg(IN_SUIT[d["suit"]]))
        ranks = Msg(RANK_PLURAL[d["rank"]])
        if d["size"] == 4:
            return Msg("quatorze of {ranks} (four {ranks})", ranks=ranks)
        return Msg("trio of {ranks} (three {ranks})", ranks=ranks)


def point_of(hand: Sequence[str], minimum: int) -> Combo | None:
    """PQ-6: the longest suit, ties by the higher card value total; None under ``minimum``
    cards (4 at the Czech table, 1 in the classic laws)."""
    best: Combo | None = None
    for s in SUITS:
        cards = tuple(c for c in hand if c[1] == s)
        if len(cards) < max(minimum, 1):
            continue
        total = sum(VALUE[c[0]] for c in cards)
        key = (len(cards), total)
        if best is None or key > best.key:
            best = Combo("point", key, len(cards), cards,
                         {"size": len(cards), "suit": s, "value": total})
    return best


def sequences_of(hand: Sequence[str]) -> list[Combo]:
    """PQ-7: every run of 3+ consecutive cards of one suit (7 8 9 10 J Q K A), best first:
    longer, then higher top card."""
    found: list[Combo] = []
    for s in SUITS:
        have = sorted(ORDER[c[0]] for c in hand if c[1] == s)
        start = 0
        for i in range(1, len(have) + 1):
            if i == len(have) or have[i] != have[i - 1] + 1:
                length = i - start
                if length >= 3:
                    top = have[i - 1]
                    cards = tuple(RANKS[r] + s for r in range(top, top - length, -1))
                    found.append(Combo("sequence", (length, top), SEQUENCE_POINTS[length], cards,
                                       {"size": length, "suit": s, "top": RANKS[top]}))
                start = i
    found.sort(key=lambda c: c.key, reverse=True)
    return found


def sets_of(hand: Sequence[str], quatorze: int) -> list[Combo]:
    """PQ-8: three or four of a kind of 10, J, Q, K or A, best first: four beats three, then
    the higher rank. Four score ``quatorze`` (4 at the Czech table, 14 in the classic laws)."""
    found: list[Combo] = []
    for r in SET_RANKS:
        cards = tuple(c for c in hand if c[0] == r)
        if len(cards) >= 3:
            n = len(cards)
            found.append(Combo("set", (n, ORDER[r]), quatorze if n == 4 else 3, cards,
                               {"size": n, "rank": r}))
    found.sort(key=lambda c: c.key, reverse=True)
    return found


@dataclass(frozen=True, slots=True)
class Verdict:
    """One category decided (PQ-5): who scores, with which combinations; ``equal`` when the
    best of both were equal and nobody scores; ``best`` each seat's best (None: has none)."""

    category: str
    winner: int | None
    scored: tuple[Combo, ...]
    equal: bool
    best: tuple[Combo | None, Combo | None]


def decide(category: str, holdings: Sequence[Sequence[Combo]], every: bool) -> Verdict:
    """PQ-5: compare each seat's best of ``category``; the higher scores it (``every``: with
    all his other combinations of the category, PQ-16); equal: nobody scores."""
    best = (holdings[0][0] if holdings[0] else None, holdings[1][0] if holdings[1] else None)
    if best[0] is None and best[1] is None:
        return Verdict(category, None, (), False, best)
    if best[0] is not None and best[1] is not None and best[0].key == best[1].key:
        return Verdict(category, None, (), True, best)
    ahead = best[1] is None or (best[0] is not None and best[0].key > best[1].key)
    winner = 0 if ahead else 1
    scored = tuple(holdings[winner]) if every else (holdings[winner][0],)
    return Verdict(category, winner, scored, False, best)


# --- the score log, and pique and repique derived from its order (PQ-10) --------------------

def bonus_due(seat: int, category: str, decl: Sequence[int], deal_points: Sequence[int],
              bonus: str, blanche: int) -> str | None:
    """PQ-10, PQ-4: after ``seat`` scored in ``category`` (the tallies already include it),
    the premium now earned: "repique", "pique" or None.

    Repique: 30 from declarations alone while the opponent has scored nothing in the deal.
    Pique: 30 from declarations and points in play while the opponent has scored nothing
    (only elder can, since his first lead scores before younger plays). Never both, and
    never against a carte blanche. The cards and capot (PQ-14) are not points in play and
    do not count (Decision).
    """
    if bonus or (blanche >= 0 and blanche != seat) or deal_points[1 - seat]:
        return None
    if category in DECLARATION:
        return "repique" if decl[seat] >= 30 else None
    if category in PLAY:
        return "pique" if deal_points[seat] >= 30 else None
    return None


def derive_bonuses(entries: Iterable[Sequence[Any]]) -> list[tuple[int, int, str]]:
    """Replay a deal's score entries ``(seat, category, points, ...)`` in order, premiums
    skipped, and say where a repique or pique falls: ``(index of the entry that earned it,
    seat, kind)``. A carte blanche entry bars the other seat (PQ-4). The rules use
    ``bonus_due`` score by score; this is the same rule over a whole log, for tests and for
    anybody auditing a deal."""
    decl = [0, 0]
    points = [0, 0]
    bonus = ""
    blanche = -1
    out: list[tuple[int, int, str]] = []
    for i, entry in enumerate(entries):
        seat, category, pts = entry[0], entry[1], entry[2]
        if category in BONUSES:
            continue
        if category == "carte blanche":
            blanche = seat
        points[seat] += pts
        if category in DECLARATION:
            decl[seat] += pts
        kind = bonus_due(seat, category, decl, points, bonus, blanche)
        if kind:
            bonus = kind
            out.append((i, seat, kind))
    return out
