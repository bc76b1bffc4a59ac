"""The distribution builds as ``make play`` builds it, with no packaging warning (issue 27,
item 15: some 100 lines of "Package would be ignored" for the catalogs' folders were printed
before the first table), and ships the message catalogs of every language and the name rules'
Unicode tables.

The build runs setuptools' own backend on a copy of the tree (what a fresh clone holds), so
nothing is written into the working tree and no index is asked for anything.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cardparty.core.i18n import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
TREE = ("setup.py", "pyproject.toml", "README.md", "core", "net", "client", "plugins")
#: setuptools' note on every editable install of a layout mapped by package_dir: information,
#: not a defect of the packaging (the Makefile's setup leaves it out, and only it).
EDITABLE_NOTE = "InformationOnly: Editable installation."


@pytest.fixture(scope="module")
def fresh_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("clone")
    for name in TREE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, tree / name)
    return tree


def build(tree: Path, hook: str, out: Path) -> tuple[Path, list[str]]:
    """Run the backend's ``hook`` in ``tree`` with every warning shown: the wheel built, and
    the warnings' lines."""
    out.mkdir()
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c",
         f"from setuptools import build_meta; print(build_meta.{hook}({str(out)!r}))"],
        cwd=tree, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines()
              if "Warning" in line or "InformationOnly" in line]
    return out / done.stdout.strip().splitlines()[-1], warned


def test_the_wheel_builds_without_a_warning_and_holds_every_catalog(fresh_tree: Path,
                                                                    tmp_path: Path) -> None:
    wheel, warned = build(fresh_tree, "build_wheel", tmp_path / "wheel")
    assert warned == []
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in set(LANGUAGES) - {DEFAULT}:
        for kind in ("mo", "po"):
            assert f"cardparty/core/locale/{lang}/LC_MESSAGES/cardparty.{kind}" in names
    assert "cardparty/core/locale/cardparty.pot" in names
    assert "cardparty/client/commands/play.py" in names
    assert "cardparty/net/names/unicode_names.txt" in names             # the name rules' data
    for template in ("pyproject.toml", "game.py", "variant.py", "test_game.py", "README.md"):
        assert f"cardparty/core/newgame_template/{template}.tmpl" in names   # new-game's
    assert not [n for n in names if "__pycache__" in n or n.startswith(("core/", "net/"))]


def test_the_editable_install_make_play_does_warns_of_nothing(fresh_tree: Path,
                                                              tmp_path: Path) -> None:
    _wheel, warned = build(fresh_tree, "build_editable", tmp_path / "editable")
    assert [line for line in warned if EDITABLE_NOTE not in line] == []

