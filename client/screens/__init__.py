"""Every screen of the terminal client, registered in one line each (``client/screen.py``
says what a screen is): the controller makes one of each, and the key bindings, the help,
the layout, the line mode and docs/playing.md's key tables read them from here.

The order is the order their keys merge (where two screens' declarations take one key on
one screen, the later wins while its filter holds, as in prompt-toolkit) and the order each
message's handlers run after the controller's own.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from cardparty.client.screen import Screen
from cardparty.client.screens import (
    events,
    history,
    league,
    lobby,
    profile,
    replay,
    room,
    shop,
    start,
    table,
)

SCREENS: tuple[type[Screen], ...] = (
    start.StartScreen,
    lobby.LobbyScreen,
    room.RoomScreen,
    table.TableScreen,
    profile.ProfileScreen,
    league.LeagueScreen,
    events.EventsScreen,
    shop.ShopScreen,
    replay.ReplayScreen,
    history.HistoryScreen,
)
