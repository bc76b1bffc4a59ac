"""A host that refuses, against real hosts on 127.0.0.1 (issue 27, items 3 and 4): a join
refused for good goes back to the start screen with one line in the player's words, wrapped
between words at any width and never cut, and no lobby that is not there; a client already
connected to a host whose key then changed says so, with the new fingerprint, instead of
"reconnecting" for ever, and is back once the player forgot the old key
(``cardparty hosts --forget``)."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.net_link import NetLink
from cardparty.client.render import Renderer
from cardparty.client.screens.start import StartScreen
from cardparty.client.theme import glyphs
from cardparty.client.words import describer
from cardparty.net.host import Host
from cardparty.net.player.session import Session
from cardparty.net.trust.keys import KeyPair
from cardparty.net.trust.known_hosts import KnownHosts
from tests.client.clientkit import LINKS, Pump, net_link, player
from tests.client.test_client_tmux import free_port


def lines_of(fragments: list[tuple]) -> list[str]:
    return "".join(f[1] for f in fragments).split("\n")


def read_whole(c: Controller, text: str, width: int, part: str = "status") -> list[str]:
    """The message line (or the banner) at ``width`` columns: each line fits, and the lines
    put together say ``text`` whole."""
    r = Renderer(c, glyphs(False), width=lambda: width)
    lines = lines_of(r.status() if part == "status" else r.banner())
    assert all(len(line) <= width for line in lines), lines
    words = " ".join(" ".join(lines).split())
    assert " ".join(text.split()) in words, (text, lines)
    return lines


def direct(address: str, name: str, host_key: str | None = None) -> tuple[Controller, Pump]:
    """``cardparty join ADDRESS --name NAME [--key KEY]``: a link made at once, the start
    screen behind it."""
    link = NetLink(address, name, host_key=host_key)
    LINKS.append(link)
    c = Controller(link, name=name, address=address, describe=describer,
                   connect=lambda who, where: net_link(where, who))
    pump = Pump(c)
    link.start(c.deliver)
    return c, pump


def back_at_the_start(c: Controller, pump: Pump, words: str) -> None:
    pump.until(lambda: c.screen == "start" and words in c.error)
    assert c.banner == "" and c.tables == [] and c.profile is None
    for width in (80, 40):
        read_whole(c, c.error, width)
    c.key("c")                                     # typed into the name, no lobby's key
    assert "SessionError" not in c.error and c.screen == "start"


def test_a_name_another_key_owns_is_refused_back_on_the_start_screen(host: Host) -> None:
    owner = Session(host.address, "Eva", keys=KeyPair.generate())
    owner.connect()
    try:
        c, pump = player(host.address, "Eva")
        back_at_the_start(c, pump, "Eva")
        assert c.get(StartScreen).form.row == 0        # the cursor on the name to change
        assert "SessionError" not in c.error and "hello" not in c.error
    finally:
        owner.close()


def test_a_name_of_120_letters_is_said_in_the_players_words(host: Host) -> None:
    c, pump = direct(host.address, "E" * 120)
    back_at_the_start(c, pump, "at most 32 letters")
    assert "field" not in c.error


def test_a_wrong_key_is_refused_back_on_the_start_screen(host: Host) -> None:
    c, pump = direct(host.address, "Eva", host_key="abcd-efgh-ijkl-mnop")
    back_at_the_start(c, pump, "abcd-efgh-ijkl-mnop")


def test_given_up_on_a_dead_address_the_start_screen_says_one_thing() -> None:
    c, pump = direct(f"127.0.0.1:{free_port()}", "Eva")
    pump.until(lambda: "still trying" in c.banner, timeout=15)
    c.key("escape")
    assert c.screen == "start" and "gave up" in c.error and c.banner == ""
    # The link given up on may still be finishing a try: what it says is not shown.
    c.receive({"type": "connection", "state": "reconnecting", "text": "still trying"})
    assert c.screen == "start" and c.banner == "" and "gave up" in c.error


def test_a_connected_client_says_the_hosts_key_changed_and_is_back_after_forget() -> None:
    port = free_port()
    first = Host(f"tcp://127.0.0.1:{port}", "party", heartbeat=0.2, idle=None,
                 keys=KeyPair.generate())
    first.start()
    c, pump = player(f"127.0.0.1:{port}", "Eva")
    try:
        pump.until(lambda: c.connection == "connected" and c.screen == "lobby")
        first.stop()
        new = KeyPair.generate()
        second = Host(f"tcp://127.0.0.1:{port}", "party", heartbeat=0.2, idle=None, keys=new)
        second.start()
        try:
            pump.until(lambda: new.fingerprint in c.banner, timeout=20)
            assert "reconnecting" not in c.banner and "--forget" in c.banner
            for width in (80, 40):
                read_whole(c, c.banner, width, "banner")
            assert KnownHosts().forget(f"127.0.0.1:{port}")
            pump.until(lambda: c.connection == "connected" and not c.banner, timeout=20)
            assert c.screen == "lobby" and c.failures == []
        finally:
            second.stop()
    finally:
        c.exit()


def test_a_blank_name_is_said_on_the_start_screen_before_anything_connects() -> None:
    def connect(who: str, where: str) -> NetLink:
        raise AssertionError(f"{who!r} connected to {where}")

    c = Controller(None, name="", address="", describe=describer, connect=connect)
    form = c.get(StartScreen).form
    form.name, form.address, form.row = "   ", f"127.0.0.1:{free_port()}", 1
    c.key("enter")
    assert c.screen == "start" and c.link is None and c.banner == ""
    assert c.error == "type your name first" and c.get(StartScreen).form.row == 0
    read_whole(c, c.error, 40)


def test_a_fresh_join_to_a_host_whose_key_changed_reads_the_advice_whole() -> None:
    """The refusal was one line cut at the terminal's width: below some 250 columns the
    advice to run ``cardparty hosts --forget`` could not be read."""
    port = free_port()
    first = Host(f"tcp://127.0.0.1:{port}", "party", heartbeat=0.2, idle=None,
                 keys=KeyPair.generate())
    first.start()
    try:
        c, pump = player(f"127.0.0.1:{port}", "Eva")
        pump.until(lambda: c.connection == "connected" and c.screen == "lobby")
        c.exit()
    finally:
        first.stop()
    new = KeyPair.generate()
    second = Host(f"tcp://127.0.0.1:{port}", "party", heartbeat=0.2, idle=None, keys=new)
    second.start()
    try:
        c, pump = direct(f"127.0.0.1:{port}", "Eva")
        pump.until(lambda: c.screen == "start" and "--forget" in c.error, timeout=20)
        assert new.fingerprint in c.error, c.error
        back_at_the_start(c, pump, "cardparty hosts --forget")
    finally:
        c.exit()
        second.stop()
