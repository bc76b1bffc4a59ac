"""Seeded tables for tests that watch normal bots play: the inference tests check what the
history tells against the real hands as the game goes."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from cardparty.core.table import Table


def normal_tables(game: str, player_counts: Iterable[int], seeds: Iterable[int]
                  ) -> Iterator[tuple[Table, random.Random]]:
    """A fresh table of ``game`` and its bots' rng for every player count and seed."""
    seeds = list(seeds)
    for players in player_counts:
        for seed in seeds:
            yield Table(game, players, seed=seed), random.Random(seed)
