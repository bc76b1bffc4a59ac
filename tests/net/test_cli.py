"""``cardparty host`` and ``cardparty bot-client`` as real processes on 127.0.0.1: bot clients
fill a table and play it out, and ride out the host being killed (SIGKILL) and restarted from
its ``--data``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

CARDPARTY = [sys.executable, "-m", "cardparty.client.cli"]


def start_host(data: Path, port: int = 0) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([*CARDPARTY, "host", "--bind", "127.0.0.1", "--port", str(port),
                             "--data", str(data), "--heartbeat", "0.1", "--name", "test",
                             "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"tcp://127\.0\.0\.1:\d+", line)
    assert found, f"the host printed no address: {line!r}"
    return proc, found.group(0)


def bot_client(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*CARDPARTY, "bot-client", "--json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def lines_of(proc: subprocess.Popen[str], timeout: float) -> list[dict[str, Any]]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def processes() -> Any:
    made: list[subprocess.Popen[str]] = []
    yield made
    for p in made:
        if p.poll() is None:
            os.kill(p.pid, signal.SIGKILL)
            p.wait()


def test_bot_clients_play_a_table_through_a_host_killed_and_restarted_mid_game(
        tmp_path: Path, processes: list) -> None:
    host, address = start_host(tmp_path)
    processes.append(host)
    first = bot_client("--connect", address, "--create", "pika", "--players", "3",
                       "--setting", "hand_size=10", "--delay", "0.02", "--seed", "1")
    processes.append(first)
    assert first.stdout is not None
    created = json.loads(first.stdout.readline())
    assert set(created) == {"table"}
    tid = created["table"]
    others = [bot_client("--connect", address, "--table", tid, "--delay", "0.02",
                         "--seed", str(i)) for i in (2, 3)]
    processes.extend(others)
    time.sleep(1.0)                                   # the game is under way
    assert first.poll() is None, "the game ended before the host was killed"
    os.kill(host.pid, signal.SIGKILL)
    host.wait()
    time.sleep(0.3)
    port = int(address.rsplit(":", 1)[1])
    again, address2 = start_host(tmp_path, port)
    processes.append(again)
    assert address2 == address
    results = [lines_of(p, 60) for p in (first, *others)]
    places = {json.dumps(r[-1]["places"]) for r in results}
    assert len(places) == 1, f"every bot is told the same result: {places}"
    assert sorted(r[-1]["seat"] for r in results) == [0, 1, 2]
    assert sorted(json.loads(places.pop())) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])


def test_bot_client_refuses_create_without_players_in_one_line() -> None:
    proc = subprocess.run([*CARDPARTY, "bot-client", "--connect", "127.0.0.1:1",
                           "--create", "pika"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_a_bot_client_killed_mid_game_comes_back_by_its_key_and_name_to_the_same_seat(
        tmp_path: Path, processes: list) -> None:
    host, address = start_host(tmp_path)
    processes.append(host)
    first = bot_client("--connect", address, "--create", "pika", "--players", "2",
                       "--setting", "hand_size=12", "--delay", "0.03", "--seed", "4")
    processes.append(first)
    assert first.stdout is not None
    tid = json.loads(first.stdout.readline())["table"]
    victim = bot_client("--connect", address, "--table", tid, "--delay", "0.03", "--seed", "5")
    processes.append(victim)
    assert victim.stdout is not None
    seated = json.loads(victim.stdout.readline())
    time.sleep(0.8)
    assert victim.poll() is None, "the game ended before the client was killed"
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    back = bot_client("--connect", address, "--table", tid, "--name", seated["name"],
                      "--seed", "6")
    processes.append(back)
    ends = [lines_of(p, 60)[-1] for p in (first, back)]
    assert ends[1]["seat"] == seated["seat"]
    assert ends[0]["places"] == ends[1]["places"]


def test_a_bot_client_fills_its_table_with_hard_host_bots_that_think_in_the_hosts_workers(
        tmp_path: Path, processes: list) -> None:
    """``--fill-level hard`` reaches the host; its hard bot thinks in a worker process of the
    host, which stops it when it is stopped (SIGTERM)."""
    from cardparty.net.player.session import Session

    host = subprocess.Popen([*CARDPARTY, "host", "--bind", "127.0.0.1", "--port", "0",
                             "--heartbeat", "0.1", "--name", "test", "--log-level", "warning",
                             "--bot-workers", "1", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    processes.append(host)
    assert host.stdout is not None
    found = re.search(r"tcp://127\.0\.0\.1:\d+", host.stdout.readline())
    assert found, "the host printed no address"
    address = found.group(0)
    # Seven cards each: with three, one seat in some 300 deals goes out before the other has
    # a turn (a run of skips), and a hard bot that never moved never started a worker.
    player = bot_client("--connect", address, "--create", "pika", "--players", "2",
                        "--setting", "hand_size=7", "--fill-bots", "--fill-level", "hard",
                        "--seed", "2")
    processes.append(player)
    end = lines_of(player, 120)[-1]
    assert sorted(end["places"]) in ([1, 2], [1, 1])
    workers = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(host.pid)],
                             capture_output=True, text=True).stdout.splitlines()
    thinkers = [int(line.split()[0]) for line in workers if "cardparty.net.thinker" in line]
    assert len(thinkers) == 1, workers
    watcher = Session(address, "Watcher")
    try:
        watcher.connect(timeout=10.0)
        (summary,) = [t for t in watcher.tables() if t["id"] == end["table"]]
        assert [s["level"] for s in summary["seats"]] == [None, "hard"]
    finally:
        watcher.close()
    host.send_signal(signal.SIGTERM)
    host.wait(30)
    for pid in thinkers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
