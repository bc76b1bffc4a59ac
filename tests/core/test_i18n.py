"""The catalogs against the code: every message id the code uses is in every catalog, none is
left over, every one is translated (the coverage is counted), the committed .mo files are the
.po files compiled, and a message crosses the wire as an id that a client may refuse."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import msgpack
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cardparty.core.i18n import (
    LOCALE_DIR,
    Msg,
    choose_language,
    from_wire,
    known_ids,
    plural_msg,
    translate,
)

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"Msg": None, "plural_msg": (1, 2), "N_": None, "_": None, "ngettext": (1, 2)}
FOLDERS = ("core", "client", "net", "plugins")
TRANSLATED = ("cs", "ca")
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def used_ids() -> set[str]:
    """What ``make i18n`` extracts: the ids the code uses."""
    ids: set[str] = set()
    for folder in FOLDERS:
        for _file, _line, message, _comments, _ctx in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            ids.add(message[0] if isinstance(message, tuple) else message)
    return ids


def catalog(lang: str):
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "cardparty.po", "rb") as fh:
        return read_po(fh, locale=lang)


@pytest.fixture(scope="module")
def used() -> set[str]:
    return used_ids()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_id_in_the_code_is_in_the_catalog_and_none_is_left_over(used: set[str],
                                                                       lang: str) -> None:
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog(lang) if m.id}
    assert not sorted(used - ids), f"missing in {lang}: run make i18n and translate"
    assert not sorted(ids - used), f"unused in {lang}: run make i18n"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_id_is_translated_with_the_same_fields(lang: str) -> None:
    cat = catalog(lang)
    total = done = 0
    for m in cat:
        if not m.id:
            continue
        total += 1
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if all(strings):
            done += 1
        want = set(FIELD.findall(ids[-1]))
        for s in strings:
            assert set(FIELD.findall(s)) <= want | set(FIELD.findall(ids[0])), (lang, m.id, s)
            assert set(FIELD.findall(s)) >= set(FIELD.findall(ids[0])) - {"n"}, (lang, m.id, s)
    print(f"{lang}: {done} of {total} message ids translated ({100 * done // total}%)")
    assert done == total, f"{total - done} ids of {lang} are not translated"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_is_the_po_compiled(lang: str) -> None:
    """The runtime reads the .mo (no Babel on a host): it must say what the .po says."""
    buf = io.BytesIO()
    write_mo(buf, catalog(lang))
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "cardparty.mo", "rb") as fh:
        committed = gettext.GNUTranslations(fh)
    assert committed._catalog == fresh._catalog, "run make i18n (the .mo is stale)"


def test_a_message_reads_as_english_and_translates_per_language() -> None:
    m = Msg("{who} plays {card} and names {colour}", who="Eva", card="W", colour=Msg("red"))
    assert m == "Eva plays W and names red"
    assert translate(m, "cs") == "Eva hraje W a volí červená"
    assert translate(m, "ca") == "Eva juga W i tria vermell"
    assert translate(m, "en") == str(m)


def test_plurals_follow_each_language() -> None:
    def cs(n: int) -> str:
        return translate(plural_msg("{n} card", "{n} cards", n), "cs")

    assert [cs(1), cs(3), cs(5)] == ["1 karta", "3 karty", "5 karet"]
    assert translate(plural_msg("{n} card", "{n} cards", 2), "ca") == "2 cartes"


def test_a_missing_translation_falls_back_to_english_never_to_an_id() -> None:
    m = Msg("{who} hums {tune}", who="Eva", tune="a song")       # in no catalog
    assert translate(m, "cs") == "Eva hums a song"


def test_over_the_wire_only_known_ids_are_accepted() -> None:
    m = Msg("{card} is not in your hand", card="R7")
    back = from_wire(msgpack.unpackb(msgpack.packb(m.to_wire())))
    assert back is not None and translate(back, "cs") == "R7 nemáš v ruce"
    # an id no catalog has: the client shows the English text sent next to it instead
    assert from_wire({"id": "{x:>99999999}", "p": {"x": 1}}) is None
    assert from_wire({"id": "red", "p": {"x": object()}}) is None
    assert from_wire("red") is None
    deep = {"id": "{who}: {text}", "p": {"who": "a", "text": "b"}}
    for _ in range(6):
        deep = {"id": "{who}: {text}", "p": {"who": deep, "text": "b"}}
    assert from_wire(deep) is None
    # a nested word we do not know (a third-party game's move kind) is shown as it is
    said = from_wire({"id": "{who} {kind}", "p": {"who": "Eva", "kind": {"id": "bid"}}})
    assert said is not None and translate(said, "ca") == "Eva: bid"


def test_a_format_spec_from_the_wire_is_never_evaluated() -> None:
    said = from_wire({"id": "{who}: {text}", "p": {"who": "{0.__class__}", "text": "x"}})
    assert said is not None and translate(said, "cs") == "{0.__class__}: x"


def test_the_language_follows_the_locale_and_the_option_overrides_it() -> None:
    assert choose_language(None, {"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert choose_language(None, {"LANG": "cs_CZ.UTF-8", "LC_MESSAGES": "ca_ES.UTF-8"}) == "ca"
    assert choose_language(None, {"LC_ALL": "en_GB.UTF-8", "LANG": "cs_CZ"}) == "en"
    assert choose_language(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert choose_language(None, {}) == "en"
    assert choose_language("ca", {"LANG": "cs_CZ.UTF-8"}) == "ca"
    with pytest.raises(ValueError, match="no language 'de'"):
        choose_language("de", {})


def test_the_command_line_help_speaks_the_chosen_language(capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    from cardparty.client.cli import main
    from cardparty.core.i18n import set_language

    try:
        for argv in (["--lang", "cs", "--help"], ["play", "--help", "--lang=cs"]):
            with pytest.raises(SystemExit) as done:
                main(argv)
            assert done.value.code == 0
            out = capsys.readouterr().out
            assert out.startswith("použití: cardparty")
            assert "usage" not in out and "show this help" not in out
        assert "hrát hru proti botům" in out or "ukázat tuto nápovědu" in out
    finally:
        set_language("en")
    assert main(["--lang", "de", "games"]) == 2
    assert "no language 'de'" in capsys.readouterr().err


BUILT_IN = ("kakhead", "pika", "pikac", "piquet")


def test_every_setting_and_variant_of_the_games_has_its_words_in_the_catalogs() -> None:
    """The create form and the waiting room name each setting by its label and explain it by
    its help, and list each variant by its name and description: all of them are ids of the
    catalogs (which translate every id, above). A label of its own, never the bare key: "deals"
    would read as another word of the catalogs (a player's status)."""
    from cardparty.core.discovery import load_catalog

    catalog_ = load_catalog()
    known = known_ids()
    for game in BUILT_IN:
        for name, setting in catalog_.game(game).settings.items():
            if setting.kind == "cards":                    # the deck: no row in any form
                continue
            assert setting.label and setting.help, (game, name, "needs a label and a help")
            assert {setting.label, setting.help} <= known, (game, name)
        for variant in catalog_.variants_of(game):
            assert {variant.name, variant.description} <= known, variant.id
