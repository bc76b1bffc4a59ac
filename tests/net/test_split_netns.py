"""No split brain, no lost move (issue 29, docs/protocol.md "No split brain"): a host, its
standby and two players, each a machine of its own (network namespaces this test makes,
joined by two bridges with one link between them: the host and Ann on one side, the standby
and Ben on the other). The link is cut while every machine lives: the host drops its silent
standby and goes on with Ann's table; Ben loses the host and follows its word to the
standby, which takes over (epoch 2) and serves Ben's table alone: each table is served on
one side only. The link is healed: the two hosts meet, the old one hands its files over and
yields, Ann is moved to the new host and finds her table there as she left it, and the old
host becomes the new one's standby. Every move either player was told of is in the table
the last host keeps. Needs root and iproute2; skips with the reason otherwise."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from cardparty.core.contract import Move
from tests.net.standbykit import (
    CARDPARTY,
    PLAYER,
    Proc,
    audit,
    kept_table,
    lost_moves,
    standby_key,
)
from tests.netns import two_segments


def last_state(proc: Proc) -> dict[str, Any]:
    for line in reversed(proc.lines):
        if line.startswith("{"):
            return dict(json.loads(line))
    return {}


def progress(proc: Proc, more: int, timeout: float = 20.0) -> dict[str, Any]:
    """Wait until the player has ``more`` moves acknowledged than now."""
    start = last_state(proc).get("n", 0)
    end = time.monotonic() + timeout
    while last_state(proc).get("n", 0) < start + more:
        assert time.monotonic() < end, "\n".join(proc.lines[-20:])
        time.sleep(0.05)
    return last_state(proc)


def test_a_cut_link_with_players_on_both_sides_leaves_one_history(tmp_path: Path) -> None:
    with two_segments("cps", "10.77.9", ["host", "ann"], ["standby", "ben"]) as (m, link):
        (h_ns, h_ip), (s_ns, s_ip) = m["host"], m["standby"]
        a_data, b_data = tmp_path / "a", tmp_path / "b"
        host = Proc([*CARDPARTY, "host", "--bind", h_ip, "--port", "7770", "--data",
                     str(a_data), "--standby-key", standby_key(b_data), "--idle", "1.5",
                     "--heartbeat", "0.3", "--no-advertise"], h_ns)
        host.wait_for("listening on")
        standby = Proc([*CARDPARTY, "host", "--bind", s_ip, "--port", "7770", "--data",
                        str(b_data), "--standby-for", f"{h_ip}:7770", "--idle", "1.5",
                        "--heartbeat", "0.3",
                        "--no-advertise"], s_ns)
        standby.wait_for("attached to the host")
        ann = Proc([CARDPARTY[0], "-c", PLAYER, f"{h_ip}:7770", "Ann", "pika", "0.1", "new"],
                   m["ann"][0])
        procs = [host, standby, ann]
        try:
            said = json.loads(ann.wait_for(r'^\{"table"').string)
            shared = said["shared"]                      # Ann's and Ben's
            ben = Proc([CARDPARTY[0], "-c", PLAYER, f"{h_ip}:7770", "Ben", "pika", "0.1",
                        shared], m["ben"][0])
            procs.append(ben)
            tables = {ann: said["table"],
                      ben: json.loads(ben.wait_for(r'^\{"table"').string)["table"]}
            progress(ann, 3)
            progress(ben, 3)
            ann_shared = last_state(ann)["m"]
            shared_before = ann_shared + last_state(ben)["m"]
            assert shared_before > 0
            link(False)                                   # the cut, everybody alive
            host.wait_for("the standby at .* is dropped")
            standby.wait_for(r"taking over .* as epoch 2 .*its players followed")
            ben_after = progress(ben, 5)
            assert ben_after["epoch"] == 2 and ben_after["moved"] == [f"{s_ip}:7770"]
            ann_during = progress(ann, 5)
            assert ann_during["epoch"] == 1 and ann_during["moved"] == []
            # The shared table is served beyond the cut (Ben followed), so it waits here: at
            # most the move Ann had in flight at the cut.
            assert ann_during["m"] <= ann_shared + 1
            link(True)                                    # the heal
            host.wait_for("stood down", 30)
            healed = standby.wait_for(
                r"healed: \d+ tables of the old host carried in \((.*?)\)", 30)
            assert tables[ann] in healed.group(1).split(", ")
            ann_after = progress(ann, 5, 30)
            assert ann_after["epoch"] == 2 and ann_after["moved"] == [f"{s_ip}:7770"]
            host.wait_for("attached to the host", 30)     # the old host is the standby now
            progress(ben, 3)
            end = time.monotonic() + 20                   # the shared table goes on
            while last_state(ann)["m"] + last_state(ben)["m"] < shared_before + 4:
                assert time.monotonic() < end, "the shared table never went on"
                time.sleep(0.05)
            for p in (ann, ben):
                assert p.proc.stdin is not None
                p.proc.stdin.write("stop\n")
                p.proc.stdin.flush()
                p.wait_for(r'^\{"acked"')
        finally:
            for p in procs:
                p.kill()
            for name, p in zip(("host", "standby", "ann", "ben"), procs, strict=True):
                print(f"--- {name}", *p.lines[-25:], sep="\n")   # shown when the test fails
        shared_acked: dict[int, Move] = {}
        for p in (ann, ben):
            final = last_state(p)
            assert "older" not in final["errors"], final["errors"]
            acked = {int(v): Move(k, tuple(c)) for v, (k, c) in final["acked"].items()}
            kept = kept_table(b_data, tables[p])
            assert lost_moves(acked, kept) == [], p
            shared_acked.update({int(v): Move(k, tuple(c))
                                 for v, (k, c) in final["shared"].items()})
        assert lost_moves(shared_acked, kept_table(b_data, shared)) == []
        audit(b_data)
