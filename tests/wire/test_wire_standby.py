"""A host and its standby peer on the wire as docs/protocol.md describes them ("A standby
peer and takeovers"), with nothing but pyzmq and msgpack: two real processes, ``cardparty
host --data A --standby-key FINGERPRINT`` and ``cardparty host --standby-for``, and clients
who learn the standby from their host's words.

What a client meets: a ``standby_hello`` from a key the host's operator did not approve is
refused ``not_standby``; the standby, attached but not serving, answers everything
``not_host`` and names its host; once the standby is lost, the host drops it, says so, and
holds a player's table (``held``) until he answers that word (``standby_ok``), and the table
then goes on.

One test, a few seconds: the standby's key must be approved when its host starts, so the host
is started once to be the standby's host, and again on its port and files with the standby's
fingerprint (the key it keeps in its files is the same)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.wire.doc_client import Client, HostProcess, Message, StandbyProcess, check_error

pytestmark = pytest.mark.xdist_group("wire_standby")


def attached(client: Client) -> Message:
    """The word of ``client``'s host that names its standby (the welcome's, or a ``standby``
    push once it is attached): ``{epoch, standby, gen}``."""
    welcome = client.welcome
    assert welcome is not None
    if welcome.get("standby"):
        return {"epoch": welcome["epoch"], "standby": welcome["standby"],
                "gen": welcome["standby_gen"]}
    return client.wait(lambda m: m["type"] == "standby" and m["standby"] is not None)


def test_a_standby_is_approved_by_key_says_not_host_and_its_loss_holds_a_table(
        tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    first = HostProcess("--data", str(a), "--heartbeat", "10")
    standby: StandbyProcess | None = None
    host: HostProcess | None = None
    clients: list[Client] = []
    try:
        standby = StandbyProcess(first, "--data", str(b))
        first.stop()
        host = HostProcess("--data", str(a), "--heartbeat", "10", "--standby-key",
                           standby.approve, port=first.port)
        assert host.key == first.key, "the host's key is kept in its files"
        ann = host.client("Ann")
        clients.append(ann)

        # A key the operator did not approve (a player's) is no standby.
        refused = ann.refused("not_standby", "standby_hello", serves="127.0.0.1:1", epoch=0,
                              client="doc client 1")
        assert refused["about"] == "standby_hello"

        word = attached(ann)
        peer: dict[str, Any] = word["standby"]
        assert peer["address"] == "127.0.0.1" and peer["port"] == standby.port
        assert word["epoch"] >= 1
        ann.send({"type": "standby_ok", "gen": word["gen"]})

        # The standby, its key told by the host: not a host while its host serves.
        watcher = Client(f"tcp://{peer['address']}:{peer['port']}", peer["key"])
        clients.append(watcher)
        not_host = watcher.request("ping", at=1.0)
        assert not_host["type"] == "error" and not_host["code"] == "not_host", not_host
        check_error(not_host)
        assert not_host["host"] == f"127.0.0.1:{host.port}"

        tid = ann.table_with_bots("pika")
        ann.quiet(0.2)

        # The standby is gone: the host drops it, says so, and holds Ann's table (she may be
        # playing it at the standby) until she answers that word.
        standby.kill()
        dropped = ann.wait(lambda m: m["type"] == "standby" and m["standby"] is None)
        assert dropped["gen"] > word["gen"] and dropped["why"]
        held = ann.refused("held", "snapshot", table=tid)
        assert held["table"] == tid
        ann.send({"type": "standby_ok", "gen": dropped["gen"]})
        view = ann.ok("snapshot", table=tid)
        assert view["type"] == "view" and view["table"] == tid
    finally:
        for c in clients:
            c.close()
        for proc in (standby, host, first):          # the standby first: no hand-over
            if proc is not None and proc.proc.poll() is None:
                proc.stop()
