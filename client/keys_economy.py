"""The economy's keys and messages in the client: the profile always shown in the lobby, the
league screen, the shop screen, open play (seek a table, stop waiting) and the reward of each
round. A mixin of ``Controller`` (it uses the controller's state and ``_request``).

Screens it adds: ``league`` (a week's standings; left/right: an older or newer week) and
``shop`` (the gold booster and the VIP pass with their prices, bought after a yes).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import Any

from cardparty.client.dialog import Choice, SeekForm
from cardparty.core.i18n import N_, _, ngettext

#: What the notice says once a booster is bought.
BOUGHT = {"gold": N_("gold booster bought: coins x2"),
          "vip": N_("VIP pass bought: coins and XP x1.5")}
BOUGHT_ANY = N_("bought")


def coins_text(n: Any) -> str:
    return f"{int(n):,}" if isinstance(n, int) else "?"


def left_text(seconds: Any) -> str:
    """Time left of a booster, in the unit a player reads at a glance."""
    s = float(seconds or 0)
    if s >= 86400:
        return _("{n} days").format(n=f"{s / 86400:.1f}")
    if s >= 3600:
        return _("{n} h").format(n=f"{s / 3600:.1f}")
    return _("{n} min").format(n=max(1, round(s / 60)))


def profile_line(p: dict[str, Any] | None, name: str) -> str:
    """The lobby's profile line: name, coins, level and the progress to the next, boosters,
    this week's league points."""
    if not p:
        return _("{name} · practice only (this host keeps no coins)").format(name=name or "?")
    parts = [str(p.get("name") or name), _("{n} coins").format(n=coins_text(p.get("coins"))),
             _("level {level} ({xp}/{next} XP)").format(
                 level=p.get("level", 0), xp=p.get("xp", 0), next=p.get("next_xp", "?")),
             _("league {n} pts").format(n=p.get("league", 0))]
    if p.get("gold_left"):
        parts.append(_("gold booster {time}").format(time=left_text(p["gold_left"])))
    if p.get("vip_left"):
        parts.append(_("VIP {time}").format(time=left_text(p["vip_left"])))
    return " · ".join(parts)


def reward_text(r: dict[str, Any]) -> str:
    """What a finished round paid, in one line."""
    mode = r.get("mode")
    if mode == "practice" or r.get("profile") is None:
        return _("Practice: no coins, no XP, no league points.")
    if mode == "entry":
        got = (_("You take {coins} of the pot of {pot} coins") if r.get("coins")
               else _("The pot of {pot} coins goes to the winners")).format(
            coins=coins_text(r.get("coins")), pot=coins_text(r.get("pot")))
    else:
        got = _("You earn {coins} coins").format(coins=coins_text(r.get("coins")))
    league = r.get("league", 0)
    text = _("{got}, {xp} XP, {league}").format(
        got=got, xp=r.get("xp", 0),
        league=ngettext("{n} league point", "{n} league points", int(league or 0)).format(
            n=league))
    if r.get("halved"):
        text += " " + _("(halved: bots held seats)")
    text += "."
    level = (r.get("profile") or {}).get("level")
    if r.get("level_up"):
        text += " " + _("Level {level} reached!").format(level=level)
    return text


class EconomyKeys:
    """See the module docstring."""

    def init_economy(self) -> None:
        #: The player's profile at this host (None: not known yet, or no economy there).
        self.profile: dict[str, Any] | None = None
        self.league: dict[str, Any] | None = None
        #: The reward of the last finished round, by table.
        self.rewards: dict[Any, dict[str, Any]] = {}

    def economy_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "profile":
            self.profile = msg.get("profile") if isinstance(msg.get("profile"), dict) else None
            if msg.get("bought"):
                self.notice = _(BOUGHT.get(str(msg["bought"]), BOUGHT_ANY))
        elif kind == "league":
            self.league = msg
        elif kind == "reward":
            self.rewards[msg.get("table")] = msg
            if self.screen != "table" or msg.get("table") != self.table_id:
                self.notice = _("table {table}: {reward}").format(table=msg.get("table"),
                                                                  reward=reward_text(msg))

    def open_league(self, week: str | None = None) -> None:
        self.screen = "league"
        self._request("league", week=week)

    def open_shop(self) -> None:
        self.screen = "shop"
        self._request("profile")

    def seek_form(self) -> None:
        stakes = tuple((self.profile or {}).get("stakes") or (100, 250, 500, 1000))
        self.dialog = SeekForm(self.games, lambda req: self._request("seek", **req),
                               stakes=stakes)

    def _key_economy(self, name: str) -> None:
        if name in ("q", "escape"):
            self.screen = "lobby"
        elif self.screen == "league" and name in ("left", "right", "h", "l") and self.league:
            weeks = list(self.league.get("weeks") or [])
            week = self.league.get("week")
            if week in weeks:
                i = weeks.index(week) + (1 if name in ("left", "h") else -1)   # newest first
                if 0 <= i < len(weeks):
                    self.open_league(weeks[i])
        elif self.screen == "shop" and name in ("g", "v"):
            item = "gold" if name == "g" else "vip"
            price = ((self.profile or {}).get("prices") or {}).get(item, "?")
            title = (_("Buy the gold booster for {price} coins?") if item == "gold"
                     else _("Buy the VIP pass for {price} coins?")).format(price=price)
            self.dialog = Choice(title, [(_("buy"), True), (_("not now"), False)],
                                 lambda yes: yes and self._request("buy", item=item))
