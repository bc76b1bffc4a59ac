"""Key pairs and known hosts (issue 12): files of mode 0600 in directories of mode 0700, one
pair per place made once, fingerprints people can compare, and trust on first use."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest
import zmq

from cardparty.net.trust import keys
from cardparty.net.trust.keydesk import KeyDesk, fetch_key
from cardparty.net.trust.known_hosts import CHANGED, KNOWN, NEW, HostKeyError, KnownHosts


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_tests_never_use_the_real_home() -> None:
    home = os.environ["CARDPARTY_HOME"]
    assert Path(home).resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert str(keys.key_dir("config")).startswith(home)
    assert str(keys.key_dir("data")).startswith(home)


def test_a_key_pair_is_made_once_with_mode_0600(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    first = keys.client_keys(folder)
    assert keys.client_keys(folder) == first               # the same pair, read back
    assert mode(folder) == 0o700
    for f in folder.iterdir():
        assert mode(f) == 0o600, f
    assert {f.name for f in folder.iterdir()} == {"player.key", "player.key_secret"}
    assert first.secret.decode() not in (folder / "player.key").read_text()
    other = keys.host_keys(tmp_path / "data")
    assert other.public != first.public
    assert (tmp_path / "data" / "host.key_secret").exists()


def test_the_default_places_are_the_users_directories() -> None:
    player = keys.client_keys()
    host = keys.host_keys()
    home = Path(os.environ["CARDPARTY_HOME"])
    assert mode(home / "config" / "player.key_secret") == 0o600
    assert mode(home / "data" / "host.key_secret") == 0o600
    assert player != host


def test_a_secret_file_others_may_read_is_refused(tmp_path: Path) -> None:
    keys.client_keys(tmp_path)
    (tmp_path / "player.key_secret").chmod(0o644)
    with pytest.raises(keys.KeyFileError, match="chmod 600"):
        keys.client_keys(tmp_path)


def test_a_damaged_key_file_is_refused_with_a_way_out(tmp_path: Path) -> None:
    (tmp_path / "player.key_secret").write_text("nothing here\n")
    (tmp_path / "player.key_secret").chmod(0o600)
    with pytest.raises(keys.KeyFileError, match="remove"):
        keys.client_keys(tmp_path)


def test_fingerprints_are_short_stable_and_tell_keys_apart() -> None:
    a, b = keys.KeyPair.generate(), keys.KeyPair.generate()
    assert len(a.fingerprint) == 19 and a.fingerprint.count("-") == 3
    assert keys.fingerprint(a.public) == keys.fingerprint(a.public.decode())
    assert a.fingerprint != b.fingerprint
    assert keys.same_fingerprint(a.fingerprint.upper().replace("-", " "), a.fingerprint)
    assert not keys.same_fingerprint(a.fingerprint, b.fingerprint)
    with pytest.raises(ValueError):
        keys.fingerprint(b"not a key")


def test_known_hosts_trust_on_first_use(tmp_path: Path) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    a, b = keys.KeyPair.generate(), keys.KeyPair.generate()
    assert known.check("tcp://10.0.0.5:7770", a.public) == NEW
    known.remember("tcp://10.0.0.5:7770", a.public, "Eva's\x1b[2J party\nforged")
    assert mode(tmp_path / "known_hosts") == 0o600
    assert known.check("10.0.0.5:7770", a.public) == KNOWN
    assert known.status("10.0.0.9:7770", a.public) == KNOWN      # the host moved: same key
    assert known.status("10.0.0.9:7770", b.public) == NEW
    assert known.status("10.0.0.5:7770", b.public) == CHANGED
    with pytest.raises(HostKeyError) as refused:
        known.check("10.0.0.5:7770", b.public)
    assert "cardparty hosts --forget 10.0.0.5:7770" in refused.value.message
    assert a.fingerprint in refused.value.message and b.fingerprint in refused.value.message
    text = (tmp_path / "known_hosts").read_text()
    assert "\x1b" not in text and len(text.splitlines()) == 2    # the name cannot forge a line
    assert known.forget("10.0.0.5:7770")
    assert not known.forget("10.0.0.5:7770")
    assert known.check("10.0.0.5:7770", b.public) == NEW


def test_forget_by_fingerprint(tmp_path: Path) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    a = keys.KeyPair.generate()
    known.remember("10.0.0.5:7770", a.public)
    known.remember("10.0.0.6:7770", a.public)
    assert known.forget(a.fingerprint)
    assert known.entries() == []


def test_the_key_desk_tells_the_key_and_ignores_anything_else() -> None:
    ctx = zmq.Context()
    pair = keys.KeyPair.generate()
    desk = KeyDesk("tcp://127.0.0.1:*", pair, "desk-host")
    try:
        host_address = desk.address.rsplit(":", 1)[0] + f":{int(desk.address.rsplit(':')[-1]) - 1}"
        junk = ctx.socket(zmq.DEALER)
        junk.connect(desk.address)
        junk.send(b"x" * 1000)                            # too big: dropped by ZeroMQ
        junk.send_multipart([b"cardparty key?", b"more"])  # not the question: no answer
        assert fetch_key(host_address, ctx=ctx) == (pair.public, "desk-host")
        assert not junk.poll(200)
        junk.close(0)
    finally:
        desk.close()
        ctx.term()


def test_fetching_a_key_where_nobody_answers_fails_in_words() -> None:
    with pytest.raises(ConnectionError, match="no cardparty host"):
        fetch_key("tcp://127.0.0.1:9", timeout=0.3)


def test_many_threads_making_the_first_key_pair_at_once_agree(tmp_path: Path) -> None:
    import threading

    got: list[keys.KeyPair] = []
    threads = [threading.Thread(target=lambda: got.append(keys.client_keys(tmp_path)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and len(set(got)) == 1
    assert keys.client_keys(tmp_path) == got[0]
    assert got[0].public.decode() in (tmp_path / "player.key").read_text()
    assert [f.name for f in tmp_path.iterdir() if f.name.endswith(".tmp")] == []
