"""Usernames bound to keys (MO-1): the first key that says hello with a name owns it at this
host, for good; nobody else can act under that name there afterwards.

Owns: who owns which name (by ``safetext.name_key``, so "eva" and "Ｅｖａ" are Eva's too),
the claim a hello makes (``claim``), keeping owners in the host's store when it has one, and
the identity of a player at a host (``identity``): his key and his name together, which is
what the host files his seats under, so no token a client sends can stand for him.

Must not know about: sockets, tables, games, terminals.
"""

from __future__ import annotations

import collections
import hashlib

from cardparty.core.i18n import Msg
from cardparty.net.safetext import name_key
from cardparty.net.store import Store

#: Names a host binds in all: a flood of fresh keys cannot grow its memory without bound.
MAX_OWNERS = 200_000
#: Names one key may own at a host: a person needs a few (a family sharing a computer, a
#: second name for trying things); a key saying hello with a fresh name again and again
#: must not fill the store's ``owners`` table, which is kept for good.
MAX_NAMES_PER_KEY = 16


class NameTaken(Exception):
    """A name owned by another key (``name_taken``), or no room for another owner."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


class Owners:
    """The owners of the names at one host; read from and written to ``store`` (if any)."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.by_name: dict[str, bytes] = dict(store.owners()) if store is not None else {}
        #: how many names each key owns (``MAX_NAMES_PER_KEY`` at most)
        self.names_of: collections.Counter[bytes] = collections.Counter(self.by_name.values())

    def claim(self, name: str, key: bytes) -> None:
        """``key`` says hello as ``name``: bind the name to it if nobody owns it; NameTaken if
        another key does."""
        k = name_key(name)
        owner = self.by_name.get(k)
        if owner == key:
            return
        if owner is not None:
            raise NameTaken("name_taken", Msg("the name {name} belongs to another player at "
                                              "this host (it is bound to his key); choose "
                                              "another", name=repr(name)))
        if self.names_of[key] >= MAX_NAMES_PER_KEY:
            raise NameTaken("too_many", Msg("your key already owns {n} names at this host, as "
                                            "many as one key may: say hello with one of them",
                                            n=MAX_NAMES_PER_KEY))
        if len(self.by_name) >= MAX_OWNERS:
            raise NameTaken("busy", Msg("this host has too many players"))
        self.by_name[k] = key
        self.names_of[key] += 1
        if self.store is not None:
            self.store.put_owner(k, key, name)

    def owner(self, name: str) -> bytes | None:
        return self.by_name.get(name_key(name))


def identity(key: bytes, name: str) -> str:
    """The host's handle on one player: his key with the name he owns (hex, not a secret:
    the host never takes it from a client)."""
    return hashlib.sha256(b"cardparty player\0" + key + b"\0" + name_key(name).encode()
                          ).hexdigest()[:32]
