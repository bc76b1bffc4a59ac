"""End to end in a real terminal (tmux, 80x24), open play (MO-5): a host with a tiny fill
timeout and its ``--data``; Eva seeks a table with the seek form, the fill timeout brings a
bot, she plays the round out by keystrokes (an idle turn is played for her, so the round is
bounded in time), sees her reward, her coins in the lobby's profile line and herself in the
league; ``cardparty league --data`` on the host's machine shows the same standings."""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.client.test_client_tmux import (
    CARDPARTY,
    TMUX_MARKS,
    Tmux,
    free_port,
    join,
    play_turn,
    set_row,
)

pytestmark = TMUX_MARKS


@pytest.fixture
def tmux() -> Tmux:
    t = Tmux()
    yield t
    t.kill()


def test_mo5_seek_the_fill_timeout_brings_a_bot_play_it_out_see_reward_and_league(
        tmux: Tmux) -> None:
    data = Path(tempfile.mkdtemp(prefix="cardparty-modes-"))
    try:
        port = free_port()
        tmux.run("host", f"{CARDPARTY} host --bind 127.0.0.1 --port {port} --heartbeat 0.5 "
                         f"--bot-delay 0.05 --idle 1 --fill-timeout 1 --data {data}")
        tmux.wait("host", "listening on")
        join(tmux, "Eva", port)
        tmux.wait("Eva", "Eva · 1,000 coins · level 0")        # the profile line
        tmux.keys("Eva", "o")
        tmux.wait("Eva", "Open play")
        at = set_row(tmux, "Eva", "Game", "Pikáč", 0)
        at = set_row(tmux, "Eva", "Players", "2", at)
        tmux.keys("Eva", *["Down"] * (3 - at))
        tmux.wait("Eva", "[ Seek a table ]")
        tmux.keys("Eva", "Enter")
        tmux.wait("Eva", lambda s: "you: Eva" in s.splitlines()[0], timeout=15)
        rng = random.Random(7)
        end = time.monotonic() + 240
        while not play_turn(tmux, "Eva", rng):
            assert time.monotonic() < end, tmux.screen("Eva")
            time.sleep(0.05)
        screen = tmux.wait("Eva", "You earn", timeout=10)
        assert "(halved:" in screen and "league points" in screen
        tmux.keys("Eva", "l")
        lobby = tmux.wait("Eva", lambda s: "open play" in s and "Eva · " in s)
        assert "Eva · 1,000 coins" not in lobby, "the reward is in the profile line"
        tmux.keys("Eva", "L")
        # The screen opens at once; its rows come with the host's answer a moment later.
        league = tmux.wait("Eva", lambda s: "(this week)" in s and "1. Eva" in s)
        assert "(you)" in league
        out = subprocess.run([CARDPARTY, "league", "--data", str(data), "--json"],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        assert '"name": "Eva"' in out.stdout
    finally:
        shutil.rmtree(data, ignore_errors=True)
