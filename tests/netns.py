"""Two test machines on one host: network namespaces joined by a veth pair.

Tests that send multicast (LAN discovery) run both ends inside namespaces made here, so nothing
reaches the real LAN. Needs root and iproute2; ``linked_namespaces`` skips the test otherwise,
and removes what it made however the test ends.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import pytest


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@contextmanager
def linked_namespaces(prefix: str, subnet: str) -> Iterator[tuple[str, str]]:
    """Two namespaces ``<prefix>a…``/``<prefix>b…`` with ``<subnet>.1`` and ``<subnet>.2``."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2 (ip)")
    tag = uuid.uuid4().hex[:6]
    a, b = f"{prefix}a{tag}", f"{prefix}b{tag}"
    made: list[str] = []
    try:
        for ns in (a, b):
            _ip("netns", "add", ns)
            made.append(ns)
        _ip("link", "add", f"{prefix}va{tag}", "netns", a, "type", "veth", "peer", "name",
            f"{prefix}vb{tag}", "netns", b)
        for ns, dev, addr in ((a, f"{prefix}va{tag}", f"{subnet}.1/24"),
                              (b, f"{prefix}vb{tag}", f"{subnet}.2/24")):
            _ip("-n", ns, "addr", "add", addr, "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up", "multicast", "on")
            _ip("-n", ns, "link", "set", "lo", "up")
    except subprocess.CalledProcessError as exc:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        pytest.skip(f"cannot make network namespaces here: {exc.stderr.decode().strip()}")
    try:
        yield a, b
    finally:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def run_in(ns: str, script: str, timeout: float = 60) -> str:
    """Run a Python ``script`` inside namespace ``ns``; its standard output (it must succeed)."""
    done = subprocess.run(["ip", "netns", "exec", ns, sys.executable, "-c", script],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_while_announcing(a: str, b: str, announce: str, listen: str) -> str:
    """Run ``announce`` in ``a`` (a script that prints ``ready`` once it announces, then waits
    for its standard input to close) and, meanwhile, ``listen`` in ``b``: its output."""
    host = subprocess.Popen(["ip", "netns", "exec", a, sys.executable, "-c", announce],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None and host.stdout.readline().strip() == "ready"
        return run_in(b, listen)
    finally:
        assert host.stdin is not None
        host.stdin.close()
        host.wait(timeout=10)


@contextmanager
def two_segments(prefix: str, subnet: str, left: Sequence[str], right: Sequence[str]
                 ) -> Iterator[tuple[dict[str, tuple[str, str]], Callable[[bool], None]]]:
    """Machines on two segments of one LAN (two bridges in a switch namespace, joined by one
    link): ``left`` and ``right`` name them; each gets a namespace and ``<subnet>.<n>`` (n
    from 1, left first). Yields {name: (namespace, address)} and ``link(up)``, which cuts or
    heals the one link between the segments while every machine lives."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2 (ip)")
    tag = uuid.uuid4().hex[:5]
    switch = f"{prefix}sw{tag}"
    made: list[str] = []
    machines: dict[str, tuple[str, str]] = {}
    try:
        _ip("netns", "add", switch)
        made.append(switch)
        for br in ("b1", "b2"):
            _ip("-n", switch, "link", "add", br, "type", "bridge")
            _ip("-n", switch, "link", "set", br, "up")
        _ip("-n", switch, "link", "add", "t1", "type", "veth", "peer", "name", "t2")
        _ip("-n", switch, "link", "set", "t1", "master", "b1", "up")
        _ip("-n", switch, "link", "set", "t2", "master", "b2", "up")
        for n, (name, br) in enumerate([(m, "b1") for m in left] + [(m, "b2") for m in right],
                                       start=1):
            ns = f"{prefix}{n}{tag}"
            _ip("netns", "add", ns)
            made.append(ns)
            _ip("link", "add", f"{prefix}m{n}{tag}", "netns", ns, "type", "veth", "peer",
                "name", f"p{n}", "netns", switch)
            _ip("-n", switch, "link", "set", f"p{n}", "master", br, "up")
            _ip("-n", ns, "addr", "add", f"{subnet}.{n}/24", "dev", f"{prefix}m{n}{tag}")
            _ip("-n", ns, "link", "set", f"{prefix}m{n}{tag}", "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            machines[name] = (ns, f"{subnet}.{n}")
    except subprocess.CalledProcessError as exc:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        pytest.skip(f"cannot make network namespaces here: {exc.stderr.decode().strip()}")

    def link(up: bool) -> None:
        _ip("-n", switch, "link", "set", "t1", "up" if up else "down")

    try:
        yield machines, link
    finally:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
