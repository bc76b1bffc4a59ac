"""The start screen: the player's name, the host's address, and the hosts found on the LAN.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardparty.client.drawing import Fragments
from cardparty.client.keys_start import START
from cardparty.client.screen import Narration, Screen
from cardparty.core.i18n import _, translate

if TYPE_CHECKING:
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer


class StartScreen(Screen):
    name = "start"
    keys = (START,)

    def title(self, r: Renderer) -> str:
        return "cardparty"

    def draw(self, r: Renderer) -> Fragments:
        return r.start()

    def narration(self, n: Narrator) -> Narration:
        return StartNarration(self, n)

    def prompt(self) -> str:
        f = self.c.start
        if f.row == 0:
            return (_("your name ({name}): ").format(name=f.name) if f.name
                    else _("your name: "))
        return _("host address, or a host's number: ")


class StartNarration(Narration):
    """The start screen in the line mode: the hosts found, numbered (typed by number)."""

    def __init__(self, screen: Screen, n: Narrator) -> None:
        super().__init__(screen, n)
        self.hosts: list[tuple[str, str]] = []

    def opened(self) -> list[str]:
        return [_("Join a cardparty host."), *self.found_hosts(force=True)]

    def changed(self) -> list[str]:
        return self.found_hosts()

    def where(self) -> list[str]:
        return self.opened()

    def found_hosts(self, force: bool = False) -> list[str]:
        f = self.screen.c.start
        if f.hosts == self.hosts and not force:
            return []
        self.hosts = list(f.hosts)
        if not f.hosts:
            return [_("Hosts on this network: {search}").format(
                search=translate(f.search) if f.search else _("none listed"))] if force else []
        out = [_("Hosts on this network (type the number to join one):")]
        out += [f"{i}. {label}, {address}" for i, (label, address) in enumerate(f.hosts, 1)]
        if f.search:
            out.append(f.search)
        return out
