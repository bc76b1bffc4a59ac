"""The embedding API: opening tables, settings and their bounds, save/restore, replay, errors.

Pika is the game used; the API is the same for every game.
"""

from __future__ import annotations

import random

import msgpack
import pytest

from cardparty.core.bots import RandomBot
from cardparty.core.contract import SYSTEM, Move
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.simulate import next_actor
from cardparty.core.table import IllegalMove, Table, TableError, open_table
from tests.core.plugins import tiny


def _advance(table: Table, moves: int, seed: int = 1) -> None:
    rng, bot = random.Random(seed), RandomBot()
    for _ in range(moves):
        seat = next_actor(table, rng)
        if seat is None:
            return
        table.play(seat, bot.choose(table, seat, rng))


def test_unknown_game_and_bad_player_count_are_one_line_errors() -> None:
    with pytest.raises(TableError, match="no game 'uno' is installed"):
        open_table("uno", 2)
    with pytest.raises(TableError, match="2 to 4 players, not 6"):
        open_table("pika", 6)


def test_settings_are_checked_against_their_bounds_and_defaults_filled() -> None:
    with pytest.raises(TableError, match="hand_size must be between 2 and 15"):
        open_table("pika", 2, {"hand_size": 40})
    with pytest.raises(TableError, match="unknown setting 'colour'"):
        open_table("pika", 2, {"colour": "R"})
    with pytest.raises(TableError, match="must be a number"):
        open_table("pika", 2, {"warning": "soon"})
    table = open_table("pika", 2, {"hand_size": 5}, seed=1)
    assert table.settings == {"hand_size": 5, "warning": 3.0, "dealer": -1, "deck": None}


def test_the_same_seed_deals_the_same_game() -> None:
    a, b = open_table("pika", 3, seed=42), open_table("pika", 3, seed=42)
    assert a.view(0)["hand"] == b.view(0)["hand"]
    assert open_table("pika", 3, seed=43).view(0)["hand"] != a.view(0)["hand"]


def test_save_and_restore_give_back_the_same_table_mid_game() -> None:
    table = open_table("pika", 4, seed=5, names=["Eva", "Petr", "Jana", "Karel"])
    _advance(table, 30)
    twin = Table.restore(table.save())
    assert twin.save() == table.save()
    for seat in (None, 0, 1, 2, 3):
        assert twin.view(seat) == table.view(seat)
    # and both go on identically: the rng travelled in the save
    _advance(table, 20, seed=9)
    _advance(twin, 20, seed=9)
    assert twin.save() == table.save()


def test_a_corrupt_save_is_a_one_line_error() -> None:
    with pytest.raises(TableError, match="not a cardparty table save"):
        Table.restore(msgpack.packb({"format": 99}))
    with pytest.raises(TableError, match="corrupt table save"):
        Table.restore(b"\x93garbage")
    blob = msgpack.unpackb(open_table("pika", 2, seed=1).save())
    del blob["state"]["hands"]
    with pytest.raises(TableError, match="corrupt table save"):
        Table.restore(msgpack.packb(blob))


def test_the_seed_and_the_journal_replay_the_game_exactly() -> None:
    table = open_table("pika", 3, seed=11)
    _advance(table, 60)
    again = Table.replay("pika", 3, 11, table.journal, table.settings)
    assert again.save() == table.save()


def test_an_illegal_move_leaves_the_table_exactly_as_it_was() -> None:
    table = open_table("pika", 2, seed=3)
    before = table.save()
    seat = table.to_move()[0]
    for bad in (Move("play", ("ZZ",)), Move("fly"), Move("draw", choice="x")):
        with pytest.raises(IllegalMove) as caught:
            table.play(seat, bad)
        assert bad.kind in str(caught.value) and caught.value.reason
    with pytest.raises(IllegalMove, match="there is no seat 7"):
        table.play(7, Move("draw"))
    with pytest.raises(IllegalMove):
        table.play(SYSTEM, Move("timeout", choice="0"))
    assert table.save() == before and table.journal == []


def test_moves_cross_the_wire_and_untrusted_ones_are_refused_with_a_reason() -> None:
    move = Move("play", ("W+4",), "R pika", "play W+4")
    assert Move.from_wire(msgpack.unpackb(msgpack.packb(move.to_wire()))) == move
    for bad, why in [([], "must be a map"), ({"kind": 3}, "needs a kind"),
                     ({"kind": "play", "cards": "AS"}, "list"),
                     ({"kind": "play", "cards": [1]}, "card code"),
                     ({"kind": "play", "choice": 5}, "choice")]:
        with pytest.raises(ValueError, match=why):
            Move.from_wire(bad)


def test_private_events_show_other_seats_only_a_count() -> None:
    table = open_table("pika", 2, seed=2)
    _advance(table, 40)
    private = [i for i, e in enumerate(table.events) if e.get("private")]
    assert private, "forty Pika moves always draw a card"
    i = private[0]
    owner = table.events[i]["seat"]
    assert table.events_for(owner, i)[0]["cards"] == table.events[i]["cards"]
    other = table.events_for(1 - owner, i)[0]
    assert "cards" not in other and other["count"] == len(table.events[i]["cards"])
    assert "cards" not in table.events_for(None, i)[0]


def test_the_catalog_lists_pika_and_its_variant_through_entry_points() -> None:
    catalog = load_catalog()
    assert catalog.games["pika"].max_players == 4
    assert [v.id for v in catalog.variants_of("pika")] == ["pika-strict-plus4"]


def test_a_clone_keeps_the_catalog_of_its_table() -> None:
    catalog = Catalog()
    catalog.add(tiny)
    table = Table("tiny", 2, {"deck": ["TS", "7S", "8S", "9S"]}, seed=1, catalog=catalog)
    twin = table.clone()                     # "tiny" is in no installed package
    assert twin.catalog is catalog
    twin.play(0, Move("play", ("TS",)))
    assert table.view(0)["hand"] == ["TS"]


def test_restore_gives_back_the_events() -> None:
    catalog = Catalog()
    catalog.add(tiny)
    table = Table("tiny", 2, {"deck": ["TS", "7S", "8S", "9S"]}, seed=1, catalog=catalog)
    table.play(0, Move("play", ("TS",)))
    twin = Table.restore(table.save(), catalog)
    assert twin.events == table.events == [{"type": "play", "seat": 0, "cards": ["TS"]}]
    assert twin.events_for(1) == table.events_for(1)
    assert twin.save() == table.save()


def test_the_direct_hooks_declare_every_hook_of_the_contract() -> None:
    """``DirectHooks`` declares each hook with what it answers, for a type checker; a hook
    added to ``hookspecs`` must be declared there too, or its answers go unchecked."""
    from cardparty.core import hookspecs
    from cardparty.core.table import DirectHooks

    specs = {name for name in dir(hookspecs) if name.startswith("cardparty_")}
    assert set(DirectHooks.__annotations__) == specs
    table = open_table("pika", 2, seed=1)
    assert all(callable(getattr(table.hook, name)) for name in specs)
