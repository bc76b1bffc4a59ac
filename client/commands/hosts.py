"""``cardparty hosts``: the hosts that answer on the LAN (DNS-SD ``_cardparty._tcp``), each
with the fingerprint of the key it announces and whether that key is known, new or changed to
this player (net/known_hosts.py); ``--forget`` drops a remembered host key."""

from __future__ import annotations

import argparse
import json
from typing import Any

from cardparty.core.i18n import _
from cardparty.net.discovery import browse
from cardparty.net.known_hosts import KnownHosts
from cardparty.net.safetext import safe


def add_parser(sub: Any) -> None:
    p = sub.add_parser("hosts", help=_("list the cardparty hosts on the LAN"))
    p.add_argument("--seconds", type=float, default=3.0, help=_("how long to listen"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per host"))
    p.add_argument("--forget", metavar="ADDRESS", default=None,
                   help=_("forget the key remembered for ADDRESS (host:port) or for a "
                        "fingerprint, after its host made a new key on purpose"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    known = KnownHosts()
    if args.forget is not None:
        if known.forget(args.forget):
            print(f"forgot {args.forget}: its key is taken as new on the next connection")
            return 0
        print(f"no remembered host key for {args.forget} (in {known.path})")
        return 1
    hosts = browse(max(0.5, min(args.seconds, 30.0)))
    for h in hosts:
        fp, status = known.describe(h.endpoint, h.key)
        if args.json:
            print(json.dumps({"name": h.name, "address": h.endpoint, "games": list(h.games),
                              "version": h.version, "key": h.key, "fingerprint": fp,
                              "status": status}))
        else:
            print(f"{safe(h.name, 30):<30} {h.endpoint:<22} {fp or '-':<19} {status:<8} "
                  f"{safe(', '.join(h.games), 60)}")
    if not hosts and not args.json:
        print("no host answered; 'cardparty join ADDRESS:PORT' works without discovery")
    return 0
