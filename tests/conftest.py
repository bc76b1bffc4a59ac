"""For every test: key files and known hosts live in a temporary directory, never in the real
home of whoever runs the tests (``CARDPARTY_HOME``, see net/trust/keys.py). Set before any test
module is imported, so subprocesses the tests start inherit it too."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_HOME = tempfile.mkdtemp(prefix="cardparty-test-home-")
os.environ["CARDPARTY_HOME"] = _HOME


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
              ) -> None:
    """Each test its own keys and known hosts: a port reused by a later test's host (with
    another key) must not look like a host whose key changed."""
    monkeypatch.setenv("CARDPARTY_HOME", str(tmp_path_factory.mktemp("home")))
