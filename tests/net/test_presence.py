"""Who is away, as the host says it (issue 27, item 12): ``connected`` in a table summary's
seats and in a view's ``players`` is false only while the human sitting there is
disconnected. A player who left a finished table is not missed there: he shows as away
neither in the lobby nor at that table while he plays at another."""

from __future__ import annotations

from typing import Any

from cardparty.net.host.model import Player
from tests.net.hostkit import Kit


def finished(kit: Kit, eva: Player, petr: Player) -> str:
    """A two-seat Pika table of Eva's and Petr's, played out."""
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1, "hand_size": 2})
    for p in (eva, petr):
        kit.ask(p, "sit", table=tid)
        kit.ask(p, "ready", table=tid)
    kit.play_out(tid, {0: eva, 1: petr})
    assert kit.table(tid).status == "over"
    return tid


def seats(kit: Kit, who: Player, tid: str) -> list[dict[str, Any]]:
    """The seats of ``tid`` in the listing ``who`` gets now."""
    listed = kit.ask(who, "tables", offset=0)
    assert listed is not None
    return next(t["seats"] for t in listed["tables"] if t["id"] == tid)


def test_a_player_who_left_a_finished_table_is_not_away_there() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = finished(kit, eva, petr)
    kit.out.take(eva)
    kit.ask(petr, "leave", table=tid)
    pushed = kit.out.take(eva, "table")[-1]["table"]["seats"]
    assert [s["name"] for s in pushed] == ["Eva", "Petr"] and pushed[1]["player"] is None
    assert pushed[1]["connected"], "Petr is connected: he left the table, he is not away"
    kit.ask(eva, "leave", table=tid)
    assert [s["connected"] for s in seats(kit, eva, tid)] == [True, True]
    assert [s["connected"] for s in seats(kit, petr, tid)] == [True, True]


def test_playing_at_another_table_is_not_being_away_at_the_old_one() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    old = finished(kit, eva, petr)
    kit.ask(petr, "leave", table=old)
    new = kit.open_table("pika", petr, 2, settings={"dealer": 1})
    kit.ask(petr, "sit", table=new)
    kit.ask(petr, "bots", table=new, count=1, level="normal")
    kit.ask(petr, "ready", table=new)
    assert kit.table(new).status == "playing"
    kit.out.take(eva)
    kit.ask(eva, "snapshot", table=old)             # Eva reads the old table again
    view = kit.out.take(eva, "view")[-1]
    assert view["players"][1] == {"connected": True, "standin": False}
    assert seats(kit, eva, old)[1]["connected"]


def test_a_player_disconnected_is_away_at_every_table_he_sits_at() -> None:
    kit = Kit()
    eva, petr = kit.player("Eva"), kit.player("Petr")
    tid = finished(kit, eva, petr)
    kit.out.take(eva)
    kit.tick(3.5, alive=(eva,))       # heartbeat 1 s x liveness 3: Petr is silent too long
    assert not petr.connected
    assert not kit.out.take(eva, "table")[-1]["table"]["seats"][1]["connected"]
    assert [s["connected"] for s in seats(kit, eva, tid)] == [True, False]
