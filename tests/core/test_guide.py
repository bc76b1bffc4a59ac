"""docs/writing-a-game.md answers an author's questions without the source: every value of the
contract is described field by field, its pyproject.toml is complete (the tested example's),
its decks are the code's, every question it lists points at a section it has, and its Python
parses."""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap
import tomllib
from pathlib import Path

import pytest

from cardparty.core import cards
from cardparty.core.contract import (
    Deadline,
    Event,
    GameInfo,
    Move,
    PlayerRow,
    Result,
    Setting,
    VariantInfo,
    View,
    Zone,
)

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "writing-a-game.md").read_text()
EXAMPLE = ROOT / "tests" / "thirdparty" / "highcard"


def section(number: int) -> str:
    """The text of the guide's section ``number`` (from its "## N." heading to the next)."""
    found = re.search(rf"^## {number}\. .*?(?=^## \d+\. |\Z)", GUIDE, re.M | re.S)
    assert found, f"the guide has no section {number}"
    return found.group(0)


def blocks(language: str, text: str = GUIDE) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)


@pytest.mark.parametrize("value", [GameInfo, Setting, VariantInfo, Move, Zone, Deadline,
                                   Result])
def test_every_field_of_each_value_is_described(value: type) -> None:
    said = section(3)
    missing = [f.name for f in dataclasses.fields(value) if f"`{f.name}`" not in said]
    assert not missing, f"{value.__name__}: {missing}"


@pytest.mark.parametrize("shape", [View, PlayerRow, Event])
def test_every_key_of_a_view_a_player_row_and_an_event_is_described(shape: type) -> None:
    said = section(3)
    missing = [key for key in shape.__annotations__ if f"`{key}`" not in said]
    assert not missing, f"{shape.__name__}: {missing}"


def test_turn_is_said_for_several_seats_moving_at_once() -> None:
    assert "**None when several seats may move at once**" in section(3)


def test_the_guides_pyproject_is_the_tested_examples_and_complete() -> None:
    [toml] = blocks("toml", section(1))
    assert toml == (EXAMPLE / "pyproject.toml").read_text()
    data = tomllib.loads(toml)
    assert data["build-system"]["build-backend"] and data["build-system"]["requires"]
    assert data["project"]["name"] and data["project"]["version"]
    assert data["project"]["entry-points"]["cardparty.games"] == {
        "highcard": "cardparty_highcard", "highcard-lowball": "cardparty_highcard.lowball"}
    assert data["tool"]["setuptools"]["packages"] == ["cardparty_highcard"]


@pytest.mark.parametrize("deck", ["french_deck", "piquet_deck", "canasta_deck", "pika_deck"])
def test_every_deck_is_described_with_its_size(deck: str) -> None:
    size = len(getattr(cards, deck)())
    assert re.search(rf"^\| `{deck}\(\)` \| {size}", section(2), re.M), deck


def test_the_card_codes_are_the_codes_of_the_code() -> None:
    said = section(2)
    assert cards.RANKS == "23456789TJQKA" and cards.SUITS == "SHDC"
    assert "rank `2` to `9`, `T`, `J`, `Q`, `K`, `A` (`RANKS`, lowest first)" in said
    assert "suit `S` `H` `D` `C` (`SUITS`)" in said and "`TH` ten of hearts" in said
    assert cards.french_deck()[:2] == ["2S", "3S"] and "`2S 3S ... AS 2H ... AC`" in said


def test_every_question_points_at_a_section_the_guide_has() -> None:
    rows = re.findall(r"^\| (.+?) \| (\d+)(?:, [^|]*)? \|$", section(0), re.M)
    assert len(rows) >= 12
    for _question, number in rows:
        section(int(number))
    asked = " ".join(q for q, _n in rows)
    for topic in ("pyproject.toml", "card codes", "`turn`", "some seats", "checker",
                  "determinize", "variant add a move", "`Catalog`", "label", "estimate",
                  "publishing", "version"):
        assert topic in asked, topic


def test_every_python_block_of_the_guide_parses() -> None:
    for code in blocks("python"):
        ast.parse(textwrap.dedent(code))
