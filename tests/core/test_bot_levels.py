"""Bot levels (easy / normal / hard, the old names random and basic), duplicate tournaments,
``simulate --bots/--duplicate`` and the games' own policies where they were improved."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from cardparty.core.bots import ACCEPTED_LEVELS, LEVELS, PolicyBot, canonical_level
from cardparty.core.contract import Move, Result
from cardparty.core.search import Budget, SearchBot
from cardparty.core.table import Table
from cardparty.core.tournament import first_place_shares, parse_levels, seat_levels, tournament
from cardparty.plugins.pikac import bot as pikac_bot


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardparty.client.cli", *args],
                          capture_output=True, text=True, timeout=300)


def test_every_level_name_is_accepted_and_the_old_names_mean_easy_and_normal() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert [canonical_level(level) for level in ACCEPTED_LEVELS] == [
        "easy", "normal", "hard", "easy", "normal"]
    with pytest.raises(ValueError, match="easy, normal, hard"):
        canonical_level("expert")
    with pytest.raises(ValueError, match="easy, normal, hard"):
        PolicyBot("expert")


def test_inside_core_a_bot_takes_only_the_three_names() -> None:
    """The old names are input's: a bot is made from ``canonical_level``'s answer."""
    with pytest.raises(ValueError, match="canonical_level"):
        PolicyBot("basic")
    assert PolicyBot(canonical_level("basic")).level == "normal"


@pytest.mark.parametrize("game", ["pika", "pikac", "kakhead", "piquet"])
def test_the_games_policies_answer_at_normal(game: str) -> None:
    """The hook's ``level`` is "easy" or "normal": at "normal" each game's own policy
    chooses wherever there is a choice (none of them falls back to chance)."""
    table = Table(game, 2, seed=4)
    rng = random.Random(4)
    asked = 0
    while table.result() is None and asked < 5:
        seat = table.to_move()[0]
        moves = table.legal_moves(seat)
        if len(moves) > 1 and seat >= 0:
            chosen = table.pm.hook.cardparty_bot_move(view=lambda s=seat: table.view(s),
                                                      moves=moves, rng=rng, level="normal")
            assert any(chosen is m for m in moves)
            asked += 1
        table.play(seat, moves[rng.randrange(len(moves))])
    assert asked == 5


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_of_every_level_plays_legal_moves(level: str) -> None:
    table = Table("pikac", 3, seed=2)
    bot = PolicyBot(level)
    if level == "hard":
        bot.search = SearchBot(Budget(iterations=10, seconds=None))
    rng = random.Random(1)
    for _ in range(30):
        if table.result() is not None:
            break
        seat = table.to_move()[0]
        table.play(seat, bot.choose(table, seat, rng))     # play() refuses an illegal move


def test_levels_cycle_over_the_seats() -> None:
    assert seat_levels(["easy", "hard"], 4) == ["easy", "hard", "easy", "hard"]
    assert seat_levels(["basic"], 3) == ["normal"] * 3
    assert parse_levels("random, hard") == ["easy", "hard"]
    with pytest.raises(ValueError):
        parse_levels(",")


def test_a_shared_first_place_counts_half() -> None:
    assert first_place_shares(Result(places=(1, 1))) == [0.5, 0.5]
    assert first_place_shares(Result(places=(2, 1, 3))) == [0.0, 1.0, 0.0]


def test_duplicate_play_gives_every_level_every_seat_of_every_deal() -> None:
    rep = tournament("pika", 3, 4, 10, ["easy", "normal"], duplicate=True)
    assert rep.report.games == 4 * 3                    # every deal in every rotation
    assert rep.levels == ["easy", "normal", "easy"]
    games = {lv: s.games for lv, s in rep.by_level.items()}
    assert games == {"easy": 4 * 3 * 2, "normal": 4 * 3}
    assert abs(sum(s.won for s in rep.by_level.values()) - rep.report.games) < 1e-9
    assert len(rep.per_deal) == 4
    mean, lo, hi = rep.share("normal")
    assert 0.0 <= lo <= mean <= hi <= 1.0


def test_the_same_deal_is_the_same_deck_in_every_rotation() -> None:
    a = tournament("piquet", 2, 1, 3, ["normal"], duplicate=True)
    b = tournament("piquet", 2, 1, 3, ["normal"], duplicate=True)
    assert a.report.places == b.report.places
    # Normal against normal on one deal in both rotations: the same game twice over.
    assert a.report.places[0] == a.report.places[1][::-1] or a.report.places[0] == \
        a.report.places[1]


def test_simulate_duplicate_json_adds_games_and_wins_by_level() -> None:
    done = run("simulate", "--game", "pikac", "--players", "2", "--games", "6", "--seed", "3",
               "--bots", "easy,normal", "--duplicate", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 12 and report["duplicate"] is True
    by_level = report["by_level"]
    assert set(by_level) == {"easy", "normal"}
    assert by_level["easy"]["games"] == by_level["normal"]["games"] == 12
    assert by_level["easy"]["won"] + by_level["normal"]["won"] == pytest.approx(12)


def test_simulate_plain_output_lists_the_levels() -> None:
    done = run("simulate", "--game", "pika", "--players", "2", "--games", "2",
               "--bots", "basic", "--duplicate")
    assert done.returncode == 0, done.stderr
    assert "normal: 8 games" in done.stdout


@pytest.mark.parametrize("args", [["--bots", "expert"], ["--bots", "easy", "--check"]])
def test_simulate_refuses_bad_levels_in_one_line(args: list[str]) -> None:
    done = run("simulate", "--game", "pika", "--players", "2", "--games", "2", *args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) <= 2 and "Traceback" not in done.stderr


def pikac_view(hand: list[str], pending: int = 0, counts: tuple[int, int] = (7, 7)) -> dict:
    return {"hand": hand, "seat": 0, "direction": 1,
            "counters": {"pending draw": pending},
            "players": [{"count": counts[0], "place": None},
                        {"count": counts[1], "place": None}]}


def test_pikac_normal_sheds_normal_cards_and_keeps_its_defenders() -> None:
    """PK-14: a J♠ or a 2♦ is what saves a player from a count; the normal level does not
    throw one idly while a normal card fits."""
    moves = [Move("play", ("JS",)), Move("play", ("5H",)), Move("play", ("2D",)),
             Move("draw")]
    hand = ["JS", "5H", "2D", "9C", "4S", "6D", "8C"]
    chosen = pikac_bot.choose(pikac_view(hand), moves, random.Random(0))
    assert chosen is not None and chosen.cards == ("5H",)


def test_pikac_normal_passes_a_count_on_rather_than_taking_it() -> None:
    """PK-11: with a count pending, a function card passes it on; the adder first, the
    cancelling J♠ kept for a bigger count."""
    moves = [Move("play", ("JS",)), Move("play", ("7H",)), Move("take")]
    hand = ["JS", "7H", "9C", "4S"]
    chosen = pikac_bot.choose(pikac_view(hand, pending=4), moves, random.Random(0))
    assert chosen is not None and chosen.cards == ("7H",)
    only_js = [Move("play", ("JS",)), Move("take")]
    chosen = pikac_bot.choose(pikac_view(["JS", "9C"], pending=4), only_js, random.Random(0))
    assert chosen is not None and chosen.cards == ("JS",)


def test_pikac_normal_attacks_a_player_about_to_go_out() -> None:
    moves = [Move("play", ("KS",)), Move("play", ("5S",))]
    hand = ["KS", "5S", "9C", "4D", "6D"]
    calm = pikac_bot.choose(pikac_view(hand), moves, random.Random(0))
    assert calm is not None and calm.cards == ("5S",)
    danger = pikac_bot.choose(pikac_view(hand, counts=(5, 1)), moves, random.Random(0))
    assert danger is not None and danger.cards == ("KS",)
