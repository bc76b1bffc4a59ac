"""The league screen: a week's standings (rank, name, points; the player's own line marked),
and the weeks before it (left and right); the lobby's ``L``, the command ``league``.

It owns the standings the host sent last.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from cardparty.client.command_line import LOBBY_SIDE, command
from cardparty.client.drawing import Fragments
from cardparty.client.economy_words import profile_line
from cardparty.client.keymap import Keys
from cardparty.client.link import Message
from cardparty.client.screen import Receiver, Screen, back_keys
from cardparty.core.i18n import N_, _
from cardparty.net.wire.economy_replies import LeagueReply

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.render import Renderer

LEAGUE = Keys("league")


#: The lobby's key that opens this screen.
FROM_LOBBY = Keys("lobby")


class LeagueScreen(Screen):
    """See the module docstring."""

    name = "league"
    heading = N_("league")
    keys = (FROM_LOBBY, LEAGUE, back_keys("league"))

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: The host's standings of the week shown (None: not come yet).
        self.league: LeagueReply | None = None

    def receivers(self) -> Mapping[str, Receiver]:
        return {"league": self._league}

    def _league(self, msg: Message) -> None:
        self.league = cast(LeagueReply, msg)

    def draw(self, r: Renderer) -> Fragments:
        """A week's standings: rank, name, points; the player's own line marked."""
        c = self.c
        lg = self.league
        week = None if lg is None else lg.get("week")
        if not week:
            title = _("League")
        elif lg is not None and week == lg.get("current"):
            title = _("League {week} (this week)").format(week=week)
        else:
            title = _("League {week}").format(week=week)
        out: Fragments = [("class:me", f" {profile_line(c.profile, c.name, c.no_economy)}\n\n"),
                          ("class:heading", f" {title}\n")]
        if c.no_economy:
            out.append(("class:dim", " " + _("this host keeps no coins: no league here") + "\n"))
            return out
        if lg is None:
            out.append(("class:dim", " " + _("asking the host...") + "\n"))
            return out
        rows = list(lg.get("standings") or [])
        if not rows:
            out.append(("class:dim", " " + _("nobody has points this week yet: open tables "
                                             "count") + "\n"))
        me = c.name.casefold()
        you = _("(you)")
        for row in rows[:30]:
            mine = str(row.get("name", "")).casefold() == me
            pts = _("{n} pts").format(n=f"{row.get('points', 0):>6}")
            out.append(("class:me" if mine else "", f" {row.get('rank', '?'):>3}. "
                        f"{str(row.get('name', '?'))[:24]:<24} {pts}"
                        f"{'  ' + you if mine else ''}\n"))
        mine_row = lg.get("me")
        if mine_row and all(x.get("name") != mine_row.get("name") for x in rows[:30]):
            pts = _("{n} pts").format(n=mine_row.get("points"))
            out.append(("class:me", f" {mine_row.get('rank')}. {mine_row.get('name')} "
                                    f"{pts} {you}\n"))
        return out


def open_league(c: Controller, week: str | None = None) -> None:
    """The league screen, with ``week``'s standings asked for (None: this week's)."""
    c.show(LeagueScreen.name)
    c.request("league", week=week)


@FROM_LOBBY.add("L", help=N_("the week's league"))
def league_key(c: Controller, key: str) -> None:
    """the league: this week's standings, and earlier weeks"""
    open_league(c)


def other_weeks(c: Controller) -> bool:
    """The host lists more weeks than the one shown: left and right have somewhere to go."""
    lg = c.get(LeagueScreen).league
    return lg is not None and len(lg.get("weeks") or ()) > 1


@LEAGUE.add("left", "right", "h", "l", help=N_("an older / a newer week"),
            when=other_weeks, footer=N_("left right: weeks"))
def other_week(c: Controller, key: str) -> None:
    """an older (left) or a newer (right) week"""
    lg = c.get(LeagueScreen).league
    if lg is None:
        return
    weeks = list(lg.get("weeks") or [])
    week = lg.get("week")
    if week in weeks:
        i = weeks.index(week) + (1 if key in ("left", "h") else -1)   # newest first
        if 0 <= i < len(weeks):
            open_league(c, weeks[i])
        else:
            c.notice = (_("no older week has standings") if key in ("left", "h")
                        else _("this is the newest week"))


@command("league", help=N_("the week's league (league 2026-W48, league older, league newer: "
                           "another week)"),
         where=LOBBY_SIDE)
def league(c: Controller, table: Any, rest: str) -> None:
    """``league older`` and ``league newer``: the weeks beside the one shown (left, right)."""
    if c.screen == LeagueScreen.name and rest.lower() in ("older", "newer"):
        other_week(c, "left" if rest.lower() == "older" else "right")
    else:
        open_league(c, rest or None)
