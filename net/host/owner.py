"""What the creator of a table (its owner) may do that nobody else may, before the start.

Owns: the requests ``remove`` (a seated player or a host bot leaves his seat), ``close`` (the
table goes, its people are told) and ``strangers`` (whether players neither invited nor the
creator may sit; the default, ``true``, is the open table everybody knows). The owner is
known by his identity (the key CURVE authenticated, with his name), so he keeps these
rights after a reconnect or a host restart, seated or not.

Must not know about: sockets, the store's format, how a game is played; seating rules
themselves stay in the lobby (``Lobby.changed`` tells and keeps a table after a change).
"""

from __future__ import annotations

import logging

from cardparty.core.i18n import N_, Msg
from cardparty.net.host.economy import Economy
from cardparty.net.host.lobby import Lobby
from cardparty.net.host.model import HostSeat, HostTable, Player
from cardparty.net.names.safetext import safe
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.replies import CloseReply, OkReply, TablePush
from cardparty.net.wire.requests import CloseRequest, RemoveRequest, StrangersRequest

log = logging.getLogger("cardparty.host")

#: The refusal to anyone but the owner, one whole sentence per request (for the catalogs).
NOT_YOURS = {"remove": N_("only {name}, who created this table, may remove a player"),
             "close": N_("only {name}, who created this table, may close it"),
             "strangers": N_("only {name}, who created this table, may choose who sits")}


class Owner:
    def __init__(self, lobby: Lobby, economy: Economy) -> None:
        self.lobby = lobby
        self.economy = economy
        self.tables = lobby.tables
        self.outbox = lobby.outbox
        self.views = lobby.views

    def _owned(self, player: Player, req: RemoveRequest | CloseRequest | StrangersRequest,
               what: str) -> HostTable:
        ht = self.tables.find(req["table"])
        if player.token != ht.access.creator_token:
            raise ProtocolError("not_creator", Msg(NOT_YOURS[what],
                                                   name=ht.access.creator_name))
        self.lobby.taking_seats(ht)
        if ht.access.event:
            raise ProtocolError("event_state", Msg("this table plays a round of an event: the "
                                                   "event seats it"))
        return ht

    def on_remove(self, player: Player, req: RemoveRequest) -> OkReply:
        """The owner frees a seat (a player or a bot) before the start; the player removed
        is told with the table's summary, and every human's readiness is reset."""
        ht = self._owned(player, req, "remove")
        seat = req["seat"]
        if not 0 <= seat < len(ht.seats) or ht.seats[seat].kind == "empty":
            raise ProtocolError("no_seat", Msg("nobody sits at seat {seat}", seat=seat))
        gone = ht.seats[seat].player
        ht.seats[seat] = HostSeat()
        for s in ht.seats:
            s.ready = False if s.kind == "human" else s.ready
        if gone is not None:
            self.economy.refund_stake(ht, gone)     # an entry table's stake back
            gone.tables.discard(ht.id)
            self.views.forget(ht, gone)
            self.outbox.send(gone, self.views.summary_message(ht))
        log.info("%s removed seat %d of table %s", safe(player.name), seat, ht.id)
        self.lobby.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "remove"}

    def on_close(self, player: Player, req: CloseRequest) -> CloseReply:
        """The owner closes his table before the start: it goes, and its people get its
        summary with ``status: "closed"`` (the last they hear of it)."""
        ht = self._owned(player, req, "close")
        people = self.views.recipients(ht)
        self.economy.refund_table(ht)                # every stake back
        self.lobby.drop(ht)
        summary = self.views.summary(ht)
        summary["status"] = "closed"
        closed: TablePush = {"type": "table", "v": PROTOCOL, "table": summary}
        self.outbox.send_all([p for p in people if p is not player], closed)
        log.info("%s closed table %s", safe(player.name), ht.id)
        return {"type": "table", "v": PROTOCOL, "table": summary}

    def on_strangers(self, player: Player, req: StrangersRequest) -> OkReply:
        """Whether strangers may sit (the owner and those invited always may); those
        already seated stay."""
        ht = self._owned(player, req, "strangers")
        ht.access.strangers = req["allow"]
        self.lobby.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "strangers"}
