"""The host's key desk: a plain socket that tells anyone the host's public key.

A client that has only an address (``cardparty join 192.168.1.20``) needs the host's public key
before it can open a CURVE connection at all. The host answers that one question on the port
after its own (``port + 1``, unencrypted, one ROUTER socket on its own thread); the client asks
once, checks the answer against its known hosts (a changed key is refused) or against a
fingerprint it was given (``--key``), and remembers it after the host proved it in the CURVE
handshake. The risk (docs/security.md): on the very first contact, someone who can answer in
the host's place gives his own key, exactly as with ssh; the fingerprint the host prints at
start is what a careful player compares.

Owns: the desk (``KeyDesk``), the client's question (``fetch_key``), and which port the desk
uses (``desk_endpoint``).

Must not know about: players, tables, terminals.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import zmq

from cardparty.net.address import ipv6_endpoint
from cardparty.net.keys import KeyPair, public_key
from cardparty.net.protocol import HOST_LIMITS, ProtocolError, decode, encode, message

#: What a client sends; anything else gets no answer.
QUESTION = b"cardparty key?"


def desk_endpoint(address: str) -> str:
    """The desk of the host at ``tcp://h:p``: ``tcp://h:p+1``."""
    head, port = address.rsplit(":", 1)
    return f"{head}:{int(port) + 1}"


class KeyDesk:
    """Answers QUESTION with the host's public key and name until ``close()``."""

    def __init__(self, ctx: zmq.Context[Any], endpoint: str, keys: KeyPair, name: str) -> None:
        self.answer = encode(message("key", key=keys.public.decode(), name=name))
        sock = ctx.socket(zmq.ROUTER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.MAXMSGSIZE, 64)       # a question is 14 bytes; anything else: drop
        sock.setsockopt(zmq.SNDHWM, 100)
        if ipv6_endpoint(endpoint):
            sock.setsockopt(zmq.IPV6, 1)
        sock.bind(endpoint)
        self.address = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        self._sock = sock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardparty-keydesk", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        sock = self._sock
        try:
            while not self._stop.is_set():
                if not sock.poll(100):
                    continue
                frames = sock.recv_multipart(zmq.NOBLOCK)
                if len(frames) == 2 and frames[1] == QUESTION:
                    with contextlib.suppress(zmq.ZMQError):
                        sock.send_multipart([frames[0], self.answer], zmq.NOBLOCK)
        finally:
            sock.close(0)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)


def fetch_key(address: str, timeout: float = 3.0,
              ctx: zmq.Context[Any] | None = None) -> tuple[bytes, str]:
    """Ask the desk of the host at ``address`` (``tcp://h:p``) for its key: (key, name).
    ConnectionError when nothing sensible answers within ``timeout``."""
    ctx = ctx or zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, 4096)
    if ipv6_endpoint(address):
        sock.setsockopt(zmq.IPV6, 1)
    try:
        try:
            sock.connect(desk_endpoint(address))
        except zmq.ZMQError as exc:     # an endpoint ZeroMQ cannot even try
            raise ConnectionError(f"cannot reach {address}: {exc}") from None
        sock.send(QUESTION)
        if not sock.poll(int(timeout * 1000)):
            raise ConnectionError(f"no cardparty host told its key at {address}")
        reply: dict[str, Any] = decode(sock.recv(), HOST_LIMITS)
        key = public_key(reply.get("key", ""))
        name = reply.get("name", "")
        return key, name if isinstance(name, str) else ""
    except (ProtocolError, ValueError) as exc:
        raise ConnectionError(f"the host at {address} sent no usable key ({exc})") from None
    finally:
        sock.close(0)
