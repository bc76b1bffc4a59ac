"""The start screen's keys (your name, the host's address, the hosts found on the LAN) and
joining a host from there; giving up on a host that never answered brings the screen back.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from cardparty.client.dialog import type_key
from cardparty.client.keymap import TYPED, Keys
from cardparty.core.i18n import N_, _
from cardparty.net.names.safetext import NAME_MAX
from cardparty.net.names.safetext import name_problem as safe_name_problem

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

START = Keys("start")


@START.add(TYPED, "space", "backspace", "c-u",
           help=N_("edit the field under the cursor (your name, the address)"))
def edit_field(c: Controller, key: str) -> None:
    """edit the field under the cursor (your name, the address)"""
    type_key(c.start, key)


@START.add("up", "down", "tab", "s-tab", help=N_("next field, or a host found on the network"),
           footer=N_("Tab: next field"))
def next_field(c: Controller, key: str) -> None:
    """next field, or a host found on the network"""
    form = c.start
    form.row = (form.row + (-1 if key in ("up", "s-tab") else 1)) % form.rows


@START.add("enter", help=N_("join the address typed, or the host chosen"),
           footer=N_("Enter: connect"))
def join_chosen(c: Controller, key: str) -> None:
    """join the address typed, or the host chosen in the list; on your name with no address
    typed, go on to the first host found (or the address field)"""
    form = c.start
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


#: The host's refusals of a hello that are about the name: the start screen puts the cursor
#: on it.
NAME_REFUSALS = frozenset({"name_taken", "bad_name", "too_many"})


def name_problem(name: str) -> str | None:
    """Why a host would refuse ``name`` (the host's own rule, ``net/names/safetext.py``), in the
    player's words; None if it would take it."""
    if not name.strip():
        return _("type your name first")
    if len(name) > NAME_MAX:
        return _("a name has at most 32 letters (this one has {n})").format(n=len(name))
    if safe_name_problem(name) is None:
        return None
    if name != name.strip() or "  " in name:
        return _("a name has no space at either end, nor two in a row, nor control "
                 "characters")
    return _("a name is letters or digits of one script, with no invisible or control "
             "characters")


def join(c: Controller, name: str, address: str) -> None:
    """Connect to ``address`` as ``name`` (the start screen's Enter)."""
    problem = name_problem(name)
    if problem:
        c.error = problem
        c.start.row = 0
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
    c.start.row = 0 if name_row else 1
    c.start.address = c.start.address or c.host
    c.start.name = c.start.name or c.name
    c.banner = ""
    c.connection = ""
    c.tables = []
    c.profile = None
    c.error = reason or _("gave up on {host}: no cardparty host answered there").format(
        host=c.host)
