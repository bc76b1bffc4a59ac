"""The profile screen: the player's profile in full (coins, level, league points, boosters)
and his recent rewards, newest first (the lobby's ``p``, the command ``profile``).

It owns the host's page of recent rewards; the profile itself is the controller's (the
lobby, the shop and the forms read it too).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from cardparty.client.command_line import LOBBY_SIDE, command
from cardparty.client.drawing import Fragments
from cardparty.client.economy_words import coins_text, economy_head, left_text, reward_row
from cardparty.client.keymap import Keys
from cardparty.client.link import Message
from cardparty.client.screen import Receiver, Screen, back_keys
from cardparty.core.i18n import N_, _, ngettext
from cardparty.net.wire.economy_replies import RewardsReply

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.render import Renderer


#: The lobby's key that opens this screen.
FROM_LOBBY = Keys("lobby")


class ProfileScreen(Screen):
    """See the module docstring."""

    name = "profile"
    heading = N_("profile")
    keys = (FROM_LOBBY, back_keys("profile"))

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: The host's page of this player's recent rewards (None: not come yet).
        self.recent: RewardsReply | None = None

    def receivers(self) -> Mapping[str, Receiver]:
        return {"rewards": self._rewards, "reward": self._reward}

    def _rewards(self, msg: Message) -> None:
        self.recent = cast(RewardsReply, msg)

    def _reward(self, msg: Message) -> None:
        if self.c.screen == self.name:
            self.c.request("rewards")          # the list on screen takes the new one in

    def draw(self, r: Renderer) -> Fragments:
        """The player's profile in full and his recent rewards, newest first (as many as the
        screen has lines for)."""
        p = self.c.profile
        out = economy_head(self.c, _("Profile"), _("this host keeps no coins: no profile here"))
        if not p:
            return out
        xp, nxt = p.get("xp", 0), p.get("next_xp")
        out.append(("", " " + _("{n} coins").format(n=coins_text(p.get("coins"))) + " · "
                    + _("level {level}: {xp} XP, the next level at {next}").format(
                        level=p.get("level", 0), xp=xp, next=nxt if nxt is not None else "?")
                    + "\n"))
        out.append(("", " " + _("league {week}: {n} pts").format(
            week=p.get("week", "?"), n=p.get("league", 0)) + "\n"))
        rated = p.get("ratings")
        if isinstance(rated, dict) and rated:
            out.append(("", " " + _("ratings: {list}").format(list=", ".join(
                f"{r.game_name(str(g))} {v:g}" for g, v in sorted(rated.items())
                if isinstance(v, int | float))) + "\n"))
        for left, name in ((p.get("gold_left"), _("gold booster")),
                           (p.get("vip_left"), _("VIP pass"))):
            if left:
                out.append(("class:notice", " " + _("{name}: {time} left").format(
                    name=name, time=left_text(left)) + "\n"))
        out.append(("class:heading", "\n " + _("Recent rewards") + "\n"))
        recent = self.recent
        rows = [] if recent is None else [x for x in recent.get("rewards") or ()
                                          if isinstance(x, dict)]      # a host's, as sent
        if recent is None:
            out.append(("class:dim", " " + _("asking the host...") + "\n"))
        elif not rows:
            out.append(("class:dim", " " + _("no reward yet: friends, open and entry tables "
                                             "pay") + "\n"))
        room = max(2, r.height() - 10)            # lines left under the profile
        width = max(20, r.width() - 3)
        shown = 0
        for row in rows:
            lines = textwrap.wrap(reward_row(row), width)
            if len(lines) > room:
                break
            room -= len(lines)
            shown += 1
            out += [("", f" {'  ' if i else ''}{line}\n") for i, line in enumerate(lines)]
        more = (0 if recent is None else int(recent.get("total") or 0)) - shown
        if rows and more > 0:
            out.append(("class:dim", " " + ngettext("and {n} more", "and {n} more", more).format(
                n=more) + "\n"))
        return out


def open_profile(c: Controller) -> None:
    """The profile screen, with the profile and the recent rewards asked for again."""
    c.show(ProfileScreen.name)
    c.request("profile")
    c.request("rewards")


@FROM_LOBBY.add("p", help=N_("your profile and your recent rewards"))
def profile_key(c: Controller, key: str) -> None:
    """your profile: coins, level, boosters, and your recent rewards, newest first"""
    open_profile(c)


@command("profile", help=N_("your profile and your recent rewards"), where=LOBBY_SIDE)
def profile(c: Controller, table: Any, rest: str) -> None:
    open_profile(c)
