"""Unicode one way for the name rules: the confusable tables (net/names/unicode_names.txt,
package data made by net/names/unicode_names_build.py) and every character property the rules
read (net/names/ucd.py, ``unicodedata2``) are of one Unicode version.

The shipped tables are held to what the builder makes of Unicode's own files when a folder of
them is at hand (``CARDPARTY_UNICODE_DIR``: confusables.txt, Scripts.txt and
DerivedCoreProperties.txt of that version); without it, to the builder's reading of small
files written here and to confusables everybody knows.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from cardparty.net.names import confusable, ucd
from cardparty.net.names.confusable import invisible, script_of, skeleton
from cardparty.net.names.safetext import name_problem, safe
from cardparty.net.names.unicode_names_build import build, sections

#: Three letters of Garay, a script Unicode added in 16.0, after the interpreter's tables.
GARAY = "\U00010d50\U00010d51\U00010d52"


def test_the_tables_and_the_character_database_are_of_one_unicode_version() -> None:
    assert confusable.version() == ucd.unidata_version


def test_every_code_point_the_tables_give_a_script_is_assigned_in_the_database() -> None:
    """Tables newer than the database would give scripts to what it calls unassigned."""
    tables = confusable._tables()
    unassigned = [hex(cp) for lo, hi in zip(tables.starts, tables.ends, strict=True)
                  for cp in range(lo, hi + 1) if ucd.category(chr(cp)) == "Cn"]
    assert unassigned == []


def test_known_confusables_read_alike_and_known_scripts_are_told() -> None:
    assert skeleton("V\u0456c") == skeleton("Vic")            # a Cyrillic і
    assert skeleton("rn") == skeleton("m")
    assert skeleton("\u0430") == skeleton("a")                 # a Cyrillic а
    assert skeleton("Vic") != skeleton("Vik")
    assert (script_of("ж"), script_of("λ"), script_of("a"), script_of("7")) == (
        "Cyrillic", "Greek", "Latin", None)
    assert invisible("\u200b") and invisible("\u3164") and invisible("\u00a0")
    assert not invisible("a") and not invisible(" ")


def test_a_name_in_a_script_newer_than_the_interpreter_s_unicode_is_a_name() -> None:
    """Before, printability and categories came from the interpreter's Unicode (14.0 on
    Python 3.11), where Garay is unassigned: the name was refused as an invisible character
    although the confusable tables knew its script."""
    assert script_of(GARAY[0]) == "Garay"
    assert name_problem(GARAY) is None
    assert safe(GARAY) == GARAY
    if unicodedata.unidata_version < "16.0.0":                # what was read before
        assert not GARAY.isprintable()


def test_printable_is_str_isprintable_by_the_rules_own_unicode() -> None:
    for c in map(chr, range(0x80)):
        assert ucd.printable(c) == c.isprintable()
    assert ucd.printable(GARAY[0]) and ucd.printable("é") and ucd.printable("ж")
    for c in ("\u0085", "\u00a0", "\u200b", "\u2028", "\u202e", "\ue000", "\U000e0001",
              "\U0010ffff"):
        assert not ucd.printable(c), hex(ord(c))


UNICODE_FILES = {
    "confusables.txt": """\
# confusables.txt
# Version: 99.0.0
0441 ;\t0063 ;\tMA\t# ( с → c ) CYRILLIC SMALL LETTER ES → LATIN SMALL LETTER C
FF4D ;\t0072 006E ;\tMA\t# ( ｍ → rn )
""",
    "Scripts.txt": """\
# Scripts-99.0.0.txt
0041..005A    ; Latin # L&  [26]
0061..007A    ; Latin # L&  [26]
0030..0039    ; Common # Nd  [10]
0400..0484    ; Cyrillic # L&
0487..052F    ; Cyrillic # L&
""",
    "DerivedCoreProperties.txt": """\
# DerivedCoreProperties-99.0.0.txt
0041..005A    ; Alphabetic
200B          ; Default_Ignorable_Code_Point # Cf
2060..2064    ; Default_Ignorable_Code_Point # Cf
""",
}


def test_the_builder_makes_the_tables_the_rules_read_of_unicode_s_files(
        tmp_path: Path) -> None:
    for name, text in UNICODE_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    text = build(tmp_path)
    assert text.startswith("# Unicode 99.0.0's data") and "Unicode License v3" in text
    assert max(len(line) for line in text.splitlines()) <= 99
    tables = confusable.read(text)
    assert tables.version == "99.0.0"
    assert tables.prototype == {"с": "c", "ｍ": "rn"}
    assert (tables.starts, tables.ends, tables.scripts) == (
        [0x41, 0x61, 0x400, 0x487], [0x5A, 0x7A, 0x484, 0x52F],
        ["Latin", "Latin", "Cyrillic", "Cyrillic"])
    assert tables.ignorable == frozenset({0x200B, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064})


def test_a_table_file_without_one_of_its_sections_is_refused() -> None:
    shipped = confusable.TABLES.read_text(encoding="utf-8")
    without = shipped.replace("[ignorable]", "[ignored]")
    with pytest.raises(ValueError, match="lack ignorable"):
        sections(without)


@pytest.mark.skipif(not os.environ.get("CARDPARTY_UNICODE_DIR"),
                    reason="CARDPARTY_UNICODE_DIR names no folder of Unicode's files")
def test_the_shipped_tables_are_what_the_builder_makes_of_unicode_s_files() -> None:
    folder = Path(os.environ["CARDPARTY_UNICODE_DIR"])
    assert build(folder) == confusable.TABLES.read_text(encoding="utf-8")
