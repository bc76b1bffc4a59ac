"""Names that cannot pass for others (issue 25, item 4; "What was seen" 6): a name that mixes
scripts, reads as a name another key owns (Unicode's confusables skeleton, UTS #39), shows
nothing, or hides an accent is refused at hello, or kept in the form everybody sees."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cardparty.net.host.owners import NameTaken, Owners
from cardparty.net.names.safetext import name_folds, name_problem
from cardparty.net.store import Store
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import ProtocolError, check_request, message
from tests.net.hostkit import Kit

#: What the issue saw welcomed as new players while "Vic" played.
LOOKALIKES = {
    "V\u0456c": "Cyrillic i",
    "Vi\u0441": "Cyrillic es",
    "\u03bdic": "Greek nu",
    "V\u03b9c": "Greek iota",
}
BLANK = {"\u3164": "Hangul filler", "\u2800": "blank braille pattern",
         "Eva\u3164": "a Hangul filler after Eva", "\u115f\u1160": "Hangul fillers",
         "\u3164\u3164 ": "fillers and a space", "Eva\u00a0": "a no-break space"}


@pytest.mark.parametrize("name", LOOKALIKES, ids=LOOKALIKES.values())
def test_a_name_mixing_scripts_is_refused_at_hello(name: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        check_request(message("hello", name=name))
    assert refused.value.code == "bad_field"
    assert "mixes letters of" in refused.value.message
    assert set(name_folds(name)) & set(name_folds("Vic"))   # and it would read as Vic


@pytest.mark.parametrize("name", BLANK, ids=BLANK.values())
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    why = name_problem(name)
    assert why is not None and ("invisible" in why or "space" in why), why


def test_a_name_must_show_a_letter_or_a_digit() -> None:
    assert name_problem("🂡") == "must show at least one letter or digit"
    assert name_problem("--") == "must show at least one letter or digit"
    assert name_problem("🂡 ace") is None and name_problem("7") is None


def test_a_combining_accent_is_kept_as_the_letter_everybody_sees() -> None:
    """"Vić" typed as c + U+0301 is the name Vić, its accent part of the letter (NFC), not a
    "Vic" whose accent a terminal may drop; an accent no letter has is refused."""
    assert check_request(message("hello", name="Vic\u0301"))["name"] == "Vi\u0107"
    assert name_folds("Vic\u0301") == name_folds("Vi\u0107")
    assert not set(name_folds("Vi\u0107")) & set(name_folds("Vic"))
    assert "combining mark" in (name_problem("Vi\u0107\u0301") or "")
    assert "combining mark" in (name_problem("\u0301Eva") or "")
    assert "combining mark" in (name_problem("E\u0301\u0302\u0303\u0304va") or "")


@pytest.mark.parametrize("name", ["Eva", "Jean-Luc", "Zoë", "Nguyễn", "Petr Šťastný",
                                  "Åsa Öberg", "山田", "田中たろう", "Kim 김", "Ελένη",
                                  "Дмитрий", "देवनागरी", "ดวงดี", "עִבְרִית", "Eva2"])
def test_names_of_real_people_pass(name: str) -> None:
    assert name_problem(name) is None, name_problem(name)


def test_a_name_written_in_another_script_that_reads_alike_is_taken() -> None:
    vic, eva, mallory = (KeyPair.generate().public for _ in range(3))
    owners = Owners(None)
    owners.claim("Vic", vic)
    owners.claim("Eva", eva)
    owners.claim("Sam", mallory)
    # one script each, so fair names, but they read as Eva, Vic and Sam ("rn" as "m")
    owners.claim("Ilona", vic)
    owners.claim("Tom", vic)
    for lookalike, owner in (("\u0415\u0475\u0430", "Eva"), ("\u0395\u03bd\u03b1", "Eva"),
                             ("VIC", "Vic"), ("Ｖｉｃ", "Vic"), ("Sarn", "Sam"),
                             ("\u0422\u041e\u041c", "Tom"), ("llona", "Ilona"),
                             ("ILONA", "Ilona")):
        assert name_problem(lookalike) is None, lookalike
        thief = eva if owner == "Sam" else mallory
        with pytest.raises(NameTaken) as refused:
            owners.claim(lookalike, thief)
        assert refused.value.code == "name_taken"
    owners.claim("Mia", mallory)
    owners.claim("Mla", eva)                  # an "i" is not an "l"
    with pytest.raises(NameTaken) as mine:    # the same key: say hello as the name it owns
        owners.claim("\u0415\u0475\u0430", eva)
    assert "'Eva'" in str(mine.value.message)


def test_on_the_wire_the_issues_names_are_refused_and_the_lookalike_is_taken() -> None:
    kit = Kit()
    vic_key, guest = KeyPair.generate().public, KeyPair.generate().public
    kit.player("Vic", key=vic_key)
    for name in [*LOOKALIKES, *BLANK, "Vi\u0107\u0301\u0301"]:
        with pytest.raises(ProtocolError) as refused:
            kit.player(name, key=guest)
        assert refused.value.code == "bad_field", name
    with pytest.raises(ProtocolError) as taken:
        kit.player("VIC", key=guest)
    assert taken.value.code == "name_taken"
    assert kit.player("Vic\u0301", key=guest).name == "Vi\u0107"


def test_a_store_row_that_cannot_be_an_owners_is_named_and_skipped(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    eva = KeyPair.generate().public
    store = Store(tmp_path)
    store.db.executescript(
        "INSERT INTO owners (name_key, key, name) VALUES ('eva', 'garbage', 'Eva');"
        "INSERT INTO owners (name_key, key, name) VALUES ('x', X'00ff', 'Bob');"
        "INSERT INTO owners (name_key, key, name) VALUES ('y', 'z', '');"
        "INSERT INTO owners (name_key, key, name) VALUES "
        f"('v', '{KeyPair.generate().public.decode()}', 'V\u0456c');")
    with caplog.at_level(logging.WARNING, "cardparty.host"):
        owners = Owners(store)
    skipped = [r for r in caplog.records if "owners row" in r.getMessage()]
    assert len(skipped) == 4, caplog.text
    assert all("\n" not in r.getMessage() for r in skipped)
    owners.claim("Eva", eva)                 # the garbage row does not keep Eva out
    owners.claim("Vic", eva)
    store.close()
