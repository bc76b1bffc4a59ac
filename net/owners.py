"""Usernames bound to keys (MO-1): the first key that says hello with a name owns it at this
host, for good; nobody else can act under that name there afterwards.

Owns: who owns which name (by ``safetext.name_folds``, so "eva", "Ｅｖａ" and a Cyrillic
"Еѵа" are Eva's too), the claim a hello makes (``claim``), keeping owners in the host's store
when it has one (a row that cannot be an owner's is named in the log and skipped, never
bound), and the identity of a player at a host (``identity``): his key and his name together,
which is what the host files his seats under, so no token a client sends can stand for him.

Must not know about: sockets, tables, games, terminals.
"""

from __future__ import annotations

import collections
import hashlib
import logging
from typing import Any

from cardparty.core.i18n import Msg
from cardparty.net.keys import public_key
from cardparty.net.safetext import name_folds, name_key, name_problem, safe
from cardparty.net.store import Store

log = logging.getLogger("cardparty.host")

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
        #: the owner of each name, by both its ``name_folds``: his key and the name as he
        #: claimed it
        self.by_name: dict[str, tuple[bytes, str]] = {}
        #: names bound
        self.count = 0
        #: how many names each key owns (``MAX_NAMES_PER_KEY`` at most)
        self.names_of: collections.Counter[bytes] = collections.Counter()
        if store is not None:
            for row in store.owners():
                self._load(row)

    def _load(self, row: tuple[Any, Any, Any]) -> None:
        """One row of the store's ``owners``, bound if it can be an owner's; else named in
        the log and skipped (a row of garbage must not keep the name from its owner, who
        claims it again with his key)."""
        _, key, name = row
        why = None
        if not isinstance(name, str) or not name:
            why = "no name"
        elif not isinstance(key, str) or not (key.startswith("route:") or _is_key(key)):
            why = "no public key"
        elif name_problem(name) is not None:
            why = f"a name this host no longer accepts: it {name_problem(name)}"
        else:
            held = self._held(name)
            if held is None:
                self._bind(name, key.encode())
                return
            why = f"it reads as {safe(held[1], 40)!r}, owned before it"
        log.warning("the store's owners row %s was skipped: %s; its name is not bound",
                    safe(repr(row), 120), why)

    def claim(self, name: str, key: bytes) -> None:
        """``key`` says hello as ``name``: bind the name to it if nobody owns it; NameTaken if
        another key does, or if the same key owns another name that reads like it."""
        owner, owned = self._held(name) or (None, "")
        if owner == key:
            if name_key(owned) != name_key(name):
                raise NameTaken("name_taken", Msg(
                    "the name {name} reads as {owned}, a name your key owns at this host: "
                    "say hello as {owned}", name=repr(name), owned=repr(owned)))
            return
        if owner is not None:
            raise NameTaken("name_taken", Msg("the name {name} belongs to another player at "
                                              "this host (it is bound to his key, or reads as "
                                              "a name that is); choose another",
                                              name=repr(name)))
        if self.names_of[key] >= MAX_NAMES_PER_KEY:
            raise NameTaken("too_many", Msg("your key already owns {n} names at this host, as "
                                            "many as one key may: say hello with one of them",
                                            n=MAX_NAMES_PER_KEY))
        if self.count >= MAX_OWNERS:
            raise NameTaken("busy", Msg("this host has too many players"))
        fold = self._bind(name, key)
        if self.store is not None:
            self.store.put_owner(fold, key, name)

    def _held(self, name: str) -> tuple[bytes, str] | None:
        """Who owns ``name`` or a name that reads as it: (key, that name as claimed)."""
        for fold in name_folds(name):
            held = self.by_name.get(fold)
            if held is not None:
                return held
        return None

    def _bind(self, name: str, key: bytes) -> str:
        folds = name_folds(name)
        for fold in folds:
            self.by_name[fold] = (key, name)
        self.names_of[key] += 1
        self.count += 1
        return folds[0]

    def owner(self, name: str) -> bytes | None:
        held = self._held(name)
        return None if held is None else held[0]


def _is_key(text: str) -> bool:
    try:
        public_key(text)
    except ValueError:
        return False
    return True


def identity(key: bytes, name: str) -> str:
    """The host's handle on one player: his key with the name he owns (hex, not a secret:
    the host never takes it from a client)."""
    return hashlib.sha256(b"cardparty player\0" + key + b"\0" + name_key(name).encode()
                          ).hexdigest()[:32]
