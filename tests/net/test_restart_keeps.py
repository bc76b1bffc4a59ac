"""A restart forgets nothing (issue 15): every player the store knows (his key and name,
MO-1) keeps his tables and his rights; a friends table's creator who had not sat yet is still
its creator. Parts on a real SQLite file, restarted by building them again (hostkit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardparty.net.host.clock import ManualClock
from cardparty.net.wire.protocol import ProtocolError
from tests.net.hostkit import Kit

#: The keys CURVE would have authenticated (public keys are 40 characters of Z85).
EVA = b"E" * 40
BOB = b"B" * 40
MALLORY = b"M" * 40


def restart(kit: Kit, data: Path) -> Kit:
    kit.parts.close()
    return Kit(data=data)


def test_players_the_store_knows_are_not_forgotten_by_the_first_sweep(tmp_path: Path) -> None:
    """Reloaded players got ``last_seen = 0`` and the first sweep forgot everyone not
    seated."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=EVA)
    kit = restart(kit, tmp_path)
    kit.tick(1.0)
    kit.tick(5.0)
    back = kit.player("Eva", key=EVA)
    assert back.token == eva.token and back.id == eva.id
    assert kit.out.take(back, "welcome")[0]["resumed"] is True


def test_a_friends_table_creator_who_had_not_sat_keeps_his_rights(tmp_path: Path) -> None:
    """He was refused at his own table after a restart (``not_invited``, ``not_creator``)."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=EVA)
    tid = kit.open_table("pika", eva, 3, mode="friends")
    kit = restart(kit, tmp_path)
    kit.tick(1.0)
    kit.tick(300.0)
    eva = kit.player("Eva", key=EVA)
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
    eva, bob = kit.player("Eva", key=EVA), kit.player("Bob", key=BOB)
    tid = kit.open_table("pika", eva, 3, strangers=False)
    kit.ask(eva, "invite", table=tid, names=["Bob"])
    kit.ask(bob, "sit", table=tid)
    kit = restart(kit, tmp_path)
    kit.tick(5.0)
    eva, bob = kit.player("Eva", key=EVA), kit.player("Bob", key=BOB)
    ht = kit.table(tid)
    assert ht.access.strangers is False and ht.seats[0].player is bob
    kit.refused("not_invited", kit.player("Zed"), "sit", table=tid)
    kit.ask(eva, "remove", table=tid, seat=0)


def test_after_a_restart_a_name_is_still_its_keys_and_a_token_is_nobody(
        tmp_path: Path) -> None:
    """What resumes a player after a restart is his key with his name: another key saying
    his name is refused, and a token (all an older client had) stands for nobody."""
    kit = Kit(data=tmp_path)
    eva = kit.player("Eva", key=EVA)
    tid = kit.open_table("pika", eva, 2, mode="friends")
    kit.ask(eva, "sit", table=tid)
    kit = restart(kit, tmp_path)
    with pytest.raises(ProtocolError) as info:
        kit.player("Eva", token=eva.token, key=MALLORY)
    assert info.value.code == "name_taken"
    other = kit.player("Mallory", token=eva.token, key=MALLORY)
    assert other.id != eva.id and tid not in other.tables and tid not in other.owns
    back = kit.player("Eva", key=EVA)
    assert back.id == eva.id and kit.table(tid).seats[0].player is back and tid in back.owns


def test_a_spectator_who_watched_just_before_a_restart_is_watching_after_it(
        tmp_path: Path) -> None:
    """Watching did not keep the table: a spectator who came after the table's last move
    was lost by a restart, and saw nothing of it when he came back."""
    kit = Kit(data=tmp_path)
    eva, bob = kit.player("Eva", key=EVA), kit.player("Bob", key=BOB)
    tid = kit.open_table("pika", eva, 2, settings={"dealer": 1})
    kit.ask(eva, "sit", table=tid)
    kit.ask(eva, "bots", table=tid, count=1)
    kit.ask(eva, "ready", table=tid)
    kit.play_until(tid, eva, 2)
    kit.ask(bob, "watch", table=tid)          # and no move after it
    kit = restart(kit, tmp_path)
    bob = kit.player("Bob", key=BOB)
    views = kit.out.take(bob, "view")
    assert len(views) == 1 and views[0]["table"] == tid and views[0]["seat"] is None


def test_a_finished_table_is_kept_from_its_end_not_from_the_restart(tmp_path: Path) -> None:
    """``keep_over`` counts from the end of the round on the wall clock: a table that ended
    50 s before a restart is dropped 10 s after it (keep_over 60 s), not a minute later, so
    a host restarted (or taken over) every few minutes does not keep every table it ever
    finished; one that ended just before the restart is still there."""
    clock = ManualClock()
    kit = Kit(clock, data=tmp_path, keep_over=60.0)
    eva = kit.player("Eva", key=EVA)
    ended = []
    for wait in (50.0, 0.0):                 # one table ends 50 s before the other
        tid = kit.open_table("pika", eva, 2)
        kit.ask(eva, "sit", table=tid)
        kit.ask(eva, "bots", table=tid, count=1)
        kit.ask(eva, "ready", table=tid)
        kit.play_out(tid, {0: eva})
        assert kit.table(tid).status == "over"
        ended.append(tid)
        kit.tick(wait, alive=(eva,))
    old, new = ended
    kit.parts.close()
    later = ManualClock(start=clock.now(), wall=clock.w)     # the same wall clock, on
    kit = Kit(later, data=tmp_path, keep_over=60.0)
    assert {old, new} <= set(kit.parts.tables.all)
    eva = kit.player("Eva", key=EVA)
    kit.tick(11.0, alive=(eva,))
    assert old not in kit.parts.tables.all                # ended 61 s ago
    assert new in kit.parts.tables.all                    # ended 11 s ago


def test_a_finished_table_written_again_after_a_restart_still_counts_from_its_end(
        tmp_path: Path) -> None:
    """A finished table's row written again after a restart (a player leaves it) keeps the
    time of the round's end: a chain of takeovers, each writing the rows again, kept every
    table it ever finished (a party moved every minute restored hundreds)."""
    clock = ManualClock()
    kit = Kit(clock, data=tmp_path, keep_over=60.0)
    eva, bob = kit.player("Eva", key=EVA), kit.player("Bob", key=b"B" * 40)
    tid = kit.open_table("pika", eva, 2)
    kit.ask(eva, "sit", table=tid)
    kit.ask(bob, "sit", table=tid)
    kit.ask(eva, "ready", table=tid)
    kit.ask(bob, "ready", table=tid)
    kit.play_out(tid, {0: eva, 1: bob})
    assert kit.table(tid).status == "over"
    kit.tick(40.0, alive=(eva, bob))
    for _ in range(2):                       # two restarts 10 s apart, the row written between
        kit.parts.close()
        clock = ManualClock(start=clock.now(), wall=clock.w)
        kit = Kit(clock, data=tmp_path, keep_over=60.0)
        assert tid in kit.parts.tables.all
        eva, bob = kit.player("Eva", key=EVA), kit.player("Bob", key=b"B" * 40)
        if kit.table(tid).seat_of(bob) is not None:
            kit.ask(bob, "leave", table=tid)     # its row written again
        kit.tick(10.0, alive=(eva, bob))
    kit.tick(1.0, alive=(eva, bob))
    assert tid not in kit.parts.tables.all, "ended 61 s ago"
