"""Game records (core/record.py): a round kept as data, its file, and its replay from any
seat, step by step, equal to what the table showed each seat at each version."""

from __future__ import annotations

import json
import random

import pytest

from cardparty.core.discovery import load_catalog
from cardparty.core.record import (
    FORMAT,
    GameRecord,
    RecordError,
    Replay,
    dumps,
    loads,
)
from cardparty.core.table import Table

GAMES = [("pika", 2), ("pikac", 4), ("kakhead", 3), ("piquet", 2)]


def played(game: str, players: int, seed: int, stop: int | None = None
           ) -> tuple[Table, list[list[dict]]]:
    """A bot game of ``seed`` and every seat's view after every version (as a host sends
    them), played to its end or to ``stop`` moves."""
    table = Table(game, players, seed=seed, names=[f"P{i}" for i in range(players)])
    seen = [[table.view(s) for s in range(players)]]
    rng = random.Random(seed)
    from cardparty.core.bots import PolicyBot
    from cardparty.core.referee import Referee
    referee = Referee.any_order(table, rng, PolicyBot("easy"))
    while table.result() is None and (stop is None or len(table.journal) < stop):
        assert referee.fire(0.0) is not None
        seen.append([table.view(s) for s in range(players)])
    return table, seen


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_replay_shows_every_seat_what_the_table_showed_it_at_every_step(game, players):
    table, seen = played(game, players, seed=7)
    record = GameRecord.from_table(table, id="r1", started=1.0, ended=2.0)
    assert record.over and len(record.steps) == len(table.journal)
    replay = Replay(loads(dumps(record)), load_catalog())
    assert replay.steps == len(seen) - 1
    for step in (*range(len(seen)), 3, 0, len(seen) - 1, 1):     # forward, then back
        for seat in range(players):
            assert replay.view(step, seat) == seen[step][seat]


def test_reorders_are_steps_and_keep_the_versions():
    table = Table("piquet", 2, seed=3, names=["A", "B"])
    seat = 0
    hand = list(table.view(seat)["hand"])
    table.reorder(seat, list(reversed(hand)))
    views = table.view(seat)
    record = GameRecord.from_table(table)
    assert [s.order for s in record.steps] == [tuple(reversed(hand))]
    assert Replay(record).view(1, seat) == views
    rest = Table.restore(table.save())
    assert rest.reorders == table.reorders


def test_the_file_is_json_naming_its_format_and_the_plugins_versions():
    table, _ = played("pika", 2, seed=1)
    text = dumps(GameRecord.from_table(table))
    data = json.loads(text)
    assert data["format"] == FORMAT and data["format_version"] == 1
    assert data["plugins"]["pika"] == load_catalog().versions["pika"]


def test_a_record_of_another_plugin_version_that_plays_otherwise_is_refused_in_one_line():
    table, _ = played("pika", 2, seed=2)
    wire = GameRecord.from_table(table).to_wire()
    wire["plugins"]["pika"] = "cardparty 0.0.1"
    step = wire["steps"][3]
    step["move"]["cards"] = ["XX"]
    with pytest.raises(RecordError) as refused:
        Replay(GameRecord.from_wire(wire))
    said = str(refused.value)
    assert "cardparty 0.0.1 made it" in said and "step 4" in said and "\n" not in said


def test_a_record_of_a_game_not_installed_is_refused_naming_it():
    table, _ = played("pika", 2, seed=2)
    wire = GameRecord.from_table(table).to_wire()
    wire["game"] = "skat"
    wire["plugins"] = {"skat": "cardparty-skat 2.0"}
    with pytest.raises(RecordError, match="skat .cardparty-skat 2.0., which is not installed"):
        Replay(GameRecord.from_wire(wire))


@pytest.mark.parametrize("bad", ["{}", "not json", json.dumps({"format": FORMAT,
                                                                  "format_version": 99})])
def test_anything_else_is_refused_in_one_line(bad):
    with pytest.raises(RecordError):
        loads(bad)


def test_a_result_the_replay_does_not_reach_is_refused():
    table, _ = played("pika", 2, seed=5)
    wire = GameRecord.from_table(table).to_wire()
    wire["result"]["places"] = list(reversed(wire["result"]["places"]))
    with pytest.raises(RecordError, match="another result"):
        Replay(GameRecord.from_wire(wire))
