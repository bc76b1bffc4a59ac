"""The economy on the wire as docs/protocol.md describes it, against a real ``cardparty host
--testing --data DIR`` process (its economy beside its tables, a fill timeout of one second),
with nothing but pyzmq and msgpack: profiles, the league, the shop, open play by seeking, an
entry table cancelled, rewards pushed once (also to a player who was away), the list of one's
rewards, and what a host killed and started again keeps and forgets.

One host for the module (``party.host``; the last test kills it and starts it again on the same
data)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.wire.doc_client import Client, HostProcess, play_all

#: One worker for the module's tests, so one host (where xdist groups them: each test also
#: stands alone, so a host per worker is only slower).
pytestmark = pytest.mark.xdist_group("wire_economy")

ARGS = ("--testing", "--heartbeat", "0.2", "--fill-timeout", "1")


class Party:
    """The module's host and its data directory; ``restart`` kills it and starts another on
    the same data."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.host = HostProcess(*ARGS, "--data", str(data))
        self.made: list[Client] = []

    def client(self, name: str | None = None, **kw: Any) -> Client:
        c = self.host.client(name, **kw)
        self.made.append(c)
        return c

    def restart(self) -> None:
        """SIGKILL, then the same command on the same port and data."""
        self.host.kill()
        self.host = HostProcess(*ARGS, "--data", str(self.data), port=self.host.port)

    def close(self) -> None:
        for c in self.made:
            c.close()
        self.host.stop()


@pytest.fixture(scope="module")
def party(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Party]:
    p = Party(tmp_path_factory.mktemp("wire-economy"))
    yield p
    p.close()


def test_profile_league_and_shop_as_the_doc_says(party: Party) -> None:
    eva, other = party.client("Eva"), party.client("Olga")
    mine = eva.ok("profile")["profile"]
    assert eva.ok("profile", name=None)["profile"] == mine
    for key in ("name", "coins", "xp", "level", "level_xp", "next_xp", "gold_left", "vip_left",
                "league", "week", "prices", "boosts", "stakes"):
        assert key in mine, key
    assert (mine["name"], mine["coins"], mine["level"], mine["next_xp"]) == ("Eva", 1000, 0, 100)
    assert mine["prices"] == {"gold": 200, "vip": 1000} and mine["stakes"] == [100, 250, 500,
                                                                                1000]
    other.ok("profile")
    assert eva.ok("profile", name="Olga")["profile"]["name"] == "Olga"
    eva.refused("economy", "profile", name="Nobody")
    league = eva.ok("league", week=None)
    assert league["week"] == league["current"] and league["current"] in league["weeks"]
    assert {"standings", "me", "players"} <= set(league)
    assert eva.ok("league", week="2026-w48")["week"] == "2026-W48"
    for week in ("last week", "2025-W53", "2026-W99"):
        eva.refused("bad_field", "league", week=week)
    bought = eva.ok("buy", item="gold")
    assert bought["type"] == "profile" and bought["bought"] == "gold"
    assert bought["profile"]["coins"] == 800 and bought["profile"]["gold_left"] > 3590
    short = eva.refused("no_coins", "buy", item="vip")
    assert "1000" in short["message"] and "you have 800" in short["message"]
    assert short["msg"]["p"] == {"price": 1000, "have": 800}
    eva.refused("bad_field", "buy", item="diamonds")
    other.ok("buy", item="vip")                                    # 0 coins left
    entry = eva.ok("create", game="pikac", players=2, mode="entry", stake=100)["table"]["id"]
    poor = other.refused("no_coins", "sit", table=entry)
    assert "you have 0" in poor["message"]


def test_seekers_are_seated_together_and_bots_fill_after_the_timeout(party: Party) -> None:
    sue, tom, una = party.client("Sue"), party.client("Tom"), party.client("Una")
    waiting = sue.ok("seek", game="pikac", players=2)
    assert waiting["type"] == "seeking" and 0 < waiting["fill_in"] <= 1
    assert (waiting["game"], waiting["players"], waiting["stake"], waiting["seat"]) == (
        "pikac", 2, 0, 0)
    filled = tom.ok("seek", game="pikac", players=2)
    assert filled["table"] == waiting["table"] and filled["fill_in"] is None    # started
    assert tom.wait(lambda m: m["type"] == "view")["table"] == filled["table"]
    alone = una.ok("seek", game="pikac", players=3)
    una.refused("seated", "seek", game="pikac", players=3)
    assert una.ok("unseek") == {"type": "ok", "v": 1, "about": "unseek",
                                "table": alone["table"], "rid": una.rid() - 1}
    una.refused("not_seated", "unseek")
    again = una.ok("seek", game="pikac", players=3)
    listed = {t["id"]: t for t in una.ok("tables")["tables"]}
    shown = listed[again["table"]]
    assert shown["seeking"] is True and shown["fill_in"] is not None
    una.wait(lambda m: m["type"] == "view" and m["table"] == again["table"], timeout=15)
    (last,) = play_all([una], again["table"])
    reward = una.wait(lambda m: m["type"] == "reward")
    assert reward["halved"] is True and reward["mode"] == "open" and reward["missed"] is False
    assert reward["table"] == again["table"] and last["view"]["result"] is not None


def test_an_entry_table_not_full_in_time_is_cancelled_and_every_stake_refunded(
        party: Party) -> None:
    val = party.client("Val")
    seek = val.ok("seek", game="pikac", players=2, stake=100)
    assert seek["stake"] == 100
    assert val.ok("profile")["profile"]["coins"] == 900
    cancelled = val.wait(lambda m: m["type"] == "cancelled", timeout=15)
    assert (cancelled["table"], cancelled["refund"]) == (seek["table"], 100)
    assert cancelled["reason"] and isinstance(cancelled["reason_msg"], dict)
    summary = val.wait(lambda m: m["type"] == "table" and m["table"]["id"] == seek["table"]
                       and m["table"]["status"] == "cancelled")
    assert summary["table"]["stake"] == 100
    assert val.ok("profile")["profile"]["coins"] == 1000


def test_a_round_that_ends_while_a_player_is_away_is_told_on_his_return_once(
        party: Party) -> None:
    wes = party.client("Wes")
    keys = wes.keys
    tid = wes.table_with_bots("pikac", 2, idle=0.05, seed=2)
    wes.wait(lambda m: m["type"] == "view" and m["table"] == tid)
    wes.close()                                          # gone without a word, as a kill -9
    watcher = party.client("Wynn")
    watcher.ok("watch", table=tid)
    watcher.wait(lambda m: m["type"] == "view" and m["view"]["result"] is not None,
                 timeout=30)                             # a stand-in played his seat out
    back = party.client(keys=keys)
    welcome = back.hello("Wes")
    assert welcome["resumed"] is True
    reward = back.wait(lambda m: m["type"] == "reward")
    kinds = [m["type"] for m in back.take()]
    assert "table" in kinds and "view" in kinds            # his tables came first
    assert reward["missed"] is True and reward["table"] == tid and reward["round"] == 1
    assert reward["profile"]["coins"] == 1000 + reward["coins"]
    listed = back.ok("rewards")
    assert listed["total"] == 1 and listed["next"] is None
    (row,) = listed["rewards"]
    assert row["id"] == reward["id"] and row["coins"] == reward["coins"]
    assert "profile" not in row and "missed" not in row
    assert back.hello("Wes")["resumed"] is True
    assert [m for m in back.quiet(0.5) if m["type"] == "reward"] == []      # once only


def test_rewards_come_a_page_of_twenty_at_a_time_newest_first(party: Party) -> None:
    xia = party.client("Xia")
    ids = []
    for seed in range(21):
        tid = xia.table_with_bots("pika", 2, seed=seed, settings={"hand_size": 2,
                                                                  "warning": 0.5})
        play_all([xia], tid)
        ids.append(xia.wait(lambda m: m["type"] == "reward")["id"])
        xia.take()
    first = xia.ok("rewards")
    assert (first["total"], len(first["rewards"]), first["next"]) == (21, 20, 20)
    rest = xia.ok("rewards", offset=20)
    assert [r["id"] for r in first["rewards"] + rest["rewards"]] == ids[::-1]
    assert rest["next"] is None


def test_a_host_killed_and_started_again_keeps_rewards_and_forgets_replies(
        party: Party) -> None:
    yan = party.client("Yan")
    keys = yan.keys
    made = yan.ok("create", rid=5, game="pika", players=2)
    tid = yan.table_with_bots("pikac", 2, seed=4)
    play_all([yan], tid)
    reward = yan.wait(lambda m: m["type"] == "reward")
    party.restart()
    assert party.host.key == yan.server_key.decode()      # its key is in --data
    # The old socket reconnects by itself, to a host that does not know the connection.
    yan.refused("hello_first", "ping")
    yan.close()
    back = party.client(keys=keys)
    assert back.hello("Yan")["resumed"] is True               # his name is his key's
    assert back.ok("rewards")["rewards"][0]["id"] == reward["id"]
    again = back.ok("create", rid=5, game="pika", players=2)  # no reply remembered: done anew
    assert again["table"]["id"] != made["table"]["id"]
