"""What the client knows of the lobby's rows: the table chosen, whether this player sits at a
row (by his name, as the lobby lists it) or is invited there, and where an invitation goes.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.link import LobbyRow
    from cardparty.net.wire.replies import GameWire, SeatSummary, TableSummary


def seats_of(t: LobbyRow) -> list[SeatSummary]:
    """The seats of a lobby row's summary (none while a row has no summary)."""
    summary = t.get("summary")
    return list(summary.get("seats") or ()) if summary is not None else []


def game_of(c: Controller, game: Any) -> GameWire | None:
    """What the host says of ``game`` (its id), or None when it lists no such game."""
    return next((g for g in c.games if g.get("id") == game), None)


def sits_at(c: Controller, t: LobbyRow) -> bool:
    """This player (by name, as the lobby knows him) has a seat at lobby row ``t``."""
    me = c.name.casefold()
    seats = seats_of(t)
    return bool(me) and any(isinstance(s, dict) and s.get("kind") == "human"
                            and str(s.get("name", "")).casefold() == me for s in seats)


def invites_me(c: Controller, t: LobbyRow) -> bool:
    """Lobby row ``t`` is a table taking seats that invited this player, who has no seat
    there yet: the lobby marks it."""
    me = c.name.casefold()
    return (bool(me) and t.get("status") == "open" and not sits_at(c, t)
            and any(str(n).casefold() == me for n in t.get("invited") or ()))


def row_of(c: Controller, table: Any) -> LobbyRow | None:
    """The lobby's row of ``table`` (its id; None: not listed)."""
    return next((t for t in c.tables if t.get("id") == table), None)


def summary_of(c: Controller, table: Any) -> TableSummary | None:
    """The host's newest summary of ``table`` (None before the lobby lists it)."""
    row = row_of(c, table)
    return row["summary"] if row is not None else None


def invite_target(c: Controller, t: LobbyRow) -> LobbyRow:
    """Where ``i`` invites to: the chosen table if it is a friends table this player sits
    at or created, else such a table that still takes seats, else the chosen one (the
    host then says why not)."""
    def mine(x: LobbyRow) -> bool:
        return sits_at(c, x) or bool(x.get("creator")) and x.get("creator") == c.name

    if t.get("mode") == "friends" and mine(t):
        return t
    ours = [x for x in c.tables
            if x.get("mode") == "friends" and x.get("status") == "open" and mine(x)]
    return ours[0] if ours else t


def created(c: Controller, t: LobbyRow | None) -> bool:
    """This player created lobby row ``t`` (the host's ``creator``, by name)."""
    creator = t["creator"] if t is not None else None
    return bool(creator) and bool(c.name) and str(creator).casefold() == c.name.casefold()


def may_add_bot(c: Controller, t: LobbyRow | None) -> bool:
    """Whether the host would seat a bot this player asks for at ``t`` (docs/protocol.md,
    MO-3 to MO-6): a table taking seats with a seat free; an entry table takes none; at a
    friends or practice table only its creator may; at an open one any player seated there
    (or its creator)."""
    if t is None or t.get("status") != "open" or None not in (t.get("seats") or ()):
        return False
    summary = t.get("summary")
    mode = (summary.get("mode") if summary is not None else None) or t.get("mode")
    if mode == "entry":
        return False
    if mode in ("friends", "practice"):
        return created(c, t)
    return created(c, t) or sits_at(c, t)
