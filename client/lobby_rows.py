"""What the client knows of the lobby's rows: the table chosen, whether this player sits at a
row (by his name, as the lobby lists it) or is invited there, and where an invitation goes.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.core.i18n import _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller


def selected_table(c: Controller) -> dict[str, Any] | None:
    if 0 <= c.lobby_cursor < len(c.tables):
        return c.tables[c.lobby_cursor]
    return None


def chosen(c: Controller) -> dict[str, Any] | None:
    """The table chosen; with none, the line that says how to make one."""
    t = selected_table(c)
    if t is None:
        c.error = _("no table chosen: press c to create one")
    return t


def sits_at(c: Controller, t: dict[str, Any]) -> bool:
    """This player (by name, as the lobby knows him) has a seat at lobby row ``t``."""
    me = c.name.casefold()
    seats = (t.get("summary") or {}).get("seats") or ()
    return bool(me) and any(isinstance(s, dict) and s.get("kind") == "human"
                            and str(s.get("name", "")).casefold() == me for s in seats)


def invites_me(c: Controller, t: dict[str, Any]) -> bool:
    """Lobby row ``t`` is a table taking seats that invited this player, who has no seat
    there yet: the lobby marks it."""
    me = c.name.casefold()
    return (bool(me) and t.get("status") == "open" and not sits_at(c, t)
            and any(str(n).casefold() == me for n in t.get("invited") or ()))


def invite_target(c: Controller, t: dict[str, Any]) -> dict[str, Any]:
    """Where ``i`` invites to: the chosen table if it is a friends table this player sits
    at or created, else such a table that still takes seats, else the chosen one (the
    host then says why not)."""
    def mine(x: dict[str, Any]) -> bool:
        return sits_at(c, x) or bool(x.get("creator")) and x.get("creator") == c.name

    if t.get("mode") == "friends" and mine(t):
        return t
    ours = [x for x in c.tables
            if x.get("mode") == "friends" and x.get("status") == "open" and mine(x)]
    return ours[0] if ours else t
