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
import contextlib
import gc
import signal
import socket
import sys
from collections.abc import Iterator
from typing import Any

from cardparty.client.commands.host import fail, guests_of, serve, start
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


def run_standby(args: argparse.Namespace, found: Any, settings: Any) -> int:
    """``--standby-for``: a standby first, then the host it becomes (``run_roles``)."""
    from cardparty.net.hostkey import expect
    from cardparty.net.known_hosts import HostKeyError, KnownHosts

    try:
        host = read_address(args.standby_for)
    except AddressError as exc:
        return fail(exc.message, 2)
    try:
        expected = expect(host.endpoint, args.host_key, KnownHosts(), 3.0)
    except HostKeyError as exc:
        return fail(exc.message, 2)
    except ConnectionError as exc:
        return fail(f"cannot learn the key of the host at {host.shown}: {exc} (give "
                    "--host-key)", 1)
    return run_roles(args, found, settings, None, (host, expected.key))


def run_roles(args: argparse.Namespace, found: Any, settings: Any, host: Any,
              standby_of: tuple[HostAddress, bytes] | None) -> int:
    """The roles one process plays in turn, until it stops: a host (``host``, or the one a
    standby became) served until it ends; a host that met a lower one's files carries them in
    and serves again on the same socket; a host that yielded to a higher one becomes its
    standby (``standby_of``), and a standby that takes over becomes a host. The exit
    status."""
    from cardparty.net.host.node import Heal, StoodDown
    from cardparty.net.keys import fingerprint

    approved = args.standby_key
    catalog = None if host is None else host.catalog
    while True:
        if host is None:
            assert standby_of is not None
            if catalog is None:
                catalog = ready_to_serve()
            took = be_standby(args, found.pair, *standby_of)
            if isinstance(took, int):
                return took
            if took is None:
                return 0
            # The old host may come back as this host's standby: its key is the one
            # approved, unless the operator approved another.
            approved = args.standby_key or fingerprint(standby_of[1])
            with collector_paused():
                host = start(args, found.pair, settings, takeover=took, standby_key=approved,
                             catalog=catalog)
            if isinstance(host, int):
                return host
            catalog = host.catalog
            print(f"cardparty host: took over from {standby_of[0].shown} as epoch "
                  f"{took.epoch}", flush=True)
        status = int(serve(host, args, found))
        out = host.outcome
        if isinstance(out, Heal):
            host = carry_in(args, found.pair, settings, host, out, approved)
            if isinstance(host, int):
                return host
        elif isinstance(out, StoodDown):
            standby_of, host = (out.serves, out.key), None
        else:
            return status


def carry_in(args: argparse.Namespace, keys: Any, settings: Any, old: Any, healed: Any,
             approved: str | None) -> Any:
    """The heal, the higher host's side: what the lower did after the fork carried into
    this host's files (net/merge.py), then the host built again from them on the same
    socket, as after a restart; its players say hello again and find every table."""
    from cardparty.net.merge import drop_forkpoint, heal, read_forkpoint
    from cardparty.net.standby import Takeover

    forkpoint = read_forkpoint(args.data)
    if forkpoint is None:
        print("cardparty host: error: no fork point kept: the old host's files are not "
              "carried in", file=sys.stderr, flush=True)
    else:
        done = heal(args.data, forkpoint, healed.images)
        print(f"cardparty host: healed: {len(done.taken)} tables of the old host carried in "
              f"({', '.join(done.taken) or 'none'}), {len(done.kept)} kept as here, "
              f"{done.ledger_rows} ledger rows, names renamed {done.renamed_names or 'none'}",
              file=sys.stderr, flush=True)
        drop_forkpoint(args.data)
    memo = {p.token: p.replies for p in old.parts.players.by_token.values() if p.replies}
    take = Takeover(old._ctx, old._guard, old._sock, old.address,
                    old.parts.succession.word.epoch, 0, True, True, [], memo)
    return start(args, keys, settings, takeover=take, standby_key=approved,
                 catalog=old.catalog)


def ready_to_serve() -> Any:
    """What the host a standby becomes would otherwise make as it takes over, made while
    it waits: the installed games (their plugins imported and checked: most of a takeover's
    time when measured) and the tables that check players' names. They live as long as the
    process, so they are set aside from the garbage collector (``gc.freeze``): a collection
    during the takeover's build no longer walks them."""
    from cardparty.core.discovery import load_catalog
    from cardparty.net.safetext import name_problem

    name_problem("cardparty")
    catalog = load_catalog()
    gc.collect()
    gc.freeze()
    return catalog


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic garbage collection while the host a standby becomes is built: the
    build makes a few objects per card of every table kept, and the collections that set off
    walked everything the process holds, its copies' tables included (measured on 200 tables
    kept: a build of 0.08 s took 0.1 to 0.6 s with them). Collection goes on after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def be_standby(args: argparse.Namespace, keys: Any, host: HostAddress, key: bytes) -> Any:
    """The standby of ``host`` until it takes over: its ``Takeover``, None when stopped, or
    the exit status when it cannot start."""
    from cardparty.net.keys import fingerprint
    from cardparty.net.standby import Standby
    from cardparty.net.store import StoreError

    try:
        serves = (read_address(args.serves, args.port or 7770) if args.serves
                  else HostAddress(toward(host), args.port))
    except AddressError as exc:
        return fail(exc.message, 2)
    bind = args.bind if args.bind.startswith("tcp://") else f"tcp://{args.bind}"
    try:
        standby = Standby(host, key, args.data, keys, serves, f"{bind}:{args.port}",
                          args.name, guests=guests_of(args))
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
    print(f"cardparty host: standby of {host.shown} (key {fingerprint(key)}), serving at "
          f"{serves.shown} once it takes over", flush=True)
    print(f"cardparty host: key fingerprint {keys.fingerprint} (approve it on the host: "
          f"--standby-key {keys.fingerprint})", file=sys.stderr, flush=True)
    return standby.run()
