"""A host whose key pair had to be made (issue 27, item 3): ``cardparty host`` says so in
one line with the new fingerprint, on the first start and when the key file went missing,
and says nothing of it while the pair is there; clients that knew the old key refuse the new
one until ``cardparty hosts --forget`` (the line says how)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from cardparty.net.trust import keys


def started_and_stopped(data: Path) -> str:
    """``cardparty host --data DATA`` once it listens, stopped: what it said on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardparty.client.cli", "host", "--bind", "127.0.0.1",
         "--port", "0", "--no-advertise", "--bot-workers", "0", "--log-level", "error",
         "--data", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert "listening on tcp://" in proc.stdout.readline()
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert "Traceback" not in err, err
    return err


def new_key_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if "new key pair" in line]


def test_a_key_pair_made_anew_is_said_in_one_line_with_its_fingerprint(tmp_path: Path
                                                                        ) -> None:
    first = new_key_lines(started_and_stopped(tmp_path))
    made = keys.host_keys(tmp_path)
    assert len(first) == 1 and made.fingerprint in first[0], first
    assert str(tmp_path) in first[0] and "cardparty hosts --forget" in first[0]
    assert new_key_lines(started_and_stopped(tmp_path)) == [], "the same pair: nothing said"
    (tmp_path / "host.key_secret").unlink()                # the key file went missing
    again = new_key_lines(started_and_stopped(tmp_path))
    remade = keys.host_keys(tmp_path)
    assert remade.fingerprint != made.fingerprint
    assert len(again) == 1 and remade.fingerprint in again[0], again
    assert made.fingerprint not in again[0]
    assert re.search(r"\b[a-z0-9]{4}(-[a-z0-9]{4}){3}\b", again[0])


def test_a_key_file_says_whether_it_was_made_just_now(tmp_path: Path) -> None:
    made = keys.key_file(tmp_path, "host")
    kept = keys.key_file(tmp_path, "host")
    assert made.made and not kept.made and made.pair == kept.pair
    assert made.path == kept.path == tmp_path / "host.key_secret"
