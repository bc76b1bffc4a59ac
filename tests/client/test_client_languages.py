"""The table in each language: a real client at a real host plays a turn of each game in
Czech, Catalan and English; the Czech and Catalan screens hold no English word of the
catalog's source, and the table screen stays within 80 columns in every language."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import LOCALE_DIR, set_language
from tests.client.clientkit import HostKit, choose_by_keys, seated
from tests.client.test_client_small import snapshot

WORD = re.compile(r"[^\W\d_]{3,}")
#: Words that are the same in every language here: names, keys, the program's name.
SAME = {"Pika", "Eva", "Bot", "cardparty", "Enter", "Tab", "Esc", "Ctrl", "help"}
def english_words() -> set[str]:
    """Words of the catalog's English source that no translation uses."""
    source: set[str] = set()
    target: set[str] = set()
    for lang in ("cs", "ca"):
        with open(LOCALE_DIR / lang / "LC_MESSAGES" / "cardparty.po", "rb") as fh:
            for m in read_po(fh, locale=lang):
                if not m.id:
                    continue
                for s in m.id if isinstance(m.id, tuple) else (m.id,):
                    source.update(WORD.findall(re.sub(r"\{[^}]*\}", "", s)))
                for s in m.string if isinstance(m.string, tuple) else (m.string,):
                    target.update(WORD.findall(s))
    return {w for w in source - target - SAME}


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    set_language("en")


def cases() -> list[tuple[str, str]]:
    """Every game (no variant) in every language."""
    return [(g, lang) for g in sorted(load_catalog().games) if "-" not in g
            for lang in ("cs", "ca", "en")]


@pytest.mark.parametrize(("game", "lang"), cases())
def test_a_turn_in_each_language(kit: HostKit, speaking: None, game: str, lang: str) -> None:
    set_language(lang)
    c = seated(kit, game, load_catalog().game(game).max_players, seed=3)
    rng = random.Random(7)
    for _ in range(3):                 # a turn: the player's move and the bots' answers
        choose_by_keys(c, rng)
    c.key("tab")
    screens = [snapshot(c, 80, 24)]
    c.key("?")
    screens.append(snapshot(c, 80, 24))
    c.key("?")
    screens.append(snapshot(c, 80, 24))
    c.key("escape")
    wide = snapshot(c, 160, 24)
    c.close()
    assert "too small" not in screens[0] and "malý" not in screens[0]
    # The players, zones, log and moves wrap to the screen's width by themselves; the lines
    # that cannot wrap (the title, the keys at the bottom) fit 80 columns unwrapped.
    lines = wide.splitlines()
    for line in (lines[0], lines[-1]):
        assert len(line) <= 80, (lang, line)
    if lang == "en":
        assert "Hand" in screens[0]
        return
    english = english_words()
    for text in screens:
        found = sorted({w for w in WORD.findall(text) if w in english})
        assert not found, (game, lang, found, text)
