"""The players a host knows: who they are, where they are connected, whether they are alive.

Owns: players by token (their identity in v1) and by id, the route each is connected by, the
routes replaced by a newer hello, ``hello`` (a new player, a resumed one, the same connection
saying hello again, one connection replacing another), ``bye``, ``ping``, liveness (Paranoid
Pirate: a player silent for ``heartbeat * liveness`` seconds is disconnected) and forgetting
a player long gone. Identity is looked up in one place (``identify``), where an
authenticated key will be read.

Must not know about: sockets (it sends through an ``Outbox``), tables (it tells
``on_presence`` and ``on_back`` and lets the lobby say what that means).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import secrets
from collections.abc import Callable
from typing import Any

from cardparty.net.host.clock import Clock
from cardparty.net.host.model import FORGET_UNSEATED, Player, token_key
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.persistence import Persistence
from cardparty.net.protocol import PROTOCOL, ProtocolError, message

log = logging.getLogger("cardparty.host")

#: Replaced routes remembered (to answer them ``replaced``), oldest forgotten first.
MAX_SUPERSEDED = 4096


class Roster:
    def __init__(self, outbox: Outbox, clock: Clock, persistence: Persistence, *,
                 name: str, heartbeat: float, liveness: int, keep_over: float,
                 max_players: int, games: Callable[[], list[str]]) -> None:
        self.outbox = outbox
        self.clock = clock
        self.persistence = persistence
        self.name = name
        self.heartbeat = heartbeat
        self.liveness = liveness
        self.keep_over = keep_over
        self.max_players = max_players
        self.games = games
        self.players: dict[str, Player] = {}   # by token_key(session token)
        self.by_id: dict[str, Player] = {}
        self.routes: dict[bytes, Player] = {}
        #: Routes whose player said hello again from another connection (oldest first).
        self.superseded: dict[bytes, None] = {}
        self._ids = itertools.count(1)
        #: called when a player's connection state changes (his tables show it)
        self.on_presence: Callable[[Player], None] = lambda p: None
        #: called after a hello: his tables and invitations are told again
        self.on_back: Callable[[Player], None] = lambda p: None
        #: whether a player sits at a table (the lobby says; watching is not sitting)
        self.seated: Callable[[Player], bool] = lambda p: bool(p.tables)
        #: called when a player is forgotten: the tables he watched let him go
        self.on_forget: Callable[[Player], None] = lambda p: None

    def load(self) -> None:
        """The players the store remembers; ids go on from the highest."""
        top = 0
        now = self.clock.now()
        for p in self.persistence.players():
            # Gone since the restart, not since the clock's zero: kept as long as if the host
            # had never stopped.
            p.last_seen = now
            p.settled = True
            self.players[p.token] = self.by_id[p.id] = p
            with contextlib.suppress(ValueError):
                top = max(top, int(p.id[1:]))
        self._ids = itertools.count(top + 1)

    # --- who is this -------------------------------------------------------------------------

    def identify(self, route: bytes, req: dict[str, Any]) -> Player | None:
        """The player a hello on ``route`` is: by his token, or the same connection saying
        hello again under the same name; None: a new player."""
        token = req.get("token")
        player = self.players.get(token_key(token)) if token else None
        known = self.routes.get(route)
        if player is None and known is not None and known.name == req["name"]:
            player = known               # the same connection saying hello again (a retry)
        return player

    def quota_key(self, route: bytes) -> Any:
        """What a connection's limits (requests a second, open tables, players) are counted
        against: the connection itself in v1, whatever name it says hello with; the one
        place that becomes the authenticated key once connections carry keys."""
        return route

    def find(self, token: str) -> Player | None:
        """The player whose session token is ``token`` (None: unknown)."""
        return self.players.get(token_key(token))

    def at(self, route: bytes) -> Player | None:
        return self.routes.get(route)

    def replaced(self, route: bytes) -> bool:
        return route in self.superseded

    # --- hello and bye -----------------------------------------------------------------------

    def hello(self, route: bytes, req: dict[str, Any]) -> Player:
        player = self.identify(route, req)
        # "resumed": the token was known (a retry on the same connection without one is
        # welcomed as the same player, but nothing was resumed).
        resumed = player is not None and bool(req.get("token")) and (
            self.players.get(token_key(req["token"])) is player)
        if resumed:
            player.secret = req["token"]
        old = self.routes.get(route)
        if player is None and old is not None and not self.keep(old):
            self.forget(old)          # a passing name on this connection gives its place up
            old = None
        if player is None:
            if len(self.players) >= self.max_players and not self.make_room():
                raise ProtocolError("busy", "this host has too many players")
            secret = secrets.token_hex(16)
            player = Player(id=f"p{next(self._ids)}", token=token_key(secret),
                            name=req["name"], secret=secret)
            self.players[player.token] = player
            self.by_id[player.id] = player
            self.persistence.save_player(player)
        if old is not None and old is not player:
            old.route = None
            self.set_connected(old, False)
        if player.route is not None and player.route != route:
            self.routes.pop(player.route, None)
            self.superseded[player.route] = None        # answered "replaced" from now on
            while len(self.superseded) > MAX_SUPERSEDED:
                del self.superseded[next(iter(self.superseded))]
        player.route = route
        self.routes[route] = player
        self.superseded.pop(route, None)
        player.last_seen = self.clock.now()
        self.outbox.send(player, message(
            "welcome", rid=req["rid"], host=self.name, token=player.secret, player=player.id,
            name=player.name, resumed=resumed, heartbeat=self.heartbeat,
            liveness=self.liveness, protocol=PROTOCOL, games=self.games()))
        self.set_connected(player, True, force=True)
        self.on_back(player)
        return player

    def on_bye(self, player: Player, req: dict[str, Any]) -> None:
        reply = message("ok", about="bye", rid=req["rid"])
        route = player.route
        if route is not None:
            self.outbox.send(player, reply)
            self.routes.pop(route, None)
        player.route = None
        self.set_connected(player, False)

    def on_ping(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        return message("pong", at=req.get("at"), time=self.clock.wall())

    def gone(self, route: bytes) -> None:
        """The socket says ``route`` is unreachable: its player is disconnected."""
        player = self.routes.pop(route, None)
        if player is not None and player.route == route:
            player.route = None
            self.set_connected(player, False)

    # --- liveness ----------------------------------------------------------------------------

    def heard(self, player: Player, now: float) -> None:
        """Any message counts as a heartbeat."""
        player.last_seen = now
        if not player.connected:
            self.set_connected(player, True)

    def set_connected(self, player: Player, connected: bool, force: bool = False) -> None:
        if player.connected == connected and not force:
            return
        changed = player.connected != connected
        player.connected = connected
        if changed:
            log.info("%s (%s) %s", player.name, player.id,
                     "connected" if connected else "disconnected")
            self.on_presence(player)

    @staticmethod
    def keep(player: Player) -> bool:
        """``player`` is more than a passing hello: he sits, watches, owns a table, or was
        once settled (the store knew him, or he did any of those)."""
        return player.settled or bool(player.tables or player.owns)

    def make_room(self) -> bool:
        """At the player limit, forget the player gone longest who sits at no table and owns
        none (he may have watched: a crowd of watchers that left must not lock the host): the
        limit counts connected players and those who still have a place here, never a crowd
        of names said once and gone."""
        idle = [p for p in self.players.values()
                if not p.connected and not p.owns and not self.seated(p)]
        if not idle:
            return False
        self.forget(min(idle, key=lambda p: p.last_seen))
        return True

    def sweep(self, now: float) -> None:
        """Liveness (Paranoid Pirate) and forgetting players nobody needs any more: one
        gone for ``keep_over`` seconds, seated nowhere and owning no table; one who never
        sat nor created anything (he may have watched), ``FORGET_UNSEATED`` seconds after he
        went: a crowd of watchers that came and went costs the host nothing for long."""
        silent = now - self.heartbeat * self.liveness
        forgotten = now - self.keep_over
        passing = now - FORGET_UNSEATED
        for player in list(self.players.values()):
            if player.connected and player.last_seen < silent:
                self.set_connected(player, False)
            elif (not player.connected and not player.owns
                  and player.last_seen < (forgotten if player.settled else passing)
                  and not self.seated(player)):
                self.forget(player)       # gone, seated nowhere: his token expires

    def forget(self, player: Player) -> None:
        if player.tables:
            self.on_forget(player)
        self.players.pop(player.token, None)
        self.by_id.pop(player.id, None)
        if player.route is not None:
            self.routes.pop(player.route, None)
        self.persistence.drop_player(player)
