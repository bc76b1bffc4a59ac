"""Usernames bound to keys (MO-1): the first key that says hello with a name owns it at this
host, for good; nobody else can act under that name there afterwards.

Owns: who owns which name (by ``safetext.name_folds``, so "eva", "Ｅｖａ" and a Cyrillic
"Еѵа" are Eva's too), the claim a hello makes (``claim``), which names have played (a game
started with them seated: their keys are *known*, and the host keeps room for them), names
that never played released once their key has not been seen for ``release`` seconds, or the
oldest of them when the host has bound as many names as it holds (``release_due``,
``claim``), so that fresh keys cannot fill the names for good; keeping owners in the host's store
when it has one (a row that cannot be an owner's is named in the log and skipped, never
bound). Who a player is at a host, his key and his name together, is ``store.identity``.

Must not know about: sockets, tables, games, terminals.
"""

from __future__ import annotations

import collections
import itertools
import logging
from collections.abc import Callable
from typing import Any

from cardparty.core.i18n import Msg
from cardparty.net.names.safetext import name_folds, name_key, name_problem, safe
from cardparty.net.store import Store
from cardparty.net.trust.keys import public_key

log = logging.getLogger("cardparty.host")

#: Names a host binds in all: a flood of fresh keys cannot grow its memory without bound.
MAX_OWNERS = 200_000
#: Names one key may own at a host: a person needs a few (a family sharing a computer, a
#: second name for trying things); a key saying hello with a fresh name again and again
#: must not fill the store's ``owners`` table, which is kept for good.
MAX_NAMES_PER_KEY = 16
#: Seconds after which a name whose key never played and was not seen since is free again.
RELEASE = 3600.0
#: Names looked at, at most, to find one to release when the host is full.
_RECYCLE_LOOK = 64

#: Whether the player of (key, name) is here now (connected, or holding a place): his name
#: is not released however long ago it was bound.
Present = Callable[[bytes, str], bool]


def _nobody(key: bytes, name: str) -> bool:
    return False


class NameTaken(Exception):
    """A name owned by another key (``name_taken``), or no room for another owner."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


class Owners:
    """The owners of the names at one host; read from and written to ``store`` (if any).
    ``most`` names are bound at most, of which strangers (keys that own no name that played)
    may bind all but the ``reserve`` share; ``release``: see ``RELEASE``."""

    def __init__(self, store: Store | None, most: int = MAX_OWNERS, reserve: float = 1 / 8,
                 release: float = RELEASE) -> None:
        self.store = store
        self.most = most
        self.strangers_room = max(1, most - max(1, int(most * reserve)))
        self.release = release
        #: the owner of each name, by both its ``name_folds``: his key and the name as he
        #: claimed it
        self.by_name: dict[str, tuple[bytes, str]] = {}
        #: names bound
        self.count = 0
        #: how many names each key owns (``MAX_NAMES_PER_KEY`` at most), and have played
        self.names_of: collections.Counter[bytes] = collections.Counter()
        self.played_of: collections.Counter[bytes] = collections.Counter()
        #: names that never played, by their first fold, the least recently seen first:
        #: (key, name, when last seen: wall clock)
        self.unplayed: collections.OrderedDict[str, tuple[bytes, str, float]] = (
            collections.OrderedDict())
        if store is not None:
            for row in store.owners():
                self._load(row)
            self.unplayed = collections.OrderedDict(
                sorted(self.unplayed.items(), key=lambda item: item[1][2]))

    def _load(self, row: tuple[Any, ...]) -> None:
        """One row of the store's ``owners``, bound if it can be an owner's; else named in
        the log and skipped (a row of garbage must not keep the name from its owner, who
        claims it again with his key). A row filed under another form than the name's first
        fold today (folded by Unicode's tables of an older version) is filed again under it,
        so that what the host writes of that owner later finds his row."""
        filed, key, name = row[:3]
        played, seen = (row[3], row[4]) if len(row) >= 5 else (1, 0.0)
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
                fold = self._bind(name, key.encode())
                if fold != filed and self.store is not None:
                    self.store.refile_owner(filed, fold)
                if played:
                    self.played_of[key.encode()] += 1
                else:
                    self.unplayed[fold] = (key.encode(), name,
                                           float(seen) if isinstance(seen, int | float) else 0.0)
                return
            why = f"it reads as {safe(held[1], 40)!r}, owned before it"
        log.warning("the store's owners row %s was skipped: %s; its name is not bound",
                    safe(repr(row), 120), why)

    def known(self, key: bytes) -> bool:
        """``key`` owns a name that played here: the host keeps room for it."""
        return self.played_of[key] > 0

    def claim(self, name: str, key: bytes, now: float = 0.0,
              present: Present = _nobody) -> None:
        """``key`` says hello as ``name`` at ``now`` (wall clock): bind the name to it if
        nobody owns it; NameTaken if another key does, or if the same key owns another name
        that reads like it. When the host holds as many names as it may (fewer for a
        stranger), the name that never played and was seen least recently, its player not
        ``present``, is released to make room."""
        owner, owned = self._held(name) or (None, "")
        if owner == key:
            if name_key(owned) != name_key(name):
                raise NameTaken("name_taken", Msg(
                    "the name {name} reads as {owned}, a name your key owns at this host: "
                    "say hello as {owned}", name=repr(name), owned=repr(owned)))
            self.seen(name, now)
            return
        if owner is not None:
            raise NameTaken("name_taken", Msg("the name {name} belongs to another player at "
                                              "this host (it is bound to his key, or reads as "
                                              "a name that is); choose another. If it is "
                                              "yours, ask the host's operator: your first "
                                              "contact with this host may have gone through "
                                              "another's key", name=repr(name)))
        if self.names_of[key] >= MAX_NAMES_PER_KEY:
            raise NameTaken("too_many", Msg("your key already owns {n} names at this host, as "
                                            "many as one key may: say hello with one of them",
                                            n=MAX_NAMES_PER_KEY))
        limit = self.most if self.known(key) else self.strangers_room
        while self.count >= limit:
            if not self._recycle(present):
                raise NameTaken("busy", Msg("this host has too many players"))
        fold = self._bind(name, key)
        self.unplayed[fold] = (key, name, now)
        if self.store is not None:
            self.store.put_owner(fold, key, name, now)

    def seen(self, name: str, now: float) -> None:
        """The owner of ``name`` was here at ``now`` (wall clock): a name that never played
        is released ``release`` seconds after he was last seen."""
        fold = self._fold(name)
        held = self.unplayed.get(fold) if fold is not None else None
        if held is None or fold is None:
            return
        self.unplayed[fold] = (held[0], held[1], now)
        self.unplayed.move_to_end(fold)
        if self.store is not None:
            self.store.owner_seen(fold, now, False)

    def played(self, name: str, now: float) -> None:
        """``name`` played here (a game started with it seated): its key is known, and the
        name is kept for good."""
        fold = self._fold(name)
        held = self.unplayed.pop(fold, None) if fold is not None else None
        if held is None or fold is None:
            return
        self.played_of[held[0]] += 1
        if self.store is not None:
            self.store.owner_seen(fold, now, True)

    def release_due(self, now: float, present: Present = _nobody, most: int = 128) -> int:
        """Release (at most ``most``) names that never played whose key was not seen for
        ``release`` seconds; one whose player is ``present`` counts as seen now. How many."""
        released = 0
        for _ in range(most):
            if not self.unplayed:
                break
            fold, (key, name, seen) = next(iter(self.unplayed.items()))
            if now - seen < self.release:
                break
            if present(key, name):
                self.seen(name, now)
                continue
            self._release(fold)
            released += 1
        return released

    def _recycle(self, present: Present) -> bool:
        """Release the name that never played, seen least recently, whose player is not
        present (the host is full); False when there is none."""
        for fold, (key, name, _) in itertools.islice(self.unplayed.items(), _RECYCLE_LOOK):
            if not present(key, name):
                self._release(fold)
                return True
        return False

    def _release(self, fold: str) -> None:
        key, name, _ = self.unplayed.pop(fold)
        for f in name_folds(name):
            if self.by_name.get(f, (None,))[0] == key:
                del self.by_name[f]
        self.names_of[key] -= 1
        if self.names_of[key] <= 0:
            del self.names_of[key]
        self.count -= 1
        if self.store is not None:
            self.store.drop_owner(fold)
        log.info("the name %s was released: its key never played and was not seen for a "
                 "while", safe(name, 40))

    def _fold(self, name: str) -> str | None:
        """The first fold of the name bound that ``name`` reads as (what the store keys)."""
        held = self._held(name)
        return None if held is None else name_folds(held[1])[0]

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

    def spelling(self, name: str) -> str:
        """``name`` as its owner spells it (``petr`` is ``Petr``), or as given when nobody
        owns it."""
        held = self._held(name)
        return name if held is None else held[1]


def _is_key(text: str) -> bool:
    try:
        public_key(text)
    except ValueError:
        return False
    return True
