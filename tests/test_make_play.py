"""``make play`` on a fresh clone: it says in one line what it is doing before it does it,
installs only what playing needs (none of the tests' tools), and a set-up interrupted half
way leaves nothing that pip complains about on the next run.

The tree is copied as a clone has it (the files git tracks, less the tests), ``make play``
runs there with no terminal (the game then refuses in one line, after the set-up), and what
the new ``.venv`` holds is read with pip. The packages come from this machine's package index
as any ``make play`` gets them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What a clone holds that ``make play`` reads.
TREE = ("Makefile", "setup.py", "pyproject.toml", "README.md", "babel.cfg", "core", "net",
        "client", "plugins")
#: The tools the tests and the checkers use: playing installs none of them.
TEST_TOOLS = {"pytest", "pytest-xdist", "hypothesis", "ruff", "mypy", "babel",
              "msgpack-types", "wheel"}
#: Lines this machine's own pip configuration adds to any pip run (an extra index folder
#: without some package): not the project's words.
MACHINE_NOISE = re.compile(r"^WARNING: Location '.*' is ignored")

pytestmark = pytest.mark.skipif(shutil.which("make") is None,
                                reason="make is not installed (README: the two commands need it)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("clone")
    for name in TREE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, tree / name)
    return tree


def make_play(tree: Path) -> list[str]:
    """``make play`` in ``tree`` without a terminal: the lines it printed (this machine's pip
    noise left out)."""
    # As a player runs it: not inside another make (``make test`` runs this test), whose
    # flags would make this one name its directory.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL",
                                                            "MAKEOVERRIDES")}
    done = subprocess.run(["make", "play", f"PYTHON={sys.executable}"], cwd=tree, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=600)
    lines = (done.stdout + done.stderr).splitlines()
    return [line for line in lines if not MACHINE_NOISE.match(line)]


def installed(tree: Path) -> set[str]:
    out = subprocess.run([str(tree / ".venv" / "bin" / "python"), "-m", "pip", "list",
                          "--format=json", "--disable-pip-version-check"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    return {canonical(p["name"]) for p in json.loads(out)}


def test_make_play_says_what_it_does_and_installs_only_what_playing_needs(clone: Path
                                                                         ) -> None:
    lines = make_play(clone)
    assert lines[0].startswith("setting up .venv"), lines
    # the set-up's one line, then the game's own refusal of a missing terminal (and make's
    # word on the failed command): nothing from pip
    refusal = [line for line in lines if line.startswith("cardparty play: error:")]
    assert refusal and "terminal" in refusal[0], lines
    assert not [line for line in lines[1:] if not line.startswith(("cardparty play:",
                                                                   "make:"))], lines
    have = installed(clone)
    needs = {canonical(re.split(r"[<>=!~ ;\[]", d)[0]) for d in tomllib.loads(
        (clone / "pyproject.toml").read_text())["project"]["dependencies"]}
    assert needs <= have
    assert "cardparty" in have
    assert not have & TEST_TOOLS, f"playing installed the tests' tools: {have & TEST_TOOLS}"


def test_a_set_up_interrupted_half_way_leaves_nothing_pip_complains_of(clone: Path) -> None:
    venv = clone / ".venv"
    if not (venv / ".playing").exists():
        make_play(clone)
    site = next(venv.glob("lib/python*/site-packages"))
    # What pip leaves when it is stopped while replacing a package, and no stamp: the
    # set-up did not finish.
    (site / "~yzmq-27.0.0.dist-info").mkdir()
    (site / "~yzmq-27.0.0.dist-info" / "METADATA").write_text("Name: ~yzmq\nVersion: 27.0.0\n")
    (venv / ".playing").unlink()
    lines = make_play(clone)
    assert lines[0].startswith("setting up .venv"), lines
    assert not [line for line in lines if "Ignoring" in line or "~yzmq" in line], lines
    assert not list(site.glob("~*"))
    assert (venv / ".playing").exists()
