"""Friends tables and invitations through the client, against a real host on 127.0.0.1 (MO-4):
Eva creates a friends table with the form, invites Bob with the ``i`` key, Bob's client says so
in one line and marks the table in the lobby, and Bob sits; Zoe, not invited, is told who
created the table."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.dialog import CreateForm, TextField
from cardparty.client.lobby_rows import invites_me
from cardparty.client.render import Renderer
from cardparty.client.theme import ASCII, UNICODE
from cardparty.net.host import Host
from tests.client.clientkit import form_pick, player


def lobby_text(c: Controller, ascii_only: bool = False) -> list[str]:
    r = Renderer(c, ASCII if ascii_only else UNICODE, ascii_only)
    return "".join(f[1] for f in r.screen("lobby") + r.status()).splitlines()


def test_mo4_eva_invites_bob_by_the_key_and_bob_sees_it_and_sits(host: Host) -> None:
    eva, pe = player(host.address, "Eva")
    bob, pb = player(host.address, "Bob")
    zoe, pz = player(host.address, "Zoe")
    try:
        pe.until(lambda: eva.connection == "connected" and bool(eva.games))
        pb.until(lambda: bob.connection == "connected")
        eva.key("c")
        form = eva.dialog
        assert isinstance(form, CreateForm)
        assert next(r for r in form.rows if r.key == "mode").value == "open"   # the default
        form_pick(eva, "game", "Pika")
        form_pick(eva, "players", 3)
        form_pick(eva, "mode", "friends")
        form.cursor = len(form.rows) - 1
        eva.key("enter")
        pe.until(lambda: bool(eva.tables) and eva.tables[0]["seats"][0] == "Eva")
        tid = eva.tables[0]["id"]
        assert eva.tables[0]["mode"] == "friends"
        assert any(f" {tid} " in line and "friends" in line for line in lobby_text(eva))

        # Zoe is not invited: the host refuses her, naming who created the table.
        pz.until(lambda: bool(zoe.tables))
        assert not invites_me(zoe, zoe.tables[0])
        zoe.key("enter")
        pz.until(lambda: "Eva created this friends table" in zoe.error)

        # Eva also opens an open table; i on it still invites to her friends table.
        eva.link.request("create", game="pika", players=2, mode="open")
        pe.until(lambda: len(eva.tables) == 2 and eva.tables[1]["seats"][0] == "Eva")
        eva.key("down")
        # Eva presses i, types two names (commas: a name may hold a space), Enter.
        eva.key("i")
        assert isinstance(eva.dialog, TextField) and f"to {tid} " in eva.dialog.prompt
        for k in "bob, Max Power":
            eva.key("space" if k == " " else k)
        eva.key("enter")
        assert eva.dialog is None
        # as Bob spells his name, not as typed
        pe.until(lambda: "invited Bob, Max Power" in eva.notice)
        assert host.tables[tid].access.invited == {"Bob": "Eva", "Max Power": "Eva"}

        # Bob's client says so in one line and marks the table; Enter on it sits him.
        pb.until(lambda: f"Eva invites you to table {tid} (Pika)" in bob.notice)
        assert "\n" not in bob.notice and bob.dialog is None
        pb.until(lambda: bool(bob.tables) and invites_me(bob, bob.tables[0]))
        lines = lobby_text(bob)
        row = next(line for line in lines if f" {tid} " in line)
        assert "invited" in row and "friends" in row
        assert all(len(line) <= 80 for line in lines)
        assert all(line.isascii() for line in lobby_text(bob, ascii_only=True))
        bob.key("b")                                 # only Eva may add bots here:
        assert bob.dialog is None                    # not offered
        bob.command("bot")                           # typed all the same: the host says
        pb.until(lambda: "only Eva" in bob.error)
        bob.key("enter")
        pb.until(lambda: any(s and s.startswith("Bob") for s in bob.tables[0]["seats"]))
        assert not invites_me(bob, bob.tables[0])
        assert not any("invited" in line for line in lobby_text(bob))

        # Eva, the creator, adds the bot; both say ready and the game starts.
        eva.key("up")                                # back onto the friends table
        eva.key("b")
        eva.key("enter")
        pe.until(lambda: eva.tables[0]["seats"][2] is not None)
        eva.key("r")
        bob.key("r")
        pe.until(lambda: eva.screen == "table")
        pb.until(lambda: bob.screen == "table")
        assert {eva.table.seat, bob.table.seat} == {0, 1}

        # Another round is asked of the host at this same table, once this one is over:
        # during the round the host says so in one line and no new table appears.
        listed = sorted(t["id"] for t in eva.tables)
        eva.link.request("again", table=tid)
        pe.until(lambda: "not over" in eva.error)
        assert "\n" not in eva.error and sorted(t["id"] for t in eva.tables) == listed
        for c in (eva, bob, zoe):
            assert c.failures == []
    finally:
        for c in (eva, bob, zoe):
            c.exit()
