"""Fixtures for the client's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardparty.net.host import Host
from tests.client import clientkit
from tests.client.clientkit import Client, HostKit, host_for_tests, pika_at


@pytest.fixture(autouse=True)
def _links_closed() -> Iterator[None]:
    """Every client link the test made is closed after it (``clientkit.LINKS``): a link left
    open goes on running its session's thread, heartbeats and all, into later tests."""
    yield
    while clientkit.LINKS:
        clientkit.LINKS.pop().close()


@pytest.fixture
def kit() -> Iterator[HostKit]:
    """One host per test, on 127.0.0.1, for the tests that sit at seeded tables: a host
    starts in milliseconds. Each test's "Eva" has a key of her own (tests/conftest.py), and
    at a host a name belongs to the first key that used it (MO-1): a host shared by several
    tests would refuse the next Eva."""
    test_host = host_for_tests()
    yield test_host
    test_host.host.stop()


@pytest.fixture
def opening(kit: HostKit) -> Iterator[Client]:
    """Eva at seat 0 of a two-player Pika table dealt ``OPENING``: her turn."""
    c = pika_at(kit)
    yield c
    c.close()


@pytest.fixture
def host() -> Iterator[Host]:
    """A real host node on 127.0.0.1 in this process, with quick heartbeats."""
    h = Host("tcp://127.0.0.1:0", "test host", heartbeat=0.2, idle=None, testing=True)
    h.start()
    yield h
    h.stop()
