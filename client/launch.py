"""How the terminal client starts: against bots with a host in this process (``cardparty
play``), or joining a host (``cardparty join``). Builds the link, the controller and the
application, and runs them until the player quits.

Must not know about: game rules, the wire (``net_link`` does).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from cardparty.client.app import build_app, run_async
from cardparty.client.commands.refusal import refuse
from cardparty.client.controller import Controller
from cardparty.client.dialog import TableChoice
from cardparty.client.lan_hosts import LanHosts
from cardparty.client.link import Link
from cardparty.client.names import name_problem
from cardparty.client.tokens import TokenStore
from cardparty.client.words import describer
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.i18n import Msg, _
from cardparty.core.table import Table, TableError


class LaunchError(RuntimeError):
    """The client could not start; ``str()`` is the one line to print."""


def check_terminal() -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise LaunchError(_("the client needs a terminal (stdin and stdout must be a tty)"))


def run_client(controller: Controller, link: Link | None, *, ascii_only: bool = False,
               mouse: bool = True, discovery: bool = False, line: bool = False) -> int:
    """Run the client on this terminal until the player quits: the full screen, or the line
    mode (``line``). ``discovery``: list the LAN's hosts on the start screen while it
    shows."""
    if line:
        return run_lines(controller, link, ascii_only=ascii_only, discovery=discovery)
    app, inbox = build_app(controller, ascii_only=ascii_only, mouse=mouse)
    finder: LanHosts | None = None

    def start() -> None:
        nonlocal finder
        if link is not None:
            link.start(inbox.deliver)
        elif discovery:
            finder = LanHosts(inbox.deliver).start()
            controller.on_join = finder.stop

    try:
        asyncio.run(run_async(app, inbox, start))
    finally:
        if finder is not None:
            finder.stop()
        if controller.link is not None:
            controller.link.close()
    return 0


def run_lines(controller: Controller, link: Link | None, *, ascii_only: bool = False,
              discovery: bool = False) -> int:
    """The line mode (``line_app``) on this terminal until the player quits."""
    from cardparty.client.line_app import run_line

    finder: LanHosts | None = None

    def start(deliver: Callable[[Any], None]) -> None:
        nonlocal finder
        if link is not None:
            link.start(deliver)
        elif discovery:
            finder = LanHosts(deliver).start()
            controller.on_join = finder.stop

    try:
        return run_line(controller, start, ascii_only=ascii_only)
    finally:
        if finder is not None:
            finder.stop()
        if controller.link is not None:
            controller.link.close()


def play_against_bots(game: str = "pika", players: int | None = None, bots: str = "basic",
                      name: str = "You", ascii_only: bool = False,
                      mouse: bool = True, bot_delay: float = 0.6,
                      settings: dict[str, object] | None = None,
                      variants: list[str] | None = None, bell: bool = False,
                      line: bool = False, four_colour: bool = False) -> int:
    """``cardparty play``: a host in this process on 127.0.0.1, one table of ``game`` with
    this player and bots in the other seats, and the client connected to it. ``settings``:
    the table's, as a ``create`` request carries them (``CreateRequest``): each value as the
    command line read it, checked by the game."""
    problem = name_problem(name)
    if problem:                       # the host's own rule, said before the screen opens
        return refuse("play", "--name: " + problem)
    catalog = load_catalog()
    try:
        n = trial_table(catalog, game, players, settings or {}, variants or []).players
    except TableError as exc:
        return refuse("play", exc)
    try:
        check_terminal()
    except LaunchError as exc:
        return refuse("play", exc, 1)
    from cardparty.client.net_link import NetLink
    from cardparty.net.host import Host

    # A deck or seed chosen here is the player's own business (MO-3): the host allows it, and
    # says so, only then.
    chosen = bool({"deck", "seed"} & set(settings or {}))
    here = _("this machine")
    host = Host("tcp://127.0.0.1:0", here, idle=None, catalog=catalog, testing=chosen)
    address = host.start()
    autoplay: TableChoice = {"game": game, "players": n, "settings": dict(settings or {}),
                "variants": list(variants or []),
                "bots": bots, "bot_delay": bot_delay, "title": "practice",
                "mode": "practice"}     # MO-3: against the machine, no ledger, pays nothing
    link = NetLink(address, name, autoplay=autoplay, host_key=host.keys.public)
    controller = Controller(link, name=name, address=here, describe=describer)
    controller.bell = bell
    controller.four_colour = four_colour
    try:
        return run_client(controller, link, ascii_only=ascii_only, mouse=mouse, line=line)
    finally:
        host.stop()


def trial_table(catalog: Catalog, game: str, players: int | None,
                settings: dict[str, object], variants: list[str]) -> Table:
    """The table ``cardparty play`` asks for, opened as the host opens it on a create (the
    game's bounds on every setting, its set-up with this many players: a dealer's seat that
    the table has not, hands that do not fit in the deck), so that what the host would
    refuse after the screen opened is one line before it. ``players`` None: the game's most.
    TableError says why not, as a message the player's language has."""
    try:
        info = catalog.game(game)
    except KeyError as exc:
        raise TableError(exc.args[0]) from None
    n = info.max_players if players is None else players
    try:
        return Table(game, n, settings, variants, catalog=catalog)
    except TableError:
        raise
    except Exception as exc:        # a game failing at set-up, as the host says it
        raise TableError(Msg("the game failed to set up: {error}", error=exc)) from None


def connector(tokens: TokenStore | None = None, address: str | None = None,
              key: str | None = None) -> Callable[[str, str], Link]:
    """How ``join`` connects: a link to a host that keeps the session token on disk
    (``tokens``), so that this client started again after a crash resumes its seats, holding
    the host to ``key`` at ``address`` (a key or fingerprint given out of band), else to the
    key its LAN announcement carried, else to the one remembered or told on first contact
    (docs/security.md)."""
    from cardparty.client.lan_hosts import announced_key
    from cardparty.client.net_link import NetLink
    from cardparty.net.wire.address import maybe_address

    store = tokens if tokens is not None else TokenStore()
    pinned = maybe_address(address) if address else None

    def connect(who: str, where: str) -> Link:
        same = pinned is not None and maybe_address(where) == pinned
        return NetLink(where, who, tokens=store, host_key=key if same else announced_key(where))

    return connect


def join(address: str | None, name: str, ascii_only: bool = False, mouse: bool = True,
         discovery: bool = True, bell: bool = False, key: str | None = None,
         line: bool = False, four_colour: bool = False) -> int:
    """``cardparty join``: the start screen (with the hosts found on the LAN unless
    ``discovery`` is off), or straight to ``address`` when given (``key``: its key or
    fingerprint, given out of band)."""
    from cardparty.net.wire.address import AddressError, address_problem, read_address

    if address:
        try:
            address = read_address(address).shown
        except AddressError as exc:
            return refuse("join", exc)
    connect = connector(address=address, key=key)
    try:
        check_terminal()
    except LaunchError as exc:
        return refuse("join", exc, 1)
    problem = name_problem(name) if address else None
    if address and problem is None:
        link = connect(name, address)
        controller = Controller(link, name=name, address=address, connect=connect,
                                describe=describer, check_address=address_problem)
        controller.bell = bell
        controller.four_colour = four_colour
        return run_client(controller, link, ascii_only=ascii_only, mouse=mouse, line=line)
    controller = Controller(None, name=name, address=address or "", connect=connect,
                            describe=describer, check_address=address_problem)
    controller.bell = bell
    controller.four_colour = four_colour
    if problem:                       # a name no host takes: said before anything connects
        controller.error = problem
    return run_client(controller, None, ascii_only=ascii_only, mouse=mouse,
                      discovery=discovery, line=line)
