"""End to end in real terminals (tmux, 80x24): two humans play two rounds of a short Pika
match by keystrokes; after the second round both screens show the scoreboard with both
rounds (the first round's places and scores as its own end showed them) and the totals, by
name, and ``m`` opens the same board.

Uses the private tmux server of ``test_client_tmux`` (its own ``-L`` socket, killed after)."""

from __future__ import annotations

import random
import re

from tests.client.test_client_tmux import (  # noqa: F401  (tmux is a fixture)
    TMUX_MARKS,
    Tmux,
    create_table,
    free_port,
    join,
    play_out,
    start_host,
    tmux,
)

pytestmark = TMUX_MARKS

PLAYERS = ("Eva", "Petr")
#: A line of the first round's end: " 1. Eva                score 0".
FIRST = re.compile(r"(\d)\. (Eva|Petr)\s+score (\d+)")
#: A line of the scoreboard after two rounds: "1. Eva    1 (0)  2 (3)    1     3".
BOARD = re.compile(r"(Eva|Petr)\s+(\d) \((\d+)\)\s+(\d) \((\d+)\)\s+(\d+)\s+(\d+)")


def play_round(t: Tmux, rng: random.Random) -> None:
    play_out(t, tuple(PLAYERS), rng, limit=300)


def two_at_a_pika_table(t: Tmux, port: int) -> None:
    """Eva and Petr join, Eva creates a Pika table for two (hand size 4: a short round), Petr
    sits, both say ready; returns once both see their hands."""
    for who in PLAYERS:
        join(t, who, port)
    create_table(t, "Eva", "pika", 2)
    t.wait("Petr", "Pika")
    t.keys("Petr", "Enter")
    t.wait("Eva", "Petr")
    for who in PLAYERS:
        t.keys(who, "r")
    for who in PLAYERS:
        t.wait(who, lambda s: "you: " in s.splitlines()[0] and "Hand" in s)


def test_two_rounds_of_a_match_show_on_the_scoreboard(tmux: Tmux) -> None:  # noqa: F811
    port = free_port()
    start_host(tmux, port)
    two_at_a_pika_table(tmux, port)
    rng = random.Random(16)
    play_round(tmux, rng)
    screen = tmux.wait("Eva", lambda s: len(FIRST.findall(s)) == 2)
    first = {name: (int(place), int(score)) for place, name, score in FIRST.findall(screen)}
    for who in PLAYERS:
        tmux.keys(who, "n")                                # another round, same table
    for who in PLAYERS:
        tmux.wait(who, lambda s: "Round over" not in s and "YOUR MOVE" in s
                  or "waiting for" in s, timeout=30)
    play_round(tmux, rng)
    for who in PLAYERS:
        screen = tmux.wait(who, lambda s: "The match after 2 rounds" in s
                           and len(BOARD.findall(s)) == 2)
        rows = {r[0]: r[1:] for r in BOARD.findall(screen)}
        assert "Traceback" not in screen and "seat 0" not in screen
        second = {}
        for name in PLAYERS:
            p1, s1, p2, s2, wins, total = (int(x) for x in rows[name])
            assert (p1, s1) == first[name], screen          # the first round as it ended
            second[name] = p2
            assert wins == (p1 == 1) + (p2 == 1), screen
            assert total == s1 + s2, screen
        assert sorted(second.values())[0] == 1, screen
    tmux.keys("Eva", "m")
    screen = tmux.wait("Eva", "The match at table")
    assert len(BOARD.findall(screen)) == 2 and "any key closes" in screen, screen
    tmux.keys("Eva", "Escape")
    tmux.wait("Eva", lambda s: "The match at table" not in s and "Round over" in s)
