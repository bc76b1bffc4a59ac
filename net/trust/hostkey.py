"""Which public key a client expects of the host it connects to (trust on first use).

Owns: choosing the host's key before a CURVE connection (``expect``): a full key the client
was given (a DNS-SD announcement, or ``--key`` with the whole key), else the key the known-hosts
file remembers for the address, else the answer of the host's key desk; a fingerprint given
with ``--key`` must match whichever it is. A key that differs from the remembered one is refused
before anything is sent (``key_changed``). When the handshake then fails, ``diagnose`` asks the
desk what the host shows now, so the player reads why (``key_changed``, ``key_mismatch``: an
announcement the host did not prove) instead of a silent "unreachable".

Must not know about: the session's thread, players, terminals.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardparty.core.i18n import _
from cardparty.net.trust.keydesk import fetch_key
from cardparty.net.trust.keys import fingerprint, public_key, same_fingerprint
from cardparty.net.trust.known_hosts import HostKeyError, KnownHosts, endpoint_of, key_changed


@dataclass(frozen=True, slots=True)
class Expected:
    """The key a client will hold the host to; ``source``: given, known or desk; ``state``:
    known or new (to the known-hosts file)."""

    key: bytes
    source: str
    state: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


def split_given(given: str | bytes | None) -> tuple[bytes | None, str | None]:
    """A ``--key`` or announced value as (full key, None) or (None, fingerprint)."""
    if given is None or given == "" or given == b"":
        return None, None
    text = given.decode() if isinstance(given, bytes) else given
    try:
        return public_key(text), None
    except ValueError:
        pass
    if sum(c.isalnum() for c in text) != 16:
        raise HostKeyError("bad_key", _(
            "{text} is neither a host's key (40 characters) nor its fingerprint (16 letters "
            "and digits, e.g. abcd-efgh-ijkl-mnop)").format(text=repr(text)))
    return None, text


def expect(address: str, given: str | bytes | None, known: KnownHosts,
           timeout: float = 3.0) -> Expected:
    """The key to expect of the host at ``address``; HostKeyError when it must be refused,
    ConnectionError when no key can be learnt (the desk does not answer)."""
    full, pinned = split_given(given)
    where = endpoint_of(address)
    if full is not None:
        key, source = full, "given"
    else:
        remembered = known.key_of(address)
        if remembered is not None:
            key, source = remembered, "known"
        else:
            key, _named = fetch_key(address, timeout)
            source = "desk"
    if pinned is not None and not same_fingerprint(pinned, fingerprint(key)):
        raise HostKeyError("key_mismatch", _(
            "the host at {where} shows key {shown}, not the {pinned} you were given: it is not "
            "the host you meant (or the fingerprint was mistyped)").format(
                where=where, shown=fingerprint(key), pinned=pinned))
    state = known.check(address, key)
    return Expected(key, source, state)


def diagnose(address: str, expected: Expected, timeout: float = 1.0) -> HostKeyError | None:
    """After a handshake that never completed: what the host's desk shows, if it shows another
    key than ``expected`` (else None: the host is just not there)."""
    try:
        shown, _named = fetch_key(address, timeout)
    except ConnectionError:
        return None
    if shown == expected.key:
        return None
    where = endpoint_of(address)
    if expected.source == "given":
        return HostKeyError("key_mismatch", _(
            "the host at {where} did not prove the key {announced} it was announced with (it "
            "shows {shown}): the announcement may be forged").format(
                where=where, announced=expected.fingerprint, shown=fingerprint(shown)))
    return key_changed(where, fingerprint(shown), expected.fingerprint)


