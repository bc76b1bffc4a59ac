"""The host's parts composed, without a socket: what a request does, what is due.

Owns: ``build_host``, the one place every part is built, each handed what it depends on (the
config, the store, the ledger, the outbox, the clock) and nothing patched afterwards; calls
between parts go one way, down the order they are built in, and what goes back up goes through
the event lists given at construction (``play.TableEvents``, ``roster.PlayerEvents``);
``HostParts``, the parts so built with the table of request handlers by message type and the
questions the server's loop asks (``next_due``, ``tick``, ``flush``); and ``open_store`` /
``open_ledger``, the store and the ledger opened from paths, as the command line gives them.
``request`` runs one request exactly as the server does after decoding it, so the lobby and
play rules are tested with a ``MemoryOutbox`` and a ``ManualClock``, in milliseconds.

Who calls whom (docs/architecture.md draws it)::

    roster --PlayerEvents--> lobby --> play --> views --> timers
      lobby, seeks, owner, invitations, match --> play, views, persistence, economy
      hints, reviews --> timers (the hard bots' workers think hints and reviews too)
      undos --> play, views (a move taken back is told as every change)
      events --> lobby, play, ratings, persistence (an event's rounds are tables)
      play --TableEvents--> economy (started, over), match (over), ratings (over),
                            records (over), events (over), observer (changed),
                            undos (moved)
      records --> views (who is at a table), the store's records

Must not know about: sockets, frames, rate limits (the server owns those), when a frame may
go (the outbox it is handed: ``gate.CommitGate`` for a host with a socket).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.contract import Result
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.net.host.clock import Clock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.economy import Economy
from cardparty.net.host.gate import CommitGate, Durability, StoreDurability
from cardparty.net.host.hints import Hints
from cardparty.net.host.invitations import Invitations
from cardparty.net.host.lobby import Lobby
from cardparty.net.host.lobby_chat import LobbyChat
from cardparty.net.host.match import Match, record_round
from cardparty.net.host.model import HostTable, Player, Players, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.owner import Owner
from cardparty.net.host.owners import Owners
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.play import Observer, Play, TableEvents
from cardparty.net.host.ratings import Ratings
from cardparty.net.host.records import Records
from cardparty.net.host.review import Reviews
from cardparty.net.host.roster import PlayerEvents, Roster
from cardparty.net.host.seek import Seeks
from cardparty.net.host.standby import Attached, Higher, PeerEvents, Standbys
from cardparty.net.host.succession import Succession, Word
from cardparty.net.host.thinkers import Thinkers
from cardparty.net.host.timers import Timers
from cardparty.net.host.tourney import Events
from cardparty.net.host.undo import Undos
from cardparty.net.host.views import Views
from cardparty.net.store import Store
from cardparty.net.wire.economy_replies import ProfileReply
from cardparty.net.wire.protocol import Outgoing, check_request, message
from cardparty.net.wire.requests import ProfileRequest, Request

#: A request's handler: it takes its own request's type (``net/wire/requests.py``), which the
#: table of handlers, by type name, cannot say for each.
Handler = Callable[[Player, Any], Outgoing | None]
StrPath = str | os.PathLike[str]


def open_store(data: StrPath | None) -> Store | None:
    """The store in the directory ``data`` (None: the host keeps nothing)."""
    return None if data is None else Store(os.fspath(data))


def open_ledger(path: StrPath | None, config: HostConfig, clock: Clock) -> Ledger | None:
    """The ledger's SQLite file at ``path`` (":memory:" for one that lasts as long as the
    host; None: no coins, every table plays and pays nothing, as ``cardparty play``)."""
    if path is None:
        return None
    return Ledger(os.fspath(path), now=clock.wall, rules=config.settings.rules)


def build_host(config: HostConfig, *, store: Store | None, ledger: Ledger | None,
               clock: Clock, outbox: Outbox | None = None, catalog: Catalog | None = None,
               observer: Observer | None = None, thinkers: Thinkers | None = None,
               identity: bytes | None = None,
               higher: Sequence[Callable[[Higher], None]] = ()) -> HostParts:
    """Every part of a host, built once from what it depends on, and the host as its store
    left it (players, tables, what a crash interrupted in the economy). ``store``, ``ledger``
    and ``clock`` are the caller's: a test, a bench or a standby hands in its own.
    ``outbox``: how the parts send (None: the ``gate.CommitGate`` of a host with a socket,
    built here with the store and the party's standby as its durability sources; a test
    hands in a ``MemoryOutbox``). ``observer(table_id, table)`` looks at every change of a
    playing table (tests check what each seat may see). ``thinkers``: the hard bots' workers
    (default: ``config.bot_workers`` of them; 0: none, they think on the loop).
    ``identity``: the host's public key (the party knows it by it); ``higher``: who is told
    that a host of a higher epoch calls (the host's socket yields to it)."""
    catalog = catalog or load_catalog()
    epoch = 1 if store is None else store.epoch()
    word = Word(epoch=epoch)
    # The party's peers (a host that keeps nothing has none): a standby attached, dropped.
    attached: list[Callable[[Attached], None]] = []
    dropped: list[Callable[[str, int], None]] = []
    returned: list[Callable[[], None]] = []
    standbys = None if store is None else Standbys(
        store, ledger, config.peers, identity, epoch, config.name, clock,
        PeerEvents(attached=attached, dropped=dropped, higher=tuple(higher),
                   returned=returned))
    if outbox is None:
        sources: list[Durability] = [] if store is None else [StoreDurability(store)]
        if standbys is not None:
            sources.append(standbys)
        outbox = CommitGate(sources)
    if thinkers is None and config.bot_workers != 0:
        thinkers = Thinkers(config.bot_workers)
    tables = Tables(config.keep_over)
    players = Players()
    guests = config.guests
    owners = Owners(store, config.max_names, guests.reserve, guests.name_release)
    persistence = Persistence(store, catalog, clock, players, ledger)
    timers = Timers(thinkers)
    ratings = Ratings(persistence, catalog)
    views = Views(config, outbox, clock, timers, players, ratings.shown)
    economy = Economy(ledger, outbox, clock, config.settings, tables)
    # An event's part is built after the lobby it opens tables through; a round's end reaches
    # it through this list (calls still go one way: play tells, the event listens).
    events_over: list[Callable[[HostTable, Result], None]] = []
    records = Records(config, store, tables, clock, outbox, views, ledger, catalog)
    moved: list[Callable[[HostTable], None]] = []
    play = Play(tables, clock, timers, persistence, views, TableEvents(
        started=(economy.started, played(owners, clock)),
        over=(record_round, economy.settle, ratings.over, records.over, told(events_over)),
        changed=() if observer is None else (observer,), moved=moved))
    undos = Undos(tables, play, views, outbox)
    moved.append(undos.moved)
    lobby = Lobby(config, tables, clock, outbox, players, views, play, persistence, economy,
                  catalog)
    events = Events(config, tables, players, clock, outbox, play, lobby, persistence, catalog,
                    ratings)
    events_over.append(events.over)
    succession = Succession(word, tables, players, outbox, clock, views, play)
    if standbys is not None:
        word.status = standbys.status
        attached.append(lambda a: succession.attached(a.wire()))
        dropped.append(lambda why, acked: succession.dropped(why))
        returned.append(succession.returned)
    roster = Roster(config, outbox, clock, persistence, players, owners, PlayerEvents(
        presence=(lobby.presence,), back=(events.back, lobby.back, economy.back, succession.back),
        forgotten=(lobby.forgotten,)), seated=lobby.seated, games=sorted(catalog.games),
        word=word)
    parts = HostParts(
        config=config, clock=clock, outbox=outbox, catalog=catalog, tables=tables,
        players=players, persistence=persistence, timers=timers, views=views,
        economy=economy, play=play, lobby=lobby, roster=roster, owner=Owner(lobby, economy),
        invitations=Invitations(lobby, players, owners),
        lobby_chat=LobbyChat(tables, players, outbox, clock, lobby.on_chat,
                             guests.chat_lines),
        match=Match(tables, views, play, persistence, catalog),
        seeks=Seeks(tables, clock, lobby, views, persistence, economy),
        hints=Hints(tables, timers, outbox), succession=succession, ratings=ratings,
        events=events, records=records, reviews=Reviews(records, timers, outbox),
        undos=undos, standbys=standbys)
    parts.load()
    return parts


def told(listeners: list[Callable[[HostTable, Result], None]]
         ) -> Callable[[HostTable, Result], None]:
    """One listener that tells every listener the list holds when it is called (a part built
    after the one that tells: the list is filled once it exists)."""
    def tell(ht: HostTable, result: Result) -> None:
        for listener in listeners:
            listener(ht, result)
    return tell


def played(owners: Owners, clock: Clock) -> Callable[[HostTable], None]:
    """What a game's start tells the names seated at it: they played here, so their keys are
    known (the host keeps room for them) and their names are kept for good."""
    def started(ht: HostTable) -> None:
        for player in ht.humans():
            player.known = True
            owners.played(player.name, clock.wall())
    return started


@dataclass(eq=False)
class HostParts:
    """The parts of one host (``build_host`` builds them) and what its loop asks of them."""

    config: HostConfig
    clock: Clock
    outbox: Outbox
    catalog: Catalog
    tables: Tables
    players: Players
    persistence: Persistence
    timers: Timers
    views: Views
    economy: Economy
    play: Play
    lobby: Lobby
    roster: Roster
    owner: Owner
    invitations: Invitations
    lobby_chat: LobbyChat
    match: Match
    seeks: Seeks
    hints: Hints
    succession: Succession
    ratings: Ratings
    events: Events
    records: Records
    reviews: Reviews
    undos: Undos
    #: the party's peers: the standby and those waiting (None: the host keeps nothing)
    standbys: Standbys | None = None
    closed: bool = False
    #: the request handlers by message type
    handlers: dict[str, Handler] = field(init=False)
    _next_sweep: float = field(init=False)

    def __post_init__(self) -> None:
        lobby, play, roster, owner = self.lobby, self.play, self.roster, self.owner
        economy, seeks = self.economy, self.seeks
        self.handlers = {
            "ping": roster.on_ping, "bye": roster.on_bye,
            "games": lobby.on_games, "tables": lobby.on_tables, "create": lobby.on_create,
            "sit": lobby.on_sit, "leave": lobby.on_leave, "bots": lobby.on_bots,
            "invite": self.invitations.on_invite, "ready": lobby.on_ready,
            "start": lobby.on_start, "watch": lobby.on_watch, "snapshot": lobby.on_snapshot,
            "chat": self.lobby_chat.on_chat, "move": play.on_move, "reorder": play.on_reorder,
            "again": self.match.on_again, "remove": owner.on_remove, "close": owner.on_close,
            "strangers": owner.on_strangers, "seek": seeks.on_seek, "unseek": seeks.on_unseek,
            "league": economy.on_league, "buy": economy.on_buy,
            "rewards": economy.on_rewards, "hint": self.hints.on_hint,
            "standby_ok": self.succession.on_standby_ok,
            "events": self.events.on_events, "event": self.events.on_event,
            "event_create": self.events.on_event_create,
            "event_join": self.events.on_event_join,
            "event_leave": self.events.on_event_leave,
            "event_start": self.events.on_event_start,
            "event_deadline": self.events.on_event_deadline,
            "ratings": self.ratings.on_ratings, "profile": self.on_profile,
            "records": self.records.on_records, "record": self.records.on_record,
            "replay": self.records.on_replay, "replay_lead": self.records.on_replay_lead,
            "replay_end": self.records.on_replay_end, "review": self.reviews.on_review,
            "undo": self.undos.on_undo, "undo_answer": self.undos.on_undo_answer,
        }
        self._next_sweep = self.clock.now()

    def load(self) -> None:
        """The host as its store left it: players, tables (their timers going on), and what
        a crash interrupted in the economy finished."""
        if self.persistence.store is not None:
            self.roster.load()
            self.lobby.loaded(self.persistence.tables(self.clock.now()))
            self.ratings.load()
            self.events.load()
        self.economy.recover(list(self.tables.all.values()))
        self.flush()

    # --- the loop's questions ----------------------------------------------------------------

    def next_due(self) -> float:
        """When the loop must look again at the latest: a timer, or the next sweep."""
        due = self._next_sweep
        for d in (self.play.next_due(), self.seeks.next_due(), self.events.next_due()):
            if d is not None and d < due:
                due = d
        return due

    def tick(self, now: float) -> None:
        """Fire due timers; every ``sweep_every`` seconds, liveness and housekeeping; then
        ``flush`` what they changed."""
        self.play.tick(now)
        self.hints.tick()
        self.reviews.tick()
        self.seeks.tick(now)
        self.events.tick(now)
        self.succession.tick(now)
        if now >= self._next_sweep:
            self._next_sweep = now + self.config.sweep_every
            self.roster.sweep(now)
            self.lobby.sweep(now)
            self.economy.reconcile()
        self.flush()

    def flush(self) -> None:
        """The writes of what was handled since the last flush handed to the store (a table
        whose game cannot be saved is stopped), and what was sent sealed: it goes once they
        are durable (``gate``)."""
        for ht, exc in self.persistence.flush():
            self.play.fail(ht, exc)
        self.outbox.seal()

    def check_held(self, req: Request) -> None:
        """ProtocolError ``held`` for a request about a held table (``succession``): asked
        before a request is answered from the memory of replies too, since a reply about a
        held table tells of what may never be."""
        tid = req.get("table")
        if isinstance(tid, str) and tid in self.tables.held:
            self.tables.find(tid)

    def on_profile(self, player: Player, req: ProfileRequest) -> ProfileReply:
        """The economy's profile, with the player's ratings at every game (TO-26)."""
        reply = self.economy.on_profile(player, req)
        profile = reply.get("profile")
        if isinstance(profile, dict):
            reply = {**reply, "profile": {**profile,
                                          "ratings": self.ratings.profile(profile["name"])}}
        return reply

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
              user: bytes | None = None, features: tuple[str, ...] = (),
              address: str | None = None) -> Player:
        """A hello on ``route`` from a connection authenticated as ``user`` (None: no CURVE;
        ``token`` is sent as an old client would, and ignored), asking for ``features``, from
        ``address`` (None: not counted, as the host's own machine)."""
        hello = message("hello", name=name, features=list(features))
        if token is not None:
            hello["token"] = token
        counted = address if self.config.guests.counted(address) else None
        req = check_request(hello)
        assert req["type"] == "hello"
        player = self.roster.hello(route, req, user, counted)
        self.flush()
        return player

    def request(self, player: Player, kind: str, **fields: Any) -> Outgoing | None:
        """``kind`` from ``player`` with ``fields``, checked by the protocol's schema: the
        reply (None when the handler sent it itself), its writes flushed as the server's
        would be. ProtocolError as the server would answer it."""
        req = check_request(message(kind, **fields))
        try:
            return self.handlers[kind](player, req)
        finally:
            self.flush()
