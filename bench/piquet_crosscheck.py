"""The same deal counted three ways: the engine's automatic declarations, the players' spoken
declarations made in full (nothing sunk), and the independent count of ``piquet_reference``.

Each deal is random (a shuffled deck through the ``deck`` setting, random table options, the
exchange and the play chosen at random among the listed moves), played move for move at two
tables, one declaring automatically and one spoken; the two score logs must be the same entry
for entry, and each category's points, per seat, what the reference counts. Under the classic
laws the declarations are always spoken, so the automatic table is a classic table whose
saved laws have ``spoken`` turned off: the same laws, declared by the engine.

Used by tests/piquet/test_piquet_crosscheck.py (a few hundred deals) and bench/piquet_laws.py
(tens of thousands).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack
import piquet_reference as reference

from cardparty.core.cards import piquet_deck
from cardparty.core.contract import Move
from cardparty.core.table import Table, open_table

DECK = piquet_deck()
FACES = frozenset("KQJ")
IN_PLAY = frozenset(reference.IN_PLAY)


@dataclass(frozen=True)
class Difference:
    """One category of one deal where a table's score is not the reference's."""

    laws: str                    # "Czech" or "classic"
    deal: int                    # the seed of the deal (``play_deal``)
    table: str                   # "automatic" or "spoken"
    seat: int
    category: str
    points: int                  # what the table scored in the category
    expected: int                # what the reference counts

    def __str__(self) -> str:
        return (f"{self.laws} deal {self.deal}, {self.table}: seat {self.seat} {self.category} "
                f"{self.points}, the reference {self.expected}")


@dataclass
class Report:
    """What a run of deals found: every difference, and how often each law worth checking
    came up (so a run that never met a repique says so)."""

    deals: int = 0
    differences: list[Difference] = field(default_factory=list)
    #: deals whose automatic and spoken logs differ (entry by entry, in order)
    logs_apart: list[int] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)

    def deals_apart(self) -> int:
        """How many deals differ in any way."""
        return len({d.deal for d in self.differences} | set(self.logs_apart))


#: Hands made only of combinations (carte rouge, PQ-15, and repique come of them): runs by
#: length, one per suit, under the classic laws; at the Czech table, where one sequence and
#: one set score, six cards of a suit for the point, a quint in another and a third ace.
RUNS_ONLY = ((3, 3, 3, 3), (4, 4, 4), (5, 4, 3), (6, 6), (8, 4))


def _run(suit: str, length: int, rng: random.Random) -> list[str]:
    top = rng.randint(length - 1, 7)
    return [reference.RANKS[r] + suit for r in range(top, top - length, -1)]


def _combinations_hand(classic: bool, rng: random.Random) -> list[str]:
    suits = rng.sample("SHDC", 4)
    if classic:
        return [c for suit, n in zip(suits, rng.choice(RUNS_ONLY), strict=False)
                for c in _run(suit, n, rng)]
    x, y, z = suits[:3]
    return [r + x for r in "AQT987"] + [r + y for r in "AKQJT"] + ["A" + z]


def _deal(classic: bool, rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    """A deck for the ``deck`` setting (elder's 12, the dealer's 12, the talons) and the
    cards elder and the dealer try to keep through the exchange.

    Half the deals are plainly shuffled; of the rest, one in four gives a player a carte
    blanche, one in four a long run at the top of a suit, and one in two makes elder's hand
    after the exchange all combinations (the cards he will take lie on top of talon 1, and
    he discards the others), so that carte blanche, repique, pique and carte rouge all come
    up in a few hundred deals."""
    deck = rng.sample(DECK, len(DECK))
    kind = rng.randrange(8)
    if kind < 4:
        return deck, [], []
    if kind == 4 or kind == 5:
        hand = (rng.sample([c for c in deck if c[0] not in FACES], 12) if kind == 4 else
                [r + rng.choice("SHDC") for r in "AKQJT9876"[:rng.randint(6, 8)]])
        hand += rng.sample([c for c in deck if c not in hand], 12 - len(hand))
        rest = [c for c in deck if c not in hand]
        if rng.random() < 0.5:
            return hand + rest, hand, []
        return rest[:12] + hand + rest[12:], [], hand
    made = _combinations_hand(classic, rng)
    taken = rng.randint(1, 3) if classic else 3
    junk = rng.sample([c for c in deck if c not in made], taken)
    rest = [c for c in deck if c not in made and c not in junk]
    elder = made[:12 - taken] + junk
    rng.shuffle(elder)
    return elder + rest[:12] + made[12 - taken:] + rest[12:], made, []


def _chosen(moves: list[Move], keep: list[str], rng: random.Random) -> Move:
    """A random move, but one that keeps the ``keep`` cards when it can: take as soon as the
    law allows, and discard only other cards."""
    if keep:
        if any(m.kind == "take" for m in moves):
            return next(m for m in moves if m.kind == "take")
        spare = [m for m in moves if m.kind == "discard" and m.cards[0] not in keep]
        if spare:
            return rng.choice(spare)
    return rng.choice(moves)


def _settings(rng: random.Random, deck: list[str]) -> dict[str, Any]:
    return {"deals": 1, "deck": deck, "dealer": rng.randrange(2),
            "carte_blanche": rng.random() < 0.9, "carte_rouge": rng.random() < 0.5,
            "last_trick": rng.choice((2, 3)), "premiums": rng.random() < 0.5}


def _automatic_classic(settings: dict[str, Any], seed: int) -> Table:
    """A classic table whose laws declare automatically (see the module docstring)."""
    table = open_table("piquet", 2, settings, ("piquet-classic",), seed)
    data = msgpack.unpackb(table.save(), raw=False, strict_map_key=False)
    data["state"]["laws"]["spoken"] = False
    return Table.restore(msgpack.packb(data, use_bin_type=True))


def _tables(classic: bool, settings: dict[str, Any], seed: int) -> tuple[Table, Table]:
    if classic:
        return (_automatic_classic(settings, seed),
                open_table("piquet", 2, settings, ("piquet-classic",), seed))
    return (open_table("piquet", 2, settings, (), seed),
            open_table("piquet", 2, {**settings, "spoken": True}, (), seed))


def _declare_in_full(table: Table) -> None:
    """PQ-16's one key: each player's first listed move declares or answers in full."""
    while table.view(None)["phase"] == "declare":
        seat = table.to_move()[0]
        table.play(seat, table.legal_moves(seat)[0])


def _log(table: Table) -> list[tuple[int, str, int]]:
    return [(e["seat"], e["category"], e["points"]) for e in table.view(None)["log"]]


def play_deal(classic: bool, seed: int) -> tuple[Table, Table, reference.Count]:
    """One random deal played at both tables, and the reference's count of it."""
    rng = random.Random(seed)
    deck, elder_keeps, dealer_keeps = _deal(classic, rng)
    settings = _settings(rng, deck)
    keep = {1 - settings["dealer"]: elder_keeps, settings["dealer"]: dealer_keeps}
    auto, spoken = _tables(classic, settings, seed)
    discards: list[list[str]] = [[], []]
    plays: list[tuple[int, Sequence[str]]] = []
    while auto.result() is None:
        if spoken.view(None)["phase"] == "declare":
            _declare_in_full(spoken)
        seat = auto.to_move()[0]
        moves = auto.legal_moves(seat)
        move = _chosen(moves, keep[seat], rng) if moves[0].kind == "discard" else rng.choice(moves)
        if move.kind == "discard":
            discards[seat] += move.cards
        elif move.kind == "play":
            plays.append((seat, move.cards))
        auto.play(seat, move)
        spoken.play(seat, move)
    table = reference.Table(classic=classic, carte_blanche=settings["carte_blanche"],
                            carte_rouge=settings["carte_rouge"],
                            last_trick=settings["last_trick"], premiums=settings["premiums"])
    count = reference.count_deal(table, deck, settings["dealer"], discards, plays)
    return auto, spoken, count


def check_deal(classic: bool, seed: int, report: Report) -> None:
    """Play deal ``seed`` and add what differs (and what it exercised) to ``report``."""
    auto, spoken, count = play_deal(classic, seed)
    laws = "classic" if classic else "Czech"
    report.deals += 1
    expected = count.by_category()
    logs = {"automatic": _log(auto), "spoken": _log(spoken)}
    if logs["automatic"] != logs["spoken"]:
        report.logs_apart.append(seed)
    for name, log in logs.items():
        game: Counter[tuple[int, str]] = Counter()
        for seat, category, points in log:
            game[seat, category] += points
        for key in sorted(set(game) | set(expected)):
            if game[key] != expected[key]:
                report.differences.append(Difference(laws, seed, name, key[0], key[1],
                                                     game[key], expected[key]))
    _note(report, logs["automatic"])


def _note(report: Report, log: list[tuple[int, str, int]]) -> None:
    """What the deal exercised: each category scored, and several sequences or sets."""
    categories = Counter((seat, category) for seat, category, _ in log
                         if category not in IN_PLAY)
    for (_, category), n in categories.items():
        report.seen[category] += 1
        if n > 1:
            report.seen[f"several {category}s"] += 1
    points = [p for _, c, p in log if c == "sequence"]
    if len(points) > len(set(points)):
        report.seen["equal sequences scored"] += 1


def check_deals(deals: int, seed: int = 0, classic: bool = False) -> Report:
    """``deals`` random deals from ``seed`` on, under the Czech table or the classic laws."""
    report = Report()
    for s in range(seed, seed + deals):
        check_deal(classic, s, report)
    return report
