"""A restart forgets nothing (issue 15): every player the store knows keeps his token, his
tables and his rights; a friends table's creator who had not sat yet is still its creator.
Parts on a real SQLite file, restarted by building them again (hostkit)."""

from __future__ import annotations

from pathlib import Path

from tests.net.hostkit import Kit


def restart(kit: Kit, data: Path) -> Kit:
    kit.parts.close()
    return Kit(data=data)


def test_players_the_store_knows_are_not_forgotten_by_the_first_sweep(tmp_path: Path) -> None:
    """Reloaded players got ``last_seen = 0`` and the first sweep forgot everyone not
    seated."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva")
    token = eva.secret
    kit = restart(kit, tmp_path)
    kit.tick(1.0)
    kit.tick(5.0)
    back = kit.player("Eva", token=token)
    assert back.token == eva.token and back.id == eva.id
    assert kit.out.take(back, "welcome")[0]["resumed"] is True


def test_a_friends_table_creator_who_had_not_sat_keeps_his_rights(tmp_path: Path) -> None:
    """He was refused at his own table after a restart (``not_invited``, ``not_creator``)."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva")
    token = eva.secret
    tid = kit.open_table("pika", eva, 3, mode="friends")
    kit = restart(kit, tmp_path)
    kit.tick(1.0)
    kit.tick(300.0)
    eva = kit.player("Eva", token=token)
    assert tid in eva.owns
    kit.ask(eva, "invite", table=tid, names=["Bob"])
    kit.ask(eva, "bots", table=tid, count=1)
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "strangers", table=tid, allow=False)
    assert kit.table(tid).seats[1].player is eva


def test_the_owner_of_a_table_is_kept_while_it_lasts_without_a_restart() -> None:
    kit = Kit(keep_over=60.0)
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2, mode="friends")
    bob = kit.player("Bob")
    kit.ask(eva, "invite", table=tid, names=["Bob"])
    kit.ask(bob, "sit", table=tid)          # someone present keeps the open table
    kit.tick(5.0, alive=(bob,))
    kit.tick(50.0, alive=(bob,))
    kit.tick(50.0, alive=(bob,))        # Eva gone longer than keep_over: still the owner
    assert eva.token in kit.parts.roster.players


def test_seats_strangers_and_invitations_survive_a_restart(tmp_path: Path) -> None:
    kit = Kit(data=tmp_path)
    eva, bob = kit.player("Eva"), kit.player("Bob")
    tokens = eva.secret, bob.secret
    tid = kit.open_table("pika", eva, 3, strangers=False)
    kit.ask(eva, "invite", table=tid, names=["Bob"])
    kit.ask(bob, "sit", table=tid)
    kit = restart(kit, tmp_path)
    kit.tick(5.0)
    eva, bob = kit.player("Eva", token=tokens[0]), kit.player("Bob", token=tokens[1])
    ht = kit.table(tid)
    assert ht.strangers is False and ht.seats[0].player is bob
    kit.refused("not_invited", kit.player("Zed"), "sit", table=tid)
    kit.ask(eva, "remove", table=tid, seat=0)


def test_the_store_holds_no_session_token(tmp_path: Path) -> None:
    """The database held session tokens in clear: a copy of it resumed anyone."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2, mode="friends")
    kit.ask(eva, "sit", table=tid)
    kit.parts.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("host"))
    assert eva.secret.encode() not in raw
    kit = Kit(data=tmp_path)
    assert kit.player("Eva", token=eva.secret).id == eva.id


def test_a_store_of_an_older_host_has_its_tokens_hashed_and_still_resumes(
        tmp_path: Path) -> None:
    import sqlite3

    import msgpack

    kit = Kit(data=tmp_path)
    eva = kit.player("Eva")
    tid = kit.open_table("pika", eva, 2, mode="friends")
    kit.ask(eva, "sit", table=tid)
    kit.parts.close()
    with sqlite3.connect(tmp_path / "host.sqlite3") as con:   # as an older host wrote it
        con.execute("UPDATE players SET token = ?", (eva.secret,))
        (packed,) = con.execute("SELECT meta FROM tables").fetchone()
        meta = msgpack.unpackb(packed, raw=False)
        meta["creator"][0] = eva.secret
        meta["seats"][0]["token"] = eva.secret
        con.execute("UPDATE tables SET meta = ?", (msgpack.packb(meta),))
        con.execute("PRAGMA user_version = 0")
        con.execute("PRAGMA application_id = 0")
    con.close()
    kit = Kit(data=tmp_path)
    back = kit.player("Eva", token=eva.secret)
    assert back.id == eva.id and kit.table(tid).seats[0].player is back
    assert tid in back.owns
    kit.parts.close()
    raw = (tmp_path / "host.sqlite3").read_bytes()
    assert eva.secret.encode() not in raw
