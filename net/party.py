"""A peer's life in its party: the roles one process plays in turn, without a command (docs/
operating.md, "A party's peers").

Owns: ``Party``, the loop of roles of one ``cardparty host`` process:

- **seek**: at its start, a peer that knows other peers of its party (``--standby-for``, or the
  ``peers`` its store kept from before) asks them who serves, and stands by that host; a peer
  that knows none, or that no peer answered within ``ALONE`` seconds while it holds its own
  files, serves;
- **standby** (net/peers/standby.py): a copy kept, or a place in the queue of peers waiting; it ends
  with a takeover;
- **host** (net/host/node.py): served until it ends: stopped (the process ends), handed over to
  its standby (``handover`` in the console: it stands by the new host; Ctrl-C or SIGTERM: it
  leaves), stood down to a host of a higher epoch that called it after a split (it stands by
  that host), or met an old host that stood down (its rows carried in, net/peers/merge.py, and the
  host built again on the same socket).

So a host that hands over, comes back after a kill, or comes out of a stall rejoins as a
standby of whoever serves now, and a party whose two machines are up has a standby again within
seconds of any one failure.

Must not know about: the terminal (the command line hands in how a host is made and served:
``make_host``, ``serve``, and ``say`` for its lines), how a host serves or a standby copies.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardparty.net.host.node import HandedOver, Heal, Host, StoodDown
from cardparty.net.peers.merge import drop_forkpoint, heal, read_forkpoint
from cardparty.net.peers.standby import Alone, Standby, Takeover
from cardparty.net.store import StoreError
from cardparty.net.trust.guests import Guests
from cardparty.net.trust.keys import KeyPair, fingerprint, public_key, same_fingerprint
from cardparty.net.wire.address import AddressError, HostAddress, read_address

if TYPE_CHECKING:
    from cardparty.core.discovery import Catalog

log = logging.getLogger("cardparty.host")

#: Seconds a peer that holds its own files waits for any other peer of its party to answer
#: before it serves from them (every other laptop is off: it is the party).
ALONE = 10.0


@dataclass(frozen=True)
class Where:
    """Where this peer is: its ZeroMQ bind endpoint, the address players reach it at once it
    serves (None: its address towards the host it stands by, and the bind's port), its name,
    its data directory and the limits its door lets guests in by."""

    bind: str
    serves: HostAddress | None
    name: str
    data: Path
    guests: Guests


class Party:
    """See the module docstring. ``first``: the host (and its key) the command line named
    (``--standby-for``), or None; ``make_host(takeover, catalog)``: the host this process
    serves as (from its own files when ``takeover`` is None), or the exit status when it
    cannot start; ``serve(host)``: runs it until it ends, and returns the exit status;
    ``say`` and ``show``: how its lines are told (the second for the one that says where it
    stands by)."""

    def __init__(self, where: Where, keys: KeyPair, first: tuple[HostAddress, bytes] | None,
                 make_host: Callable[[Takeover | None, Catalog | None], Host | int],
                 serve: Callable[[Host], int], say: Callable[[str], None],
                 show: Callable[[str], None] | None = None) -> None:
        self.where = where
        #: the line that says where this peer is (standard output: what scripts read), and
        #: the rest (standard error)
        self.show = show or say
        self.keys = keys
        self.first = first
        self.make_host = make_host
        self.serve = serve
        self.say = say
        self.catalog: Catalog | None = None
        self._standby: Standby | None = None
        self._host: Host | None = None
        self._stopping = threading.Event()

    # --- what the store knows of the party ---------------------------------------------------

    def known(self) -> list[tuple[HostAddress, bytes]]:
        """The other peers of the party this peer's files name, with where they serve."""
        return known_peers(self.where.data, self.keys)

    def holds_files(self) -> bool:
        return (self.where.data / "host.sqlite3").exists()

    @staticmethod
    def say_on_stderr(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    # --- the roles ---------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop whichever role runs now (Ctrl-C, SIGTERM): a host hands the party over."""
        self._stopping.set()
        if self._standby is not None:
            self._standby.stop()
        if self._host is not None:
            self._host.stop(timeout=0)

    def run(self) -> int:
        """The roles, until the process stops; the exit status."""
        known = self.known()
        target: tuple[HostAddress, bytes] | None = self.first or (known[0] if known else None)
        others = [k for k in known if target is None or k[0] != target[0]]
        alone = ALONE if self.first is None and self.holds_files() else None
        host: Host | int | None = None
        if target is None:
            host = self.make_host(None, None)
        while not self._stopping.is_set():
            if host is None:
                assert target is not None
                took = self.stand_by(target, others, alone)
                alone = None
                if isinstance(took, int):
                    return took
                if took is None:
                    return 0
                with collector_paused():
                    host = self.make_host(None if isinstance(took, Alone) else took,
                                          self.catalog)
                if isinstance(took, Takeover) and not isinstance(host, int):
                    self.say(f"cardparty host: took over from {target[0].shown} as epoch "
                             f"{took.epoch}")
            if isinstance(host, int):
                return host
            self.catalog = host.catalog
            self._host = host
            status = self.serve(host)
            self._host = None
            outcome = host.outcome
            if isinstance(outcome, Heal):
                host = self.carry_in(host, outcome)
            elif isinstance(outcome, StoodDown) or (isinstance(outcome, HandedOver)
                                                    and not self._stopping.is_set()):
                target, others, host = (outcome.serves, outcome.key), self.known(), None
                self.say(f"cardparty host: stands by the party's host at "
                         f"{outcome.serves.shown} now")
            else:
                return status
        return 0

    def stand_by(self, target: tuple[HostAddress, bytes],
                 others: list[tuple[HostAddress, bytes]], alone: float | None
                 ) -> Takeover | Alone | int | None:
        """Stand by ``target`` (and look at ``others`` when it is lost) until a takeover (its
        ``Takeover``), no answer from anybody (``Alone``), a stop (None) or a failure (the
        exit status)."""
        if self.catalog is None:
            self.catalog = ready_to_serve()
        where = self.where
        host, key = target
        serves = where.serves or HostAddress(toward(host), int(where.bind.rsplit(":", 1)[1]))
        try:
            standby = Standby(host, key, where.data, self.keys, serves, where.bind, where.name,
                              guests=where.guests, others=others, alone_after=alone)
        except StoreError as exc:
            self.say(f"cardparty host: error: {exc}")
            return 2
        except Exception as exc:
            self.say(f"cardparty host: error: cannot listen on {where.bind}: {exc}")
            return 1
        if serves.port == 0:            # --port 0: the port the system chose
            standby.serves = HostAddress(serves.host, int(standby.address.rsplit(":", 1)[1]))
        self._standby = standby
        if self._stopping.is_set():
            standby.stop()
        self.show(f"cardparty host: stands by the host at {host.shown} (key "
                  f"{fingerprint(key)}), serving at {standby.serves.shown} once it takes over")
        self.say(f"cardparty host: this peer's key fingerprint {self.keys.fingerprint} (its "
                 f"party's host takes it with --standby-key {self.keys.fingerprint})")
        try:
            return standby.run()
        finally:
            self._standby = None

    def carry_in(self, old: Host, healed: Any) -> Host | int:
        """The heal, the higher host's side: what the lower did after the fork carried into
        this host's files (net/peers/merge.py), then the host built again from them on the same
        socket, as after a restart; its players say hello again and find every table."""
        data = self.where.data
        forkpoint = read_forkpoint(data)
        if forkpoint is None:
            self.say("cardparty host: error: no fork point kept: the old host's rows are not "
                     "carried in")
        else:
            done = heal(data, forkpoint, healed.copies)
            self.say(f"cardparty host: healed: {len(done.taken)} tables of the old host "
                     f"carried in ({', '.join(done.taken) or 'none'}), {len(done.kept)} kept "
                     f"as here, {done.ledger_rows} ledger rows, names renamed "
                     f"{done.renamed_names or 'none'}")
            drop_forkpoint(data)
            # What the old host answered about a table kept as here, or carried in under
            # another id, never happened here: those replies are not told.
            healed.memo.without(set(done.kept) | set(done.renamed_tables))
        for db in healed.copies.values():
            db.close()
        return self.make_host(old.keep_socket(), old.catalog)


def _peer_rows(data: Path) -> list[tuple[str, str, str]]:
    """(fingerprint, key, serves) of the peers the files in ``data`` name with a key, read
    without writing (no host runs on the files yet)."""
    path = data / "host.sqlite3"
    if not path.exists():
        return []
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return [(str(f), str(k), str(s)) for f, k, s in db.execute(
                "SELECT fingerprint, key, serves FROM peers WHERE key != '' "
                "ORDER BY since DESC")]
    except sqlite3.Error:
        return []


def known_peers(data: Path, keys: KeyPair) -> list[tuple[HostAddress, bytes]]:
    """The other peers of the party the files in ``data`` name, with where they serve."""
    out = []
    mine = keys.public.decode()
    for _fp, key, serves in _peer_rows(data):
        if key == mine or not serves:
            continue
        with contextlib.suppress(AddressError, ValueError):
            out.append((read_address(serves), public_key(key)))
    return out


def peer_key(data: Path, where: HostAddress, pinned: str | None) -> bytes | None:
    """The key of the peer at ``where`` (or whose fingerprint is ``pinned``) as the files in
    ``data`` know it from before: a peer started again with its first contact's address needs
    no answer from that machine (it may be down, or not serve)."""
    for fp, key, serves in _peer_rows(data):
        if (pinned is not None and same_fingerprint(pinned, fp)) or (
                pinned is None and serves == where.shown):
            with contextlib.suppress(ValueError):
                return public_key(key)
    return None


def toward(host: HostAddress) -> str:
    """This machine's address on the way to ``host`` (no packet is sent)."""
    import socket

    family = socket.AF_INET6 if host.ipv6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((host.host, host.port))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def ready_to_serve() -> Catalog:
    """What the host a standby becomes would otherwise make as it takes over, made while it
    waits: the installed games (their plugins imported and checked: most of a takeover's time
    when measured) and the tables that check players' names. They live as long as the process,
    so they are set aside from the garbage collector (``gc.freeze``): a collection during the
    takeover's build no longer walks them."""
    from cardparty.core.discovery import load_catalog
    from cardparty.net.names.safetext import name_problem

    name_problem("cardparty")
    catalog = load_catalog()
    gc.collect()
    gc.freeze()
    return catalog


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic garbage collection while the host a standby becomes is built: the build
    makes a few objects per card of every table kept, and the collections that set off walked
    everything the process holds, its copies' tables included (measured on 200 tables kept: a
    build of 0.08 s took 0.1 to 0.6 s with them). Collection goes on after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def on_signals(party: Party) -> None:
    """Ctrl-C and SIGTERM stop the party's current role (a host hands over and leaves)."""
    def stop(*_: object) -> None:
        party.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
