"""What a round scores and the standings (docs/rules/tournament.md, TO-7, TO-16, TO-20,
TO-22 to TO-25).

- TO-22: at a table of k seats a player scores 1 for each seat placed worse than his and 1/2
  for each other seat sharing his place (3, 2, 1, 0 at four seats; 1 a win, 1/2 a draw at
  two). A bot's seat counts as a seat.
- TO-23: in a duplicate round every table held the same cards, seat by seat: a player's place
  is compared with the places of everybody who held his cards (his seat at every table of the
  round that finished) and he scores (k - 1)(b + t/2)/(m - 1), b the results he beat, t those
  he tied and m the results compared, his own among them; the same scale as TO-22, and TO-22's
  points where he was alone with his cards.
- TO-7, TO-16, TO-20: a bye scores (k - 1)/2, and so does every seat of a table stopped at the
  round's deadline; a round missed scores 0.
- TO-24, TO-25: the standings order.

Must not know about: sockets, the store, how tables are seated (``pairing``), any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: A table still playing, finished, or stopped at the round's deadline (TO-16).
PLAYING, OVER, STOPPED = "playing", "over", "stopped"


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a round: per seat the entrant's id (None: a host bot) and, once it is
    over, per seat the place (1 the best, a competition ranking)."""

    seats: tuple[str | None, ...]
    places: tuple[int, ...] | None = None
    state: str = PLAYING


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round: its tables, who sat out with a bye, whether every table held the same
    cards (duplicate)."""

    tables: tuple[TableResult, ...]
    byes: tuple[str, ...] = ()
    duplicate: bool = False


def table_points(places: Sequence[int], seat: int) -> float:
    """TO-22: the seats placed worse than ``seat``, and half of the others sharing its
    place."""
    mine = places[seat]
    worse = sum(1 for p in places if p > mine)
    tied = sum(1 for p in places if p == mine) - 1
    return worse + tied / 2


def even(seats: int) -> float:
    """TO-7, TO-16: half of the most a round gives, what everybody scores when all tie."""
    return (seats - 1) / 2


def compared(place: int, others: Sequence[int], seats: int) -> float:
    """TO-23: a place compared with every place of the same cards (``others``: the other
    results, his own left out), on TO-22's scale."""
    if not others:
        raise ValueError("a comparison needs another result")
    beaten = sum(1 for p in others if p > place)
    tied = sum(1 for p in others if p == place)
    return (seats - 1) * (beaten + tied / 2) / len(others)


def round_points(rnd: RoundResult, seats: int) -> dict[str, float]:
    """What each entrant of ``rnd`` scores in it so far (a table still playing gives its
    entrants nothing yet, and in a duplicate round is not compared yet)."""
    out: dict[str, float] = {p: even(seats) for p in rnd.byes}
    over = [t for t in rnd.tables if t.state == OVER and t.places is not None]
    for t in rnd.tables:
        if t.state == STOPPED:
            out.update({p: even(seats) for p in t.seats if p is not None})
    for t in over:
        assert t.places is not None
        for s, p in enumerate(t.seats):
            if p is None:
                continue
            if rnd.duplicate and s < len(t.places):
                others = [o.places[s] for o in over
                          if o is not t and o.places is not None and s < len(o.places)]
                if others:
                    out[p] = compared(t.places[s], others, seats)
                    continue
            out[p] = table_points(t.places, s)
    return out


@dataclass
class Standing:
    """One entrant's line: his rank (shared by entrants equal on points, Buchholz and first
    places), points, Buchholz, first places, rounds played at a table, byes, and per round his
    points (None: he was in no table nor bye of that round, or his table still plays)."""

    entrant: str
    rank: int = 0
    points: float = 0.0
    buchholz: float = 0.0
    firsts: int = 0
    played: int = 0
    byes: int = 0
    rounds: list[float | None] = field(default_factory=list)


def standings(seeds: Sequence[str], rounds: Sequence[RoundResult], seats: int
              ) -> list[Standing]:
    """TO-24, TO-25: every entrant of ``seeds`` (the seed order, best first) in the
    standings order: points, then Buchholz (for each round he played at a table that
    finished or was stopped, the average final points of the other entrants at it; summed),
    then first places at his tables, then the seed order. Entrants equal on the first three
    share a rank."""
    lines = {p: Standing(p) for p in seeds}
    per_round = [round_points(r, seats) for r in rounds]
    for pts in per_round:
        for line in lines.values():
            got = pts.get(line.entrant)
            line.rounds.append(got)
            if got is not None:
                line.points += got
    for r in rounds:
        for t in r.tables:
            if t.state == PLAYING:
                continue
            for s, p in enumerate(t.seats):
                if p is None or p not in lines:
                    continue
                lines[p].played += 1
                if t.state == OVER and t.places is not None and t.places[s] == 1:
                    lines[p].firsts += 1
        for p in r.byes:
            if p in lines:
                lines[p].byes += 1
    for r in rounds:
        for t in r.tables:
            if t.state == PLAYING:
                continue
            here = [p for p in t.seats if p is not None and p in lines]
            for p in here:
                others = [lines[q].points for q in here if q != p]
                if others:
                    lines[p].buchholz += sum(others) / len(others)
    seed_of = {p: i for i, p in enumerate(seeds)}

    def key(line: Standing) -> tuple[float, float, int]:
        return (round(line.points, 6), round(line.buchholz, 6), line.firsts)

    ordered = sorted(lines.values(), key=lambda s: (
        -round(s.points, 6), -round(s.buchholz, 6), -s.firsts, seed_of[s.entrant]))
    for i, line in enumerate(ordered):
        line.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(line) else i + 1
    return ordered
