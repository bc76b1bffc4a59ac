"""A new game's package, made from the template (``cardparty new-game NAME``).

The template (``core/newgame_template/*.tmpl``) is not written by hand: it is generated from
the tested example, ``tests/thirdparty/highcard`` (``make template``), by putting
placeholders where the example says its own names, and a test holds the two together both
ways: the template is what the example generates, and the template made for ``highcard``
is the example itself, byte for byte. So a new package starts as a game that installs,
is listed, passes its own tests and plays at a host, because the example does.

Placeholders: ``@@id@@`` the game's id (``my-game``), ``@@package@@`` its import name
(``cardparty_my_game``), ``@@dist@@`` its distribution (``cardparty-my-game``), ``@@Class@@``
the prefix of its state class (``MyGame``), ``@@title@@`` its name as players read it.

Must not know about: any particular game's rules, sockets, terminals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: Where the template's files are, in this package.
TEMPLATE_DIR = Path(__file__).with_name("newgame_template")

#: The example's names, in the order they are replaced (the longest first).
EXAMPLE = {"id": "highcard", "title": "High card"}

#: Each file of a new package: its path in the example, its template file, its path in the
#: new package (with placeholders).
FILES = (
    ("pyproject.toml", "pyproject.toml.tmpl", "pyproject.toml"),
    ("README.md", "README.md.tmpl", "README.md"),
    ("cardparty_highcard/__init__.py", "game.py.tmpl", "@@package@@/__init__.py"),
    ("cardparty_highcard/lowball.py", "variant.py.tmpl", "@@package@@/lowball.py"),
    ("tests/test_highcard.py", "test_game.py.tmpl", "tests/test_@@id@@.py"),
)

#: What a game's id may be: it names an entry point, a table's game on the wire (32
#: characters at most) and, with ``-`` as ``_``, a Python package.
ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_ID = 24


class TemplateError(ValueError):
    """A name the template cannot take, or a folder it will not write over; one line."""


@dataclass(frozen=True)
class Names:
    """Every name a new package says, made from its id and title."""

    id: str
    title: str

    @property
    def package(self) -> str:
        return "cardparty_" + self.id.replace("-", "_")

    @property
    def dist(self) -> str:
        return "cardparty-" + self.id

    @property
    def klass(self) -> str:
        return "".join(part.capitalize() for part in self.id.split("-"))

    def placeholders(self) -> dict[str, str]:
        return {"@@package@@": self.package, "@@dist@@": self.dist, "@@Class@@": self.klass,
                "@@title@@": self.title, "@@id@@": self.id}


def names(game_id: str, title: str | None = None) -> Names:
    """The names of a new game ``game_id`` (TemplateError for an id the template cannot
    take); its title defaults to the id in words ("my-game": "My game")."""
    if not ID.fullmatch(game_id) or len(game_id) > MAX_ID:
        raise TemplateError(f"a game's id is {MAX_ID} lower-case letters, digits and single "
                            f"hyphens at most, starting with a letter (my-game), not "
                            f"{game_id!r}")
    if title is not None and (not title.strip() or "\n" in title or len(title) > 40):
        raise TemplateError("a game's title is one line of 1 to 40 characters")
    return Names(game_id, title.strip() if title else game_id.replace("-", " ").capitalize())


def generate(example: Path) -> dict[str, str]:
    """The template's files (name -> text) made from the example package at ``example``:
    each of the example's names replaced by its placeholder. Raises TemplateError where the
    example would not come back as itself (a placeholder already in it, or its name left
    in a form no placeholder stands for)."""
    ex = Names(EXAMPLE["id"], EXAMPLE["title"])
    out: dict[str, str] = {}
    for source, template, _target in FILES:
        text = (example / source).read_text(encoding="utf-8")
        if "@@" in text:
            raise TemplateError(f"{source}: the example may not hold '@@' (the placeholders'"
                                f" mark)")
        for placeholder, value in ex.placeholders().items():
            text = text.replace(value, placeholder)
        left = re.findall(r"(?i)high ?card", text)
        if left:
            raise TemplateError(f"{source}: the example's name is left as {left[0]!r}")
        out[template] = text
    return out


def read_template(folder: Path = TEMPLATE_DIR) -> dict[str, str]:
    """The committed template's files, name -> text."""
    return {template: (folder / template).read_text(encoding="utf-8")
            for _source, template, _target in FILES}


def render(template: dict[str, str], new: Names) -> dict[str, str]:
    """A new package's files (its relative path -> text) from ``template``."""
    swaps = new.placeholders()

    def fill(text: str) -> str:
        for placeholder, value in swaps.items():
            text = text.replace(placeholder, value)
        return text

    return {fill(target): fill(template[name]) for _source, name, target in FILES}


def write(parent: Path, new: Names, template: dict[str, str] | None = None) -> Path:
    """Write the package of game ``new`` into ``parent``/cardparty-ID (TemplateError if that
    folder exists: nothing is written over); returns the folder."""
    folder = parent / new.dist
    if folder.exists():
        raise TemplateError(f"{folder} exists already: choose another name or folder")
    files = render(template or read_template(), new)
    for path, text in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder


def regenerate(example: Path, folder: Path = TEMPLATE_DIR) -> list[str]:
    """``make template``: write the template generated from ``example``; the names of the
    files that changed."""
    changed = []
    for name, text in generate(example).items():
        target = folder / name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            changed.append(name)
    return changed


if __name__ == "__main__":
    import sys

    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("tests/thirdparty/highcard")
    TEMPLATE_DIR.mkdir(exist_ok=True)
    print("template: " + (", ".join(regenerate(root)) or "unchanged"))
