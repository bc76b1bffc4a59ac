"""The lobby: tables before, around and after their games.

Owns: the requests ``games``, ``tables``, ``create``, ``sit``, ``leave``, ``bots``,
``ready``, ``start``, ``watch``, ``snapshot`` and ``chat`` (``invite``, MO-4, is in
``invitations``); who may sit and add bots by the table's mode (MO-3 practice: its creator
and bots; MO-4 friends: invitees; MO-6 entry: humans who pay the stake, through
``economy``); a table starting when every seat is filled and ready; what a player's tables
show when he comes and goes (``presence``, ``back``: a fresh picture of each and the invitations
still pending); the table limit (a finished table makes room for a new one) and dropping
tables nobody needs any more.

Must not know about: sockets (it sends through the outbox), how a move is played or timed
(``Play``), how a hello is checked (``Roster``: it tells the lobby of players coming and going
through the ``PlayerEvents`` the composition root gave it), the store's format.
"""

from __future__ import annotations

import itertools
import logging
from typing import Any, cast

from cardparty.core.bots import canonical_level
from cardparty.core.discovery import Catalog
from cardparty.core.i18n import N_, Msg, plural_msg
from cardparty.core.table import Table, TableError
from cardparty.net.host.clock import Clock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.economy import Economy
from cardparty.net.host.model import (
    DEFAULT_BOT_BUDGET_MS,
    MAX_OPEN_TABLES,
    TABLES_PAGE,
    Access,
    HostSeat,
    HostTable,
    Player,
    Players,
    Stakes,
    Tables,
    TableTiming,
    seeded_secret,
)
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.play import Play
from cardparty.net.host.views import Views
from cardparty.net.names.safetext import safe
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.replies import (
    ChatPush,
    CreateReply,
    GamesReply,
    GameWire,
    OkReply,
    SitReply,
    TablePush,
    TablesReply,
)
from cardparty.net.wire.requests import (
    BotsRequest,
    ChatRequest,
    CreateRequest,
    GamesRequest,
    LeaveRequest,
    ReadyRequest,
    SitRequest,
    SnapshotRequest,
    StartRequest,
    TablesRequest,
    WatchRequest,
)

log = logging.getLogger("cardparty.host")

#: Finished tables shown again to a player who comes back (the last to end).
BACK_ENDED = 4


class Lobby:
    def __init__(self, config: HostConfig, tables: Tables, clock: Clock, outbox: Outbox,
                 players: Players, views: Views, play: Play, persistence: Persistence,
                 economy: Economy, catalog: Catalog) -> None:
        self.tables = tables
        self.clock = clock
        self.outbox = outbox
        self.players = players
        self.views = views
        self.play = play
        self.persistence = persistence
        self.economy = economy
        self.catalog = catalog
        #: the tables' defaults, the table limit, how long what nobody needs is kept, and
        #: whether clients may choose a deal's seed or deck (``--testing``)
        self.config = config
        self._seq = itertools.count(1)
        self._games: list[GameWire] | None = None
        #: invited name (casefolded) -> ids of the tables that invited it: a hello looks at
        #: the tables that invited his name, not at every table (a storm of hellos must not
        #: cost the host a pass over its tables each). Ids of tables gone are dropped lazily.
        self.invitations: dict[str, set[str]] = {}

    def loaded(self, restored: list[HostTable]) -> None:
        """Tables rebuilt from the store join the lobby; new ids go on from the highest."""
        for ht in restored:
            self.tables.add(ht)
            self.play.schedule(ht, changed=True)
            for name in ht.access.invited:
                self.invitations.setdefault(name.casefold(), set()).add(ht.id)
        self._seq = itertools.count(max((ht.seq for ht in restored), default=0) + 1)

    # --- players coming and going (``roster.PlayerEvents``) ----------------------------------

    def presence(self, player: Player) -> None:
        """``player`` connected or disconnected: the tables where he sits show it (to the
        others: he himself gets each summary from ``back`` once he is welcomed); an open
        table he left may be nobody's now (``sweep``)."""
        for tid in list(player.tables):
            ht = self.tables.all.get(tid)
            if ht is not None and ht.seat_of(player) is not None:
                self.outbox.send_all([p for p in self.views.recipients(ht) if p is not player],
                                     self.views.summary_message(ht))
                if not player.connected:
                    self.tables.expire_later(ht)

    def seated(self, player: Player) -> bool:
        """``player`` sits at one of his tables (rather than only watching)."""
        return any((ht := self.tables.all.get(tid)) is not None and ht.seat_of(player)
                   is not None for tid in player.tables)

    def forgotten(self, player: Player) -> None:
        """A player forgotten stops watching: his tables no longer send him views."""
        for tid in list(player.tables):
            ht = self.tables.all.get(tid)
            if ht is not None:
                ht.spectators.discard(player.id)
                self.views.forget(ht, player)
        player.tables.clear()

    def back(self, player: Player) -> None:
        """After a hello: no bot plays for him any more, a fresh picture of every table of
        his not over and then of the ``BACK_ENDED`` that ended last (the latest first), and
        (MO-4) the invitations still pending, so one missed while away is not lost. A player
        who played game after game keeps many finished tables: showing them all made every
        hello cost the host hundreds of pushes (a soak's host doubled its CPU after 25
        minutes of it)."""
        mine = [ht for ht in map(self.tables.all.get, player.tables) if ht is not None]
        for ht in mine:
            # A new connection has seen no view of any table: a snapshot's prev is null,
            # never a version sent to a connection before it.
            self.views.forget(ht, player)
        ended = sorted((ht for ht in mine if ht.ended_at is not None),
                       key=lambda ht: ht.ended_at or 0.0)[-BACK_ENDED:]
        # The tables not over first: a player back after a takeover waits for his own
        # table's view, and the finished ones' pictures went before it (their ids sort
        # as text: t10 before t9).
        going = sorted((ht for ht in mine if ht.ended_at is None), key=lambda ht: ht.id)
        for ht in going + ended[::-1]:
            seat = ht.seat_of(player)
            if seat is not None and ht.seats[seat].standin:
                ht.seats[seat].standin = False
                self.play.schedule(ht)
            if seat is not None or player.id in ht.spectators:
                self.outbox.send(player, self.views.summary_message(ht))
                if ht.status != "open":
                    self.play.show(ht, player, seat)
        self.invited_again(player)

    def invited_again(self, player: Player) -> None:
        """MO-4: the invitations still pending for ``player``'s name, told again."""
        wanted = player.name.casefold()
        tids = self.invitations.get(wanted)
        if not tids:
            return
        for tid in sorted(tids):
            ht = self.tables.all.get(tid)
            if ht is not None and ht.invitation_pending(player):
                self.outbox.send(player, self.views.invitation(
                    ht, ht.access.inviter_of(player.name) or ""))
        tids -= {tid for tid in tids if tid not in self.tables.all
                 or self.tables.all[tid].status != "open"}
        if not tids:
            del self.invitations[wanted]

    # --- listing and creating ----------------------------------------------------------------

    def on_games(self, player: Player, req: GamesRequest) -> GamesReply:
        if self._games is None:
            # ``plugin``: which package and version of each game and variant this host runs.
            # ``GameInfo.to_wire`` says no more than a map: its keys are GameWire's (the
            # reply's test holds them to it).
            versions = self.catalog.versions
            self._games = [cast(GameWire, {
                **info.to_wire(), "plugin": versions.get(info.id, ""),
                "variants": [{**v.to_wire(), "plugin": versions.get(v.id, "")}
                             for v in self.catalog.variants_of(info.id)]})
                for info in sorted(self.catalog.games.values(), key=lambda g: g.id)]
        return {"type": "games", "v": PROTOCOL, "games": self._games}

    def on_tables(self, player: Player, req: TablesRequest) -> TablesReply:
        """One page of summaries (``TABLES_PAGE`` at most, from ``offset``): a reply stays
        small however many tables there are; ``next`` is the offset of the next page."""
        offset = req["offset"]
        tables = self.tables.all
        page = list(itertools.islice(tables.values(), offset, offset + TABLES_PAGE))
        end = offset + len(page)
        return {"type": "tables", "v": PROTOCOL,
                "tables": [self.views.summary(ht) for ht in page], "total": len(tables),
                "next": end if end < len(tables) else None}

    def on_create(self, player: Player, req: CreateRequest) -> CreateReply:
        quota = self.may_create(player, req)
        table = self.new_game(req)
        idle = self.config.idle if req["idle"] == -1.0 else req["idle"]
        bot_delay = self.config.bot_delay if req["bot_delay"] == -1.0 else req["bot_delay"]
        budget = DEFAULT_BOT_BUDGET_MS if req["bot_budget_ms"] == -1 else req["bot_budget_ms"]
        ht = self.open_table(table, req["title"],
                             TableTiming(idle, bot_delay, int(budget),
                                         canonical_level(req["standin_level"])),
                             Access(req["mode"], player.token, player.name, quota,
                                    req.get("strangers", True), hints=req.get("hints", False),
                                    creator_address=player.address,
                                    undo=req.get("undo", False)),
                             Stakes(stake=req.get("stake", 0)))
        if req["seed"] is not None:       # a test's chosen deal: its next rounds follow it
            ht.match.secret = seeded_secret(req["seed"])
        player.owns.add(ht.id)
        player.settled = True
        log.info("%s opened table %s: %s for %d (%s)", safe(player.name), ht.id, table.game,
                 table.players, ht.access.mode)
        return self.views.summary_message(ht)

    def open_table(self, table: Table, title: str, timing: TableTiming, access: Access,
                   stakes: Stakes | None = None) -> HostTable:
        """A new table of the lobby, its seats empty, playing ``table`` (``create``, and an
        event's rounds: net/host/tourney.py), kept at the next flush."""
        seq = next(self._seq)
        ht = HostTable(id=f"t{seq}", seq=seq, title=title or f"{table.info.name} #{seq}",
                       engine=table, seats=[HostSeat() for _ in range(table.players)],
                       timing=timing, changed_at=self.clock.now(), access=access,
                       stakes=stakes or Stakes())
        self.economy.opened(ht)
        self.tables.add(ht)
        self.persistence.save_table(ht)
        return ht

    def may_create(self, player: Player, req: CreateRequest) -> Any:
        """Whether ``player`` may open the table ``req`` asks for (ProtocolError if not):
        his open tables, the host's table limit, the game and its variants, a chosen deal,
        the mode and its stake. What his limits are counted against (``quota_key``)."""
        quota = player.quota_key
        address = player.address
        mine = ours = 0
        for ht in self.tables.all.values():
            if ht.status != "open":
                continue
            access = ht.access
            mine += access.creator_token == player.token or (
                quota is not None and access.creator_quota == quota)
            ours += address is not None and access.creator_address == address
        if mine >= MAX_OPEN_TABLES:
            raise ProtocolError("too_many", Msg("you have {n} open tables, as many as one "
                                                "player may have: start or close one first",
                                                n=mine))
        if ours >= self.config.guests.open_tables:
            raise ProtocolError("too_many", Msg("your address has {n} open tables, as many as "
                                                "one machine may have: start or close one "
                                                "first", n=ours))
        most = self.config.max_tables
        # The reserve is kept from strangers on guests' machines (the host's own is not
        # counted: Player.address is None there).
        limit = (most if player.known or player.address is None
                 else self.config.guests.room(most))
        while len(self.tables.all) >= limit:
            if not self.make_room(player.known):
                raise ProtocolError("busy", Msg("this host has too many tables"))
        game = req["game"]
        if game not in self.catalog.games:
            raise ProtocolError("no_game", Msg("no game {game} is installed here (installed: "
                                               "{games})", game=repr(game),
                                               games=", ".join(sorted(self.catalog.games))))
        for v in req["variants"]:
            try:
                self.catalog.variant(game, v)
            except KeyError as exc:
                raise ProtocolError("no_game", exc.args[0]) from None
        if not self.config.testing and (req["seed"] is not None or "deck" in req["settings"]
                                 or "seed" in req["settings"]):
            raise ProtocolError("testing_only", Msg("this host deals every table from its own "
                                                "secure random source: a seed or a deck is "
                                                "for a host run with --testing"))
        self.economy.check_create(req["mode"], req.get("stake", 0), player)
        if req.get("hints") and req["mode"] in ("open", "entry"):
            raise ProtocolError("no_hints", Msg("hints are for practice and friends tables: "
                                                "at an open or entry table nobody is told the "
                                                "hard bot's move"))
        if req.get("undo") and req["mode"] in ("open", "entry"):
            raise ProtocolError("no_undo", Msg("moves are taken back at practice and friends "
                                               "tables: at an open or entry table every move "
                                               "stands"))
        return quota

    def new_game(self, req: CreateRequest) -> Table:
        """The game a ``create`` asks for, set up (ProtocolError when it cannot be)."""
        players = req["players"]
        try:
            return Table(req["game"], players, req["settings"], req["variants"],
                         seed=req["seed"], names=[f"Seat {i + 1}" for i in range(players)],
                         catalog=self.catalog)
        except TableError as exc:          # the game's words as a message where it has one
            said = exc.args[0] if exc.args else ""
            raise ProtocolError("bad_table", said if isinstance(said, Msg) else str(exc)
                                ) from None
        except Exception as exc:  # a plugin failing at setup must not reach the loop
            raise ProtocolError("game_failed", Msg("the game failed to set up: {error}",
                                                   error=exc)) from None

    # --- seats -------------------------------------------------------------------------------

    def on_sit(self, player: Player, req: SitRequest) -> SitReply:
        ht = self.tables.find(req["table"])
        if ht.seat_of(player) is not None:
            raise ProtocolError("seated", Msg("you already sit at seat {seat}",
                                              seat=ht.seat_of(player)))
        self.taking_seats(ht)
        self.may_sit(ht, player)
        seat = self.free_seat(ht, req["seat"])
        self.economy.take_stake(ht, player)       # MO-6: no seat without the stake
        ht.seats[seat] = HostSeat("human", player, player.name, ready=ht.stakes.seeking)
        ht.spectators.discard(player.id)
        player.tables.add(ht.id)
        player.settled = True
        self.changed(ht)
        return {"type": "seated", "v": PROTOCOL, "table": ht.id, "seat": seat}

    @staticmethod
    def taking_seats(ht: HostTable) -> None:
        """ProtocolError ``not_open`` once the game at ``ht`` has started."""
        if ht.status != "open":
            raise ProtocolError("not_open", Msg("the game at this table has started"))

    @staticmethod
    def may_sit(ht: HostTable, player: Player) -> None:
        """Whether the table's mode lets ``player`` sit (MO-3, MO-4)."""
        access = ht.access
        if ((access.mode == "friends" or not access.strangers)
                and player.token != access.creator_token
                and access.inviter_of(player.name) is None):
            raise ProtocolError("not_invited", Msg(
                "{who} created this friends table: only the players invited may sit",
                who=access.creator_name) if access.mode == "friends" else Msg(
                "{who} created this table: only the players invited may sit",
                who=access.creator_name))
        if access.mode == "practice" and player.token != access.creator_token:
            raise ProtocolError("practice", Msg("this is {who}'s practice table: watch it, or "
                                                "open one of your own", who=access.creator_name))

    @staticmethod
    def free_seat(ht: HostTable, seat: int | None) -> int:
        """``seat`` if it is free (None: the first free one)."""
        if seat is None:
            free = [i for i, s in enumerate(ht.seats) if s.kind == "empty"]
            if not free:
                raise ProtocolError("no_seat", Msg("every seat at this table is taken"))
            return free[0]
        if not 0 <= seat < len(ht.seats):
            raise ProtocolError("no_seat", Msg("this table has seats 0 to {last}",
                                               last=len(ht.seats) - 1))
        if ht.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", Msg("seat {seat} is taken by {who}", seat=seat,
                                                  who=ht.seats[seat].name))
        return seat

    def on_leave(self, player: Player, req: LeaveRequest) -> OkReply:
        ht = self.tables.find(req["table"])
        seat = ht.present(player, N_("you are neither seated nor watching here"))
        if seat is None:
            ht.spectators.discard(player.id)
            player.tables.discard(ht.id)
            self.views.forget(ht, player)
            # As for a watch: the seated see the count change, the other watchers are not
            # told (a crowd leaving costs one push each, not a square).
            self.persistence.save_table(ht)
            self.outbox.send_all(ht.humans(), self.views.summary_message(ht))
            return {"type": "ok", "v": PROTOCOL, "about": "leave"}
        if ht.status == "open" and ht.access.event:
            raise ProtocolError("event_state", Msg(
                "this seat is yours in a round of an event: to give it up, withdraw from the "
                "event"))                                              # TO-17
        if ht.status == "open":
            ht.seats[seat] = HostSeat()
            self.economy.refund_stake(ht, player)
            for s in ht.seats:
                s.ready = False if s.kind == "human" and not ht.stakes.seeking else s.ready
        elif ht.status == "playing":
            old = ht.seats[seat]            # a bot plays his seat to the end
            ht.seats[seat] = HostSeat("bot", None, f"{old.name} (bot)", True)
            self.play.schedule(ht)
        else:
            ht.seats[seat].player = None
        player.tables.discard(ht.id)
        self.views.forget(ht, player)
        self.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "leave"}

    def on_bots(self, player: Player, req: BotsRequest) -> OkReply:
        ht = self.tables.find(req["table"])
        access = ht.access
        if access.mode == "friends":
            if player.token != access.creator_token:  # MO-4: bots only if the creator adds them
                raise ProtocolError("not_creator", Msg("only {who}, who created this friends "
                                                       "table, may add bots to it",
                                                       who=access.creator_name))
        else:
            ht.seated(player, N_("only a seated player may add bots"))
        if access.mode == "entry":
            raise ProtocolError("humans_only", Msg("an entry table is for humans only: no bots"))
        self.taking_seats(ht)
        empty = [i for i, s in enumerate(ht.seats) if s.kind == "empty"]
        if not empty:
            raise ProtocolError("no_seat", Msg("there is no empty seat for a bot"))
        count = len(empty) if req["count"] is None else req["count"]
        for i in empty[:count]:
            ht.seats[i] = HostSeat("bot", None, f"Bot {i + 1}", True, level=req["level"])
        self.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "bots"}

    def on_ready(self, player: Player, req: ReadyRequest) -> OkReply:
        ht = self.tables.find(req["table"])
        seat = ht.seated(player)
        self.taking_seats(ht)
        ht.seats[seat].ready = req["ready"]
        self.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "ready"}

    def on_start(self, player: Player, req: StartRequest) -> OkReply:
        ht = self.tables.find(req["table"])
        ht.seated(player, N_("only a seated player may start the game"))
        self.taking_seats(ht)
        empty = sum(s.kind == "empty" for s in ht.seats)
        if empty:
            raise ProtocolError("not_full", plural_msg(
                "{n} seat is empty: wait for players or add bots",
                "{n} seats are empty: wait for players or add bots", empty))
        for s in ht.seats:
            s.ready = True
        self.play.start(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "start"}

    # --- watching and talking ----------------------------------------------------------------

    def on_watch(self, player: Player, req: WatchRequest) -> TablePush | None:
        ht = self.tables.find(req["table"])
        if ht.seat_of(player) is None and player.id not in ht.spectators:
            self.may_watch(player)
        if ht.seat_of(player) is None:
            ht.spectators.add(player.id)
            player.tables.add(ht.id)
            self.persistence.save_table(ht)     # a restart gives him the table back
        if ht.status == "open":
            # The seated see the count of watchers change; the watchers already there are
            # not told of each other (a crowd joining costs one push each, not a square).
            self.outbox.send_all(ht.humans(), self.views.summary_message(ht))
            return self.views.summary_message(ht)
        self.outbox.send(player, self.views.summary_message(ht))
        self.play.show(ht, player, ht.seat_of(player), rid=req["rid"])
        return None

    def may_watch(self, player: Player) -> None:
        """One address watches at most ``Guests.watching`` tables in all, whatever keys and
        names it makes (every view of a watched table is sent to each watcher)."""
        address = player.address
        if address is None:
            return
        most = self.config.guests.watching
        watching = 0
        for p in self.players.by_id.values():
            if p.address == address and p.tables:
                watching += sum(1 for tid in p.tables if (ht := self.tables.all.get(tid))
                                is not None and p.id in ht.spectators)
                if watching >= most:
                    raise ProtocolError("too_many", Msg(
                        "your address watches {n} tables, as many as one machine may: stop "
                        "watching one first", n=most))

    def on_snapshot(self, player: Player, req: SnapshotRequest) -> TablePush | None:
        ht = self.tables.find(req["table"])
        if ht.status == "open":            # an open table's summary is for anyone
            return self.views.summary_message(ht)
        seat = ht.present(player, N_("sit or watch first"))
        self.play.back(ht, seat)
        self.play.show(ht, player, seat, rid=req["rid"])
        return None

    def on_chat(self, player: Player, req: ChatRequest) -> OkReply:
        """A line at a table (``lobby_chat`` takes those with no table first)."""
        table = req["table"]
        if table is None:
            raise ProtocolError("no_table", Msg("there is no table {table}", table="null"))
        ht = self.tables.find(table)
        seat = ht.present(player, N_("sit or watch to talk at this table"))
        self.play.back(ht, seat)
        said: ChatPush = {"type": "chat", "v": PROTOCOL, "table": ht.id, "seat": seat,
                          "player": player.id, "name": player.name, "text": req["text"],
                          "time": self.clock.wall()}
        self.outbox.send_all(self.views.recipients(ht), said)
        return {"type": "ok", "v": PROTOCOL, "about": "chat"}

    # --- the table's life before and after its games -----------------------------------------

    def changed(self, ht: HostTable) -> None:
        """A change before (or between) games: start when every seat is ready, else keep
        the table and tell its people."""
        ht.changed_at = self.clock.now()
        if (ht.status == "open" and all(s.kind != "empty" for s in ht.seats)
                and all(s.ready for s in ht.seats)):
            self.play.start(ht)
            return
        self.persistence.save_table(ht)
        self.views.push_summary(ht)

    def make_room(self, known: bool = False) -> bool:
        """At the table limit, drop the table that ended longest ago: a finished table is
        kept only so that its players can still read the result, and a busy host (a room of
        bot clients playing game after game) must not refuse new tables because of old
        ones. Failing that, the open table longest unchanged that no connected person sits
        at nor created (tables made and left must not lock the lobby). For a ``known``
        player, failing that, an open table of a stranger that no known player sits at:
        strangers never lock out the players the host knows. Tables in play, and open
        tables someone present and known cares about, are never dropped for room."""
        ended = [ht for ht in self.tables.all.values() if ht.ended_at is not None]
        if ended:
            self.drop(min(ended, key=lambda ht: ht.ended_at or 0.0))
            return True
        left = [ht for ht in self.tables.all.values()       # never one holding stakes
                if ht.status == "open" and not ht.stakes.stake and not ht.access.event
                and not self.cared_for(ht)]
        if not left and known:
            left = [ht for ht in self.tables.all.values()
                    if ht.status == "open" and not ht.stakes.stake and not ht.access.event
                    and not self.known_at(ht)]
        if not left:
            return False
        self.drop(min(left, key=lambda ht: ht.changed_at))
        return True

    def cared_for(self, ht: HostTable) -> bool:
        """Someone connected sits at ``ht`` or created it."""
        creator = self.players.by_token.get(ht.access.creator_token)
        return (creator is not None and creator.connected) or self.attended(ht)

    def known_at(self, ht: HostTable) -> bool:
        """A known player created ``ht`` or sits at it."""
        creator = self.players.by_token.get(ht.access.creator_token)
        return (creator is not None and creator.known) or any(p.known for p in ht.humans())

    @staticmethod
    def attended(ht: HostTable) -> bool:
        """Someone connected sits at ``ht``."""
        return any(p.connected for p in ht.humans())

    def drop(self, ht: HostTable) -> None:
        """``ht`` goes: its people (seated, watching, its creator) forget it, and the store."""
        self.tables.remove(ht)
        people = [s.player for s in ht.seats if s.player is not None]
        people += [p for pid in ht.spectators if (p := self.players.by_id.get(pid))]
        creator = self.players.by_token.get(ht.access.creator_token)
        for player in [*people, *([creator] if creator is not None else [])]:
            player.tables.discard(ht.id)
            player.owns.discard(ht.id)
        self.persistence.drop_table(ht)

    def sweep(self, now: float) -> None:
        """Drop what nobody needs: tables over for long, open tables nobody present wants
        (``Tables.expiring`` says which to look at; one still wanted is looked at again)."""
        keep_over = self.config.keep_over
        for ht in self.tables.expiring.pop_due(now):
            if self.tables.all.get(ht.id) is not ht:
                continue
            if ht.ended_at is not None and now - ht.ended_at > keep_over:
                self.drop(ht)
            elif (ht.status == "open" and now - ht.changed_at > keep_over
                  and not self.attended(ht)):
                self.drop(ht)       # an open table nobody present cares about
            elif ht.status == "open" and now - ht.changed_at > keep_over:
                self.tables.expiring.set(ht, now + keep_over)    # wanted: again later
            else:
                self.tables.expire_later(ht)

