"""The host's file descriptors budgeted (issue 25, item 2; "What was seen" 1): a host started
with a limit of 256 descriptors, flooded on its key desk and on its game socket by hundreds of
connections from a guest on 127.0.0.2, still tells its key, still welcomes a new player, and
does not spin a core. Before, the flood took every descriptor: the desk went silent, no
newcomer got a welcome, and ZeroMQ's listener spun at 100 % until the guest left."""

from __future__ import annotations

import contextlib
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardparty.net.player.session import Session
from cardparty.net.trust.fdbudget import open_descriptors
from cardparty.net.trust.keydesk import GREETING, fetch_key, ready_command
from cardparty.net.trust.keys import host_keys

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
sys.path.insert(0, BENCH)
try:
    from measure import cpu_seconds  # what the benches read of a host's CPU
finally:
    sys.path.remove(BENCH)

LIMIT = 256
FLOOD = 300
GUEST = "127.0.0.2"


@pytest.fixture(scope="module")
def small_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int, bytes]]:
    """(pid, port, key) of ``cardparty host`` run with at most LIMIT descriptors."""
    data = tmp_path_factory.mktemp("small-host")

    def few_descriptors() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))

    proc = subprocess.Popen(
        [sys.executable, "-m", "cardparty.client.cli", "host", "--bind", "127.0.0.1",
         "--port", "0", "--data", str(data), "--log-level", "error", "--bot-workers", "0"],
        stdout=subprocess.PIPE, text=True, preexec_fn=few_descriptors)
    try:
        assert proc.stdout is not None
        found = re.search(r"tcp://127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert found, "the host did not start"
        yield proc.pid, int(found.group(1)), host_keys(Path(data)).public
    finally:
        proc.terminate()
        proc.wait(10)


def flood(port: int, handshake: bool) -> list[socket.socket]:
    """FLOOD connections opened at once (without waiting for each: the host's queue of
    connections not yet accepted is full long before), the desk's finishing the handshake
    once they are through."""
    out = []
    for _ in range(FLOOD):
        s = socket.socket()
        s.setblocking(False)
        s.bind((GUEST, 0))
        s.connect_ex(("127.0.0.1", port))
        out.append(s)
    time.sleep(0.3)
    if handshake:
        for s in out:
            with contextlib.suppress(OSError):
                s.send(GREETING + ready_command(b"DEALER"))
    return out


def newcomer_is_welcomed(port: int, key: bytes, name: str) -> bool:
    s = Session(f"tcp://127.0.0.1:{port}", name, host_key=key)
    try:
        s.connect(timeout=5)
        return True
    finally:
        s.abort()


def host_cpu_over(pid: int, seconds: float) -> float:
    start = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - start


def test_quiet_desk_connections_lock_nobody_out(small_host: tuple[int, int, bytes]) -> None:
    pid, port, key = small_host
    guests = flood(port + 1, handshake=True)
    try:
        time.sleep(0.2)
        assert fetch_key(f"tcp://127.0.0.1:{port}", timeout=3)[0] == key
        assert newcomer_is_welcomed(port, key, "Eva")
        assert host_cpu_over(pid, 1.0) < 0.4, "the host spins while its desk is flooded"
    finally:
        for g in guests:
            g.close()


def test_a_flood_of_the_game_socket_leaves_the_desk_and_the_process_their_share(
        small_host: tuple[int, int, bytes]) -> None:
    pid, port, key = small_host
    guests = flood(port, handshake=False)
    try:
        time.sleep(0.5)
        held = open_descriptors(pid)
        assert held is not None and held < LIMIT
        assert fetch_key(f"tcp://127.0.0.1:{port}", timeout=3)[0] == key
        assert host_cpu_over(pid, 1.0) < 0.4, "the host spins while its socket is flooded"
    finally:
        for g in guests:
            g.close()
    time.sleep(0.3)
    assert newcomer_is_welcomed(port, key, "Petr")
