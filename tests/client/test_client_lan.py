"""The start screen's LAN search (``client.lan_hosts``) between two machines, each a network
namespace this test makes and joins with a veth pair, so that mDNS never reaches the real LAN.
Needs root and iproute2; skips with the reason otherwise."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from cardparty.net.trust.keys import KeyPair
from tests.netns import linked_namespaces, run_while_announcing

PAIR = KeyPair.generate()

ADVERTISE = """
import sys
from cardparty.net.player.discovery import Advertiser, local_addresses
ad = Advertiser("kitchen", 7770, local_addresses(), ["pika", "kakhead"], key=KEY)
print("ready", flush=True)
sys.stdin.read()
ad.close()
"""

SEARCH = """
import json, time
from cardparty.client.controller import Controller
from cardparty.client.lan_hosts import LanHosts
from cardparty.client.screens.start import StartScreen
c = Controller(None)
finder = LanHosts(c.receive).start()
end = time.monotonic() + 8
while not c.get(StartScreen).form.hosts and time.monotonic() < end:
    time.sleep(0.1)
finder.stop()
print(json.dumps(c.get(StartScreen).form.hosts))
"""


@pytest.fixture
def two_machines() -> Iterator[tuple[str, str]]:
    with linked_namespaces("cc", "10.231.9") as pair:
        yield pair


def test_the_start_screen_lists_a_host_advertised_on_its_lan(
        two_machines: tuple[str, str]) -> None:
    a, b = two_machines
    found = run_while_announcing(a, b, ADVERTISE.replace("KEY", repr(PAIR.public.decode())),
                                 SEARCH)
    # The host's key fingerprint and that this player never met it (issue 12).
    assert [f"kitchen [{PAIR.fingerprint} new] (pika, kakhead)", "10.231.9.1:7770"
            ] in json.loads(found)
