"""Binding the host's port: a port just freed by a stopped host is taken again at once; a
port another live host holds is refused with ZeroMQ's own words after a short retry."""

from __future__ import annotations

import time

import pytest

from cardparty.net.host import BIND_RETRY, Host


def test_a_host_restarted_on_the_port_it_just_left_binds_it() -> None:
    for _ in range(5):                       # the race is short: try it a few times
        first = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, testing=True)
        address = first.start()
        first.stop()
        again = Host(address, heartbeat=0.1, idle=None, testing=True)
        try:
            assert again.start() == address
        finally:
            again.stop()


def test_a_port_another_live_host_holds_is_refused_in_words() -> None:
    first = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, testing=True)
    address = first.start()
    try:
        second = Host(address, heartbeat=0.1, idle=None, testing=True)
        began = time.monotonic()
        with pytest.raises(RuntimeError, match="could not start: Address already in use"):
            second.start(timeout=BIND_RETRY + 5)
        assert time.monotonic() - began >= BIND_RETRY * 0.9
        assert second.parts.closed          # what it opened (store, ledger, workers) is closed
        second.stop()
    finally:
        first.stop()
