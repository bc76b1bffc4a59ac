"""Two moves a player is offered never read alike, in any language: the client lists the
moves by their labels, a dialog lets the player choose among them by their words, and a
screen reader says nothing else. (Pikáč offered an Ace's hold and its spread as "the next
player stands a turn" both, in English and identically in Czech.) And what a game narrates
reads in the player's language: the Czech log told "(hold)" in English.

Seeded random games of every installed game (with its variants), every listed move at every
position looked at in each language.
"""

from __future__ import annotations

import random

import pytest

from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import LANGUAGES, translate
from cardparty.core.narrate import with_names
from cardparty.core.table import SYSTEM, open_table
from cardparty.plugins.pikac.rules import cardparty_describe

GAMES = sorted(load_catalog().games)


def alike(labels: list[str]) -> list[str]:
    seen: set[str] = set()
    return [x for x in labels if x in seen or seen.add(x)]  # type: ignore[func-returns-value]


@pytest.mark.parametrize("game", GAMES)
def test_no_two_listed_moves_read_alike_in_any_language(game: str) -> None:
    info = load_catalog().game(game)
    for seed in range(6):
        rng = random.Random(seed)
        table = open_table(game, rng.randint(info.min_players, min(info.max_players, 5)),
                           seed=seed)
        for _ in range(400):
            if table.result() is not None:
                break
            seats = table.to_move()
            if not seats:
                seats = [SYSTEM]
            seat = rng.choice(seats)
            moves = table.legal_moves(seat)
            if not moves:
                break
            if seat != SYSTEM:
                for lang in LANGUAGES:
                    same = alike([translate(m.label, lang) for m in moves])
                    assert not same, f"{game} seed {seed}, {lang}: {same[0]!r} twice"
            table.play(seat, rng.choice(moves))


def test_pk19_one_ace_held_or_spread_reads_as_what_it_is_and_the_log_says_it_in_czech(
        ) -> None:
    """With one Ace both modes stop the next player once (PK-19): the labels differ by the
    mode they name, and the log names it in the player's language."""
    from cardparty.plugins.pikac.legality import _throw_moves

    hold, spread = _throw_moves(("AS",))
    assert {hold.choice, spread.choice} == {"hold", "spread"}
    for lang in LANGUAGES:
        assert translate(hold.label, lang) != translate(spread.label, lang), lang
    names = ["Eva", "Petr"]
    said = cardparty_describe(event={"type": "play", "seat": 0, "cards": ["AS"],
                                     "choice": "hold"}, names=names)
    czech = with_names(translate(said, "cs"), names)
    assert "hold" not in czech and "spread" not in czech, czech
