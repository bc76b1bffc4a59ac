"""The screens a new player met on a first evening, in real terminals (tmux), each as it was
reported and as it is now: the start screen offers the name last welcomed (it forgot it);
the create form offers a dealer seat the table has (seat 3 at a table of 3); a full table
waiting for its players reads ``ready 0/2``, not ``open``; a spectator's bottom line lists
``t`` and ``m``; at 40x12 "too small" breaks between words; at 60x20 the lobby keeps its
Status column; the keys' help keeps its column; an entry table's end offers no next round
and its Mode column says ``entry 100`` once it plays; the four-colour deck draws each suit
in its colour, and with ``NO_COLOR`` nothing is coloured while every card keeps its letters.

Uses the private tmux server of ``test_client_tmux`` (its own ``-L`` socket, killed after).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from cardparty.client.tokens import TokenStore
from tests.client.test_client_tmux import (  # noqa: F401  (tmux is a fixture)
    CARDPARTY,
    TMUX_MARKS,
    Tmux,
    create_table,
    form_rows,
    free_port,
    join,
    play_out,
    set_row,
    start_host,
    tmux,
)
from tests.client.test_client_tmux_party import respawn, row_of

pytestmark = TMUX_MARKS

#: A style and the text it draws, as ``capture-pane -e`` writes them.
STYLED = re.compile(r"\x1b\[([0-9;]*)m([^\x1b]*)")
#: SGR parameters that set a colour (foreground, background, 256 colours, bright; not 39 and
#: 49, the terminal's own colours).
COLOUR = re.compile(r"(?:^|;)(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;|$)")


def styled(t: Tmux, who: str) -> list[tuple[str, str]]:
    """``who``'s screen as (the foreground colour in force, as an SGR number or "", text)."""
    out = t.tmux("capture-pane", "-p", "-e", "-t", f"{t.session}:{who}")
    pieces, fg = [], ""
    for m in STYLED.finditer("\x1b[0m" + out):
        params = [p for p in m.group(1).split(";") if p] or ["0"]
        i = 0
        while i < len(params):
            p = params[i]
            if p in ("0", "39"):
                fg = ""
            elif p == "38" and i + 2 < len(params):        # 38;5;n: one of 256
                fg, i = f"38;5;{params[i + 2]}", i + 2
            elif len(p) == 2 and p[0] in "39" and p[1] in "01234567":
                fg = p
            i += 1
        if m.group(2):
            pieces.append((fg, m.group(2)))
    return pieces


def whole(screen: str, words: str) -> bool:
    """Every word of ``words`` is on ``screen`` whole (none broken at an edge)."""
    shown = set(screen.split())
    return all(w in shown for w in words.split())


def resize(t: Tmux, who: str, columns: int, rows: int) -> None:
    t.tmux("resize-window", "-t", f"{t.session}:{who}", "-x", str(columns), "-y", str(rows))


def test_the_first_evenings_screens(tmux: Tmux, tmp_path: Path) -> None:  # noqa: F811
    port = free_port()
    start_host(tmux, port, data=tmp_path / "host-data")        # keeps coins: entry tables
    rng = random.Random(10)

    # The start screen offers the name the host last welcomed.
    join(tmux, "Eva", port)
    # The name the host welcomed is on disk before the client starts again (a full run once
    # found none offered; the cause was not pinned down, and the check below still says so).
    remembered = Path(tmux.state) / TokenStore.LAST_NAME
    deadline = time.monotonic() + 20
    while not remembered.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    respawn(tmux, "Eva", f"{CARDPARTY} join --no-discovery")
    start = tmux.wait("Eva", "Join a cardparty host")
    assert re.search(r"Your name\s+Eva\b", start), start
    tmux.keys("Eva", "Tab", f"127.0.0.1:{port}", "Enter")
    tmux.wait("Eva", lambda s: "Eva ·" in s and "connecting" not in s)

    # The create form: at a table of 3, the dealer is seat -1 to 2, never 3.
    tmux.keys("Eva", "c")
    tmux.wait("Eva", "Create a table")
    at = set_row(tmux, "Eva", "Game", "Kakhead", 0)
    at = set_row(tmux, "Eva", "Players", "3", at)
    at = set_row(tmux, "Eva", "dealer", "2", at)
    tmux.keys("Eva", "Right", "Right", "Right")
    form = tmux.wait("Eva", lambda s: ("dealer", "2") in form_rows(s) and "(-1 to 2)" in s)
    assert ("dealer", "3") not in form_rows(form), form
    tmux.keys("Eva", "Escape")
    tmux.wait("Eva", lambda s: "Create a table" not in s)

    # A full table waiting for its players' ready reads so in the lobby.
    join(tmux, "Petr", port)
    create_table(tmux, "Eva", "pika", 2)
    tmux.wait("Eva", "waiting room")
    lobby = tmux.wait("Petr", lambda s: re.search(r"^ t1 .*Eva", s, re.M) is not None)
    tmux.keys("Petr", *["Down"] * row_of(lobby, "t1"), "Enter")
    tmux.wait("Petr", "waiting room")
    tmux.keys("Eva", "q")                               # to the lobby, keeping the seat
    row = tmux.wait("Eva", lambda s: "Lobby chat" in s and re.search(
        r"^ t1 .*Eva, Petr.*ready 0/2", s, re.M) is not None)
    assert not re.search(r"^ t1 .* open\s*$", row, re.M), row
    tmux.keys("Eva", *["Down"] * row_of(row, "t1"), "Enter")
    tmux.wait("Eva", "waiting room")
    for who in ("Petr", "Eva"):
        tmux.keys(who, "r")
    for who in ("Eva", "Petr"):
        tmux.wait(who, lambda s: "you: " in s.splitlines()[0] and "Hand" in s)

    # Ana watches: her bottom line lists what she may do there.
    join(tmux, "Ana", port)
    lobby = tmux.wait("Ana", lambda s: re.search(r"^ t1 .*playing", s, re.M) is not None)
    tmux.keys("Ana", *["Down"] * row_of(lobby, "t1"), "s")
    watching = tmux.wait("Ana", "spectating")
    bottom = watching.splitlines()[-1]
    assert "t: chat" in bottom and "m: the match" in bottom, bottom

    # 40x12: too small, said in whole words; back to 80x24.
    resize(tmux, "Ana", 40, 12)
    small = tmux.wait("Ana", "too small")
    assert whole(small, "This terminal is too small for this table. It needs at least"), small
    resize(tmux, "Ana", 80, 24)
    tmux.wait("Ana", lambda s: "too small" not in s)

    # The keys' help: every row's words start in one column.
    tmux.keys("Eva", "?")
    rows = ("move the card at the cursor", "quit at once", "chat")
    # All of it drawn: a screen read between two of the terminal's writes holds only its top.
    helped = tmux.wait("Eva", lambda s: all(w in s for w in ("move along your hand", *rows))
                       ).splitlines()
    column = next(x.index("move along your hand") for x in helped if "move along" in x)
    for words in rows:
        assert next(x.index(words) for x in helped if words in x) == column, helped
    tmux.keys("Eva", "Escape")

    # 60x20: the lobby keeps its Status column.
    tmux.keys("Ana", "q")
    tmux.wait("Ana", "Leave this table?")
    tmux.keys("Ana", "Enter")                           # stop watching
    resize(tmux, "Ana", 60, 20)
    narrow = tmux.wait("Ana", lambda s: re.search(r"^ t1 .*playing\s*$", s, re.M) is not None)
    assert any(x.split()[-1:] == ["Status"] for x in narrow.splitlines()), narrow
    resize(tmux, "Ana", 80, 24)

    # An entry table: seated by open play with a stake; one round, and it says so. (Eva
    # and Petr go to the lobby keeping their seats at t1, which waits for them.)
    for who in ("Eva", "Petr"):
        tmux.keys(who, "q")
        tmux.wait(who, "Leave this table?")
        tmux.keys(who, "Enter")                         # back to the lobby, keeping my seat
        tmux.wait(who, "Lobby chat")
        tmux.keys(who, "o")
        tmux.wait(who, "[ Seek a table ]")
        at = set_row(tmux, who, "Game", "Pika", 0)
        at = set_row(tmux, who, "Players", "2", at)
        at = set_row(tmux, who, "Stake (0: no stake)", "100", at)
        tmux.keys(who, "Down")
        tmux.wait(who, lambda s: "[ Seek a table ]" in s)
        tmux.keys(who, "Enter")
    for who in ("Eva", "Petr"):                     # seated together at once: t2
        tmux.wait(who, lambda s: "table t2 · you: " in s.splitlines()[0] and "Hand" in s,
                  timeout=30)
    play_out(tmux, ("Eva", "Petr"), rng)
    box = " ".join(tmux.wait("Eva", "Round over").replace("│", " ").split())
    assert "play again" not in box and "plays no other round" in box, box
    tmux.keys("Eva", "l")
    lobby = tmux.wait("Eva", "Lobby chat")
    entry = next(x for x in lobby.splitlines() if x.startswith(" t2 "))
    assert "entry 100" in entry and "seek" not in entry, lobby


def test_four_colours_and_no_color(tmux: Tmux) -> None:  # noqa: F811
    """``--four-colour``: ♦ blue and ♣ green (and ♥ red). ``NO_COLOR``: no colour at all, and
    every Pika card keeps the letter that says its colour."""
    tmux.run("Eva", f"{CARDPARTY} play --name Eva --game kakhead --players 4 --four-colour")
    tmux.wait("Eva", lambda s: "Hand" in s and "you: Eva" in s.splitlines()[0])
    pieces = styled(tmux, "Eva")
    colours = {"♦": "34", "♣": "32", "♥": "31"}
    seen = set()
    for fg, text in pieces:
        for suit, sgr in colours.items():
            if re.search(rf"\d{suit}|[JQKA]{suit}", text):
                assert fg == sgr, (suit, fg, text)
                seen.add(suit)
    assert seen & {"♦", "♣"}, pieces          # some 15 cards in view: some are of these
    respawn(tmux, "Eva", f"env NO_COLOR=1 {CARDPARTY} play --name Eva --game pika --players 2")
    screen = tmux.wait("Eva", lambda s: "Hand" in s and "you: Eva" in s.splitlines()[0])
    raw = tmux.tmux("capture-pane", "-p", "-e", "-t", f"{tmux.session}:Eva")
    coloured = [m.group(0) for m in re.finditer(r"\x1b\[([0-9;]*)m", raw)
                if COLOUR.search(m.group(1))]
    assert not coloured, (coloured, raw)
    hand = next(x for x in screen.splitlines() if x.startswith("Hand"))
    assert all(re.fullmatch(r"[RYGB](\d|S|V|\+2)|W|W\+4", c) for c in hand.split()[1:]), hand
