"""Fixtures for the client's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardparty.client.controller import Controller
from cardparty.client.local_link import LocalLink
from tests.client.clientkit import pika_link, wired


@pytest.fixture
def opening() -> Iterator[tuple[Controller, LocalLink]]:
    link = pika_link()
    yield wired(link), link
    link.close()
