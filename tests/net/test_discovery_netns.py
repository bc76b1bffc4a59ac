"""LAN discovery between two machines, each a network namespace this test makes itself and
joins with a veth pair: mDNS never reaches the real LAN. Needs root and iproute2; skips with
the reason otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardparty.net.trust.keys import KeyPair, fingerprint
from cardparty.net.trust.known_hosts import KnownHosts
from tests.netns import linked_namespaces, run_in, run_while_announcing

ADVERTISE = """
import sys, time
from cardparty.net.player.discovery import Advertiser, local_addresses
ad = Advertiser("Eva's laptop", 5555, local_addresses(), ["pika", "piquet"], key="k3y")
print("ready", flush=True)
sys.stdin.read()
ad.close()
"""

BROWSE = """
import json
from cardparty.net.player.discovery import browse
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


def start_host(ns: str, address: str, port: int, data: Path, machine: str = ""
               ) -> tuple[subprocess.Popen[str], str]:
    """``cardparty host`` in ``ns`` with its key pair in ``data``: (process, fingerprint).
    ``machine``: the host runs under that hostname (a UTS namespace of its own), as a host on
    another machine would: DNS-SD names the machine in the record."""
    uts = (["unshare", "--uts", "sh", "-c", f'hostname {machine} && exec "$@"', "sh"]
           if machine else [])
    host = subprocess.Popen(["ip", "netns", "exec", ns, *uts, sys.executable, "-m",
                             "cardparty.client.cli", "host", "--bind", address, "--port",
                             str(port), "--name", "Party", "--log-level", "warning",
                             "--data", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert host.stderr is not None
    lines = [host.stderr.readline(), host.stderr.readline()]
    assert "announced on the LAN as 'Party'" in lines[1], lines
    return host, lines[0].split("fingerprint ")[1].split()[0]


def list_hosts(ns: str) -> list[dict[str, Any]]:
    listed = subprocess.run(["ip", "netns", "exec", ns, sys.executable, "-m",
                             "cardparty.client.cli", "hosts", "--json", "--seconds", "4"],
                            capture_output=True, text=True, timeout=60)
    return [json.loads(line) for line in listed.stdout.splitlines()]


def test_cardparty_host_announces_itself_and_its_key_and_cardparty_hosts_lists_it(
        two_hosts: tuple[str, str], tmp_path: Path) -> None:
    a, b = two_hosts
    host, fp = start_host(a, "10.231.7.1", 5599, tmp_path / "party")
    try:
        party = [h for h in list_hosts(b) if h["name"].startswith("Party")]
        assert party and party[0]["address"] == "10.231.7.1:5599"
        assert "pika" in party[0]["games"]
        # The announcement carries the host's real public key: its fingerprint is the one
        # the host printed, and this player has never met it.
        assert party[0]["fingerprint"] == fp == fingerprint(party[0]["key"])
        assert party[0]["status"] == "new"
    finally:
        host.terminate()
        host.wait(timeout=10)


def test_two_hosts_of_one_name_are_told_apart_by_fingerprint(
        two_hosts: tuple[str, str], tmp_path: Path) -> None:
    a, b = two_hosts
    first, fp1 = start_host(a, "10.231.7.1", 5599, tmp_path / "one")
    second, fp2 = start_host(a, "10.231.7.1", 5601, tmp_path / "two", machine="cp-other")
    try:
        # The second "Party" is renamed by DNS-SD's conflict rules, which takes a moment (and
        # longer on a busy machine): list again until both answer, for a minute at most.
        end = time.monotonic() + 60
        while True:
            listed = list_hosts(b)
            both = {h["address"] for h in listed} == {"10.231.7.1:5599", "10.231.7.1:5601"}
            if both or time.monotonic() > end:
                break
        assert {(h["address"], h["fingerprint"]) for h in listed} == {
            ("10.231.7.1:5599", fp1), ("10.231.7.1:5601", fp2)}
        assert fp1 != fp2
    finally:
        for p in (first, second):
            p.terminate()
            p.wait(timeout=10)


def test_the_list_says_when_an_announced_key_is_not_the_one_remembered(
        two_hosts: tuple[str, str]) -> None:
    a, b = two_hosts
    real, forged = KeyPair.generate(), KeyPair.generate()
    KnownHosts().remember("10.231.7.1:5555", real.public, "Eva's laptop")
    announce = ADVERTISE.replace('key="k3y"', f"key={forged.public.decode()!r}")
    hosts = json.loads(run_while_announcing(a, b, announce, """
import json
from cardparty.net.player.discovery import browse
from cardparty.net.trust.known_hosts import KnownHosts
print(json.dumps([KnownHosts().describe(h.endpoint, h.key) for h in browse(4.0)]))
"""))
    assert hosts == [[forged.fingerprint, "changed"]]


def test_a_client_refuses_a_forged_announcement_of_a_real_host(
        two_hosts: tuple[str, str], tmp_path: Path) -> None:
    """Someone on the LAN announces the real host's address with a key of his own: the client
    holds the host to the announced key, the host cannot prove it, and the client says the
    announcement may be forged."""
    a, b = two_hosts
    host, fp = start_host(a, "10.231.7.1", 5599, tmp_path / "party")
    forged = KeyPair.generate()
    announce = (ADVERTISE.replace('"Eva\'s laptop", 5555', '"Party upstairs", 5599')
                .replace('key="k3y"', f"key={forged.public.decode()!r}"))
    try:
        first = f"FORGED = {forged.public.decode()!r}"
        tried = json.loads(run_while_announcing(a, b, announce, first + """
import json
from cardparty.net.player.discovery import browse
from cardparty.net.trust.keys import KeyPair, fingerprint
from cardparty.net.player.session import Session, SessionError
out = []
found = []
for _ in range(3):                      # until the forged record is seen
    found = browse(4.0)
    if any(h.key == FORGED for h in found):
        break
for h in sorted(found, key=lambda h: h.key != FORGED):    # the forged one first
    s = Session(h.endpoint, "Eva", keys=KeyPair.generate(), host_key=h.key)
    try:
        s.connect(5.0)
        out.append([fingerprint(h.key), "welcome"])
        s.close()
    except SessionError as exc:
        out.append([fingerprint(h.key), exc.code])
print(json.dumps(sorted(out)))
"""))
        # Met first, the forged key is refused as not proven; the real one connects.
        assert [forged.fingerprint, "key_mismatch"] in tried, tried
        assert all(code == "welcome" for f, code in tried if f == fp), tried
    finally:
        host.terminate()
        host.wait(timeout=10)
