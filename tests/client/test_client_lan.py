"""The start screen's LAN search (``client.lan_hosts``) between two machines, each a network
namespace this test makes and joins with a veth pair, so that mDNS never reaches the real LAN.
Needs root and iproute2; skips with the reason otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.netns import linked_namespaces

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


@pytest.fixture
def two_machines() -> Iterator[tuple[str, str]]:
    with linked_namespaces("cc", "10.231.9") as pair:
        yield pair


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
