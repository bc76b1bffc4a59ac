"""``cardparty hosts``: the hosts that answer on the LAN (DNS-SD ``_cardparty._tcp``), each
with the fingerprint of the key it announces and whether that key is known, new or changed to
this player (net/trust/known_hosts.py), and a warning for two hosts a player could take for one
another (docs/security.md, first contact); ``--forget`` drops a remembered host key."""

from __future__ import annotations

import argparse
import json
from typing import Any

from cardparty.client.commands.refusal import refuse
from cardparty.client.lan_hosts import lookalike_warnings
from cardparty.core.i18n import _
from cardparty.net.names.safetext import safe
from cardparty.net.player.discovery import browse
from cardparty.net.trust.known_hosts import KnownHosts
from cardparty.net.wire.address import address_problem, maybe_address


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
        return forget(known, args.forget)
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
    if not args.json:
        for warning in lookalike_warnings(hosts, known):
            print(warning)
    if not hosts and not args.json:
        print("no host answered; 'cardparty join ADDRESS:PORT' works without discovery")
    return 0


def forget(known: KnownHosts, given: str) -> int:
    """``--forget``: an address read as ``join`` reads it (``kitchen`` is ``kitchen:7770``),
    or a fingerprint; a text that is neither is refused in one line."""
    address = maybe_address(given)
    if (address is not None and known.forget(address.shown)) or known.forget(given):
        print(_("forgot {address}: its key is taken as new on the next connection").format(
            address=address.shown if address is not None else given.strip()))
        return 0
    problem = address_problem(given)     # a fingerprint (abcd-efgh-...) reads as a name
    if problem is not None:
        return refuse("hosts", problem)
    return refuse("hosts", _("no remembered host key for {address} (in {path})").format(
        address=address.shown if address is not None else given.strip(), path=known.path), 1)
