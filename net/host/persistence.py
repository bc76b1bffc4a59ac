"""The host's rows in its store: what a table and a player are on disk, and back.

Owns: the ``meta`` record of a table (title, timers' settings, status, mode, creator,
invitations, seats by player token with their stand-ins, spectators by token, the match's
rounds and totals) beside ``Table.save()``; writing it after every change (before the change
is answered, so a finished move is never lost): while a game only moves, each move is
appended as a few bytes (the seat and the move) and the whole save is written again every
``MAX_TAIL`` moves or when anything else changes; a restart restores the save and plays the
tail again; the players' rows; rebuilding players and tables from the store when a host
starts with ``--data``. Without a store every call does nothing.

The idle clock outlives a restart: every row and every move of the tail carries the wall
time of the table's last change (``changed``), and a playing table rebuilt counts its last
change as that long ago on the new host's monotonic clock, so an idle player's stand-in
takes over when his time was up, not a whole idle time after the restart; a stand-in that
played for someone before the restart goes on playing for him until he is back.

The store is handed in (``parts.build_host``), and so is the ledger: its commits are synced
on the store's writer before the store's own, when the ledger defers its syncs (a host with a
loop: ``Host``), so a payout is on the disk before any row or frame that tells of it.

Must not know about: sockets, the protocol, how requests are handled, when frames are sent
(``gate``); it returns records and the caller decides what they mean.
"""

from __future__ import annotations

import logging
from typing import Any, TypedDict

import msgpack

from cardparty.core.bots import canonical_level
from cardparty.core.contract import Move
from cardparty.core.discovery import Catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.core.table import Table
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import (
    Access,
    HostSeat,
    HostTable,
    MatchRecord,
    Player,
    Players,
    RoundLog,
    Stakes,
    TableTiming,
)
from cardparty.net.store import Store
from cardparty.net.wire.replies import RoundWire

log = logging.getLogger("cardparty.host")

#: Moves a table's tail may hold before its whole row is written again (and the tail
#: dropped): what a restart replays at most per table.
MAX_TAIL = 64


class SeatRecord(TypedDict):
    """One seat of a table's record: its kind, the token of the player sitting there (None:
    nobody, or a bot), the name shown, ready, a bot's level, a stand-in playing."""

    kind: str
    token: str | None
    name: str
    ready: bool
    level: str
    standin: bool


class TableRecord(TypedDict):
    """A table's record as ``_meta`` makes it (its row adds when the table last changed and
    the round's times, ``_write``): what a restart needs beside the game's own save. A row
    written by an older host may lack the keys added since (``_rebuild`` reads it)."""

    title: str
    idle: float | None
    bot_delay: float
    #: the hard bots' budget (ms) and the idle stand-in's level
    bots: tuple[int, str]
    status: str
    failure: str
    mode: str
    strangers: bool
    hints: bool
    undo: bool
    #: the creator's token and name
    creator: tuple[str, str]
    #: (name invited, who invited him)
    invited: list[tuple[str, str]]
    seats: list[SeatRecord]
    #: the spectators' tokens
    spectators: list[str]
    round: int
    rounds: list[RoundWire]
    wins: list[int]
    scores: list[int] | None
    secret: int
    #: the stake, the table's key in the ledger, made by seeking, bots filled, the owners
    economy: tuple[int, str, bool, bool, list[str | None]]
    event: str


class Persistence:
    """A host's store, or nothing (``store`` None).

    A table's changes are written at the next ``flush`` (each table once, all in one
    transaction), which the host runs after every request or few (``parts.HostParts.flush``),
    before anything they caused is sent (``gate``): nothing anybody was told is ever newer
    than the store."""

    def __init__(self, store: Store | None, catalog: Catalog, clock: Clock, players: Players,
                 ledger: Ledger | None = None) -> None:
        self.store = store
        self.catalog = catalog
        #: the host's clock: the wall time of a table's last change is what a restart reads
        self.clock = clock
        #: every player by id and token (spectators are kept by their tokens)
        self.directory = players
        #: another file whose commits reach the disk before the store's (``Ledger.unsynced``)
        self.ledger = ledger
        self.pending: dict[str, HostTable] = {}
        self._packer = msgpack.Packer(use_bin_type=True)
        #: while ``flush`` writes: the new moves of every table, for one statement
        self._moves: list[tuple[str, int, bytes]] | None = None
        #: ids of the tables set aside at start (damaged rows)
        self.aside: list[str] = []
        #: events changed since the last flush: id -> (seq, the record packed)
        self.pending_events: dict[str, tuple[int, bytes]] = {}
        #: ratings changed since the last flush: (game, username) -> (mu, sigma, rounds, when)
        self.pending_ratings: dict[tuple[str, str], tuple[float, float, int, float]] = {}

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    # --- writing -----------------------------------------------------------------------------

    def save_table(self, ht: HostTable) -> None:
        """Write ``ht``'s row at the next ``flush``."""
        if self.store is not None:
            self.pending[ht.id] = ht

    def flush(self) -> list[tuple[HostTable, BaseException]]:
        """Write every table changed since the last flush, in one transaction, after the
        ledger's commits are synced (when it defers them); the tables whose game could not be
        saved (its ``save`` hook raised), with why: the others are written, and the caller
        decides what a failure means."""
        store = self.store
        if store is None:
            return []
        ledger = self.ledger
        if ledger is not None and ledger.unsynced:
            ledger.unsynced = False
            with store.batch():
                store.before(ledger.sync)
        if not self.pending and not self.pending_events and not self.pending_ratings:
            return []
        pending, self.pending = self.pending, {}
        broken: list[tuple[HostTable, BaseException]] = []
        with store.batch():
            # An event's record and the ratings go in the same transaction as the tables whose
            # end changed them (TO-27, TO-28): a standby never has the one without the other.
            events, self.pending_events = self.pending_events, {}
            for eid, (eseq, packed) in events.items():
                store.put_event(eid, eseq, packed)
            rated, self.pending_ratings = self.pending_ratings, {}
            if rated:
                store.put_ratings([(game, name, *values) for (game, name), values
                                   in rated.items()])
            self._moves = moves = list[tuple[str, int, bytes]]()
            try:
                for ht in pending.values():
                    try:
                        self._write(ht)
                    except Exception as exc:
                        broken.append((ht, exc))
            finally:
                self._moves = None
            if moves:              # every table's new moves in one statement
                store.add_moves(moves)
        return broken

    def _write(self, ht: HostTable) -> None:
        """A playing table whose record is unchanged and which only moved since its row was
        written gets its new moves appended (a few bytes each); anything else, or a tail of
        ``MAX_TAIL`` moves, writes the whole row again and drops the tail."""
        assert self.store is not None
        meta = self._meta(ht)
        engine = ht.engine
        kept = ht.kept
        clock = self.clock
        # A finished table's time is its end's (``keep_over`` counts from it), whatever
        # changed at it since (a player leaving it).
        at = ht.ended_at if ht.ended_at is not None else ht.changed_at
        changed = round(clock.wall() - (clock.now() - at), 3)
        if (kept.engine is engine and ht.status == "playing"
                and kept.meta_packed is not None and kept.meta_packed[0] == meta):
            fresh = len(engine.journal) - kept.journal
            if 0 <= fresh == engine.version - kept.version and (
                    engine.version - kept.base <= MAX_TAIL):
                if fresh:
                    pack = self._packer.pack
                    rows = [(ht.id, kept.version + i + 1,
                             pack([s, m.kind, list(m.cards), m.choice, changed]))
                            for i, (s, m) in enumerate(engine.journal[kept.journal:])]
                    if self._moves is not None:
                        self._moves.extend(rows)
                    else:
                        self.store.add_moves(rows)
                    kept.version, kept.journal = engine.version, len(engine.journal)
                return
        save = engine.save()
        # The record rarely changes during a game (the tail's test above compares it); the
        # row also says when the table last changed, packed with it here only.
        log_ = ht.round_log
        kept.meta_packed = (meta, self._packer.pack({**meta, "changed": changed,
                                                     "started": log_.started,
                                                     "times": log_.times}))
        self.store.put_table(ht.id, ht.seq, kept.meta_packed[1], save)
        self.store.drop_moves(ht.id)
        kept.engine, kept.version, kept.journal = engine, engine.version, len(engine.journal)
        kept.base = engine.version

    def _meta(self, ht: HostTable) -> TableRecord:
        by_id = self.directory.by_id
        timing, access, match, stakes = ht.timing, ht.access, ht.match, ht.stakes
        return {"title": ht.title, "idle": timing.idle, "bot_delay": timing.bot_delay,
                "bots": (timing.bot_budget_ms, timing.standin_level),
                "status": ht.status, "failure": ht.failure, "mode": access.mode,
                "strangers": access.strangers, "hints": access.hints, "undo": access.undo,
                "creator": (access.creator_token, access.creator_name),
                "invited": list(access.invited.items()),
                "seats": [{"kind": s.kind, "token": None if s.player is None else s.player.token,
                           "name": s.name, "ready": s.ready, "level": s.level,
                           "standin": s.standin}
                          for s in ht.seats],
                "spectators": [by_id[pid].token for pid in ht.spectators if pid in by_id],
                "round": match.round, "rounds": list(match.rounds), "wins": list(match.wins),
                "scores": match.scores, "secret": match.secret,
                "economy": (stakes.stake, stakes.key, stakes.seeking, stakes.bots_filled,
                            list(stakes.owners)), "event": access.event}

    def save_event(self, event_id: str, seq: int, record: dict[str, Any]) -> None:
        """Write an event's record at the next ``flush`` (with the tables written then),
        packed now: the record (``Event.to_store``, core's map of an event) is the store's
        from here on."""
        if self.store is not None:
            self.pending_events[event_id] = (seq, self._packer.pack(record))

    def save_rating(self, game: str, username: str, mu: float, sigma: float, rounds: int
                    ) -> None:
        """Write a player's rating at ``game`` at the next ``flush``."""
        if self.store is not None:
            self.pending_ratings[(game, username)] = (mu, sigma, rounds, self.clock.wall())

    def drop_event(self, event_id: str) -> None:
        """An event forgotten (the host keeps a few: net/host/tourney.py)."""
        self.pending_events.pop(event_id, None)
        if self.store is not None:
            self.store.drop_event(event_id)

    def events(self) -> list[dict[str, Any]]:
        """Every kept event's record, oldest first (one that cannot be read is named in the
        log and left out: the others go on). Each is a map as the store decoded it, of no
        known shape until ``Event.from_store`` reads it."""
        if self.store is None:
            return []
        out = []
        for eid, _, packed in self.store.events():
            try:
                record = msgpack.unpackb(packed, raw=False, strict_map_key=False)
                if not isinstance(record, dict):
                    raise ValueError("not a map")
                out.append(record)
            except Exception as exc:          # damaged bytes: this event only
                log.error("event %s cannot be read (%s: %s); the others go on", eid,
                          type(exc).__name__, exc)
        return out

    def ratings(self) -> list[tuple[str, str, float, float, int]]:
        """(game, username, mu, sigma, rounds) of every rating kept (a damaged row is left
        out)."""
        if self.store is None:
            return []
        out = []
        for row in self.store.ratings():
            game, name, mu, sigma, rounds = row
            if (isinstance(game, str) and isinstance(name, str)
                    and isinstance(mu, float | int) and isinstance(sigma, float | int)
                    and sigma > 0 and isinstance(rounds, int)):
                out.append((game, name, float(mu), float(sigma), rounds))
        return out

    def drop_table(self, ht: HostTable) -> None:
        """``ht`` is gone: its row and its moves."""
        self.pending.pop(ht.id, None)
        if self.store is not None:
            self.store.drop_table(ht.id)

    def save_player(self, player: Player) -> None:
        if self.store is not None:
            self.store.put_player(player.token, player.id, player.name)

    def drop_player(self, player: Player) -> None:
        if self.store is not None:
            self.store.drop_player(player.token)

    # --- reading -----------------------------------------------------------------------------

    def _replay(self, tid: str, table: Table, times: list[float] | None = None
                ) -> float | None:
        """The moves played since the table's row was written, played again (the game is
        deterministic from its saved state and generator); the wall time of the table's
        last change the last of them carries (None: none does), which is also each move's
        time added to ``times``."""
        assert self.store is not None
        changed = None
        moves, whole = self.store.moves(tid)     # up to the first that cannot be read
        cut = None
        for version, entry in moves:
            if version <= table.version:
                continue
            try:
                seat, kind, cards, choice, *at = entry
                table.play(seat, Move(kind, tuple(cards), choice))
            except Exception as exc:
                log.error("table %s: move %d could not be replayed: %s", tid, version, exc)
                cut = version
                break
            if table.version != version:
                log.error("table %s: move %d replayed as version %d", tid, version,
                          table.version)
                cut = version
                break
            changed = at[0] if at and isinstance(at[0], float | int) else changed
            if times is not None and changed is not None:
                times.append(float(changed))
        else:
            if whole:
                return changed
            cut = table.version + 1      # what could not be read, after the last good move
        self.store.cut_moves(tid, cut)   # the table goes on from its last good move
        return changed

    def players(self) -> list[Player]:
        """Every remembered player (no connection yet)."""
        if self.store is None:
            return []
        return [Player(id=pid, token=token, name=name)
                for token, pid, name in self.store.players()]

    def tables(self, now: float) -> list[HostTable]:
        """Every kept table, rebuilt, oldest first; its seated players and spectators are
        told (``player.tables``). A table whose row cannot be rebuilt is set aside in the
        store (``Store.set_aside``) and named in the log; the others play on."""
        if self.store is None:
            return []
        out = []
        for tid, tseq, packed, save in self.store.tables():
            try:
                out.append(self._rebuild(tid, tseq, packed, save, now))
            except Exception as exc:     # any damage: this table only
                why = f"{type(exc).__name__}: {exc}"
                log.error("table %s could not be restored and was set aside (%s); the "
                          "other tables go on", tid, why)
                self.aside.append(tid)
                self.store.set_aside(tid, why)
        return out

    def _rebuild(self, tid: str, tseq: int, packed: bytes, save: bytes,
                 now: float) -> HostTable:
        """One table from its row (any exception: the row is damaged). Rows written before
        tables had bot settings, modes, matches or an economy get the defaults, and bot
        levels written under their old names (``random``, ``basic``) come back canonical."""
        by_token = self.directory.by_token
        meta = msgpack.unpackb(packed, raw=False, strict_map_key=False)
        game = Table.restore(save, self.catalog)
        times = [float(t) for t in meta.get("times", ()) if isinstance(t, float | int)]
        changed = self._replay(tid, game, times) or meta.get("changed")
        staged: list[Player] = []
        seats = []
        for s in meta["seats"]:
            player = by_token.get(s["token"]) if s["token"] else None
            seats.append(HostSeat(s["kind"], player, s["name"], s["ready"],
                                  bool(s.get("standin", False)), canonical_level(s["level"])))
            if player is not None:
                staged.append(player)
        timing = TableTiming(meta["idle"], meta["bot_delay"])
        if "bots" in meta:
            timing.bot_budget_ms, standin = meta["bots"]
            timing.standin_level = canonical_level(standin)
        creator_token, creator_name = meta.get("creator", ("", ""))
        access = Access(meta.get("mode", "open"), creator_token, creator_name,
                        strangers=meta.get("strangers", True),
                        hints=bool(meta.get("hints", False)),
                        undo=bool(meta.get("undo", False)),
                        invited={name: by for name, by in meta.get("invited", ())},
                        event=str(meta.get("event") or ""))
        match = MatchRecord(meta.get("round", 1), list(meta.get("rounds", ())),
                            list(meta.get("wins", ())), meta.get("scores"))
        if isinstance(meta.get("secret"), int):    # a row written before: a fresh one
            match.secret = meta["secret"]
        stakes = Stakes()
        if "economy" in meta:
            stakes.stake, stakes.key, stakes.seeking, stakes.bots_filled, owners = (
                meta["economy"])
            stakes.owners = list(owners)
        ht = HostTable(id=tid, seq=tseq, title=meta["title"], engine=game, seats=seats,
                       timing=timing, status=meta["status"], changed_at=now,
                       failure=meta["failure"], access=access, match=match, stakes=stakes)
        started = meta.get("started", 0.0)
        ht.round_log = RoundLog(float(started) if isinstance(started, float | int) else 0.0,
                                times)
        for token in meta.get("spectators", ()):
            if token in by_token:
                ht.spectators.add(by_token[token].id)
                staged.append(by_token[token])
        # As long ago as it was on the wall clock (never in the future: a clock set back):
        # a finished table is kept ``keep_over`` from its end, not from every restart or
        # takeover (a party whose host moved every few minutes kept every table it ever
        # finished); an open table's players count their time from the restart.
        ago = max(0.0, self.clock.wall() - changed) if isinstance(changed, float | int) else 0.0
        if ht.status in ("over", "broken", "cancelled"):
            ht.ended_at = now - ago
        if ht.status == "playing":
            ht.changed_at = now - ago
        # Only a table rebuilt whole is told to its people.
        for player in staged:
            player.tables.add(tid)
        if creator_token in by_token:      # his rights outlive the restart
            by_token[creator_token].owns.add(tid)
        return ht
