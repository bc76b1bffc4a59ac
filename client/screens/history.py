"""The history screen: the player's finished rounds at this host, newest first (the host's
``records``: when, the game, the table and its round, who sat where, his place), a page at a
time; Enter replays the one under the cursor from his own seat, ``v`` opens it with its
review asked for. The lobby's ``H``, the command ``history``.

It owns the list the host sent (``replay_model.History``).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardparty.client.command_line import LOBBY_SIDE, command
from cardparty.client.drawing import Fragments, cells
from cardparty.client.keymap import Keys
from cardparty.client.link import Message
from cardparty.client.replay_model import History
from cardparty.client.screen import Receiver, Screen, back_keys
from cardparty.client.screens.replay import open_replay
from cardparty.core.i18n import N_, _
from cardparty.net.wire.record_replies import RecordEntry

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.render import Renderer

HISTORY = Keys("history")
#: The lobby's key that opens this screen.
FROM_LOBBY = Keys("lobby")


class HistoryScreen(Screen):
    """See the module docstring."""

    name = "history"
    heading = N_("history")
    keys = (FROM_LOBBY, HISTORY, back_keys("history"))

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        self.history = History()

    def receivers(self) -> Mapping[str, Receiver]:
        return {"records": self._records}

    def _records(self, msg: Message) -> None:
        self.history.take(msg)

    def draw(self, r: Renderer) -> Fragments:
        """One line a round: when it ended, the game, the table and round, the players
        (the player's own seat marked) and his place; the cursor's line marked."""
        h = self.history
        out: Fragments = [("class:heading", " " + _("Your rounds at this host, newest "
                                                    "first") + "\n\n")]
        if not h.rows:
            out.append(("class:dim", " " + (_("asking the host...") if h.waiting else _(
                "no round of yours is kept here yet: a round you finish shows here")) + "\n"))
            return out
        width = max(40, r.width() - 4)
        for i, row in enumerate(h.rows):
            line = cells(row_text(row, r.game_name(str(row.get("game") or "?"))), width)
            out.append(("class:me" if i == h.cursor else "",
                        f" {'> ' if i == h.cursor else '  '}{line}\n"))
        if h.more:
            out.append(("class:dim", " " + _("older rounds: down past the last") + "\n"))
        return out


def row_text(row: RecordEntry, game: str) -> str:
    """A listed round in words: "02 Dec 12:41 · Pika · table t3, round 2 · Eva*, Bot 2 ·
    place 1"."""
    ended = row.get("ended")
    when = time.strftime("%d %b %H:%M", time.localtime(float(ended))) if isinstance(
        ended, int | float) else "?"
    seat = row.get("seat")
    names = [f"{n}*" if i == seat else str(n) for i, n in enumerate(row.get("names") or ())]
    places = row.get("places") or []
    place = places[seat] if isinstance(seat, int) and 0 <= seat < len(places) else None
    where = _("table {table}, round {n}").format(table=row.get("table") or "?",
                                                 n=row.get("round") or 1)
    parts = [when, game, where, ", ".join(names)]
    if place is not None:
        parts.append(_("place {n}").format(n=place))
    return " · ".join(parts)


def open_history(c: Controller) -> None:
    """The history screen, its first page asked for."""
    c.show(HistoryScreen.name)
    action, args = c.get(HistoryScreen).history.ask()
    c.request(action, **args)


@FROM_LOBBY.add("H", help=N_("your finished rounds: replay them, review your moves"))
def history_key(c: Controller, key: str) -> None:
    """your finished rounds at this host, newest first: Enter replays one, v reviews it"""
    open_history(c)


def listed(c: Controller) -> bool:
    return c.get(HistoryScreen).history.chosen() is not None


@HISTORY.add("up", "down", "k", "j", help=N_("choose a round"), when=listed)
def choose(c: Controller, key: str) -> None:
    """the round above or below (down past the last: the older rounds)"""
    asked = c.get(HistoryScreen).history.move(-1 if key in ("up", "k") else 1)
    if asked is not None:
        c.request(asked[0], **asked[1])


@HISTORY.add("enter", help=N_("replay the round from your seat"), footer=N_("Enter: replay"),
             when=listed)
def replay(c: Controller, key: str) -> None:
    """replay the round under the cursor, from your own seat (s shows another seat's)"""
    row = c.get(HistoryScreen).history.chosen()
    if row is not None:
        open_replay(c, record=str(row["id"]), seat=row.get("seat"), back="history")


@HISTORY.add("v", help=N_("review your moves in the round"), footer=N_("v: review"),
             when=listed)
def review(c: Controller, key: str) -> None:
    """the replay of the round under the cursor with the review of your moves asked for: the
    moves the hard search would have made otherwise, each with its loss and why"""
    row = c.get(HistoryScreen).history.chosen()
    if row is not None:
        open_replay(c, record=str(row["id"]), seat=row.get("seat"), back="history",
                    review=True)


@command("history", help=N_("your finished rounds at this host (Enter replays one)"),
         where=LOBBY_SIDE)
def history(c: Controller, table: Any, rest: str) -> None:
    open_history(c)
