"""Text a client sends (issue 12): names, titles and chat lines are printable single lines of
bounded length without control or bidirectional-override characters, refused in one clear
line at the host, and anything from the wire is shown in a form that cannot move a terminal's
cursor or forge a log line."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardparty.net.names.safetext import BIDI, name_key, name_problem, safe
from cardparty.net.names.ucd import printable
from cardparty.net.wire.protocol import ProtocolError, check_request, message

HOSTILE = ["\x1b[2J", "Eva\x1b]0;owned\x07", "Bob\nSYSTEM: you win", "line\rover",
           "abc\u202edcba", "x\u2066y", "tab\there", "nul\x00", "del\x7f", "a\u2028b",
           "zero\u200bwidth", "soft\u00adhyphen"]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_refused_at_hello(name: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        check_request(message("hello", name=name))
    assert refused.value.code == "bad_field"
    assert "\n" not in refused.value.message


@pytest.mark.parametrize("text", HOSTILE[:-2])
def test_hostile_titles_and_chat_are_refused(text: str) -> None:
    with pytest.raises(ProtocolError):
        check_request(message("create", game="pika", players=2, title=text))
    with pytest.raises(ProtocolError):
        check_request(message("chat", table="t1", text=text))


def test_fair_text_passes() -> None:
    for name in ("Eva", "Jean-Luc", "Zoë", "山田", "Ana María", "x" * 32, "🂡 ace"):
        assert name_problem(name) is None, name
        assert check_request(message("hello", name=name))["name"] == name
    assert check_request(message("chat", table="t1", text="gg 👍🏽 👨‍👩‍👧"))["text"]
    assert check_request(message("create", game="pika", players=2, title=""))["title"] == ""


def test_names_are_bounded_and_trimmed() -> None:
    for bad in ("", " Eva", "Eva ", "E  va", "x" * 33):
        assert name_problem(bad) is not None, repr(bad)
    with pytest.raises(ProtocolError):
        check_request(message("invite", table="t1", names=["Bob", "Ev\x1ba"]))
    assert check_request(message("invite", table="t1", names=[" Bob "]))["names"] == [" Bob "]


def test_one_name_however_it_is_spelt() -> None:
    assert name_key("Eva") == name_key("eva") == name_key("ＥＶＡ")
    assert name_key("Eva") != name_key("Eve")


@given(st.text(max_size=300))
def test_safe_text_never_holds_anything_that_moves_a_terminal(text: str) -> None:
    shown = safe(text)
    assert len(shown) <= 200
    assert all(printable(c) and c not in BIDI for c in shown)   # by the rules' own Unicode


def test_safe_text_shows_what_was_sent() -> None:
    assert safe("Eva\x1b[2J\nroot") == "Eva\\x1b[2J\\x0aroot"
    assert safe("a\u202eb") == "a\\u202eb"
    assert safe("x" * 300, limit=10) == "x" * 9 + "…"


def test_a_log_line_cannot_be_forged(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("cardparty.test")
    with caplog.at_level(logging.INFO, "cardparty.test"):
        log.info("%s connected", safe("Eva\nINFO cardparty.host admin connected"))
    assert len(caplog.text.strip().splitlines()) == 1
