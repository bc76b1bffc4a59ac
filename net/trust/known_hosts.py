"""Hosts remembered by key (trust on first use), like ssh's known_hosts.

Owns: the file ``known_hosts`` in the user's config directory (one host a line:
``ADDRESS:PORT KEY NAME``, the key as Z85 text), what a host's key is to this user (``status``:
known, new or changed), remembering a key the first time a host proves it (``remember``),
forgetting a host (``forget``: after its operator made a new key on purpose), and the check
a client makes before it connects (``check``), which refuses a key that changed with a sentence
saying how to reset it.

A host is found by its address (``host:port``): the same address showing another key is the one
thing that may mean someone stands between the player and the host. A key already known under
another address is "known" (a host whose address changed, e.g. by DHCP).

Must not know about: sockets, the protocol, terminals.
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from cardparty.core.i18n import _
from cardparty.net.trust.keys import fingerprint, key_dir, private_dir, public_key

FILE = "known_hosts"
#: The most hosts a file keeps (oldest dropped first): the file stays small whatever it sees.
MOST = 1000

KNOWN, NEW, CHANGED = "known", "new", "changed"


class HostKeyError(Exception):
    """A host refused by the client: its key changed, or it does not match a pinned or
    announced key. ``message`` says what happened and how to reset it."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


def key_changed(where: str, now: str, before: str) -> HostKeyError:
    """The refusal of a host whose key is not the one it showed before (trust on first use),
    in the player's language: it may be an impostor, and the line says how to trust it again."""
    return HostKeyError("key_changed", _(
        "the host at {where} now shows key {now}, not the {before} it showed before: someone "
        "may be pretending to be it. If its operator made a new key on purpose, run "
        "'cardparty hosts --forget {where}' and connect again.").format(
            where=where, now=now, before=before))


@dataclass(frozen=True, slots=True)
class Entry:
    endpoint: str
    key: bytes
    name: str = ""


def endpoint_of(address: str) -> str:
    """``tcp://h:p``, ``h:p`` -> ``h:p`` (how the file names a host)."""
    return address.removeprefix("tcp://").strip()


class KnownHosts:
    """The known-hosts file of one user (``path``: the config directory's file unless given).
    Safe from any thread; every call reads the file again, so two clients of one user agree."""

    _lock = threading.Lock()

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else key_dir("config") / FILE

    def entries(self) -> list[Entry]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        out: list[Entry] = []
        for line in text.splitlines():
            parts = line.split(None, 2)
            if len(parts) < 2 or line.startswith("#"):
                continue
            with contextlib.suppress(ValueError):
                out.append(Entry(parts[0], public_key(parts[1]),
                                 parts[2] if len(parts) > 2 else ""))
        return out

    def key_of(self, address: str) -> bytes | None:
        """The key remembered for ``address``, or None."""
        where = endpoint_of(address)
        for e in self.entries():
            if e.endpoint == where:
                return e.key
        return None

    def status(self, address: str, key: bytes | str) -> str:
        """``known`` (this key was seen before), ``changed`` (this address showed another
        key), or ``new``."""
        key = public_key(key)
        entries = self.entries()
        where = endpoint_of(address)
        mine = [e for e in entries if e.endpoint == where]
        if mine:
            return KNOWN if mine[0].key == key else CHANGED
        return KNOWN if any(e.key == key for e in entries) else NEW

    def remember(self, address: str, key: bytes | str, name: str = "") -> None:
        """Keep ``key`` for ``address`` (replacing what the address had)."""
        key = public_key(key)
        where = endpoint_of(address)
        safe = " ".join(name.split())[:64]
        safe = "".join(c for c in safe if c.isprintable())
        with self._lock:
            kept = [e for e in self.entries() if e.endpoint != where][-(MOST - 1):]
            kept.append(Entry(where, key, safe))
            self._write(kept)

    def forget(self, address: str) -> bool:
        """Forget ``address`` (``host:port``) or every address of a fingerprint; True if
        something was forgotten."""
        where = endpoint_of(address)
        with self._lock:
            entries = self.entries()
            kept = [e for e in entries
                    if e.endpoint != where and fingerprint(e.key) != where.lower()]
            if len(kept) == len(entries):
                return False
            self._write(kept)
            return True

    def _write(self, entries: list[Entry]) -> None:
        private_dir(self.path.parent)
        tmp = self.path.with_name(f".{FILE}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("# cardparty known hosts: ADDRESS:PORT KEY NAME (see docs/security.md)\n")
            for e in entries:
                f.write(f"{e.endpoint} {e.key.decode()} {e.name}".rstrip() + "\n")
        os.replace(tmp, self.path)

    def describe(self, address: str, key: bytes | str) -> tuple[str, str]:
        """(fingerprint, status) of an announced key for a list of hosts; ("", "no key") for
        a host that announced none or something that is not a key."""
        try:
            return fingerprint(key), self.status(address, key)
        except (ValueError, OSError):
            return "", "no key"

    def check(self, address: str, key: bytes | str) -> str:
        """The status of ``key`` at ``address``, or HostKeyError when it changed."""
        state = self.status(address, key)
        if state == CHANGED:
            old = self.key_of(address)
            assert old is not None
            where = endpoint_of(address)
            raise key_changed(where, fingerprint(key), fingerprint(old))
        return state
