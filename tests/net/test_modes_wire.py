"""Open play over the wire (MO-5): a real host, a real session. A seek with nobody else
waiting starts a table with bots once the fill timeout ends; the time it took is printed
(the bound, fill timeout + 1 s, is asserted loosely: timings are not asserted here beyond
what a loaded machine always meets)."""

from __future__ import annotations

import time

from cardparty.net.host import Host
from cardparty.net.host.settings import HostSettings
from cardparty.net.player.session import Session

FILL = 0.5


def test_mo5_a_seek_with_nobody_waiting_starts_with_bots_after_the_fill_timeout() -> None:
    with Host(economy=":memory:", idle=None,
              settings=HostSettings(fill_timeout=FILL)) as host, \
            Session(host.address, "eva") as eva:
        eva.connect()
        asked = time.monotonic()
        reply = eva.request("seek", game="pikac", players=3)
        tid = reply["table"]
        assert 0 < reply["fill_in"] <= FILL
        started = None
        while started is None and time.monotonic() - asked < 10 * (FILL + 1):
            msg = eva.next_message(0.5)
            if msg and msg["type"] == "table" and msg["table"]["id"] == tid and (
                    msg["table"]["status"] == "playing"):
                started = time.monotonic() - asked
                assert [s["kind"] for s in msg["table"]["seats"]] == ["human", "bot", "bot"]
                assert msg["table"]["bots_filled"]
        assert started is not None, "the table never started"
        print(f"\nseek to a table playing with bots: {started:.3f} s "
              f"(fill timeout {FILL} s, bound {FILL + 1} s)")
        assert started >= FILL * 0.9
