"""A table its creator cannot sit at is not left in the lobby (issue 27, item 6), against a
real host keeping coins: the create form refuses an entry table of a stake above the
player's coins before anything is sent, in the host's words; and a create the host takes
but whose seat it then refuses is closed again by the client that asked for it."""

from __future__ import annotations

from cardparty.client.dialog import CreateForm
from tests.client.clientkit import form_pick, keeping_coins, player


def test_an_entry_table_above_ones_coins_makes_no_table() -> None:
    with keeping_coins(30.0) as host:
        eva, pump = player(host.address, "Eva")
        pump.until(lambda: eva.connection == "connected" and bool(eva.games)
                   and bool(eva.profile))
        eva.key("$")
        eva.key("g")
        eva.key("enter")                                  # the gold booster: 800 left
        pump.until(lambda: (eva.profile or {}).get("coins") == 800)
        eva.key("q")
        eva.key("c")
        form_pick(eva, "mode", "entry")
        form_pick(eva, "stake", 1000)
        form = eva.dialog
        assert isinstance(form, CreateForm)
        form.cursor = len(form.rows) - 1
        eva.key("enter")
        assert "not enough coins: the stake is 1000 and you have 800" in eva.error
        assert eva.screen == "lobby" and not host.tables
        # Sent all the same (another client, a profile not known yet): the host takes the
        # create, refuses the seat, and the table goes again.
        eva.request("create", game="pika", players=2, mode="entry", stake=1000)
        pump.until(lambda: "not enough coins" in eva.error)
        pump.until(lambda: all(t.status != "open" for t in host.tables.values()))
        pump.until(lambda: not any(t.get("status") == "open" for t in eva.tables))
        assert eva.failures == []
        eva.exit()
