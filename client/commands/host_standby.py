"""``cardparty host --standby-for ADDRESS[:PORT]``: a standby peer, then the host it becomes.

Owns: the standby's life on the command line: where its host is and which key it holds it to
(``--host-key``, else the key met there before, else the one the host's key desk shows: trust
on first use, as a player's client), where players will reach it (``--serves``, else its own
address towards the host and ``--port``), the lines it prints (its key's fingerprint, for the
host's operator to approve with ``--standby-key``), and, once it takes over, the host built
from its copy exactly as a restart (``host.start`` and ``host.serve`` with the takeover), which
takes its old host as its own standby unless told another (``--standby-key``): the old
machine may come back as the standby of the new host, and a second failover works.

Must not know about: how a standby keeps its copy (net/standby.py), how a host serves.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from typing import Any

from cardparty.client.commands.host import fail, serve, start
from cardparty.net.address import AddressError, HostAddress, read_address


def toward(host: HostAddress) -> str:
    """This machine's address on the way to ``host`` (no packet is sent)."""
    family = socket.AF_INET6 if host.ipv6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((host.host, host.port))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def run_standby(args: argparse.Namespace, keys: Any) -> int:
    """The standby until it takes over (then the host it became, until stopped), or until
    Ctrl-C or SIGTERM; the exit status."""
    from cardparty.net.hostkey import expect
    from cardparty.net.keys import fingerprint
    from cardparty.net.known_hosts import HostKeyError, KnownHosts
    from cardparty.net.standby import Standby
    from cardparty.net.store import StoreError

    try:
        host = read_address(args.standby_for)
        serves = (read_address(args.serves, args.port or 7770) if args.serves
                  else HostAddress(toward(host), args.port))
    except AddressError as exc:
        return fail(exc.message, 2)
    try:
        expected = expect(host.endpoint, args.host_key, KnownHosts(), 3.0)
    except HostKeyError as exc:
        return fail(exc.message, 2)
    except ConnectionError as exc:
        return fail(f"cannot learn the key of the host at {host.shown}: {exc} (give "
                    "--host-key)", 1)
    bind = args.bind if args.bind.startswith("tcp://") else f"tcp://{args.bind}"
    try:
        standby = Standby(host, expected.key, args.data, keys, serves,
                          f"{bind}:{serves.port if args.port == 0 else args.port}", args.name)
    except StoreError as exc:
        return fail(str(exc), 2)
    except Exception as exc:
        return fail(f"cannot listen on {bind}:{args.port}: {exc}", 1)
    if serves.port == 0:            # --port 0: the port the system chose
        standby.serves = HostAddress(serves.host, int(standby.address.rsplit(":", 1)[1]))
        serves = standby.serves

    def stop(*_: object) -> None:
        standby.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"cardparty host: standby of {host.shown} (key {fingerprint(expected.key)}), "
          f"serving at {serves.shown} once it takes over", flush=True)
    print(f"cardparty host: key fingerprint {keys.fingerprint} (approve it on the host: "
          f"--standby-key {keys.fingerprint})", file=sys.stderr, flush=True)
    took = standby.run()
    if took is None:
        return 0
    # The old host may come back as this host's standby: its key is the one approved,
    # unless the operator approved another.
    new = start(args, keys, takeover=took, standby_key=args.standby_key
                or fingerprint(expected.key))
    if isinstance(new, int):
        return new
    print(f"cardparty host: took over from {host.shown} as epoch {took.epoch}", flush=True)
    return int(serve(new, args, keys))
