"""Who may make a standby take over: the party's own seated players, and only enough of them
(docs/security.md, "What makes a standby take over").

A standby that lost its host cannot tell a dead host from a cut link; Binary Star's answer is to
take over only when clients come to it. A client is anyone with a key, though: a guest who
learned the standby's address from his own welcome could send it "I follow" hellos from fresh
keys and, with the link jammed for a second, make it take over while the host still serves
everybody else. So a follower counts here only if the key ZeroMQ authenticated for his
connection, with the name he says, is a human seated at a table being played, as the standby's
copy of the host's store says (a player's handle is a hash of his key and his name:
``net/store.identity``; a fresh key matches no seat). And one seated player is not enough where
a table has several: a table speaks for a takeover when more than half of its seated humans
followed, or when one of them did and the host has stayed lost for ``LONE`` seconds (the others
may be away, and a lone player at a table of bots is the whole table).

Owns: ``Witnesses``: the followers heard (by handle, when), the seated humans of the tables in
play read from the copy (cached per record of the stream), and the verdict (``enough``).

Must not know about: sockets, how a takeover is done, the wire's other messages.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict

import msgpack

from cardparty.net.store import identity

#: Seconds a follower's word stays counted (a client follows for 30 s after it lost its
#: host, and says hello to the standby again a few times a second meanwhile).
KEPT = 30.0
#: Seconds after which one follower of a table is enough.
LONE = 10.0
#: Followers remembered at most (a flood of fresh keys is never remembered at all).
MAX_FOLLOWERS = 4096


class Witnesses:
    """See the module docstring."""

    def __init__(self) -> None:
        self.followers: OrderedDict[str, float] = OrderedDict()
        self._seated: dict[str, frozenset[str]] = {}
        self._seated_at: tuple[str, int] | None = None
        self._handles: frozenset[str] = frozenset()

    def seated(self, db: sqlite3.Connection | None, at: tuple[str, int]) -> dict[str,
                                                                              frozenset[str]]:
        """The handles of the humans seated at each table in play (read from the copy's
        ``tables`` rows at most once per record ``at``)."""
        if db is None:
            return {}
        if self._seated_at == at:
            return self._seated
        out: dict[str, frozenset[str]] = {}
        for tid, meta in db.execute("SELECT id, meta FROM tables"):
            try:
                record = msgpack.unpackb(meta, raw=False, strict_map_key=False)
                if record.get("status") != "playing":
                    continue
                humans = frozenset(str(s["token"]) for s in record.get("seats", ())
                                   if s.get("kind") == "human" and s.get("token"))
            except Exception:       # a row this standby cannot read speaks for nobody
                continue
            if humans:
                out[str(tid)] = humans
        self._seated, self._seated_at = out, at
        self._handles = frozenset().union(*out.values()) if out else frozenset()
        return out

    def heard(self, key: bytes | None, name: object, now: float) -> bool:
        """A hello following the lost host from the connection authenticated as ``key``,
        saying ``name``: remembered when it is a seated human's (True), else not."""
        if key is None or not isinstance(name, str) or not name or len(name) > 64:
            return False
        try:
            handle = identity(key, name)
        except Exception:
            return False
        if handle not in self._handles:
            return False
        self.followers[handle] = now
        self.followers.move_to_end(handle)
        while len(self.followers) > MAX_FOLLOWERS:
            self.followers.popitem(last=False)
        return True

    def enough(self, now: float, lost_for: float) -> bool:
        """Whether the followers heard speak for a takeover (module docstring)."""
        recent = {h for h, at in self.followers.items() if now - at <= KEPT}
        for humans in self._seated.values():
            came = len(humans & recent)
            if came * 2 > len(humans) or (came and lost_for >= LONE):
                return True
        return False

    def forget(self) -> None:
        """The host is back (or another serves): what was heard counts no more."""
        self.followers.clear()
