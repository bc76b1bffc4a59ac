"""A table runs its host's version of a game: the host says which in every table summary and
in its games list, and a client whose own copy of the game is another version is told so at
the table and narrates from the host's words, not its own copy's (the host decides every
move whatever the client holds)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from cardparty.core.discovery import Catalog, load_catalog
from cardparty.net.host import Host
from tests.client.clientkit import Client, HostKit, HostWatch, pika_link


def host_with(catalog: Catalog) -> HostKit:
    watch = HostWatch()
    host = Host("tcp://127.0.0.1:0", "test host", heartbeat=1.0, idle=None, bot_delay=0.0,
                observer=watch, testing=True, catalog=catalog)
    host.start()
    return HostKit(host, watch)


@pytest.fixture
def older_pika() -> Iterator[HostKit]:
    """A host whose Pika is another release than this client's."""
    mine = load_catalog()
    theirs = dataclasses.replace(mine, versions={**mine.versions, "pika": "cardparty 0.0.9"})
    kit = host_with(theirs)
    yield kit
    kit.host.stop()


def seated_client(kit: HostKit) -> Client:
    c = Client(kit, pika_link(kit))
    c.settle()
    c.pump.until(lambda: c.screen == "table")
    c.settle()
    return c


def test_the_host_says_which_version_of_each_plugin_a_table_runs(older_pika: HostKit) -> None:
    c = seated_client(older_pika)
    row = next(t for t in c.tables if t.get("id") == c.table_id)
    assert row["summary"]["plugins"] == {"pika": "cardparty 0.0.9"}
    pika = next(g for g in c.games if g["id"] == "pika")
    assert pika["plugin"] == "cardparty 0.0.9"
    assert all(v["plugin"] == load_catalog().versions[v["id"]] for v in pika["variants"])
    c.close()


def test_a_client_with_another_version_is_told_and_narrates_from_the_host(
        older_pika: HostKit) -> None:
    c = seated_client(older_pika)
    told = [line for line in c.table.log if "host's version of its rules" in line]
    mine = load_catalog().versions["pika"]
    assert told == ["This table plays by the host's version of its rules (pika: the host runs "
                    f"cardparty 0.0.9, yours is {mine})."]
    assert c.table.describe is None                  # its own copy's narration is not used
    c.key("tab")
    c.key("enter")                                   # a move by the host's list, accepted
    assert c.failures == [] and c.error in ("", None)
    assert c.table.view["version"] >= 1
    c.close()


def test_the_same_version_says_nothing(kit: HostKit) -> None:
    c = seated_client(kit)
    assert not [line for line in c.table.log if "host's version" in line]
    assert c.table.describe is not None
    c.close()
