"""Hard bots at the host (issue 14): they think off the host's loop, so another player is
answered while one thinks; their thinking time and the idle stand-in's level are table
settings, bounded, shown in the summary and kept across a restart. Real host, real sockets on
127.0.0.1 for the ordering; the host's parts for the settings."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from cardparty.net.host import Host
from cardparty.net.host.model import DEFAULT_BOT_BUDGET_MS
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message
from tests.net.hostkit import Kit
from tests.net.test_hostile import Raw


def said(raw: Raw, msg: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """Send ``msg``; every message up to its reply goes to ``log``; the reply."""
    raw.send(encode(msg))
    while True:
        assert raw.sock.poll(10_000), "no reply from the host"
        got = decode(raw.sock.recv(), HOST_LIMITS)
        log.append(got)
        if got.get("rid") == msg.get("rid") and got["type"] != "view":
            return got


def drained(raw: Raw, log: list[dict[str, Any]], wait_ms: int = 0) -> None:
    while raw.sock.poll(wait_ms):
        log.append(decode(raw.sock.recv(), HOST_LIMITS))
        wait_ms = 0


def versions(log: list[dict[str, Any]], table: str) -> list[int]:
    return [m["version"] for m in log if m["type"] == "view" and m["table"] == table]


def test_a_player_is_answered_while_a_hard_bot_thinks_then_the_bot_moves() -> None:
    """Bob's pings are all answered while the hard bot's question waits in its worker, and the
    bot's move comes once the worker answers. The worker is held (SIGSTOP) while Bob pings,
    so the ordering does not depend on how long the search happens to think; with the bot on
    the loop, the host would answer nothing while it thinks."""
    host = Host("tcp://127.0.0.1:0", "bots", heartbeat=1.0, idle=None, testing=True)
    host.start()
    eva, bob = Raw(host.address, host.keys.public), Raw(host.address, host.keys.public)
    thinkers = host.parts.timers.thinkers
    assert thinkers is not None
    worker = thinkers._idle()                     # the worker the bot's question will go to
    assert worker is not None and thinkers.workers == [worker]
    held = worker.proc.pid
    os.kill(held, signal.SIGSTOP)
    pids = [held]
    try:
        seen: list[dict[str, Any]] = []
        said(eva, message("hello", rid=1, name="Eva"), seen)
        made = said(eva, message("create", rid=2, game="pika", players=2, seed=3,
                                 settings={"dealer": 0}, bot_budget_ms=4000), seen)
        tid = made["table"]["id"]
        assert made["table"]["bot_budget_ms"] == 4000
        said(eva, message("sit", rid=3, table=tid, seat=0), seen)
        said(eva, message("bots", rid=4, table=tid, level="hard"), seen)
        said(eva, message("ready", rid=5, table=tid), seen)        # the bot's turn first
        for _ in range(100):                                       # the question is asked
            if thinkers.asked >= 1:
                break
            time.sleep(0.05)
        assert thinkers.asked >= 1 and worker.job is not None, "the bot asked no worker"
        heard: list[dict[str, Any]] = []
        said(bob, message("hello", rid=1, name="Bob"), heard)
        pongs = [said(bob, message("ping", rid=10 + i, at=i), heard) for i in range(5)]
        assert [p["type"] for p in pongs] == ["pong"] * 5
        drained(eva, seen, 100)
        assert versions(seen, tid) == [0], "the bot moved before its worker answered"
        os.kill(held, signal.SIGCONT)
        for _ in range(600):                                       # then the bot moves
            drained(eva, seen, 100)
            if 1 in versions(seen, tid):
                break
        assert 1 in versions(seen, tid), "the hard bot never moved"
        pids = [w.proc.pid for w in thinkers.workers]
        assert pids == [held], "the answer came from the worker that was held"
    finally:
        os.kill(held, signal.SIGCONT)
        eva.close()
        bob.close()
        host.stop()
    for pid in pids:                       # the host stopped its workers, and reaped them
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_the_bot_settings_are_bounded_and_refused_in_words() -> None:
    kit = Kit()
    eva = kit.player("Eva")
    for wrong in (9, 5001, 2.5, "fast", True):
        why = kit.refused("bad_field", eva, "create", game="pika", players=2,
                          bot_budget_ms=wrong)
        assert why == "create: field bot_budget_ms must be a whole number from 10 to 5000"
    why = kit.refused("bad_field", eva, "create", game="pika", players=2,
                      standin_level="genius")
    assert why.startswith("create: field standin_level must be one of 'easy', 'normal', "
                          "'hard'")
    assert not kit.parts.tables.all, "nothing was created"


def test_the_bot_settings_are_shown_and_kept_across_a_restart(tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=b"E" * 32)
    plain = kit.ask(eva, "create", game="pika", players=2)["table"]
    assert (plain["bot_budget_ms"], plain["standin_level"]) == (DEFAULT_BOT_BUDGET_MS, "normal")
    made = kit.ask(eva, "create", game="pika", players=2, bot_budget_ms=900,
                   standin_level="basic")["table"]
    assert (made["bot_budget_ms"], made["standin_level"]) == (900, "normal")
    made = kit.ask(eva, "create", game="pika", players=3, bot_budget_ms=1200,
                   standin_level="hard")["table"]
    kit.ask(eva, "sit", table=made["id"])
    kit.ask(eva, "bots", table=made["id"], count=1, level="hard")
    kit.ask(eva, "bots", table=made["id"], level="random")
    kit.parts.close()
    again = Kit(data=tmp_path)
    try:
        ht = again.table(made["id"])
        assert (ht.timing.bot_budget_ms, ht.timing.standin_level) == (1200, "hard")
        summary = again.parts.views.summary(ht)
        assert [s["level"] for s in summary["seats"]] == [None, "hard", "easy"]
    finally:
        again.parts.close()


def test_an_idle_player_is_stood_in_for_at_the_tables_level_off_the_loop() -> None:
    """The stand-in of a table whose stand-in level is hard asks a worker, and its move
    arrives when the answer does: the loop's clock does not move meanwhile."""
    kit = Kit(bot_workers=1)
    try:
        eva, petr = kit.player("Eva"), kit.player("Petr")
        tid = kit.open_table("pika", eva, 2, settings={"dealer": 1}, idle=5.0, seed=4,
                             standin_level="hard", bot_budget_ms=50)
        for p in (eva, petr):
            kit.ask(p, "sit", table=tid)
            kit.ask(p, "ready", table=tid)
        ht = kit.table(tid)
        assert ht.engine.to_move() == (0,)
        kit.tick(5.0)                              # Eva idles: a hard stand-in covers her
        assert ht.seats[0].standin
        kit.tick(0.0)                              # and thinks: nothing moved yet
        assert ht.engine.version == 0
        thinkers = kit.parts.timers.thinkers
        assert thinkers is not None and thinkers.asked == 1
        for _ in range(600):
            kit.tick(0.0)                          # the loop's turns, the clock standing
            if ht.engine.version:
                break
            time.sleep(0.05)
        assert ht.engine.version == 1 and ht.engine.journal[0][0] == 0
    finally:
        kit.parts.close()
