"""Talk in the lobby: a ``chat`` without a table goes to everybody in the lobby.

Owns: the ``chat`` request's dispatch (with a ``table``: the table's own chat, ``Lobby``'s;
without one: the lobby), who is in the lobby (every connected player who has no seat at a
game in play: a game is not interrupted by the lobby's talk; the speaker always hears
himself), and the bounds of lobby talk: a line of at most ``LOBBY_CHAT_MAX`` characters,
checked like every chat line by the protocol (printable, one line, no bidirectional
overrides), and at most ``BURST`` lines at once then one every ``EVERY`` seconds per key
ZeroMQ authenticated (``model.quota_key``: new names or connections of one key share it; a
token bucket, ``allowance.Allowances``), and a few more per source address
(``config.Guests.chat_lines``: new keys do not refill it), as one line reaches up to every
player of the host.

Must not know about: sockets, frames, the store (lobby talk is not kept), any game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardparty.core.i18n import Msg
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import Player, Players, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.names.safetext import LOBBY_CHAT_MAX
from cardparty.net.trust.allowance import Allowances, for_addresses
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.replies import ChatPush, OkReply
from cardparty.net.wire.requests import ChatRequest

#: Lines one key may say to the lobby at once, then one every ``EVERY`` seconds.
BURST = 5
EVERY = 2.0
#: Keys whose allowance is remembered at most (the least recently heard go first).
MAX_SPEAKERS = 4096

Handler = Callable[[Player, ChatRequest], OkReply]


class LobbyChat:
    """See the module docstring."""

    def __init__(self, tables: Tables, players: Players, outbox: Outbox, clock: Clock,
                 table_chat: Handler, per_address: tuple[float, float] = (10.0, 1.0)) -> None:
        self.tables = tables
        self.players = players
        self.outbox = outbox
        self.clock = clock
        self.table_chat = table_chat
        #: lines each quota key may still say
        self.allowances: Allowances[Any] = Allowances(1 / EVERY, BURST, MAX_SPEAKERS)
        #: lines each source address may still say (``Player.address``: when counted)
        self.per_address = per_address
        self.by_address = for_addresses(per_address)

    def on_chat(self, player: Player, req: ChatRequest) -> OkReply:
        if req["table"] is not None:
            return self.table_chat(player, req)
        text = req["text"]
        if len(text) > LOBBY_CHAT_MAX:
            raise ProtocolError("bad_field", Msg("chat: field text must be at most {n} "
                                                 "characters in the lobby", n=LOBBY_CHAT_MAX))
        now = self.clock.now()
        if not self.allowances.spend(player.quota_key, now):
            raise ProtocolError("too_fast", Msg("the lobby hears at most {n} lines at once and "
                                                "one every {seconds} seconds from one player: "
                                                "wait a moment", n=BURST,
                                                seconds=format(EVERY, "g")))
        if player.address is not None and not self.by_address.spend(player.address, now):
            burst, rate = self.per_address
            raise ProtocolError("too_fast", Msg("the lobby hears at most {n} lines at once and "
                                                "{rate} a second from one machine: wait a "
                                                "moment", n=format(burst, "g"),
                                                rate=format(rate, "g")))
        said: ChatPush = {"type": "chat", "v": PROTOCOL, "table": None, "seat": None,
                          "player": player.id, "name": player.name, "text": text,
                          "time": self.clock.wall()}
        self.outbox.send_all(self.listeners(player), said)
        return {"type": "ok", "v": PROTOCOL, "about": "chat"}

    def listeners(self, speaker: Player) -> list[Player]:
        """Everybody in the lobby (see the module docstring), the speaker first."""
        out = [speaker]
        for p in self.players.by_id.values():
            if p is not speaker and p.connected and not self._playing(p):
                out.append(p)
        return out

    def _playing(self, player: Player) -> bool:
        for tid in player.tables:
            ht = self.tables.all.get(tid)
            if ht is not None and ht.status == "playing" and ht.seat_of(player) is not None:
                return True
        return False
