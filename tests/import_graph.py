"""The import graph of cardparty's four folders, read from their source (nothing is imported),
and the two rules it keeps: no import cycle at run time, and imports only downwards
(docs/architecture.md, "Layers and rooms").

Every ``import`` and ``from ... import`` of every module under core/, plugins/, net/ and
client/ is an edge, wherever it stands: at the top of the module or inside a function (an
import placed in a function or at the end of a module to let a cycle work is still a cycle).
Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so an edge to a module is
also an edge to each package above it (but the importer's own packages, which are already
being imported). An import under ``if TYPE_CHECKING:`` never runs: it is no edge of a cycle,
but a dependency all the same, so the layers count it.

The layers: core < plugins, core < net < client; a game's package imports only core and
itself; net's rooms import only the rooms below them (``NET_ROOMS``).

Owns: reading the graph (``read_graph``), its cycles (``cycles``) and the imports against the
layers (``violations``). Must not know about: what any module does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "cardparty"
#: The folders, each with the folders it may import besides itself.
LAYERS: dict[str, tuple[str, ...]] = {
    "core": (),
    "plugins": ("core",),
    "net": ("core",),
    "client": ("core", "net"),
}
#: net's rooms, lowest first, each with the rooms right below it that it may import (and so
#: whatever those may): a room is a package under net/ or a module of its own (``party``).
NET_ROOMS: dict[str, tuple[str, ...]] = {
    "names": (),
    "wire": ("names",),
    "trust": ("wire",),
    "player": ("trust",),
    "store": ("names",),
    "thinker": (),
    "peers": ("trust", "store"),
    "host": ("peers", "thinker"),
    "party": ("host",),
}


@dataclass(frozen=True, slots=True)
class Edge:
    """``source`` imports ``target`` at ``path``:``line``; ``runtime``: not under
    ``TYPE_CHECKING`` (it runs when the module, or the function holding it, does);
    ``implied``: ``target`` is a package above the module named, run first."""

    source: str
    target: str
    path: Path
    line: int
    runtime: bool
    implied: bool = False

    def where(self, root: Path) -> str:
        return f"{self.path.relative_to(root)}:{self.line}"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the four folders under ``root`` by its import name."""
    found: dict[str, Path] = {}
    for folder in LAYERS:
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if "__pycache__" in parts:
                continue
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([PACKAGE, *parts])] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of ``tree``, anywhere in it, and whether it runs (not under
    ``if TYPE_CHECKING:``)."""
    stack: list[tuple[ast.AST, bool]] = [(tree, True)]
    while stack:
        node, runtime = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, runtime
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((child, False) for child in node.body)
            stack.extend((child, runtime) for child in node.orelse)
            continue
        stack.extend((child, runtime) for child in ast.iter_child_nodes(node))


def _targets(source: str, is_package: bool, node: ast.Import | ast.ImportFrom,
             known: dict[str, Path]) -> list[str]:
    """The modules ``node`` names, as import names (only ours are kept later)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        package = source.split(".") if is_package else source.split(".")[:-1]
        base = package[:len(package) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{stem}.{alias.name}"
        out.append(sub if sub in known else stem)
    return out


def read_graph(root: Path = ROOT) -> list[Edge]:
    """Every import between the modules under ``root``, each edge once per statement and
    target, with the implicit edges to the packages above each target."""
    known = modules(root)
    edges: list[Edge] = []
    for source, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = {source.rsplit(".", k)[0] for k in range(source.count(".") + 1)}
        for node, runtime in _imports(tree):
            named = _targets(source, path.name == "__init__.py", node, known)
            seen: set[str] = set()
            for target in named:
                while target not in known and "." in target:     # a name from a module
                    target = target.rsplit(".", 1)[0]
                if target not in known:
                    continue
                parts = target.split(".")
                chain = [".".join(parts[:k]) for k in range(2, len(parts))]
                for name in [*(c for c in chain if c in known and c not in own), target]:
                    if name != source and name not in seen:
                        seen.add(name)
                        edges.append(Edge(source, name, path, node.lineno, runtime,
                                          implied=name != target))
    return edges


def cycles(edges: Iterable[Edge]) -> list[list[Edge]]:
    """The import cycles at run time: for each strongly connected set of modules that the
    runtime edges make, one cycle through it, as its edges."""
    graph: dict[str, list[Edge]] = {}
    for edge in edges:
        if edge.runtime:
            graph.setdefault(edge.source, []).append(edge)
            graph.setdefault(edge.target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):                 # Tarjan's, without recursion
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            out = graph[node]
            if i < len(out):
                work.append((node, i + 1))
                nxt = out[i].target
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return [_cycle_through(graph, set(c)) for c in components]


def _cycle_through(graph: dict[str, list[Edge]], members: set[str]) -> list[Edge]:
    """One cycle within ``members`` (strongly connected), from its first module back to it:
    a shortest way out and back, found breadth first."""
    start = min(members)
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for edge in graph[node]:
                if edge.target not in members:
                    continue
                if edge.target == start:
                    path = [edge]
                    while path[0].source != start:
                        path.insert(0, came[path[0].source])
                    return path
                if edge.target not in came:
                    came[edge.target] = edge
                    following.append(edge.target)
        frontier = following
    raise AssertionError(f"{sorted(members)} is not strongly connected")


def folder_of(module: str) -> str:
    return module.split(".")[1]


def room_of(module: str) -> str | None:
    """The room of a net module (None: the ``cardparty.net`` package itself)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else None


def below(rooms: dict[str, tuple[str, ...]], room: str) -> set[str]:
    """The rooms ``room`` may import: those it names and, through them, theirs."""
    out: set[str] = set()
    todo = list(rooms.get(room, ()))
    while todo:
        r = todo.pop()
        if r not in out:
            out.add(r)
            todo.extend(rooms.get(r, ()))
    return out


def violations(edges: Iterable[Edge], root: Path = ROOT,
               rooms: dict[str, tuple[str, ...]] = NET_ROOMS) -> list[str]:
    """One line for every import that goes up a layer, to another game, or up (or across)
    net's rooms, and for every net module outside the declared rooms."""
    out = []
    for edge in edges:
        if edge.implied:                # the same import, named once by what it names
            continue
        here, there = folder_of(edge.source), folder_of(edge.target)
        why = None
        if there != here and there not in LAYERS[here]:
            allowed = ", ".join(LAYERS[here])
            why = (f"{here} may import only {allowed} and itself" if allowed else
                   f"{here} imports only itself")
        elif here == there == "plugins":
            game, other = edge.source.split(".")[2:3], edge.target.split(".")[2:3]
            if game and other and game != other:
                why = "a game imports only core and its own package"
        elif here == there == "net":
            mine, theirs = room_of(edge.source), room_of(edge.target)
            if mine != theirs and theirs is not None:
                if mine is None or mine not in rooms:
                    why = f"{mine} is not one of net's rooms"
                elif theirs not in below(rooms, mine):
                    allowed = ", ".join(sorted(below(rooms, mine)))
                    why = (f"net's room {mine} may import only {allowed}" if allowed else
                           f"net's room {mine} imports no other room")
        if why:
            out.append(f"{edge.where(root)}: {edge.source} imports {edge.target}: {why}")
    for module in modules(root):
        room = room_of(module)
        if folder_of(module) == "net" and room is not None and room not in rooms:
            out.append(f"{module} stands in no room of net's (NET_ROOMS)")
    return sorted(set(out))


def describe(cycle: list[Edge], root: Path = ROOT) -> str:
    """A cycle as one line per import, with where it stands."""
    return "\n".join(f"  {e.source} -> {e.target}  ({e.where(root)})" for e in cycle)
