"""A link to one table of the embedding API played in this process, bots in the other seats.

No host, no sockets: the headless tests and the render benchmark drive the real screens with
real views (``Table.view``) through it, exactly as ``net_link`` delivers them from a host. It
plays the deadlines' moves when their time runs out (a Pika warning) as the host would.

Must not know about: terminals, the wire.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from cardparty.client.link import Deliver
from cardparty.core.bots import PolicyBot
from cardparty.core.contract import SYSTEM, Move
from cardparty.core.discovery import load_catalog
from cardparty.core.table import IllegalMove, Table, open_table


class LocalLink:
    """One human seat at an in-process table. Bots answer at once (synchronously), so a test
    sees the next state of the table as soon as its key has been handled."""

    def __init__(self, game: str = "pika", players: int = 4, seat: int = 0,
                 settings: dict[str, Any] | None = None, seed: int = 1,
                 name: str = "You", bot_level: str = "basic", timers: bool = True) -> None:
        self.game, self.players, self.seat = game, players, seat
        self.settings, self.seed, self.name = settings, seed, name
        self.bot = PolicyBot(bot_level)
        self.rng = random.Random(seed)
        self.timers = timers
        self.deliver: Deliver = lambda msg: None
        self.lock = threading.RLock()
        self.timer: threading.Timer | None = None
        self.closed = False
        self.sent: list[dict[str, Any]] = []
        self._open(seed)

    def _open(self, seed: int) -> None:
        names = [self.name if s == self.seat else f"Bot {s + 1}" for s in range(self.players)]
        self.t: Table = open_table(self.game, self.players, self.settings, seed=seed,
                                   names=names)
        self.seen = 0

    # --- Link -------------------------------------------------------------------------------

    def start(self, deliver: Deliver) -> None:
        self.deliver = deliver
        info = load_catalog().game(self.game)
        deliver({"type": "welcome", "name": self.name, "host": "in-process"})
        deliver({"type": "lobby", "games": [{**info.to_wire(), "variants": []}],
                 "tables": [self._listing()]})
        self._settle()

    def close(self) -> None:
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()

    def send_move(self, table: Any, move: dict[str, Any]) -> None:
        with self.lock:
            self.sent.append(move)
            try:
                self.t.play(self.seat, Move.from_wire(move))
            except (IllegalMove, ValueError) as exc:
                self.deliver({"type": "error", "text": str(exc)})
                return
            self._settle()

    def reorder(self, table: Any, order: list[str]) -> None:
        with self.lock:
            try:
                self.t.reorder(self.seat, order)
            except IllegalMove as exc:
                self.deliver({"type": "error", "text": exc.reason})
            self._send_view()

    def chat(self, table: Any, text: str) -> None:
        self.deliver({"type": "chat", "from": self.name, "text": text, "table": table})

    def request(self, action: str, **args: Any) -> None:
        with self.lock:
            if action == "again":
                self.seed += 1
                self._open(self.seed)
                self._settle()
            elif action == "leave":
                self.deliver({"type": "left"})
                self.deliver({"type": "lobby", "tables": [self._listing()]})
            elif action in ("sit", "spectate"):
                self._send_view()
            else:
                self.deliver({"type": "error",
                              "text": f"{action}: this table is played in-process, alone"})

    # --- the table moves on -----------------------------------------------------------------

    def _listing(self) -> dict[str, Any]:
        return {"id": 1, "game": self.game, "players": self.players, "mode": "practice",
                "seats": list(self.t.names), "status": "over" if self.t.result() else "playing",
                "ready": []}

    def _settle(self) -> None:
        """Bots move until the human seat may move (or the game is over); then one view."""
        for _ in range(10_000):
            if self.closed:
                return
            actors = [s for s in self.t.to_move() if s != self.seat]
            if not actors:
                break
            s = actors[0]
            self.t.play(s, self.bot.choose(self.t, s, self.rng))
        self._send_view()
        self._arm_timer()

    def _send_view(self) -> None:
        events = self.t.events_for(self.seat, self.seen)
        self.seen = len(self.t.events)
        self.deliver({"type": "view", "table": 1, "view": self.t.view(self.seat),
                      "events": events})

    def _arm_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        deadlines = self.t.deadlines()
        if not deadlines or not self.timers or self.closed:
            return
        first = min(deadlines, key=lambda d: d.seconds)
        version = self.t.version

        def expire() -> None:
            with self.lock:
                if self.closed or self.t.version != version:
                    return
                try:
                    self.t.play(SYSTEM, first.move)
                except IllegalMove:
                    return
                self._settle()

        self.timer = threading.Timer(first.seconds, expire)
        self.timer.daemon = True
        self.timer.start()
