"""``cardparty host`` as an operator meets it: a port it cannot use is one line in words,
said before anything is written (no data directory made, no key pair); Ctrl-C says that the
host stops and that it stopped, not only the terminal's ``^C``."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.client.test_client_tmux import free_port

CARDPARTY = str(Path(sys.executable).with_name("cardparty"))


def host(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CARDPARTY, "host", "--no-advertise", *args], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_port_65535_is_refused_in_words_the_operator_reads() -> None:
    """It said "bind(): port must be 0-65535": the key desk takes the next port."""
    out = host("--bind", "127.0.0.1", "--port", "65535")
    assert out.returncode == 2, out
    assert out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("cardparty host: error: --port 65535: a port from 1 to 65534")
    assert "bind()" not in out.stderr


def test_a_port_in_use_is_one_line_before_the_data_directory_is_made(tmp_path: Path) -> None:
    """It printed ZeroMQ's "Address already in use (addr=...)" once it had made the data
    folder's files."""
    data = tmp_path / "data"
    # The port itself, with --data; then the key desk's, of a host without --data (a peer of
    # a party tells its key on the next port only when it is free: docs/operating.md).
    for taken, keeps in ((0, ["--data", str(data)]), (1, [])):
        port = free_port()
        with socket.socket() as holder:
            holder.bind(("127.0.0.1", port + taken))
            holder.listen()
            out = host("--bind", "127.0.0.1", "--port", str(port), *keeps)
        assert out.returncode == 2, out
        assert out.stderr.count("\n") == 1, out.stderr
        assert f"port {port + taken} is in use on 127.0.0.1" in out.stderr, out.stderr
        assert "Address already in use" not in out.stderr and "addr=" not in out.stderr
        assert not data.exists(), list(data.iterdir())


def test_an_address_this_machine_has_not_is_one_line(tmp_path: Path) -> None:
    out = host("--bind", "192.0.2.77", "--port", str(free_port()), "--data",
               str(tmp_path / "d"))
    assert out.returncode == 2, out
    assert out.stderr == ("cardparty host: error: --bind 192.0.2.77: this machine has no such "
                          "address\n")
    assert not (tmp_path / "d").exists()


def test_ctrl_c_says_the_host_stops_and_that_it_stopped() -> None:
    """Ctrl-C on a host printed only ``^C``. (A host with ``--data`` is a peer of its party,
    which says how it stops: docs/operating.md.)"""
    proc = subprocess.Popen([CARDPARTY, "host", "--no-advertise", "--bind", "127.0.0.1",
                             "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "listening on" in line, line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    lines = [x for x in err.splitlines() if x and "key fingerprint" not in x]
    assert lines[-2:] == ["cardparty host: Ctrl-C: stopping (without --data, its tables go "
                          "with it)", "cardparty host: stopped"], err
