"""Fixtures for the host tests: a real host on 127.0.0.1 (never another address), with short
heartbeats so that liveness and reconnects are quick, and a record of what every seat may see
at every version of every table (for the leak checks)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from cardparty.core.discovery import load_catalog
from cardparty.core.simcheck import visible_cards
from cardparty.core.table import Table
from cardparty.net.host import Host
from cardparty.net.player.session import Session
from tests.net import hostkit


@pytest.fixture(autouse=True)
def _kits_closed() -> Iterator[None]:
    """Every host kit the test made is closed after it (``hostkit.OPEN``): its store's
    threads and files, its bots' workers."""
    yield
    while hostkit.OPEN:
        hostkit.OPEN.pop().parts.close()


class Visibility:
    """For every (table, version): the cards each seat (and a spectator, None) may see.
    Filled on the host's thread by its observer, read by the test afterwards."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], dict[int | None, Counter[str]]] = {}
        #: Every card code of each table's game (its zones at the start).
        self.deck: dict[str, set[str]] = {}
        self.lock = threading.Lock()

    def __call__(self, table_id: str, table: Table) -> None:
        seats: list[int | None] = [None, *range(table.players)]
        with self.lock:
            self.seen[(table_id, table.version)] = {s: visible_cards(table, s) for s in seats}
            if table_id not in self.deck:
                self.deck[table_id] = {c for z in table.zones() for c in z.cards}


@pytest.fixture
def visibility() -> Visibility:
    return Visibility()


@pytest.fixture
def host(visibility: Visibility) -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "test-host", heartbeat=0.1, liveness=3, idle=None,
             observer=visibility, testing=True)
    h.start()
    yield h
    h.stop()


@pytest.fixture
def connect(host: Host) -> Iterator[Any]:
    """``connect(name, **kw)`` -> a connected Session; all closed at the end."""
    made: list[Session] = []

    def make(name: str, **kw: Any) -> Session:
        s = Session(host.address, name, backoff=(0.02, 0.2), request_timeout=5.0, **kw)
        s.connect(timeout=5.0)
        made.append(s)
        return s

    yield make
    for s in made:
        s.abort()


def installed_games() -> list[str]:
    return sorted(load_catalog().games)


def table_size(game: str) -> int:
    """Every installed game at its largest player count up to 4 (the issue's table)."""
    return min(load_catalog().game(game).max_players, 4)


def wait_for(session: Session, wanted: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The first pushed message for which ``wanted(msg)`` holds; fails after ``timeout``."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        msg = session.next_message(0.05)
        if msg is not None and wanted(msg):
            return msg
    raise AssertionError("the expected message did not come")


def seat_info(msg: dict[str, Any], seat: int) -> dict[str, Any]:
    return msg["table"]["seats"][seat]
