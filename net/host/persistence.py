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

Must not know about: sockets, the protocol, how requests are handled; it returns records and
the caller decides what they mean.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

import msgpack

from cardparty.core.contract import Move
from cardparty.core.discovery import Catalog
from cardparty.core.table import Table
from cardparty.net.host.clock import Clock, SystemClock
from cardparty.net.host.model import HostTable, Player, Seat
from cardparty.net.store import Store

log = logging.getLogger("cardparty.host")

#: Moves a table's tail may hold before its whole row is written again (and the tail
#: dropped): what a restart replays at most per table.
MAX_TAIL = 64


class Persistence:
    """A host's store, or nothing (``data`` None).

    ``batching``: the server holds every frame of one turn of its loop until ``flush`` has
    written the tables changed in that turn, each once, in one transaction; nothing anybody
    was told is ever newer than the store. Without it (the parts driven directly), each
    change is written at once."""

    def __init__(self, data: str | os.PathLike[str] | None, catalog: Catalog,
                 clock: Clock | None = None) -> None:
        self.store = Store(data) if data is not None else None
        self.catalog = catalog
        #: the host's clock: the wall time of a table's last change is what a restart reads
        self.clock: Clock = clock or SystemClock()
        self.batching = False
        self.pending: dict[str, tuple[HostTable, Mapping[str, Player]]] = {}
        self._packer = msgpack.Packer(use_bin_type=True)
        #: while ``flush`` writes: the new moves of every table, for one statement
        self._moves: list[tuple[str, int, bytes]] | None = None
        #: ids of the tables set aside at start (damaged rows)
        self.aside: list[str] = []

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    # --- writing -----------------------------------------------------------------------------

    def save_table(self, ht: HostTable, by_id: Mapping[str, Player]) -> None:
        """Write ``ht``'s row (when batching: at the next ``flush``). The game's ``save``
        hook may raise: the caller decides."""
        if self.store is None:
            return
        if self.batching:
            self.pending[ht.id] = (ht, by_id)
            return
        self._write(ht, by_id)

    def flush(self, failed: Callable[[HostTable, BaseException], None]) -> int:
        """Write every table changed since the last flush, in one transaction; a table whose
        game cannot be saved is given to ``failed`` and the others are written. The store's
        ticket for the writes (0: written already, or nothing to write)."""
        if not self.pending or self.store is None:
            return 0
        pending, self.pending = self.pending, {}
        broken = []
        with self.store.batch() as ticket:
            self._moves = moves = []
            try:
                for ht, by_id in pending.values():
                    try:
                        self._write(ht, by_id)
                    except Exception as exc:
                        broken.append((ht, exc))
            finally:
                self._moves = None
            if moves:              # every table's new moves in one statement
                self.store.add_moves(moves)
        for ht, exc in broken:
            failed(ht, exc)
        return ticket[0]

    def _write(self, ht: HostTable, by_id: Mapping[str, Player]) -> None:
        """A playing table whose record is unchanged and which only moved since its row was
        written gets its new moves appended (a few bytes each); anything else, or a tail of
        ``MAX_TAIL`` moves, writes the whole row again and drops the tail."""
        assert self.store is not None
        meta = self._meta(ht, by_id)
        table = ht.table
        kept = ht.kept
        clock = self.clock
        changed = round(clock.wall() - (clock.now() - ht.changed_at), 3)
        if (kept is not None and kept[0] is table and ht.status == "playing"
                and ht.meta_packed is not None and ht.meta_packed[0] == meta):
            _, version, journal = kept
            fresh = len(table.journal) - journal
            if 0 <= fresh == table.version - version and (
                    table.version - ht.kept_base <= MAX_TAIL):
                if fresh:
                    pack = self._packer.pack
                    rows = [(ht.id, version + i + 1, pack([s, m.kind, list(m.cards), m.choice,
                                                           changed]))
                            for i, (s, m) in enumerate(table.journal[journal:])]
                    if self._moves is not None:
                        self._moves.extend(rows)
                    else:
                        self.store.add_moves(rows)
                    ht.kept = (table, table.version, len(table.journal))
                return
        save = table.save()
        # The record rarely changes during a game (the tail's test above compares it); the
        # row also says when the table last changed, packed with it here only.
        ht.meta_packed = (meta, self._packer.pack({**meta, "changed": changed}))
        self.store.put_table(ht.id, ht.seq, ht.meta_packed[1], save)
        self.store.drop_moves(ht.id)
        ht.kept = (table, table.version, len(table.journal))
        ht.kept_base = table.version

    @staticmethod
    def _meta(ht: HostTable, by_id: Mapping[str, Player]) -> dict[str, Any]:
        return {"title": ht.title, "idle": ht.idle, "bot_delay": ht.bot_delay,
                "bots": [ht.bot_budget_ms, ht.standin_level],
                "status": ht.status, "failure": ht.failure, "mode": ht.mode,
                "strangers": ht.strangers,
                "creator": [ht.creator_token, ht.creator_name],
                "invited": [[name, by] for name, by in ht.invited.items()],
                "seats": [{"kind": s.kind, "token": None if s.player is None else s.player.token,
                           "name": s.name, "ready": s.ready, "level": s.level,
                           "standin": s.standin}
                          for s in ht.seats],
                "spectators": [by_id[pid].token for pid in ht.spectators if pid in by_id],
                "round": ht.round, "rounds": list(ht.rounds), "wins": list(ht.wins),
                "scores": ht.scores,
                "economy": [ht.stake, ht.key, ht.seeking, ht.bots_filled, list(ht.owners)]}

    def drop_table(self, ht: HostTable) -> None:
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

    def _replay(self, tid: str, table: Table) -> float | None:
        """The moves played since the table's row was written, played again (the game is
        deterministic from its saved state and generator); the wall time of the table's
        last change the last of them carries (None: none does)."""
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

    def tables(self, by_token: Mapping[str, Player], now: float) -> list[HostTable]:
        """Every kept table, rebuilt, oldest first; its seated players and spectators are
        told (``player.tables``). A table whose row cannot be rebuilt is set aside in the
        store (``Store.set_aside``) and named in the log; the others play on."""
        if self.store is None:
            return []
        out = []
        for tid, tseq, packed, save in self.store.tables():
            try:
                out.append(self._rebuild(tid, tseq, packed, save, by_token, now))
            except Exception as exc:     # any damage: this table only
                why = f"{type(exc).__name__}: {exc}"
                log.error("table %s could not be restored and was set aside (%s); the "
                          "other tables go on", tid, why)
                self.aside.append(tid)
                self.store.set_aside(tid, why)
        return out

    def _rebuild(self, tid: str, tseq: int, packed: bytes, save: bytes,
                 by_token: Mapping[str, Player], now: float) -> HostTable:
        """One table from its row (any exception: the row is damaged)."""
        assert self.store is not None
        meta = msgpack.unpackb(packed, raw=False, strict_map_key=False)
        table = Table.restore(save, self.catalog)
        changed = self._replay(tid, table) or meta.get("changed")
        staged: list[tuple[Player, str]] = []
        seats = []
        for s in meta["seats"]:
            player = by_token.get(s["token"]) if s["token"] else None
            seats.append(Seat(s["kind"], player, s["name"], s["ready"],
                              bool(s.get("standin", False)), s["level"]))
            if player is not None:
                staged.append((player, tid))
        ht = HostTable(id=tid, seq=tseq, title=meta["title"], table=table,
                       idle=meta["idle"], bot_delay=meta["bot_delay"], seats=seats,
                       status=meta["status"], changed_at=now, failure=meta["failure"])
        # Rows written before the table's bot settings have the defaults.
        if "bots" in meta:
            ht.bot_budget_ms, ht.standin_level = meta["bots"]
        # Rows written before tables had modes (or matches) are open single rounds.
        ht.mode = meta.get("mode", "open")
        ht.creator_token, ht.creator_name = meta.get("creator", ("", ""))
        ht.strangers = meta.get("strangers", True)
        ht.invited = {name: by for name, by in meta.get("invited", ())}
        ht.round = meta.get("round", 1)
        ht.rounds = list(meta.get("rounds", ()))
        ht.wins = list(meta.get("wins", ()))
        ht.scores = meta.get("scores")
        if "economy" in meta:
            (ht.stake, ht.key, ht.seeking, ht.bots_filled,
             owners) = meta["economy"]
            ht.owners = list(owners)
        for token in meta.get("spectators", ()):
            if token in by_token:
                ht.spectators.add(by_token[token].id)
                staged.append((by_token[token], tid))
        if ht.status in ("over", "broken"):
            ht.ended_at = now
        if ht.status == "playing" and isinstance(changed, float | int):
            # As long ago as it was on the wall clock (never in the future: a clock set
            # back); an open table's players count their time from the restart.
            ht.changed_at = now - max(0.0, self.clock.wall() - changed)
        # Only a table rebuilt whole is told to its people.
        for player, held in staged:
            player.tables.add(held)
        if ht.creator_token in by_token:      # his rights outlive the restart
            by_token[ht.creator_token].owns.add(tid)
        return ht
