"""Where the player stands at the table on screen: seated or watching, the round over or
going on, a bot standing in for him, the host gone. The table's keys take these as their
filters, and the renderer and the line mode read them (below the screens, which import
this).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardparty.client.controller import Controller


def round_over(c: Controller) -> bool:
    return c.table.over


def seated(c: Controller) -> bool:
    """This player has a seat (a spectator has no hand, no moves and no next round)."""
    return c.table.seat is not None


def seated_over(c: Controller) -> bool:
    return seated(c) and c.table.over


def seated_playing(c: Controller) -> bool:
    return seated(c) and not c.table.over


def spectating(c: Controller) -> bool:
    """This player watches the table: his bottom line lists its few keys (chat, the match)."""
    return c.table.seat is None


def plays_again(c: Controller) -> bool:
    """The round is over, this player has a seat, and the table plays another round (an
    entry table plays one: its summary's ``again`` is false, docs/protocol.md)."""
    summary = c.match_summary()
    return seated_over(c) and (summary is None or summary.get("again") is not False)


def stood_in(c: Controller) -> bool:
    """A bot plays this player's seat while he is here (his turn timed out: the host's idle
    stand-in), and the round goes on: Enter takes the seat back."""
    tm = c.table
    seat = tm.seat
    if seat is None or tm.over or not 0 <= seat < len(tm.players):
        return False
    return bool(tm.players[seat].get("standin")) and seat not in tm.absent()


#: The link's states in which the host does not answer (``link``): a move pressed then would
#: reach nobody now.
GONE = frozenset({"reconnecting", "disconnected", "refused"})


def host_gone(c: Controller) -> bool:
    """The host was reached and does not answer now (the banner says why)."""
    return c.connection in GONE
