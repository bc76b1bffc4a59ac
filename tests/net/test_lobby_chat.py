"""Lobby-wide chat (issue 16): a ``chat`` without a table reaches everybody connected who is
not in a game, the speaker included; its text is checked as every chat line is; a line is
bounded in length, and the lines one key says are bounded in rate (shared by every name and
connection of the key). The parts with a ``MemoryOutbox`` and a ``ManualClock``, and one
exchange over the wire."""

from __future__ import annotations

from typing import Any

import pytest

from cardparty.net.host import lobby_chat
from cardparty.net.host.lobby_chat import BURST, EVERY, LOBBY_CHAT_MAX
from tests.net.conftest import wait_for
from tests.net.hostkit import Kit


def said(kit: Kit, player: Any) -> list[tuple[Any, str, str]]:
    return [(m["table"], m["name"], m["text"]) for m in kit.out.take(player, "chat")]


def test_a_lobby_line_reaches_everybody_in_the_lobby_and_nobody_in_a_game() -> None:
    kit = Kit()
    eva, petr, jana, zoe, ivo = (kit.player(n) for n in ("Eva", "Petr", "Jana", "Zoe", "Ivo"))
    playing = kit.open_table("pika", jana, 2)
    kit.ask(jana, "sit", table=playing)
    kit.ask(jana, "bots", table=playing)
    kit.ask(jana, "ready", table=playing)              # Jana is in a game
    waiting = kit.open_table("pika", zoe, 3)
    kit.ask(zoe, "sit", table=waiting)                 # Zoe waits in a room: in the lobby
    kit.ask(petr, "watch", table=playing)              # watching is not playing
    kit.tick(4.0, alive=(eva, petr, jana, zoe))        # Ivo went silent: disconnected
    assert not ivo.connected
    for p in (eva, petr, jana, zoe, ivo):
        kit.out.take(p)
    reply = kit.ask(eva, "chat", text="<b>anyone for Piquet?</b>")
    assert reply is not None and reply["about"] == "chat"
    for p in (eva, petr, zoe):
        assert said(kit, p) == [(None, "Eva", "<b>anyone for Piquet?</b>")]
    assert said(kit, jana) == [] and said(kit, ivo) == []
    kit.ask(jana, "chat", text="brb")                  # a player in a game still hears himself
    assert said(kit, jana) == [(None, "Jana", "brb")] and said(kit, eva)


@pytest.mark.parametrize("text", ["two\nlines", "\x1b[31mred", "a\u202eb", ""])
def test_a_lobby_line_is_checked_as_every_chat_line_is(text: str) -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    kit.out.take(petr)
    kit.refused("bad_field", eva, "chat", text=text)
    assert said(kit, petr) == []


def test_a_lobby_line_is_bounded_in_length() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    kit.out.take(petr)
    assert "200" in kit.refused("bad_field", eva, "chat", text="x" * (LOBBY_CHAT_MAX + 1))
    assert said(kit, petr) == []
    kit.ask(eva, "chat", text="x" * LOBBY_CHAT_MAX)
    assert len(said(kit, petr)) == 1


def test_lobby_lines_are_bounded_in_rate_per_key_whatever_the_name() -> None:
    kit = Kit()
    eva = kit.player("Eva", key=b"E" * 40)
    petr = kit.player("Petr", key=b"P" * 40)
    for i in range(BURST):
        kit.ask(eva, "chat", text=f"line {i}")
    kit.refused("too_fast", eva, "chat", text="one more")
    again = kit.player("Eve", key=b"E" * 40)           # another name of the same key
    kit.refused("too_fast", again, "chat", text="and another")
    kit.ask(petr, "chat", text="mine still goes")      # another key has its own
    kit.out.take(petr)
    kit.tick(EVERY)
    kit.ask(eva, "chat", text="after a while")
    kit.refused("too_fast", eva, "chat", text="too soon")
    assert said(kit, petr) == [(None, "Eva", "after a while")]


def test_the_memory_of_speakers_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_chat, "MAX_SPEAKERS", 8)
    kit = Kit()
    for i in range(40):
        kit.ask(kit.player(f"P{i}", key=bytes([65 + i]) * 40), "chat", text="hi")
        assert len(kit.parts.lobby_chat.allowances) <= 8


def test_lobby_chat_over_the_wire(connect: Any) -> None:
    eva, petr = connect("Eva"), connect("Petr")
    eva.chat(None, "hello, lobby")
    for who in (eva, petr):
        msg = wait_for(who, lambda m: m["type"] == "chat")
        assert msg["table"] is None and msg["name"] == "Eva" and msg["text"] == "hello, lobby"
