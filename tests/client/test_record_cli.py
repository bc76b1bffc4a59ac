"""``cardparty record list|export`` against a real host and ``cardparty replay FILE`` offline:
a bot client plays a round, the same user's key and name list and export its record, and the
file replays to the same final views; a file that cannot be replayed is refused in one line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from cardparty.core.record import Replay, loads

CARDPARTY = [sys.executable, "-m", "cardparty.client.cli"]


def test_a_played_round_is_listed_exported_and_replayed_offline(tmp_path: Path) -> None:
    host = subprocess.Popen([*CARDPARTY, "host", "--bind", "127.0.0.1", "--port", "0",
                             "--heartbeat", "0.1", "--name", "test", "--log-level", "warning",
                             "--bot-workers", "0", "--data", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        found = re.search(r"tcp://127\.0\.0\.1:\d+", host.stdout.readline())
        assert found, "the host printed no address"
        address = found.group(0)
        played = subprocess.run([*CARDPARTY, "bot-client", "--json", "--connect", address,
                                 "--create", "pika", "--players", "2", "--fill-bots",
                                 "--name", "Rita", "--seed", "3"],
                                capture_output=True, text=True, timeout=120)
        assert played.returncode == 0, played.stderr
        end = json.loads(played.stdout.splitlines()[-1])
        listed = subprocess.run([*CARDPARTY, "record", "list", "--json", "--connect",
                                 address, "--name", "Rita"],
                                capture_output=True, text=True, timeout=60)
        assert listed.returncode == 0, listed.stderr
        (row,) = json.loads(listed.stdout)
        assert row["table"] == end["table"] and row["names"][0] == "Rita"
        out = tmp_path / "round.json"
        exported = subprocess.run([*CARDPARTY, "record", "export", row["id"], "--output", str(out),
                                   "--connect", address, "--name", "Rita"],
                                  capture_output=True, text=True, timeout=60)
        assert exported.returncode == 0, exported.stderr
        again = subprocess.run([*CARDPARTY, "record", "export", row["id"], "--output", str(out),
                                "--connect", address, "--name", "Rita"],
                               capture_output=True, text=True, timeout=60)
        assert again.returncode == 1 and "never overwrites" in again.stderr
    finally:
        os.kill(host.pid, signal.SIGTERM)
        host.wait(30)
    record = loads(out.read_text())
    assert record.result is not None and record.result["places"] == end["places"]
    final = subprocess.run([*CARDPARTY, "replay", str(out), "--final", "--json"],
                           capture_output=True, text=True, timeout=60)
    assert final.returncode == 0, final.stderr
    views = json.loads(final.stdout)["views"]
    replay = Replay(record)
    assert views == {str(s): replay.view(replay.steps, s) for s in range(2)}
    told = subprocess.run([*CARDPARTY, "replay", str(out), "--seat", "0"],
                          capture_output=True, text=True, timeout=60)
    assert told.returncode == 0 and "hand:" in told.stdout and "places" in told.stdout
    data = json.loads(out.read_text())
    data["plugins"]["pika"] = "cardparty 9.9"
    data["steps"][2]["move"]["cards"] = ["W+4", "W+4"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    refused = subprocess.run([*CARDPARTY, "replay", str(broken)], capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 1 and refused.stdout == ""
    (line,) = refused.stderr.splitlines()
    assert "cardparty 9.9 made it" in line and "step 3" in line
