"""Invitations to a friends table (MO-4), and their bounds.

Owns: the request ``invite`` (a player seated at a friends table, or its creator, invites
others by username), the names kept with the table, telling each invited player once while
the invitation is pending, and the caps: ``MAX_INVITED`` names a table,
``MAX_PENDING_INVITATIONS`` pending invitations made by the names of one key, and names
invited from one source address (``config.Guests.invitations``, a token bucket: new keys do
not refill it).

Must not know about: sockets (it sends through the outbox), seating rules (the lobby's),
how a pending invitation is told again after a hello (``Lobby.back``), the store's format.
"""

from __future__ import annotations

import logging

from cardparty.core.i18n import N_, Msg
from cardparty.net.host.lobby import Lobby
from cardparty.net.host.model import MAX_INVITED, MAX_PENDING_INVITATIONS, Player, Players
from cardparty.net.host.owners import Owners
from cardparty.net.names.safetext import safe
from cardparty.net.trust.allowance import for_addresses
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.replies import InviteReply
from cardparty.net.wire.requests import InviteRequest

log = logging.getLogger("cardparty.host")


class Invitations:
    def __init__(self, lobby: Lobby, players: Players, owners: Owners) -> None:
        self.lobby = lobby
        self.tables = lobby.tables
        self.players = players
        self.owners = owners
        self.outbox = lobby.outbox
        self.views = lobby.views
        self.invitations = lobby.invitations
        self.per_address = lobby.config.guests.invitations
        self.by_address = for_addresses(self.per_address)

    def on_invite(self, player: Player, req: InviteRequest) -> InviteReply:
        """MO-4: a player seated at a friends table (or its creator) invites others by
        username. The names are kept with the table; every connected player of that name is
        told now, and again on his next hello while the invitation is pending."""
        ht = self.tables.find(req["table"])
        access = ht.access
        if player.token != access.creator_token:
            ht.seated(player, N_("only a player seated at this table or its creator may "
                                 "invite"))
        if access.mode != "friends" and access.strangers:
            raise ProtocolError("not_friends", Msg("this table is open: anyone may sit, no "
                                               "invitation is needed"))
        self.lobby.taking_seats(ht)
        wanted = {n.strip().casefold() for n in req["names"]} - {""}
        if not wanted:
            raise ProtocolError("bad_field", Msg("invite: field names holds no name"))
        fresh: dict[str, str] = {}
        # Each name as its player spells it (``petr`` typed is Petr): the table's list, the
        # lobby and the answer show the players' names, not what the inviter typed.
        spelt = list(dict.fromkeys(self.owners.spelling(n.strip()) for n in req["names"]
                                   if n.strip()))
        for name in spelt:
            if access.inviter_of(name) is None and name.casefold() not in (
                    n.casefold() for n in fresh):
                fresh[name] = player.name
        if len(access.invited) + len(fresh) > MAX_INVITED:
            raise ProtocolError("bad_field", Msg("invite: a table invites at most {n} players "
                                                 "({so_far} so far)", n=MAX_INVITED,
                                                 so_far=len(access.invited)))
        pending = self.pending(player) if fresh else 0
        if pending + len(fresh) > MAX_PENDING_INVITATIONS:
            raise ProtocolError("too_many", Msg("you have {pending} invitations pending, and one "
                                                "key may have {n}: wait for them to sit, or "
                                                "close a table", pending=pending,
                                                n=MAX_PENDING_INVITATIONS))
        if fresh and player.address is not None and not self.by_address.spend(
                player.address, self.lobby.clock.now(), len(fresh)):
            burst, rate = self.per_address
            raise ProtocolError("too_many", Msg(
                "your address invited as many players as one machine may for now ({n} at "
                "once, then one every {s:g} seconds): wait a little", n=int(burst),
                s=1 / rate))
        access.invited.update(fresh)
        for name in fresh:
            self.invitations.setdefault(name.casefold(), set()).add(ht.id)
        told = {n.casefold() for n in fresh}      # a pending invitation is not sent again
        if told:
            self.outbox.send_all([p for p in self.players.by_token.values()
                                  if p is not player and p.connected
                                  and p.name.casefold() in told and ht.seat_of(p) is None],
                                 self.views.invitation(ht, player.name))
        log.info("%s invites %s to table %s", safe(player.name),
                 safe(", ".join(sorted(wanted))), ht.id)
        self.lobby.changed(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "invite", "names": spelt}

    def pending(self, player: Player) -> int:
        """Invitations made by any name of ``player``'s key to open tables, their names not
        seated there yet (what ``MAX_PENDING_INVITATIONS`` bounds)."""
        owner = self.owners.owner
        key = owner(player.name)
        ours: dict[str, bool] = {}          # inviter's name -> owned by this key
        count = 0
        for ht in self.tables.all.values():
            if ht.status != "open" or not ht.access.invited:
                continue
            seated = {s.name.casefold() for s in ht.seats if s.kind == "human"}
            for name, by in ht.access.invited.items():
                if by not in ours:
                    ours[by] = owner(by) == key
                count += ours[by] and name.casefold() not in seated
        return count
