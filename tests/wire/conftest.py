"""The conformance suite's own check, beside its tests: each test says who it is before it
runs (``doc_client.MET`` keeps what its clients meet on the wire under its name), and once a
module's tests are done, every request, message and error code ``coverage`` names a test of
that module for must have been met by it, if it ran to the end: a test that stopped sending
what the doc lists fails the suite, not only a doc that lists what no test names.

Must not know about: the project's code (no ``cardparty`` import)."""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest

from tests.wire import coverage
from tests.wire.doc_client import MET

#: The suite's tests that passed in this process.
PASSED: set[coverage.Test] = set()


def _name(item: pytest.Item) -> coverage.Test:
    return (item.path.name, getattr(item, "originalname", item.name))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call" and report.passed:
        PASSED.add(_name(item))
    return report


@pytest.fixture(autouse=True)
def _met_by(request: pytest.FixtureRequest) -> None:
    """What the clients meet from now on is this test's."""
    assert isinstance(request.node, pytest.Item)
    MET.test = _name(request.node)


@pytest.fixture(scope="module", autouse=True)
def _every_name_met(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    missed = coverage.unmet(request.path.name, PASSED, MET.of)
    assert missed == [], f"named in tests/wire/coverage.py, never met on the wire: {missed}"
