"""The start screen: no address is prefilled (an Enter after the name goes on to the hosts
found on the LAN, never to this machine by surprise), and a host that never answers can be
given up with Esc, back to the start screen with what was typed."""

from __future__ import annotations

import socket

from cardparty.client.controller import Controller
from cardparty.client.net_link import NetLink
from cardparty.client.render import Renderer
from cardparty.client.screens.start import StartScreen
from cardparty.client.theme import glyphs
from tests.client.clientkit import net_link


def test_no_address_is_prefilled_and_enter_after_the_name_goes_to_the_hosts_found() -> None:
    joined: list[tuple[str, str]] = []

    def connect(who: str, where: str) -> NetLink:
        joined.append((who, where))
        raise AssertionError("nothing may connect before the player chooses a host")

    c = Controller(None, connect=connect)
    assert c.get(StartScreen).form.address == ""
    c.receive({"type": "hosts", "hosts": [["Eva's laptop", "192.168.1.20:7770"]]})
    for k in "Petr":
        c.key(k)
    c.key("enter")
    assert joined == [] and c.screen == "start"
    assert c.get(StartScreen).form.row == 2                                  # on the host listed
    text = "".join(f[1] for f in Renderer(c, glyphs(False)).screen("start"))
    assert "choose a host found below" in text


def test_enter_after_the_name_without_hosts_goes_to_the_address() -> None:
    c = Controller(None, connect=lambda who, where: net_link(where, who))
    for k in "Petr":
        c.key(k)
    c.key("enter")
    assert c.screen == "start" and c.get(StartScreen).form.row == 1 and c.link is None


def test_a_host_that_never_answers_can_be_given_up_with_escape() -> None:
    with socket.socket() as s:                               # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    c = Controller(None, connect=lambda who, where: net_link(where, who))
    for k in "Petr":
        c.key(k)
    c.key("tab")
    for k in f"127.0.0.1:{port}":
        c.key(k)
    c.key("enter")
    link = c.link
    assert c.screen == "lobby" and isinstance(link, NetLink)
    assert "Esc" in c.banner
    c.key("escape")
    assert c.screen == "start" and c.link is None and link.closed.is_set()
    form = c.get(StartScreen).form
    assert form.name == "Petr" and form.address == f"127.0.0.1:{port}"
    assert "gave up" in c.error and c.banner == ""


def test_the_start_screen_shows_the_warning_of_lookalike_hosts_under_the_list() -> None:
    c = Controller(None, connect=lambda who, where: net_link(where, who))
    warning = "warning: Party at 10.0.0.1:7770 (abcd-...) and Party at 10.0.0.9:7770"
    c.receive({"type": "hosts", "hosts": [["Party", "10.0.0.1:7770"],
                                          ["Party", "10.0.0.9:7770"]], "text": warning})
    text = "".join(f[1] for f in Renderer(c, glyphs(False)).screen("start"))
    assert warning in text and text.index("10.0.0.9:7770") < text.index(warning)
    c.receive({"type": "hosts", "hosts": [["Party", "10.0.0.1:7770"]], "text": ""})
    assert "warning" not in "".join(f[1] for f in Renderer(c, glyphs(False)).screen("start"))
