"""What the benches share about the processes they run and the figures they read: a process
started that prints its address (a host, or a server of the bench's own), the command line of
``cardparty host`` (of this tree or of another checkout), what Linux's /proc says of a process
(its CPU, its memory, its descriptors), percentiles, and the machine's load.

The benches import it as a module beside them (``from measure import percentile``); the tests
that run a bench's pieces put bench/ on the path first, as for any of them.

Must not know about: what a bench measures.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys

from cardparty.net.trust.fdbudget import open_descriptors

PY = sys.executable


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank; NaN for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def load_average() -> str:
    """The machine's load average (1, 5 and 15 minutes), as the benches print it."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def start(cmd: list[str]) -> tuple[subprocess.Popen[str], str]:
    """``cmd`` started, once it printed the address it listens on (its first line)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"tcp://127\.0\.0\.1:\d+", line)
    if not found:
        proc.kill()
        raise SystemExit(f"could not start {cmd}: {line!r}")
    return proc, found.group(0)


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGTERM, timeout: float = 10) -> None:
    """``proc`` told to stop (``sig``) and waited for."""
    proc.send_signal(sig)
    proc.wait(timeout)


#: Runs ``cardparty host`` from the tree in argv[1] (a checkout with core/, net/, plugins/,
#: client/), whatever cardparty is installed here: a finder placed first maps every
#: ``cardparty.*`` module onto that tree's folders.
TREE_HOST = """
import importlib.machinery, sys, types
tree = sys.argv.pop(1)
class TreeFinder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if not name.startswith("cardparty."):
            return None
        parts = name.split(".")[1:]
        return importlib.machinery.PathFinder.find_spec(
            name, ["/".join([tree, *parts[:-1]])])
pkg = types.ModuleType("cardparty")
pkg.__path__ = [tree]
sys.modules["cardparty"] = pkg
sys.meta_path.insert(0, TreeFinder)
from cardparty.client.cli import main
sys.exit(main(sys.argv[1:]))
"""


def speaks_curve(tree: str) -> bool:
    """Whether the host of ``tree`` speaks CURVE (and has the flag to turn it off): an older
    tree's has neither. Its guard stands in net/trust/ since net/ is in rooms, in net/ before."""
    return any(os.path.exists(os.path.join(tree, "net", *where, "guard.py"))
               for where in ((), ("trust",)))


def add_baseline_arguments(p: argparse.ArgumentParser) -> None:
    """The options of the benches that measure another tree's host beside this one's."""
    p.add_argument("--baseline", default="",
                   help="a checkout of an older tree whose host runs alike (its own process)")
    p.add_argument("--baseline-label", default="", help="what to call it (e.g. a commit)")


def host_command(data_dir: str | None, tree: str | None = None, curve: bool = True
                 ) -> list[str]:
    """``cardparty host`` as the benches run it: of this installation, or of ``tree``."""
    args = ["host", "--bind", "127.0.0.1", "--port", "0", "--idle", "0", "--heartbeat", "2",
            "--name", "bench", "--log-level", "warning"]
    if not curve and (tree is None or speaks_curve(tree)):
        args.append("--no-curve")       # an older tree's host has no CURVE, nor the flag
    if data_dir is not None:
        args += ["--data", data_dir]
    if tree is not None:
        return [PY, "-c", TREE_HOST, tree, *args]
    return [PY, "-m", "cardparty.client.cli", *args]


# --- what /proc says of a process -----------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """The process's resident memory, KB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def descriptors(pid: int) -> int:
    """The file descriptors the process holds (-1: /proc cannot tell)."""
    held = open_descriptors(pid)
    return -1 if held is None else held
