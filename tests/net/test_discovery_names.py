"""What a host is called on the LAN (DNS-SD instance names) and the hosts a browser warns
could be taken for one another (issue 25 item 5): no sockets, no multicast."""

from __future__ import annotations

import random

from zmq.utils import z85

from cardparty.net.player.discovery import SERVICE, HostRecord, _instance, _shown_name, lookalikes
from cardparty.net.trust.keys import KeyPair, fingerprint


def test_the_instance_name_carries_the_whole_fingerprint_of_the_key() -> None:
    # With four characters of it, a forger found a key whose fingerprint starts the same in
    # seconds, took the host's very instance name, and browsers saw one of the two.
    keys = KeyPair.generate()
    instance = _instance("Eva's laptop", keys.public.decode())
    assert instance == f"Eva-s laptop - {keys.fingerprint}.{SERVICE}"
    assert _shown_name(instance[: -len(SERVICE) - 1], keys.public.decode()) == "Eva-s laptop"


def test_an_instance_name_stays_one_dns_label_whatever_the_name() -> None:
    key = KeyPair.generate().public.decode()
    for name in ("x" * 100, "Příliš žluťoučký kůň úpěl ďábelské ódy" * 3, "", "!!!"):
        label = _instance(name, key)[: -len(SERVICE) - 1]
        assert len(label.encode()) <= 63, label
        assert label.endswith(f" - {fingerprint(key)}")
    assert _instance("Party")[: -len(SERVICE) - 1] == "Party"     # a host without a key


def keys_sharing_a_first_group() -> tuple[str, str]:
    """Two public keys whose fingerprints start with the same four characters (what a forger
    makes in seconds; found here among random keys, a birthday search of 20 bits)."""
    rng = random.Random(25)
    seen: dict[str, str] = {}
    while True:
        key = z85.encode(rng.randbytes(32)).decode()
        first = fingerprint(key)[:4]
        if first in seen:
            return seen[first], key
        seen[first] = key


def test_hosts_whose_fingerprints_start_alike_are_named_as_lookalikes() -> None:
    real, forged = keys_sharing_a_first_group()
    assert fingerprint(real) != fingerprint(forged)
    a = HostRecord("Party", "10.0.0.1", 7770, key=real)
    b = HostRecord("Garden", "10.0.0.9", 7770, key=forged)
    other = HostRecord("Kitchen", "10.0.0.5", 7770, key=KeyPair.generate().public.decode())
    assert lookalikes([a, other, b]) == [(a, b)]


def test_hosts_whose_names_read_alike_are_named_as_lookalikes() -> None:
    one, two, three = (KeyPair.generate().public.decode() for _ in range(3))
    party = HostRecord("Party", "10.0.0.1", 7770, key=one)
    cyrillic = HostRecord("Pаrty", "10.0.0.9", 7770, key=two)          # a Cyrillic а
    lower = HostRecord("party", "10.0.0.7", 7770, key=three)
    kitchen = HostRecord("Kitchen", "10.0.0.5", 7770, key=three)
    assert lookalikes([party, cyrillic, kitchen]) == [(party, cyrillic)]
    assert lookalikes([party, lower]) == [(party, lower)]
    # One host seen at two addresses (two interfaces) is one key: no warning.
    again = HostRecord("Party", "192.168.1.4", 7770, key=one)
    assert lookalikes([party, again]) == []


def test_the_client_warns_of_lookalike_hosts_with_both_fingerprints() -> None:
    from cardparty.client.lan_hosts import lookalike_warnings
    from cardparty.net.trust.known_hosts import KnownHosts

    real, forged = keys_sharing_a_first_group()
    hosts = [HostRecord("Party", "10.0.0.1", 7770, key=real),
             HostRecord("Party", "10.0.0.9", 7770, key=forged)]
    [warning] = lookalike_warnings(hosts, KnownHosts())
    assert "Party at 10.0.0.1:7770" in warning and "Party at 10.0.0.9:7770" in warning
    assert fingerprint(real) in warning and fingerprint(forged) in warning
    assert lookalike_warnings(hosts[:1], KnownHosts()) == []
