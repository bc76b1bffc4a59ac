"""The shapes of a table summary, a game and a view message (``net/wire/replies.py``) hold what
a real host sends: every key of a summary (a fresh table, one with a bot), of a playing
table's view and of every game it lists is declared, of the type declared."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, get_type_hints

import pytest

from cardparty.core.contract import View
from cardparty.net.host import Host
from cardparty.net.player.session import Session
from cardparty.net.wire import replies
from tests.net.test_request_types import conforms


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, testing=True)
    h.start()
    try:
        yield h
    finally:
        h.stop()


def held_to(value: dict[str, Any], shape: type) -> None:
    hints = get_type_hints(shape)
    assert set(value) <= set(hints), f"{shape.__name__} lacks {set(value) - set(hints)}"
    for key, item in value.items():
        assert conforms(item, hints[key]), (shape.__name__, key, item, hints[key])


def test_a_hosts_summaries_and_games_are_as_declared(host: Host) -> None:
    eva = Session(host.address, "Eva")
    eva.connect()
    try:
        table = eva.create("pika", 2)
        eva.sit(table["id"])
        eva.add_bots(table["id"])
        for summary in [table, *eva.tables()]:
            held_to(summary, replies.TableSummary)
            for seat in summary["seats"]:
                held_to(seat, replies.SeatSummary)
        eva.ready(table["id"])
        snap = eva.snapshot(table["id"])
        held_to({k: v for k, v in snap.items() if k != "view"}, replies.ViewMessage)
        # A view may carry keys its game adds (docs/protocol.md): those declared are typed.
        view = snap["view"]
        declared = get_type_hints(View)
        assert set(declared) - {"deadlines"} <= set(view)
        for key in set(view) & set(declared):
            assert conforms(view[key], declared[key]), (key, view[key])
        assert view["moves"] or view["turn"] != snap["seat"]
        for game in eva.games():
            held_to(game, replies.GameWire)
            for setting in game["settings"].values():
                held_to(setting, replies.SettingInfo)
            for variant in game["variants"]:
                held_to(variant, replies.VariantWire)
    finally:
        eva.close()


def test_a_key_no_shape_declares_is_found() -> None:
    with pytest.raises(AssertionError):
        held_to({"id": "t1", "game": "pika", "colour": "red"}, replies.TableSummary)
    with pytest.raises(AssertionError):
        held_to({"id": "t1", "game": "pika", "players": "two"}, replies.TableSummary)
