"""MO-1 at the level of the store: a name is bound to the first key that claims it, kept in
the host's SQLite file across restarts, and spelt any way it is still the same name."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardparty.net.host.owners import NameTaken, Owners
from cardparty.net.names.safetext import name_folds
from cardparty.net.store import Store, identity
from cardparty.net.trust.keys import KeyPair


def test_mo_1_the_first_key_owns_a_name_and_keeps_it_across_restarts(tmp_path: Path) -> None:
    eva, mallory = KeyPair.generate().public, KeyPair.generate().public
    store = Store(tmp_path)
    owners = Owners(store)
    owners.claim("Eva", eva)
    owners.claim("Eva", eva)                      # the owner again: fine
    for spelling in ("Eva", "eva", "ＥＶＡ"):
        with pytest.raises(NameTaken) as refused:
            owners.claim(spelling, mallory)
        assert refused.value.code == "name_taken"
    owners.claim("Mallory", mallory)
    store.close()
    reopened = Store(tmp_path)
    try:
        again = Owners(reopened)
        assert again.owner("EVA") == eva and again.owner("mallory") == mallory
        with pytest.raises(NameTaken):
            again.claim("Eva", mallory)
    finally:
        reopened.close()


def test_an_identity_is_a_key_and_a_name() -> None:
    a, b = KeyPair.generate().public, KeyPair.generate().public
    assert identity(a, "Eva") == identity(a, "eva")
    assert len({identity(a, "Eva"), identity(b, "Eva"), identity(a, "Bob")}) == 3


def test_an_owner_filed_under_an_older_unicode_s_fold_is_filed_again_under_today_s(
        tmp_path: Path) -> None:
    """Unicode's confusable tables change between versions ("Győző" and Hangul names fold
    otherwise in 18.0 than in 17.0): an owner's row filed under the fold of the tables a
    host had before is filed again when the store is read, so that seeing him, his playing
    and releasing his name still reach his row."""
    key = KeyPair.generate().public
    store = Store(tmp_path)
    try:
        store.put_owner("gyozo as folded before", key, "Győző", seen=10.0)
        owners = Owners(store)
        fold = name_folds("Győző")[0]
        assert [row[0] for row in store.owners()] == [fold]
        owners.seen("Győző", 20.0)
        assert store.owners()[0][4] == 20.0
        assert owners.owner("GYŐZŐ") == key
    finally:
        store.close()
