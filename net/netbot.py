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
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.discovery import load_catalog
from cardparty.core.table import rules_manager
from cardparty.net.session import Session, SessionError


class BotGone(Exception):
    """The table cannot be played to its end: it vanished, broke, or time ran out."""


def choose(view: dict[str, Any], rng: random.Random, level: str = "normal") -> int:
    """The id of the move to play in ``view``: the game's bot policy if installed here, else
    random among the listed moves."""
    listed = view["moves"]
    catalog = load_catalog()
    game = view.get("game")
    if level != "easy" and game in catalog.games:
        moves = [Move(m["kind"], tuple(m["cards"]), m["choice"], m["label"]) for m in listed]
        try:
            hook = rules_manager(catalog, game, (), (catalog.plugins[game],)).hook
            # Hard plays as normal over the network: the search needs the host's state.
            chosen = hook.cardparty_bot_move(view=lambda: view, moves=moves, rng=rng,
                                             level="normal")
        except Exception:          # a policy that fails must not stop a bot
            chosen = None
        if chosen is not None:
            for i, m in enumerate(moves):
                if m.same(chosen):
                    return listed[i]["id"]
    return listed[rng.randrange(len(listed))]["id"]


def play_table(session: Session, table: str, *, level: str = "normal",
               rng: random.Random | None = None, timeout: float | None = None,
               on_message: Any = None,
               delay: float | Callable[[], float] = 0.0) -> dict[str, Any]:
    """Play our seat at ``table`` until the game is over; return the result map (``places``,
    ``scores``, ...). The session must be connected and seated (or resumed). BotGone if the
    table vanishes or breaks, or ``timeout`` seconds pass. ``on_message`` sees every pushed
    message (tests record them). ``delay``: seconds to think before each move (or a function
    saying it, asked before each: a test paces a game to outlast what it runs beside it)."""
    rng = rng or random.Random()
    deadline = None if timeout is None else time.monotonic() + timeout
    latest: dict[str, Any] | None = session.views.get(table)
    moved_on: int | None = None
    inflight: Future[dict[str, Any]] | None = None
    asked = False
    while True:
        if deadline is not None and time.monotonic() > deadline:
            raise BotGone(f"table {table} did not finish in {timeout} s")
        msg = session.next_message(0.2 if inflight is None else 0.05)
        if msg is not None:
            if on_message is not None:
                on_message(msg)
            kind = msg["type"]
            if kind == "view" and msg.get("table") == table:
                if latest is None or msg["version"] >= latest["version"] or msg.get("snapshot"):
                    latest = msg
            elif kind == "table" and msg["table"]["id"] == table:
                if msg["table"]["status"] == "broken":
                    raise BotGone(f"table {table} broke: {msg['table'].get('failure')}")
            elif kind == "connection" and msg["state"] == "restored" and not msg["resumed"]:
                raise BotGone("the host no longer knows this player (it restarted without "
                              "its data)")
            elif kind == "error" and msg.get("code") == "no_table":
                raise BotGone(msg["message"])
        elif latest is None and not asked and session.connected:
            asked = True                  # seated before the first view: ask for one
            session.send("snapshot", table=table)
        held = session.views.get(table)        # the session keeps the newest view it got
        if held is not None and (latest is None or held["version"] > latest["version"]):
            latest = held
        if latest is not None and latest["view"].get("result"):
            return latest["view"]["result"]
        if inflight is not None and inflight.done():
            try:
                inflight.result()
            except SessionError as exc:
                if exc.code == "illegal":
                    moved_on = None       # a listed move refused: choose again
                elif exc.code in ("no_table", "not_seated", "not_playing", "closed"):
                    if latest is not None and latest["view"].get("result"):
                        continue
                    raise BotGone(exc.message) from None
            inflight = None
        if (inflight is None and latest is not None and latest["view"]["moves"]
                and latest["version"] != moved_on and session.connected):
            pause = delay() if callable(delay) else delay
            if pause:
                time.sleep(pause)
            moved_on = latest["version"]
            inflight = session.send_move(table, choose(latest["view"], rng, level),
                                         latest["version"])
