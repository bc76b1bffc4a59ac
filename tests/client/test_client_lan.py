"""The start screen's LAN search (``client.lan_hosts``) between two machines, each a network
namespace this test makes and joins with a veth pair, so that mDNS never reaches the real LAN.
Needs root and iproute2; skips with the reason otherwise."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest

ADVERTISE = """
import sys
from cardparty.net.discovery import Advertiser, local_addresses
ad = Advertiser("kitchen", 7770, local_addresses(), ["pika", "kakhead"])
print("ready", flush=True)
sys.stdin.read()
ad.close()
"""

SEARCH = """
import json, time
from cardparty.client.controller import Controller
from cardparty.client.lan_hosts import LanHosts
c = Controller(None)
finder = LanHosts(c.receive).start()
end = time.monotonic() + 8
while not c.start.hosts and time.monotonic() < end:
    time.sleep(0.1)
finder.stop()
print(json.dumps(c.start.hosts))
"""


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture
def two_machines() -> Iterator[tuple[str, str]]:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2 (ip)")
    tag = uuid.uuid4().hex[:6]
    a, b = f"cca{tag}", f"ccb{tag}"
    made: list[str] = []
    try:
        for ns in (a, b):
            _ip("netns", "add", ns)
            made.append(ns)
        _ip("link", "add", f"ca{tag}", "netns", a, "type", "veth", "peer", "name", f"cb{tag}",
            "netns", b)
        for ns, dev, addr in ((a, f"ca{tag}", "10.231.9.1/24"), (b, f"cb{tag}", "10.231.9.2/24")):
            _ip("-n", ns, "addr", "add", addr, "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up", "multicast", "on")
            _ip("-n", ns, "link", "set", "lo", "up")
    except subprocess.CalledProcessError as exc:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        pytest.skip(f"cannot make network namespaces here: {exc.stderr.decode().strip()}")
    yield a, b
    for ns in made:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_the_start_screen_lists_a_host_advertised_on_its_lan(
        two_machines: tuple[str, str]) -> None:
    a, b = two_machines
    host = subprocess.Popen(["ip", "netns", "exec", a, sys.executable, "-c", ADVERTISE],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None and host.stdout.readline().strip() == "ready"
        found = subprocess.run(["ip", "netns", "exec", b, sys.executable, "-c", SEARCH],
                               capture_output=True, text=True, timeout=60)
        assert found.returncode == 0, found.stderr
        assert ["kitchen (pika, kakhead)", "10.231.9.1:7770"] in json.loads(found.stdout)
    finally:
        assert host.stdin is not None
        host.stdin.close()
        host.wait(timeout=10)
