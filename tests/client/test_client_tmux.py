"""End to end in a real terminal: tmux runs a host and two clients (``cardparty host``,
``cardparty join``) in separate panes of 80x24, and the test plays by keystrokes, reading
only the screens (``capture-pane``), the way a player would: a round of every installed game
to its end, bots in the other seats; and a client whose host disappears says so and
reconnects by itself when the host returns.

Each test runs its own tmux server (``tmux -L <unique>``) and kills only that server. Without
tmux these tests skip and say why (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cardparty.core.discovery import load_catalog

#: Every end-to-end terminal test file is marked so (one xdist group: one tmux at a time).
TMUX_MARKS = [
    pytest.mark.tmux,
    pytest.mark.xdist_group("tmux"),
    pytest.mark.skipif(shutil.which("tmux") is None,
                       reason="tmux is not installed: the end-to-end terminal tests need it "
                              "(.ci/run installs it)"),
]
pytestmark = TMUX_MARKS

CARDPARTY = str(Path(sys.executable).with_name("cardparty"))
#: Table settings that keep a round short (applied only where the game declares them).
#: Kakhead: a draw may be offered after 10 moves without progress (KH-12, its lowest bound),
#: so random keystrokes end the round by an offer and its acceptance, typed like any move,
#: in about 20 s instead of playing out some 400 moves (40 to 70 s).
FAST: dict[str, dict[str, int]] = {"pika": {"hand_size": 4}, "piquet": {"deals": 1},
                                  "pikac": {"dealer": 2}, "kakhead": {"offer_after": 10}}


class Tmux:
    """A private tmux server: one session, one window (one pane) per program, 80x24."""

    def __init__(self) -> None:
        self.server = f"cardparty-test-{uuid.uuid4().hex[:10]}"
        self.session = "e2e"
        self.started = False
        #: the server's socket file, once it runs
        self.socket = ""
        #: Where the clients keep their session tokens (client.tokens): never the user's.
        self.state = tempfile.mkdtemp(prefix="cardparty-tmux-state-")

    def tmux(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.server, *args], capture_output=True,
                             text=True, timeout=10)
        if out.returncode != 0 and args[0] not in ("kill-server",):
            raise RuntimeError(f"tmux {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout

    def run(self, name: str, command: str) -> None:
        env = (f"env -u NO_COLOR TERM=xterm-256color CARDPARTY_STATE_DIR={self.state} "
               f"{command}")
        if not self.started:
            self.tmux("new-session", "-d", "-s", self.session, "-x", "80", "-y", "24",
                      "-n", name, env)
            self.tmux("set-option", "-t", self.session, "remain-on-exit", "on")
            self.socket = self.tmux("display-message", "-p", "#{socket_path}").strip()
            self.started = True
        else:
            self.tmux("new-window", "-d", "-t", self.session, "-n", name, env)
        self.tmux("resize-window", "-t", f"{self.session}:{name}", "-x", "80", "-y", "24")

    def screen(self, name: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", f"{self.session}:{name}")

    def keys(self, name: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", f"{self.session}:{name}", *keys)

    def wait(self, name: str, what: Callable[[str], bool] | str, timeout: float = 20.0
             ) -> str:
        check = (lambda s: what in s) if isinstance(what, str) else what
        end = time.monotonic() + timeout
        while True:
            text = self.screen(name)
            if check(text):
                return text
            if time.monotonic() > end:
                raise AssertionError(f"{name}: waited {timeout}s for {what!r}; screen:\n{text}")
            time.sleep(0.05)

    def kill(self) -> None:
        """The server, its socket file (tmux leaves it behind) and the clients' state."""
        self.tmux("kill-server")
        if self.socket:
            Path(self.socket).unlink(missing_ok=True)
        shutil.rmtree(self.state, ignore_errors=True)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    t = Tmux()
    yield t
    t.kill()


def free_port() -> int:
    """A free port whose next port is free too: a host tells its key on its port + 1."""
    import socket
    while True:
        with socket.socket() as s, socket.socket() as after:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
            try:
                after.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port


def start_host(t: Tmux, port: int, window: str = "host", data: Path | None = None) -> None:
    """``cardparty host`` in ``window`` (keeping its tables in ``data``, when given)."""
    keep = f" --data {data}" if data is not None else ""
    t.run(window, f"{CARDPARTY} host --bind 127.0.0.1 --port {port} --heartbeat 0.5 "
                  f"--bot-delay 0.05{keep}")
    t.wait(window, "listening on")


def hand_line(screen: str) -> str:
    """The screen's line of the player's hand ("" when none is shown)."""
    return next((line for line in screen.splitlines() if line.startswith("Hand")), "")


def join(t: Tmux, name: str, port: int) -> None:
    """``cardparty join`` in a new pane; returns once the host has welcomed the player (the
    "connecting" banner is gone)."""
    t.run(name, f"{CARDPARTY} join 127.0.0.1:{port} --name {name}")
    t.wait(name, lambda s: "lobby" in s and "connecting" not in s and "host" not in s.split(
        "\n")[1])


#: How long a key's effect may take to show before the turn is read again: a redraw took 0.1 s
#: at worst with both cores busy, and a wait for a turn that passed meanwhile holds the round.
KEYED = 5.0


# A row inside the form's box: whatever of the lobby shows left of the box is not the label.
ROW = re.compile(r"│\s(\S[^│<]*?)\s+< (.*?) >")


def form_rows(screen: str) -> list[tuple[str, str]]:
    """The create form's rows as (label, value), top to bottom."""
    rows = []
    for line in screen.splitlines():
        m = ROW.search(line)
        if m:
            rows.append((m.group(1).strip(), m.group(2)))
    return rows


def set_row(t: Tmux, who: str, label: str, value: str, at: int) -> int:
    """Move the form's cursor from row ``at`` to ``label`` and step its value to ``value``
    (a number down or up, anything else onwards); the row's index."""
    for _ in range(60):
        rows = form_rows(t.screen(who))
        labels = [r[0] for r in rows]
        if label not in labels:
            time.sleep(0.05)
            continue
        index = labels.index(label)
        if index != at:
            t.keys(who, *(["Down"] * (index - at) if index > at else ["Up"] * (at - index)))
            at = index
        shown = rows[index][1]
        if shown == value:
            return at
        numeric = shown.replace(".", "").isdigit() and value.replace(".", "").isdigit()
        t.keys(who, "Left" if numeric and float(shown) > float(value) else "Right")
        t.wait(who, lambda s, i=index, old=shown: len(form_rows(s)) > i and
               form_rows(s)[i][1] != old, timeout=KEYED)
    raise AssertionError(f"the form's {label} never showed {value}:\n" + t.screen(who))


def create_table(t: Tmux, who: str, game: str, players: int) -> None:
    """Through the create form only: game, players, the FAST settings; then Create."""
    info = load_catalog().game(game)
    t.keys(who, "c")
    t.wait(who, "Create a table")
    wanted = [("Game", info.name), ("Players", str(players))]
    wanted += [(info.settings[k].label or k.replace("_", " "), str(v))
               for k, v in FAST.get(game, {}).items()]
    at = 0
    for label, value in wanted:
        at = set_row(t, who, label, value, at)
    t.keys(who, *["Up"] * (at + 1))              # from the Game row, up wraps onto Create
    t.wait(who, "[ Create the table ]")
    t.keys(who, "Enter")
    t.wait(who, lambda s: "Create a table" not in s)
    # The lobby lists the new table with its creator seated: only then do the lobby's keys
    # (b, r) have a table to act on.
    t.wait(who, lambda s: any(line.split()[:1] and line.split()[0].startswith("t")
                              and who in line for line in s.splitlines()[1:]))


def hand_selected(screen: str) -> bool:
    """Does the hand line show a selected card (the suggested move puts cards down)?"""
    return any(line.startswith("Hand") and "1:" in line for line in screen.splitlines())


def play_turn(t: Tmux, who: str, rng: random.Random) -> bool:
    """Look at ``who``'s screen and act like a player: answer a dialog, or step through the
    listed moves with Tab and play one with Enter: now and then the last one listed (a
    "ready", a "take"), else one that puts cards down if any of a few does (as a player who
    wants to go out). True once the round is over."""
    screen = t.screen(who)
    if "Round over" in screen:
        return True
    if "up/down, Enter" in screen:                        # a dialog with choices
        t.keys(who, *["Down"] * rng.randrange(3), "Enter")
        time.sleep(0.05)
        return False
    if "YOUR MOVE" not in screen.splitlines()[0]:
        return False
    # A move Tab chose stays chosen while the hand does not change (a turn passed without
    # playing it): then the keys start from it. Else Tab chooses the first; a screen read
    # before Tab shows would be the old one, so the wait is for a choice that was not there.
    shown = re.search(r"move (\d+) of (\d+)", screen)
    if shown is None:
        t.keys(who, "Tab")
        try:
            screen = t.wait(who, lambda s: "Tab: next" in s or "YOUR MOVE" not in s,
                            timeout=KEYED)
        except AssertionError:
            return False
        shown = re.search(r"move (\d+) of (\d+)", screen)
        if shown is None:
            return False
    at, n = int(shown.group(1)) - 1, int(shown.group(2))
    if n > 1 and rng.random() < 0.25:                    # the last listed move (ready, take)
        if at != n - 1:
            t.keys(who, *(["BTab"] if at == 0 else ["Tab"] * (n - 1 - at)))
        t.wait(who, lambda s: f"move {n} of {n}" in s or "YOUR MOVE" not in s, timeout=KEYED)
        t.keys(who, "Enter")
        time.sleep(0.05)
        return False
    k = rng.randrange(n)
    if (k - at) % n:
        t.keys(who, *["Tab"] * ((k - at) % n))
    if n > 1:
        for _ in range(min(n, 5)):
            try:
                screen = t.wait(who, lambda s, k=k: f"move {k + 1} of {n}" in s, timeout=KEYED)
            except AssertionError:
                return False
            if hand_selected(screen):
                break
            t.keys(who, "Tab")
            k = (k + 1) % n
    t.keys(who, "Enter")
    time.sleep(0.05)
    return False


def play_out(t: Tmux, players: tuple[str, ...], rng: random.Random,
             turn: Callable[[Tmux, str, random.Random], bool] | None = None,
             limit: float = 120.0) -> None:
    """The round played out by keystrokes (``turn``, else ``play_turn``, for each player in
    turn) until every player's screen says it is over, within ``limit`` seconds."""
    turn = turn or play_turn
    done = dict.fromkeys(players, False)
    end = time.monotonic() + limit
    while not all(done.values()):
        assert time.monotonic() < end, "\n".join(t.screen(w) for w in done)
        for who in done:
            if not done[who]:
                done[who] = turn(t, who, rng)
        time.sleep(0.05)


def installed_games() -> list[str]:
    return sorted(load_catalog().games)


@pytest.mark.parametrize("game", installed_games())
def test_two_clients_play_a_round_to_its_end_by_keystrokes(tmux: Tmux, game: str) -> None:
    info = load_catalog().game(game)
    seats = min(3, info.max_players)
    port = free_port()
    start_host(tmux, port)
    join(tmux, "Eva", port)
    join(tmux, "Petr", port)
    create_table(tmux, "Eva", game, seats)
    tmux.wait("Eva", "Eva")
    tmux.wait("Petr", lambda s: info.name in s)           # the lobby lists Eva's table
    tmux.keys("Petr", "Enter")                            # sit
    tmux.wait("Eva", "Petr")
    if seats > 2:
        tmux.keys("Eva", "b")
        tmux.wait("Eva", "which level")
        tmux.keys("Eva", "Enter")
        tmux.wait("Eva", lambda s: "Bot" in s and "which level" not in s)
    tmux.keys("Eva", "r")
    tmux.keys("Petr", "r")
    for who in ("Eva", "Petr"):
        tmux.wait(who, lambda s: "you: " in s.splitlines()[0])
    rng = random.Random(game)
    play_out(tmux, ("Eva", "Petr"), rng, limit=400)
    for who in ("Eva", "Petr"):
        screen = tmux.screen(who)
        assert "Round over" in screen and "Traceback" not in screen
        assert re.search(r"1\. \S+", screen)


def test_a_client_whose_host_disappears_says_so_and_reconnects_when_it_returns(
        tmux: Tmux, tmp_path: Path) -> None:
    """Mid-game: the host (keeping its tables in --data) is stopped; the client says so and
    keeps trying; the host comes back on the same port; the client is at its table again,
    with its hand, and the game goes on to its end."""
    port = free_port()
    data = tmp_path / "host-data"
    start_host(tmux, port, data=data)
    join(tmux, "Eva", port)
    create_table(tmux, "Eva", "pika", 2)
    tmux.keys("Eva", "b")
    tmux.wait("Eva", "which level")
    tmux.keys("Eva", "Enter")
    tmux.wait("Eva", lambda s: "Bot" in s and "which level" not in s)
    tmux.keys("Eva", "r")
    screen = tmux.wait("Eva", "YOUR MOVE")
    hand = hand_line(screen)
    tmux.keys("host", "C-c")                              # the host goes away
    screen = tmux.wait("Eva", "is gone", timeout=15)
    assert "reconnecting" in screen and "table t1" in screen
    start_host(tmux, port, "host2", data)                 # and comes back on the same port
    screen = tmux.wait("Eva", lambda s: "is gone" not in s and "YOUR MOVE" in s, timeout=20)
    assert hand in screen.splitlines()
    rng = random.Random(5)
    end = time.monotonic() + 120
    while not play_turn(tmux, "Eva", rng):
        assert time.monotonic() < end, tmux.screen("Eva")
        time.sleep(0.05)
    assert "Traceback" not in tmux.screen("Eva")


if os.environ.get("CARDPARTY_TMUX_DEBUG"):                # keep the server for a look
    Tmux.kill = lambda self: None  # type: ignore[method-assign]
