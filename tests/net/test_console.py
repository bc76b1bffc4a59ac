"""The host's console (client/commands/host_console.py) on a real host with a real standby
attached over CURVE on 127.0.0.1 (issue 29, item 5): ``status`` says the epoch and the
standby, ``handover`` stops the host handing the party over (the standby takes over, told
so by the host), and ``quit`` stops without handing over (the standby takes over only once
nothing listens at the host's address)."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cardparty.client.commands.host_console import Console
from cardparty.net.host import Host
from cardparty.net.peers.standby import Standby, Takeover
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.address import HostAddress


def until(what: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


@pytest.mark.parametrize("word", ["handover", "quit"])
def test_the_consoles_handover_hands_the_party_over_and_quit_does_not(
        tmp_path: Path, word: str, capsys: pytest.CaptureFixture[str]) -> None:
    keys = KeyPair.generate()
    data = tmp_path / "a"
    host = Host("tcp://127.0.0.1:0", data=data, economy=str(data / "economy.sqlite3"),
                peers=(keys.fingerprint,), bot_workers=0)
    host.start()
    port = int(host.address.rsplit(":", 1)[1])
    standby = Standby(HostAddress("127.0.0.1", port), host.keys.public, tmp_path / "b",
                      keys, HostAddress("127.0.0.1", 7999), "tcp://127.0.0.1:0", lost=5.0)
    out: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: out.setdefault("took", standby.run()),
                              daemon=True)
    runner.start()
    took = None
    try:
        until(lambda: host.standbys is not None and host.standbys.attached is not None)
        Console(host, io.StringIO(f"status\n{word}\n")).thread.join(5)
        assert host._thread is not None
        host._thread.join(10)
        assert not host._thread.is_alive()
        runner.join(10)
        took = out.get("took")
        assert isinstance(took, Takeover) and took.epoch == 2
        assert (host.outcome is not None) == (word == "handover"), "handed over, or not"
        # Handed over; or, after ``quit``, taken over only because nothing listens at the
        # host's address any more (docs/operating.md: stop the standby first to end a party).
        assert (took.handed, took.certain) == ((True, False) if word == "handover"
                                               else (False, True))
        said = capsys.readouterr().err
        assert "cardparty host: epoch 1; standby attached at 127.0.0.1:7999" in said
    finally:
        if took is None:
            standby.stop()
            runner.join(5)
        else:
            took.router.close(0)
            took.guard.close()
            took.ctx.destroy(linger=0)
        host.stop()


def test_handover_without_a_standby_attached_says_so_and_stops_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "a"
    host = Host("tcp://127.0.0.1:0", data=data, economy=str(data / "economy.sqlite3"),
                peers=(KeyPair.generate().fingerprint,), bot_workers=0)
    host.start()
    try:
        Console(host, io.StringIO("handover\n")).thread.join(5)
        until(lambda: "no standby is attached" in capsys.readouterr().err)
        assert host._thread is not None and host._thread.is_alive()
    finally:
        host.stop()
