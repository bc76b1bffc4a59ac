"""Piquet's game state: declared fields, copied and saved by the kit (``core.kit``).

One object holds the whole match: the table's laws (flags a variant may change, see
``Laws``), the match score, and the deal in progress. Lists are top first: ``talon1[0]`` is
the next card elder would take.

Must not know about: the rules (``rules``, ``scoring``), sockets, terminals.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from cardparty.core.kit import GameState, game_state


@dataclass(frozen=True, slots=True)
class Laws:
    """The points where the classic (Portland) laws differ from the Czech table (PQ-16).

    The rules read these flags and nothing else to decide those points, so a variant plugin
    changes a table's laws by installing another ``Laws`` in its state (``classic`` does).
    """

    elder_min: int = 3            # PQ-3: elder exchanges 3 to 5; classic 1 to 5
    elder_max: int = 5
    younger_forced: bool = True   # PQ-3: the dealer must take all that is left; classic: 1+
    point_min: int = 4            # PQ-6: a point needs 4 cards; classic: no minimum
    every_combination: bool = False  # PQ-5: one of each; classic: the winner scores all his
    quatorze: int = 4             # PQ-8: four of a kind scores 4; classic 14
    rubicon: bool = False         # PQ-15 / PQ-16: Rubicon scoring of the partie
    spoken: bool = False          # PQ-9 / PQ-16: the players declare (``spoken``); classic: yes
    tie_deals: int = 0            # PQ-16: equal totals after the partie: this many more deals

    def to_data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in LAW_FIELDS}


LAW_FIELDS = tuple(f.name for f in fields(Laws))


@game_state
class PiquetState(GameState):
    """Everything about one Piquet match. Seats are 0 and 1; ``dealer`` is younger, the
    other seat is elder (PQ-1). ``log`` is the deal's score log, one ``(seat, category,
    points, text)`` per score, in the order scored (PQ-9, PQ-10)."""

    laws: Laws
    target: int                  # PQ-15: points to win the match (0 with deals_limit)
    deals_limit: int             # PQ-15 option: an agreed number of deals; 0: play to target
    premiums: bool               # PQ-15 option: 200 / 100 / 300 for repique / pique / capot
    carte_blanche: bool          # PQ-4 on or off
    carte_rouge: bool            # PQ-15 option
    last_bonus: int              # PQ-13: extra points for the last trick (1, or 2 as option)
    totals: list[int]            # match points per seat
    deal_no: int                 # 1, 2, ... the deal in progress (or the last one)
    dealer: int
    extra: int                   # deals played after equal totals past the target (PQ-15)
    places: list[int] | None     # set when the match is over
    outcome: str
    last_deal: list[list[Any]]   # the finished deal's log, for the narrative
    news: list[dict[str, Any]]   # events made at setup, handed out with the first move
    phase: str                   # "exchange", "play", "over"
    turn: int
    hands: list[list[str]]
    talon1: list[str]
    talon2: list[str]
    left: list[str]              # classic: talon cards younger left, seen by nobody
    discards: list[list[str]]
    taken: int                   # how many cards elder took (PQ-3)
    shown: list[list[str]]       # cards of each hand shown in a scoring declaration (PQ-9)
    trick: list[str]             # the trick on the table, lead first
    leader: int
    run: list[str]               # PQ-12: the rest of a run led, laid face up
    won: list[list[str]]         # cards of the tricks each seat won
    tricks: list[int]
    decl: list[int]              # declaration points per seat this deal (PQ-10)
    deal_points: list[int]       # all points per seat this deal, premiums aside (PQ-10)
    bonus: str                   # "", "repique" or "pique": at most one per deal (PQ-10)
    blanche: int                 # the seat that scored carte blanche this deal, or -1
    log: list[tuple[int, str, int, str]]
    claims: list[list[str] | None]  # spoken declarations: elder's per category (PQ-16)
    cat: int                     # spoken: the category being declared, 0 point ... 3 done
    stage: int                   # spoken: 0 not begun, 1 / 2 younger answers, 3 younger declares
    said: list[list[Any]]        # spoken: [seat, words] as both players heard them

