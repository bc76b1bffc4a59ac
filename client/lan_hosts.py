"""The start screen's list of hosts on the LAN, fed from ``cardparty.net.player.discovery``.

While the start screen shows, a background thread browses DNS-SD (``_cardparty._tcp``) and
hands the list to the client once a second as a ``hosts`` message (see ``link``). It starts only
when a player opens the start screen (``cardparty join`` without an address): nothing is sent
onto the network otherwise, and ``--no-discovery`` turns it off. A machine where multicast is
unavailable just says so on the screen; typing an address always works.

Each host shows the fingerprint of the key it announces and whether that key is known, new or
changed to this player (two hosts of one name differ by fingerprint), and two hosts a player
could take for one another are named in a warning under the list (``lookalike_warnings``, also
``cardparty hosts``: docs/security.md, first contact); ``announced_key`` gives
the announced key of an address, which the connection then holds the host to (a host that
cannot prove it is refused as a forged announcement).

Must not know about: game rules, terminals.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from cardparty.client.link import Deliver
from cardparty.core.i18n import _
from cardparty.net.wire.address import maybe_address

if TYPE_CHECKING:
    from cardparty.net.player.discovery import HostRecord
    from cardparty.net.trust.known_hosts import KnownHosts

REFRESH = 1.0

#: address -> the key its announcement carried (the last seen), for ``announced_key``.
_announced: dict[str, str] = {}


def announced_key(address: str) -> str | None:
    """The key the LAN announcement of ``address`` carried, if one was seen (``192.168.1.20``
    is the host announced at ``192.168.1.20:7770``: net/wire/address.py reads both)."""
    found = maybe_address(address)
    return _announced.get(found.shown) if found is not None else None


def lookalike_warnings(hosts: list[HostRecord], known: KnownHosts) -> list[str]:
    """One warning for each pair of ``hosts`` a player could take for one another (names
    that read alike, fingerprints that start alike: ``discovery.lookalikes``), with both
    fingerprints, so that he asks the host's operator which is his."""
    from cardparty.net.names.safetext import safe
    from cardparty.net.player.discovery import lookalikes

    return [_("warning: {a} ({fa}) and {b} ({fb}) could be taken for one another: one of them "
              "may be a forgery; ask the host's operator which fingerprint is his").format(
                  a=f"{safe(a.name, 30)} at {a.endpoint}", fa=known.describe(a.endpoint, a.key)[0],
                  b=f"{safe(b.name, 30)} at {b.endpoint}", fb=known.describe(b.endpoint, b.key)[0])
            for a, b in lookalikes(hosts)]


class LanHosts:
    """Browse until ``stop()``; deliver ``{"type": "hosts", ...}`` on every change."""

    def __init__(self, deliver: Deliver) -> None:
        self.deliver = deliver
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="cardparty-lan-hosts",
                                       daemon=True)

    def start(self) -> LanHosts:
        self.deliver({"type": "hosts", "hosts": [], "text": _("searching the network")})
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()

    def _run(self) -> None:
        try:
            from cardparty.net.player.discovery import Browser
            browser: Any = Browser()
        except Exception as exc:  # no multicast here, or zeroconf missing: say it, go on
            self.deliver({"type": "hosts", "hosts": [],
                          "text": _("no search on this network ({error})").format(
                              error=type(exc).__name__)})
            return
        from cardparty.net.names.safetext import safe
        from cardparty.net.trust.known_hosts import KnownHosts

        known = KnownHosts()
        last: list[tuple[str, str]] | None = None
        try:
            while not self.stopped.wait(REFRESH if last is not None else 0.3):
                hosts = []
                found = browser.hosts()
                for h in found:
                    fp, status = known.describe(h.endpoint, h.key)
                    announced = maybe_address(h.endpoint)
                    if fp and announced is not None:
                        _announced[announced.shown] = h.key
                    games = f" ({', '.join(h.games)})" if h.games else ""
                    hosts.append((safe(f"{h.name} [{fp or '-'} {status}]{games}", 80),
                                  h.endpoint))
                warnings = " ".join(lookalike_warnings(found, known))
                if hosts != last:
                    last = hosts
                    self.deliver({"type": "hosts", "hosts": hosts,
                                  "text": warnings if hosts else _("none found yet")})
        finally:
            browser.close()
