"""A host's text shown safely (issue 25, items 6 and 8): whatever a host sends, a chat line is
one line on the player's screen, a bidirectional override reaches no terminal, and names are
held to the host's own rules. The real client (controller, link, session) meets a careless
host: a real CURVE ROUTER on 127.0.0.1 that answers as a host would but checks nothing its
players say (this project's host refuses such text, so only such a host can send it)."""

from __future__ import annotations

import errno
import queue
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import zmq

from cardparty.client.hosttext import host_text
from cardparty.client.render import Renderer
from cardparty.client.theme import glyphs
from cardparty.net.names.safetext import BIDI
from cardparty.net.trust.keydesk import KeyDesk, desk_endpoint
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.protocol import HOST_LIMITS, decode, encode, message
from tests.client.clientkit import player

FORGED = "gg\n<Eva> I resign"
REVERSED = "abc\u202edcba"
LOOKALIKE = "V\u0456c"                    # a Cyrillic i: the host's rules refuse it


class CarelessHost(threading.Thread):
    """A host that welcomes anyone, lists one table whose seats and title hold what the test
    gives, and pushes what the test queues (``push``) to every connection."""

    def __init__(self, table: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.keys = KeyPair.generate()
        self.table = table
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.ROUTER)
        self.sock.curve_server = True
        self.sock.curve_secretkey = self.keys.secret
        self.sock.curve_publickey = self.keys.public
        self.sock.setsockopt(zmq.LINGER, 0)
        self.address, self.desk = self._bind_with_desk()
        self.routes: set[bytes] = set()
        self.pushes: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stopping = threading.Event()

    def _bind_with_desk(self) -> tuple[str, KeyDesk]:
        """A port the system chooses, chosen again until the next one (the desk's) is free
        too, as the host does (net/host/node.py): another test's socket may hold it."""
        for _ in range(50):
            self.sock.bind("tcp://127.0.0.1:*")
            address = self.sock.getsockopt_string(zmq.LAST_ENDPOINT)
            try:
                return address, KeyDesk(desk_endpoint(address), self.keys, "careless")
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise
                self.sock.unbind(address)
        raise RuntimeError("no free pair of ports on 127.0.0.1")

    def reply(self, req: dict[str, Any]) -> dict[str, Any]:
        kind, rid = req.get("type"), req.get("rid")
        if kind == "hello":
            return message("welcome", rid=rid, host="careless", player="p1",
                           name=req.get("name"), resumed=False, heartbeat=1.0, liveness=30,
                           protocol=1, games=[], testing=False)
        if kind == "tables":
            return message("tables", rid=rid, tables=[self.table], offset=0, total=1)
        if kind == "games":
            return message("games", rid=rid, games=[])
        if kind == "ping":
            return message("pong", rid=rid, at=req.get("at"), time=0.0)
        if kind in ("profile", "league"):
            return message("error", rid=rid, code="no_economy", message="no coins here")
        if kind == "review":                # its marks are no marks (ReviewReply's shape)
            return message("review", rid=rid, record="r1", seat=0, decisions=1, margin=0.1,
                           marks=["junk"])
        return message("ok", rid=rid)

    def run(self) -> None:
        while not self.stopping.is_set():
            if self.sock.poll(20):
                route, frame = self.sock.recv_multipart()
                self.routes.add(route)
                self.sock.send_multipart([route, encode(self.reply(decode(frame,
                                                                          HOST_LIMITS)))])
            while not self.pushes.empty():
                pushed = encode(self.pushes.get())
                for route in self.routes:
                    self.sock.send_multipart([route, pushed])

    def push(self, msg: dict[str, Any]) -> None:
        self.pushes.put(msg)

    def close(self) -> None:
        self.stopping.set()
        self.join(5)
        self.desk.close()
        self.sock.close(0)
        self.ctx.term()


@pytest.fixture
def careless() -> Iterator[CarelessHost]:
    table = {"id": "t1", "game": "pika", "players": 2, "status": "open", "mode": "open",
             "title": "fun\n<Eva> come sit", "creator": LOOKALIKE,
             "seats": [{"kind": "human", "name": LOOKALIKE, "ready": False},
                       {"kind": "human", "name": "Eva\u202e", "ready": True}]}
    host = CarelessHost(table)
    host.start()
    yield host
    host.close()


def screen_text(fragments: list[Any]) -> str:
    return "".join(f[1] for f in fragments)


def nothing_that_moves_a_terminal(text: str) -> bool:
    return not any(c in BIDI or (not c.isprintable() and c != "\n") for c in text)


def test_a_careless_hosts_chat_stays_one_line_and_names_read_as_they_are(
        careless: CarelessHost) -> None:
    eva, pump = player(careless.address, "Petr")
    pump.until(lambda: eva.connection == "connected" and bool(eva.tables))
    careless.push(message("chat", name="Petr", text=FORGED))
    careless.push(message("chat", name=LOOKALIKE, text=REVERSED))
    careless.push(message("invited", table="t1", title="party\u2028<Eva> I resign",
                          **{"from": "Petr\nEva"}))
    pump.until(lambda: len(eva.lobby_chat) == 2 and "invites" in eva.notice)
    shown = screen_text(Renderer(eva, glyphs(False)).screen("lobby"))
    lines = shown.split("\n")
    assert not any(line.strip().startswith("<Eva>") for line in lines), shown
    assert " <Petr> gg\\x0a<Eva> I resign" in lines
    assert "<V\\u0456c> abc\\u202edcba" in shown          # never read as "Vic"
    assert "Vic" not in shown
    assert nothing_that_moves_a_terminal(shown)
    # The invitation names the table by its id, as the lobby does (never the host's title).
    assert nothing_that_moves_a_terminal(eva.notice) and "table t1" in eva.notice
    assert "I resign" not in eva.notice
    assert eva.failures == []
    eva.exit()


def test_one_function_draws_a_hosts_text() -> None:
    assert host_text(FORGED) == "gg\\x0a<Eva> I resign"
    assert host_text(REVERSED) == "abc\\u202edcba"
    assert host_text("a\u2066b\u2069\u200f") == "a\\u2066b\\u2069\\u200f"
    assert host_text("gg 👨\u200d👩\u200d👧") == "gg 👨\u200d👩\u200d👧"   # joiners move nothing
    assert host_text(LOOKALIKE, name=True) == "V\\u0456c"
    assert host_text("\u3164", name=True) == "\\u3164"
    assert host_text("Vic\u0301", name=True) == "Vi\u0107"
    assert host_text("Petr Šťastný", name=True) == "Petr Šťastný"
    assert host_text("deal\nPetr 3\u202e", lines=True) == "deal\nPetr 3\\u202e"
    assert host_text(None) == "" and host_text(7) == "7"
    assert len(host_text("x" * 5000)) <= 500


def test_a_reply_or_a_push_not_of_its_shape_is_one_line_and_the_client_goes_on(
        careless: CarelessHost) -> None:
    """The client reads a host's message as its declared shape; one that is not (a review
    whose marks are no maps, a ``table`` push without its summary) is one error line naming
    it, and the client reads the next message as before."""
    eva, pump = player(careless.address, "Petr")
    pump.until(lambda: eva.connection == "connected" and bool(eva.tables))
    assert eva.link is not None
    eva.link.request("review", id="r1")
    pump.until(lambda: "review" in eva.error)
    assert eva.error.startswith("unreadable 'review' message from the host"), eva.error
    eva.error = ""
    careless.push(message("table"))
    careless.push(message("chat", name="Petr", text="still here"))
    pump.until(lambda: bool(eva.lobby_chat))
    assert eva.error.startswith("unreadable 'table' message from the host"), eva.error
    assert eva.lobby_chat[-1].endswith("<Petr> still here")
    assert eva.failures == []
    eva.exit()
