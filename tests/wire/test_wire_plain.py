"""A host as a party runs it, not for tests and without coins (``cardparty host
--no-economy``), on the wire as docs/protocol.md describes it, with nothing but pyzmq and
msgpack: the doc's worked exchange as it is written, a deal no client may choose, a host that
keeps no coins, and a host full of tables.

One host for the module; the last test fills its table limit."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.wire.doc_client import DOC, Client, HostProcess, Message, check_error, running

#: One worker for the module's tests, so one host (where xdist groups them: each test also
#: stands alone, so a host per worker is only slower).
pytestmark = pytest.mark.xdist_group("wire_plain")


@pytest.fixture(scope="module")
def host() -> Iterator[HostProcess]:
    """Heartbeats every 10 s: the players who fill the host's table limit say nothing while
    the others make theirs, and must not be taken for gone (their tables would make room)."""
    with running("--no-economy", "--heartbeat", "10") as h:
        yield h


class Step:
    """One request of the doc's worked exchange, as the doc writes it (``sent``), and what
    the doc shows coming back for it: each message's type, and the one that answers it."""

    def __init__(self, sent: Message) -> None:
        self.sent = sent
        self.came: list[tuple[str, Any, str | None]] = []      # type, rid, code

    @property
    def reply(self) -> tuple[str, Any, str | None]:
        rid = self.sent.get("rid")
        found: tuple[str, Any, str | None] = next(m for m in reversed(self.came) if m[1] == rid)
        return found

    def shown(self) -> list[tuple[str, Any, str | None]]:
        """What the doc shows coming up to the reply, but for views."""
        upto = self.came[:self.came.index(self.reply) + 1]
        return [m for m in upto if m[0] != "view"]


def worked_exchange() -> list[Step]:
    """docs/protocol.md, "A worked exchange": its client's requests (whole JSON maps, sent as
    written) and, after each, what its host answered (maps cut with ``...``: only their
    ``type``, ``rid`` and ``code`` are read)."""
    text = DOC.read_text(encoding="utf-8").split("## A worked exchange", 1)[1]
    block = text.split("```", 2)[1]
    said: list[tuple[str, str]] = []
    for line in block.splitlines():
        if line.startswith(("C: ", "H: ")):
            said.append((line[0], line[3:]))
        elif line.strip() and said:
            said[-1] = (said[-1][0], said[-1][1] + " " + line.strip())
    steps: list[Step] = []
    for who, words in said:
        if who == "C":
            steps.append(Step(json.loads(words)))
            continue
        kind = re.search(r'"type": "(\w+)"', words)
        rid = re.search(r'"rid": (\d+|null)', words)
        code = re.search(r'"code": "(\w+)"', words)
        assert kind is not None, words
        steps[-1].came.append((kind.group(1),
                               None if rid is None or rid.group(1) == "null"
                               else int(rid.group(1)),
                               code and code.group(1)))
    return steps


def answers(msg: Message, kind: str, rid: Any) -> bool:
    """Whether ``msg`` answers a request: the message with its ``rid``, or without one the
    reply the doc shows (``kind``)."""
    return msg.get("rid") == rid and (rid is not None or msg["type"] == kind)


def test_the_worked_exchange_goes_as_the_doc_writes_it(host: HostProcess) -> None:
    """docs/protocol.md, "A worked exchange", read from the doc and sent as it is written to
    a host not run for tests: up to Eva's first move every message comes back in the doc's
    order (a pushed ``table`` or ``view`` before the reply to the request that caused it);
    after it, the bot plays when it will, so each reply is the doc's with the views left
    aside, but for the move by its cards, which the deal decides."""
    steps = worked_exchange()
    assert [s.sent["type"] for s in steps][:6] == ["hello", "games", "create", "sit", "bots",
                                                   "ready"]
    eva = host.client()
    moved = False
    try:
        for step in steps:
            eva.send(step.sent)
            kind, rid, _ = step.reply
            came: list[Message] = []
            while not came or not answers(came[-1], kind, rid):
                msg = eva.recv()
                assert msg is not None, f"no {kind} for {step.sent}: {came}"
                came.append(msg)
            got = [(m["type"], m.get("rid"), m.get("code")) for m in came]
            if not moved:
                assert got == step.came[:len(got)], (step.sent, got, step.came)
            elif isinstance(step.sent.get("move"), dict):
                assert got[-1][0] in ("error", "ok"), got
            else:
                assert [g for g in got if g[0] != "view"] == step.shown(), (step.sent, got)
            if step.sent["type"] == "create":
                assert came[-1]["table"]["testing"] is False
            moved = moved or step.sent["type"] == "move"
    finally:
        eva.close()


def test_no_client_chooses_the_deal_at_a_host_not_run_for_tests(host: HostProcess) -> None:
    c = host.client("Nadia")
    try:
        c.refused("testing_only", "create", game="pika", players=2, seed=42)
        c.refused("testing_only", "create", game="pika", players=2,
                  settings={"deck": ["R1", "R2"]})
        assert c.ok("create", game="pika", players=2)["table"]["testing"] is False
    finally:
        c.close()


def test_a_host_with_no_economy_keeps_no_coins_and_pays_nothing(host: HostProcess) -> None:
    c = host.client("Noel")
    try:
        for kind, fields in (("profile", {}), ("league", {}), ("buy", {"item": "gold"}),
                             ("rewards", {}),
                             ("create", {"game": "pika", "players": 2, "mode": "entry",
                                         "stake": 100})):
            c.refused("no_economy", kind, **fields)
        tid = c.table_with_bots("pika", 2, settings={"hand_size": 2, "warning": 0.5})
        c.play_out(tid)
        reward = c.wait(lambda m: m["type"] == "reward")
        assert (reward["coins"], reward["xp"], reward["league"]) == (0, 0, 0)
        assert reward["profile"] is None and reward["id"] is None
    finally:
        c.close()


def test_a_host_at_its_table_limit_is_busy(host: HostProcess) -> None:
    """1000 tables, of which players the host does not know yet (none has played here) fill
    875: each key may hold 8 open tables, so 110 players fill that share, each from a
    loopback address of its own (as from a machine of its own), all staying connected so
    that no table is one nobody wants."""
    makers: list[Client] = []
    try:
        busy = None
        for n in range(130):
            maker = Client(host.address, host.key, source=f"127.0.{1 + n // 250}.{2 + n % 250}")
            makers.append(maker)
            maker.hello(f"Maker {n}")
            for _ in range(8):
                reply = maker.request("create", game="pikac", players=2)
                if reply["type"] == "error":
                    assert reply["code"] == "busy", reply
                    check_error(reply, about="create")
                    busy = reply
                    break
            if busy is not None:
                break
        assert busy is not None, "the host never said busy"
        assert makers[0].ok("tables")["total"] == 875
        for m in makers:                      # gone: their open tables may make room again
            m.ok("bye")
        after = host.client("After Two")
        assert after.ok("create", game="pika", players=2)["type"] == "table"
        after.close()
    finally:
        for m in makers:
            m.close()
