"""Game records through the client, against a real host on 127.0.0.1: the end of a round
replays it (r) and reviews it (v) with one key each; the viewer steps, jumps and shows any
seat's view as the host sent it; the history (H in the lobby) lists the round and opens it;
the review's marked moves are said at their step with their loss and reason; a shared replay
led at the table is followed by a spectator, who takes the lead by stepping."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.line_words import text_lines
from cardparty.client.render import Renderer
from cardparty.client.replay_model import History, Replayer
from cardparty.client.screens.history import HistoryScreen
from cardparty.client.screens.replay import ReplayScreen
from cardparty.client.theme import UNICODE
from tests.client.clientkit import HostKit, pika_at, player
from tests.client.test_client_flows import play_by_keys


def body(c: Controller) -> str:
    return "\n".join(text_lines(c.current.draw(Renderer(c, UNICODE))))


def replayer(c: Controller) -> Replayer:
    """The round the replay viewer shows (the screen's own state)."""
    return c.get(ReplayScreen).replay


def history_of(c: Controller) -> History:
    """The rounds the history screen lists (the screen's own state)."""
    return c.get(HistoryScreen).history


def test_a_round_is_replayed_from_its_end_and_from_the_history_and_reviewed(
        kit: HostKit) -> None:
    c = pika_at(kit)
    try:
        sent = [dict(c.table.view)]
        play_by_keys(c)
        assert "r replay the round" in " ".join(text_lines(Renderer(c, UNICODE).over()))
        c.key("r")
        rp = replayer(c)
        c.pump.until(lambda: bool(rp.view) and rp.record is not None)
        assert c.screen == "replay" and rp.step == 0 and rp.seat == 0 and rp.steps > 3
        assert rp.view["hand"] == sent[0]["hand"]          # as Eva was dealt it
        for _ in range(3):
            c.key("right")
        c.pump.until(lambda: rp.step == 3)
        c.key("s")                                         # the bot's seat: every hand shown
        c.pump.until(lambda: rp.seat == 1 and bool(rp.view.get("hand")))
        assert "step 3 of" in body(c) and "as Bot 2 saw it" in body(c)
        c.key("g")
        for k in "1":
            c.key(k)
        c.key("enter")
        c.pump.until(lambda: rp.step == 1)
        c.key("q")
        assert c.screen == "table" and c.table.over
        c.key("l")
        c.key("H")
        history = history_of(c)
        c.pump.until(lambda: bool(history.rows))
        assert c.screen == "history" and history.rows[0]["id"] == rp.record
        assert "Eva*" in body(c)
        c.key("v")                                         # the replay, its review asked for
        rp = replayer(c)
        c.pump.until(lambda: rp.review == "done", timeout=60.0)
        assert rp.decisions > 0 and "review:" in body(c)
        # A mark is said at its step: the move made from there, its loss and why.
        rp.marks = [{"step": rp.step, "loss": 0.14, "played": "play R7",
                     "better": "play W", "reason": "play W was better"}]
        assert ("your move from here: play R7; estimated loss 14 in 100: play W was better"
                in body(c))
        c.key("q")
        assert c.screen == "history"
    finally:
        c.close()


def test_a_shared_replay_is_followed_at_the_table_and_taken_over_by_a_step(
        kit: HostKit) -> None:
    eva = pika_at(kit)
    bob, pb = player(kit.address, "Bob")
    try:
        pb.until(lambda: bob.connection == "connected")
        bob.link.request("watch", table=eva.table_id)  # type: ignore[union-attr]
        pb.until(lambda: bob.screen == "table")
        play_by_keys(eva)
        pb.until(lambda: bob.table.over)
        eva.key("r")
        mine = replayer(eva)
        eva.pump.until(lambda: bool(mine.view))
        eva.key("L")
        pb.until(lambda: bob.screen == "replay" and replayer(bob).following)
        theirs = replayer(bob)              # the viewer opened by the push
        assert theirs.step == 0
        assert "Eva leads" in bob.notice and theirs.leader == "Eva"
        eva.key("right")
        eva.key("right")
        pb.until(lambda: theirs.step == 2)
        bob.key("right")                                   # a step takes the lead
        eva.pump.until(lambda: mine.step == 3 and mine.following and mine.leader == "Bob")
        assert theirs.leading and "you lead" in body(bob)
        bob.key("E")
        eva.pump.until(lambda: mine.leader is None and not mine.following)
    finally:
        eva.close()
