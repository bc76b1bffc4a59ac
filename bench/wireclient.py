"""A plain wire client and real host processes for the benches that play through a host as a
player's client does: a host (``cardparty host``) and a standby of one started as processes,
their key read from the key desk, and ``Client``, one DEALER with a CURVE key pair of its own
sending msgpack maps with fresh request ids (docs/protocol.md), keeping what the host pushed
while it waited for a reply.

Must not know about: the host's code (only the command line and the wire).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import zmq
from zmq.utils import z85

QUESTION = b"cardparty key?"
WAIT = 20.0
Message = dict[str, Any]


def pack(msg: Message) -> bytes:
    return msgpack.packb({"v": 1, **msg}, use_bin_type=True)


def unpack(frame: bytes) -> Message:
    got = msgpack.unpackb(frame, raw=False)
    assert isinstance(got, dict) and isinstance(got.get("type"), str), got
    return got


def fingerprint(key: str | bytes) -> str:
    """The key's fingerprint as docs/protocol.md defines it (what --standby-key takes)."""
    raw = z85.decode(key.encode() if isinstance(key, str) else key)
    text = base64.b32encode(hashlib.sha256(raw).digest()).decode().lower()[:16]
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


def ask_desk(port: int, timeout: float = WAIT) -> Message:
    sock: zmq.Socket[bytes] = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    try:
        sock.connect(f"tcp://127.0.0.1:{port + 1}")
        sock.send(QUESTION)
        assert sock.poll(int(timeout * 1000)), "the key desk did not answer"
        return unpack(sock.recv())
    finally:
        sock.close(0)


class HostProcess:
    """``cardparty host --bind 127.0.0.1 --port PORT ARGS`` as a process."""

    LISTENS = r"tcp://127\.0\.0\.1:(\d+)"

    def __init__(self, *args: str, port: int = 0) -> None:
        script = Path(sys.executable).with_name("cardparty")
        command = [str(script)] if script.exists() else [sys.executable, "-m",
                                                         "cardparty.client.cli"]
        self.said = tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*command, "host", "--bind", "127.0.0.1", "--port", str(port), "--name", "bench",
             "--log-level", "error", *args],
            stdout=subprocess.PIPE, stderr=self.said, text=True)
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
        return str(ask_desk(self.port)["key"])

    def stderr(self) -> str:
        self.said.seek(0)
        return self.said.read()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def client(self, name: str | None = None) -> Client:
        c = Client(self.address, self.key)
        if name is not None:
            c.hello(name)
        return c


class StandbyProcess(HostProcess):
    """``cardparty host --standby-for 127.0.0.1:PORT --host-key FINGERPRINT ARGS``; its
    fingerprint, to approve, in ``approve``."""

    LISTENS = r"serving at 127\.0\.0\.1:(\d+)"

    def __init__(self, host: HostProcess, *args: str) -> None:
        super().__init__("--standby-for", f"127.0.0.1:{host.port}", "--host-key",
                         fingerprint(host.key), *args)

    def _key(self) -> str:
        end = time.monotonic() + WAIT
        while (found := re.search(r"--standby-key ([a-z2-7-]+)\)", self.stderr())) is None:
            assert time.monotonic() < end, f"the standby said no fingerprint: {self.stderr()}"
            time.sleep(0.02)
        self.approve = found.group(1)
        return ""


class Client:
    """One DEALER with a CURVE key pair of its own (``keys``: reuse a player's)."""

    def __init__(self, address: str, server_key: str | bytes,
                 keys: tuple[bytes, bytes] | None = None) -> None:
        self.keys = keys or zmq.curve_keypair()
        server = server_key.encode() if isinstance(server_key, str) else server_key
        self.sock: zmq.Socket[bytes] = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.CURVE_PUBLICKEY, self.keys[0])
        self.sock.setsockopt(zmq.CURVE_SECRETKEY, self.keys[1])
        self.sock.setsockopt(zmq.CURVE_SERVERKEY, server)
        self.sock.connect(address)
        self._rids = itertools.count(random.getrandbits(40) << 20)
        self.pushed: list[Message] = []
        self.welcome: Message | None = None

    def send(self, msg: Message) -> None:
        self.sock.send(pack(msg))

    def recv(self, timeout: float = WAIT) -> Message | None:
        if not self.sock.poll(int(timeout * 1000)):
            return None
        return unpack(self.sock.recv())

    def rid(self) -> int:
        return next(self._rids)

    def request(self, kind: str, timeout: float = WAIT, **fields: Any) -> Message:
        """``kind``'s reply (an error too); what came before it stays in ``pushed``."""
        rid = self.rid()
        self.send({"type": kind, "rid": rid, **fields})
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.0, end - time.monotonic()))
            assert msg is not None, f"no reply to {kind}"
            if msg.get("rid") == rid:
                return msg
            self.pushed.append(msg)

    def ok(self, kind: str, timeout: float = WAIT, **fields: Any) -> Message:
        reply = self.request(kind, timeout, **fields)
        assert reply["type"] != "error", reply
        return reply

    def hello(self, name: str) -> Message:
        reply = self.request("hello", name=name, client="bench")
        assert reply["type"] == "welcome", reply
        self.welcome = reply
        return reply

    def take(self) -> list[Message]:
        got, self.pushed = self.pushed, []
        return got

    def wait(self, wanted: Callable[[Message], bool], timeout: float = WAIT) -> Message:
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

    def close(self) -> None:
        self.sock.close(0)

    def table_with_bots(self, game: str, players: int, **create: Any) -> str:
        tid = str(self.ok("create", game=game, players=players, **create)["table"]["id"])
        self.ok("sit", table=tid)
        self.ok("bots", table=tid)
        self.ok("start", table=tid)
        return tid

    def play_out(self, tid: str, most: float = 120.0) -> Message:
        """Play the first listed move whenever this seat may, until the round is over."""
        self.send({"type": "snapshot", "rid": self.rid(), "table": tid})
        end = time.monotonic() + most
        moved = -1
        latest: Message | None = None
        while True:
            assert time.monotonic() < end, f"the round at {tid} did not end"
            for msg in [*self.take(), *filter(None, [self.recv(0.05)])]:
                if (msg.get("type") == "view" and msg.get("table") == tid
                        and (latest is None or msg["version"] >= latest["version"])):
                    latest = msg
            if latest is None:
                continue
            if latest["view"]["result"] is not None:
                return latest
            if latest["view"]["moves"] and moved != latest["version"]:
                moved = latest["version"]
                self.send({"type": "move", "table": tid, "rid": self.rid(), "move": 0,
                           "version": latest["version"]})


