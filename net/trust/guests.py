"""What one source address may take of a host, whatever keys it makes: the numbers every
limit per guest reads (docs/operating.md, "Limits per address"), named once.

The host's parts (the roster, the lobby, the server) count against them, the door of the game
socket (``fdbudget.Door``) lets connections in by them, and a standby that becomes a host lets
in the same: so they stand here, below the host and the peers, not in the host's config (which
holds them as ``HostConfig.guests``).

Must not know about: sockets, players, what is being counted.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The host's own machine: guests on the LAN never come from it (``Guests.own``).
OWN_ADDRESSES = ("127.0.0.1", "::1", "::ffff:127.0.0.1")


@dataclass(frozen=True)
class Guests:
    """What one source address may take of a host, whatever keys it makes (issue 25): a key
    pair costs a millisecond, an address on a LAN is a machine. A laptop may be a family's
    (several players, each with a name or two, a bot client beside them), so every number is
    a few times what such a machine needs, and far below what fills the host
    (docs/operating.md has the table). Rates are a burst, then so many a second.

    ``own``: addresses not counted (the host's own machine: its operator's, and the bots and
    local games run beside the host); the per-key limits still hold there.
    ``reserve``: the share of each capacity (players, tables, names, connections) kept for
    keys the host already knows (a name that played here, a seat), so strangers never lock
    them out."""

    requests: tuple[float, float] = (4000.0, 2000.0)
    new_keys: tuple[float, float] = (16.0, 4 / 60)
    new_names: tuple[float, float] = (32.0, 8 / 60)
    chat_lines: tuple[float, float] = (10.0, 1.0)
    invitations: tuple[float, float] = (64.0, 0.5)
    open_tables: int = 16
    watching: int = 32
    connections: int = 32
    new_connections: tuple[float, float] = (32.0, 4.0)
    #: seconds a connection may stay without a hello before it is closed
    hello_within: float = 10.0
    #: seconds after which a name whose key never played and was not seen is free again
    name_release: float = 3600.0
    reserve: float = 1 / 8
    own: tuple[str, ...] = OWN_ADDRESSES

    def counted(self, address: str | None) -> bool:
        """Whether ``address`` is a guest's (counted), not the host's own or unknown."""
        return address is not None and address not in self.own

    def room(self, capacity: int) -> int:
        """What of ``capacity`` strangers may fill: the rest is for known keys."""
        return max(1, capacity - max(1, int(capacity * self.reserve)))
