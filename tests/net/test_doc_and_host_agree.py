"""docs/protocol.md and the host agree (issue 28, "Host and doc disagree"): each point where a
client written from the docs alone met a host that did otherwise, with what both say now.
Items 1-12 of the issue, in order; the host through its parts (``Kit``) where the point is a
handler's, on a real socket where it is the server's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardparty.core.i18n import Msg
from cardparty.net.host import Host
from cardparty.net.host.settings import HostSettings
from cardparty.net.player.discovery import _instance
from cardparty.net.trust.keys import KeyPair, fingerprint
from cardparty.net.wire.protocol import MODES, ProtocolError, encode, message
from tests.net.hostkit import Kit
from tests.net.test_hostile import Raw
from tests.net.test_hostile_wire import answer

DOCS = Path(__file__).resolve().parents[2] / "docs"


def doc(name: str) -> str:
    """A page of docs/ with its line breaks as spaces, to look for its sentences."""
    return " ".join((DOCS / name).read_text().split())


def economy_kit(**kw: Any) -> Kit:
    kw.setdefault("economy", ":memory:")
    return Kit(**kw)


def refusal(kit: Kit, code: str, player: Any, kind: str, **fields: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        kit.ask(player, kind, **fields)
    assert info.value.code == code, info.value
    return info.value


# --- 1. explicit nulls ---------------------------------------------------------------------------

def test_1_profile_with_a_null_name_is_your_own_and_league_with_a_null_week_this_week() -> None:
    """``profile`` with ``name: null`` and ``league`` with ``week: null`` were ``bad_field``."""
    k = economy_kit()
    eva = k.player("Eva")
    assert k.ask(eva, "profile", name=None)["profile"]["name"] == "Eva"
    league = k.ask(eva, "league", week=None)
    assert league["week"] == league["current"]


# --- 2. which requests are remembered by rid --------------------------------------------------

def test_2_a_read_reusing_a_remembered_rid_is_refused_and_is_never_remembered(host: Host) -> None:
    """``ping``, ``tables``, ``games``, ``profile`` and ``league`` reusing another request's rid
    were carried out; a repeated ``tables`` rid was run again (the doc said: answered from
    memory). Now: every request that changes something is remembered; a read is carried out
    afresh each time, and refused like any other when its rid is one a remembered request
    holds."""
    raw = Raw(host.address, host.keys.public)
    try:
        raw.ask(encode(message("hello", name="Eva")))
        answer(raw, message("create", rid=1, game="pika", players=2))
        for kind in ("ping", "tables", "games", "watch", "snapshot", "profile", "league",
                     "rewards"):
            fields = {"table": "t1"} if kind in ("watch", "snapshot") else {}
            reply = answer(raw, message(kind, rid=1, **fields))
            assert reply["type"] == "error" and reply["code"] == "bad_field", (kind, reply)
            assert "create" in reply["message"]
        first = answer(raw, message("tables", rid=2))
        answer(raw, message("create", rid=3, game="pika", players=2))
        again = answer(raw, message("tables", rid=2))      # a read: carried out again
        assert (first["total"], again["total"]) == (1, 2)
        # A read's rid is not kept: a change may take it afterwards, and is remembered.
        made = answer(raw, message("create", rid=2, game="pika", players=3))
        assert made["type"] == "table"
        assert answer(raw, message("create", rid=2, game="pika", players=3)) == made
    finally:
        raw.close()
    text = doc("protocol.md")
    assert "**Remembered**" in text and "**Read afresh**" in text


# --- 3. no_coins says how many coins you have ------------------------------------------------

def test_3_no_coins_in_the_shop_says_the_price_and_how_many_coins_you_have() -> None:
    """It said "not enough coins for Eva" (docs/economy.md: the host says how many you have)."""
    k = economy_kit()
    eva = k.player("Eva")
    k.ask(eva, "buy", item="gold")                     # 800 left
    error = refusal(k, "no_coins", eva, "buy", item="vip")
    assert "1000" in error.message and "you have 800" in error.message
    assert isinstance(error.message, Msg)


# --- 4. the summary's mode ----------------------------------------------------------------------

def test_4_the_doc_names_every_mode_a_summary_may_show() -> None:
    """The doc said ``mode`` is ``friends`` or ``open``; the host also sends ``practice`` and
    ``entry``."""
    k = economy_kit()
    eva = k.player("Eva")
    shown = {k.ask(eva, "create", game="pika", players=2, mode=m,
                   stake=100 if m == "entry" else 0)["table"]["mode"] for m in MODES}
    assert shown == set(MODES)
    line = re.search(r"`mode` \(([^)]*)\)", doc("protocol.md").split("`table` (reply to")[1])
    assert line is not None and all(f"`{m}`" in line.group(1) for m in MODES), line


# --- 5. strangers at a friends table ----------------------------------------------------------

def test_5_a_friends_table_says_strangers_may_not_sit() -> None:
    """A friends table's summary said ``strangers: true``, and a stranger was refused."""
    k = Kit()
    eva, zoe = k.player("Eva"), k.player("Zoe")
    for mode, strangers in (("friends", False), ("practice", False), ("open", True)):
        table = k.ask(eva, "create", game="pika", players=2, mode=mode)["table"]
        assert table["strangers"] is strangers, (mode, table["strangers"])
        if not strangers:
            refusal(k, "not_invited" if mode == "friends" else "practice", zoe, "sit",
                    table=table["id"])


# --- 6. the DNS-SD instance name ----------------------------------------------------------------

def test_6_the_instance_name_is_the_name_and_the_whole_fingerprint() -> None:
    """Four characters of the fingerprint let a forger take a host's instance name (issue 25
    item 5): the name carries the whole fingerprint, as the doc says."""
    key = KeyPair.generate().public.decode()
    assert _instance("kitchen", key) == f"kitchen - {fingerprint(key)}._cardparty._tcp.local."
    assert "`NAME - FINGERPRINT`" in doc("protocol.md")


# --- 7. refusals meant for a person carry msg ---------------------------------------------------

def test_7_a_table_that_cannot_be_opened_and_a_refused_reorder_say_it_in_a_message() -> None:
    """``bad_table`` ("Pika is for 2 to 4 players, not 5", "setting hand_size must be between
    2 and 15") and ``illegal`` on ``reorder`` had no ``msg``."""
    k = Kit()
    eva = k.player("Eva")
    for fields in ({"players": 5}, {"players": 2, "settings": {"hand_size": 99}}):
        error = refusal(k, "bad_table", eva, "create", game="pika", **fields)
        assert isinstance(error.message, Msg), error.message
    assert "not 5" in refusal(k, "bad_table", eva, "create", game="pika", players=5).message
    tid = k.open_table("pika", eva, 2, seed=1)
    k.ask(eva, "sit", table=tid)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    error = refusal(k, "illegal", eva, "reorder", table=tid, order=["R1"])
    assert isinstance(error.message, Msg) and isinstance(error.message.params["reason"], Msg)


# --- 8. results name players --------------------------------------------------------------------

@pytest.mark.parametrize("game", ["pika", "pikac", "kakhead", "piquet"])
def test_8_a_result_names_the_players_not_their_seats(game: str) -> None:
    """"seat 0 won (out of cards)": the results a player reads name players ("Bot 2 won")."""
    k = Kit()
    eva = k.player("Eva")
    settings = {"deals": 1} if game == "piquet" else {}
    tid = k.open_table(game, eva, 2, seed=4, settings=settings)
    k.ask(eva, "sit", table=tid)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    k.play_out(tid, {0: eva}, most=200_000)
    views = [m for m in k.out.take(eva) if m["type"] in ("view", "table")]
    results = [m["view"]["result"] if m["type"] == "view" else m["table"]["result"]
               for m in views]
    result = [r for r in results if r][-1]
    said = result["summary"]
    assert not re.search(r"\bseats? \d", said), said
    assert "Eva" in said or "Bot 2" in said or "drawn" in said, said
    params = result["summary_msg"]["p"]
    assert "seats" not in params or not str(params["seats"]).replace(", ", "").isdigit()


# --- 9. the worked exchange --------------------------------------------------------------------

def test_9_the_worked_exchange_is_one_a_normal_host_accepts() -> None:
    """It sent ``create`` with ``"seed": 42``, which a host not run with --testing refuses."""
    text = doc("protocol.md").split("## A worked exchange")[1].split("### A friends table")[0]
    welcome = re.search(r'"type": "welcome".*?"testing": (true|false)', text)
    assert welcome is not None
    creates = re.findall(r'C: \{"type": "create".*?(?= H: )', text)
    assert creates
    if welcome.group(1) == "false":
        assert all('"seed"' not in c for c in creates), creates


# --- 10. seeking.fill_in -------------------------------------------------------------------

def test_10_a_seek_that_fills_its_table_has_no_fill_timeout_and_the_doc_says_null() -> None:
    k = economy_kit(settings=HostSettings(fill_timeout=5.0))
    eva, petr = k.player("Eva"), k.player("Petr")
    assert k.ask(eva, "seek", game="pika", players=2)["fill_in"] == 5.0
    assert k.ask(petr, "seek", game="pika", players=2)["fill_in"] is None
    seeking = doc("protocol.md").split("- `seeking` (reply to `seek`)")[1].split("\n- ")[0]
    assert "null when" in seeking.split("`fill_in`")[1][:200]


# --- 11. names are bound to keys, in every doc --------------------------------------------------

def test_11_every_doc_says_names_are_bound_to_keys() -> None:
    """protocol.md said a name is no proof, playing.md that anyone under an invited name may
    sit, economy.md that the profile is found by the name until names are bound."""
    assert "not proof of who someone is" not in doc("protocol.md")
    assert "anyone who says hello with an invited name" not in doc("protocol.md")
    assert "anyone who joins the host under an invited name may sit" not in doc("playing.md")
    assert "Until names are bound to key pairs" not in doc("economy.md")
    k = Kit()
    eva = k.parts.hello(b"r1", "Eva", user=b"E" * 40)
    tid = k.open_table("pika", eva, 2, mode="friends")
    k.ask(eva, "invite", table=tid, names=["Bob"])
    k.parts.hello(b"r2", "Bob", user=b"B" * 40)
    with pytest.raises(ProtocolError) as info:          # another key under Bob's name
        k.parts.hello(b"r3", "Bob", user=b"X" * 40)
    assert info.value.code == "name_taken"


# --- 12. a week is a real ISO week --------------------------------------------------------------

def test_12_league_takes_only_a_real_iso_week() -> None:
    """``league`` took any string of up to 16 characters ("last week") and answered an empty
    week."""
    k = economy_kit()
    eva = k.player("Eva")
    for week in ("last week", "2025-W53", "2026-W99", "2026-W00"):
        error = refusal(k, "bad_field", eva, "league", week=week)
        assert "week" in error.message
    assert k.ask(eva, "league", week="2026-w48")["week"] == "2026-W48"
    assert k.ask(eva, "league", week="2026-W53")["week"] == "2026-W53"
