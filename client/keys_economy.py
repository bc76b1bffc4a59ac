"""The economy's keys and messages in the client: the profile always shown in the lobby, the
profile screen, the league screen, the shop screen, open play (seek a table, stop waiting) and
the reward of each round (told on return when the round ended while the player was away).

Screens it adds: ``profile`` (the player's profile and his recent rewards, newest first),
``league`` (a week's standings; left/right: an older or newer week) and ``shop`` (the gold
booster and the VIP pass with their prices, bought after a yes).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.client.dialog import Choice, SeekForm
from cardparty.client.keymap import Keys
from cardparty.core.i18n import N_, _, ngettext, number

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

#: What the notice says once a booster is bought.
BOUGHT = {"gold": N_("gold booster bought: coins x2"),
          "vip": N_("VIP pass bought: coins and XP x1.5")}
BOUGHT_ANY = N_("bought")


def coins_text(n: Any) -> str:
    return number(int(n)) if isinstance(n, int) else "?"


def left_text(seconds: Any) -> str:
    """Time left of a booster, in the unit a player reads at a glance."""
    s = float(seconds or 0)
    if s >= 86400:
        return _("{n} days").format(n=f"{s / 86400:.1f}")
    if s >= 3600:
        return _("{n} h").format(n=f"{s / 3600:.1f}")
    return _("{n} min").format(n=max(1, round(s / 60)))


def profile_line(p: dict[str, Any] | None, name: str, no_economy: bool = False) -> str:
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


def reward_text(r: dict[str, Any]) -> str:
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


def reward_row(r: dict[str, Any]) -> str:
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


def economy_message(c: Controller, msg: dict[str, Any]) -> None:
    """The link's ``profile``, ``league``, ``rewards`` and ``reward`` messages."""
    kind = msg.get("type")
    if kind == "profile":
        c.profile = msg.get("profile") if isinstance(msg.get("profile"), dict) else None
        c.no_economy = c.profile is None and bool(msg.get("no_economy"))
        if msg.get("bought"):
            c.notice = _(BOUGHT.get(str(msg["bought"]), BOUGHT_ANY))
    elif kind == "league":
        c.league = msg
    elif kind == "rewards":
        c.recent = msg
    elif kind == "reward":
        c.rewards[msg.get("table")] = msg
        if c.screen == "profile":
            c.request("rewards")             # the list on screen takes the new one in
        if msg.get("missed"):
            c.notice = _("table {table}, while you were away: {reward}").format(
                table=msg.get("table"), reward=reward_text(msg))
        elif c.screen != "table" or msg.get("table") != c.table_id:
            c.notice = _("table {table}: {reward}").format(table=msg.get("table"),
                                                           reward=reward_text(msg))


def open_league(c: Controller, week: str | None = None) -> None:
    c.screen = "league"
    c.request("league", week=week)


def open_profile(c: Controller) -> None:
    c.screen = "profile"
    c.request("profile")
    c.request("rewards")


def open_shop(c: Controller) -> None:
    c.screen = "shop"
    c.request("profile")


def seek_form(c: Controller) -> None:
    stakes = tuple((c.profile or {}).get("stakes") or (100, 250, 500, 1000))
    c.dialog = SeekForm(c.games, lambda req: c.request("seek", **req), stakes=stakes)


def buy(c: Controller, item: str) -> None:
    """Ask before buying ``item`` (gold, vip) at the host's price."""
    price = ((c.profile or {}).get("prices") or {}).get(item, "?")
    title = (_("Buy the gold booster for {price} coins?") if item == "gold"
             else _("Buy the VIP pass for {price} coins?")).format(price=price)
    c.dialog = Choice(title, [(_("buy"), True), (_("not now"), False)],
                      lambda yes: c.request("buy", item=item) if yes else None)


# --- the keys ----------------------------------------------------------------------------------

LEAGUE = Keys("league")
SHOP = Keys("shop")
ECONOMY = Keys("profile", "league", "shop")


def other_weeks(c: Controller) -> bool:
    """The host lists more weeks than the one shown: left and right have somewhere to go."""
    return len((c.league or {}).get("weeks") or ()) > 1


def has_shop(c: Controller) -> bool:
    """The host keeps coins and has told this player his (the shop's prices with them)."""
    return c.profile is not None


@LEAGUE.add("left", "right", "h", "l", help=N_("an older / a newer week"),
            when=other_weeks, footer=N_("left right: weeks"))
def other_week(c: Controller, key: str) -> None:
    """an older (left) or a newer (right) week"""
    lg = c.league or {}
    weeks = list(lg.get("weeks") or [])
    week = lg.get("week")
    if week in weeks:
        i = weeks.index(week) + (1 if key in ("left", "h") else -1)   # newest first
        if 0 <= i < len(weeks):
            open_league(c, weeks[i])
        else:
            c.notice = (_("no older week has standings") if key in ("left", "h")
                        else _("this is the newest week"))


@SHOP.add("g", help=N_("buy the gold booster (asks first)"), footer=N_("g: gold booster"),
          when=has_shop)
def buy_gold(c: Controller, key: str) -> None:
    """buy the gold booster (coins x2 for a while), after a yes"""
    buy(c, "gold")


@SHOP.add("v", help=N_("buy the VIP pass (asks first)"), footer=N_("v: VIP pass"),
          when=has_shop)
def buy_vip(c: Controller, key: str) -> None:
    """buy the VIP pass (coins and XP x1.5 for some days), after a yes"""
    buy(c, "vip")


@ECONOMY.add("q", "escape", help=N_("back to the lobby"), footer=N_("q: lobby"))
def back_to_lobby(c: Controller, key: str) -> None:
    """back to the lobby"""
    c.screen = "lobby"
