"""How the host's parts send: to one player, or one frame to many.

Owns: ``Outbox``, the interface every handler sends through (``send`` a message to a player,
``send_frame`` an encoded frame, ``send_all`` one message to many players, encoded once;
``seal``, said by the host after the writes of what was sent so far are handed to the store),
and ``MemoryOutbox``, an outbox that keeps what it is given, decoded as a client would, so
that the lobby and play rules are tested without sockets. A host with a socket gives the
parts its ``gate.CommitGate``: frames held until what they tell of is durable, then written
to the players' routes by the server.

A player without a route (not connected) is sent nothing: ``False``, as for a full queue; he
asks for a snapshot when he is back.

Must not know about: tables, games, the socket's options.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from cardparty.net.host.model import Player
from cardparty.net.wire.play_replies import HostMessage
from cardparty.net.wire.protocol import HOST_LIMITS, Outgoing, decode, encode


class Outbox:
    """Sends to players; a subclass says how a frame reaches a player (``deliver``)."""

    def deliver(self, player: Player, frame: bytes) -> bool:
        raise NotImplementedError

    def seal(self) -> None:
        """Every write of what was sent so far has been handed to the store: what was sent
        may go once those writes are durable. An outbox that sends at once has sent it."""

    def send_frame(self, player: Player, frame: bytes) -> bool:
        if player.route is None:
            return False
        return self.deliver(player, frame)

    def send(self, player: Player, msg: Outgoing) -> bool:
        if player.route is None:
            return False
        return self.deliver(player, encode(msg))

    def send_all(self, players: Iterable[Player], msg: Outgoing) -> None:
        """One message to many players, encoded once."""
        frame: bytes | None = None
        for p in players:
            if p.route is not None:
                if frame is None:
                    frame = encode(msg)
                self.deliver(p, frame)


class MemoryOutbox(Outbox):
    """Keeps every message sent, by player id, decoded with a client's limits (tests)."""

    def __init__(self) -> None:
        self.sent: dict[str, list[HostMessage]] = {}
        #: players whose queue is "full": sends to them fail, as on a real socket
        self.full: set[str] = set()

    def deliver(self, player: Player, frame: bytes) -> bool:
        if player.id in self.full:
            return False
        # decode checked that it is a map with a type: a message, of that type's shape
        self.sent.setdefault(player.id, []).append(cast(HostMessage, decode(frame,
                                                                            HOST_LIMITS)))
        return True

    def take(self, player: Player, kind: str | None = None) -> list[HostMessage]:
        """The messages sent to ``player`` since the last take (of ``kind`` only, if given;
        the others are dropped too)."""
        got = self.sent.pop(player.id, [])
        return [m for m in got if kind is None or m["type"] == kind]
