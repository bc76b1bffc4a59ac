"""LAN discovery between two machines, each a network namespace this test makes itself and
joins with a veth pair: mDNS never reaches the real LAN. Needs root and iproute2; skips with
the reason otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.netns import linked_namespaces, run_in, run_while_announcing

ADVERTISE = """
import sys, time
from cardparty.net.discovery import Advertiser, local_addresses
ad = Advertiser("Eva's laptop", 5555, local_addresses(), ["pika", "piquet"], key="k3y")
print("ready", flush=True)
sys.stdin.read()
ad.close()
"""

BROWSE = """
import json
from cardparty.net.discovery import browse
print(json.dumps([[h.name, h.address, h.port, list(h.games), h.key, h.version]
                  for h in browse(4.0)]))
"""


@pytest.fixture
def two_hosts() -> Iterator[tuple[str, str]]:
    with linked_namespaces("cp", "10.231.7") as pair:
        yield pair


def test_a_client_finds_a_host_on_its_lan_with_its_key(two_hosts: tuple[str, str]) -> None:
    a, b = two_hosts
    hosts = json.loads(run_while_announcing(a, b, ADVERTISE, BROWSE))
    assert ["Eva-s laptop", "10.231.7.1", 5555, ["pika", "piquet"], "k3y", "1"] in hosts


def test_a_host_alone_on_its_lan_finds_nobody_else(two_hosts: tuple[str, str]) -> None:
    _, b = two_hosts
    assert json.loads(run_in(b, BROWSE)) == []


def test_cardparty_host_announces_itself_and_cardparty_hosts_lists_it(
        two_hosts: tuple[str, str]) -> None:
    a, b = two_hosts
    host = subprocess.Popen(["ip", "netns", "exec", a, sys.executable, "-m",
                             "cardparty.client.cli", "host", "--bind", "10.231.7.1", "--port",
                             "5599", "--name", "Party", "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert host.stderr is not None
        assert "announced on the LAN as 'Party'" in host.stderr.readline()
        listed = subprocess.run(["ip", "netns", "exec", b, sys.executable, "-m",
                                 "cardparty.client.cli", "hosts", "--json", "--seconds", "4"],
                                capture_output=True, text=True, timeout=60)
        hosts = [json.loads(line) for line in listed.stdout.splitlines()]
        party = [h for h in hosts if h["name"] == "Party"]
        assert party and party[0]["address"] == "10.231.7.1:5599"
        assert "pika" in party[0]["games"]
    finally:
        host.terminate()
        host.wait(timeout=10)
