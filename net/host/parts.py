"""The host's parts wired together, without a socket: what a request does, what is due.

Owns: building the parts around one ``Outbox`` and one ``Clock`` (roster, views, play and its
timers, lobby and its chat, match, persistence, the economy and open play's seeking), the
table of request handlers by message type, and the two things the server's loop asks: ``next_due``
and ``tick``. ``request`` runs one request exactly as the server does after decoding it, so
the lobby and play rules are tested with a ``MemoryOutbox`` and a ``ManualClock``, in milliseconds.

Must not know about: sockets, frames, rate limits (the server owns those).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from cardparty.core.contract import Result
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.core.table import Table
from cardparty.net.host.clock import Clock
from cardparty.net.host.economy import Economy
from cardparty.net.host.invitations import Invitations
from cardparty.net.host.lobby import Lobby
from cardparty.net.host.lobby_chat import LobbyChat
from cardparty.net.host.match import Match
from cardparty.net.host.model import HostTable, Player, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.owner import Owner
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.play import Play
from cardparty.net.host.roster import Roster
from cardparty.net.host.seek import Seeks
from cardparty.net.host.settings import HostSettings
from cardparty.net.host.timers import Timers
from cardparty.net.host.views import Views
from cardparty.net.protocol import check_request, message

Handler = Callable[[Player, dict[str, Any]], dict[str, Any] | None]


class HostParts:
    def __init__(self, outbox: Outbox, clock: Clock, *, name: str = "cardparty",
                 data: str | os.PathLike[str] | None = None, heartbeat: float = 1.0,
                 liveness: int = 3, idle: float | None = 120.0, bot_delay: float = 0.0,
                 keep_over: float = 600.0, max_tables: int = 1000, max_players: int = 4096,
                 catalog: Catalog | None = None,
                 observer: Callable[[str, Table], None] | None = None,
                 timers: Timers | None = None, economy: str | os.PathLike[str] | None = None,
                 settings: HostSettings | None = None, testing: bool = False,
                 bot_workers: int | None = None) -> None:
        """``economy``: the ledger's SQLite file (":memory:" for one that lasts as long as
        the host); None: no coins, every table plays and pays nothing (``cardparty play``).
        ``bot_workers``: the most processes hard bots think in (None: the machine's; 0:
        none, they think on the loop)."""
        self.outbox = outbox
        self.clock = clock
        self.closed = False
        self.catalog = catalog or load_catalog()
        self.heartbeat = heartbeat
        self.persistence = Persistence(data, self.catalog, clock)
        self.tables = Tables()
        games = sorted(self.catalog.games)
        self.roster = Roster(outbox, clock, self.persistence, name=name, heartbeat=heartbeat,
                             liveness=liveness, keep_over=keep_over, max_players=max_players,
                             games=lambda: games)
        self.timers = timers or Timers(bot_workers)
        self.play = Play(self.tables, clock, self.timers, self.persistence,
                         self.roster.by_id, observer)
        self.views = Views(outbox, clock, self.timers, self.roster.by_id, self.play.fail)
        self.play.views = self.views
        self.lobby = Lobby(self.tables, clock, outbox, self.roster, self.views, self.play,
                           self.catalog, idle=idle, bot_delay=bot_delay, keep_over=keep_over,
                           max_tables=max_tables)
        self.owner = Owner(self.lobby)
        self.invitations = Invitations(self.lobby)
        self.lobby_chat = LobbyChat(self.tables, self.roster, outbox, clock, self.lobby.on_chat)
        self.match = Match(self.tables, clock, self.views, self.play, self.catalog)
        self.settings = settings or HostSettings()
        ledger = None if economy is None else Ledger(economy, now=clock.wall,
                                                     rules=self.settings.rules)
        self.economy = Economy(ledger, outbox, clock, self.settings, self.tables)
        self.lobby.economy = self.economy
        self.seeks = Seeks(self.tables, clock, self.lobby, self.play, self.views, self.economy)
        self.play.on_over = self._over
        self.play.on_start = self.economy.started
        self.roster.on_presence = self.lobby.presence
        self.roster.on_back = self.lobby.back
        self.roster.seated = self.lobby.seated
        self.roster.on_forget = self.lobby.forgotten
        # A host for tests lets clients choose deals, and every player is told so.
        self.roster.testing = self.lobby.testing = self.views.testing = testing
        lobby, play, roster = self.lobby, self.play, self.roster
        self.handlers: dict[str, Handler] = {
            "ping": roster.on_ping, "bye": roster.on_bye,
            "games": lobby.on_games, "tables": lobby.on_tables, "create": lobby.on_create,
            "sit": lobby.on_sit, "leave": lobby.on_leave, "bots": lobby.on_bots,
            "invite": self.invitations.on_invite, "ready": lobby.on_ready, "start": lobby.on_start,
            "watch": lobby.on_watch, "snapshot": lobby.on_snapshot, "chat": self.lobby_chat.on_chat,
            "move": play.on_move, "reorder": play.on_reorder, "again": self.match.on_again,
            "remove": self.owner.on_remove, "close": self.owner.on_close,
            "strangers": self.owner.on_strangers,
            "seek": self.seeks.on_seek, "unseek": self.seeks.on_unseek,
            "profile": self.economy.on_profile, "league": self.economy.on_league,
            "buy": self.economy.on_buy,
        }
        self._next_sweep = clock.now()
        if self.persistence.store is not None:
            self.roster.load()
            self.lobby.loaded(self.persistence.tables(self.roster.players, clock.now()))
        self.economy.recover(list(self.tables.all.values()))

    def _over(self, ht: HostTable, result: Result) -> None:
        """A round is over: the match records it, then the economy pays it."""
        self.match.record(ht, result)
        self.economy.settle(ht, result)

    # --- the loop's questions ----------------------------------------------------------------

    def next_due(self) -> float:
        """When the loop must look again at the latest: a timer, or the next sweep."""
        due = [d for d in (self.play.next_due(), self.seeks.next_due()) if d is not None]
        return min([*due, self._next_sweep])

    def tick(self, now: float) -> None:
        """Fire due timers; every half heartbeat, liveness and housekeeping."""
        self.play.tick(now)
        self.seeks.tick(now)
        if now >= self._next_sweep:
            self._next_sweep = now + min(self.heartbeat / 2, 1.0)
            self.roster.sweep(now)
            self.lobby.sweep(now)
            self.economy.reconcile()

    def wake_fds(self) -> frozenset[int]:
        """Besides the socket, what the loop waits on: hard bots' answers."""
        return self.timers.fds()

    def close(self) -> None:
        """Stop the bots' workers and close the store and the ledger; once (a second call,
        as a test's cleanup after the host's own, does nothing)."""
        if self.closed:
            return
        self.closed = True
        self.timers.close()
        self.persistence.close()
        self.economy.close()

    # --- requests without a socket (tests, and the server after decoding) --------------------

    def hello(self, route: bytes, name: str, token: str | None = None,
              user: bytes | None = None) -> Player:
        """A hello on ``route`` from a connection authenticated as ``user`` (None: no CURVE;
        ``token`` is sent as an old client would, and ignored)."""
        fields: dict[str, Any] = {"name": name}
        if token is not None:
            fields["token"] = token
        return self.roster.hello(route, check_request(message("hello", **fields)), user)

    def request(self, player: Player, kind: str, **fields: Any) -> dict[str, Any] | None:
        """``kind`` from ``player`` with ``fields``, checked by the protocol's schema: the
        reply (None when the handler sent it itself). ProtocolError as the server would
        answer it."""
        req = check_request(message(kind, **fields))
        return self.handlers[kind](player, req)
