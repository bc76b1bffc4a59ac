"""What the host keeps about players, seats and tables: plain records, no behaviour beyond
questions about themselves.

Owns: ``Player`` (a person or bot client across connections, found by his handle: his key and
name; his allowance of requests and his memory of replies by request id), ``Seat`` (empty,
human or host bot),
``HostTable`` (a table as the host keeps it: the game, seats, watchers, streams of views, the
timers' record, and the match: rounds played and totals), and the limits they obey.

Must not know about: sockets, the protocol's codec, any particular game (the game is a
``core.table.Table``), how timers are computed (``core.referee`` and ``timers``).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.i18n import Msg
from cardparty.core.referee import Referee
from cardparty.core.search import DEFAULT_BUDGET
from cardparty.core.table import Table
from cardparty.net.protocol import ProtocolError

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


@dataclass(eq=False)
class Player:
    """One person (or bot client) at this host, across connections: found by ``token``, his
    handle at this host (``owners.identity`` of his key and name; never taken from a client)."""

    id: str
    token: str
    name: str
    route: bytes | None = None
    #: the key ZeroMQ authenticated for his connection (None on a host without CURVE)
    key: bytes | None = None
    connected: bool = False
    last_seen: float = 0.0
    tables: set[str] = field(default_factory=set)
    #: rid -> (the request's type, the reply's frame)
    replies: OrderedDict[Any, tuple[str, bytes]] = field(default_factory=OrderedDict)
    #: ids of the tables this player created (their owner: kept across restarts)
    owns: set[str] = field(default_factory=set)
    #: the player sat, created or was seen in the store: not a passing hello (nor watcher),
    #: so he is kept ``keep_over`` seconds once gone rather than ``FORGET_UNSEATED``
    settled: bool = False

    def remember(self, rid: Any, kind: str, frame: bytes) -> None:
        self.replies[rid] = (kind, frame)
        if len(self.replies) > REPLY_MEMORY:
            self.replies.popitem(last=False)


class Allowance:
    """A token bucket of requests, one per key ZeroMQ authenticated (``Roster.quota_key``):
    a new name or a new connection of the same key does not refill it."""

    __slots__ = ("left", "at")

    def __init__(self, now: float) -> None:
        self.left = BURST
        self.at = now

    def spend(self, now: float) -> bool:
        """Take one request; False when the allowance is used up. It refills at ``RATE``
        requests a second up to ``BURST``."""
        self.left = min(BURST, self.left + (now - self.at) * RATE)
        self.at = now
        if self.left < 1.0:
            return False
        self.left -= 1.0
        return True


@dataclass(eq=False)
class Seat:
    """One seat of a host table: empty, a human (a player) or a host bot."""

    kind: str = "empty"
    player: Player | None = None
    name: str = ""
    ready: bool = False
    standin: bool = False
    level: str = "basic"


@dataclass(eq=False)
class HostTable:
    """A table as the host keeps it: the game (a core Table), seats, watchers, timers."""

    id: str
    seq: int
    title: str
    table: Table
    idle: float | None
    bot_delay: float
    seats: list[Seat]
    status: str = "open"
    #: How long a hard bot thinks per move here, and the level of the idle stand-in.
    bot_budget_ms: int = DEFAULT_BOT_BUDGET_MS
    standin_level: str = DEFAULT_STANDIN_LEVEL
    spectators: set[str] = field(default_factory=set)
    #: player id -> [version of the last view sent, events cursor]
    streams: dict[str, list[Any]] = field(default_factory=dict)
    #: what is due at the game in play (``timers`` makes it)
    referee: Referee | None = None
    changed_at: float = 0.0
    ended_at: float | None = None
    failure: str = ""
    #: (event index, redacted?) -> the event as sent, with its words, packed: each event is
    #: redacted and narrated once per way of seeing it, not once per seat
    texts: dict[tuple[int, bool], bytes] = field(default_factory=dict)
    #: ``practice`` (MO-3: the creator and bots), ``friends`` (MO-4: only the creator and
    #: invitees sit), ``open`` (MO-5: anyone sits) or ``entry`` (MO-6: open, with a stake).
    mode: str = "open"
    #: The economy (``economy``, ``seek``): an entry table's stake (0: none); the table's
    #: key in the ledger, unique across restarts (stakes and payouts are keyed by it); made
    #: by ``seek`` (seats filled in order of asking, bots at the fill timeout); when the fill
    #: timeout ends (monotonic; None: no timeout); whether bots took seats (league points
    #: halved); the username at each seat when the round started (who is paid).
    stake: int = 0
    key: str = ""
    seeking: bool = False
    fill_at: float | None = None
    bots_filled: bool = False
    owners: list[str | None] = field(default_factory=list)
    #: Who created the table: his token (identity, survives a restart) and name (words).
    creator_token: str = ""
    creator_name: str = ""
    #: Whether players neither the creator nor invited may sit (the creator decides).
    strangers: bool = True
    #: What the creator's limits are counted against (``Roster.quota_key``); not kept.
    creator_quota: Any = None
    #: Usernames invited to a friends table (as first spelt; matched without regard to case)
    #: -> the name of who invited them, to say so again when the invitee comes back.
    invited: dict[str, str] = field(default_factory=dict)
    #: The match: one map per finished round (``round``, ``places``, ``scores``,
    #: ``next_dealer``), the newest last, and the totals over every round.
    rounds: list[dict[str, Any]] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    scores: list[int] | None = None
    round: int = 1
    #: the store's record of this table and its packed bytes, packed again only when changed
    meta_packed: tuple[dict[str, Any], bytes] | None = None
    #: what the store holds: (the game, its version, its journal's length) when last written,
    #: and the version of the whole save in the table's row
    kept: tuple[Table, int, int] | None = None
    kept_base: int = 0

    def inviter_of(self, name: str) -> str | None:
        """Who invited ``name`` here (None: nobody did)."""
        wanted = name.casefold()
        return next((by for n, by in self.invited.items() if n.casefold() == wanted), None)

    def invitation_pending(self, player: Player) -> bool:
        """``player`` is invited here and may still come: the table takes seats and nobody
        of his name sits there yet (names, not key pairs, are what v1 invites)."""
        name = player.name.casefold()
        return (self.mode == "friends" and self.status == "open"
                and player.token != self.creator_token and self.inviter_of(name) is not None
                and not any(s.kind == "human" and s.name.casefold() == name
                            for s in self.seats))

    def seat_of(self, player: Player) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player is player:
                return i
        return None


class Tables:
    """Every table of the host by id, and those in play (the only ones with timers: the
    loop looks at these alone, as finished tables are kept for a while)."""

    def __init__(self) -> None:
        self.all: dict[str, HostTable] = {}
        self.live: dict[str, HostTable] = {}
        #: open tables with a fill timeout (``fill_at``): the loop looks at these alone
        self.filling: dict[str, HostTable] = {}

    def fill_by(self, ht: HostTable, at: float) -> None:
        """``ht`` waits for players until ``at`` (MO-5, MO-6)."""
        ht.fill_at = at
        self.filling[ht.id] = ht

    def find(self, table_id: str) -> HostTable:
        ht = self.all.get(table_id)
        if ht is None:
            raise ProtocolError("no_table", Msg("there is no table {table}",
                                                table=repr(table_id)))
        return ht

    def add(self, ht: HostTable) -> None:
        self.all[ht.id] = ht
        if ht.status == "playing":
            self.live[ht.id] = ht

    def remove(self, ht: HostTable) -> None:
        self.all.pop(ht.id, None)
        self.live.pop(ht.id, None)
        self.filling.pop(ht.id, None)
