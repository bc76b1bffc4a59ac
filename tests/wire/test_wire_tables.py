"""Tables on the wire as docs/protocol.md describes them, against a real ``cardparty host
--testing`` process, with nothing but pyzmq and msgpack: a round from ``create`` to its result
(the views, moves by id and as maps, stale and illegal moves, reorders, chat, the order of
messages at the end), another round, watching, friends tables and their owner, every refusal
about seats and starts, what the games add to their views, and a broken plugin.

The host has a house rule for Pika that breaks on every move (``plugin/``, on its PYTHONPATH,
the way a third party installs one), so that ``game_failed`` can be met. One host for the
module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.wire.doc_client import (
    Client,
    HostProcess,
    Message,
    check_error,
    play_all,
    running,
)

#: One worker for the module's tests, so one host (where xdist groups them: each test also
#: stands alone, so a host per worker is only slower).
pytestmark = pytest.mark.xdist_group("wire_tables")

PLUGIN = Path(__file__).with_name("plugin")


@pytest.fixture(scope="module")
def host() -> Iterator[HostProcess]:
    with running("--testing", "--heartbeat", "0.2", env={"PYTHONPATH": str(PLUGIN)}) as h:
        yield h


@pytest.fixture
def clients(host: HostProcess) -> Iterator[Any]:
    made: list[Client] = []

    def make(name: str) -> Client:
        c = host.client(name)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


VIEW_KEYS = {"game", "variants", "version", "seat", "phase", "turn", "direction", "players",
             "hand", "zones", "counters", "moves", "deadlines", "result"}


def check_view(msg: Message, seat: int | None) -> None:
    """A ``view`` message as the doc lists it."""
    assert {"table", "seat", "version", "prev", "snapshot", "view", "events", "timers",
            "players"} <= set(msg), msg.keys()
    view = msg["view"]
    assert set(view) >= VIEW_KEYS, VIEW_KEYS - set(view)
    assert msg["seat"] == seat == view["seat"] and view["version"] == msg["version"]
    for row in view["players"]:
        assert {"name", "count", "status", "place", "zones"} <= set(row), row
    for i, move in enumerate(view["moves"]):
        assert move["id"] == i and {"kind", "cards", "choice", "label", "msg"} <= set(move)
    for event in msg["events"]:
        assert {"type", "seat", "text", "msg"} <= set(event), event
    for timer in msg["timers"]:
        assert {"name", "seat", "seconds", "remaining"} <= set(timer), timer
    assert all(set(p) == {"connected", "standin"} for p in msg["players"])


# --- a round ---------------------------------------------------------------------------------

def test_a_round_from_create_to_its_result_as_the_doc_tells_it(clients: Any) -> None:
    tara = clients("Tara")
    made = tara.ok("create", game="pikac", players=2, title="Tara's", seed=11)
    summary = made["table"]
    tid = summary["id"]
    assert made["type"] == "table" and summary["status"] == "open"
    assert (summary["mode"], summary["creator"], summary["title"]) == ("open", "Tara", "Tara's")
    assert summary["strangers"] is True and summary["testing"] is True
    assert [s["kind"] for s in summary["seats"]] == ["empty", "empty"]
    seated = tara.ok("sit", table=tid)
    assert seated == {"type": "seated", "v": 1, "table": tid, "seat": 0, "rid": seated["rid"]}
    (pushed,) = tara.take("table")             # the summary came before the reply
    assert pushed["table"]["seats"][0]["name"] == "Tara"
    tara.ok("bots", table=tid, level="easy")
    bot = tara.take("table")[-1]["table"]["seats"][1]
    assert (bot["kind"], bot["ready"], bot["level"]) == ("bot", True, "easy")
    ready = tara.ok("ready", table=tid)                  # the game starts: everyone is ready
    assert (ready["type"], ready["about"]) == ("ok", "ready")
    first = tara.wait(lambda m: m["type"] == "view" and m["table"] == tid)
    check_view(first, 0)
    assert first["snapshot"] is True and first["prev"] is None
    view = first
    while not view["view"]["hand"]:                      # the deal is dealt by the dealer
        view = tara.wait(lambda m: m["type"] == "view" and m["table"] == tid)
        assert view["prev"] is not None
    hand = list(view["view"]["hand"])
    reordered = tara.ok("reorder", table=tid, order=hand[::-1])
    assert reordered["about"] == "reorder" and reordered["version"] > view["version"]
    error = tara.refused("illegal", "reorder", table=tid, order=hand[:1])
    assert isinstance(error["msg"]["p"]["reason"], dict)          # the reason, a message
    view = tara.wait(lambda m: m["type"] == "view" and m["version"] == reordered["version"])
    assert view["view"]["hand"] == hand[::-1]
    tara.ok("chat", table=tid, text="good luck")
    said = tara.wait(lambda m: m["type"] == "chat")
    assert (said["table"], said["seat"], said["name"], said["text"]) == (
        tid, 0, "Tara", "good luck")
    tara.refused("bad_field", "move", table=tid, move=0)          # an id needs the version
    while not view["view"]["moves"]:
        view = tara.wait(lambda m: m["type"] == "view" and m["table"] == tid)
    tara.refused("no_move", "move", table=tid, move=99, version=view["version"])
    error = tara.refused("illegal", "move", table=tid, version=view["version"],
                         move={"kind": "play", "cards": ["XX"]})
    assert error["table"] == tid
    done = tara.ok("move", table=tid, move=0, version=view["version"])
    assert done["about"] == "move" and done["version"] > view["version"]
    stale = tara.refused("stale", "move", table=tid, move=0, version=view["version"])
    assert str(view["version"]) in stale["message"]
    tara.take()
    (last,) = play_all([tara], tid)
    check_view(last, 0)
    result = last["view"]["result"]
    assert sorted(result["places"]) in ([1, 2], [1, 1])
    assert "Tara" in result["summary"] or "Bot 2" in result["summary"]
    assert "seat " not in result["summary"] and isinstance(result["summary_msg"], dict)
    # The order at the end: the reward, the view with the result, the summary "over".
    tara.quiet(0.3)
    order = [m["type"] if m["type"] != "view" or m["view"]["result"] is None else "result"
             for m in tara.pushed]
    end = order[order.index("reward"):]
    assert end.index("reward") < end.index("result") < end.index("table"), order
    over = next(m for m in tara.pushed if m["type"] == "table"
                and m["table"]["status"] == "over")
    assert over["table"]["result"]["places"] == result["places"]
    assert over["table"]["rounds"][0]["round"] == 1 and over["table"]["totals"] is not None
    tara.refused("not_playing", "move", table=tid, move=0, version=last["version"])


def test_another_round_waits_for_every_human_and_goes_on_at_the_same_table(
        clients: Any) -> None:
    ana, ben = clients("Ana"), clients("Ben")
    tid = ana.ok("create", game="pikac", players=3, seed=5)["table"]["id"]
    for c in (ana, ben):
        c.ok("sit", table=tid)
    ana.ok("bots", table=tid)
    ana.refused("not_over", "again", table=tid)                   # still open
    ana.ok("start", table=tid)
    ana.refused("not_over", "again", table=tid)                   # playing
    finished = play_all([ana, ben], tid)
    first = ana.ok("again", table=tid)
    assert (first["round"], first["waiting"]) == (1, ["Ben"])    # the round just finished
    last = ben.ok("again", table=tid)
    assert (last["round"], last["waiting"]) == (2, [])           # the new round's number
    for c, old in zip((ana, ben), finished, strict=True):
        summary = c.wait(lambda m: m["type"] == "table" and m["table"]["round"] == 2)
        assert summary["table"]["status"] == "playing"
        was = old["version"]
        fresh = c.wait(lambda m, was=was: m["type"] == "view" and m["snapshot"]
                       and m["version"] > was)
        assert fresh["version"] == was + 1 and fresh["view"]["result"] is None


def test_a_spectator_sees_what_every_seat_may_see_and_nothing_more(clients: Any) -> None:
    tara, sam = clients("Tilda"), clients("Sam")
    tid = tara.ok("create", game="pikac", players=2)["table"]["id"]
    assert sam.ok("watch", table=tid)["type"] == "table"          # an open table: its summary
    assert sam.ok("snapshot", table=tid)["type"] == "table"
    tara.ok("sit", table=tid)
    tara.ok("bots", table=tid)
    tara.ok("start", table=tid)
    seen = sam.ok("watch", table=tid)
    assert seen["type"] == "view" and seen["snapshot"] is True
    check_view(seen, None)
    assert seen["view"]["hand"] == [] and seen["view"]["moves"] == []
    assert sam.take("table")                                      # the summary came first
    play_all([tara], tid)
    watched = [e for m in sam.quiet(0.3) if m["type"] == "view" for e in m["events"]]
    hidden = [e for e in watched if e.get("private")]
    assert hidden and all("cards" not in e and isinstance(e["count"], int) for e in hidden)
    own = [e for m in tara.take("view") for e in m["events"] if e.get("private")
           and e["seat"] == 0]
    assert own and all(isinstance(e["cards"], list) for e in own)
    again = sam.ok("snapshot", table=tid)
    assert again["type"] == "view" and again["seat"] is None
    stranger = clients("Stranger")
    stranger.refused("not_seated", "snapshot", table=tid)
    stranger.refused("not_seated", "leave", table=tid)
    assert sam.ok("leave", table=tid)["about"] == "leave"


# --- hints -------------------------------------------------------------------------------------

def test_a_hint_at_a_practice_table_and_none_at_an_open_one(clients: Any) -> None:
    """``hint`` as "Hints" tells it: the answer names a move of the view it was worked out
    on, by id, with its label and reason; a second ask meanwhile is ``hinting``; an open
    table gives none, and ``create`` refuses ``hints`` for one."""
    hana = clients("Hana")
    made = hana.ok("create", game="pika", players=2, mode="practice", settings={"dealer": 1},
                   bot_budget_ms=300)["table"]
    assert made["hints"] is True
    tid = made["id"]
    hana.ok("sit", table=tid, seat=0)
    hana.ok("bots", table=tid)
    hana.ok("start", table=tid)
    view = hana.wait(lambda m: m["type"] == "view" and m["table"] == tid
                     and bool(m["view"]["moves"]))
    first, second = hana.rid(), hana.rid()
    hana.send({"type": "hint", "table": tid, "rid": first})
    hana.send({"type": "hint", "table": tid, "rid": second})     # while the first is thought
    busy = hana.reply_to(second)
    assert busy["type"] == "error" and busy["code"] == "hinting", busy
    check_error(busy, about="hint")
    got = hana.reply_to(first, timeout=30.0)
    assert got["type"] == "hint", got
    assert got["table"] == tid and got["version"] == view["version"]
    listed = {m["id"]: m for m in view["view"]["moves"]}
    assert got["move"] in listed and got["label"] == listed[got["move"]]["label"]
    assert isinstance(got["reason"], str) and got["reason_msg"]["id"]
    opened = hana.table_with_bots("pika", 2, settings={"dealer": 1})
    hana.refused("no_hints", "hint", table=opened)
    hana.refused("no_hints", "create", game="pika", players=2, mode="open", hints=True)


# --- friends tables and their owner ------------------------------------------------------------

def test_a_friends_table_seats_its_invited_and_its_owner_decides(clients: Any) -> None:
    fay, bob, zed = clients("Fay"), clients("Bob"), clients("Zed")
    friends = fay.ok("create", game="pika", players=3, mode="friends")["table"]
    tid = friends["id"]
    assert (friends["mode"], friends["strangers"]) == ("friends", False)
    error = zed.refused("not_invited", "sit", table=tid)
    assert "Fay" in error["message"]
    fay.ok("sit", table=tid)
    fay.ok("invite", table=tid, names=["Bob", "  bob "])
    told = bob.wait(lambda m: m["type"] == "invited")
    assert (told["table"], told["game"], told["from"]) == (tid, "pika", "Fay")
    assert told["title"] == friends["title"]
    summary = fay.take("table")[-1]["table"]
    assert summary["invited"] == ["Bob"]
    bob.refused("not_creator", "bots", table=tid)
    bob.ok("sit", table=tid)
    zed.ok("watch", table=tid)
    bob.refused("not_creator", "remove", table=tid, seat=0)
    fay.refused("no_seat", "remove", table=tid, seat=2)
    fay.ok("remove", table=tid, seat=1)
    gone = bob.wait(lambda m: m["type"] == "table" and m["table"]["id"] == tid
                    and m["table"]["seats"][1]["kind"] == "empty")     # told, without a seat
    assert all(s["name"] != "Bob" for s in gone["table"]["seats"])
    closed = fay.ok("close", table=tid)
    assert closed["type"] == "table" and closed["table"]["status"] == "closed"
    heard = zed.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
    assert heard["table"]["id"] == tid
    zed.refused("no_table", "sit", table=tid)
    open_ = fay.ok("create", game="pika", players=2)["table"]["id"]
    fay.refused("not_friends", "invite", table=open_, names=["Bob"])
    zed.refused("not_creator", "strangers", table=open_, allow=False)
    fay.ok("strangers", table=open_, allow=False)
    zed.refused("not_invited", "sit", table=open_)
    fay.ok("invite", table=open_, names=["Zed"])                  # closed to strangers: invite
    zed.ok("sit", table=open_)
    practice = fay.ok("create", game="pika", players=2, mode="practice")["table"]
    assert practice["strangers"] is False
    zed.refused("practice", "sit", table=practice["id"])


# --- seats and starts --------------------------------------------------------------------------

def test_every_refusal_of_a_table_and_its_seats(clients: Any) -> None:
    eva, ida = clients("Eve"), clients("Ivo")
    for fields in ({"game": "chess", "players": 2},
                   {"game": "pika", "players": 2, "variants": ["no-such-rule"]}):
        eva.refused("no_game", "create", **fields)
    unfit: tuple[dict[str, Any], ...] = (
        {"players": 5}, {"players": 2, "settings": {"hand_size": 99}},
        {"players": 2, "settings": {"colour": "plaid"}})
    for fields in unfit:
        eva.refused("bad_table", "create", game="pika", **fields)
    eva.refused("no_table", "sit", table="t99999")
    tid = eva.ok("create", game="pika", players=2, settings={"dealer": 1})["table"]["id"]
    eva.refused("not_seated", "start", table=tid)                # the creator, not seated
    eva.refused("not_seated", "ready", table=tid)
    eva.refused("not_seated", "move", table=tid, move=0, version=0)
    eva.refused("no_seat", "sit", table=tid, seat=7)
    eva.ok("sit", table=tid, seat=1)
    eva.refused("not_playing", "move", table=tid, move=0, version=0)
    eva.refused("seated", "sit", table=tid)
    ida.refused("seat_taken", "sit", table=tid, seat=1)
    eva.refused("not_full", "start", table=tid)
    ida.ok("sit", table=tid)
    eva.refused("no_seat", "bots", table=tid)
    ida.ok("start", table=tid)                                   # any seated player may
    clients("Late").refused("not_open", "sit", table=tid)
    eva.refused("not_open", "ready", table=tid)
    eva.refused("not_over", "again", table=tid)
    entry = eva.ok("create", game="pika", players=2, mode="entry", stake=100)["table"]
    assert entry["mode"] == "entry" and entry["stake"] == 100
    eva.ok("sit", table=entry["id"])
    eva.refused("humans_only", "bots", table=entry["id"])


def test_a_broken_plugin_stops_its_own_table_and_the_host_goes_on(clients: Any) -> None:
    vic = clients("Vic")
    games = {g["id"]: g for g in vic.ok("games")["games"]}
    assert "wire-boom" in {v["id"] for v in games["pika"]["variants"]}
    tid = vic.table_with_bots("pika", 2, variants=["wire-boom"], settings={"dealer": 1})
    view = vic.wait(lambda m: m["type"] == "view" and m["table"] == tid)
    assert view["view"]["turn"] == 0
    vic.refused("game_failed", "move", table=tid, move=0, version=view["version"])
    broken = vic.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "broken")
    assert "exploded" in broken["table"]["failure"]
    vic.refused("not_playing", "again", table=tid)
    other = vic.table_with_bots("pikac", 2)
    assert play_all([vic], other)[0]["view"]["result"] is not None


# --- what the games add ------------------------------------------------------------------------

def test_what_each_game_adds_to_its_view_and_events(clients: Any) -> None:
    """docs/protocol.md, "What the built-in games add to a view and its events"."""
    kim = clients("Kim")
    views: dict[str, list[Message]] = {}
    for game in ("pika", "pikac", "piquet"):
        settings: dict[str, Any] = {"deals": 1} if game == "piquet" else {}
        if game == "pika":
            settings["warning"] = 0.5
        tid = kim.table_with_bots(game, 2, settings=settings, seed=3)
        play_all([kim], tid)
        views[game] = [m for m in kim.take() if m["type"] == "view" and m["table"] == tid]
    assert all("drawn" in m["view"] for m in views["pika"])
    assert any(m["view"]["drawn"] is not None for m in views["pika"])
    assert all(isinstance(p["stops"], int) for m in views["pikac"]
               for p in m["view"]["players"])
    for m in views["piquet"]:
        view = m["view"]
        assert isinstance(view["marked"], dict) and isinstance(view["said"], list)
        assert isinstance(view["log"], list) and isinstance(view["last deal"], list)
        assert all(p["role"] in ("elder", "dealer") and isinstance(p["score"], int)
                   for p in view["players"])
    events = [e for game in ("pika", "pikac") for m in views[game] for e in m["events"]]
    takes = [e for e in events if e["type"] == "take"]
    assert all(isinstance(e["owed"], int) and e["owed"] >= e.get("count", len(e.get("cards", [])))
               for e in takes)
    private = [e for e in events if e.get("private")]
    assert private and all(("cards" in e) == (e["seat"] == 0) for e in private)


def test_errors_say_what_they_are_about(clients: Any) -> None:
    """Every ``error`` the other tests meet is checked as the doc says (``check_error``):
    here one with no table, one with a table, and one of the schema."""
    una = clients("Una")
    error = una.refused("no_table", "watch", table="t0")
    assert error["type"] == "error" and error["table"] == "t0" and error["rid"] is not None
    check_error(error, about="watch")
    error = una.refused("bad_field", "create", game="pika", players=2, title="a\nb")
    assert error["about"] == "create" and "title" in error["message"]
