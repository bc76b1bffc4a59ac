"""The shapes of the economy's and the ratings' replies and pushes
(``net/wire/economy_replies.py``) hold what a real host sends: a host with a ledger, real
sessions, and every one of them provoked (a profile, one's own and another's, a purchase,
the rewards and the league after a paid round, the ``reward`` pushed at its end, a game's
ratings and one player's, an entry table cancelled): every key is declared, of the type
declared."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from cardparty.net.host import Host
from cardparty.net.host.settings import HostSettings
from cardparty.net.player.netbot import play_table
from cardparty.net.player.session import Session
from cardparty.net.wire import economy_replies as er
from tests.net.conftest import wait_for
from tests.net.shapes import held_to

#: An entry table not full this long after it opened is cancelled (the test waits for it).
FILL = 0.5


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, economy=":memory:",
             settings=HostSettings(fill_timeout=FILL))
    h.start()
    try:
        yield h
    finally:
        h.stop()


@pytest.fixture
def eva_and_petr(host: Host) -> Iterator[tuple[Session, Session]]:
    made = [Session(host.address, name, backoff=(0.02, 0.2), request_timeout=10.0)
            for name in ("Eva", "Petr")]
    try:
        for s in made:
            s.connect(timeout=5.0)
        yield made[0], made[1]
    finally:
        for s in made:
            s.abort()


def held_profile(profile: Any) -> None:
    held_to(profile, er.ProfileWire)
    held_to(profile["prices"], er.Prices)
    held_to(profile["boosts"], er.Boosts)


def play_a_paid_round(eva: Session, petr: Session) -> list[dict[str, Any]]:
    """Eva and Petr play a short round of Pika at an open table (it pays, and rates them);
    each one's ``reward`` push."""
    tid = eva.create("pika", 2, settings={"hand_size": 3}, mode="open")["id"]
    pushed: list[list[dict[str, Any]]] = [[], []]
    failures: list[BaseException] = []

    def play(s: Session, i: int) -> None:
        try:
            s.ready(tid)
            play_table(s, tid, rng=random.Random(i), timeout=60, on_message=pushed[i].append)
        except BaseException as exc:       # reported by the test's thread below
            failures.append(exc)

    for s in (eva, petr):
        s.sit(tid)
    threads = [threading.Thread(target=play, args=(s, i)) for i, s in enumerate((eva, petr))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert not failures, failures
    rewards = []
    for i, s in enumerate((eva, petr)):
        told = [m for m in pushed[i] if m["type"] == "reward"]
        rewards.append(told[0] if told else wait_for(s, lambda m: m["type"] == "reward"))
    return rewards


def test_the_economys_replies_and_pushes_are_as_declared(
        eva_and_petr: tuple[Session, Session]) -> None:
    eva, petr = eva_and_petr
    petr.request("profile")                       # his profile is made on first use
    for reply in (eva.request("profile"), eva.request("profile", name="Petr")):
        held_to(reply, er.ProfileReply)
        held_profile(reply["profile"])
    bought = eva.request("buy", item="gold")
    held_to(bought, er.BuyReply)
    held_profile(bought["profile"])
    assert bought["bought"] == "gold"

    for reward in play_a_paid_round(eva, petr):
        held_to(reward, er.RewardPush)
        held_profile(reward["profile"])
        assert reward["id"] is not None and reward["missed"] is False

    rewards = eva.request("rewards")
    held_to(rewards, er.RewardsReply)
    assert rewards["rewards"]
    for row in rewards["rewards"]:
        held_to(row, er.RewardFields)
    league = eva.request("league")
    held_to(league, er.LeagueReply)
    assert league["standings"] and league["me"] is not None
    for row in [*league["standings"], league["me"]]:
        held_to(row, er.LeagueRow)

    game = eva.request("ratings", game="pika")
    held_to(game, er.RatingsReply)
    assert len(game["ratings"]) == 2 and game["me"] is not None
    mine = petr.request("ratings")
    held_to(mine, er.RatingsReply)
    assert [line["game"] for line in mine["ratings"]] == ["pika"]
    for line in [*game["ratings"], game["me"], *mine["ratings"]]:
        held_to(line, er.RatingLine)
    rated = eva.request("profile")
    held_to(rated, er.ProfileReply)
    held_profile(rated["profile"])
    assert set(rated["profile"]["ratings"]) == {"pika"}


def test_an_entry_table_not_full_in_time_is_cancelled_as_declared(
        eva_and_petr: tuple[Session, Session]) -> None:
    eva, _ = eva_and_petr
    tid = eva.request("create", game="pika", players=2, mode="entry", stake=100)["table"]["id"]
    eva.sit(tid)
    cancelled = wait_for(eva, lambda m: m["type"] == "cancelled", timeout=10 * (FILL + 1))
    held_to(cancelled, er.CancelledPush)
    assert cancelled["table"] == tid and cancelled["refund"] == 100


def test_a_key_or_a_type_no_economy_shape_declares_is_found() -> None:
    line = {"game": "pika", "name": "Eva", "rating": 1.5, "mu": 25.0, "sigma": 8.0,
            "rounds": 1}
    held_to(line, er.RatingLine)
    with pytest.raises(AssertionError):
        held_to({**line, "colour": "red"}, er.RatingLine)
    with pytest.raises(AssertionError):
        held_to({**line, "rounds": "one"}, er.RatingLine)
    with pytest.raises(AssertionError):
        held_to({"type": "league", "me": {"rank": "first", "name": "Eva", "points": 3}},
                er.LeagueReply)
