"""``cardparty host``: run a headless host node in the foreground and print its address.

Everything it serves is ``cardparty.net.host.Host``; this module only reads the command line,
prints one line, and stops the host cleanly on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from pathlib import Path
from typing import Any

from cardparty.core.i18n import _
from cardparty.net.wire.protocol import DEFAULT_PORT


def add_parser(sub: Any) -> None:
    p = sub.add_parser("host", help=_("run a host node for tables on this machine"))
    p.add_argument("--bind", default="0.0.0.0",
                   help=_("address to listen on (default 0.0.0.0: every interface)"))
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=_("TCP port (default {port}; 0: any free port)").format(
                       port=DEFAULT_PORT))
    p.add_argument("--name", default="cardparty", help=_("the host's name shown to players"))
    p.add_argument("--data", default=None, metavar="DIR",
                   help=_("keep live tables in DIR/host.sqlite3 and reload them on start; the "
                        "host's key pair is kept there too (else in the user's data "
                        "directory)"))
    p.add_argument("--backup", default=None, metavar="FILE",
                   help=_("copy the store of --data DIR into FILE (SQLite's backup API: safe "
                        "while a host runs on it), then exit"))
    p.add_argument("--heartbeat", type=float, default=1.0,
                   help=_("heartbeat interval in seconds (default 1)"))
    p.add_argument("--idle", type=float, default=120.0,
                   help=_("default idle-turn timeout in seconds before a bot plays for an "
                        "absent player (default 120; 0: never)"))
    p.add_argument("--bot-delay", type=float, default=0.0,
                   help=_("seconds a host bot waits before moving (default 0)"))
    p.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help=_("processes hard bots think in, off the host's loop (default: one "
                          "fewer than the cores, at least one; 0: on the loop, to compare)"))
    p.add_argument("--records-kept", type=int, default=20_000, metavar="N",
                   help=_("game records kept at most; past it the oldest go first (default "
                          "20000; docs/operating.md)"))
    p.add_argument("--records-days", type=float, default=90.0, metavar="DAYS",
                   help=_("days a game record is kept (default 90)"))
    p.add_argument("--config", default=None, metavar="FILE",
                   help=_("the modes' and the economy's settings, a TOML file (docs/economy.md)"))
    p.add_argument("--no-economy", action="store_true",
                   help=_("keep no coins: tables pay nothing, and there are no profiles, "
                          "league, shop or entry tables (docs/economy.md)"))
    p.add_argument("--fill-timeout", type=float, default=None, metavar="SECONDS",
                   help=_("seconds an open table waits for players before bots fill it, and an "
                        "entry table before it is cancelled (default 30; wins over --config)"))
    p.add_argument("--advertise", action=argparse.BooleanOptionalAction, default=None,
                   help=_("announce the host on the LAN by DNS-SD (default: yes unless bound "
                        "to loopback)"))
    p.add_argument("--testing", action="store_true",
                   help=_("let clients choose a deal's seed and deck (for tests; every player "
                        "is shown that this host runs for tests)"))
    p.add_argument("--standby-key", action="append", default=[], metavar="FINGERPRINT",
                   help=_("a peer of this party (repeatable): the machine whose key has this "
                          "fingerprint (it prints it when it starts) may keep a copy of "
                          "everything and take over when this host leaves; kept with the "
                          "party's data, so every host of the party knows it (needs --data; "
                          "docs/operating.md)"))
    p.add_argument("--standby-for", default=None, metavar="ADDRESS[:PORT]",
                   help=_("join the party served at ADDRESS as a peer: keep a copy of it in "
                          "--data and serve every table when its host leaves"))
    p.add_argument("--host-key", default=None, metavar="FINGERPRINT",
                   help=_("with --standby-for: the host's key fingerprint (else the one met "
                          "there before, or the one it shows)"))
    p.add_argument("--serves", default=None, metavar="ADDRESS[:PORT]",
                   help=_("with --standby-for: where players reach this machine (default: its "
                          "address towards the host, and --port)"))
    p.add_argument("--organiser", action="append", default=[], metavar="NAME",
                   help=_("a player who may create events (repeatable; '*': every player)"))
    p.add_argument("--no-curve", action="store_true", help=argparse.SUPPRESS)  # bench only
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"),
                   help=_("what the host reports on stderr (default info: tables and players)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The host of the command line: its arguments checked, its store backed up (``--backup``)
    or its host started and served until Ctrl-C or SIGTERM; the exit status."""
    import logging

    problem = arguments_problem(args)
    if problem:
        return fail(problem, 2)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="cardparty host: %(levelname)s %(message)s")
    if args.backup is not None:
        return back_up(args)
    # A peer of a party (--data) tells its key on the next port only when it is free (it
    # may stand by first, beside another host): only its own port is looked at.
    problem = data_problem(args.data) or ports_problem(args.bind, args.port,
                                                       desk=args.data is None)
    if problem:
        return fail(problem, 2)
    settings = host_settings(args)
    if isinstance(settings, int):
        return settings
    from cardparty.net.trust.keys import KeyFileError, host_key_file

    try:
        found = host_key_file(args.data)
    except (KeyFileError, OSError) as exc:
        return fail(str(exc), 1)
    if args.data is None:
        host = start(args, found.pair, settings)
        if isinstance(host, int):
            return host
        return serve(host, args, found)
    return run_party(args, found, settings)


def run_party(args: argparse.Namespace, found: Any, settings: Any) -> int:
    """A host that keeps its data is a peer of its party (net/party.py): it seeks who serves,
    stands by, takes over, serves, and rejoins, without another command."""
    from cardparty.net.party import Party, Where, known_peers, on_signals, peer_key
    from cardparty.net.wire.address import AddressError, read_address

    try:
        serves = read_address(args.serves, args.port or 7770) if args.serves else None
    except AddressError as exc:
        return fail(exc.message, 2)
    bind = args.bind if args.bind.startswith("tcp://") else f"tcp://{args.bind}"
    where = Where(f"{bind}:{args.port}", serves, args.name, Path(args.data), guests_of(args))
    say = Party.say_on_stderr
    first = None
    if args.standby_for is not None:
        from cardparty.net.trust.hostkey import expect
        from cardparty.net.trust.known_hosts import HostKeyError, KnownHosts

        try:
            target = read_address(args.standby_for)
        except AddressError as exc:
            return fail(exc.message, 2)
        # The party's files may know that peer's key already (a peer started again with its
        # unchanged command line): its machine need not answer, nor even be up.
        known = peer_key(where.data, target, args.host_key)
        if known is not None:
            first = (target, known)
        else:
            try:
                first = (target, expect(target.endpoint, args.host_key, KnownHosts(), 3.0).key)
            except HostKeyError as exc:
                return fail(exc.message, 2)
            except ConnectionError as exc:
                if not known_peers(where.data, found.pair):
                    return fail(f"cannot learn the key of the host at {target.shown}: {exc} "
                                "(give --host-key)", 1)
                say(f"cardparty host: the host at {target.shown} does not answer; looking "
                    "for the party's host among the peers this machine knows")
    named = any(a == "--name" or a.startswith("--name=") for a in sys.argv)

    def make_host(takeover: Any, catalog: Any) -> Any:
        name = args.name
        if takeover is not None and takeover.name and not named:
            name = takeover.name            # the party's name, not this laptop's default
        return start(args, found.pair, settings, takeover=takeover, catalog=catalog,
                     name=name)

    party = Party(where, found.pair, first, make_host, lambda host: serve(host, args, found),
                  say, lambda line: print(line, flush=True))
    on_signals(party)
    return party.run()


def key_line(found: Any, took_over: bool = False) -> str:
    """The line saying the host's fingerprint, once it listens; a key pair made because none
    was in its place is said there too, so that the operator knows why clients that knew
    this host by another key refuse it (and a host refused at its start says only why). A
    peer that took over says nothing of it: its players learnt its key from their host."""
    line = (f"cardparty host: key fingerprint {found.pair.fingerprint} (players compare it "
            "with what their client shows)")
    if found.made and not took_over:
        line += (f"; a new key pair, made in {found.path.parent} (there was none): a client "
                 "that knew this host by another key refuses it until its player runs: "
                 "cardparty hosts --forget ADDRESS")
    return line


def fail(problem: str, status: int) -> int:
    """``problem`` said in one line on stderr; ``status``, the exit status."""
    print(f"cardparty host: error: {problem}", file=sys.stderr)
    return status


def arguments_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the numbers given (None: nothing)."""
    if args.bot_workers is not None and args.bot_workers < 0:
        return "--bot-workers must be 0 or more (0: hard bots think on the host's loop)"
    if not (args.port == 0 or 1 <= args.port <= 65534):
        # The key desk listens on the next port: 65535 has none after it.
        return _("--port {port}: a port from 1 to 65534, or 0 for any free one (the host "
                 "also listens on the next port, where clients ask for its key)").format(
            port=args.port)
    if args.heartbeat <= 0:
        return "--heartbeat must be positive"
    if args.records_kept < 0 or args.records_days <= 0:
        return "--records-kept must be 0 or more and --records-days positive"
    if (args.standby_key or args.standby_for) and args.data is None:
        return ("a standby keeps a copy of the host's data and a host keeps its data for its "
                "standby: --standby-key and --standby-for need --data DIR")
    for key in args.standby_key:
        if sum(c.isalnum() for c in key) not in (16, 40):
            return (f"--standby-key {key!r} is not a fingerprint (16 letters and digits, as "
                    "the peer prints it)")
    return None


def back_up(args: argparse.Namespace) -> int:
    """``--backup FILE``: the store of ``--data`` copied, while a host may run on it."""
    from cardparty.net.store import StoreError, backup

    if args.data is None:
        return fail("--backup needs --data DIR", 2)
    try:
        out = backup(args.data, args.backup)
    except StoreError as exc:
        return fail(str(exc), 2)
    print(f"cardparty host: the store of {args.data} is copied to {out}", flush=True)
    return 0


def host_settings(args: argparse.Namespace) -> Any:
    """The modes' and the economy's settings (``--config``, ``--fill-timeout``), or the exit
    status when they are refused (said in one line)."""
    from cardparty.net.host.settings import HostSettings, SettingsError, from_map, load

    try:
        return (load(args.config, args.fill_timeout) if args.config
                else from_map({}, args.fill_timeout) if args.fill_timeout is not None
                else HostSettings())
    except SettingsError as exc:
        return fail(str(exc), 2)


def guests_of(args: argparse.Namespace) -> Any:
    """What one source address may take of the host the arguments describe
    (``config.Guests``): the host and the standby that becomes a host build their limits from
    this one value. No flag changes them today: the defaults, for every host."""
    from cardparty.net.trust.guests import Guests

    return Guests()


def start(args: argparse.Namespace, keys: Any, settings: Any, takeover: Any = None,
          catalog: Any = None, name: str | None = None) -> Any:
    """The host the arguments describe, its store and ledger opened from ``--data`` (the
    economy lives beside the tables; without, it lasts as long as the host), or the exit
    status when it cannot start (said in one line). ``catalog``: the installed games, when
    already loaded (a standby loads them while it waits: the takeover does not)."""
    from cardparty.core.economy.ledger import LedgerFileError
    from cardparty.net.host import Host
    from cardparty.net.store import StoreError

    bind = args.bind if args.bind.startswith("tcp://") else f"tcp://{args.bind}"
    economy = (None if args.no_economy else str(Path(args.data) / "economy.sqlite3")
               if args.data else ":memory:")
    try:
        return Host(f"{bind}:{args.port}", name or args.name, data=args.data,
                    economy=economy, keys=keys, heartbeat=args.heartbeat,
                    idle=args.idle or None, bot_delay=args.bot_delay, settings=settings,
                    curve=not args.no_curve, testing=args.testing,
                    bot_workers=args.bot_workers, peers=tuple(args.standby_key),
                    records_kept=args.records_kept, records_days=args.records_days,
                    takeover=takeover, catalog=catalog, guests=guests_of(args),
                    organisers=tuple(args.organiser))
    except (StoreError, LedgerFileError) as exc:   # damaged, foreign, newer, or in use
        return fail(str(exc), 2)
    except Exception as exc:           # the store could not be opened or read: one line
        where = f" with --data {args.data}" if args.data else ""
        return fail(f"cannot start{where}: {type(exc).__name__}: {exc}", 1)


def serve(host: Any, args: argparse.Namespace, found: Any) -> int:
    """Listen, say where (and the key's fingerprint), announce on the LAN, and run until
    Ctrl-C or SIGTERM stops the host cleanly (handing the party over to its standby when one
    is attached); on a terminal, the host's console reads commands (``host_console``)."""
    stopped: list[str] = []
    if host.standbys is None:              # a host without --data: Ctrl-C stops it
        def stop(signum: int, *frame: object) -> None:
            if not stopped:               # said once: the host may take a moment to close
                stopped.append("Ctrl-C" if signum == signal.SIGINT else "SIGTERM")
                print("\ncardparty host: " + _("{signal}: stopping ({kept})").format(
                    signal=stopped[0], kept=_("without --data, its tables go with it")),
                    file=sys.stderr, flush=True)
            host.stop()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    try:
        host.listen()
    except Exception as exc:
        import errno

        if getattr(exc, "errno", None) == errno.EADDRINUSE:   # taken since it was looked at
            return fail(in_use(host.bind, args.port, args.port), 1)
        return fail(f"cannot listen on {host.bind}: {exc}", 1)
    tables = f", {len(host.tables)} tables restored" if host.tables else ""
    print(f"cardparty host {host.name!r} listening on {host.address}{tables}", flush=True)
    print(key_line(found, host.takeover is not None), file=sys.stderr, flush=True)
    if args.testing:
        print("cardparty host: for tests: clients may choose deals, and every player is told",
              file=sys.stderr, flush=True)
    standbys = host.standbys
    if standbys is not None and standbys.party:
        print(f"cardparty host: the party's peers: {len(standbys.peers) - 1} besides this "
              "host; Ctrl-C hands the party over to the standby once one is attached",
              file=sys.stderr, flush=True)
    from cardparty.client.commands.host_console import Console

    console = Console.on_terminal(host)
    advertiser = advertise(args, host.port, sorted(host.catalog.games),
                           found.pair.public.decode(), host.name)
    try:
        host.run()
    finally:
        if console is not None:
            console.close()
        if advertiser is not None:
            advertiser.close()
    if stopped:
        print("cardparty host: " + _("stopped"), file=sys.stderr, flush=True)
    return 0


def data_problem(data: str | None) -> str | None:
    """Why ``--data`` cannot hold the host's tables (None when it can, or is not given): a
    missing directory is created; a file, or a database that is not one, is refused."""
    if data is None:
        return None
    import sqlite3
    from pathlib import Path

    path = Path(data)
    if path.exists() and not path.is_dir():
        return f"--data {data}: this is a file; give a directory (the host keeps " \
               "host.sqlite3 in it)"
    db = path / "host.sqlite3"
    if db.exists():
        try:
            with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
                con.execute("PRAGMA schema_version").fetchone()
        except sqlite3.Error as exc:
            return f"--data {data}: {db} is not a cardparty database ({exc}); move it away " \
                   "or give another directory"
    return None


def ports_problem(bind: str, port: int, desk: bool = True) -> str | None:
    """Why the host cannot listen on ``port`` (and, with ``desk``, the next one: its key
    desk) at ``bind``, found before anything is written (the data directory, the key pair): a
    port in use, an address this machine has not. None when they are free, or not known
    before listening (a port chosen by the system, an interface given by its name)."""
    import errno
    import ipaddress
    import socket

    address = bind.removeprefix("tcp://").strip("[]")
    address = "0.0.0.0" if address in ("*", "") else address
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(address).version == 6 \
            else socket.AF_INET
    except ValueError:
        return None
    if port == 0:
        return None
    for at in (port, port + 1) if desk else (port,):
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as ZeroMQ binds
            try:
                probe.bind((address, at))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return in_use(address, port, at)
                if exc.errno == errno.EADDRNOTAVAIL:
                    return _("--bind {address}: this machine has no such address").format(
                        address=address)
                return _("cannot listen on {address} port {port}: {reason}").format(
                    address=address, port=at, reason=exc.strerror or exc)
    return None


def in_use(address: str, port: int, at: int) -> str:
    """The one line for a port another program holds (``at``: the port itself, or the next
    one, where the host tells its key)."""
    if at == port:
        return _("port {port} is in use on {address}: is a host (or another program) "
                 "running there? Stop it, or choose another --port").format(port=port,
                                                                             address=address)
    return _("port {next} is in use on {address}: the host tells its key on the port after "
             "--port {port}; stop what holds it, or choose another --port").format(
        next=at, port=port, address=address)


def advertise(args: argparse.Namespace, port: int, games: list[str], key: str = "",
              name: str | None = None) -> Any:
    """Announce the host on the LAN (net/player/discovery.py), with the ``games`` it serves, unless
    it only listens on loopback.

    Discovery is a convenience: if it cannot start, say so in one line and serve anyway."""
    address = args.bind.removeprefix("tcp://")
    loopback = address.startswith("127.") or address in ("localhost", "::1")
    if args.advertise is False or (args.advertise is None and loopback):
        return None
    from cardparty.net.player.discovery import Advertiser, local_addresses

    addresses = local_addresses() if address in ("0.0.0.0", "*") else [address]
    try:
        advertiser = Advertiser(name or args.name, port, addresses, games, key=key)
    except Exception as exc:
        print(f"cardparty host: not announced on the LAN ({exc}); players can still join "
              f"with the address", file=sys.stderr)
        return None
    print(f"cardparty host: announced on the LAN as {name or args.name!r} "
          f"({', '.join(addresses) or 'no address'})", file=sys.stderr, flush=True)
    return advertiser
