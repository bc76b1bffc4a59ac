"""The host's ZAP handler (net/trust/guard.py): any CURVE client key of the host's domain is let
in and named by its key, which is what every message's User-Id then says (MO-1: identity is
what ZeroMQ authenticated); anything else is refused. The full path, a real CURVE socket
through it, is covered by test_identity.py."""

from __future__ import annotations

from zmq.utils import z85

from cardparty.net.trust.guard import DOMAIN, zap_reply
from cardparty.net.trust.keys import KeyPair


def request(domain: bytes = DOMAIN.encode(), mechanism: bytes = b"CURVE",
            *credentials: bytes) -> list[bytes]:
    return [b"1.0", b"id-7", domain, b"127.0.0.1", b"", mechanism, *credentials]


def test_mo1_a_curve_key_of_the_domain_is_let_in_and_named_by_its_key_and_address() -> None:
    key = z85.decode(KeyPair.generate().public)
    reply = zap_reply(request(DOMAIN.encode(), b"CURVE", key))
    assert reply == [b"1.0", b"id-7", b"200", b"OK", z85.encode(key) + b" 127.0.0.1", b""]


def test_anything_else_is_refused() -> None:
    key = z85.decode(KeyPair.generate().public)
    for bad in (request(b"other", b"CURVE", key), request(DOMAIN.encode(), b"NULL"),
                request(DOMAIN.encode(), b"PLAIN", b"user", b"pass"),
                request(DOMAIN.encode(), b"CURVE", key[:31]),
                [b"2.0", *request(DOMAIN.encode(), b"CURVE", key)[1:]]):
        reply = zap_reply(bad)
        assert reply[1] == b"id-7" and reply[2] == b"400" and reply[4] == b""
