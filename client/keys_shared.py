"""The keys every screen but the start screen shares: the help, the command line, the bell,
and quitting at once (Ctrl-C, even from a dialog or the command line).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardparty.client.keymap import Keys
from cardparty.core.i18n import N_

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

#: Every screen but the start screen (which types these characters instead), the screens
#: registered later too.
SHARED = Keys(but=("start",), clears_error=False)


@SHARED.add("?", help=N_("this help; at a table, ? again: the game's rules in short"),
            footer=N_("? help"))
def show_help(c: Controller, key: str) -> None:
    """the keys of this screen; at a table, `?` again: the game's rules in short"""
    c.help = 1


@SHARED.add(":", "/", help=N_("command line: a move (play 7h) or a command; Tab completes"),
            footer=N_(": command"))
def open_command_line(c: Controller, key: str) -> None:
    """the command line (see below)"""
    c.command_open = True
    c.on_command()


@SHARED.add("B", help=N_("bell on/off: rings when it is your turn or a call is due"))
def bell(c: Controller, key: str) -> None:
    """the bell on or off (see *Your turn gets attention*)"""
    c.toggle_bell()


@SHARED.add("c-c", "c-q", help=N_("quit at once"), always=True)
def quit_now(c: Controller, key: str) -> None:
    """quit at once, from anywhere (a dialog, the help, the command line)"""
    c.exit()
