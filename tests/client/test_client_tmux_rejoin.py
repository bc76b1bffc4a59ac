"""End to end in real terminals (tmux, 80x24): two humans in a game; Petr's client is killed
mid-game and started again with the same command line; it is back at its seat, with its hand,
and Eva's screen shows him back. Then the same through the waiting room screens they pass.

Uses the private tmux server of ``test_client_tmux`` (its own ``-L`` socket, killed after)."""

from __future__ import annotations

from tests.client.test_client_tmux import (  # noqa: F401  (tmux is a fixture)
    CARDPARTY,
    TMUX_MARKS,
    Tmux,
    create_table,
    free_port,
    hand_line,
    join,
    start_host,
    tmux,
)

pytestmark = TMUX_MARKS


def test_a_client_killed_mid_game_and_started_again_sits_again(tmux: Tmux) -> None:  # noqa: F811
    port = free_port()
    start_host(tmux, port)
    join(tmux, "Eva", port)
    join(tmux, "Petr", port)
    create_table(tmux, "Eva", "pika", 2)
    screen = tmux.wait("Eva", "waiting room")                 # the room opens at once
    assert "Seats" in screen and "not ready" in screen
    tmux.wait("Petr", "Pika")
    tmux.keys("Petr", "Enter")                                # sit: Petr's room opens
    tmux.wait("Petr", "waiting room")
    tmux.wait("Eva", "Petr")
    tmux.keys("Eva", "r")
    tmux.keys("Petr", "r")
    for who in ("Eva", "Petr"):
        tmux.wait(who, lambda s: "you: " in s.splitlines()[0] and "Hand" in s)
    before = hand_line(tmux.screen("Petr"))
    tmux.tmux("kill-window", "-t", f"{tmux.session}:Petr")    # killed: no goodbye
    tmux.wait("Eva", "disconnected", timeout=20)
    tmux.run("Petr2", f"{CARDPARTY} join 127.0.0.1:{port} --name Petr")
    screen = tmux.wait("Petr2", lambda s: "you: Petr" in s.splitlines()[0] and "Hand" in s,
                       timeout=20)
    assert hand_line(screen) == before                        # the same cards, same order
    assert "Traceback" not in screen
    tmux.wait("Eva", lambda s: "disconnected" not in s, timeout=20)
