"""The conformance suite covers docs/protocol.md, and is a client written from it alone: the
doc's requests, the messages it says a host sends and its error codes are the suite's tables
(``coverage``), each test they name exists, what ``conftest.py`` checks after each module
says what a test missed, and no file of the suite imports the project (only the standard
library, pyzmq, msgpack, pytest and the suite's own modules). No host: it reads the doc and
the suite's files."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.wire import coverage

HERE = Path(__file__).parent
#: What the suite's files may import: the standard library, and these.
ALLOWED = {"zmq", "msgpack", "pytest", "tests"}


def suite_files() -> list[Path]:
    """The suite's own Python files (not ``plugin/``: the host's broken house rule)."""
    return sorted(p for p in HERE.glob("*.py"))


def test_the_suite_imports_nothing_of_the_project() -> None:
    assert len(suite_files()) >= 6
    for path in suite_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{path.name}: a relative import"
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top in ALLOWED or top in sys.stdlib_module_names, f"{path.name}: {name}"
                if top == "tests":
                    assert name.startswith("tests.wire"), f"{path.name}: {name}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
                raise AssertionError(f"{path.name}: __import__")


def test_the_tables_name_what_the_doc_lists() -> None:
    requests = coverage.doc_requests()
    assert len(requests) == len(set(requests)) >= 25
    assert set(requests) == set(coverage.REQUESTS)
    pushes = coverage.doc_pushes()
    assert len(pushes) == len(set(pushes)) >= 15
    assert set(pushes) == set(coverage.PUSHES)
    codes = coverage.doc_codes()
    assert len(codes) == len(set(codes)) >= 35
    assert set(codes) == set(coverage.CODES) | set(coverage.NOT_PROVOKED)
    assert not set(coverage.CODES) & set(coverage.NOT_PROVOKED)


def _tests_of(module: str) -> set[str]:
    """The names of the test functions of one of the suite's modules."""
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_each_test_the_tables_name_is_one_of_the_suite() -> None:
    named = {test for names in coverage.BY_TABLE.values() for test in names.values()}
    missing = [test for test in named if test[1] not in _tests_of(test[0])]
    assert missing == []


def test_a_name_a_test_did_not_meet_on_the_wire_is_said() -> None:
    """``coverage.unmet``, which ``conftest.py`` runs after each module: what a test that
    ran met is checked against what the tables name it for; a test that did not run is not
    judged."""
    hello = coverage.HELLO

    def met(test: coverage.Test, table: str) -> set[str]:
        if test != hello:
            return set()
        return {"REQUESTS": {"hello", "ping"}, "PUSHES": {"welcome", "pong", "ok"},
                "CODES": {"hello_first"}}[table]

    assert coverage.unmet(hello[0], {hello}, met) == [f"REQUESTS bye: {hello[1]}"]
    assert coverage.unmet(hello[0], set(), met) == []
    everything = {(t, name) for t, names in coverage.BY_TABLE.items() for name in names}
    assert coverage.unmet(hello[0], {hello}, lambda test, table: {
        name for t, name in everything if t == table}) == []
