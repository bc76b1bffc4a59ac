"""The fault bench's harness (bench/faults.py): machines in network namespaces on one LAN,
the party's peers started inside them with command lines that never change, faults done to
the network with nftables and ``ss``, and what the peers' logs say.

The LAN: a namespace of its own is the switch (a bridge); every machine is a namespace joined
to it by a veth pair, with an address ``SUBNET.n``. Loss and partitions are nftables rules in
the switch's bridge table (``numgen random mod 100 < P drop``; ``ip saddr X ip daddr Y
drop`` both ways): silent, as a LAN drops packets, where a drop in a machine's own output
would tell its sender at once. Resets are ``ss -K`` inside a machine. Nothing leaves these
namespaces: the addresses exist only inside them, and ``close`` removes every namespace (the
veths and nftables tables go with them).

The peers' command lines are written in one place (``command_lines``) and never changed
after: a peer killed or gone is started again with its own, as a party's laptop would be.
What the peers say is parsed by one small function per kind of line (``LINES``), so that the
bench follows the host's wording with one change each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from measure import PY

#: The LAN's addresses (inside the namespaces only).
SUBNET = "10.213.0"
#: The port every peer listens on (each machine has its own addresses).
PORT = 7770


class LanError(Exception):
    """The namespaces or nftables cannot be made here: why, in one line."""


def _run(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), input=stdin, capture_output=True, text=True, timeout=20)


def can_make() -> str | None:
    """Why the bench cannot make its LAN here (None: it can): root, ``ip``, ``nft``, ``ss``."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool, package in (("ip", "iproute2"), ("nft", "nftables"), ("ss", "iproute2")):
        if shutil.which(tool) is None:
            return f"no {tool} here (apt-get install {package})"
    return None


class Lan:
    """Machines (namespaces) named ``names`` on one switch; ``up`` makes them."""

    def __init__(self, names: list[str]) -> None:
        self.tag = uuid.uuid4().hex[:5]
        self.switch = f"fbsw{self.tag}"
        self.ns = {name: f"fb{name}{self.tag}" for name in names}
        self.ip = {name: f"{SUBNET}.{i + 1}" for i, name in enumerate(names)}
        self.made: list[str] = []
        #: machine -> percent of its packets (each way) lost
        self.loss: dict[str, int] = {}
        #: pairs of machines that cannot reach each other
        self.cuts: set[frozenset[str]] = set()
        self._lock = threading.Lock()

    def up(self) -> None:
        try:
            self._ns(self.switch)
            self._ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
            self._ip("-n", self.switch, "link", "set", "br0", "up")
            for n, (name, ns) in enumerate(self.ns.items()):
                self._ns(ns)
                dev = f"fbv{n}{self.tag}"
                self._ip("link", "add", dev, "netns", ns, "type", "veth", "peer", "name",
                         f"p{n}", "netns", self.switch)
                self._ip("-n", self.switch, "link", "set", f"p{n}", "master", "br0", "up")
                self._ip("-n", ns, "addr", "add", f"{self.ip[name]}/24", "dev", dev)
                self._ip("-n", ns, "link", "set", dev, "up")
                self._ip("-n", ns, "link", "set", "lo", "up")
            self.apply()
        except LanError:
            self.close()
            raise

    def _ns(self, ns: str) -> None:
        self._ip("netns", "add", ns)
        self.made.append(ns)

    @staticmethod
    def _ip(*args: str) -> None:
        done = _run("ip", *args)
        if done.returncode:
            raise LanError(f"ip {' '.join(args)}: {done.stderr.strip()}")

    def exec(self, machine: str, argv: list[str]) -> list[str]:
        """``argv`` run inside ``machine``."""
        return ["ip", "netns", "exec", self.ns[machine], *argv]

    # --- faults ------------------------------------------------------------------------------

    def apply(self) -> None:
        """The switch's rules made to say ``loss`` and ``cuts`` (one nftables transaction)."""
        with self._lock:
            rules = []
            for a, b in sorted(tuple(sorted(c)) for c in self.cuts):
                rules += [f"ip saddr {self.ip[a]} ip daddr {self.ip[b]} drop",
                          f"ip saddr {self.ip[b]} ip daddr {self.ip[a]} drop"]
            for m, pct in sorted(self.loss.items()):
                if pct > 0:
                    rules += [f"ip saddr {self.ip[m]} numgen random mod 100 < {pct} drop",
                              f"ip daddr {self.ip[m]} numgen random mod 100 < {pct} drop"]
            script = ("add table bridge fbench\ndelete table bridge fbench\n"
                      "table bridge fbench {\n chain pass {\n  type filter hook forward "
                      "priority 0; policy accept;\n" + "".join(f"  {r}\n" for r in rules)
                      + " }\n}\n")
            done = _run("ip", "netns", "exec", self.switch, "nft", "-f", "-", stdin=script)
            if done.returncode:
                raise LanError(f"nft: {done.stderr.strip()}")

    def set_loss(self, machine: str, pct: int) -> None:
        self.loss[machine] = pct
        self.apply()

    def cut(self, a: str, b: str, cut: bool = True) -> None:
        (self.cuts.add if cut else self.cuts.discard)(frozenset((a, b)))
        self.apply()

    def heal(self) -> None:
        self.loss.clear()
        self.cuts.clear()
        self.apply()

    def reset(self, machine: str, other: str | None = None) -> int:
        """Every established TCP connection of ``machine`` (to ``other`` only, if given)
        reset (``ss -K``); how many there were."""
        argv = ["ss", "-K", "-tnH", "state", "established"]
        if other is not None:
            argv += ["dst", self.ip[other]]
        done = _run(*self.exec(machine, argv))
        return len([ln for ln in done.stdout.splitlines() if ln.strip()])

    def close(self) -> None:
        for ns in reversed(self.made):
            _run("ip", "netns", "del", ns)
        self.made.clear()


# --- the peers -----------------------------------------------------------------------------

def takes_many_standby_keys() -> bool:
    """Whether ``cardparty host`` takes ``--standby-key`` more than once (each one kept)."""
    from cardparty.client.cli import build_parser

    parser = build_parser()
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        host = getattr(action, "choices", {}).get("host")
        if host is None:
            continue
        for a in host._actions:
            if "--standby-key" in a.option_strings:
                return isinstance(a, argparse._AppendAction)
    return False


class Peer:
    """One of the party's machines and the ``cardparty host`` process on it: ``argv`` is
    written once (``command_lines``) and every start runs it unchanged. Every line the
    process prints is kept with the wall time it was read (``lines``) and written to
    ``log``."""

    def __init__(self, name: str, lan: Lan, base: Path) -> None:
        from cardparty.net.trust.keys import host_keys

        self.name = name
        self.lan = lan
        self.data = base / f"peer-{name}"
        self.fingerprint = host_keys(self.data).fingerprint      # made before the first start
        self.argv: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self.lines: list[tuple[float, str]] = []
        self.log = base / f"peer-{name}.log"
        self.starts = 0
        self.stopped = False           # SIGSTOP sent, no SIGCONT yet

    @property
    def ip(self) -> str:
        return self.lan.ip[self.name]

    @property
    def address(self) -> str:
        return f"{self.ip}:{PORT}"

    def start(self) -> None:
        assert self.argv, "command_lines first"
        self.starts += 1
        self.stopped = False
        self.lines.append((time.time(), f"[bench] start {self.starts}"))
        self.proc = subprocess.Popen(self.lan.exec(self.name, self.argv),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, text=True, errors="replace")
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        with open(self.log, "a", encoding="utf-8") as out:
            for line in proc.stdout:
                now = time.time()
                self.lines.append((now, line.rstrip()))
                out.write(f"{now:.3f} {line}")
                out.flush()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def up(self) -> bool:
        """Running and not stopped."""
        return self.alive() and not self.stopped

    def signal(self, sig: int) -> bool:
        if not self.alive():
            return False
        assert self.proc is not None
        try:
            self.proc.send_signal(sig)
        except ProcessLookupError:
            return False
        if sig == signal.SIGSTOP:
            self.stopped = True
        elif sig in (signal.SIGCONT, signal.SIGKILL):
            self.stopped = False
        self.lines.append((time.time(), f"[bench] signal {signal.Signals(sig).name}"))
        return True

    def reap(self, timeout: float = 10.0) -> int | None:
        if self.proc is None:
            return None
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(5)

    def said(self, kind: str, since: float = 0.0, until: float = float("inf")
             ) -> list[tuple[float, re.Match[str]]]:
        """The lines of ``kind`` (``LINES``) this peer said in [since, until)."""
        find = LINES[kind]
        out = []
        for t, line in list(self.lines):
            if since <= t < until:
                m = find(line)
                if m is not None:
                    out.append((t, m))
        return out


def command_lines(peers: list[Peer], many_keys: bool) -> None:
    """Each peer's command line, once for the whole run: the first a host that approves the
    others as its standby (``--standby-key``: all of them where the host takes several, else
    the second only), the others standbys of the first (``--standby-for``, ``--host-key``)."""
    first, *rest = peers
    common = ["--port", str(PORT), "--log-level", "info", "--no-advertise", "--idle", "0"]
    keys = rest if many_keys else rest[:1]
    first.argv = [PY, "-m", "cardparty.client.cli", "host", "--data", str(first.data),
                  "--bind", first.ip, "--name", first.name, *common]
    for p in keys:
        first.argv += ["--standby-key", p.fingerprint]
    for p in rest:
        p.argv = [PY, "-m", "cardparty.client.cli", "host", "--data", str(p.data), "--bind",
                  p.ip, "--name", p.name, *common, "--standby-for", first.address,
                  "--host-key", first.fingerprint]


# --- what the peers say: one function per kind of line --------------------------------------

def _search(pattern: str) -> Callable[[str], re.Match[str] | None]:
    compiled = re.compile(pattern)
    return compiled.search


#: kind -> a function of a line: its match (groups as named below) or None.
LINES: dict[str, Callable[[str], re.Match[str] | None]] = {
    # a host serving from its own start (epoch: read from its store)
    "serving": _search(r"cardparty host '.*' listening on (?P<address>\S+)"),
    # a standby waiting
    "standby": _search(r"stands by the host at (?P<host>\S+) \(key"),
    # a takeover, as the new host says it (the epoch it serves as)
    "took_over": _search(r"took over from (?P<old>\S+) as epoch (?P<epoch>\d+)"),
    # the standby's own word as it takes over, with why
    "taking_over": _search(r"taking over from the host at (?P<old>\S+) as epoch "
                           r"(?P<epoch>\d+) at record \d+ \((?P<why>[^)]*)\)"),
    # the host's side: a standby attached
    "attached": _search(r"the standby at (?P<serves>\S+) is attached"),
    # the host's side: its standby dropped
    "dropped": _search(r"the standby at (?P<serves>\S+) is dropped: (?P<why>.*)"),
    # the standby's side: a fresh copy written
    "copy": _search(r"a copy of the host at (?P<host>\S+) as of record (?P<seq>\d+)"),
    # a host that learnt of a higher one and stopped serving
    "yielded": _search(r"stood down|serves as epoch \d+, after this one's"),
    # the host hands the party over
    "handed": _search(r"the party is handed over to the standby"),
    # the standby takes its host for lost
    "lost": _search(r"the host at (?P<host>\S+) is lost \((?P<why>[^)]*)\)"),
    # the bench's own notes in the log: a start, a signal
    "bench": _search(r"^\[bench\] (?P<what>.*)"),
}
