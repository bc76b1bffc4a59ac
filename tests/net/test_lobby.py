"""The lobby and the game requests through a real host: what is accepted, what is refused and
with which code, duplicates answered once, chat, reorder."""

from __future__ import annotations

import time
from typing import Any

import msgpack
import pytest
import zmq

from cardparty.core.discovery import load_catalog
from cardparty.net.host import Host
from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire.protocol import decode, encode, message
from tests.net.conftest import installed_games, wait_for


def refused(code: str, call: Any, *args: Any, **kw: Any) -> str:
    with pytest.raises(SessionError) as info:
        call(*args, **kw)
    assert info.value.code == code, info.value
    return info.value.message


def test_games_lists_every_installed_game_with_settings_and_variants(connect: Any) -> None:
    games = {g["id"]: g for g in connect("Eva").games()}
    catalog = load_catalog()
    assert sorted(games) == installed_games()
    for gid, g in games.items():
        assert g["settings"] == {k: s.to_wire() for k, s in catalog.game(gid).settings.items()}
        assert [v["id"] for v in g["variants"]] == [v.id for v in catalog.variants_of(gid)]


def test_create_refuses_unknown_games_variants_player_counts_and_settings(connect: Any
                                                                          ) -> None:
    eva = connect("Eva")
    assert "pika" in refused("no_game", eva.create, "snap", 2)
    refused("no_game", eva.create, "pika", 2, variants=["no-such-variant"])
    assert "2 to 4" in refused("bad_table", eva.create, "pika", 9)
    assert "colour" in refused("bad_table", eva.create, "pika", 2, {"colour": 3})
    refused("bad_table", eva.create, "pika", 2, {"hand_size": 99})
    assert eva.tables() == []


def test_seats_are_taken_once_and_the_game_waits_for_a_full_ready_table(connect: Any) -> None:
    eva, petr, jana = connect("Eva"), connect("Petr"), connect("Jana")
    tid = eva.create("pika", 3)["id"]
    assert eva.sit(tid) == 0
    refused("seated", eva.sit, tid)
    refused("seat_taken", petr.sit, tid, 0)
    refused("no_seat", petr.sit, tid, 7)
    assert petr.sit(tid, 2) == 2
    refused("not_full", eva.start, tid)
    refused("not_seated", jana.ready, tid)
    eva.ready(tid)
    eva.add_bots(tid)
    refused("no_seat", jana.sit, tid)
    summary = [t for t in eva.tables() if t["id"] == tid][0]
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "human"]
    assert summary["status"] == "open", "Petr is not ready yet"
    petr.ready(tid)
    view = wait_for(petr, lambda m: m["type"] == "view")
    assert view["seat"] == 2 and view["snapshot"] and view["view"]["seat"] == 2
    refused("not_open", jana.sit, tid)


def test_a_repeated_request_id_is_answered_again_and_not_played_twice(connect: Any,
                                                                      host: Any) -> None:
    eva = connect("Eva")
    tid = eva.create("pika", 2, {"dealer": 1})["id"]
    eva.sit(tid)
    eva.add_bots(tid)
    eva.ready(tid)
    view = wait_for(eva, lambda m: m["type"] == "view")
    assert view["view"]["turn"] == 0
    first = eva.request("move", table=tid, move=0, version=view["version"], rid="same")
    again = eva.request("move", table=tid, move=0, version=view["version"], rid="same")
    assert first == again and first["version"] == view["version"] + 1
    assert sum(1 for s, _ in host.tables[tid].engine.journal if s == 0) == 1


def test_stale_and_unknown_moves_are_refused_with_the_reason(connect: Any) -> None:
    eva, petr = connect("Eva"), connect("Petr")
    tid = eva.create("pika", 2, {"dealer": 1})["id"]
    eva.sit(tid)
    petr.sit(tid)
    eva.ready(tid)
    petr.ready(tid)
    view = wait_for(eva, lambda m: m["type"] == "view")
    moves = view["view"]["moves"]
    assert "moved on" in refused("stale", eva.move, tid, 0, view["version"] + 5)
    refused("no_move", eva.move, tid, len(moves), view["version"])
    assert "not your turn" in refused("illegal", petr.move, tid, {"kind": "draw"},
                                      view["version"])
    reply = eva.move(tid, len(moves) - 1, view["version"])
    assert reply["version"] == view["version"] + 1
    assert "moved on" in refused("stale", eva.move, tid, 0, view["version"])


def test_chat_reaches_everybody_at_the_table_and_nobody_else(connect: Any) -> None:
    eva, petr, jana, other = connect("Eva"), connect("Petr"), connect("Jana"), connect("Ota")
    tid = eva.create("pika", 2)["id"]
    eva.sit(tid)
    petr.sit(tid)
    jana.watch(tid)
    refused("not_seated", other.chat, tid, "psst")
    eva.chat(tid, "good luck")
    for who in (eva, petr, jana):
        said = wait_for(who, lambda m: m["type"] == "chat")
        assert (said["name"], said["text"], said["seat"]) == ("Eva", "good luck", 0)
    assert other.next_message(0.2) is None


def test_a_player_may_reorder_his_own_hand_and_sees_it_in_his_order(connect: Any) -> None:
    eva = connect("Eva")
    tid = eva.create("pika", 2, {"dealer": 1})["id"]       # Eva to play: the bot waits
    eva.sit(tid)
    eva.add_bots(tid)
    eva.ready(tid)
    view = wait_for(eva, lambda m: m["type"] == "view")["view"]
    order = list(reversed(view["hand"]))
    eva.reorder(tid, order)
    latest = wait_for(eva, lambda m: m["type"] == "view" and m["version"] > view["version"])
    assert latest["view"]["hand"] == order and latest["version"] == view["version"] + 1
    refused("illegal", eva.reorder, tid, ["R0", "R0", "R0"])


def test_a_spectator_sees_no_hand_and_may_not_move(connect: Any) -> None:
    eva, jana = connect("Eva"), connect("Jana")
    tid = eva.create("pika", 2)["id"]
    eva.sit(tid)
    eva.add_bots(tid)
    eva.ready(tid)
    shown = jana.watch(tid)
    assert shown["seat"] is None and shown["view"]["hand"] == [] and shown["view"]["moves"] == []
    refused("not_seated", jana.move, tid, 0, shown["version"])


def test_a_raw_client_speaking_only_docs_protocol_plays_a_game_to_its_end(host: Any) -> None:
    """Written from docs/protocol.md alone: the host's key from its key desk, a CURVE key pair
    of its own, then hello, create, sit, bots, ready, then moves by id with the view's version
    until the view carries the result."""
    ctx = zmq.Context.instance()
    desk = ctx.socket(zmq.DEALER)
    desk.setsockopt(zmq.LINGER, 0)
    head, port = host.address.rsplit(":", 1)
    desk.connect(f"{head}:{int(port) + 1}")
    desk.send(b"cardparty key?")
    assert desk.poll(5000), "the key desk said nothing"
    told = msgpack.unpackb(desk.recv())
    desk.close()
    public, secret = zmq.curve_keypair()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.curve_secretkey, sock.curve_publickey = secret, public
    sock.curve_serverkey = told["key"].encode()
    sock.connect(host.address)
    limits = {"max_buffer_size": 1 << 22, "max_str_len": 1 << 20, "max_bin_len": 0,
              "max_array_len": 1 << 16, "max_map_len": 4096, "max_ext_len": 0}
    pushed: list[dict[str, Any]] = []

    def recv() -> dict[str, Any]:
        assert sock.poll(5000), "the host said nothing"
        return decode(sock.recv(), limits)

    def ask(kind: str, rid: int, **fields: Any) -> dict[str, Any]:
        sock.send(encode(message(kind, rid=rid, **fields)))
        while (m := recv()).get("rid") != rid:
            pushed.append(m)
        return m

    try:
        assert ask("hello", 1, name="Raw")["type"] == "welcome"
        tid = ask("create", 2, game="pika", players=2, settings={"hand_size": 3})["table"]["id"]
        assert ask("sit", 3, table=tid)["seat"] == 0
        assert ask("bots", 4, table=tid)["type"] == "ok"
        assert ask("ready", 5, table=tid)["type"] == "ok"
        latest = ask("snapshot", 6, table=tid)
        rid, moved_on = 100, None

        def newest() -> dict[str, Any]:
            views = [m for m in pushed if m["type"] == "view"] + [latest]
            pushed.clear()
            return max(views, key=lambda m: m["version"])

        while not latest["view"]["result"]:
            if latest["view"]["moves"] and latest["version"] != moved_on:
                rid += 1
                moved_on = latest["version"]
                reply = ask("move", rid, table=tid, move=0, version=latest["version"])
                # stale: the bot moved first; not_playing: ... and won the game meanwhile
                assert reply["type"] == "ok" or reply["code"] in ("stale", "not_playing"), reply
            else:
                pushed.append(recv())
            latest = newest()
        view = latest
        assert sorted(view["view"]["result"]["places"]) in ([1, 2], [1, 1])
    finally:
        sock.close()


def test_an_asyncio_program_awaits_replies_and_gets_pushes_by_callback(host: Any) -> None:
    import asyncio

    from cardparty.net.player.session import Session

    async def main() -> tuple[list[str], dict[str, Any]]:
        loop = asyncio.get_running_loop()
        pushed: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        s = Session(host.address, "Async",
                    on_message=lambda m: loop.call_soon_threadsafe(pushed.put_nowait, m))
        await loop.run_in_executor(None, s.connect)
        try:
            games = [g["id"] for g in (await s.arequest("games"))["games"]]
            tid = (await s.arequest("create", game="pika", players=2))["table"]["id"]
            await s.arequest("sit", table=tid)
            await s.arequest("bots", table=tid)
            await s.arequest("ready", table=tid)
            while (msg := await asyncio.wait_for(pushed.get(), 5))["type"] != "view":
                pass
            return games, msg
        finally:
            s.close()

    games, view = asyncio.run(main())
    assert games == installed_games() and view["seat"] == 0 and view["snapshot"]


def test_at_the_table_limit_a_new_table_replaces_the_one_that_ended_longest_ago() -> None:
    host = Host("tcp://127.0.0.1:0", "small-host", heartbeat=0.1, idle=None, bot_delay=0.0,
                max_tables=3, testing=True)
    host.start()
    eva = Session(host.address, "Eva", request_timeout=5.0)
    try:
        eva.connect(timeout=5.0)
        ended = []
        for _ in range(2):                      # two tables of bots, played to their end
            tid = eva.create("pika", 2, seed=7, mode="friends")["id"]
            eva.add_bots(tid)                   # the creator may, without a seat
            ended.append(tid)
        deadline = time.monotonic() + 10
        while {t["status"] for t in eva.tables()} != {"over"}:
            assert time.monotonic() < deadline, eva.tables()
            time.sleep(0.05)
        first_open = eva.create("pika", 2)["id"]          # the third: under the limit
        second_open = eva.create("pika", 2)["id"]         # at the limit: the oldest goes
        listed = {t["id"]: t["status"] for t in eva.tables()}
        ended_first = min(ended, key=lambda tid: int(tid[1:]))
        assert ended_first not in listed
        assert listed == {ended[1] if ended_first == ended[0] else ended[0]: "over",
                          first_open: "open", second_open: "open"}
        eva.create("pika", 2)                             # the last ended table goes too
        assert refused("busy", eva.create, "pika", 2)     # only open tables left: busy
        assert {t["status"] for t in eva.tables()} == {"open"}
    finally:
        eva.close()
        host.stop()
