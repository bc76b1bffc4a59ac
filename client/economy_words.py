"""The economy in the player's words: his profile in one line, what a finished round paid,
one of his recent rewards, coins and the time a booster has left. The lobby, the table, the
profile and the shop say them.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardparty.client.drawing import Fragments
from cardparty.core.i18n import N_, _, ngettext, number
from cardparty.net.wire.economy_replies import ProfileWire, RewardFields, RewardPush

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

#: What the notice says once a booster is bought.
BOUGHT = {"gold": N_("gold booster bought: coins x2"),
          "vip": N_("VIP pass bought: coins and XP x1.5")}
BOUGHT_ANY = N_("bought")


def coins_text(n: int | None) -> str:
    return number(int(n)) if isinstance(n, int) else "?"


def left_text(seconds: float | None) -> str:
    """Time left of a booster, in the unit a player reads at a glance."""
    s = float(seconds or 0)
    if s >= 86400:
        return _("{n} days").format(n=f"{s / 86400:.1f}")
    if s >= 3600:
        return _("{n} h").format(n=f"{s / 3600:.1f}")
    return _("{n} min").format(n=max(1, round(s / 60)))


def profile_line(p: ProfileWire | None, name: str, no_economy: bool = False) -> str:
    """The lobby's profile line: name, coins, level and the progress to the next, boosters,
    this week's league points; with no profile, the name alone until the host said it keeps
    no coins (``no_economy``): a host that has not answered yet states nothing."""
    if not p:
        if not no_economy:
            return name or "?"
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


def reward_text(r: RewardPush) -> str:
    """What a finished round paid, in one line."""
    mode = r.get("mode")
    if mode == "practice" or r.get("profile") is None:
        return _("Practice: no coins, no XP, no league points.")
    if mode == "entry":
        got = (_("You take {coins} of the pot of {pot} coins") if r.get("coins")
               else _("You lose your stake of {stake} coins: the pot of {pot} goes to the "
                      "winners")).format(coins=coins_text(r.get("coins")),
                                         stake=coins_text(r.get("stake")),
                                         pot=coins_text(r.get("pot")))
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


def reward_row(r: RewardFields) -> str:
    """One of the player's recent rewards in one line: where, his place, what it paid."""
    paid = _("{coins} coins, {xp} XP, {league}").format(
        coins=coins_text(r.get("coins")), xp=r.get("xp", 0),
        league=ngettext("{n} league point", "{n} league points",
                        int(r.get("league") or 0)).format(n=r.get("league", 0)))
    if r.get("halved"):
        paid += " " + _("(halved: bots held seats)")
    if r.get("level_up"):
        paid += " · " + _("a new level")
    return _("table {table}, round {round} ({mode}): place {place} · {paid}").format(
        table=r.get("table"), round=r.get("round"), mode=_(str(r.get("mode") or "?")),
        place=r.get("place"), paid=paid)


def economy_head(c: Controller, title: str, none_here: str) -> Fragments:
    """The profile line and ``title`` atop the profile or the shop, and while the profile is
    unknown the line that says why (``none_here`` at a host with no coins): then nothing
    more is shown."""
    out: Fragments = [("class:me", f" {profile_line(c.profile, c.name, c.no_economy)}\n\n"),
                      ("class:heading", f" {title}\n")]
    if not c.profile:
        out.append(("class:dim", " " + (none_here if c.no_economy
                                        else _("asking the host...")) + "\n"))
    return out
