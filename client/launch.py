"""How the terminal client starts: against bots with a host in this process (``cardparty
play``), or joining a host (``cardparty join``). Builds the link, the controller and the
application, and runs them until the player quits.

Must not know about: game rules, the wire (``net_link`` does).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from cardparty.client.app import build_app, run_async
from cardparty.client.controller import Controller
from cardparty.client.link import Link
from cardparty.client.words import describer
from cardparty.core.discovery import load_catalog


class LaunchError(RuntimeError):
    """The client could not start; ``str()`` is the one line to print."""


def check_terminal() -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise LaunchError("the client needs a terminal (stdin and stdout must be a tty)")


def run_client(controller: Controller, link: Link | None, *, ascii_only: bool = False,
               mouse: bool = True) -> int:
    """Run the full-screen client on this terminal until the player quits."""
    app, inbox = build_app(controller, ascii_only=ascii_only, mouse=mouse)
    start = None
    if link is not None:
        def start() -> None:
            link.start(inbox.deliver)
    try:
        asyncio.run(run_async(app, inbox, start))
    finally:
        if controller.link is not None:
            controller.link.close()
    return 0


def play_against_bots(game: str = "pika", players: int | None = None, bots: str = "basic",
                      name: str = "You", seed: int | None = None, ascii_only: bool = False,
                      mouse: bool = True) -> int:
    """``cardparty play``: one table of ``game``, this player in seat 0, bots elsewhere."""
    catalog = load_catalog()
    try:
        info = catalog.game(game)
    except KeyError as exc:
        print(f"cardparty play: {exc.args[0]}", file=sys.stderr)
        return 2
    n = players or info.max_players
    if not info.min_players <= n <= info.max_players:
        print(f"cardparty play: {info.name} is for {info.min_players} to {info.max_players} "
              f"players, not {n}", file=sys.stderr)
        return 2
    try:
        check_terminal()
    except LaunchError as exc:
        print(f"cardparty play: {exc}", file=sys.stderr)
        return 1
    link: Any
    from cardparty.client.local_link import LocalLink
    link = LocalLink(game, n, 0, seed=seed if seed is not None else 1, name=name,
                     bot_level=bots)
    controller = Controller(link, name=name, address="in-process", describe=describer)
    return run_client(controller, link, ascii_only=ascii_only, mouse=mouse)
