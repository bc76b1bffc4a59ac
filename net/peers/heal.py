"""A host that took over without being sure calls its old host until they meet (docs/
protocol.md, "No split brain, no lost move": exactly one host after the heal).

Owns: ``Caller``, a thread of its own with one DEALER to the old host's address, over CURVE
with this host's key pair (the standby's: the key the old host approved), saying
``standby_hello`` with this host's higher epoch about once a second. What it learns goes to
the host's loop through the two callbacks it is given:

- ``sure(why)``: nothing listens at the old host's address any more (its process is gone):
  no other host serves, nothing needs holding;
- ``healed(copies, memo)``: the old host answered, stood down and handed over its rows (its
  ``standby_welcome`` with ``heal``, the pieces, its memory of replies by request id in
  ``records`` without records, the end), each piece checked against this
  host's own schema and loaded into a copy in memory (net/peers/replica.py's ``Copies``: nothing
  the old host sends is run or opened as a database); the caller acknowledges
  (``standby_ack`` with ``healed``) and the host carries in what the old host did after the
  fork (net/peers/merge.py).

Must not know about: tables, players, the host's parts, the merge.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import zmq

from cardparty.net.peers.peer import (
    PIECE,
    RECORDS,
    SNAPSHOT_END,
    WELCOME,
    PeerError,
    ack,
    hello,
    read_from_host,
)
from cardparty.net.peers.replica import Copies, ReplicaError
from cardparty.net.peers.standby import Memo, peer_socket, refused
from cardparty.net.trust.keys import KeyPair
from cardparty.net.wire.address import HostAddress
from cardparty.net.wire.protocol import encode

log = logging.getLogger("cardparty.host")

#: Seconds between two calls.
EVERY = 1.0


class Caller(threading.Thread):
    """See the module docstring. ``serves`` and ``epoch``: this host's address and epoch."""

    def __init__(self, old: HostAddress, old_key: bytes, keys: KeyPair, serves: HostAddress,
                 epoch: int, sure: Callable[[str], None],
                 healed: Callable[[dict[str, sqlite3.Connection], Memo], None]) -> None:
        super().__init__(name="cardparty-heal", daemon=True)
        self.old, self.old_key, self.keys = old, old_key, keys
        self.serves, self.epoch = serves, epoch
        self.on_sure, self.on_healed = sure, healed
        self.stopping = threading.Event()
        #: the host has stopped serving (``ready``): only then is the old host told its
        #: files are taken, so that no player it then sends here meets the host before the
        #: heal
        self.stopped = threading.Event()

    def ready(self) -> None:
        """The host stopped serving and will carry the files in: say so to the old host."""
        self.stopped.set()

    def stop(self) -> None:
        self.stopping.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(3.0)

    def run(self) -> None:
        ctx: zmq.Context[Any] = zmq.Context(io_threads=1)
        sock = peer_socket(ctx, self.keys, self.old_key, self.old)
        sock.setsockopt(zmq.LINGER, 500)          # its last word (``healed``) still goes
        try:
            self._call(sock)
        finally:
            sock.close()
            ctx.term()

    def _call(self, sock: zmq.Socket[Any]) -> None:
        due = 0.0
        session = int(time.time() * 1000) % (1 << 40)
        copies: Copies | None = None
        memo = Memo()
        while not self.stopping.is_set():
            now = time.monotonic()
            if now >= due and copies is None:
                due = now + EVERY
                if refused(self.old, 0.1):
                    log.info("nothing listens at the old host's address %s any more",
                             self.old.shown)
                    self.on_sure("nothing listens at the old host's address any more")
                    return
                session += 1
                with contextlib.suppress(zmq.Again):
                    sock.send(encode(hello(self.serves, self.epoch, session)), zmq.NOBLOCK)
            if not sock.poll(100):
                continue
            try:
                msg = read_from_host(sock.recv())
                if msg["type"] == WELCOME and msg.get("heal"):
                    log.warning("the old host at %s (epoch %s) answers: it hands its rows over",
                                self.old.shown, msg.get("epoch"))
                    if copies is not None:
                        copies.abandon()
                    copies = Copies(msg.get("files"), None)
                    memo = Memo()
                elif msg["type"] == RECORDS and copies is not None:
                    memo.add(msg["replies"])       # its memory of replies, for requests again
                elif msg["type"] == PIECE and copies is not None:
                    copies.piece(msg["file"], msg["table"], msg["rows"])
                elif msg["type"] == SNAPSHOT_END and copies is not None:
                    done, copies = copies.finish(), None
                    self.on_healed(done, memo)
                    if self.stopped.wait(10.0):
                        with contextlib.suppress(zmq.Again):
                            sock.send(encode(ack(0, session, healed=True)), zmq.NOBLOCK)
                    return
            except (PeerError, ReplicaError) as exc:
                log.warning("the old host's rows are not understood (%s): calling it again",
                            exc)
                if copies is not None:
                    copies.abandon()
                copies = None
        if copies is not None:
            copies.abandon()
