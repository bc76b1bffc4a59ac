"""``cardparty hosts``: the hosts that answer on the LAN (DNS-SD ``_cardparty._tcp``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from cardparty.core.i18n import _
from cardparty.net.discovery import browse


def add_parser(sub: Any) -> None:
    p = sub.add_parser("hosts", help=_("list the cardparty hosts on the LAN"))
    p.add_argument("--seconds", type=float, default=3.0, help="how long to listen")
    p.add_argument("--json", action="store_true", help="one JSON object per host")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    hosts = browse(max(0.5, min(args.seconds, 30.0)))
    for h in hosts:
        if args.json:
            print(json.dumps({"name": h.name, "address": h.endpoint, "games": list(h.games),
                              "version": h.version, "key": h.key}))
        else:
            print(f"{h.name:<30} {h.endpoint:<22} {', '.join(h.games)}")
    if not hosts and not args.json:
        print("no host answered; 'cardparty join ADDRESS:PORT' works without discovery")
    return 0
