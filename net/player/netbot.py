"""A bot that plays over the network: one Session, one seat, until the game's result.

Owns: choosing a move from nothing but the view a host sends (the game's own bot policy through
its ``cardparty_bot_move`` hook when the game is installed here too, a uniformly random listed
move otherwise), sending it with the view's version, and riding out stale replies, lost
connections and host restarts (the Session reconnects and resumes; the host pushes a fresh
view). ``cardparty bot-client``, the tests and the benchmark use it.

Must not know about: any particular game (it only reads the generic view), terminals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import cast

from cardparty.core.bots import canonical_level
from cardparty.core.contract import Move, View
from cardparty.core.discovery import load_catalog
from cardparty.core.table import rules_manager
from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire.play_replies import (
    ConnectionPush,
    HostMessage,
    MoveReply,
)
from cardparty.net.wire.protocol import ErrorReply
from cardparty.net.wire.record_replies import RecordResult
from cardparty.net.wire.replies import TableSummary, ViewMessage


class BotGone(Exception):
    """The table cannot be played to its end: it vanished, broke, or time ran out."""


def choose(view: View, rng: random.Random, level: str = "normal") -> int:
    """The id of the move to play in ``view``: the game's bot policy at ``level`` if the game
    is installed here, else (and at ``easy``) random among the listed moves."""
    listed = view.get("moves") or []
    catalog = load_catalog()
    game = view.get("game")
    canonical = canonical_level(level)
    if canonical != "easy" and isinstance(game, str) and game in catalog.games:
        moves = [Move(m["kind"], tuple(m.get("cards") or ()), m.get("choice"), m.get("label", ""))
                 for m in listed]
        try:
            pm, _ = rules_manager(catalog, game, (), (catalog.plugins[game],))
            # Hard plays as normal over the network: the search needs the host's state.
            chosen = pm.hook.cardparty_bot_move(view=lambda: view, moves=moves, rng=rng,
                                              level="normal")
        except Exception:          # a policy that fails must not stop a bot
            chosen = None
        if chosen is not None:
            for i, m in enumerate(moves):
                if m.same(chosen):
                    return int(listed[i]["id"])
    return int(listed[rng.randrange(len(listed))]["id"])


@dataclass
class _Seat:
    """What ``play_table`` knows of its seat: the newest view, the version it last moved on
    (None: it may move again on the same version, after a refusal), its move in flight, and
    whether it asked for a first view."""

    latest: ViewMessage | None
    moved_on: int | None = None
    inflight: Future[MoveReply] | None = None
    asked: bool = False


def play_table(session: Session, table: str, *, level: str = "normal",
               rng: random.Random | None = None, timeout: float | None = None,
               on_message: Callable[[HostMessage], None] | None = None,
               delay: float | Callable[[], float] = 0.0,
               on_move: Callable[[ViewMessage, int, Future[MoveReply]], None] | None
               = None) -> RecordResult:
    """Play our seat at ``table`` until the game is over; return the result map (``places``,
    ``scores``, ...). The session must be connected and seated (or resumed). BotGone if the
    table vanishes or breaks, or ``timeout`` seconds pass. ``on_message`` sees every pushed
    message (tests record them). ``delay``: seconds to think before each move (or a function
    saying it, asked before each: a test paces a game to outlast what it runs beside it).
    ``on_move`` sees each move as it is sent: the view it was chosen in, the move's id, and
    the future of the host's answer (a history records what was sent and answered)."""
    rng = rng or random.Random()
    deadline = None if timeout is None else time.monotonic() + timeout
    me = _Seat(session.views.get(table))
    while True:
        if deadline is not None and time.monotonic() > deadline:
            raise BotGone(f"table {table} did not finish in {timeout} s")
        msg = session.next_message(0.2 if me.inflight is None else 0.05)
        if msg is not None:
            if on_message is not None:
                on_message(msg)
            _pushed(me, table, msg)
        elif me.latest is None and not me.asked and session.connected:
            me.asked = True                  # seated before the first view: ask for one
            session.send("snapshot", table=table)
        held = session.views.get(table)        # the session keeps the newest view it got
        if held is not None and (me.latest is None or held["version"] > me.latest["version"]):
            me.latest = held
        result = _result(me)
        if result is not None:
            return result
        _answered(me)
        latest = me.latest
        if (me.inflight is None and latest is not None and latest["view"]["moves"]
                and latest["version"] != me.moved_on and session.connected):
            pause = delay() if callable(delay) else delay
            if pause:
                time.sleep(pause)
            me.moved_on = latest["version"]
            pick = choose(latest["view"], rng, level)
            me.inflight = session.send_move(table, pick, latest["version"])
            if on_move is not None:
                on_move(latest, pick, me.inflight)


def _result(me: _Seat) -> RecordResult | None:
    """The game's result once the newest view has one."""
    if me.latest is not None and me.latest["view"].get("result"):
        # a view's result is a Result.to_wire map
        return cast(RecordResult, me.latest["view"].get("result"))
    return None


def _pushed(me: _Seat, table: str, msg: HostMessage) -> None:
    """A pushed message: a newer view of the table is kept; a broken or vanished table, or a
    host that no longer knows this player, ends the game (BotGone)."""
    kind = msg["type"]
    if kind == "view" and msg.get("table") == table:
        view = cast(ViewMessage, msg)                   # a view of this table
        latest = me.latest
        if latest is None or view["version"] >= latest["version"] or view.get("snapshot"):
            me.latest = view
        if view.get("snapshot"):
            # The host's whole picture: whatever was answered before, a seat to move in it
            # moves (a host that took over may hold the table before a move it never had).
            me.moved_on = None
    elif kind == "table":
        summary = cast(TableSummary, msg.get("table"))  # a ``table`` push's summary
        if summary["id"] == table and summary["status"] == "broken":
            raise BotGone(f"table {table} broke: {summary.get('failure')}")
    elif kind == "connection":
        said = cast(ConnectionPush, msg)
        if said["state"] == "restored" and not said["resumed"]:
            raise BotGone("the host no longer knows this player (it restarted without its "
                          "data)")
    elif kind == "error":
        refusal = cast(ErrorReply, msg)
        if refusal.get("code") == "no_table":
            raise BotGone(refusal["message"])


def _answered(me: _Seat) -> None:
    """The move in flight, once answered: a listed move refused is chosen again; a table
    gone, or a seat lost, ends the game (BotGone) unless it is over."""
    if me.inflight is None or not me.inflight.done():
        return
    try:
        me.inflight.result()
    except SessionError as exc:
        if exc.code in ("illegal", "gone", "unanswered"):
            # a listed move refused, not sent, or sent to a host that went away before it
            # answered (the table it comes back with says whether it was played): choose again
            me.moved_on = None
        elif exc.code in ("no_table", "not_seated", "not_playing", "closed") and (
                _result(me) is None):
            raise BotGone(exc.message) from None
    me.inflight = None
