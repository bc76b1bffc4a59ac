"""The lobby's replies and pushes (``net/wire/replies.py``) hold what a real host sends: over
real sockets, every answer to ``games``, ``tables``, ``create``, ``sit``, ``invite``,
``watch``, ``snapshot``, ``chat`` (at a table and to the lobby), ``leave``, ``strangers``,
``bots``, ``remove``, ``close``, ``seek``, ``unseek``, ``ready``, ``start`` and ``again`` is
its declared shape, and so is every ``table``, ``chat`` and ``invited`` push the sessions got
meanwhile (a summary after a finished round too, with its ``rounds`` and ``totals``): each key
declared, each key the shape requires present, each value of its declared type, however deep."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire import replies
from tests.net.shapes import held_to, problems

#: The shape of each pushed message of the lobby, by type.
PUSHES: dict[str, type] = {"table": replies.TablePush, "chat": replies.ChatPush,
                           "invited": replies.InvitedPush}


def play_to_the_end(s: Session, tid: str, seed: int = 1, most: float = 120.0) -> None:
    """``s`` plays random listed moves at ``tid`` (its bots move by themselves) until the
    round is over."""
    rng = random.Random(seed)
    end = time.monotonic() + most
    while time.monotonic() < end:
        msg = s.views.get(tid)
        view = None if msg is None else msg["view"]
        if view is not None and view.get("result") is not None:
            return
        moves = [] if view is None else view.get("moves") or []
        if msg is None or not moves:
            time.sleep(0.01)
            continue
        try:
            s.move(tid, rng.randrange(len(moves)), msg["version"])
        except SessionError as exc:     # a bot moved first: the next view lists anew
            if exc.code not in ("stale", "not_playing"):
                raise
    raise AssertionError(f"table {tid} did not finish in {most} seconds")


class Pushes:
    """The pushes the sessions get, each of the lobby's held to its shape as it is read;
    the types of those held (``seen``)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def read(self, msg: dict[str, Any]) -> dict[str, Any]:
        shape = PUSHES.get(msg["type"])
        if shape is not None:
            held_to(msg, shape)
            self.seen.add(msg["type"])
        return msg

    def wait(self, s: Session, wanted: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The first push to ``s`` for which ``wanted(msg)`` holds (each read is held)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            msg = s.next_message(0.05)
            if msg is not None and wanted(self.read(msg)):
                return msg
        raise AssertionError("the expected message did not come")

    def drain(self, *sessions: Session) -> None:
        """Every push still waiting, held."""
        for s in sessions:
            while (msg := s.next_message(0.2)) is not None:
                self.read(msg)


def test_the_lobbys_replies_and_pushes_are_as_declared(connect: Any) -> None:
    eva, petr, lea = connect("Eva"), connect("Petr"), connect("Lea")
    pushes = Pushes()
    wait_for = pushes.wait
    games = held_to(eva.request("games"), replies.GamesReply)["games"]
    assert {g["id"] for g in games} >= {"pika"} and all(g["variants"] is not None
                                                         for g in games)

    # A friends table: its creator sits, invites, the invited sits and is removed.
    tid = held_to(eva.request("create", game="pika", players=3, mode="friends"),
               replies.CreateReply)["table"]["id"]
    assert held_to(eva.request("sit", table=tid), replies.SitReply)["seat"] == 0
    invite = held_to(eva.request("invite", table=tid, names=["petr"]), replies.InviteReply)
    assert invite["names"] == ["Petr"]
    held_to(wait_for(petr, lambda m: m["type"] == "invited"), replies.InvitedPush)
    held_to(petr.request("sit", table=tid), replies.SitReply)
    opened = held_to(lea.request("watch", table=tid), replies.TablePush)["table"]
    assert opened["status"] == "open" and [s["kind"] for s in opened["seats"]] == [
        "human", "human", "empty"]
    held_to(lea.request("snapshot", table=tid), replies.TablePush)
    held_to(eva.request("chat", table=tid, text="hello, table"), replies.OkReply)
    said = held_to(wait_for(lea, lambda m: m["type"] == "chat"), replies.ChatPush)
    assert said["table"] == tid and said["seat"] == 0
    held_to(lea.request("chat", text="hello, lobby"), replies.OkReply)
    said = held_to(wait_for(eva, lambda m: m["type"] == "chat" and m["table"] is None),
                replies.ChatPush)
    assert said["seat"] is None and said["name"] == "Lea"
    held_to(eva.request("strangers", table=tid, allow=False), replies.OkReply)
    held_to(eva.request("bots", table=tid, count=1, level="easy"), replies.OkReply)
    held_to(eva.request("remove", table=tid, seat=2), replies.OkReply)
    held_to(eva.request("remove", table=tid, seat=1), replies.OkReply)
    gone = wait_for(petr, lambda m: m["type"] == "table"
                    and m["table"]["seats"][1]["kind"] == "empty")
    assert petr.welcome is not None
    assert petr.welcome["player"] not in [s["player"] for s in gone["table"]["seats"]]
    closed = held_to(eva.request("close", table=tid), replies.CloseReply)["table"]
    assert closed["status"] == "closed"
    told = held_to(wait_for(lea, lambda m: m["type"] == "table"
                         and m["table"]["status"] == "closed"), replies.TablePush)
    assert told["table"]["id"] == tid

    # Open play: a seek seats Petr at a table of its own; he takes it back.
    seeking = held_to(petr.request("seek", game="pika", players=2), replies.SeekReply)
    assert seeking["fill_in"] is not None and seeking["seat"] == 0
    assert held_to(petr.request("unseek"), replies.UnseekReply)["table"] == seeking["table"]

    # An open table with a bot: ready taken back, started, watched, played, asked again.
    tid = held_to(eva.request("create", game="pika", players=2, seed=7, bot_delay=0),
               replies.CreateReply)["table"]["id"]
    held_to(eva.request("sit", table=tid), replies.SitReply)
    held_to(lea.request("watch", table=tid), replies.TablePush)
    held_to(lea.request("leave", table=tid), replies.OkReply)
    held_to(eva.request("bots", table=tid), replies.OkReply)
    held_to(eva.request("ready", table=tid, ready=False), replies.OkReply)
    lobby = held_to(lea.request("tables"), replies.TablesReply)
    assert tid in [t["id"] for t in lobby["tables"]] and lobby["next"] is None
    held_to(eva.request("start", table=tid), replies.OkReply)
    play_to_the_end(eva, tid)
    over = held_to(wait_for(eva, lambda m: m["type"] == "table" and m["table"]["status"] == "over"),
                replies.TablePush)["table"]
    assert over["round"] == 1 and over["totals"] is not None and len(over["rounds"]) == 1
    again = held_to(eva.request("again", table=tid), replies.AgainReply)
    assert again["round"] == 2 and again["waiting"] == []
    held_to(wait_for(eva, lambda m: m["type"] == "table" and m["table"]["round"] == 2),
         replies.TablePush)

    pushes.drain(eva, petr, lea)
    assert pushes.seen == set(PUSHES)


def test_a_shape_the_host_does_not_keep_to_is_found() -> None:
    """The check itself: an undeclared key, a missing one and a value of another type are
    each found, also inside a summary inside a push."""
    seat = {"seat": 0, "kind": "bot", "name": "Bot 1", "player": None, "ready": True}
    summary = {"id": "t1", "game": "pika", "seats": [seat]}
    push = {"type": "table", "v": 1, "table": summary}
    assert not problems(push, replies.TablePush)
    assert problems({**push, "colour": "red"}, replies.TablePush)
    assert problems({"type": "table", "v": 1}, replies.TablePush)          # no summary
    assert problems({**push, "table": {"game": "pika"}}, replies.TablePush)  # no id
    assert problems({**push, "table": {**summary, "seats": [{**seat, "ready": "yes"}]}},
                    replies.TablePush)
    assert problems({**push, "type": "tables"}, replies.TablePush)
    with pytest.raises(AssertionError):
        held_to({"type": "ok", "v": 1, "about": "again", "round": 2}, replies.AgainReply)
