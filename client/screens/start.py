"""The start screen: the player's name, the host's address, and the hosts found on the LAN;
its keys edit them and join a host, and giving up on a host that never answered brings it
back.

It owns what the player typed there and the hosts found.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardparty.client.dialog import type_key
from cardparty.client.drawing import Fragments, cells
from cardparty.client.keymap import TYPED, Keys
from cardparty.client.link import Message
from cardparty.client.names import name_problem
from cardparty.client.screen import Narration, Receiver, Screen
from cardparty.core.i18n import N_, _, translate

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer

START = Keys("start")


@dataclass
class StartForm:
    """The start screen: name, address, and the hosts found on the LAN (rows 2 and on)."""

    name: str = ""
    #: Empty: a prefilled address would take an Enter meant for a host listed below.
    address: str = ""
    row: int = 0
    hosts: list[tuple[str, str]] = field(default_factory=list)   # (label, address)
    #: What the LAN search says when it found nothing (searching, unavailable...).
    search: str = ""

    @property
    def text(self) -> str:
        return self.name if self.row == 0 else self.address

    @text.setter
    def text(self, value: str) -> None:
        if self.row == 0:
            self.name = value
        elif self.row == 1:
            self.address = value

    @property
    def rows(self) -> int:
        return 2 + len(self.hosts)

    limit = 64


class StartScreen(Screen):
    """See the module docstring."""

    name = "start"
    keys = (START,)

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: What the player typed and the hosts found (the name and address given first).
        self.form = StartForm(name=c.name, address=c.host)

    def receivers(self) -> Mapping[str, Receiver]:
        return {"hosts": self._hosts}

    def _hosts(self, msg: Message) -> None:
        f = self.form
        f.hosts = [(str(label), str(address)) for label, address in msg.get("hosts") or ()][:12]
        f.search = str(msg.get("text") or "")
        f.row = min(f.row, f.rows - 1)

    def title(self, r: Renderer) -> str:
        return "cardparty"

    def draw(self, r: Renderer) -> Fragments:
        """The two fields, then the hosts found on the network, each one's words whole,
        broken between words where the terminal is narrow, its address beside them."""
        f = self.form
        out: Fragments = [("class:heading", _("Join a cardparty host")), ("", "\n\n")]
        labels = (_("Your name"), _("Host address"))
        width = max(14, *(len(x) for x in labels))
        for row, (label, value) in enumerate(((labels[0], f.name), (labels[1], f.address))):
            active = row == f.row
            out.append(("class:turn" if active else "", f" {label:<{width}}"))
            out.append(("class:cursor" if active else "", f" {value} "))
            if row == 1 and not value:
                out.append(("class:dim", " " + (_("type it, or choose a host found below")
                            if f.hosts else _("type it, e.g. 192.168.1.20"))))
            out.append(("", "\n"))
        out.append(("", "\n"))
        out.append(("class:heading", _("Hosts on this network")))
        out.append(("", "\n"))
        if f.hosts:
            widest = max(len(address) for _label, address in f.hosts)
            column = max(10, min(max(len(label) for label, _a in f.hosts),
                                 r.width() - 6 - widest))
            for i, (label, address) in enumerate(f.hosts, 2):
                style = "class:dialog.cursor" if f.row == i else ""
                lines = textwrap.wrap(label, column, break_on_hyphens=False) or [""]
                out.append((style, f"   {cells(lines[0], column)} {address} "))
                out.append(("", "\n"))
                for line in lines[1:]:
                    out.append((style, f"     {line} "))
                    out.append(("", "\n"))
            out.append(("class:dim", "   " + _("up/down to one, Enter to join it") + "\n"))
            if f.search:                       # hosts that could be taken for one another
                out.append(("class:error", "   " + f.search + "\n"))
        else:
            out.append(("class:dim", "   " + _("{search}: type the host's address, e.g. "
                                                "192.168.1.20 or 192.168.1.20:7770").format(
                search=translate(f.search) if f.search else _("none listed")) + "\n"))
        return r.asciify(out)

    def narration(self, n: Narrator) -> Narration:
        return StartNarration(self, n)

    def prompt(self) -> str:
        f = self.form
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
        f = self.c.get(StartScreen).form
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


@START.add(TYPED, "space", "backspace", "c-u",
           help=N_("edit the field under the cursor (your name, the address)"))
def edit_field(c: Controller, key: str) -> None:
    """edit the field under the cursor (your name, the address)"""
    type_key(c.get(StartScreen).form, key)


@START.add("up", "down", "tab", "s-tab", help=N_("next field, or a host found on the network"),
           footer=N_("Tab: next field"))
def next_field(c: Controller, key: str) -> None:
    """next field, or a host found on the network"""
    form = c.get(StartScreen).form
    form.row = (form.row + (-1 if key in ("up", "s-tab") else 1)) % form.rows


@START.add("enter", help=N_("join the address typed, or the host chosen"),
           footer=N_("Enter: connect"))
def join_chosen(c: Controller, key: str) -> None:
    """join the address typed, or the host chosen in the list; on your name with no address
    typed, go on to the first host found (or the address field)"""
    form = c.get(StartScreen).form
    if form.row >= 2:                          # a host found on the LAN
        form.address = form.hosts[form.row - 2][1]
    elif form.row == 0 and not form.address:
        form.row = 2 if form.hosts else 1      # on to the hosts found, or the address
        return
    join(c, form.name.strip(), form.address.strip())


@START.add("escape", "c-c", "c-q", help=N_("quit"), footer=N_("Ctrl-C: quit"))
def quit_start(c: Controller, key: str) -> None:
    """quit"""
    c.exit()


def join(c: Controller, name: str, address: str) -> None:
    """Connect to ``address`` as ``name`` (the start screen's Enter)."""
    problem = name_problem(name)
    if problem:
        c.error = problem
        c.get(StartScreen).form.row = 0
        return
    if not address:
        c.error = _("type the host's address (for example 192.168.1.20:5555)")
        return
    if c.connect is None:
        c.error = _("this client cannot open connections")
        return
    if c.check_address is not None:
        problem = c.check_address(address)
        if problem:
            c.error = problem
            return
    c.name, c.host = name, address
    if c.on_join is not None:
        c.on_join()
    c.attach(c.connect(name, address))
    c.banner = _("connecting to {address}... (Esc: back to the start screen)").format(
        address=address)


def give_up(c: Controller, reason: str = "", name_row: bool = False) -> None:
    """Stop trying to reach a host that never welcomed us: back to the start screen, with
    the name and address as typed and one line saying why (``reason``: the host's refusal;
    none: nobody answered). ``name_row``: the refusal is about the name, the cursor goes
    there."""
    link, c.link = c.link, None
    if link is not None:
        with contextlib.suppress(Exception):
            link.close()
    c.show("start")
    c.dialog = None
    c.help = 0
    c.command_open = False
    form = c.get(StartScreen).form
    form.row = 0 if name_row else 1
    form.address = form.address or c.host
    form.name = form.name or c.name
    c.banner = ""
    c.connection = ""
    c.tables = []
    c.profile = None
    c.error = reason or _("gave up on {host}: no cardparty host answered there").format(
        host=c.host)
