"""The table's log through a host restart, against a real host on 127.0.0.1 keeping its
tables in a data directory (issue 27, item 2): the snapshot the restarted host sends repeats
the table's last events, and the log tells each of them once, not the history twice.
``table_model.new_lines``."""

from __future__ import annotations

from pathlib import Path

from cardparty.client.controller import Controller
from cardparty.client.table_model import new_lines
from cardparty.client.words import describer
from cardparty.net.host import Host
from cardparty.net.trust.keys import KeyPair
from tests.client.clientkit import OPENING, Pump, RecordingLink
from tests.client.test_client_tmux import free_port


def test_a_snapshot_adds_only_what_the_log_has_not_told() -> None:
    assert new_lines(["a", "b", "c"], ["b", "c", "d"]) == ["d"]
    assert new_lines(["a", "b", "c"], ["a", "b", "c"]) == []
    assert new_lines(["a", "b"], ["x", "y"]) == ["x", "y"]
    assert new_lines([], ["a", "a"]) == ["a", "a"]


def test_after_a_host_restart_the_log_tells_the_history_once(tmp_path: Path) -> None:
    port, keys = free_port(), KeyPair.generate()

    def host() -> Host:
        h = Host(f"tcp://127.0.0.1:{port}", "party", data=tmp_path / "data", keys=keys,
                 heartbeat=0.2, idle=None, bot_delay=0.0, testing=True)
        h.start()
        return h

    first = host()
    settings = {"hand_size": 5, "dealer": 1, "warning": 30.0, "deck": OPENING}
    link = RecordingLink(f"127.0.0.1:{port}", "Eva", autoplay={
        "game": "pika", "players": 2, "settings": settings, "variants": [], "bots": "basic",
        "bot_delay": 0.0, "title": "test", "seed": 1})
    c = Controller(link, name="Eva", address="party", describe=describer)
    pump = Pump(c)
    link.start(c.deliver)
    try:
        pump.until(lambda: c.screen == "table" and bool(c.table.moves))
        c.key("enter")                                  # R7 on R4; the bot answers
        version = c.table.view.get("version")
        pump.until(lambda: bool(c.table.moves) and c.table.view.get("version") != version)
        before = list(c.table.log)
        assert any("R7" in line for line in before)
        seen = c.table.received
        first.stop()
        second = host()
        try:
            pump.until(lambda: c.connection == "connected" and c.table.received > seen,
                       timeout=20)
            assert list(c.table.log) == before, "\n".join(c.table.log)
        finally:
            second.stop()
    finally:
        c.exit()
