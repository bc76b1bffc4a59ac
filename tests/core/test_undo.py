"""Taking back a move (core.undo): how far a round may go back, and the table as it was."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import Move
from cardparty.core.narrate import describe
from cardparty.core.record import GameRecord, Replay, dumps, loads
from cardparty.core.referee import Referee
from cardparty.core.simcheck import view_cards
from cardparty.core.table import Table
from cardparty.core.undo import CannotUndo, table_before, take_back
from tests.pika.test_pika_rules import deal

HANDS = [["R1", "R2", "Y9"], ["R3", "G2", "G7"]]


def test_a_card_laid_is_taken_back_and_the_table_is_as_it_was_one_version_on() -> None:
    table = deal(HANDS, starter="R5", stock=("B4", "B6"))
    before = table.clone()
    table.play(0, Move("play", ("R1",)))
    back = take_back(table, 0)
    assert (back.seat, back.moves) == (0, 1)
    again = table_before(table, back)
    assert again.version == table.version + 1
    assert again.journal == []
    for seat in (None, 0, 1):
        view, was = again.view(seat), before.view(seat)
        assert {**view, "version": 0} == {**was, "version": 0}
    assert again.events[-1] == {"type": "undo", "seat": 0, "moves": 1}
    assert str(describe(again.events[-1], ["Eva", "Petr"])) == (
        "Eva takes back 1 move, as everybody at the table agreed")
    again.play(0, Move("play", ("R2",)))          # the table plays on from there


def test_a_card_drawn_is_never_taken_back() -> None:
    table = deal(HANDS, starter="G5", stock=("B4", "B6"))
    table.play(0, Move("draw"))
    with pytest.raises(CannotUndo, match="past your move .draw.: it showed you a card you had"):
        take_back(table, 0)


def test_another_players_card_laid_after_mine_bars_mine_but_not_his() -> None:
    table = deal(HANDS, starter="R5", stock=("B4", "B6"))
    table.play(0, Move("play", ("R1",)))
    table.play(1, Move("play", ("R3",)))
    with pytest.raises(CannotUndo, match="move of Player 2 .play.: it showed you a card"):
        take_back(table, 0)
    back = take_back(table, 1)                    # his own card, shown by his move
    assert back.moves == 1 and table_before(table, back).journal == table.journal[:1]


def test_no_move_of_mine_this_round_nothing_to_take_back() -> None:
    table = deal(HANDS, starter="R5", stock=("B4", "B6"))
    with pytest.raises(CannotUndo, match="no move in this round"):
        take_back(table, 1)


def seen_in(view: dict[str, Any], events: list[dict[str, Any]]) -> Counter[str]:
    """Every card a seat's view shows and its events name (each event's most)."""
    seen = view_cards(view)
    for e in events:
        seen |= Counter(e.get("cards") or ())
    return seen


@pytest.mark.parametrize(("game", "players"), [("pika", 2), ("pikac", 4), ("kakhead", 3),
                                               ("piquet", 2)])
def test_random_rounds_go_back_to_the_views_before_and_never_past_a_card_shown(
        game: str, players: int) -> None:
    """Bots play; after each move, every seat asks to take back its last move (and every
    move after it). Where the table may go back, it shows every seat what it showed before
    the move; and no seat saw, in a view or an event from that move on, a card it had never
    seen before, but the asker's own cards (those of his hand before his move) by the
    others."""
    table = Table(game, players, seed=11, names=[f"P{i}" for i in range(players)])
    referee = Referee.any_order(table, random.Random(11), PolicyBot("easy"))
    views: list[list[dict[str, Any]]] = []       # before each move: every seat's view
    ever: list[list[Counter[str]]] = []          # before each move: all each seat saw
    seen = [seen_in(table.view(p), table.events_for(p)) for p in range(players)]
    went = refused = 0
    while table.result() is None and len(table.journal) < 40:
        views.append([table.view(p) for p in range(players)])
        ever.append([Counter(s) for s in seen])
        told = len(table.events)
        assert referee.fire(0.0) is not None
        for p in range(players):
            seen[p] |= seen_in(table.view(p), table.events_for(p, told))
        for seat in range(players):
            try:
                back = take_back(table, seat)
            except CannotUndo:
                refused += 1
                continue
            went += 1
            again = table_before(table, back)
            k = back.move
            for p in range(players):
                assert {**again.view(p), "version": 0} == {**views[k][p], "version": 0}
                own = Counter(views[k][seat].get("hand") or ()) if p != seat else Counter()
                assert not seen[p] - ever[k][p] - own, (p, k)
    assert went and refused


def test_a_round_that_went_back_replays_every_step_with_the_version_it_was_shown_with(
) -> None:
    """The views shown of the moves that stand are what the record of the round replays,
    version and all (twice back, the second time to the deal)."""
    table = deal(HANDS, starter="R5", stock=("B4", "B6"))
    table.version = 40                           # a later round of the match
    shown = {table.version: table.view(0)}
    table.play(0, Move("play", ("R1",)))
    shown[table.version] = table.view(0)
    table.play(1, Move("play", ("R3",)))
    table = table_before(table, take_back(table, 1))
    shown[table.version] = table.view(0)
    table = table_before(table, take_back(table, 0))
    shown[table.version] = table.view(0)
    table.play(0, Move("play", ("R2",)))
    shown[table.version] = table.view(0)
    twin = Table.restore(table.save())
    assert twin.skips == table.skips
    replay = Replay(loads(dumps(GameRecord.from_table(twin))))
    kept = {replay.view(n, 0)["version"]: replay.view(n, 0) for n in range(replay.steps + 1)}
    assert kept == {v: shown[v] for v in (44, 45)}      # the deal, as shown last, and R2
    assert {**shown[40], "version": 44} == shown[44]
