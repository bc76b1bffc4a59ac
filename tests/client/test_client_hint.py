"""The hint at a practice table (issue 26, item 3): ``h`` (or ``:hint``) asks the host what
the hard bot would play from this seat; the answer chooses that move, as Tab does, and the
bottom line gives its label and reason; at an open table the host's refusal is one line.
Real host in this process, real client link, Pika dealt ``OPENING``."""

from __future__ import annotations

from typing import Any

from cardparty.core.i18n import set_language
from tests.client.clientkit import OPENING, Client, HostKit, RecordingLink, joined


def at(kit: HostKit, mode: str) -> Client:
    settings: dict[str, Any] = {"hand_size": 5, "dealer": 1, "warning": 30.0, "deck": OPENING}
    return joined(kit, RecordingLink(kit.address, "Eva", autoplay={
        "game": "pika", "players": 2, "settings": settings, "variants": [], "bots": "basic",
        "bot_delay": 0.0, "title": "test", "seed": 1, "mode": mode, "bot_budget_ms": 30}))


def test_h_chooses_the_hard_bots_move_and_says_why(kit: HostKit) -> None:
    c = at(kit, "practice")
    try:
        assert c.table.suggestion is None
        c.key("h")
        c.pump.until(lambda: c.notice.startswith("hint: "), timeout=20.0)
        chosen = c.table.suggested()
        assert chosen is not None and str(chosen["label"]) in c.notice
        assert " — " in c.notice                       # the one-line reason
        c.key("enter")                                 # Enter plays exactly it
        assert c.sent[-1]["kind"] == chosen["kind"]
        assert c.sent[-1]["cards"] == list(chosen.get("cards") or [])
    finally:
        c.close()


def test_the_command_asks_too_and_an_open_table_says_no_in_the_players_words(
        kit: HostKit) -> None:
    c = at(kit, "open")
    try:
        set_language("cs")
        c.command("hint")
        c.pump.until(lambda: bool(c.error), timeout=20.0)
        assert "nápovědy nedává" in c.error
        assert c.table.suggestion is None
    finally:
        set_language("en")
        c.close()
