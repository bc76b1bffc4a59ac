"""The shapes of a table summary, a game and a view message (``net/wire/replies.py``) hold what
a real host sends: every key of a summary (a fresh table, one with a bot), of a playing
table's view and of every game it lists is declared, of the type declared."""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_type_hints

import pytest

from cardparty.core.contract import View
from cardparty.net.host import Host
from cardparty.net.player.session import Session
from cardparty.net.wire import replies
from tests.net.shapes import held_to


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, testing=True)
    h.start()
    try:
        yield h
    finally:
        h.stop()


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
        # A view may carry keys its game adds (docs/protocol.md): those declared are typed.
        held_to(snap, replies.ViewMessage)
        view = snap["view"]
        assert set(get_type_hints(View)) - {"deadlines"} <= set(view)
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


def test_a_view_may_carry_a_games_own_key_but_not_a_mistyped_or_missing_one() -> None:
    """A view is open to a game's keys (docs/protocol.md); the keys it declares are not."""
    view = {"phase": "play", "turn": 0, "direction": 1, "players": [], "hand": ["R3"],
            "zones": {}, "counters": {}}
    held_to({**view, "pika_hint": "call it"}, View)
    with pytest.raises(AssertionError):
        held_to({**view, "hand": "R3"}, View)
    with pytest.raises(AssertionError):
        held_to({k: v for k, v in view.items() if k != "phase"}, View)
    with pytest.raises(AssertionError):            # a summary is not open to new keys
        held_to({"id": "t1", "game": "pika", "pika_hint": "x"}, replies.TableSummary)
