"""Every installed game, played to its result by network clients through a real host."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from cardparty.core.simcheck import is_competition_ranking
from cardparty.net.player.netbot import play_table
from tests.net.conftest import installed_games, table_size
from tests.net.leaks import check_messages


def play_over_the_network(connect: Any, game: str, players: int, seed: int,
                          spectate: bool = True) -> tuple[list[Any], dict[int | None, list]]:
    """``players`` network bots fill a fresh table of ``game`` and play it out; a spectator
    watches. Returns each bot's result and every message each client received, by seat."""
    first = connect("Bot 0")
    tid = first.create(game, players, seed=seed)["id"]
    sessions = [first] + [connect(f"Bot {i}") for i in range(1, players)]
    received: dict[int | None, list[dict[str, Any]]] = {s: [] for s in range(players)}
    results: list[Any] = [None] * players
    failures: list[BaseException] = []
    watcher = connect("Watcher") if spectate else None
    if watcher is not None:
        watcher.watch(tid)
    seats = [s.sit(tid) for s in sessions]
    assert sorted(seats) == list(range(players))

    def bot(i: int) -> None:
        try:
            sessions[i].ready(tid)
            results[i] = play_table(sessions[i], tid, rng=random.Random(seed * 31 + i),
                                    timeout=90, on_message=received[seats[i]].append)
        except BaseException as exc:      # reported by the test thread below
            failures.append(exc)

    threads = [threading.Thread(target=bot, args=(i,)) for i in range(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, failures
    if watcher is not None:
        received[None] = []
        while (m := watcher.next_message(0.5)) is not None:
            received[None].append(m)
            if m["type"] == "view" and m["view"]["result"]:
                break
    return results, received


@pytest.mark.parametrize("game", installed_games())
def test_network_clients_fill_a_table_of_every_installed_game_and_play_it_to_its_result(
        connect: Any, visibility: Any, game: str) -> None:
    players = table_size(game)
    results, received = play_over_the_network(connect, game, players, seed=7)
    places = results[0]["places"]
    assert all(r == results[0] for r in results), "every seat is told the same result"
    assert len(places) == players and is_competition_ranking(places)
    for seat, messages in received.items():
        views = check_messages(messages, seat, visibility.seen, visibility.deck)
        assert views > 0, f"seat {seat} received no view"
    last = [m for m in received[None] if m["type"] == "view"][-1]
    assert last["view"]["result"]["places"] == places, "the spectator sees the end too"
