"""How things look: the style classes, card colours from card codes, and the glyphs that
``--ascii`` replaces.

Card colours come from the codes of ``cardparty.core.cards`` (a French card's suit, a Pika
card's colour letter), which every game shares; nothing here knows a rule. With ``NO_COLOR``
set, prompt-toolkit drops colours and the styles keep only bold, underline and reverse, which
still tell the legal cards, the cursor and the selection apart.

Must not know about: game rules, the wire.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from prompt_toolkit.styles import Style

from cardparty.core.cards import JOKER, RANKS, SUITS, colour, is_french, pretty
from cardparty.core.contract import MoveMap
from cardparty.core.i18n import translate

STYLE = Style.from_dict({
    "title": "reverse bold",
    "banner": "bg:ansired fg:ansiwhite bold",
    "error": "fg:ansired bold",
    "notice": "fg:ansicyan",
    "dim": "fg:ansibrightblack",
    "turn": "bold",
    "me": "fg:ansicyan bold",
    "warn": "fg:ansiyellow bold",
    "card.red": "fg:ansired",
    "card.yellow": "fg:ansiyellow",
    "card.green": "fg:ansigreen",
    "card.blue": "fg:ansiblue",
    "card.black": "fg:ansimagenta",
    "card.plain": "",
    "legal": "bold underline",
    "illegal": "",
    "cursor": "reverse",
    "selected": "bold",
    "dialog": "bg:ansiblue fg:ansiwhite",
    "dialog.cursor": "reverse bold",
    "heading": "bold underline",
    "key": "bold fg:ansiyellow",
    "chat": "fg:ansigreen",
})


@dataclass(frozen=True)
class Glyphs:
    """Markers drawn around the screen; ``ascii`` ones for terminals without Unicode."""

    turn: str = "▶"
    sep: str = " · "
    rule: str = "─"
    clock: str = "⏱"
    warn: str = "⚠"
    more: str = "…"


UNICODE = Glyphs()
ASCII = Glyphs(turn=">", sep=" | ", rule="-", clock="T-", warn="!!", more="...")


def glyphs(ascii_only: bool) -> Glyphs:
    return ASCII if ascii_only else UNICODE


def no_color() -> bool:
    """The NO_COLOR convention (https://no-color.org): set and not empty."""
    return bool(os.environ.get("NO_COLOR"))


_ASCII_MAP = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c", "«": '"', "»": '"',
                            "·": "|", "…": "...", "─": "-", "▶": ">", "⏱": "T-", "⚠": "!!",
                            "—": "-", "–": "-", "’": "'", "“": '"', "”": '"', "á": "a",
                            "č": "c", "Á": "A", "Č": "C"})


def to_ascii(text: str) -> str:
    """``text`` for a terminal without Unicode: symbols spelled out, accents dropped."""
    if text.isascii():
        return text
    text = text.translate(_ASCII_MAP)
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch if ch.isascii() else "?" for ch in decomposed
                   if not unicodedata.combining(ch))


_PIKA = {"R": "card.red", "Y": "card.yellow", "G": "card.green", "B": "card.blue"}


#: The four-colour deck (a setting of the client, ``--four-colour``): each suit its colour,
#: so that ♦ and ♥, ♣ and ♠ differ at a glance; the symbols still say the suit where there
#: is no colour (``NO_COLOR``).
FOUR_COLOURS = {"S": "card.plain", "H": "card.red", "D": "card.blue", "C": "card.green"}


def card_class(code: str, four_colour: bool = False) -> str:
    """The colour class of a card code: a French card by suit (red and black, or the four
    colours), a Pika card by colour."""
    printed = colour(code)
    if is_french(code):
        return FOUR_COLOURS[code[1]] if four_colour else (
            "card.red" if printed == "red" else "card.plain")
    if printed == "black":
        return "card.black"
    return _PIKA.get(printed, "card.plain")


_FRENCH = re.compile(rf"\b([{RANKS}][{SUITS}]|{JOKER})\b")


def pretty_text(text: str, cards: Any, ascii_only: bool = False) -> str:
    """``text`` (a move's label, an event's sentence) with the French card codes it names
    among ``cards`` written as players read them ("9C" -> "9♣", "X" -> "Joker"); other words
    are left alone."""
    codes = {str(c) for c in cards or () if isinstance(c, str)}
    if not codes or not _FRENCH.search(text):
        return text
    return _FRENCH.sub(lambda m: card_name(m.group(1), ascii_only)
                       if m.group(1) in codes else m.group(1), text)


def card_name(code: str, ascii_only: bool = False) -> str:
    """A card as a player reads it, in his language (the Joker's name is a word)."""
    shown = pretty(code, ascii_only)
    return translate(shown) if code == JOKER else shown


def label_of(move: MoveMap, ascii_only: bool = False) -> str:
    return pretty_text(str(move.get("label") or move.get("kind", "?")), move.get("cards"),
                       ascii_only)
