"""What a standby does so that the host it becomes is built quickly at a takeover
(``net/party.py``): what lives as long as the process is loaded while it
waits and set aside from the garbage collector, and no collection runs during the build."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from cardparty.net.party import collector_paused, ready_to_serve


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    """The collector on for each test, as it was after: the terminal client turns it off in
    the process it runs in (client/app.py), and a client test may have run here before."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_no_collection_runs_while_the_new_host_is_built_and_it_runs_again_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("the build failed")
    assert gc.isenabled()                    # a failed build leaves the collector on
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()            # not turned on by the pause if it was off
    finally:
        gc.enable()


def test_what_the_standby_loads_while_it_waits_is_set_aside_from_the_collector() -> None:
    before = gc.get_freeze_count()
    try:
        catalog = ready_to_serve()
        assert {"pika", "pikac", "kakhead", "piquet"} <= set(catalog.plugins)
        assert gc.get_freeze_count() > before
        assert gc.isenabled()
    finally:
        gc.unfreeze()
