"""A rules plugin that raises stops its own table and nothing else: the host answers, the
mover gets ``game_failed``, everybody at that table sees it ``broken``, and a game at another
table plays on to its result."""

from __future__ import annotations

import random
import threading
from collections.abc import Generator, Iterator
from typing import Any

import pytest

from cardparty.core.contract import Move, VariantInfo
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.hookspecs import hookimpl
from cardparty.net.host import Host
from cardparty.net.player.netbot import play_table
from cardparty.net.player.session import Session, SessionError
from tests.net.conftest import wait_for


class Boom:
    """A house-rule variant for Pika whose every move blows up inside the rules."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("boom", "pika", "Boom", "every move raises (a broken plugin)")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, Any, Any]:
        yield
        raise RuntimeError("the boom variant exploded")


@pytest.fixture
def broken_host() -> Iterator[Host]:
    base = load_catalog()
    catalog = Catalog(dict(base.games), dict(base.variants), dict(base.plugins))
    catalog.add(Boom())
    h = Host("tcp://127.0.0.1:0", heartbeat=0.1, idle=None, catalog=catalog, testing=True)
    h.start()
    yield h
    h.stop()


def test_a_failing_rules_plugin_stops_only_its_own_table(broken_host: Host) -> None:
    def session(name: str) -> Session:
        s = Session(broken_host.address, name, backoff=(0.02, 0.2))
        s.connect()
        return s

    eva, petr, jana = session("Eva"), session("Petr"), session("Jana")
    try:
        good = petr.create("pika", 2, {"hand_size": 9}, seed=3)["id"]
        petr.sit(good)
        jana.sit(good)
        results: list[Any] = []

        def bot(s: Session, i: int) -> None:
            s.ready(good)
            results.append(play_table(s, good, rng=random.Random(i), timeout=30, delay=0.003))

        threads = [threading.Thread(target=bot, args=(s, i)) for i, s in ((0, petr), (1, jana))]
        for t in threads:
            t.start()
        bad = eva.create("pika", 2, {"dealer": 1}, variants=["boom"])["id"]
        eva.sit(bad)
        eva.add_bots(bad)
        eva.ready(bad)
        view = wait_for(eva, lambda m: m["type"] == "view")
        with pytest.raises(SessionError) as info:
            eva.move(bad, 0, view["version"])
        assert info.value.code == "game_failed" and "exploded" in info.value.message
        broken = wait_for(eva, lambda m: m["type"] == "table" and m["table"]["status"] == "broken")
        assert "exploded" in broken["table"]["failure"]
        with pytest.raises(SessionError) as info:
            eva.move(bad, 0, view["version"])
        assert info.value.code == "not_playing"
        assert {t["id"]: t["status"] for t in eva.tables()}[bad] == "broken"
        for t in threads:
            t.join(40)
        assert len(results) == 2 and results[0] == results[1], "the other table finished"
    finally:
        for s in (eva, petr, jana):
            s.abort()


def test_a_host_bot_tripping_a_failing_plugin_breaks_only_that_table(broken_host: Host
                                                                     ) -> None:
    eva = Session(broken_host.address, "Eva")
    eva.connect()
    try:
        bad = eva.create("pika", 2, {"dealer": 0}, variants=["boom"])["id"]  # the bot starts
        eva.sit(bad, 0)
        eva.add_bots(bad)
        eva.ready(bad)
        wait_for(eva, lambda m: m["type"] == "table" and m["table"]["status"] == "broken")
        assert eva.games(), "the host still answers"
    finally:
        eva.abort()
