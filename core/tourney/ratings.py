"""A rating per game per player (docs/rules/tournament.md, TO-26): OpenSkill's Plackett-Luce
model, which rates a game of any number of players from their order at the end (TrueSkill is
patented; Glicko-2 rates pairs only).

A rating is a belief about a player's skill: ``mu`` (25 for a new player) and its uncertainty
``sigma`` (25/3), which shrinks with every round rated. What a player is shown is the
conservative ``mu - 3 sigma``, one decimal: 0.0 for a new player, rising as his results and
the certainty about them grow; the seeds of an event's first round are ordered by it (TO-5).

Only the library's model is used (``openskill.models.PlackettLuce``, with its published
defaults): its update is the well-kept one, not a copy.

Must not know about: sockets, the store, which rounds are rated (the host decides: TO-26).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: A new player's rating and its uncertainty: the model's published defaults.
MU = 25.0
SIGMA = MU / 3

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating at one game: ``mu``, ``sigma`` and the rounds it was rated over."""

    mu: float = MU
    sigma: float = SIGMA
    rounds: int = 0

    @property
    def shown(self) -> float:
        """What a player is shown: the conservative ``mu - 3 sigma``, one decimal."""
        return round(self.mu - 3 * self.sigma, 1)

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma`` unrounded: what seeds compare."""
        return self.mu - 3 * self.sigma


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after a round in which the players of ``before`` finished at ``places``
    (1 the best; equal places are a tie), in the same order. Fewer than two players: nothing
    changes (a rating compares players)."""
    if len(before) != len(places):
        raise ValueError("one place per player")
    if len(before) < 2:
        return list(before)
    teams = [[_MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(float(team[0].mu), float(team[0].sigma), r.rounds + 1)
            for team, r in zip(after, before, strict=True)]
