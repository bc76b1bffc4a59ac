"""Taking back a move through the client, against a real host on 127.0.0.1: at a friends
table whose creator allowed it, Petr presses u after his card; Eva's line asks her, y agrees
and both logs say the table went back; n says no and Petr is told why."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.net.host import Host
from tests.client.clientkit import Pump, player

#: Pika for two, Petr (seat 0) first: R1 R2 Y9 against R3 G2 G7, R5 turned.
SETTINGS = {"dealer": 1, "hand_size": 3,
            "deck": ["R1", "R2", "Y9", "R3", "G2", "G7", "R5", "B4", "B6"]}


def play_r1(petr: Controller, pp: Pump, eva: Controller, pe: Pump) -> None:
    version = petr.table.view.get("version")
    petr.link.send_move(petr.table_id, {"kind": "play", "cards": ["R1"], "choice": None})
    pp.until(lambda: petr.table.view.get("version") != version and len(petr.table.hand) == 2)
    pe.until(lambda: bool(eva.table.moves))


def test_u_asks_the_others_y_takes_the_move_back_and_n_keeps_it(host: Host) -> None:
    petr, pp = player(host.address, "Petr")
    eva, pe = player(host.address, "Eva")
    pp.until(lambda: petr.connection == "connected" and bool(petr.games))
    pe.until(lambda: eva.connection == "connected")
    petr.link.request("create", game="pika", players=2, mode="friends", undo=True, seed=3,
                      settings=SETTINGS)
    pp.until(lambda: bool(petr.tables) and petr.tables[0]["seats"][0] is not None)
    tid = petr.tables[0]["id"]
    assert petr.tables[0]["summary"]["undo"] is True
    petr.link.request("invite", table=tid, names=["Eva"])
    pp.until(lambda: "invited Eva" in petr.notice)
    eva.link.request("sit", table=tid, seat=1)
    petr.link.request("ready", table=tid)
    eva.link.request("ready", table=tid)
    pp.until(lambda: petr.screen == "table" and bool(petr.table.moves))
    pe.until(lambda: eva.screen == "table")

    play_r1(petr, pp, eva, pe)
    petr.key("u")
    pp.until(lambda: "waiting for Eva to agree" in petr.notice)
    pe.until(lambda: "Petr asks to take back 1 move: y agrees, n says no" in eva.notice)
    eva.key("y")
    said = "Petr takes back 1 move, as everybody at the table agreed"
    pp.until(lambda: said in petr.table.log and petr.table.hand == ["R1", "R2", "Y9"])
    pe.until(lambda: said in eva.table.log and not eva.table.moves)

    play_r1(petr, pp, eva, pe)
    petr.key("u")
    pe.until(lambda: "asks to take back" in eva.notice)
    eva.key("n")
    pp.until(lambda: "Petr's request to take back a move is dropped: Eva said no"
              in petr.notice)
    assert petr.table.hand == ["R2", "Y9"]
