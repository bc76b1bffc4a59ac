"""A cardparty client written from docs/protocol.md alone, for the wire's conformance suite.

It knows the host only as the doc describes it: a process started as ``cardparty host`` that
prints its address; a key desk on the next port that a plain DEALER (or REQ) asks
``cardparty key?``; a ROUTER that speaks CURVE with the key the desk told; one msgpack map per
frame, each with ``type`` and ``v: 1``. It imports nothing of the project (only the standard
library, pyzmq and msgpack: ``test_wire_doc.py`` checks), so that what the suite proves is what
a client written from the doc may rely on.

Owns: starting and stopping a real host process (``HostProcess``) and a standby of one
(``StandbyProcess``), asking its key desk (``ask_desk``), the fingerprint as the doc defines
it (``fingerprint``), ``Client``: one DEALER with a CURVE key pair of its own that sends
requests with fresh request ids and reads their replies, keeping what the host pushed
meanwhile, and ``MET``: what every client sent and received, per test (what ``coverage``
checks each test met).

Must not know about: the project's code (no ``cardparty`` import), its tests' helpers.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgpack
import zmq
from zmq.utils import z85

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
#: What a client asks the key desk (docs/protocol.md, "Transport").
QUESTION = b"cardparty key?"
#: Seconds a reply may take on this shared machine before a test says it never came.
WAIT = 10.0

Message = dict[str, Any]


def pack(msg: Message) -> bytes:
    """One message as one frame: a msgpack map with ``v: 1``."""
    return msgpack.packb({"v": 1, **msg}, use_bin_type=True)


def unpack(frame: bytes) -> Message:
    got = msgpack.unpackb(frame, raw=False)
    assert isinstance(got, dict) and got.get("v") == 1 and isinstance(got.get("type"), str), got
    return got


def fingerprint(key: str | bytes) -> str:
    """docs/protocol.md, "Keys, the fingerprint and a wrong key": the SHA-256 of the key's 32
    bytes, in lower-case base32, its first 16 characters in groups of four."""
    raw = z85.decode(key.encode() if isinstance(key, str) else key)
    text = base64.b32encode(hashlib.sha256(raw).digest()).decode().lower()[:16]
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


# --- what the clients met ------------------------------------------------------------------------

class Met:
    """What the suite's clients met on the wire, per test (``test``, set by ``conftest.py``
    before each test): the request types they sent, the message types they received and
    the error codes among those, under the names of ``coverage``'s tables."""

    def __init__(self) -> None:
        #: the test running: its module's file name and its name
        self.test = ("", "")
        self.seen: dict[tuple[str, str], dict[str, set[str]]] = {}

    def _now(self, table: str) -> set[str]:
        tables = self.seen.setdefault(self.test, {"REQUESTS": set(), "PUSHES": set(),
                                                  "CODES": set()})
        return tables[table]

    def sent(self, msg: Message) -> None:
        if isinstance(msg.get("type"), str):
            self._now("REQUESTS").add(msg["type"])

    def received(self, msg: Message) -> None:
        self._now("PUSHES").add(msg["type"])
        if msg["type"] == "error":
            self._now("CODES").add(str(msg.get("code")))

    def of(self, test: tuple[str, str], table: str) -> set[str]:
        """What ``test`` met of ``table`` (``REQUESTS``, ``PUSHES`` or ``CODES``)."""
        return self.seen.get(test, {}).get(table, set())


#: What every client of this process met.
MET = Met()


# --- the host, a real process -------------------------------------------------------------------

class HostProcess:
    """``cardparty host --bind 127.0.0.1 --port PORT ARGS``: a real host process (port 0:
    one the system picks), its ROUTER's address read from the line it prints, its key desk
    on the next port."""

    #: where the first line the process prints says it listens
    LISTENS = r"tcp://127\.0\.0\.1:(\d+)"

    def __init__(self, *args: str, env: dict[str, str] | None = None, port: int = 0) -> None:
        script = Path(sys.executable).with_name("cardparty")
        command = [str(script)] if script.exists() else [sys.executable, "-m",
                                                         "cardparty.client.cli"]
        #: what the host says on stderr (its fingerprint; errors), kept in a file: a pipe
        #: nobody reads could fill and stop the host; open as long as the host runs
        self.said = tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*command, "host", "--bind", "127.0.0.1", "--port", str(port), "--name", "wire",
             "--log-level", "error", *args],
            stdout=subprocess.PIPE, stderr=self.said, text=True,
            env={**os.environ, **(env or {})})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(self.LISTENS, line)
        if found is None:
            said = self.stderr()
            self.stop()
            raise AssertionError(f"the host printed no address: {line!r} {said}")
        self.port = int(found.group(1))
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.key = self._key()

    def _key(self) -> str:
        """The host's key, as its desk tells it."""
        return str(ask_desk(self.port)["key"])

    def stderr(self) -> str:
        """What the host wrote on stderr so far."""
        self.said.seek(0)
        return self.said.read()

    def kill(self) -> None:
        """SIGKILL: the host dies at once, as in a crash."""
        self.proc.kill()
        self.proc.wait()
        self._release()

    def stop(self) -> None:
        """SIGTERM (the host stops cleanly), SIGKILL if it does not within a few seconds."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._release()

    def _release(self) -> None:
        """The pipe and the file of a host that is gone."""
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.said.close()

    def client(self, name: str | None = None, **kw: Any) -> Client:
        """A new client of this host; with ``name``, already welcomed."""
        c = Client(self.address, self.key, **kw)
        if name is not None:
            c.hello(name)
        return c


class StandbyProcess(HostProcess):
    """``cardparty host --standby-for 127.0.0.1:PORT --host-key FINGERPRINT ARGS``: a real
    standby of the host on ``PORT`` (docs/operating.md, "A party's peers"): where it will
    serve players once it takes over (``port``, from the line it prints) and the fingerprint of
    its key (``approve``, from the line it says for the host's operator to approve). Its
    key itself is told to a client by its host, once the standby is attached (``welcome``'s
    ``standby``, the ``standby`` push): it has no key desk of its own before it takes over."""

    LISTENS = r"serving at 127\.0\.0\.1:(\d+)"

    def __init__(self, host: HostProcess, *args: str) -> None:
        super().__init__("--standby-for", f"127.0.0.1:{host.port}", "--host-key",
                         fingerprint(host.key), *args)

    def _key(self) -> str:
        end = time.monotonic() + WAIT
        while (found := re.search(r"--standby-key ([a-z2-7-]+)\)", self.stderr())) is None:
            assert time.monotonic() < end, f"the standby said no fingerprint: {self.stderr()}"
            time.sleep(0.02)
        #: the fingerprint of the standby's key, for ``--standby-key``
        self.approve = found.group(1)
        return ""


@contextmanager
def running(*args: str, env: dict[str, str] | None = None) -> Iterator[HostProcess]:
    host = HostProcess(*args, env=env)
    try:
        yield host
    finally:
        host.stop()


def ask_desk(port: int, kind: int = zmq.DEALER, timeout: float = WAIT) -> Message:
    """The key desk's answer (docs/protocol.md: a plain socket on the port after the host's,
    the one frame ``cardparty key?``); a REQ sends and receives behind its delimiter frame."""
    sock: zmq.Socket[bytes] = zmq.Context.instance().socket(kind)
    sock.setsockopt(zmq.LINGER, 0)
    try:
        sock.connect(f"tcp://127.0.0.1:{port + 1}")
        sock.send(QUESTION)
        assert sock.poll(int(timeout * 1000)), "the key desk did not answer"
        return unpack(sock.recv())
    finally:
        sock.close(0)


# --- a client ------------------------------------------------------------------------------------

class Client:
    """One DEALER with a CURVE key pair of its own (``keys``: a pair to reuse, the player's
    identity), connected to ``address`` holding the host to ``server_key``; ``source``: the
    local address to connect from (another loopback address stands for another machine)."""

    def __init__(self, address: str, server_key: str | bytes,
                 keys: tuple[bytes, bytes] | None = None, source: str | None = None,
                 curve: bool = True) -> None:
        self.keys = keys or zmq.curve_keypair()
        #: the key this client holds the host to
        self.server_key = server_key.encode() if isinstance(server_key, str) else server_key
        self.sock: zmq.Socket[bytes] = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        if curve:
            self.sock.setsockopt(zmq.CURVE_PUBLICKEY, self.keys[0])
            self.sock.setsockopt(zmq.CURVE_SECRETKEY, self.keys[1])
            self.sock.setsockopt(zmq.CURVE_SERVERKEY, self.server_key)
        target = address if source is None else address.replace("tcp://",
                                                                 f"tcp://{source}:0;")
        self.sock.connect(target)
        #: request ids start from a random number (docs/protocol.md, "Request ids")
        self._rids = itertools.count(random.getrandbits(40) << 20)
        #: what the host pushed while this client waited for a reply, oldest first
        self.pushed: list[Message] = []
        self.welcome: Message | None = None

    # --- sending and reading ----------------------------------------------------------------

    def send(self, msg: Message) -> None:
        MET.sent(msg)
        self.sock.send(pack(msg))

    def send_frames(self, *frames: bytes) -> None:
        self.sock.send_multipart(list(frames))

    def recv(self, timeout: float = WAIT) -> Message | None:
        """The next message, or None after ``timeout`` seconds."""
        if not self.sock.poll(int(timeout * 1000)):
            return None
        msg = unpack(self.sock.recv())
        MET.received(msg)
        return msg

    def rid(self) -> int:
        return next(self._rids)

    def request(self, kind: str, **fields: Any) -> Message:
        """``kind`` with ``fields`` and a fresh ``rid`` (unless given): its reply (an error
        too); what came before it is kept in ``pushed``."""
        fields.setdefault("rid", self.rid())
        self.send({"type": kind, **fields})
        return self.reply_to(fields["rid"])

    def reply_to(self, rid: Any, timeout: float = WAIT) -> Message:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.0, end - time.monotonic()))
            assert msg is not None, f"no reply to rid {rid!r}"
            if msg.get("rid") == rid:
                return msg
            self.pushed.append(msg)

    def ok(self, kind: str, **fields: Any) -> Message:
        """A request that must succeed: its reply, never an ``error``."""
        reply = self.request(kind, **fields)
        assert reply["type"] != "error", reply
        return reply

    def refused(self, code: str, kind: str, **fields: Any) -> Message:
        """A request the host must refuse with ``code``: the ``error``, checked as the doc
        says every error is (its code, one line of words, the request's rid and type, and
        ``msg`` unless the code is one of the six for programmers)."""
        reply = self.request(kind, **fields)
        assert reply["type"] == "error" and reply["code"] == code, reply
        check_error(reply, about=kind)
        return reply

    def hello(self, name: str, **fields: Any) -> Message:
        reply = self.request("hello", name=name, client="doc client 1", **fields)
        assert reply["type"] == "welcome", reply
        self.welcome = reply
        return reply

    def take(self, kind: str | None = None) -> list[Message]:
        """What was pushed so far (of ``kind`` only, if given), and forget all of it."""
        got, self.pushed = self.pushed, []
        return [m for m in got if kind is None or m["type"] == kind]

    def wait(self, wanted: Callable[[Message], bool], timeout: float = WAIT) -> Message:
        """The first message (already pushed, or to come) for which ``wanted`` holds; the
        ones before it stay in ``pushed``."""
        for i, kept in enumerate(self.pushed):
            if wanted(kept):
                del self.pushed[i]
                return kept
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.0, end - time.monotonic()))
            assert msg is not None, "the message waited for did not come"
            if wanted(msg):
                return msg
            self.pushed.append(msg)

    def quiet(self, seconds: float = 0.3) -> list[Message]:
        """Everything that comes within ``seconds`` (kept in ``pushed`` too)."""
        end = time.monotonic() + seconds
        got = []
        while (msg := self.recv(max(0.0, end - time.monotonic()))) is not None:
            got.append(msg)
        self.pushed += got
        return got

    def close(self) -> None:
        self.sock.close(0)

    # --- a table ------------------------------------------------------------------------------

    def table_with_bots(self, game: str = "pika", players: int = 2, **create: Any) -> str:
        """A table of ``game`` created, sat at, its other seats bots, started: its id."""
        tid = str(self.ok("create", game=game, players=players, **create)["table"]["id"])
        self.ok("sit", table=tid)
        self.ok("bots", table=tid)
        self.ok("start", table=tid)
        return tid

    def play_out(self, tid: str) -> Message:
        """Play until the round at ``tid`` is over (``play_all``): the view with the result."""
        return play_all([self], tid)[0]


def play_all(clients: list[Client], tid: str, most: float = 60.0) -> list[Message]:
    """Each client plays the first move its view lists whenever its seat may move, until
    every one of them has the view with the round's result: those views. Everything they
    were sent stays in their ``pushed``, in order."""
    latest: dict[int, Message] = {}
    moved: dict[int, int] = {}
    done: dict[int, Message] = {}
    poller = zmq.Poller()
    for c in clients:
        poller.register(c.sock, zmq.POLLIN)
        # The picture as it is now, whatever was read before: a snapshot (Clone).
        c.send({"type": "snapshot", "rid": c.rid(), "table": tid})
    end = time.monotonic() + most
    while len(done) < len(clients):
        assert time.monotonic() < end, f"the round at {tid} did not end"
        poller.poll(50)
        for i, c in enumerate(clients):
            while (msg := c.recv(0)) is not None:
                c.pushed.append(msg)
                if msg["type"] == "view" and msg["table"] == tid:
                    latest[i] = msg
                    if msg["view"]["result"] is not None:
                        done[i] = msg
            view = latest.get(i)
            if (view is not None and i not in done and view["view"]["moves"]
                    and moved.get(i) != view["version"]):
                moved[i] = view["version"]
                c.send({"type": "move", "rid": c.rid(), "table": tid,
                        "version": view["version"], "move": 0})
    return [done[i] for i in range(len(clients))]


#: The codes whose words are only for programmers: their errors carry no ``msg``.
FOR_PROGRAMMERS = frozenset({"malformed", "too_big", "frames", "version", "unknown_type",
                             "internal"})


def check_error(error: Message, about: str | None = None) -> None:
    """An ``error`` as docs/protocol.md describes it."""
    assert isinstance(error["message"], str) and error["message"], error
    assert "\n" not in error["message"], error
    if about is not None:
        assert error["about"] == about, error
    if error["code"] in FOR_PROGRAMMERS:
        assert "msg" not in error, error
    else:
        msg = error.get("msg")
        assert isinstance(msg, dict) and isinstance(msg.get("id"), str), error
        assert isinstance(msg.get("p"), dict), error
