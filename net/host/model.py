"""What the host keeps about players, seats and tables: plain records, no behaviour beyond
questions about themselves, and the registries that find them.

Owns: ``Player`` (a person or bot client across connections, found by his handle: his key and
name; his memory of replies by request id), ``Players`` (every player by handle and by id),
``HostSeat`` (a seat of a host table: empty, human or host bot), ``HostTable`` (a table as
the host keeps it: its game, a ``core.table.Table``; its seats and watchers; and one record
per concern of the parts: ``TableTiming`` for the timers, ``Access`` for who may sit,
``MatchRecord`` for the match, ``Stakes`` for the economy, ``Shown`` for the views' caches,
``Kept`` for the store's), ``Tables`` (every table by id, those in play, and when each one
is next due to be filled or dropped), and the limits they obey.

Must not know about: sockets, the protocol's codec, any particular game (the game is a
``core.table.Table``), how timers are computed (``core.referee`` and ``timers``).
"""

from __future__ import annotations

import random
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardparty.core.i18n import N_, Msg
from cardparty.core.search import DEFAULT_BUDGET
from cardparty.core.table import Table
from cardparty.net.host.schedule import Schedule
from cardparty.net.wire import replies
from cardparty.net.wire.protocol import ProtocolError

if TYPE_CHECKING:
    from cardparty.net.host.persistence import TableRecord

#: Replies a host remembers per player, to answer a repeated request id without acting twice.
REPLY_MEMORY = 256
#: Requests a second one player may send, and how many at once: far above any person or bot
#: (a flat-out bench client sends about 550 a second), low enough that a client sending as
#: fast as it can takes a small share of the host's one thread from the other tables.
RATE = 1000.0
BURST = 2 * RATE
#: Seconds a player who never sat nor created anything (at most watched) is kept once gone:
#: a storm of hellos or watchers must not fill the host's roster for ``keep_over`` seconds.
FORGET_UNSEATED = 10.0
#: Open tables one connection (one key) may have created and not yet started.
MAX_OPEN_TABLES = 8
#: Summaries one ``tables`` reply holds at most (a page; ``offset`` asks for the next).
TABLES_PAGE = 20
#: Names a friends table may invite in all (MO-4), so that invitations cannot grow unbounded.
MAX_INVITED = 64
#: Invitations one key may have pending (names invited by its players to open tables, not
#: seated there yet), over all its tables: the cap per table times the open tables per key
#: would be 512 pushes of ``invited`` waiting for their names' next hellos.
MAX_PENDING_INVITATIONS = 128
#: Rounds a match remembers in its summary (the totals count every round).
MAX_ROUNDS = 64
#: Milliseconds a hard bot thinks per move unless its table says otherwise: the search's own
#: default (docs/bots.md: its p95 is under 200 ms on a small machine).
DEFAULT_BOT_BUDGET_MS = round((DEFAULT_BUDGET.seconds or 0.15) * 1000)
#: The level of the bot that stands in for an idle or absent player unless the table says.
DEFAULT_STANDIN_LEVEL = "normal"
#: The refusal of a request about a held table (``Tables.hold``).
HELD = N_("this table waits: one of its players may be playing it with the host's standby; "
          "it goes on as soon as he is back here, or the two hosts meet again")
#: The refusal of a request that needs a seat, unless the request says it in its own words.
NOT_SEATED = N_("you have no seat at this table")


@dataclass(eq=False)
class Player:
    """One person (or bot client) at this host, across connections: found by ``token``, his
    handle at this host (``store.identity`` of his key and name; never taken from a client)."""

    id: str
    token: str
    name: str
    route: bytes | None = None
    #: the key ZeroMQ authenticated for his connection (None on a host without CURVE)
    key: bytes | None = None
    #: the address his connection comes from, as the ZAP handler saw it (None: unknown, or
    #: the host's own machine: not counted, ``config.Guests``)
    address: str | None = None
    #: his key owns a name that played here (a game started with it seated): the host keeps
    #: room for him when strangers fill it (``config.Guests.reserve``)
    known: bool = False
    connected: bool = False
    last_seen: float = 0.0
    #: ids of the tables where he sits or watches
    tables: set[str] = field(default_factory=set)
    #: rid -> (the request's type, the reply's frame, the table it was about or "")
    replies: OrderedDict[Any, tuple[str, bytes, str]] = field(default_factory=OrderedDict)
    #: ids of the tables this player created (their owner: kept across restarts)
    owns: set[str] = field(default_factory=set)
    #: the player sat, created or was seen in the store: not a passing hello (nor watcher),
    #: so he is kept ``keep_over`` seconds once gone rather than ``FORGET_UNSEATED``
    settled: bool = False
    #: what his client asked for in its hello among ``protocol.FEATURES`` (his connection's)
    features: frozenset[str] = frozenset()
    #: the epoch of the host his client followed here (its last hello's ``follow``), if any
    follows: int | None = None

    def remember(self, rid: Any, kind: str, frame: bytes, table: str = "") -> None:
        self.replies[rid] = (kind, frame, table)
        if len(self.replies) > REPLY_MEMORY:
            self.replies.popitem(last=False)

    @property
    def quota_key(self) -> Any:
        """What this player's limits are counted against (``quota_key``)."""
        return quota_key(self.route, self.key)


def quota_key(route: bytes | None, user: bytes | None = None) -> Any:
    """What a connection's limits (requests a second, open tables, lobby chat, players) are
    counted against: the key ZeroMQ authenticated for it (MO-1), whatever name it says hello
    with, so that new connections and new names of one key share one allowance; the route
    only on a host without CURVE, where no key exists."""
    return user if user is not None else route


class Players:
    """Every player the host knows, by handle (``Player.token``) and by id: the roster adds
    and forgets them; the other parts look them up."""

    def __init__(self) -> None:
        self.by_token: dict[str, Player] = {}
        self.by_id: dict[str, Player] = {}

    def __len__(self) -> int:
        return len(self.by_token)

    def add(self, player: Player) -> None:
        self.by_token[player.token] = self.by_id[player.id] = player

    def remove(self, player: Player) -> None:
        self.by_token.pop(player.token, None)
        self.by_id.pop(player.id, None)


@dataclass(eq=False)
class HostSeat:
    """One seat of a host table: empty, a human (a player) or a host bot."""

    kind: str = "empty"
    player: Player | None = None
    name: str = ""
    ready: bool = False
    standin: bool = False
    level: str = "normal"

    @property
    def human(self) -> Player | None:
        """The person sitting here (None: the seat is empty or a bot's, or its human left)."""
        return self.player if self.kind == "human" else None

    @property
    def connected(self) -> bool:
        """Nobody is missed at this seat (what ``connected`` says on the wire): a host bot,
        its human connected, or a human who left the finished table (nobody waits for him
        there, and he may be playing at another; the next round gives his seat to a bot).
        False only while the human sitting here is disconnected, and for an empty seat."""
        if self.kind == "bot":
            return True
        return self.kind == "human" and (self.player is None or self.player.connected)


@dataclass
class TableTiming:
    """What the table's referee is told: the idle timeout (None: never), the bots' delay, how
    long a hard bot thinks, and the level of the idle stand-in."""

    idle: float | None
    bot_delay: float
    bot_budget_ms: int = DEFAULT_BOT_BUDGET_MS
    standin_level: str = DEFAULT_STANDIN_LEVEL


@dataclass
class Access:
    """Who may sit. ``mode``: ``practice`` (MO-3: the creator and bots), ``friends`` (MO-4:
    only the creator and invitees sit), ``open`` (MO-5: anyone sits) or ``entry`` (MO-6:
    open, with a stake); whether its players may ask for hints (``gives_hints``); the
    creator, by his token (identity, survives a restart) and name
    (words), and what his limits are counted against (``quota_key``; not kept); whether
    players neither the creator nor invited may sit (the creator decides); the usernames
    invited (as first spelt; matched without regard to case) -> who invited them."""

    mode: str = "open"
    creator_token: str = ""
    creator_name: str = ""
    creator_quota: Any = None
    strangers: bool = True
    #: the creator's address when it is counted (``Player.address``; not kept)
    creator_address: str | None = None
    invited: dict[str, str] = field(default_factory=dict)
    #: a friends table's creator let its players ask for hints (``hints``)
    hints: bool = False
    #: the event whose round this table plays ('' for none: net/host/tourney.py)
    event: str = ""
    #: a friends table's creator let its players take back moves by agreement (``undo``)
    undo: bool = False

    @property
    def gives_hints(self) -> bool:
        """Whether a seated player may ask what the hard bot would play: at a practice
        table, and at a friends table whose creator turned hints on; never at open and entry
        tables (the hard bot must not play for a human against others there)."""
        return self.mode == "practice" or (self.mode == "friends" and self.hints)

    @property
    def takes_back(self) -> bool:
        """Whether a seated player may ask to take back his last move (``undo``): at a
        practice table, and at a friends table whose creator allowed it; never at open and
        entry tables, where strangers play for the league and for stakes."""
        return self.mode == "practice" or (self.mode == "friends" and self.undo)

    def inviter_of(self, name: str) -> str | None:
        """Who invited ``name`` here (None: nobody did)."""
        wanted = name.casefold()
        return next((by for n, by in self.invited.items() if n.casefold() == wanted), None)


def fresh_secret() -> int:
    """A match's secret (``MatchRecord.secret``), from the system's secure source."""
    return secrets.randbits(62)


def seeded_secret(seed: int) -> int:
    """The secret of a match whose first deal a test chose (``--testing``): its next rounds
    are as reproducible as its first."""
    return random.Random(f"secret/{seed}").getrandbits(62)


@dataclass
class MatchRecord:
    """The match: the round in play, one map per finished round (``round``, ``places``,
    ``scores``, ``next_dealer``), the newest last, and the totals over every round."""

    round: int = 1
    rounds: list[replies.RoundWire] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    scores: list[int] | None = None
    #: what the seeds of the next rounds are drawn from (``match_seed``): never told, so a
    #: finished round's record, which tells its seed, says nothing of the next deal
    secret: int = field(default_factory=fresh_secret)


@dataclass
class Stakes:
    """The economy's (``economy``, ``seek``): an entry table's stake (0: none); the table's key
    in the ledger, unique across restarts (stakes and payouts are keyed by it); whether
    ``seek`` made it (seats filled in order of asking, bots at the fill timeout); when the
    fill timeout ends (monotonic; None: no timeout); whether bots took seats (league points
    halved); the username at each seat when the round started (who is paid)."""

    stake: int = 0
    key: str = ""
    seeking: bool = False
    fill_at: float | None = None
    bots_filled: bool = False
    owners: list[str | None] = field(default_factory=list)


@dataclass
class Shown:
    """The views' caches (``views``): player id -> [the version of the last view sent, the
    events' cursor]; (event index, redacted?) -> the event as sent, with its words, packed:
    each event is redacted and narrated once per way of seeing it, not once per seat."""

    streams: dict[str, list[Any]] = field(default_factory=dict)
    texts: dict[tuple[int, bool], bytes] = field(default_factory=dict)


@dataclass
class RoundLog:
    """When the round in play started and when each of its steps (a move, a reorder) was
    made, wall clock: what its record (``records``) says of time."""

    started: float = 0.0
    times: list[float] = field(default_factory=list)

    def note(self, steps: int, wall: float) -> None:
        """The table has made ``steps`` steps this round: the new ones were made now."""
        if len(self.times) < steps:
            self.times.extend([wall] * (steps - len(self.times)))


@dataclass
class UndoAsked:
    """A request to take back a move, waiting for the seated humans' agreement (``undo``):
    who asked (his seat and name), the table's version it was asked on (any change of the
    game drops it), how many moves it takes back, and the seats that agreed (the asker's
    among them). Kept in memory only: a restart or a takeover drops it."""

    seat: int
    name: str
    version: int
    moves: int
    agreed: set[int] = field(default_factory=set)


def waiting(ht: HostTable, asked: UndoAsked) -> list[str]:
    """The names of the seated humans at ``ht`` whose agreement ``asked`` still misses."""
    return [s.name for i, s in enumerate(ht.seats)
            if s.human is not None and i not in asked.agreed]


def asked_wire(ht: HostTable) -> replies.UndoAsked | None:
    """A table summary's ``undo_asked``: the request waiting at ``ht``, or None."""
    asked = ht.undo
    if asked is None:
        return None
    return {"seat": asked.seat, "name": asked.name, "moves": asked.moves,
            "version": asked.version, "waiting": waiting(ht, asked)}


@dataclass
class Kept:
    """The store's caches (``persistence``): the table's record and its packed bytes, packed
    again only when changed; what the store holds: the engine, its version and its journal's
    length when last written, and the version of the whole save in the table's row."""

    meta_packed: tuple[TableRecord, bytes] | None = None
    engine: Table | None = None
    version: int = 0
    journal: int = 0
    base: int = 0


@dataclass(eq=False)
class HostTable:
    """A table as the host keeps it: its engine (core's ``Table``, the round in play), seats,
    watchers, status, and one record per part's concern (see the module docstring)."""

    id: str
    seq: int
    title: str
    engine: Table
    seats: list[HostSeat]
    timing: TableTiming
    status: str = "open"
    spectators: set[str] = field(default_factory=set)
    changed_at: float = 0.0
    ended_at: float | None = None
    failure: str = ""
    access: Access = field(default_factory=Access)
    match: MatchRecord = field(default_factory=MatchRecord)
    stakes: Stakes = field(default_factory=Stakes)
    shown: Shown = field(default_factory=Shown)
    kept: Kept = field(default_factory=Kept)
    round_log: RoundLog = field(default_factory=RoundLog)
    #: the replay its people step through together after a round (``records``), if any
    shared: Any = None
    #: the table waits while a player of it may be served elsewhere (``Tables.hold``)
    held: bool = False
    #: a request to take back a move waiting for agreement (``undo``), if any
    undo: UndoAsked | None = None

    def humans(self) -> list[Player]:
        """The people seated here, in seat order."""
        return [p for s in self.seats if (p := s.human) is not None]

    def invitation_pending(self, player: Player) -> bool:
        """``player`` is invited here and may still come: the table takes seats and nobody
        of his name sits there yet (names, not key pairs, are what v1 invites)."""
        name = player.name.casefold()
        access = self.access
        return (access.mode == "friends" and self.status == "open"
                and player.token != access.creator_token
                and access.inviter_of(name) is not None
                and not any(s.kind == "human" and s.name.casefold() == name
                            for s in self.seats))

    def seat_of(self, player: Player) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player is player:
                return i
        return None

    def seated(self, player: Player, refusal: str = NOT_SEATED) -> int:
        """``player``'s seat here; ProtocolError ``not_seated`` with ``refusal`` (a message
        id) when he has none."""
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", Msg(refusal))
        return seat

    def present(self, player: Player, refusal: str) -> int | None:
        """``player``'s seat here, or None when he watches; ProtocolError ``not_seated`` with
        ``refusal`` when he does neither."""
        seat = self.seat_of(player)
        if seat is None and player.id not in self.spectators:
            raise ProtocolError("not_seated", Msg(refusal))
        return seat


class Tables:
    """Every table of the host by id, those in play, and when each one is next due: its fill
    timeout (``filling``) and its time to be dropped if nobody needs it (``expiring``, once it
    ended or while it is open), kept in order of when they fall due, so the loop looks at
    what is due alone."""

    def __init__(self, keep_over: float = 600.0) -> None:
        self.keep_over = keep_over
        self.all: dict[str, HostTable] = {}
        self.live: dict[str, HostTable] = {}
        #: tables set aside while a player of theirs may be served by another host
        #: (``succession``): in none of the other registries, so nothing plays, fills or drops
        #: them, and a request about one is refused ``held``
        self.held: dict[str, HostTable] = {}
        #: open tables with a fill timeout, by ``Stakes.fill_at``
        self.filling: Schedule[HostTable] = Schedule()
        #: when each table may be dropped if nobody needs it (``Lobby.sweep`` decides)
        self.expiring: Schedule[HostTable] = Schedule()

    def fill_by(self, ht: HostTable, at: float) -> None:
        """``ht`` waits for players until ``at`` (MO-5, MO-6)."""
        ht.stakes.fill_at = at
        self.filling.set(ht, at)

    def find(self, table_id: str) -> HostTable:
        ht = self.all.get(table_id)
        if ht is None and table_id in self.held:
            raise ProtocolError("held", Msg(HELD))
        if ht is None:
            raise ProtocolError("no_table", Msg("there is no table {table}",
                                                table=repr(table_id)))
        return ht

    def add(self, ht: HostTable) -> None:
        self.all[ht.id] = ht
        if ht.status == "playing":
            self.live[ht.id] = ht
        self.expire_later(ht)

    def playing(self, ht: HostTable) -> None:
        """``ht``'s game (a round) starts."""
        ht.status = "playing"
        ht.ended_at = None
        self.live[ht.id] = ht

    def ended(self, ht: HostTable, status: str, at: float) -> None:
        """``ht`` is ``status`` (over, broken, cancelled) since ``at``: no more timers, and
        it is dropped ``keep_over`` seconds later."""
        ht.status = status
        ht.ended_at = at
        self.live.pop(ht.id, None)
        self.expire_later(ht)

    def expire_later(self, ht: HostTable) -> None:
        """When ``ht`` is next looked at for dropping: ``keep_over`` after it ended, or
        after its last change while it is open (``Lobby.sweep`` looks again then)."""
        since = ht.ended_at if ht.ended_at is not None else (
            ht.changed_at if ht.status == "open" else None)
        self.expiring.set(ht, None if since is None else since + self.keep_over)

    def hold(self, ht: HostTable) -> None:
        """``ht`` waits (``succession``): out of every registry but ``held``."""
        self.remove(ht)
        ht.held = True
        self.held[ht.id] = ht

    def release(self, ht: HostTable) -> None:
        """``ht`` is served again, as it was."""
        self.held.pop(ht.id, None)
        ht.held = False
        self.add(ht)
        if ht.stakes.fill_at is not None:
            self.filling.set(ht, ht.stakes.fill_at)

    def remove(self, ht: HostTable) -> None:
        self.all.pop(ht.id, None)
        self.live.pop(ht.id, None)
        self.filling.discard(ht)
        self.expiring.discard(ht)
