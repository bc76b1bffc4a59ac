"""The referee on a fake clock: deadlines (the Pika warning, PI-10), bots after their delay,
stand-ins after the idle timeout, several seats to move, ties; and its any-order mode, which
must draw exactly as the simulator always has. The clock is a number the test passes in."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import pytest

from cardparty.core.bots import PolicyBot
from cardparty.core.contract import SYSTEM, Move
from cardparty.core.referee import (
    BOT,
    DEADLINE,
    IDLE,
    STANDIN,
    BotSeat,
    Played,
    Referee,
)
from cardparty.core.table import Table

#: Seat 0 holds R7 B2, seat 1 holds B5 Y5, the pile shows R4, the stock is G9; seat 0 starts.
WARNED = ["R7", "B2", "B5", "Y5", "R4", "G9"]


def pika(warning: float = 30.0, deck: list[str] | None = WARNED, players: int = 2,
         seed: int = 1) -> Table:
    settings: dict[str, object] = {"hand_size": 2, "dealer": players - 1, "warning": warning}
    if deck is not None:
        settings["deck"] = deck
    return Table("pika", players, settings, seed=seed)


def seats(*kinds: str) -> list[BotSeat]:
    return [BotSeat(kind) for kind in kinds]


R7 = Move("play", ("R7",))


@pytest.fixture(autouse=True)
def no_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee never reads the time: it is always given. Only this test's thread is
    refused the clock: a thread another test left behind in the same process (a host's, a
    store's) goes on reading it instead of failing in the middle of this test."""
    me = threading.get_ident()

    def guarded(real: Callable[[], float]) -> Callable[[], float]:
        def clock() -> float:
            if threading.get_ident() == me:
                raise AssertionError("the referee read the clock")
            return real()
        return clock

    for name in ("time", "monotonic", "perf_counter"):
        monkeypatch.setattr(time, name, guarded(getattr(time, name)))


def test_a_bot_moves_after_the_bot_delay_from_the_last_change() -> None:
    table = pika()
    ref = Referee(table, seats("bot", "human"), bot_delay=2.0, rng=random.Random(1))
    ref.changed(10.0)
    assert ref.next_due() == 12.0
    due = ref.due()
    assert due is not None and (due.kind, due.seat, due.at) == (BOT, 0, 12.0)
    assert ref.fire(11.99) is None and table.journal == []
    played = ref.fire(12.0)
    assert played is not None and (played.kind, played.seat) == (BOT, 0)
    assert table.journal == [(0, played.move)] and played.events
    assert played.move == Move("play", ("R7",), "pika")             # the basic bot calls
    assert table.to_move() == (1,) and ref.next_due() is None      # no idle timeout
    assert ref.fire(1000.0) is None


def test_pi10_the_warning_runs_out_as_a_system_move_at_its_due_time() -> None:
    table = pika(warning=30.0)
    ref = Referee(table, seats("human", "human"))
    ref.changed(0.0)
    assert ref.next_due() is None                        # humans, no idle timeout: no timer
    ref.play(0, R7, 5.0)                                 # without the call: warned
    assert ref.next_due() == 35.0
    due = ref.due()
    assert due is not None and (due.kind, due.seat) == (DEADLINE, SYSTEM)
    assert due.deadline is not None and due.deadline.seat == 0
    assert ref.timers(5.0) == [{"name": "pika", "seat": 0, "seconds": 30.0,
                                "remaining": 30.0}]
    assert ref.timers(20.5)[0]["remaining"] == 14.5
    assert ref.fire(34.9) is None
    played = ref.fire(35.0)
    assert played == Played(DEADLINE, SYSTEM, due.deadline.move, played.events)
    assert len(table.view(0)["hand"]) == 3               # B2 and the 2-card penalty
    assert ref.next_due() is None and ref.deadlines == {}


def test_pi10_the_warning_keeps_running_while_other_seats_move() -> None:
    table = pika(warning=30.0)
    ref = Referee(table, seats("human", "human"))
    ref.changed(0.0)
    ref.play(0, R7, 5.0)
    assert table.to_move() == (1, 0)                     # seat 1's turn; seat 0 may call
    ref.play(1, table.legal_moves(1)[0], 20.0)           # seat 1 draws: seat 0 unchanged
    assert [d.name for d in table.deadlines()] == ["pika"]
    assert ref.next_due() == 35.0                        # wall-clock time, not restarted


def test_pi10_a_call_during_the_warning_cancels_it() -> None:
    table = pika(warning=30.0)
    ref = Referee(table, seats("human", "human"))
    ref.changed(0.0)
    ref.play(0, R7, 5.0)
    call = next(m for m in table.legal_moves(0) if m.kind == "call")
    ref.play(0, call, 6.0)
    assert ref.deadlines == {} and ref.next_due() is None and ref.fire(1000.0) is None


def test_a_deadline_the_game_refuses_is_dropped_and_nothing_else_changes() -> None:
    table = pika(warning=30.0)
    ref = Referee(table, seats("human", "human"))
    ref.changed(0.0)
    ref.play(0, R7, 5.0)
    call = next(m for m in table.legal_moves(0) if m.kind == "call")
    table.play(0, call)                                  # behind the referee's back
    version = table.version
    assert ref.fire(40.0) is None
    assert table.version == version and ref.deadlines == {}


def test_the_idle_timeout_puts_a_stand_in_in_and_it_plays_at_once() -> None:
    table = pika()
    chairs = seats("human", "human")
    ref = Referee(table, chairs, idle=60.0, bot_delay=5.0, rng=random.Random(2))
    ref.changed(100.0)
    assert ref.next_due() == 160.0
    due = ref.due()
    assert due is not None and (due.kind, due.seat) == (IDLE, 0)
    assert ref.timers(130.0) == [{"name": "idle", "seat": 0, "seconds": 60.0,
                                  "remaining": 30.0}]
    assert ref.fire(159.0) is None
    played = ref.fire(160.0)
    assert played == Played(IDLE, 0, None, [], (0,))
    assert chairs[0].standin and not chairs[1].standin
    assert ref.next_due() == 160.0                       # not 165: the bot delay is skipped
    played = ref.fire(160.0)
    assert played is not None and (played.kind, played.seat) == (STANDIN, 0)
    assert table.journal[-1] == (0, played.move)


def test_the_idle_timeout_covers_every_human_who_may_move_and_only_them() -> None:
    table = Table("kakhead", 3, seed=1)                  # the swap phase: all three may move
    chairs = [BotSeat("human"), BotSeat("bot"), BotSeat("human")]
    ref = Referee(table, chairs, idle=10.0, bot_delay=20.0, rng=random.Random(6))
    ref.changed(0.0)
    assert table.to_move() == (0, 1, 2) and ref.next_due() == 10.0
    assert [t["seat"] for t in ref.timers(0.0)] == [0, 2]
    played = ref.fire(10.0)
    assert played is not None and (played.kind, played.seats) == (IDLE, (0, 2))
    assert [c.standin for c in chairs] == [True, False, True] and ref.timers(10.0) == []
    played = ref.fire(10.0)                              # the first that plays itself
    assert played is not None and (played.kind, played.seat) == (STANDIN, 0)
    assert ref.next_due() == 30.0                        # then the bot delay again


def test_a_human_back_ends_his_stand_in_and_his_idle_time_counts_from_the_last_change(
        ) -> None:
    table = pika(deck=None)
    chairs = seats("human", "human")
    chairs[0].standin = True
    ref = Referee(table, chairs, idle=60.0, bot_delay=5.0)
    ref.changed(0.0)
    assert ref.due() is not None and ref.next_due() == 5.0
    assert ref.back(1, 2.0) is False                     # not stood in for: nothing changes
    assert ref.back(0, 2.0) is True and not chairs[0].standin
    assert ref.next_due() == 60.0                        # from the change at 0, not at 2
    assert ref.back(None, 2.0) is False


def test_a_seat_handed_to_a_bot_moves_after_refresh() -> None:
    table = pika()
    chairs = seats("human", "human")
    ref = Referee(table, chairs, bot_delay=1.0)
    ref.changed(10.0)
    assert ref.next_due() is None
    chairs[0] = BotSeat("bot")                              # seat 0 left: a bot plays it out
    ref.refresh(12.0)
    assert ref.next_due() == 11.0                        # the delay from the last change
    played = ref.fire(12.0)
    assert played is not None and (played.kind, played.seat) == (BOT, 0)


def test_several_bots_to_move_play_one_at_a_time_in_the_tables_order() -> None:
    table = pika(warning=30.0)
    ref = Referee(table, seats("bot", "bot"), bot_delay=1.0, rng=random.Random(3))
    table.play(0, R7)                                    # warned: seats 1 and 0 may move
    ref.changed(0.0)
    assert table.to_move() == (1, 0)
    played = ref.fire(1.0)
    assert played is not None and played.seat == 1
    assert ref.next_due() == 2.0                         # the next bot waits its delay again


def test_at_equal_due_times_the_deadline_goes_before_the_bot() -> None:
    table = pika(warning=2.0)
    ref = Referee(table, seats("human", "bot"), bot_delay=2.0, rng=random.Random(4))
    ref.changed(0.0)
    ref.play(0, R7, 0.0)                                 # deadline at 2, bot at 2
    played = ref.fire(2.0)
    assert played is not None and played.kind == DEADLINE
    played = ref.fire(10.0)
    assert played is not None and (played.kind, played.seat) == (BOT, 1)


def test_the_earliest_due_goes_first_when_both_are_late() -> None:
    table = pika(warning=3.0)
    ref = Referee(table, seats("human", "bot"), bot_delay=1.0, rng=random.Random(5))
    ref.changed(0.0)
    ref.play(0, R7, 0.0)                                 # deadline at 3, bot at 1
    played = ref.fire(9.0)                               # a late look: both are due
    assert played is not None and (played.kind, played.seat) == (BOT, 1)
    assert [d.name for d in table.deadlines()] == ["pika"]
    assert ref.next_due() == 3.0                         # still due from its first listing
    played = ref.fire(9.0)
    assert played is not None and played.kind == DEADLINE


@pytest.mark.parametrize(("game", "players"), [("pika", 4), ("pikac", 3), ("kakhead", 3),
                                               ("piquet", 2)])
def test_bots_on_the_clock_play_a_whole_game_a_delay_apart(game: str, players: int) -> None:
    table = Table(game, players, seed=11)
    ref = Referee(table, seats(*["bot"] * players), bot_delay=0.5, rng=random.Random(11))
    clock = 0.0
    ref.changed(clock)
    gaps = []
    for _ in range(table.info.max_moves + 1):
        due = ref.next_due()
        if due is None:
            break
        gaps.append(due - clock)
        clock = max(clock, due)
        ref.fire(clock)
    assert table.result() is not None and table.to_move() == ()
    assert ref.next_due() is None
    assert len(gaps) == len(table.journal) and all(0.0 <= g <= 0.5 for g in gaps)


def test_stop_leaves_nothing_due() -> None:
    table = pika()
    ref = Referee(table, seats("bot", "bot"))
    ref.changed(0.0)
    assert ref.next_due() == 0.0
    ref.stop()
    assert ref.next_due() is None and ref.fire(10.0) is None and ref.timers(10.0) == []


def old_simulator_journal(table: Table, rng: random.Random, bot: PolicyBot) -> list:
    """How the simulator chose before the referee existed, kept to compare against."""
    while table.result() is None:
        actors = table.to_move()
        if table.deadlines():
            actors = (*actors, SYSTEM)
        if not actors:
            break
        seat = actors[0] if len(actors) == 1 else actors[rng.randrange(len(actors))]
        table.play(seat, bot.choose(table, seat, rng))
    return table.journal


@pytest.mark.parametrize(("game", "players", "seed"), [("pika", 4, 1), ("pika", 2, 9),
                                                       ("pikac", 4, 2), ("kakhead", 3, 5),
                                                       ("piquet", 2, 4)])
def test_any_order_draws_exactly_as_the_simulator_always_has(game: str, players: int,
                                                             seed: int) -> None:
    before = old_simulator_journal(Table(game, players, seed=seed), random.Random(seed),
                                   PolicyBot("normal"))
    table = Table(game, players, seed=seed)
    ref = Referee.any_order(table, random.Random(seed), PolicyBot("normal"))
    systems = 0
    while (played := ref.fire(0.0)) is not None:
        assert table.journal[-1] == (played.seat, played.move)
        systems += played.kind == DEADLINE
    assert table.journal == before and table.result() is not None
    assert ref.next_due() is None
    if game == "pika":
        assert systems == sum(s == SYSTEM for s, _ in before)


def test_any_order_lets_a_pi10_warning_run_out_at_a_listed_point() -> None:
    outcomes = set()
    for seed in range(40):
        table = pika(warning=30.0)
        table.play(0, R7)                                # warned: seats 1, 0 and SYSTEM
        ref = Referee.any_order(table, random.Random(seed))
        assert ref.next_due() == 0.0
        played = ref.fire(0.0)
        assert played is not None
        outcomes.add(played.seat)
    assert outcomes == {0, 1, SYSTEM}


def test_any_order_asks_each_seats_own_bot_and_systems() -> None:
    asked: list[int] = []

    class Named:
        def choose(self, table: Table, seat: int, rng: random.Random):  # noqa: ANN201
            asked.append(seat)
            moves = table.legal_moves(seat)
            return moves[rng.randrange(len(moves))]

    table = pika(warning=30.0)
    table.play(0, R7)                                    # warned: seats 1, 0 and SYSTEM
    bots = {0: Named(), 1: Named(), SYSTEM: Named()}
    seen = set()
    for seed in range(30):
        twin = table.clone()
        asked.clear()
        Referee.any_order(twin, random.Random(seed), bots=bots.__getitem__).fire(0.0)
        assert twin.journal[-1][0] == asked[0]
        seen.add(asked[0])
    assert seen == {0, 1, SYSTEM}


def test_next_due_and_due_are_stored_answers_so_many_tables_are_cheap_to_ask() -> None:
    tables = [pika(deck=None, seed=s) for s in range(50)]
    refs = [Referee(t, seats("bot", "human"), bot_delay=float(i % 5), idle=60.0)
            for i, t in enumerate(tables)]
    for ref in refs:
        ref.changed(100.0)

    def asked(*_: object) -> None:
        raise AssertionError("the game was asked")
    for t in tables:                      # the game may not be asked: stored answers only
        t.to_move = t.deadlines = asked   # type: ignore[method-assign]
    dues = [ref.next_due() for ref in refs]
    assert all(ref.due() is not None for ref in refs)
    assert min(d for d in dues if d is not None) == 100.0
    for t in tables:
        del t.to_move, t.deadlines
    fired = [ref.fire(101.5) for ref in refs]
    assert sum(f is not None for f in fired) == sum(d is not None and d <= 101.5 for d in dues)


class Later:
    """A bot thinking elsewhere: "not yet" until its answer is set."""

    def __init__(self) -> None:
        self.answer: Move | None = None
        self.asked = 0

    def choose(self, table: Table, seat: int, rng: random.Random) -> Move | None:
        self.asked += 1
        return self.answer


def test_a_bot_still_thinking_is_not_due_until_the_referee_is_refreshed() -> None:
    table = pika()
    bot = Later()
    ref = Referee(table, seats("bot", "human"), idle=30.0, bot_delay=0.0,
                  rng=random.Random(1), bots=lambda seat: bot)
    ref.changed(0.0)
    assert ref.fire(0.0) is None and bot.asked == 1 and table.version == 0
    assert ref.next_due() is None, "no bot is due while it thinks: the loop may sleep"
    assert ref.fire(100.0) is None and bot.asked == 1
    bot.answer = R7
    ref.refresh(5.0)                               # the answer came
    played = ref.fire(5.0)
    assert played is not None and (played.kind, played.seat, played.move) == (BOT, 0, R7)
    assert bot.asked == 2 and ref.changed_at == 5.0 and table.version == 1
