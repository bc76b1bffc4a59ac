"""The players a host knows: who they are, where they are connected, whether they are alive.

Owns: adding and forgetting players (``model.Players``, by their handle, ``store.identity``:
the key ZeroMQ authenticated for the connection with the name it owns; MO-1, and by id), the
names bound to keys (``owners``), the route each player is connected by and the key that route
is authenticated as, the routes replaced by a newer hello, ``hello`` (a new player, a resumed
one from any connection, the same connection saying hello again, one connection replacing
another; a name owned by another key is refused ``name_taken``), ``bye``, ``ping``, liveness
(Paranoid Pirate: a player silent for ``heartbeat * liveness`` seconds is disconnected) and
forgetting a player long gone. Identity is looked up in one place (``identify``): a token or
routing id a client sends counts for nothing.

Admission (issue 25: a key pair costs a millisecond, so what a new key could refill is also
counted per source address, ``config.Guests``): keys the host has never seen (they own no
name here) and new names from one address, each a token bucket; room kept for known players
(a key whose name played here, ``Owners.known``): strangers fill the roster only up to its
reserve, and at the limit a known player's hello forgets a stranger who holds nothing (no seat,
no table), connected or not; names that never played are released (``Owners.release_due``)
once their players are gone long enough. On a host without CURVE (benchmarks, tests
without sockets) a route stands in for the key, so nobody resumes there from another
connection.

Liveness costs what is due, not what exists (the zguide's ``ppqueue``): the connected players
are kept in the order they were last heard, so a sweep stops at the first one heard recently
enough; those gone wait in order of when they may be forgotten (``schedule.Schedule``), and one
who still sits at a table or owns one then is looked at again ``keep_over`` later.

Must not know about: sockets (it sends through an ``Outbox``), tables (it tells the
``PlayerEvents`` it was given, and asks ``seated`` whether a player sits anywhere: the lobby
says what that means).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from cardparty.core.i18n import Msg
from cardparty.net.host.clock import Clock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.model import FORGET_UNSEATED, Player, Players
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.owners import NameTaken, Owners
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.schedule import Schedule
from cardparty.net.host.succession import Word
from cardparty.net.names.safetext import safe
from cardparty.net.store import identity
from cardparty.net.trust.allowance import for_addresses
from cardparty.net.wire.play_replies import ByeReply, PongReply, WelcomeReply
from cardparty.net.wire.protocol import FEATURES, PROTOCOL, ProtocolError
from cardparty.net.wire.requests import ByeRequest, HelloRequest, PingRequest

log = logging.getLogger("cardparty.host")

#: Replaced routes remembered (to answer them ``replaced``), oldest forgotten first.
MAX_SUPERSEDED = 4096
#: Players one sweep forgets at most: a storm of names gone at once is forgotten over a few
#: sweeps, never in one pass that would hold the loop (and every other table's replies).
FORGET_PER_SWEEP = 128
#: Seconds between two looks for names to release (``Owners.release_due``).
RELEASE_EVERY = 60.0

PlayerHook = Callable[[Player], None]


@dataclass(frozen=True)
class PlayerEvents:
    """Who is told of players coming and going, given when the roster is built: ``presence``
    when a player connects or disconnects (his tables show it), ``back`` after his hello (his
    tables and invitations are told again), ``forgotten`` before he is forgotten (the tables
    he watched let him go)."""

    presence: tuple[PlayerHook, ...] = ()
    back: tuple[PlayerHook, ...] = ()
    forgotten: tuple[PlayerHook, ...] = ()


class Roster:
    def __init__(self, config: HostConfig, outbox: Outbox, clock: Clock,
                 persistence: Persistence, players: Players, owners: Owners,
                 events: PlayerEvents, *, seated: Callable[[Player], bool],
                 games: list[str], word: Word | None = None) -> None:
        self.outbox = outbox
        self.clock = clock
        self.persistence = persistence
        #: the host's name, liveness, how long players gone are kept, the player limit, and
        #: whether the host lets clients choose deals (``--testing``, shown in the welcome)
        self.config = config
        self.games = games
        #: the host's word about its succession, told in every welcome
        self.word = word or Word()
        self.events = events
        #: whether a player sits at a table (watching is not sitting)
        self.seated = seated
        self.directory = players
        self.players = players.by_token       # by handle (store.identity)
        self.by_id = players.by_id
        self.owners = owners
        self.routes: dict[bytes, Player] = {}
        #: Routes whose player said hello again from another connection (oldest first).
        self.superseded: dict[bytes, None] = {}
        #: the connected players, the least recently heard first
        self.alive: OrderedDict[Player, None] = OrderedDict()
        #: the players gone, by when they may be forgotten
        self.leaving: Schedule[Player] = Schedule()
        self._ids = itertools.count(1)
        #: what one address may bring: keys the host never saw, new names
        self.guests = config.guests
        self.new_keys = for_addresses(self.guests.new_keys)
        self.new_names = for_addresses(self.guests.new_names)
        self._next_release = 0.0

    def load(self) -> None:
        """The players the store remembers; ids go on from the highest."""
        top = 0
        now = self.clock.now()
        for p in self.persistence.players():
            # Gone since the restart, not since the clock's zero: kept as long as if the host
            # had never stopped.
            p.last_seen = now
            p.settled = True
            self.directory.add(p)
            self.leaving.set(p, self.forget_at(p))
            with contextlib.suppress(ValueError):
                top = max(top, int(p.id[1:]))
        self._ids = itertools.count(top + 1)

    # --- who is this -------------------------------------------------------------------------

    def identify(self, route: bytes, req: HelloRequest, user: bytes | None,
                 address: str | None = None) -> tuple[str, Player | None]:
        """The handle of the player a hello on ``route`` (authenticated as ``user``, from the
        counted ``address``) is, and the player when the host knows him; the name must be
        ``user``'s or nobody's yet (ProtocolError ``name_taken``), and a new key or a new
        name within what the address may still bring (``slow_down``)."""
        # Without CURVE the connection stands for the key: its routing id in hex, as a key is
        # text wherever it is kept (a routing id is binary, and a store keeps keys as text).
        key = user if user is not None else b"route:" + route.hex().encode()
        name = req["name"]
        if address is not None and self.owners.owner(name) is None:
            self.admit(key, address)
        try:
            self.owners.claim(name, key, self.clock.wall(), self.present)
        except NameTaken as exc:
            raise ProtocolError(exc.code, exc.message) from None
        handle = identity(key, req["name"])
        return handle, self.players.get(handle)

    def admit(self, key: bytes, address: str) -> None:
        """A hello from ``address`` would bind a new name (to ``key``): within what one
        address may bring (new keys, new names), or ProtocolError ``slow_down``."""
        now = self.clock.now()
        if self.owners.names_of[key] == 0 and not self.new_keys.spend(address, now):
            burst, rate = self.guests.new_keys
            raise ProtocolError("slow_down", Msg(
                "too many new keys from your address ({n} at once, then {m} a minute): this "
                "host lets a machine bring a few new players at a time; wait a little",
                n=int(burst), m=round(rate * 60)))
        if not self.new_names.spend(address, now):
            burst, rate = self.guests.new_names
            raise ProtocolError("slow_down", Msg(
                "too many new names from your address ({n} at once, then {m} a minute): "
                "wait a little, or say hello with a name you have", n=int(burst),
                m=round(rate * 60)))

    def present(self, key: bytes, name: str) -> bool:
        """The player of ``key`` and ``name`` is here: connected, or holding a place."""
        player = self.players.get(identity(key, name))
        return player is not None and (player.connected or self.keep(player))

    def at(self, route: bytes, user: bytes | None = None) -> Player | None:
        """The player connected by ``route``, if that connection is the key he said hello
        with (a connection of another key on a reused routing id gets nobody)."""
        player = self.routes.get(route)
        if player is None or player.key != user:
            return None
        return player

    def replaced(self, route: bytes) -> bool:
        return route in self.superseded

    # --- hello and bye -----------------------------------------------------------------------

    def hello(self, route: bytes, req: HelloRequest, user: bytes | None = None,
              address: str | None = None) -> Player:
        """A hello on ``route`` from ``user`` (``address``: where it comes from, when the
        host counts it): the player welcomed (ProtocolError when refused)."""
        handle, player = self.identify(route, req, user, address)
        resumed = player is not None
        old = self.routes.get(route)
        # Said again on the connection already welcomed (a session answers each
        # ``hello_first`` with a hello): that welcome's pictures are on their way on it.
        again = player is not None and old is player and player.connected
        if player is None and old is not None and not self.keep(old):
            self.forget(old)          # a passing name on this connection gives its place up
            old = None
        if player is None:
            known = user is not None and self.owners.known(user)
            player = self.new_player(handle, req["name"], known, address is not None)
        if old is not None and old is not player:
            old.route = None
            self.set_connected(old, False)
        self.connected_by(player, route, user)
        player.address = address
        player.known = user is not None and self.owners.known(user)
        player.features = FEATURES.intersection(req["features"])
        follow = req.get("follow")
        player.follows = None if follow is None else int(follow["epoch"])
        word = self.word                # its ``welcome`` fields, each named
        welcome: WelcomeReply = {
            "type": "welcome", "v": PROTOCOL, "rid": req["rid"], "host": self.config.name,
            "player": player.id, "name": player.name, "resumed": resumed,
            "heartbeat": self.config.heartbeat, "liveness": self.config.liveness,
            "protocol": PROTOCOL, "games": self.games, "testing": self.config.testing,
            "features": sorted(player.features),
            "epoch": word.epoch, "standby": word.standby, "standby_gen": word.gen}
        self.outbox.send(player, welcome)
        if again and player.follows is None:
            # (a hello following a lost host claims its tables here: always told, below)
            return player
        self.set_connected(player, True, force=True)
        for back in self.events.back:
            back(player)
        return player

    def new_player(self, handle: str, name: str, known: bool = False,
                   counted: bool = True) -> Player:
        """A player the host did not know (ProtocolError ``busy`` at the player limit, unless
        one gone long, or for a ``known`` key a stranger who holds nothing, makes room); a
        stranger from a ``counted`` address (a guest's machine, not the host's own) fills the
        roster only up to its reserve (``Guests.room``)."""
        most = self.config.max_players
        limit = most if known or not counted else self.guests.room(most)
        while len(self.players) >= limit:
            if not self.make_room(known):
                raise ProtocolError("busy", Msg("this host has too many players"))
        player = Player(id=f"p{next(self._ids)}", token=handle, name=name)
        self.directory.add(player)
        self.persistence.save_player(player)
        return player

    def connected_by(self, player: Player, route: bytes, user: bytes | None) -> None:
        """``player`` is connected by ``route`` from now on; his previous route, if another,
        is answered ``replaced``."""
        if player.route is not None and player.route != route:
            self.routes.pop(player.route, None)
            self.superseded[player.route] = None        # answered "replaced" from now on
            while len(self.superseded) > MAX_SUPERSEDED:
                del self.superseded[next(iter(self.superseded))]
        player.route = route
        player.key = user
        self.routes[route] = player
        self.superseded.pop(route, None)
        player.last_seen = self.clock.now()

    def on_bye(self, player: Player, req: ByeRequest) -> None:
        reply: ByeReply = {"type": "ok", "v": PROTOCOL, "about": "bye", "rid": req["rid"]}
        route = player.route
        if route is not None:
            self.outbox.send(player, reply)
            self.routes.pop(route, None)
        player.route = None
        self.set_connected(player, False)

    def on_ping(self, player: Player, req: PingRequest) -> PongReply:
        pong: PongReply = {"type": "pong", "v": PROTOCOL, "at": req.get("at"),
                           "time": self.clock.wall()}
        if self.word.status is not None:
            pong["standby"] = self.word.status()     # the lobby shows it, and its lag
        return pong

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
        if player.connected:
            self.alive.move_to_end(player)
        else:
            self.set_connected(player, True)

    def set_connected(self, player: Player, connected: bool, force: bool = False) -> None:
        if player.connected == connected and not force:
            return
        changed = player.connected != connected
        player.connected = connected
        if connected:
            self.alive[player] = None
            self.alive.move_to_end(player)
            self.leaving.discard(player)
        else:
            self.alive.pop(player, None)
            self.leaving.set(player, self.forget_at(player))
            self.owners.seen(player.name, self.clock.wall())
        if changed:
            log.info("%s (%s) %s", safe(player.name), player.id,
                     "connected" if connected else "disconnected")
            for presence in self.events.presence:
                presence(player)

    def forget_at(self, player: Player) -> float:
        """When ``player``, gone, may be forgotten: ``keep_over`` seconds after he was last
        heard if he took part here (``settled``), ``FORGET_UNSEATED`` if he only passed."""
        return player.last_seen + (self.config.keep_over if player.settled else FORGET_UNSEATED)

    @staticmethod
    def keep(player: Player) -> bool:
        """``player`` is more than a passing hello: he sits, watches, owns a table, or was
        once settled (the store knew him, or he did any of those)."""
        return player.settled or bool(player.tables or player.owns)

    def make_room(self, known: bool = False) -> bool:
        """At the player limit, forget the player gone longest who sits at no table and owns
        none (he may have watched: a crowd of watchers that left must not lock the host): the
        limit counts connected players and those who still have a place here, never a crowd
        of names said once and gone. For a ``known`` key, failing that, the stranger heard
        least recently who holds nothing, connected or not: strangers never lock out the
        players the host knows."""
        idle = [p for p in self.players.values()
                if not p.connected and not p.owns and not self.seated(p)]
        if not idle and known:
            idle = [p for p in self.players.values()
                    if not p.known and not p.owns and not self.seated(p)]
        if not idle:
            return False
        self.forget(min(idle, key=lambda p: p.last_seen))
        return True

    def sweep(self, now: float) -> None:
        """Liveness (Paranoid Pirate) and forgetting players nobody needs any more: one
        gone for ``keep_over`` seconds, seated nowhere and owning no table; one who never
        sat nor created anything (he may have watched), ``FORGET_UNSEATED`` seconds after he
        went: a crowd of watchers that came and went costs the host nothing for long. Only
        the players due are looked at (see the module docstring)."""
        silent = now - self.config.heartbeat * self.config.liveness
        alive = self.alive
        while alive:
            player = next(iter(alive))
            if player.last_seen >= silent:
                break
            self.set_connected(player, False)
        if now >= self._next_release:
            self._next_release = now + RELEASE_EVERY
            self.owners.release_due(self.clock.wall(), self.present)
        for player in self.leaving.pop_due(now, FORGET_PER_SWEEP):
            if player.connected or self.players.get(player.token) is not player:
                continue
            if now - player.last_seen <= (self.config.keep_over if player.settled
                                          else FORGET_UNSEATED):
                self.leaving.set(player, self.forget_at(player))   # not quite yet
            elif player.owns or self.seated(player):
                self.leaving.set(player, now + self.config.keep_over)      # he still has a place
            else:
                self.forget(player)       # gone, seated nowhere (his name stays his key's)

    def forget(self, player: Player) -> None:
        if player.tables:
            for forgotten in self.events.forgotten:
                forgotten(player)
        self.directory.remove(player)
        self.alive.pop(player, None)
        self.leaving.discard(player)
        if player.route is not None:
            self.routes.pop(player.route, None)
        self.persistence.drop_player(player)
