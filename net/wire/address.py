"""A host's address as a player types or pastes it, read in one place for every command and
screen that takes one: ``cardparty join``, the start screen's address field, ``bot-client
--connect``, ``hosts --forget``, and the session itself.

Owns: ``HostAddress`` (a host and a port: its ZeroMQ endpoint, its key desk's on the next
port, and the ``host:port`` form the known-hosts file names it by), ``read_address`` (the text
to a HostAddress, or AddressError whose message is one line in the player's language saying
what is wrong and what to type instead), ``address_problem`` (that line, or None),
``maybe_address`` (the address or None, to compare what was typed) and
``ipv6_endpoint`` (whether a socket needs ZeroMQ's IPv6 option for an endpoint made here).

Read: ``host``, ``host:port`` and ``tcp://host:port``, where a host is an IPv4 address, a host
name (letters, digits, hyphens, underscores and dots; capitals do not matter) or an IPv6
address in brackets (``[::1]``, ``[fe80::1]:7770``). Spaces around the text and a trailing
slash are dropped. The port defaults to 7770 and is 1 to 65534: the key desk listens on the
next one (docs/security.md). Refused, each with its own line: another scheme (``http://``), a
path, a port alone, a port out of range, an IPv6 address without brackets (``::1:7770`` could
be either), and anything else. A host name is not looked up here: one that no machine
answers to is a host that does not answer.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from cardparty.core.i18n import _

#: The port a host listens on when none is given.
DEFAULT_PORT = 7770
#: The highest port a host may have: its key desk takes the next one.
MAX_PORT = 65534
#: What an address field shows of a paste it refuses, at most (the line stays one line).
SHOWN = 60

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")


class AddressError(ValueError):
    """Text that is not a host's address; ``message`` is the one line to show."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class HostAddress:
    """A host (an IPv4 address, a lower-case name, or an IPv6 address without brackets) and
    its port."""

    host: str
    port: int = DEFAULT_PORT

    @property
    def ipv6(self) -> bool:
        return ":" in self.host

    @property
    def shown(self) -> str:
        """``host:port``, an IPv6 host in brackets: how players and the known-hosts file
        write it."""
        return f"[{self.host}]:{self.port}" if self.ipv6 else f"{self.host}:{self.port}"

    @property
    def endpoint(self) -> str:
        """The ZeroMQ endpoint of the host's socket."""
        return f"tcp://{self.shown}"

    @property
    def desk(self) -> str:
        """The ZeroMQ endpoint of the host's key desk, on the next port."""
        return f"tcp://{HostAddress(self.host, self.port + 1).shown}"


def ipv6_endpoint(endpoint: str) -> bool:
    """Whether ``endpoint`` names an IPv6 host (ZeroMQ connects to one only with its IPV6
    option set, and that option on every socket would try IPv6 first for a host name)."""
    return endpoint.startswith("tcp://[")


def shown_text(text: str) -> str:
    """What was typed, quoted and cut for a one-line message."""
    return repr(text if len(text) <= SHOWN else text[:SHOWN - 3] + "...")


def read_address(text: str, default_port: int = DEFAULT_PORT) -> HostAddress:
    """``text`` as a host's address; AddressError saying why it is none (module docstring)."""
    typed = text.strip()
    quoted = shown_text(typed)
    example = _("type e.g. 192.168.1.20 or 192.168.1.20:{port}").format(port=default_port)
    if not typed:
        raise AddressError(_("no address: {example}").format(example=example))
    if any(ch.isspace() for ch in typed):
        raise AddressError(_("{text} is not an address (it holds a space): {example}").format(
            text=quoted, example=example))
    rest = typed
    scheme = _SCHEME.match(typed)
    if scheme is not None:
        rest = typed[scheme.end():]
        if scheme.group(1).lower() != "tcp":
            raise AddressError(_("{text}: a cardparty address has no {scheme}:// in front; "
                                 "{advice}").format(text=quoted, scheme=scheme.group(1),
                                                    advice=_advice(rest, default_port)))
    rest = rest.rstrip("/")
    if "/" in rest:
        where, _slash, path = rest.partition("/")
        raise AddressError(_("{text}: an address has no path (/{path}); {advice}").format(
            text=quoted, path=path, advice=_advice(where, default_port)))
    return _host_port(rest, quoted, default_port, example)


def address_problem(text: str) -> str | None:
    """Why ``text`` is not a host's address, in one line (None when it is one)."""
    try:
        read_address(text)
    except AddressError as exc:
        return exc.message
    return None


def maybe_address(text: str) -> HostAddress | None:
    """The address ``text`` names, or None: for comparing what was typed (``join kitchen``
    and an announced ``kitchen:7770`` are one host), where a refusal is said elsewhere."""
    try:
        return read_address(text)
    except AddressError:
        return None


def _advice(rest: str, default_port: int) -> str:
    """"type HOST:PORT" when the rest of a refused paste is an address, else an example."""
    try:
        found = read_address(rest, default_port)
    except AddressError:
        return _("type e.g. 192.168.1.20 or 192.168.1.20:{port}").format(port=default_port)
    return _("type {address}").format(address=found.shown)


def _host_port(text: str, quoted: str, default_port: int, example: str) -> HostAddress:
    host, port_text = text, ""
    if text.startswith("["):
        inside, bracket, after = text[1:].partition("]")
        if not bracket or (after and not after.startswith(":")):
            raise AddressError(_("{text} is not an address: {example}").format(
                text=quoted, example=example))
        host, port_text = inside, after[1:] if after else ""
        try:
            host = ipaddress.IPv6Address(host).compressed
        except ValueError:
            raise AddressError(_("{text}: [{host}] is not an IPv6 address").format(
                text=quoted, host=inside)) from None
        if after == ":":
            port_text = "-"
    elif text.count(":") > 1:
        try:
            bare = ipaddress.IPv6Address(text).compressed
        except ValueError:
            raise AddressError(_("{text} is not an address: {example}").format(
                text=quoted, example=example)) from None
        raise AddressError(_("{text}: an IPv6 address goes in brackets, e.g. [{host}]:{port}"
                             ).format(text=quoted, host=bare, port=default_port))
    elif ":" in text:
        host, _colon, port_text = text.partition(":")
        port_text = port_text or "-"
    port = default_port
    if port_text:
        if not (port_text.isascii() and port_text.isdigit()) or not (
                1 <= int(port_text) <= MAX_PORT):
            raise AddressError(_("{text}: the port must be a number from 1 to {most} (the "
                                 "host's key desk listens on the next one)").format(
                                     text=quoted, most=MAX_PORT))
        port = int(port_text)
    if ":" in host:
        return HostAddress(host, port)
    host = host.lower().removesuffix(".")
    if not host or host.isdigit():
        shown = host or port_text
        raise AddressError(_("{text} is a port alone: type the host too, e.g. "
                             "192.168.1.20:{port}").format(text=quoted, port=shown))
    if all(ch.isdigit() or ch == "." for ch in host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise AddressError(_("{text}: {host} is not an IPv4 address (four numbers from 0 "
                                 "to 255, e.g. 192.168.1.20)").format(
                                     text=quoted, host=host)) from None
        return HostAddress(host, port)
    if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in host.split(".")):
        raise AddressError(_("{text} is not an address: a host name holds only letters, "
                             "digits, hyphens and dots; {example}").format(
                                 text=quoted, example=example))
    return HostAddress(host, port)
