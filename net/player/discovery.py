"""Finding hosts on the LAN: DNS-SD over mDNS (python-zeroconf), service ``_cardparty._tcp``.

A host advertises one service record: its name, address and port, the protocol version, and its
games; when the host has a public key it travels in the record too (DESIGN: the client
remembers it on first use). A client browses for a few seconds and lists what answered. A
direct address always works as well: discovery only saves typing it.

Multicast stays on the link it was sent on; tests run both ends inside network namespaces they
make themselves, never on the real LAN.

Must not know about: terminals, game rules.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from cardparty.net.names.safetext import name_folds
from cardparty.net.trust.keys import fingerprint

SERVICE = "_cardparty._tcp.local."
PROTOCOL_VERSION = "1"


@dataclass(frozen=True, slots=True)
class HostRecord:
    """One host found on the LAN."""

    name: str
    address: str
    port: int
    version: str = PROTOCOL_VERSION
    games: tuple[str, ...] = ()
    key: str = ""

    @property
    def endpoint(self) -> str:
        """What ``cardparty join`` takes: ``address:port``."""
        return f"{self.address}:{self.port}"


def _tag(key: str) -> str:
    """A short mark of a host's key for its DNS-SD instance name, or "" without a real key.

    Instance names must be unique on the link. Two hosts of one name (two "Party" laptops)
    would otherwise rely on DNS-SD's conflict probing to rename one of them, which a busy
    machine can miss, leaving both under one name and a browser that sees either. With the
    key's mark in it, the instance name differs from the start; browsers take it off again.
    The mark is the whole fingerprint (80 bits): with a part of it, a forger found a key
    whose fingerprint starts the same in seconds, took the same instance name, and a browser
    then saw only one of the two (issue 25)."""
    try:
        return fingerprint(key)
    except ValueError:
        return ""


#: The most bytes of a DNS label, which an instance name is (RFC 6763 4.3).
_LABEL = 63


def _instance(name: str, key: str = "") -> str:
    """The DNS-SD instance name of host ``name`` of ``key``: the name (letters, digits,
    spaces, dashes), then the whole fingerprint, within one DNS label."""
    safe = "".join(c if c.isalnum() or c in " -_" else "-" for c in name).strip() or "cardparty"
    tag = _tag(key)
    mark = f" - {tag}" if tag else ""
    room = _LABEL - len(mark.encode())
    while len(safe.encode()) > room:
        safe = safe[:-1]
    return f"{safe.rstrip()}{mark}.{SERVICE}"


def lookalikes(hosts: list[HostRecord]) -> list[tuple[HostRecord, HostRecord]]:
    """Pairs of hosts that announce different keys under names or fingerprints a player could
    take for one another (names that read alike by the rules of players' names,
    ``safetext.name_folds``, or fingerprints whose first group is the same, which a forger
    finds in seconds): one of each pair may be a forgery (docs/security.md, first contact)."""
    pairs = []
    for i, a in enumerate(hosts):
        for b in hosts[i + 1:]:
            if not a.key or not b.key or a.key == b.key:
                continue
            try:
                same_start = fingerprint(a.key)[:4] == fingerprint(b.key)[:4]
            except ValueError:
                same_start = False
            if same_start or set(name_folds(a.name)) & set(name_folds(b.name)):
                pairs.append((a, b))
    return pairs


def _shown_name(instance: str, key: str) -> str:
    """The host's name as its owner gave it: the instance without the key's mark."""
    tag = _tag(key)
    return instance[: -len(f" - {tag}")] if tag and instance.endswith(f" - {tag}") else instance


class Advertiser:
    """Keeps one host's record on the LAN until ``close()``."""

    def __init__(self, name: str, port: int, addresses: list[str], games: list[str],
                 key: str = "") -> None:
        props = {"version": PROTOCOL_VERSION, "games": ",".join(games)[:200]}
        if key:
            props["key"] = key
        self.info = ServiceInfo(SERVICE, _instance(name, key), port=port, properties=props,
                                addresses=[socket.inet_aton(a) for a in addresses],
                                server=f"{socket.gethostname()}.local.")
        self.zc = Zeroconf(ip_version=IPVersion.V4Only)
        self.zc.register_service(self.info, allow_name_change=True)

    def close(self) -> None:
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


@dataclass
class Browser:
    """Collects host records while it runs; ``hosts()`` is a snapshot, safe from any thread."""

    found: dict[str, HostRecord] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self.zc = Zeroconf(ip_version=IPVersion.V4Only)
        self.browser = ServiceBrowser(self.zc, SERVICE, handlers=[self._changed])

    def _changed(self, zeroconf: Zeroconf, service_type: str, name: str,
                 state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            with self._lock:
                self.found.pop(name, None)
            return
        info = zeroconf.get_service_info(service_type, name, timeout=1500)
        if info is None or not info.parsed_addresses(IPVersion.V4Only):
            return
        props = {k.decode(): (v or b"").decode(errors="replace")
                 for k, v in info.properties.items()}
        key = props.get("key", "")
        record = HostRecord(name=_shown_name(name[: -len(SERVICE) - 1], key),
                            address=info.parsed_addresses(IPVersion.V4Only)[0],
                            port=info.port or 0, version=props.get("version", ""),
                            games=tuple(g for g in props.get("games", "").split(",") if g),
                            key=key)
        with self._lock:
            self.found[name] = record

    def hosts(self) -> list[HostRecord]:
        with self._lock:
            return sorted(self.found.values(), key=lambda r: (r.name, r.endpoint))

    def close(self) -> None:
        self.browser.cancel()
        self.zc.close()


def browse(seconds: float = 3.0) -> list[HostRecord]:
    """The hosts that answer within ``seconds``."""
    browser = Browser()
    try:
        time.sleep(seconds)
        return browser.hosts()
    finally:
        browser.close()


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, for the advertised record (read from
    the interfaces themselves: nothing is sent)."""
    found: set[str] = set()
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                         struct.pack("256s", name.encode()[:15]))
                    found.add(socket.inet_ntoa(packed[20:24]))
                except OSError:
                    continue
    except (ImportError, OSError):
        pass
    return sorted(a for a in found if not a.startswith("127."))
