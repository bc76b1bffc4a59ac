"""Real host and standby processes for the tests (``cardparty host`` and ``cardparty host
--standby-for``), and a player that plays one table through a ``Session`` and remembers
every move the host acknowledged: what the tests of takeovers check against the table the
last host kept."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.discovery import load_catalog
from cardparty.core.economy.ledger import Ledger
from cardparty.core.table import Table
from cardparty.net.player.session import Session, SessionError
from cardparty.net.store import Store
from cardparty.net.trust.keys import host_keys

CARDPARTY = [sys.executable, "-m", "cardparty.client.cli"]


def free_port() -> int:
    """A port free now, with the next one free too (the key desk's)."""
    for _ in range(100):
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", 0))
            port = a.getsockname()[1]
            try:
                b.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return int(port)
    raise RuntimeError("no free pair of ports")


class Proc:
    """A process whose standard error is read line by line as it comes."""

    def __init__(self, args: Sequence[str], ns: str | None = None) -> None:
        prefix = ["ip", "netns", "exec", ns] if ns else []
        self.proc = subprocess.Popen([*prefix, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=os.environ)
        self.lines: list[str] = []
        self._cond = threading.Condition()
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()

    def wait_for(self, pattern: str, timeout: float = 20.0, after: int = 0) -> re.Match[str]:
        """The first line (from line ``after`` on) that matches ``pattern``."""
        end = time.monotonic() + timeout
        rx = re.compile(pattern)
        with self._cond:
            while True:
                for line in self.lines[after:]:
                    found = rx.search(line)
                    if found:
                        return found
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None and not self._pending():
                    raise AssertionError(f"no line matching {pattern!r}:\n"
                                         + "\n".join(self.lines[-30:]))
                self._cond.wait(min(left, 0.1))

    def _pending(self) -> bool:
        return False

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9


def standby_key(data: Path) -> str:
    """The fingerprint of the key pair a standby on ``data`` will speak with."""
    return host_keys(data).fingerprint


def start_host(data: Path, standby: Path | str, port: int, bind: str = "127.0.0.1",
               ns: str | None = None, extra: Sequence[str] = ()) -> Proc:
    """``cardparty host`` on ``data`` that takes the standby whose data is ``standby`` (or
    whose fingerprint it is), listening once the call returns."""
    fp = standby if isinstance(standby, str) else standby_key(standby)
    proc = Proc([*CARDPARTY, "host", "--bind", bind, "--port", str(port), "--data", str(data),
                 "--standby-key", fp, "--idle", "0", "--log-level", "info", *extra], ns)
    proc.wait_for(r"listening on tcp://")
    return proc


def start_standby(data: Path, host: str, port: int, bind: str = "127.0.0.1",
                  ns: str | None = None, serves: str | None = None) -> Proc:
    """``cardparty host --standby-for host`` on ``data``, attached once the call returns."""
    proc = Proc([*CARDPARTY, "host", "--bind", bind, "--port", str(port), "--data", str(data),
                 "--standby-for", host, "--log-level", "info",
                 *(["--serves", serves] if serves else [])], ns)
    proc.wait_for(r"attached to the host")
    return proc


class Player:
    """One player at one table of a host, playing the first move he is offered whenever he
    may; ``acked``: version -> the move the host said ``ok`` to."""

    def __init__(self, address: str, name: str) -> None:
        self.session = Session(address, name, request_timeout=20)
        self.welcome = self.session.connect(10)
        self.table = ""
        self.acked: dict[int, Move] = {}
        self.moved: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.result: Any = None
        self.seen = 0
        #: other tables he sits at with other players, and the moves acknowledged there
        self.others: dict[str, dict[int, Move]] = {}
        #: his request not yet answered at each of those tables, and the move it is
        self._asked: dict[str, tuple[Future[dict[str, Any]], Move | None]] = {}

    def open_shared(self, game: str) -> str:
        """A table of two humans: he sits and is ready; another player ``join``s it."""
        s = self.session
        table = s.create(game, 2, {})["id"]
        s.sit(table)
        s.ready(table)
        self.others[table] = {}
        return table

    def join(self, table: str) -> None:
        self.session.sit(table)
        self.session.ready(table)
        self.others[table] = {}

    def open(self, game: str, players: int) -> str:
        s = self.session
        self.table = s.create(game, players, {})["id"]
        s.sit(self.table)
        s.add_bots(self.table)
        s.ready(self.table)
        return self.table

    def play(self, moves: int, timeout: float = 30.0) -> None:
        """Play on until ``moves`` more were acknowledged, or the game is over."""
        end = time.monotonic() + timeout
        target = len(self.acked) + moves
        while len(self.acked) < target and self.result is None:
            assert time.monotonic() < end, f"{self.session.name} is stuck: {self.errors[-5:]}"
            self.pump()

    def pump(self, wait: float = 0.2) -> None:
        """One message handled (if one comes within ``wait``): a move played when offered."""
        self._answered()
        msg = self.session.next_message(wait)
        if msg is None:
            return
        kind = msg["type"]
        if kind == "connection" and msg.get("state") == "moved":
            self.moved.append(msg)
        elif kind == "connection" and msg.get("state") == "older":
            self.errors.append("older")
        elif kind == "error":
            self.errors.append(str(msg.get("code")))
        elif kind == "view" and msg.get("table") in self.others:
            self._other(msg)
        elif kind == "view" and msg.get("table") == self.table:
            self.seen = max(self.seen, msg["version"])
            view = msg["view"]
            if view.get("result"):
                self.result = view["result"]
            elif view["moves"] and self.result is None:
                m = view["moves"][0]
                try:
                    ok = self.session.move(self.table, 0, msg["version"])
                except SessionError as exc:
                    if exc.code != "stale":
                        self.errors.append(exc.code)
                    return
                self.acked[ok["version"]] = Move(m["kind"], tuple(m["cards"]), m["choice"])

    def _other(self, msg: dict[str, Any]) -> None:
        """A view of another table: his move when it is his turn; another round once over.
        Sent without waiting for the reply (a table held waits for its players, and he plays
        his own table meanwhile); the replies are read at the next pumps (``_answered``)."""
        table, view = msg["table"], msg["view"]
        if table in self._asked:
            return                                   # his last word there is not answered yet
        if view.get("result"):
            self._asked[table] = (self.session.send("again", table=table), None)
        elif view["moves"]:
            m = view["moves"][0]
            self._asked[table] = (self.session.send_move(table, 0, msg["version"]),
                                  Move(m["kind"], tuple(m["cards"]), m["choice"]))

    def _answered(self) -> None:
        for table, (fut, move) in list(self._asked.items()):
            if not fut.done():
                continue
            del self._asked[table]
            try:
                ok = fut.result()
            except SessionError as exc:
                if exc.code not in ("stale", "not_over", "not_playing"):
                    self.errors.append(exc.code)
                continue
            if move is not None:
                self.others[table][ok["version"]] = move

    def moves_to(self, port: int, timeout: float = 20.0) -> None:
        """Play on until his session said it moved to the host at ``port``."""
        end = time.monotonic() + timeout
        while not (self.moved and self.moved[-1]["address"].endswith(f":{port}")):
            assert time.monotonic() < end, f"never moved to :{port}: {self.moved}"
            self.pump()

    def told_of(self, port: int, timeout: float = 10.0) -> None:
        """Wait until his host's word names the standby at ``port`` (he plays on meanwhile)."""
        end = time.monotonic() + timeout
        while not (self.session.successor is not None
                   and self.session.successor.endpoint.endswith(f":{port}")):
            assert time.monotonic() < end, "never told of the standby"
            self.pump()

    def close(self) -> None:
        self.session.close()


#: A player in a process of its own (a machine of a test's network): plays one table round
#: after round, a move at most every ``pace`` seconds, and says on its standard output, as
#: JSON lines, how many moves were acknowledged, by which epoch, where it moved; a line on
#: its standard input stops it, and its last line holds every move acknowledged.
PLAYER = """
import json, sys, threading, time
from tests.net.standbykit import Player
address, name, game, pace = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
player = Player(address, name)
table = player.open(game, 2)
shared = sys.argv[5] if len(sys.argv) > 5 else ""
if shared == "new":
    shared = player.open_shared(game)
elif shared:
    player.join(shared)
print(json.dumps({"table": table, "shared": shared}), flush=True)
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
said = -1
while not stop.is_set():
    player.pump(0.05)
    if player.result is not None:
        player.result = None
        try:
            player.session.request("again", table=table)
        except Exception as exc:
            player.errors.append(type(exc).__name__)
    n = len(player.acked)
    if n != said:
        said = n
        print(json.dumps({"n": n, "epoch": player.session.epoch, "seen": player.seen,
                          "moved": [m["address"] for m in player.moved],
                          "m": sum(map(len, player.others.values()))}), flush=True)
        time.sleep(pace)
print(json.dumps({"acked": {v: [m.kind, list(m.cards)] for v, m in player.acked.items()},
                  "shared": {v: [m.kind, list(m.cards)]
                             for acked in player.others.values() for v, m in acked.items()},
                  "errors": player.errors}), flush=True)
player.close()
"""


def kept_table(data: Path, table_id: str) -> Table:
    """The table as the store in ``data`` keeps it (its row and its tail replayed)."""
    store = Store(data)
    try:
        for tid, _, _, save in store.tables():
            if tid == table_id:
                table = Table.restore(save, load_catalog())
                for version, (seat, kind, cards, choice, *_) in store.moves(tid)[0]:
                    if version > table.version:
                        table.play(seat, Move(kind, tuple(cards), choice))
                return table
    finally:
        store.close()
    raise AssertionError(f"no table {table_id} in {data}")


def lost_moves(player: Player | dict[int, Move], table: Table) -> list[int]:
    """The versions whose acknowledged move the table does not hold as that seat's move (of
    its round in play: a table going on round after round keeps the last round's journal,
    whose first version is ``table.version - len(journal)``)."""
    acked = player.acked if isinstance(player, Player) else player
    base = table.version - len(table.journal)
    return [v for v, m in acked.items() if v > base and (
        v > table.version or table.journal[v - base - 1][1].kind != m.kind
        or table.journal[v - base - 1][1].cards != m.cards)]


def audit(data: Path) -> None:
    ledger = Ledger.read_only(data / "economy.sqlite3")
    try:
        ledger.audit()
    finally:
        ledger.close()
