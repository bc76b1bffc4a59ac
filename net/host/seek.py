"""Open play (MO-5, MO-6): players asking for a game at a player count are seated together in
order of asking; what happens when the fill timeout ends.

Owns: the requests ``seek`` (sit at the oldest table made by seeking for the same game,
player count and stake that has a free seat, or open one) and ``unseek`` (leave it again);
the fill timeout of tables that have one (``next_due``, ``tick``: the tables in order of
their timeouts, ``Tables.filling``, so the loop looks at those due alone): at a table made by
seeking, bots take the empty seats and the game starts (its league points are halved); an
entry table not full in time is cancelled and every stake refunded (``Economy.cancel``).
Seats taken by seeking are ready at once: the game starts as soon as the table is full.

Must not know about: sockets, how a seat is taken or a table opened (``Lobby``), the ledger
(``Economy``).
"""

from __future__ import annotations

import logging
from typing import Literal

from cardparty.core.economy import rewards as rw
from cardparty.core.i18n import Msg
from cardparty.net.host.clock import Clock
from cardparty.net.host.economy import Economy
from cardparty.net.host.lobby import Lobby
from cardparty.net.host.model import HostSeat, HostTable, Player, Tables
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.views import Views
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.replies import SeekReply, UnseekReply
from cardparty.net.wire.requests import SeekRequest, UnseekRequest

log = logging.getLogger("cardparty.host")


class Seeks:
    def __init__(self, tables: Tables, clock: Clock, lobby: Lobby, views: Views,
                 persistence: Persistence, economy: Economy) -> None:
        self.tables = tables
        self.clock = clock
        self.lobby = lobby
        self.views = views
        self.persistence = persistence
        self.economy = economy

    def waiting_for(self, player: Player) -> HostTable | None:
        """The table made by seeking where ``player`` waits, if any."""
        for tid in player.tables:
            ht = self.tables.all.get(tid)
            if ht is not None and ht.stakes.seeking and ht.status == "open" and (
                    ht.seat_of(player) is not None):
                return ht
        return None

    def on_seek(self, player: Player, req: SeekRequest) -> SeekReply:
        waiting = self.waiting_for(player)
        if waiting is not None:
            raise ProtocolError("seated", Msg("you already wait for {game} for {n} at {table}: "
                                              "cancel that first",
                                              game=str(waiting.engine.info.name),
                                              n=len(waiting.seats), table=waiting.id))
        game, players, stake = req["game"], req["players"], req["stake"]
        mode: Literal["entry", "open"] = "entry" if stake else "open"   # rw.ENTRY, rw.OPEN
        self.economy.check_create(mode, stake, player)
        found = next((ht for ht in sorted(self.tables.all.values(), key=lambda t: t.seq)
                      if ht.stakes.seeking and ht.status == "open" and ht.engine.game == game
                      and len(ht.seats) == players and ht.stakes.stake == stake
                      and any(s.kind == "empty" for s in ht.seats)), None)
        fresh = found is None
        if found is None:
            reply = self.lobby.on_create(player, {
                "type": "create", "rid": None, "game": game, "players": players,
                "settings": {}, "variants": [], "idle": -1.0, "bot_delay": -1.0, "title": "",
                "seed": None, "mode": mode, "stake": stake, "bot_budget_ms": -1,
                "standin_level": "normal", "strangers": True, "hints": False,
                "undo": False})
            found = self.tables.find(reply["table"]["id"])
            found.stakes.seeking = True
            self.tables.fill_by(found, self.clock.now() + self.economy.settings.fill_timeout)
        try:
            seated = self.lobby.on_sit(player, {"type": "sit", "rid": None, "table": found.id,
                                                "seat": None})
        except ProtocolError:
            if fresh:
                self.lobby.drop(found)
            raise
        log.info("%s seeks %s for %d%s: table %s", player.name, game, players,
                 f" (stake {stake})" if stake else "", found.id)
        return {"type": "seeking", "v": PROTOCOL, "table": found.id, "seat": seated["seat"],
                "game": game, "players": players, "stake": stake,
                "fill_in": self.views.fill_in(found)}

    def on_unseek(self, player: Player, req: UnseekRequest) -> UnseekReply:
        ht = self.waiting_for(player)
        if ht is None:
            raise ProtocolError("not_seated", Msg("you are not waiting for a game"))
        self.lobby.on_leave(player, {"type": "leave", "rid": None, "table": ht.id})
        if not any(s.kind == "human" for s in ht.seats):
            self.lobby.drop(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "unseek", "table": ht.id}

    # --- the fill timeout --------------------------------------------------------------------

    def next_due(self) -> float | None:
        return self.tables.filling.next_due()

    def tick(self, now: float) -> None:
        for ht in self.tables.filling.pop_due(now):
            fill_at = ht.stakes.fill_at
            if fill_at is None or ht.status != "open" or fill_at > now:
                continue                        # started, cancelled, or waiting longer
            self.filled(ht, now)

    def filled(self, ht: HostTable, now: float) -> None:
        """``ht``'s fill timeout ended at ``now``."""
        ht.stakes.fill_at = None
        if all(s.kind != "empty" for s in ht.seats):
            # Full: it starts when everyone is ready; should someone leave before, the
            # wait goes on (an entry table never holds stakes for ever).
            self.tables.fill_by(ht, now + self.economy.settings.fill_timeout)
            return
        if ht.access.mode == rw.ENTRY:             # MO-6: humans only; cancelled, refunded
            self.economy.cancel(ht)
            self.persistence.save_table(ht)
            self.views.push_summary(ht)
        elif not any(s.kind == "human" for s in ht.seats):
            self.lobby.drop(ht)
        elif ht.stakes.seeking:                    # MO-5: bots take the empty seats
            for i, s in enumerate(ht.seats):
                if s.kind == "empty":
                    ht.seats[i] = HostSeat("bot", None, f"Bot {i + 1}", True)
                ht.seats[i].ready = True
            log.info("table %s: bots fill the empty seats", ht.id)
            self.lobby.changed(ht)
