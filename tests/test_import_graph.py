"""The architecture as the imports keep it: no import cycle at run time anywhere in core,
plugins, net and client, and every import going down the layers and net's rooms
(docs/architecture.md, "Layers and rooms"; the checker is tests/import_graph.py).

The checker is itself held to fail: on small trees made here with a cycle or an import that
goes up planted in them, and on a copy of the real tree with one bad module added.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from tests.import_graph import (
    LAYERS,
    NET_ROOMS,
    ROOT,
    cycles,
    describe,
    modules,
    read_graph,
    room_of,
    violations,
)


def plant(root: Path, files: dict[str, str]) -> Path:
    """A tree of the four folders under ``root`` holding ``files`` (path: source), every
    folder on the way a package."""
    for folder in LAYERS:
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "__init__.py").touch()
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            if str(parent) != "." and not (root / parent / "__init__.py").exists():
                (root / parent / "__init__.py").touch()
        path.write_text(text, encoding="utf-8")
    return root


# --- the real tree ---------------------------------------------------------------------------

def test_no_module_of_core_plugins_net_or_client_is_in_an_import_cycle() -> None:
    found = cycles(read_graph())
    assert not found, "import cycles at run time:\n" + "\n\n".join(map(describe, found))


def test_every_import_goes_down_the_layers_and_net_s_rooms() -> None:
    assert violations(read_graph()) == []


def test_every_room_of_net_on_disk_is_declared_and_every_declared_room_is_there() -> None:
    on_disk = {room_of(m) for m in modules() if m.startswith("cardparty.net.")}
    assert on_disk == set(NET_ROOMS)


def test_architecture_doc_lists_net_s_rooms_in_the_checker_s_order() -> None:
    """docs/architecture.md's table of rooms is the order the checker holds the code to."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## Layers and rooms", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `net/(\w+)(?:/|\.py)` \|", section, re.MULTILINE)
    assert listed == list(NET_ROOMS)
    for room, under in NET_ROOMS.items():
        row = next(line for line in section.splitlines()
                   if re.match(rf"\| `net/{room}(/|\.py)` \|", line))
        named = set(re.findall(r"`(\w+)`", row.split("|")[3]))
        assert named == set(under), f"the doc says {room} imports {named}, the checker {under}"


def test_no_bench_script_imports_the_tests() -> None:
    """The benches share their helpers among themselves (bench/), never through tests/."""
    bad = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.name}:{node.lineno} imports {n}" for n in names
                    if n == "tests" or n.startswith("tests.")]
    assert bad == []


# --- the checker, held to fail ------------------------------------------------------------------

def test_an_import_placed_in_a_function_to_let_a_cycle_work_is_still_a_cycle(
        tmp_path: Path) -> None:
    root = plant(tmp_path, {
        "plugins/game/rules.py": "from cardparty.plugins.game import spoken\n",
        "plugins/game/spoken.py": ("def later():\n"
                                   "    from cardparty.plugins.game.rules import X\n"),
    })
    found = cycles(read_graph(root))
    assert [[(e.source, e.target) for e in c] for c in found] == [[
        ("cardparty.plugins.game.rules", "cardparty.plugins.game.spoken"),
        ("cardparty.plugins.game.spoken", "cardparty.plugins.game.rules")]]
    assert "plugins/game/spoken.py:2" in describe(found[0], root)


def test_a_cycle_through_a_package_s_init_is_found(tmp_path: Path) -> None:
    """Importing ``net.host.files`` runs ``net/host/__init__`` first, which imports what
    imports ``net.host.files`` back: a cycle though no module names the other's."""
    root = plant(tmp_path, {
        "net/host/__init__.py": "from cardparty.net.host.node import Host\n",
        "net/host/node.py": "from cardparty.net.peers.standby import Standby\nHost = 1\n",
        "net/host/files.py": "",
        "net/peers/standby.py": "from cardparty.net.host.files import *\nStandby = 1\n",
    })
    (found,) = cycles(read_graph(root))
    assert {e.source for e in found} == {"cardparty.net.host", "cardparty.net.host.node",
                                         "cardparty.net.peers.standby"}


def test_an_import_under_type_checking_is_no_cycle_but_still_a_dependency(
        tmp_path: Path) -> None:
    root = plant(tmp_path, {
        "net/host/node.py": "from cardparty.net.peers.standby import Standby\nHost = 1\n",
        "net/peers/standby.py": ("from typing import TYPE_CHECKING\n"
                                 "if TYPE_CHECKING:\n"
                                 "    from cardparty.net.host.node import Host\n"
                                 "Standby = 1\n"),
    })
    edges = read_graph(root)
    assert cycles(edges) == []
    assert violations(edges, root) == [
        "net/peers/standby.py:3: cardparty.net.peers.standby imports cardparty.net.host.node: "
        "net's room peers may import only names, store, trust, wire"]


@pytest.mark.parametrize(("files", "why"), [
    ({"core/cards.py": "import cardparty.net.wire.protocol\n",
      "net/wire/protocol.py": ""},
     "core imports only itself"),
    ({"plugins/pika/rules.py": "from cardparty.client import app\n", "client/app.py": ""},
     "plugins may import only core and itself"),
    ({"net/host/node.py": "def f():\n    from cardparty.plugins.pika import rules\n",
      "plugins/pika/rules.py": ""},
     "net may import only core and itself"),
    ({"plugins/pika/rules.py": "from cardparty.plugins.piquet.scoring import X\n",
      "plugins/piquet/scoring.py": "X = 1\n"},
     "a game imports only core and its own package"),
    ({"net/wire/protocol.py": "from cardparty.net.trust.keys import public_key\n",
      "net/trust/keys.py": "def public_key(): ...\n"},
     "net's room wire may import only names"),
    ({"net/player/session.py": "from cardparty.net.host import Host\n",
      "net/host/__init__.py": "Host = 1\n"},
     "net's room player may import only names, trust, wire"),
    ({"net/store.py": "from cardparty.net.peers import replica\n",
      "net/peers/replica.py": ""},
     "net's room store may import only names"),
    ({"net/gadgets/thing.py": "from cardparty.net.wire import protocol\n",
      "net/wire/protocol.py": ""},
     "gadgets is not one of net's rooms"),
])
def test_an_import_that_goes_up_or_across_is_refused_with_its_line(
        tmp_path: Path, files: dict[str, str], why: str) -> None:
    root = plant(tmp_path, files)
    found = violations(read_graph(root), root)
    assert any(re.match(r"\S+\.py:\d+: cardparty\.", line) and line.endswith(why)
               for line in found), found


def test_a_module_of_net_outside_every_room_is_named(tmp_path: Path) -> None:
    root = plant(tmp_path, {"net/stray.py": ""})
    assert violations(read_graph(root), root) == [
        "cardparty.net.stray stands in no room of net's (NET_ROOMS)"]


def test_the_real_tree_with_one_bad_module_planted_fails_both_checks(tmp_path: Path) -> None:
    """A copy of this tree, and in it a module of the names (the lowest room) that imports the
    host inside a function, and the host's model importing it: a cycle and an import up."""
    for folder in LAYERS:
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "locale"))
    (tmp_path / "net" / "names" / "planted.py").write_text(
        "def host():\n    from cardparty.net.host.node import Host\n    return Host\n")
    model = tmp_path / "net" / "host" / "model.py"
    model.write_text(model.read_text(encoding="utf-8")
                     + "\nfrom cardparty.net.names import planted  # noqa: E402\n")
    edges = read_graph(tmp_path)
    assert any("cardparty.net.names.planted" in {e.source for e in c} for c in cycles(edges))
    assert any(line.startswith("net/names/planted.py:2: cardparty.net.names.planted imports "
                               "cardparty.net.host.node: net's room names imports no other room")
               for line in violations(edges, tmp_path))
