"""End to end in real terminals (tmux, 80x24): two humans, each in his own window, play Pika
against each other on a host that keeps its tables (``--data``); mid-game the host is killed
and started again on the same data directory and port; both screens say the host is gone,
then both clients are back at the table by themselves, with their hands as they were, and
the two players finish the round by keystrokes.

Uses the private tmux server of ``test_client_tmux`` (its own ``-L`` socket, killed after)."""

from __future__ import annotations

import random
import time
from pathlib import Path

from tests.client.test_client_tmux import (  # noqa: F401  (tmux is a fixture)
    TMUX_MARKS,
    Tmux,
    free_port,
    hand_line,
    play_turn,
    start_host,
    tmux,
)
from tests.client.test_client_tmux_match import PLAYERS, play_round, two_at_a_pika_table

pytestmark = TMUX_MARKS


def steady_hand(t: Tmux, who: str) -> str:
    """``who``'s hand once it has stayed the same for a moment (a move sent just before may
    still be on its way)."""
    seen = [hand_line(t.screen(who))]
    end = time.monotonic() + 10
    while len(seen) < 4 or len(set(seen[-4:])) > 1:
        assert time.monotonic() < end, t.screen(who)
        time.sleep(0.15)
        seen.append(hand_line(t.screen(who)))
    return seen[-1]


def test_two_players_finish_their_game_through_a_host_restart(tmux: Tmux,  # noqa: F811
                                                               tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "host-data"
    start_host(tmux, port, data=data)
    two_at_a_pika_table(tmux, port)
    rng = random.Random(3)
    for _ in range(2):                                     # a move each, when it is theirs
        for who in PLAYERS:
            play_turn(tmux, who, rng)
    hands = {who: steady_hand(tmux, who) for who in PLAYERS}
    tmux.keys("host", "C-c")                               # the host goes away
    for who in PLAYERS:
        screen = tmux.wait(who, "is gone", timeout=15)
        assert "reconnecting" in screen
    start_host(tmux, port, "host2", data)                  # back on the same data and port
    for who in PLAYERS:
        screen = tmux.wait(who, lambda s: "is gone" not in s and "Hand" in s, timeout=20)
        assert hand_line(screen) == hands[who], screen     # the same cards, same order
        assert "Traceback" not in screen
    play_round(tmux, rng)
    for who in PLAYERS:
        screen = tmux.wait(who, "Round over")
        assert "Traceback" not in screen and "1. " in screen
