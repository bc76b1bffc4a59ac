"""The evening's memory at the host: every finished round kept as a record, listed, fetched,
replayed from any seat, and stepped through together (docs/protocol.md, "Game records").

Owns: writing a round's record when it ends (``TableEvents.over``, after the economy paid it:
the record says what was paid), in the store's ``records`` table (net/store.py; replicated to
the standby and merged at a heal by its declaration, like every row the host keeps) or, on a
host without a store, in memory; the retention (``HostConfig.records_kept`` and
``records_days``: the oldest go first, checked when a round ends and when the host starts);
the requests ``records`` (a player's own, newest first), ``record`` (one, whole),
``replay`` (the view of one seat at one step, with that step's events) and ``replay_lead``
/ ``replay_end`` (a shared replay at a table: whoever leads sets the step and the seat and
everybody at the table is sent the view; anybody there may take the lead).

Who may see what (docs/playing.md, "Replays"): a finished round is no secret any more, at any
kind of table: every human who sat at it may fetch its record and replay it from any seat,
and so may anybody seated at or watching its table now (players turning their hands over).
A round still in play is replayed only from the asking player's own seat (a spectator's: the
spectators' view), never further than now: what he was shown, again.

Must not know about: sockets, how a game is played or shown (``core.record``), the store's
SQL.
"""

from __future__ import annotations

import logging
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import cast

import msgpack

from cardparty.core.contract import Result, WireEvent
from cardparty.core.discovery import Catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.core.i18n import Msg
from cardparty.core.narrate import describe
from cardparty.core.record import GameRecord, RecordError, Replay
from cardparty.core.table import redact_event
from cardparty.net.host.clock import Clock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.model import HostTable, Player, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.views import Views
from cardparty.net.names.safetext import name_folds
from cardparty.net.store import Store
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.record_replies import (
    Answer,
    RecordEntry,
    RecordReply,
    RecordsReply,
    RecordWire,
    ReplayEndedPush,
    ReplayEndReply,
    ReplayLeadReply,
    ReplayReply,
    ReplaySharedPush,
    ReplayStep,
)
from cardparty.net.wire.requests import (
    RecordRequest,
    RecordsRequest,
    ReplayEndRequest,
    ReplayLeadRequest,
    ReplayRequest,
)

log = logging.getLogger("cardparty.host")

#: Replays kept ready (each is a table and its copies every ``core.record.CHECKPOINT``
#: steps): the most recently asked are kept.
REPLAYS = 16
#: Records a ``records`` reply lists at most.
PAGE = 20
SECONDS_A_DAY = 86_400.0
#: What a replay kept ready is known by: its record's id, or a round in play as
#: ("live", table id, the table's version, the game's identity).
ReplayKey = str | tuple[str, str, int, int]
#: What a ``replay`` reply says before its step: the protocol's version (the server adds
#: the request's ``rid``). Spread, never changed.
ANSWER: Answer = {"v": PROTOCOL}


def player_key(name: str) -> str:
    """What a record knows a player by: his name's first fold (the name is bound to his key
    at this host, MO-1; ``safetext.name_folds``)."""
    return name_folds(name)[0]


@dataclass
class Shared:
    """A shared replay at a table: the record, who leads, the step and the seat shown."""

    record: str
    leader: str
    leader_name: str
    step: int
    seat: int | None


class Shelf:
    """Where records are kept: the store, or (a host without one) memory, with the same
    retention."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.memory: OrderedDict[str, tuple[float, str, str, str, bytes]] = OrderedDict()
        self.top = 0 if store is None else store.record_numbers()

    def next_id(self) -> str:
        self.top += 1
        return f"r{self.top}"

    def put(self, rid: str, ended: float, table_id: str, game: str, players: list[str],
            data: bytes) -> None:
        if self.store is not None:
            self.store.put_record(rid, ended, table_id, game, players, data)
            return
        self.memory[rid] = (ended, table_id, game, "\n" + "\n".join(players) + "\n", data)

    def prune(self, keep: int, before: float) -> None:
        if self.store is not None:
            self.store.prune_records(keep, before)
            return
        for rid in [r for r, row in self.memory.items() if row[0] < before]:
            del self.memory[rid]
        while len(self.memory) > max(0, keep):
            self.memory.popitem(last=False)

    def of(self, key: str, before: float | None, most: int
           ) -> list[tuple[str, float, str, str, bytes]]:
        if self.store is not None:
            return self.store.records_of(key, before, most)
        mark = f"\n{key}\n"
        rows = [(rid, e, t, g, d) for rid, (e, t, g, p, d) in self.memory.items()
                if mark in p and (before is None or e < before)]
        rows.sort(key=lambda r: (r[1], r[0]), reverse=True)
        return rows[:most]

    def get(self, rid: str) -> tuple[str, bytes] | None:
        if self.store is not None:
            return self.store.record(rid)
        row = self.memory.get(rid)
        return None if row is None else (row[3], row[4])


def pack_record(record: GameRecord) -> bytes:
    return zlib.compress(msgpack.packb(record.to_wire(), use_bin_type=True), 6)


def unpack_record(rid: str, data: bytes) -> GameRecord:
    wire = msgpack.unpackb(zlib.decompress(data), raw=False, strict_map_key=False)
    wire["id"] = rid                 # the row's id (a heal may have given it a new one)
    return GameRecord.from_wire(wire)


class Records:
    def __init__(self, config: HostConfig, store: Store | None, tables: Tables, clock: Clock,
                 outbox: Outbox, views: Views, ledger: Ledger | None, catalog: Catalog) -> None:
        self.config = config
        self.shelf = Shelf(store)
        self.tables = tables
        self.clock = clock
        self.outbox = outbox
        self.views = views
        self.ledger = ledger
        self.catalog = catalog
        #: the record of each table's last finished round, by table id
        self.last: dict[str, str] = {}
        self._replays: OrderedDict[ReplayKey, Replay] = OrderedDict()
        self.prune()

    # --- keeping -----------------------------------------------------------------------------

    def prune(self) -> None:
        """The retention: older than ``records_days`` go, then all but ``records_kept``."""
        config = self.config
        self.shelf.prune(config.records_kept,
                         self.clock.wall() - config.records_days * SECONDS_A_DAY)

    def over(self, ht: HostTable, result: Result) -> None:
        """A round ended (``TableEvents.over``, after it was paid): its record is kept, in
        the same transaction as the table's row that says it is over."""
        engine = ht.engine
        # What was paid and who sat, as ``GameRecord.from_table`` takes them (core's plain
        # maps); the record's wire says them as ``RecordPaid`` and ``RecordSeat``.
        kept = (self.ledger.paid_in(f"{ht.stakes.key}/r{ht.match.round}")
                if self.ledger is not None and ht.stakes.key else {})
        paid = [{"seat": seat, "name": s.name, "coins": p.coins, "xp": p.xp,
                 "league": p.league, "stake": p.stake, "pot": p.pot}
                for seat, s in enumerate(ht.seats)
                if s.kind == "human" and (p := kept.get(s.name)) is not None]
        seats = [{"name": s.name, "kind": s.kind, "level": s.level if s.kind == "bot" else None,
                  "standin": s.standin} for s in ht.seats]
        rid = self.shelf.next_id()
        wall = self.clock.wall()
        try:
            record = GameRecord.from_table(
                engine, id=rid, seats=seats, times=ht.round_log.times,
                started=ht.round_log.started, ended=wall, paid=paid, table_id=ht.id,
                title=ht.title, mode=ht.access.mode, round=ht.match.round)
            data = pack_record(record)
        except Exception:                  # a game whose result cannot be read: no record
            log.exception("table %s: the round's record could not be made", ht.id)
            return
        humans = sorted({player_key(s.name) for s in ht.seats if s.kind == "human"})
        self.shelf.put(rid, wall, ht.id, engine.game, humans, data)
        self.last[ht.id] = rid
        self.prune()

    # --- reading -----------------------------------------------------------------------------

    def find(self, player: Player, rid: str) -> GameRecord:
        """Record ``rid`` if ``player`` may have it (he sat at it, or is at its table now);
        ProtocolError ``no_record`` otherwise, the same words whether it exists or not."""
        got = self.shelf.get(rid)
        record = None
        if got is not None:
            players, data = got
            try:
                record = unpack_record(rid, data)
            except Exception:
                log.exception("record %s cannot be read", rid)
                record = None
            if record is not None and f"\n{player_key(player.name)}\n" not in players:
                at = self.tables.all.get(record.table)
                if at is None or not (at.seat_of(player) is not None
                                      or player.id in at.spectators):
                    record = None
        if record is None:
            raise ProtocolError("no_record", Msg("there is no record {record} of a round you "
                                                 "played or are at the table of",
                                                 record=repr(rid)))
        return record

    def on_records(self, player: Player, req: RecordsRequest) -> RecordsReply:
        key = player_key(player.name)
        most = req["most"]
        rows = self.shelf.of(key, req["before"], most + 1)
        out: list[RecordEntry] = []
        for rid, ended, table_id, game, data in rows[:most]:
            try:
                rec = unpack_record(rid, data)
            except Exception:
                continue
            seat = next((i for i, s in enumerate(rec.seats)
                         if s.get("kind") == "human" and player_key(str(s.get("name"))) == key),
                        None)
            result = rec.result or {}
            out.append({"id": rid, "game": game, "ended": ended, "table": table_id,
                        "title": rec.title, "round": rec.round, "mode": rec.mode,
                        "names": rec.names, "seat": seat, "steps": len(rec.steps),
                        "places": result.get("places"), "scores": result.get("scores"),
                        "plugins": rec.plugins})
        return {"type": "records", "v": PROTOCOL, "records": out, "more": len(rows) > most}

    def on_record(self, player: Player, req: RecordRequest) -> RecordReply:
        # ``GameRecord.to_wire`` gives core's plain map (core knows no wire shape): the
        # record file's fields, which RecordWire declares.
        record = cast(RecordWire, self.find(player, req["id"]).to_wire())
        return {"type": "record", "v": PROTOCOL, "record": record}

    # --- replaying ---------------------------------------------------------------------------

    def replay_of(self, key: ReplayKey, record: GameRecord) -> Replay:
        found = self._replays.get(key)
        if found is None:
            try:
                found = Replay(record, self.catalog)
            except RecordError as exc:
                raise ProtocolError("no_replay", exc.args[0]) from None
            self._replays[key] = found
            while len(self._replays) > REPLAYS:
                self._replays.popitem(last=False)
        else:
            self._replays.move_to_end(key)
        return found

    def live(self, player: Player, ht: HostTable, seat: int | None) -> tuple[Replay, int | None]:
        """The round in play at ``ht`` as a replay, and the only seat ``player`` may see it
        from (his own; a spectator's None), whatever he asked."""
        own = ht.seat_of(player)
        if own is None and player.id not in ht.spectators:
            raise ProtocolError("not_seated", Msg("sit or watch first"))
        engine = ht.engine
        record = GameRecord.from_table(engine, table_id=ht.id)
        replay = self.replay_of(("live", ht.id, engine.version, id(engine)), record)
        return replay, own

    def on_replay(self, player: Player, req: ReplayRequest) -> ReplayReply:
        rid, tid = req["record"], req["table"]
        if (rid is None) == (tid is None):
            raise ProtocolError("bad_field", Msg("replay: give a record or a table"))
        seat = req["seat"]
        if tid is not None:                   # then rid is None: the table's round
            ht = self.tables.find(tid)
            if ht.status == "playing":
                replay, seat = self.live(player, ht, seat)
                return {"type": "replay", **ANSWER,
                        **self.shown(replay, None, ht.id, req["step"], seat, live=True)}
            rid = self.last.get(ht.id)
        if rid is None:
            raise ProtocolError("no_record", Msg("no round of this table has a record here"))
        record = self.find(player, rid)
        replay = self.replay_of(rid, record)
        return {"type": "replay", **ANSWER,
                **self.shown(replay, rid, record.table, req["step"], seat)}

    def shown(self, replay: Replay, rid: str | None, table_id: str, step: int,
              seat: int | None, live: bool = False) -> ReplayStep:
        """The fields of a ``replay`` (or ``replay_shared``) message: the view of ``seat``
        after ``step`` steps, with the events of that step as the seat saw them."""
        if seat is not None and not 0 <= seat < replay.record.players:
            raise ProtocolError("no_seat", Msg("there is no seat {seat}", seat=seat))
        step = max(0, min(step, replay.steps))
        try:
            before = len(replay.table_at(step - 1).events) if step else 0
            table = replay.table_at(step)
            view = table.view(seat)
            events: list[WireEvent] = []
            for e in table.events[before:]:
                redacted = redact_event(e, seat)
                try:
                    text = describe(redacted, table.names, table.hook)
                except Exception:
                    text = describe(redacted, table.names)
                said: WireEvent = {"type": redacted["type"], "text": str(text)}
                if isinstance(text, Msg):
                    said["msg"] = text.to_wire()
                events.append({**redacted, **said})     # the game's keys, then its words
        except RecordError as exc:
            raise ProtocolError("no_replay", exc.args[0]) from None
        rec = replay.record
        mover = rec.steps[step - 1].seat if step else None
        at = rec.steps[step - 1].at if step else 0.0
        return {"record": rid, "table": table_id, "step": step, "steps": replay.steps,
                "seat": seat, "live": live, "mover": mover, "at": at, "view": view,
                "events": events}

    # --- the shared replay -------------------------------------------------------------------

    def on_replay_lead(self, player: Player, req: ReplayLeadRequest) -> ReplayLeadReply:
        ht = self.tables.find(req["table"])
        if ht.seat_of(player) is None and player.id not in ht.spectators:
            raise ProtocolError("not_seated", Msg("sit or watch first"))
        if ht.status == "playing":
            raise ProtocolError("not_over", Msg("a shared replay is for after a round: this "
                                                "one is still in play"))
        shared = ht.shared
        rid = req["record"] or (shared.record if isinstance(shared, Shared) else None) \
            or self.last.get(ht.id)
        if rid is None:
            raise ProtocolError("no_record", Msg("no round of this table has a record here"))
        record = self.find(player, rid)
        if record.table != ht.id:
            raise ProtocolError("no_record", Msg("that record is of another table"))
        ht.shared = Shared(rid, player.id, player.name, req["step"], req["seat"])
        self.push_shared(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "replay_lead", "record": rid}

    def push_shared(self, ht: HostTable) -> None:
        shared = ht.shared
        if not isinstance(shared, Shared):
            return
        record = self.find_quiet(shared.record)
        if record is None:
            return
        replay = self.replay_of(shared.record, record)
        frame: ReplaySharedPush = {
            "type": "replay_shared", "v": PROTOCOL,
            **self.shown(replay, shared.record, ht.id, shared.step, shared.seat),
            "leader": shared.leader, "leader_name": shared.leader_name}
        shared.step = frame["step"]
        self.outbox.send_all(self.views.recipients(ht), frame)

    def find_quiet(self, rid: str) -> GameRecord | None:
        got = self.shelf.get(rid)
        if got is None:
            return None
        try:
            return unpack_record(rid, got[1])
        except Exception:
            return None

    def on_replay_end(self, player: Player, req: ReplayEndRequest) -> ReplayEndReply:
        ht = self.tables.find(req["table"])
        shared = ht.shared
        if not isinstance(shared, Shared):
            raise ProtocolError("no_record", Msg("no shared replay at this table"))
        if shared.leader != player.id:
            raise ProtocolError("not_leader", Msg("{name} leads the replay: take the lead "
                                                  "first", name=shared.leader_name))
        ht.shared = None
        ended: ReplayEndedPush = {"type": "replay_ended", "v": PROTOCOL, "table": ht.id,
                                  "record": shared.record, "by": player.name}
        self.outbox.send_all(self.views.recipients(ht), ended)
        return {"type": "ok", "v": PROTOCOL, "about": "replay_end"}
