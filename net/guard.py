"""CURVE for a host: its key pair on its ROUTER, a ZAP handler, and its key desk.

Owns: turning a host's ROUTER into a CURVE server (``secure``), the ZAP handler that lets
every client key in (anyone may play) and names each connection by its key, so that every
message carries the key ZeroMQ authenticated as its "User-Id" property (``user_of``), and
binding the key desk next to the ROUTER (``open_desk``: on the port after the host's).

A client's identity at a host is that key: never its routing id, a name or a token it sends.

Must not know about: players, tables, games, terminals.
"""

from __future__ import annotations

import errno
import logging
from typing import Any

import zmq
import zmq.auth
from zmq.auth.thread import ThreadAuthenticator

from cardparty.net.keydesk import KeyDesk, desk_endpoint
from cardparty.net.keys import KeyPair

#: The ZAP domain of a cardparty host.
DOMAIN = "cardparty"


class Guard:
    """The host's CURVE side on ``ctx`` (a context of the host's own: ZeroMQ allows one ZAP
    handler per context). ``close()`` stops the handler and the desk."""

    def __init__(self, ctx: zmq.Context[Any], keys: KeyPair, name: str) -> None:
        self.ctx = ctx
        self.keys = keys
        self.name = name
        self.desk: KeyDesk | None = None
        self.auth = ThreadAuthenticator(ctx, log=logging.getLogger("cardparty.host.zap"))
        self.auth.start()
        # Any client key is let in (anyone may play); the User-Id ZAP sets is the key (Z85).
        self.auth.configure_curve(domain=DOMAIN, location=zmq.auth.CURVE_ALLOW_ANY)

    def secure(self, sock: zmq.Socket[Any]) -> None:
        """Make ``sock`` (before it binds) a CURVE server authenticated by this guard."""
        sock.curve_server = True
        sock.curve_secretkey = self.keys.secret
        sock.curve_publickey = self.keys.public
        sock.zap_domain = DOMAIN.encode()

    def open_desk(self, address: str) -> bool:
        """Bind the key desk on the port after ``address``'s; False when that port is taken."""
        try:
            self.desk = KeyDesk(self.ctx, desk_endpoint(address), self.keys, self.name)
        except zmq.ZMQError as exc:
            if exc.errno == errno.EADDRINUSE:
                return False
            raise
        return True

    def close(self) -> None:
        if self.desk is not None:
            self.desk.close()
            self.desk = None
        self.auth.stop()


def user_of(frame: zmq.Frame) -> bytes | None:
    """The key ZeroMQ authenticated for the connection ``frame`` came by (Z85), or None on a
    socket without CURVE."""
    try:
        user = frame.get("User-Id")
    except zmq.ZMQError:
        return None
    return user.encode() if isinstance(user, str) and user else None
