"""``cardparty join [ADDRESS]``: the terminal client for a host on the LAN.

Without an address it opens the start screen (your name, the host's address, and the hosts
found on the LAN by DNS-SD unless ``--no-discovery``); with one it connects at once. ADDRESS
is ``host``, ``host:port`` or ``tcp://host:port`` (default port 7770). ``--key`` pins the
host's key (its fingerprint as the host prints it, or the whole key) given out of band: a host
that shows another key is refused (docs/security.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from cardparty.client.commands.play import default_name
from cardparty.core.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser("join", help=_("join a host on the LAN with the terminal client"))
    p.add_argument("address", nargs="?", default=None,
                   help=_("the host's address, e.g. 192.168.1.20 or 192.168.1.20:7770"))
    p.add_argument("--name", default=None, help=_("your name at the host"))
    p.add_argument("--ascii", action="store_true", help=_("no Unicode symbols (plain ASCII)"))
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    p.add_argument("--key", default=None, metavar="FINGERPRINT",
                   help=_("the host's key fingerprint (as 'cardparty host' prints it): refuse "
                          "a host that shows another key"))
    p.add_argument("--line", action="store_true",
                   help=_("the line mode, for a screen reader or a braille display: what "
                          "happens said in plain lines, moves and commands typed"))
    p.add_argument("--four-colour", "--four-color", action="store_true", dest="four_colour",
                   help=_("French cards in four colours: ♠ black, ♥ red, ♦ blue, ♣ green"))
    p.add_argument("--bell", action="store_true",
                   help=_("ring the terminal bell and set the window title when it is your "
                        "turn (key B toggles it)"))
    p.add_argument("--no-discovery", action="store_true",
                   help=_("do not search the LAN for hosts (type the address)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from cardparty.client.launch import join
    from cardparty.net.trust.hostkey import split_given
    from cardparty.net.trust.known_hosts import HostKeyError

    if args.key is not None:
        if args.address is None:
            print("cardparty join: --key needs the host's ADDRESS", file=sys.stderr)
            return 2
        try:
            split_given(args.key)
        except HostKeyError as exc:
            print(f"cardparty join: {exc.message}", file=sys.stderr)
            return 2
    if args.name:
        name = args.name
    elif args.address is None:                 # the start screen: the name used last time
        from cardparty.client.tokens import TokenStore

        name = TokenStore().last_name()
    else:
        name = default_name()
    return join(args.address, name, ascii_only=args.ascii, mouse=not args.no_mouse,
                discovery=not args.no_discovery, bell=args.bell, key=args.key,
                line=args.line, four_colour=args.four_colour)
