"""Whatever a player pastes as a host's address (issue 27, item 5): ``cardparty join``,
``bot-client --connect``, ``hosts --forget`` and the start screen's field read it with one
parser (``net/wire/address.py``), and anything that is not an address is one line in the player's
language before anything connects or any screen opens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardparty.client.cli import main
from cardparty.core.i18n import set_language
from cardparty.net.trust.keydesk import KeyDesk, fetch_key
from cardparty.net.trust.keys import KeyPair
from cardparty.net.trust.known_hosts import KnownHosts
from cardparty.net.wire.address import (
    AddressError,
    HostAddress,
    address_problem,
    ipv6_endpoint,
    read_address,
)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


@pytest.mark.parametrize(("typed", "host", "port"), [
    ("192.168.1.20", "192.168.1.20", 7770),
    ("192.168.1.20:7770", "192.168.1.20", 7770),
    ("tcp://192.168.1.20:17101", "192.168.1.20", 17101),
    ("TCP://127.0.0.1:17101/", "127.0.0.1", 17101),
    ("  127.0.0.1:17101  ", "127.0.0.1", 17101),
    ("127.0.0.1:17101/", "127.0.0.1", 17101),
    ("Kitchen.local", "kitchen.local", 7770),
    ("kitchen.local.:7000", "kitchen.local", 7000),
    ("party-pc_2", "party-pc_2", 7770),
    ("[::1]", "::1", 7770),
    ("[::1]:17101", "::1", 17101),
    ("[FE80:0:0::1]:7770", "fe80::1", 7770),
    ("localhost:65534", "localhost", 65534),
])
def test_every_way_of_writing_an_address_reads_the_same(typed: str, host: str,
                                                        port: int) -> None:
    found = read_address(typed)
    assert found == HostAddress(host, port)
    assert address_problem(typed) is None


def test_an_address_names_its_socket_and_its_key_desk_on_the_next_port() -> None:
    assert read_address("tcp://127.0.0.1:17101").endpoint == "tcp://127.0.0.1:17101"
    assert read_address("127.0.0.1:17101").desk == "tcp://127.0.0.1:17102"
    six = read_address("[::1]:7770")
    assert six.shown == "[::1]:7770" and six.endpoint == "tcp://[::1]:7770"
    assert six.desk == "tcp://[::1]:7771"
    assert ipv6_endpoint(six.endpoint) and not ipv6_endpoint("tcp://localhost:7770")


@pytest.mark.parametrize(("typed", "says"), [
    ("http://127.0.0.1:17101", "'http://127.0.0.1:17101': a cardparty address has no http:// "
                               "in front; type 127.0.0.1:17101"),
    ("https://kitchen/", "'https://kitchen/': a cardparty address has no https:// in front; "
                         "type kitchen:7770"),
    ("127.0.0.1:17101/lobby", "'127.0.0.1:17101/lobby': an address has no path (/lobby); type "
                              "127.0.0.1:17101"),
    ("17101", "'17101' is a port alone: type the host too, e.g. 192.168.1.20:17101"),
    (":17101", "':17101' is a port alone: type the host too, e.g. 192.168.1.20:17101"),
    ("kitchen:99999", "'kitchen:99999': the port must be a number from 1 to 65534 (the host's "
                      "key desk listens on the next one)"),
    ("kitchen:65535", "the port must be a number from 1 to 65534"),
    ("kitchen:0", "the port must be a number from 1 to 65534"),
    ("kitchen:", "the port must be a number from 1 to 65534"),
    ("kitchen:http", "the port must be a number from 1 to 65534"),
    ("::1", "'::1': an IPv6 address goes in brackets, e.g. [::1]:7770"),
    ("[::g]:7770", "'[::g]:7770': [::g] is not an IPv6 address"),
    ("[::1", "'[::1' is not an address"),
    ("192.168.1.300", "'192.168.1.300': 192.168.1.300 is not an IPv4 address"),
    ("192.168.1", "192.168.1 is not an IPv4 address"),
    ("a b", "'a b' is not an address (it holds a space)"),
    ("", "no address: type e.g. 192.168.1.20 or 192.168.1.20:7770"),
    ("   ", "no address"),
    ("eva@kitchen", "a host name holds only letters, digits, hyphens and dots"),
    ("kuchyň", "a host name holds only letters, digits, hyphens and dots"),
    ("-kitchen", "a host name holds only letters, digits, hyphens and dots"),
    ("!!!", "a host name holds only letters, digits, hyphens and dots"),
    ("x" * 300, "'" + "x" * 57 + "...' is not an address"),
])
def test_what_is_no_address_is_one_line_saying_what_to_type(typed: str, says: str) -> None:
    with pytest.raises(AddressError) as refused:
        read_address(typed)
    assert says in refused.value.message and "\n" not in refused.value.message
    assert len(refused.value.message) < 200
    assert address_problem(typed) == refused.value.message


@pytest.mark.parametrize("typed", ["http://127.0.0.1:17101", "tcp://http://127.0.0.1:17101",
                                   "127.0.0.1:17101/", "[::1]:99999", "17101", "garbage!",
                                   "a b"])
def test_join_refuses_a_paste_in_one_line_before_any_screen(
        typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["join", typed])
    err = capsys.readouterr().err
    if address_problem(typed) is None:      # it is an address: on to the terminal check
        assert code == 1 and "needs a terminal" in err
        return
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("cardparty join: ")
    assert "Traceback" not in err and "ZMQError" not in err


def test_the_paste_that_hung_join_is_refused_with_what_to_type(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["join", "http://127.0.0.1:17101"]) == 2
    assert capsys.readouterr().err == ("cardparty join: error: 'http://127.0.0.1:17101': a "
                                       "cardparty address has no http:// in front; type "
                                       "127.0.0.1:17101\n")


@pytest.mark.parametrize("lang", ["cs", "ca"])
def test_the_refusal_is_in_the_players_language(lang: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", lang, "join", "http://127.0.0.1:17101"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "127.0.0.1:17101" in err
    assert "a cardparty address has no" not in err and "in front" not in err


def test_bot_client_refuses_a_paste_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bot-client", "--connect", "http://127.0.0.1:17101", "--create", "pika",
                 "--players", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("cardparty bot-client: ") and "type 127.0.0.1:17101" in err


def test_hosts_forget_reads_the_address_as_join_does(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    known = KnownHosts()
    key = KeyPair.generate().public
    known.remember("tcp://kitchen:7770", key)
    assert main(["hosts", "--forget", "Kitchen"]) == 0
    assert known.key_of("tcp://kitchen:7770") is None
    capsys.readouterr()
    assert main(["hosts", "--forget", "http://kitchen"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "type kitchen:7770" in err


def test_a_client_asks_a_key_desk_on_ipv6_in_brackets() -> None:
    keys = KeyPair.generate()
    desk = KeyDesk("tcp://[::1]:0", keys, "six")
    try:
        port = int(desk.address.rsplit(":", 1)[1])
        host = read_address(f"[::1]:{port - 1}")
        assert fetch_key(host.endpoint, timeout=3.0) == (keys.public, "six")
    finally:
        desk.close()
