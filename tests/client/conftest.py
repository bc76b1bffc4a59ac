"""Fixtures for the client's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardparty.client.controller import Controller
from cardparty.client.local_link import LocalLink
from cardparty.net.host import Host
from tests.client.clientkit import pika_link, wired


@pytest.fixture
def opening() -> Iterator[tuple[Controller, LocalLink]]:
    link = pika_link()
    yield wired(link), link
    link.close()


@pytest.fixture
def host() -> Iterator[Host]:
    """A real host node on 127.0.0.1 in this process, with quick heartbeats."""
    h = Host("tcp://127.0.0.1:0", "test host", heartbeat=0.2, idle=None, testing=True)
    h.start()
    yield h
    h.stop()
