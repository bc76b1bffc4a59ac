"""A player's rewards are kept and told once (issue 28): a round that ends while he is away
or disconnected is told when he is back, exactly once; ``rewards`` lists his recent ones,
newest first, a bounded page at a time. The host's parts without sockets (``Kit``)."""

from __future__ import annotations

from typing import Any

from cardparty.core.economy.ledger import REWARDS_KEPT
from cardparty.net.host.model import Player
from tests.net.hostkit import Kit

EVA = b"E" * 40


def kit() -> Kit:
    return Kit(economy=":memory:")


def table_with_a_bot(k: Kit, eva: Player, idle: float | None = None) -> str:
    tid = k.open_table("pika", eva, 2, seed=5, settings={"hand_size": 3},
                       idle=idle if idle is not None else None)
    k.ask(eva, "sit", table=tid)
    k.ask(eva, "bots", table=tid)
    k.ask(eva, "start", table=tid)
    return tid


def run_out(k: Kit, tid: str) -> None:
    """The clock runs until the round at ``tid`` is over (stand-ins and bots play it)."""
    for _ in range(20_000):
        if k.table(tid).status != "playing":
            return
        k.tick(0.06)
    raise AssertionError("the round did not end")


def test_a_round_that_ends_while_he_is_away_is_told_when_he_is_back_exactly_once() -> None:
    k = kit()
    eva = k.parts.hello(b"r1", "Eva", user=EVA)
    tid = table_with_a_bot(k, eva, idle=0.05)
    k.out.take(eva)
    k.parts.roster.gone(b"r1")              # his client died: the socket said so
    assert eva.route is None
    run_out(k, tid)                          # a stand-in plays his seat to the end
    assert k.out.take(eva) == []             # nothing reaches a player away
    k.parts.hello(b"r2", "Eva", user=EVA)
    got = k.out.take(eva)
    kinds = [m["type"] for m in got]
    rewards = [m for m in got if m["type"] == "reward"]
    assert len(rewards) == 1, kinds
    (reward,) = rewards
    assert kinds.index("reward") > max(i for i, t in enumerate(kinds) if t == "view"), kinds
    assert reward["missed"] is True and reward["table"] == tid and reward["round"] == 1
    assert reward["profile"]["coins"] == 1000 + reward["coins"]
    assert isinstance(reward["id"], str) and reward["at"] > 0
    k.parts.hello(b"r3", "Eva", user=EVA)   # once told, never again
    assert [m for m in k.out.take(eva) if m["type"] == "reward"] == []


def test_a_player_present_is_told_at_the_end_and_not_again_on_his_next_hello() -> None:
    k = kit()
    eva = k.parts.hello(b"r1", "Eva", user=EVA)
    tid = table_with_a_bot(k, eva)
    k.play_out(tid, {0: eva})
    (reward,) = k.out.take(eva, "reward")
    assert reward["missed"] is False and reward["id"]
    k.parts.hello(b"r2", "Eva", user=EVA)
    assert k.out.take(eva, "reward") == []


def test_rewards_lists_his_own_newest_first_a_page_at_a_time() -> None:
    k = kit()
    eva = k.parts.hello(b"r1", "Eva", user=EVA)
    petr = k.parts.hello(b"r2", "Petr", user=b"P" * 40)
    told: list[dict[str, Any]] = []
    for _ in range(23):
        tid = table_with_a_bot(k, eva)
        k.play_out(tid, {0: eva})
        told += k.out.take(eva, "reward")
    first = k.ask(eva, "rewards")
    assert (first["total"], len(first["rewards"]), first["next"]) == (23, 20, 20)
    second = k.ask(eva, "rewards", offset=first["next"])
    assert (len(second["rewards"]), second["next"]) == (3, None)
    listed = first["rewards"] + second["rewards"]
    wanted = [{k_: v for k_, v in r.items() if k_ not in ("type", "v", "rid", "profile",
                                                           "missed")} for r in told]
    assert listed == wanted[::-1]            # newest first, the same facts as the pushes
    assert sum(r["coins"] for r in listed) == k.ask(eva, "profile")["profile"]["coins"] - 1000
    assert k.ask(petr, "rewards")["rewards"] == []    # his own only


def test_the_ledger_keeps_each_players_newest_rewards_only() -> None:
    k = kit()
    led = k.parts.economy.ledger
    assert led is not None
    led.enter("Eva", "key")
    for i in range(REWARDS_KEPT + 5):
        led.pay_result(f"m{i}", "open", ["Eva", None], [1, 2], table="t1", round_no=i + 1)
    rows, total = led.rewards("Eva", 0, 200)
    assert total == REWARDS_KEPT and rows[0].round == REWARDS_KEPT + 5
    assert rows[-1].round == 6
    led.audit()


def test_a_host_without_an_economy_has_no_rewards_to_list() -> None:
    k = Kit()
    eva = k.player("Eva")
    k.refused("no_economy", eva, "rewards")
