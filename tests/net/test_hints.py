"""Hints at the host (issue 26, item 3): a seated player at a practice table, or at a friends
table whose creator turned hints on, asks what the hard bot would play from his seat; open and
entry tables never give one. The rules through the host's parts (milliseconds, the search on
the loop); the search off the loop, its answer and its secrecy through a real host on
127.0.0.1, with the wire tests' check of what each seat may see."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cardparty.net.host import Host
from cardparty.net.host.model import Player
from cardparty.net.player.session import Session, SessionError
from tests.net.conftest import Visibility
from tests.net.hostkit import Kit

FAST = 20          # ms a hint may think: enough for a move, short for a test


def kit(**kw: Any) -> Kit:
    kw.setdefault("bot_workers", 0)           # the search on the loop: an answer at once
    return Kit(**kw)


def playing(k: Kit, mode: str, player: Player, **fields: Any) -> str:
    """A Pika table for two of ``mode``: ``player`` in seat 0, a bot in seat 1, started, and
    played on until seat 0 has a move to make."""
    tid = k.open_table("pika", player, 2, mode=mode, seed=5, settings={"dealer": 1},
                       bot_budget_ms=FAST, **fields)
    k.ask(player, "sit", table=tid, seat=0)
    k.ask(player, "bots", table=tid)
    k.ask(player, "start", table=tid)
    ht = k.table(tid)
    for _ in range(1000):
        if ht.engine.legal_moves(0):
            return tid
        k.tick(0.01)
    raise AssertionError("seat 0 never had a move")


def test_a_practice_table_gives_its_player_the_hard_bots_move() -> None:
    k = kit()
    eva = k.player("eva")
    tid = playing(k, "practice", eva)
    ht = k.table(tid)
    got = k.ask(eva, "hint", table=tid)
    assert got is not None and got["type"] == "hint" and got["version"] == ht.engine.version
    moves = ht.engine.legal_moves(0)
    assert 0 <= got["move"] < len(moves)
    assert got["label"] == str(moves[got["move"]].label or moves[got["move"]].kind)
    assert got["reason"] and got["reason_msg"]["id"]
    assert ht.engine.version == got["version"], "a hint changed the table"
    summary = k.ask(eva, "tables")["tables"][0]
    assert summary["hints"] is True


def test_open_and_entry_tables_give_no_hint_and_take_no_hints_setting() -> None:
    k = kit(economy=":memory:")
    eva, petr = k.player("eva"), k.player("petr")
    tid = playing(k, "open", eva)
    msg = k.refused("no_hints", eva, "hint", table=tid)
    assert "practice tables" in msg
    entry = k.open_table("pika", petr, 2, mode="entry", stake=100)
    k.ask(petr, "sit", table=entry)
    k.refused("no_hints", petr, "hint", table=entry)
    for mode in ("open", "entry"):
        fields = {"stake": 100} if mode == "entry" else {}
        k.refused("no_hints", eva, "create", game="pika", players=2, mode=mode, hints=True,
                  **fields)
    shown = {t["id"]: t["hints"] for t in k.ask(eva, "tables")["tables"]}
    assert shown == {tid: False, entry: False}


def test_a_friends_table_gives_hints_only_when_its_creator_turned_them_on() -> None:
    k = kit()
    eva = k.player("eva")
    plain = playing(k, "friends", eva)
    k.refused("no_hints", eva, "hint", table=plain)
    hinted = playing(k, "friends", eva, hints=True)
    assert k.ask(eva, "hint", table=hinted)["type"] == "hint"
    shown = {t["id"]: t["hints"] for t in k.ask(eva, "tables")["tables"]}
    assert shown == {plain: False, hinted: True}


def test_a_spectator_and_a_seat_without_a_move_get_no_hint() -> None:
    k = kit()
    eva, petr = k.player("eva"), k.player("petr")
    tid = playing(k, "practice", eva)
    k.ask(petr, "watch", table=tid)
    k.refused("not_seated", petr, "hint", table=tid)
    ht = k.table(tid)
    k.ask(eva, "move", table=tid, move=0, version=ht.engine.version)
    assert not ht.engine.legal_moves(0), "the deal no longer gives the bot the next turn"
    k.refused("no_move", eva, "hint", table=tid)


def test_the_hints_setting_is_kept_across_a_restart(tmp_path: Any) -> None:
    k = kit(data=tmp_path)
    eva = k.player("eva", token="e" * 32)
    tid = playing(k, "friends", eva, hints=True)
    k.parts.close()
    again = kit(data=tmp_path)
    assert again.table(tid).access.gives_hints


# --- a real host: the search off its loop, and what the hint may name -----------------------

@pytest.fixture
def real() -> Iterator[tuple[Host, Visibility]]:
    seen = Visibility()
    host = Host("tcp://127.0.0.1:0", "hints-host", heartbeat=0.2, idle=None, observer=seen,
                testing=True, bot_workers=1)
    host.start()
    yield host, seen
    host.stop()


def my_turn(s: Session, tid: str, seat: int = 0, patience: float = 20.0) -> dict[str, Any]:
    """The newest view of ``tid`` once it lists moves for us."""
    end = time.monotonic() + patience
    while time.monotonic() < end:
        view = s.views.get(tid) or {}
        if (view.get("view") or {}).get("moves") and view.get("seat") == seat:
            return view
        time.sleep(0.02)
    raise AssertionError("our turn never came")


CODE = re.compile(r"[0-9A-Z+]+")


def test_the_host_works_the_hint_out_off_its_loop_from_the_seats_view(
        real: tuple[Host, Visibility]) -> None:
    """At a practice table the hint comes from the host's worker with the move's id in the
    view we hold, and its label and reason name no card our seat could not see at that
    version (the search itself decides from the seat's view alone: ``core.hint``'s tests
    give a table whose hidden cards differ the same hint, word for word)."""
    host, seen = real
    s = Session(host.address, "Eva", backoff=(0.02, 0.2), request_timeout=20.0)
    s.connect(timeout=5.0)
    try:
        tid = s.request("create", game="pika", players=2, mode="practice", seed=5,
                        settings={"dealer": 1}, bot_budget_ms=FAST)["table"]["id"]
        s.request("sit", table=tid, seat=0)
        s.request("bots", table=tid)
        s.request("ready", table=tid)
        asked = 0
        for _ in range(6):                 # a few positions of one game
            view = my_turn(s, tid)
            try:
                got = s.request("hint", table=tid)
            except SessionError as exc:
                assert exc.code == "stale"        # a stand-in or a timer moved first
                continue
            asked += 1
            assert got["version"] == view["version"]
            moves = view["view"]["moves"]
            assert got["move"] in [m["id"] for m in moves]
            mine = seen.seen[(tid, got["version"])][0]
            deck = seen.deck[tid]
            named = set(CODE.findall(f"{got['label']} {got['reason'] or ''}")) & deck
            assert named <= set(mine), f"the hint named unseen cards {named - set(mine)}"
            chosen = next(m for m in moves if m["id"] == got["move"])
            s.request("move", table=tid, move=chosen["id"], version=view["version"])
        assert asked >= 3
        assert host.parts.timers.thinkers is not None and host.parts.timers.thinkers.asked
    finally:
        s.close()



def answered(k: Kit, player: Player, patience: float = 30.0) -> dict[str, Any]:
    """The hint or refusal the host sent ``player`` once its worker answered."""
    end = time.monotonic() + patience
    while time.monotonic() < end:
        k.parts.tick(k.clock.now())            # the loop's turn: the worker's answers read
        got = [m for m in k.out.take(player) if m["type"] in ("hint", "error")]
        if got:
            (one,) = got
            return one
        time.sleep(0.01)
    raise AssertionError("no answer from the worker")


def test_a_hint_off_the_loop_answers_its_rid_once_and_a_moved_table_makes_it_stale() -> None:
    """With a worker, ``hint`` is answered later, to its rid; asking again meanwhile is
    refused (one question per seat); a move before the answer makes it ``stale``."""
    k = Kit(bot_workers=1)
    eva = k.player("eva")
    tid = playing(k, "practice", eva)
    ht = k.table(tid)
    assert k.ask(eva, "hint", table=tid, rid=41) is None
    k.refused("hinting", eva, "hint", table=tid)
    got = answered(k, eva)
    assert (got["type"], got["rid"], got["version"]) == ("hint", 41, ht.engine.version)
    assert k.ask(eva, "hint", table=tid, rid=42) is None
    k.ask(eva, "move", table=tid, move=0, version=ht.engine.version)
    got = answered(k, eva)
    assert (got["type"], got["code"], got["rid"], got["about"]) == ("error", "stale", 42, "hint")
