"""The shop screen: the gold booster and the VIP pass with their prices and what they do,
what is active, each bought after a yes (``g``, ``v``; the lobby's ``$``, the commands
``shop`` and ``buy``).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Any

from cardparty.client.command_line import LOBBY_SIDE, command
from cardparty.client.dialog import Choice
from cardparty.client.drawing import Fragments
from cardparty.client.economy_words import coins_text, economy_head, left_text
from cardparty.client.keymap import Keys
from cardparty.client.screen import Narration, Screen, back_keys
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer

SHOP = Keys("shop")


#: The lobby's key that opens this screen.
FROM_LOBBY = Keys("lobby")


class ShopScreen(Screen):
    """See the module docstring."""

    name = "shop"
    heading = N_("shop")
    keys = (FROM_LOBBY, SHOP, back_keys("shop"))

    def draw(self, r: Renderer) -> Fragments:
        """The shop: the two boosters, their prices and what they do, and what is active."""
        p = self.c.profile
        out = economy_head(self.c, _("Shop"), _("this host keeps no coins: nothing to buy here"))
        if not p:
            return out
        prices = p.get("prices") or {}
        boosts = p.get("boosts") or {}
        items = [("g", _("Gold booster"), prices.get("gold"),
                  _("coins x2 for {n} minutes").format(n=f"{boosts.get('gold_minutes', 60):g}"),
                  p.get("gold_left")),
                 ("v", _("VIP pass"), prices.get("vip"),
                  _("coins and XP x1.5 for {n} days").format(n=f"{boosts.get('vip_days', 7):g}"),
                  p.get("vip_left"))]
        for key, name, price, what, left in items:
            out.append(("class:key", f" {key} "))
            coins = _("{n} coins").format(n=f"{coins_text(price):>7}")
            out.append(("", f" {name:<14} {coins}   {what}"))
            if left:
                out.append(("class:notice", "   " + _("active: {time} left").format(
                    time=left_text(left))))
            out.append(("", "\n"))
        text = textwrap.wrap(_("Boosters never multiply a pot, nor practice; buying again while "
                               "active adds the time."), max(20, r.width() - 2))
        out.append(("class:dim", "\n" + "".join(f" {line}\n" for line in text)))
        return out

    def narration(self, n: Narrator) -> Narration:
        return ShopNarration(self, n)


class ShopNarration(Narration):
    """The shop in the line mode: its lines, the keys ``g`` and ``v`` said as the commands
    they are here (``buy gold``, ``buy vip``)."""

    def now(self) -> list[str]:
        return [re.sub(r"^g ", "buy gold: ", re.sub(r"^v ", "buy vip: ", line))
                for line in super().now()]


def open_shop(c: Controller) -> None:
    """The shop, with the profile (and its prices) asked for again."""
    c.show(ShopScreen.name)
    c.request("profile")


@FROM_LOBBY.add("$", help=N_("the shop (gold booster, VIP pass)"))
def shop_key(c: Controller, key: str) -> None:
    """the shop: the gold booster and the VIP pass, each bought after a yes"""
    open_shop(c)


def buy(c: Controller, item: str) -> None:
    """Ask before buying ``item`` (gold, vip) at the host's price."""
    price = ((c.profile or {}).get("prices") or {}).get(item, "?")
    title = (_("Buy the gold booster for {price} coins?") if item == "gold"
             else _("Buy the VIP pass for {price} coins?")).format(price=price)
    c.dialog = Choice(title, [(_("buy"), True), (_("not now"), False)],
                      lambda yes: c.request("buy", item=item) if yes else None)


def has_shop(c: Controller) -> bool:
    """The host keeps coins and has told this player his (the shop's prices with them)."""
    return c.profile is not None


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


@command("shop", help=N_("the shop: gold booster, VIP pass"), where=LOBBY_SIDE)
def shop(c: Controller, table: Any, rest: str) -> None:
    open_shop(c)


@command("buy ", help=N_("buy gold (the booster) or vip (the pass)"), where=("shop", "profile"))
def buy_command(c: Controller, table: Any, rest: str) -> None:
    if rest.lower() not in ("gold", "vip"):
        c.error = _("buy gold (the booster) or buy vip (the pass)")
    else:
        c.request("buy", item=rest.lower())
