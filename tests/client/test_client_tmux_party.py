"""The whole party of issue 27 in real terminals (tmux, 80x24): one host keeping its tables
and coins (``--data``), three people in three windows: Eva in English, Petr in Czech, Ana in
Catalan. Petr chats in the lobby; Petr and Ana look at the league and the shop; Eva opens a
Pika table, Ana sits and Eva removes her; Eva closes the table to strangers and invites
Petr; he sits, both are ready with a bot in the third seat, Ana watches as a spectator; the
host is stopped mid-game and started again on the same data; everyone is back; Petr's
client is killed and started again, and he is back at his seat; they play the round out,
play another (Petr reads the match so far) and leave the finished table, and nobody reads
as away for it.

On every screen read: what the host pushes is there within a second with no key pressed
(a chat line, an invitation, a removal, the game's start, the next round), no line is cut
at the 80th column, and a Czech or Catalan screen shows no English word outside card and
player names; after the restart the log tells the history once; a spectator is offered no
moves and no next round. Each wait is for a screen, never a fixed time.

Uses the private tmux server of ``test_client_tmux`` (its own ``-L`` socket, killed after).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from cardparty.client.command_line import COMMANDS
from cardparty.client.line_words import QUERIES
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import catalog
from tests.client import test_client_tmux as plain_tmux
from tests.client.test_client_languages import english_in, english_words
from tests.client.test_client_tmux import (  # noqa: F401  (tmux is a fixture)
    CARDPARTY,
    TMUX_MARKS,
    Tmux,
    create_table,
    free_port,
    play_out,
    start_host,
    tmux,
)

pytestmark = TMUX_MARKS

#: What a push may take to reach the screen, with no key pressed.
PUSH_WITHIN = 1.0
#: Each player's language.
LANGS = {"Eva": "en", "Petr": "cs", "Ana": "ca"}
#: Characters a screen's 80th column may hold without a line having been cut there: a
#: space, a rule, a box's edge.
EDGES = set(" ─│┐┘┌└")
#: English words of the catalogs, in any case ("idle" as well as "Idle").
ENGLISH = {w for e in english_words() for w in (e, e.lower(), e.capitalize())}


def say(who: str, text: str) -> str:
    """``text`` as ``who`` reads it."""
    return catalog(LANGS[who]).gettext(text)


def check(who: str, screen: str) -> str:
    """The rules every screen of the party keeps; returns the screen."""
    for line in screen.splitlines():
        assert len(line) < 80 or line[79] in EDGES, f"{who}: a line cut at 80:\n{screen}"
    if LANGS[who] != "en":
        words = [w for w in english_in(screen, ENGLISH) if w not in ("Petr", "Ana")]
        assert not words, f"{who}: English {words} on a {LANGS[who]} screen:\n{screen}"
    assert "Traceback" not in screen and "Error" not in screen, screen
    return check_spectator(who, screen)


def check_spectator(who: str, screen: str) -> str:
    if who == "Ana" and say(who, "spectating") in screen.splitlines()[0]:
        assert "Tab" not in screen.splitlines()[-1], screen
        assert say(who, "play again") not in screen, screen
    return screen


def seen(t: Tmux, who: str, what: str | object, timeout: float = 20.0) -> str:
    """``who``'s screen once it shows ``what`` (a text, or a test of the screen), checked."""
    return check(who, t.wait(who, what, timeout))  # type: ignore[arg-type]


def pushed(t: Tmux, who: str, what: str | object) -> str:
    """A push on ``who``'s screen within ``PUSH_WITHIN`` seconds, no key pressed."""
    return seen(t, who, what, PUSH_WITHIN)


def join(t: Tmux, who: str, port: int) -> None:
    t.run(who, f"{CARDPARTY} --lang {LANGS[who]} join 127.0.0.1:{port} --name {who}")
    seen(t, who, lambda s: len(s.splitlines()) > 2 and f"{who} ·" in s.splitlines()[1])


def respawn(t: Tmux, who: str, command: str) -> None:
    """Whatever runs in ``who``'s window killed (no goodbye), ``command`` started there."""
    t.tmux("respawn-window", "-k", "-t", f"{t.session}:{who}",
           f"env -u NO_COLOR TERM=xterm-256color CARDPARTY_STATE_DIR={t.state} {command}")


def economy_screens(t: Tmux, who: str) -> None:
    """The league and the shop on ``who``'s screen, each read once the host answered, then
    back to the lobby."""
    asking = say(who, "asking the host...")
    for key, title in (("L", say(who, "League")), ("$", say(who, "Shop"))):
        t.keys(who, key)
        seen(t, who, lambda s, h=title: h in s and asking not in s
             and say(who, "q: lobby") in s.splitlines()[-1])
        t.keys(who, "q")
        seen(t, who, lambda s: say(who, "c: create") in s.splitlines()[-1])


def room_title(who: str, table: str = "t1") -> str:
    """The first line of ``who``'s waiting room at a Pika table."""
    return say(who, "{game} · table {table} · waiting room · you: {name}").format(
        game="Pika", table=table, name=who)


def row_of(screen: str, table: str) -> int:
    """The index of ``table``'s row among the lobby's tables."""
    rows = [line.split()[0] for line in screen.splitlines()[4:] if line.split()
            and re.fullmatch(r"t\d+", line.split()[0])]
    return rows.index(table)


def log_lines(screen: str) -> list[str]:
    """The table's event log: the lines between the two rules."""
    lines = screen.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("────")]
    return [line for line in lines[rules[0] + 1:rules[1]] if line.strip()]


def steady(t: Tmux, who: str) -> str:
    """``who``'s screen once it stayed the same for a moment (nothing on its way)."""
    def still(screen: str) -> str:                 # the countdowns run on
        return re.sub(r"\d+\.\ds", "", screen)

    shots = [t.screen(who)]
    end = time.monotonic() + 20
    while len(shots) < 4 or len({still(s) for s in shots[-4:]}) > 1:
        assert time.monotonic() < end, shots[-1]
        time.sleep(0.1)
        shots.append(t.screen(who))
    return check(who, shots[-1])


def play_turn(t: Tmux, who: str, rng: random.Random) -> bool:
    """As ``test_client_tmux.play_turn``, in ``who``'s language: a dialog answered, or one
    of the listed moves (Tab through them) played. True once the round is over."""
    screen = check(who, t.screen(who))
    if say(who, "Round over") in screen:
        return True
    if say(who, "up/down, Enter; Esc: cancel") in screen:
        t.keys(who, *["Down"] * rng.randrange(3), "Enter")
        return False
    if say(who, "YOUR MOVE") not in screen.splitlines()[0]:
        return False
    t.keys(who, "Tab")
    tab = say(who, "(move {n} of {count}, Tab: next)")
    first = re.escape(tab).replace(r"\{n\}", "1").replace(r"\{count\}", r"(\d+)")
    try:
        screen = t.wait(who, lambda s: re.search(first, s) is not None, timeout=3)
    except AssertionError:
        return False
    m = re.search(first, screen)
    assert m is not None
    t.keys(who, *["Tab"] * rng.randrange(int(m.group(1))), "Enter")
    t.wait(who, lambda s: re.search(first, s) is None, timeout=5)
    return False


def test_the_party_of_three_with_a_spectator_and_a_host_restart(tmux: Tmux,  # noqa: F811
                                                                 tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "host-data"
    start_host(tmux, port, data=data)
    for who in LANGS:
        join(tmux, who, port)

    # The command line's menu says there is more than its 8 rows; one Esc closes it all.
    tmux.keys("Eva", ":")
    seen(tmux, "Eva", lambda s: any(line.startswith(":") for line in s.splitlines()))
    tmux.keys("Eva", "Tab")
    menu = seen(tmux, "Eva", lambda s: re.search(r"^ +\S.* v$", s, re.M) is not None)
    assert re.search(r"^ +\S.* \^$", menu, re.M), menu
    tmux.keys("Eva", "Escape")
    seen(tmux, "Eva", lambda s: not any(line.startswith(":") for line in s.splitlines())
         and "c: create" in s.splitlines()[-1])

    # Chat in the lobby: on the others' screens at once, with no key pressed.
    tmux.keys("Petr", "t")                          # the keys reach the line in order
    tmux.keys("Petr", "ahoj vsichni", "Enter")
    for who in ("Eva", "Ana"):
        pushed(tmux, who, "ahoj vsichni")
    # The league and the shop, in each one's language.
    for who in ("Petr", "Ana"):
        economy_screens(tmux, who)

    # Eva's table. Ana sits and Eva removes her: Ana's screen says so at once.
    create_table(tmux, "Eva", "pika", 3)
    seen(tmux, "Eva", "waiting room")
    lobby = seen(tmux, "Ana", lambda s: re.search(r"^ t1 ", s, re.M) is not None)
    tmux.keys("Ana", *["Down"] * row_of(lobby, "t1"), "Enter")
    seen(tmux, "Ana", room_title("Ana"))
    seen(tmux, "Eva", lambda s: "Ana" in s)
    tmux.keys("Eva", "x")
    seen(tmux, "Eva", "remove from table t1")
    tmux.keys("Eva", "Enter")
    pushed(tmux, "Ana", lambda s: say("Ana", "you no longer sit at that table") in s
           and room_title("Ana") not in s)
    seen(tmux, "Eva", lambda s: "Ana" not in s)

    # Closed to strangers; Petr invited: the invitation is on his screen at once.
    tmux.keys("Eva", "s")
    seen(tmux, "Eva", "strangers may not sit")
    tmux.keys("Eva", "i")
    seen(tmux, "Eva", "invite to t1")
    tmux.keys("Eva", "Petr", "Enter")
    seen(tmux, "Eva", "invited Petr")
    pushed(tmux, "Petr", lambda s: "Eva" in s.splitlines()[-1] and "t1" in s.splitlines()[-1])
    lobby = seen(tmux, "Petr", lambda s: re.search(r"^ t1 ", s, re.M) is not None)
    tmux.keys("Petr", *["Down"] * row_of(lobby, "t1"), "Enter")
    room = seen(tmux, "Petr", room_title("Petr"))
    assert say("Petr", "your table: close it (everyone at it is told)") not in room
    seen(tmux, "Eva", lambda s: "Petr" in s and "(free)" in s)
    tmux.keys("Eva", "b")
    seen(tmux, "Eva", "which level")
    tmux.keys("Eva", "Enter")
    seen(tmux, "Eva", lambda s: "Bot 3" in s and "which level" not in s)

    # Ready: the game's first view replaces both rooms at once.
    tmux.keys("Petr", "r")
    seen(tmux, "Eva", "Petr (ready)")
    tmux.keys("Eva", "r")
    for who in ("Eva", "Petr"):
        pushed(tmux, who, lambda s, w=who: f"{w}" in s.splitlines()[0] and "t1" in
               s.splitlines()[0] and say(w, "Hand") in s)

    # Ana watches: a spectator's screen, in Catalan, with no moves offered.
    lobby = seen(tmux, "Ana", lambda s: re.search(r"^ t1 .*Eva", s, re.M) is not None)
    tmux.keys("Ana", *["Down"] * row_of(lobby, "t1"), "s")
    seen(tmux, "Ana", say("Ana", "spectating"))

    rng = random.Random(27)
    for _ in range(2):
        for who in ("Eva", "Petr"):
            play_turn(tmux, who, rng)
    before = {who: log_lines(steady(tmux, who)) for who in ("Eva", "Petr", "Ana")}

    # The host is killed and comes back on the same data: everyone says so at once, then is back
    # at the table, and no history is told twice.
    respawn(tmux, "host", "sleep 600")             # killed: its lock on --data goes with it
    gone = {w: say(w, "the host at {address} is gone: reconnecting...").split("{")[0]
            for w in LANGS}
    for who in LANGS:
        seen(tmux, who, lambda s, w=who: gone[w] in s, timeout=15)
    start_host(tmux, port, "host2", data)
    for who in LANGS:
        seen(tmux, who, lambda s, w=who: gone[w] not in s and "────" in s, timeout=20)
    for who, lines in before.items():               # nobody moved meanwhile: the same log
        assert log_lines(steady(tmux, who)) == lines, f"{who}: history told twice"

    # Petr's client killed mid-game and started again: he is back at his seat, and Eva's
    # screen says he was gone and then that he is back.
    respawn(tmux, "Petr", "sleep 600")
    seen(tmux, "Eva", lambda s: any("Petr" in line and "disconnected" in line
                                    for line in s.splitlines()), timeout=15)
    respawn(tmux, "Petr", f"{CARDPARTY} --lang cs join 127.0.0.1:{port} --name Petr")
    seen(tmux, "Petr", lambda s: "t1" in s.splitlines()[0] and say("Petr", "Hand") in s,
         timeout=20)
    seen(tmux, "Eva", lambda s: not any("Petr" in line and "disconnected" in line
                                        for line in s.splitlines()))
    assert log_lines(steady(tmux, "Petr")) == before["Petr"], "Petr: history told twice"

    # The round played out by keystrokes; the spectator sees its end with no next round.
    play_out(tmux, ("Eva", "Petr"), rng, play_turn)
    seen(tmux, "Ana", say("Ana", "Round over"))

    # Another round: once both said so, it starts on Eva's screen with no key of hers; the
    # match so far reads in Czech on Petr's.
    tmux.keys("Eva", "n")
    tmux.keys("Petr", "n")
    pushed(tmux, "Eva", lambda s: say("Eva", "Round over") not in s and "Hand" in s)
    tmux.keys("Petr", "m")
    seen(tmux, "Petr", lambda s: "Eva" in s and "Petr" in s and "Bot 3" in s)
    tmux.keys("Petr", "Escape")
    play_out(tmux, ("Eva", "Petr"), rng, play_turn)
    seen(tmux, "Ana", say("Ana", "Round over"))

    # Leaving a finished table is not being away (item 12): Petr leaves it, and neither
    # Eva's table nor anyone's lobby says he (or Eva, once she leaves too) is away.
    tmux.keys("Petr", "l")
    seen(tmux, "Petr", lambda s: re.search(r"^ t1 ", s, re.M) is not None
         and "t1" not in s.splitlines()[0])
    for who in ("Eva", "Ana"):
        petr = next(line for line in steady(tmux, who).splitlines() if "Petr" in line)
        assert say(who, "disconnected") not in petr, petr
    tmux.keys("Eva", "l")
    seen(tmux, "Eva", lambda s: re.search(r"^ t1 ", s, re.M) is not None)
    for who in ("Eva", "Petr"):
        row = next(line for line in steady(tmux, who).splitlines()
                   if re.match(r" t1 ", line))
        assert say(who, "away") not in row, row

    # Open play: Ana seeks a table; her notice says she waits until she stops; the others'
    # lobbies list the table, then not (the lobby is polled: a table one is not at is no
    # push, docs/protocol.md).
    tmux.keys("Ana", "l")
    seen(tmux, "Ana", lambda s: say("Ana", "c: create") in s.splitlines()[-1])
    tmux.keys("Ana", "o")
    seen(tmux, "Ana", say("Ana", "[ Seek a table ]"))
    tmux.keys("Ana", "Up", "Enter")                 # from the first row onto the button

    waiting = say("Ana", "u: stop waiting")
    seen(tmux, "Ana", lambda s: waiting in " ".join(" ".join(s.splitlines()[-2:]).split()))
    for who in ("Eva", "Petr"):
        seen(tmux, who, lambda s: re.search(r"^ t2 .*Ana", s, re.M) is not None)
    tmux.keys("Ana", "u")
    seen(tmux, "Ana", lambda s: say("Ana", "you stopped waiting") in s
         and waiting not in " ".join(s.split()))
    for who in ("Eva", "Petr"):
        seen(tmux, who, lambda s: re.search(r"^ t2 .*Ana", s, re.M) is None)


def test_play_in_czech_says_its_house_rule_and_no_english(tmux: Tmux) -> None:  # noqa: F811
    """``cardparty play`` has no waiting room: an active ``--variant`` is said at the table
    and in the rules in short (``?`` twice), in the player's language like every word there
    (Kakhead's 'burned: 0' stayed English)."""
    variant = next(v for v in load_catalog().variants_of("kakhead"))
    tmux.run("Petr", f"{CARDPARTY} --lang cs play --name Petr --game kakhead --players 3 "
                     f"--variant {variant.id}")
    house = say("Petr", "House rules at this table: {variants}.").format(
        variants=say("Petr", variant.name))
    screen = seen(tmux, "Petr", lambda s: "t1" in s.splitlines()[0]
                  and say("Petr", "Hand") in s)
    assert " ".join(house.split()) in " ".join(screen.split()), screen
    tmux.keys("Petr", "?", "?")
    rules = seen(tmux, "Petr", say("Petr", "{game}: the rules in short").format(game="Kakhead"))
    assert say("Petr", variant.name) in " ".join(rules.replace("│", " ").split()), rules
    # Back in the lobby, keeping the seat: the host is "this machine" in Czech too.
    tmux.keys("Petr", "Escape")
    seen(tmux, "Petr", lambda s: say("Petr", "{game}: the rules in short").format(
        game="Kakhead") not in s)
    tmux.keys("Petr", "q")
    seen(tmux, "Petr", say("Petr", "Leave this table?"))
    tmux.keys("Petr", "Enter")
    lobby = seen(tmux, "Petr", lambda s: re.search(r"^ t1 ", s, re.M) is not None)
    assert say("Petr", "this machine") in lobby.splitlines()[0], lobby


# --- a new player's evening (issue: items 3 to 6, and a game in the line mode) ----------------

#: The host's idle time for the evening below: long enough for keystrokes on a loaded machine,
#: short enough to wait for once (item 4).
IDLE = 15


def host_idle(t: Tmux, port: int, data: Path, window: str = "host") -> None:
    t.run(window, f"{CARDPARTY} host --bind 127.0.0.1 --port {port} --heartbeat 0.5 "
                  f"--bot-delay 0.05 --idle {IDLE} --data {data}")
    t.wait(window, "listening on")


def all_lines(t: Tmux, who: str) -> list[str]:
    """Every line ``who``'s window printed (its scrollback too), wrapped lines joined: what
    the line mode said."""
    out = t.tmux("capture-pane", "-p", "-J", "-S", "-5000", "-t", f"{t.session}:{who}")
    return [line.rstrip() for line in out.splitlines() if line.strip()]


def printed(t: Tmux, who: str, what: Any, since: int = 0, timeout: float = 30.0) -> list[str]:
    """``who``'s lines from the ``since``-th on, once one of them is ``what`` (a text found
    in a line, or a test of the lines)."""
    check = what if callable(what) else (lambda lines: any(what in x for x in lines))
    end = time.monotonic() + timeout
    while True:
        lines = all_lines(t, who)[since:]
        if check(lines):
            return lines
        assert time.monotonic() < end, f"{who}: waited for {what!r}:\n" + "\n".join(lines)
        time.sleep(0.1)


def typed(t: Tmux, who: str, line: str) -> int:
    """``line`` typed and Enter; how many lines were printed before (for ``printed``)."""
    before = len(all_lines(t, who))
    t.keys(who, "-l", line)
    t.keys(who, "Enter")
    return before


def turn_or_stood_in(t: Tmux, who: str, rng: random.Random) -> bool:
    """``play_turn``, taking the seat back first if the host's stand-in took it while the
    machine was slow (the line above the hand says so)."""
    if "A bot plays for you" in t.screen(who):
        t.keys(who, "Enter")
        return False
    return plain_tmux.play_turn(t, who, rng)        # Eva and Petr read English here


def test_a_new_players_evening_and_a_whole_game_in_the_line_mode(tmux: Tmux,  # noqa: F811
                                                                 tmp_path: Path) -> None:
    """Item 6: Eva's client starts before any host answers: her lobby states nothing about
    a host. Item 3: at the end of a round, ``l`` keeps her seat, and she plays the next round
    (it was given to "Eva (bot)" for good). Item 5: a move pressed while the host is gone is
    refused in words, the title drops YOUR MOVE, and the host that comes back never plays it.
    Item 4: idle at her turn, she reads that a bot plays for her and how to take her seat
    back, and Enter does. Then Ana plays a whole game in the line mode, in Catalan, by typed
    lines only: the start, a table made with the form, a bot, every move, the end."""
    port = free_port()
    data = tmp_path / "host-data"
    rng = random.Random(41)

    # Item 6: nobody answers yet.
    tmux.run("Eva", f"{CARDPARTY} join 127.0.0.1:{port} --name Eva")
    lobby = tmux.wait("Eva", "no cardparty host answers")
    assert "practice only" not in lobby and "no tables yet" not in lobby, lobby
    assert "waiting for the host at" in lobby, lobby
    host_idle(tmux, port, data)
    tmux.wait("Eva", lambda s: "Eva ·" in s and "no cardparty host" not in s
              and "connecting" not in s, timeout=20)
    tmux.run("Petr", f"{CARDPARTY} join 127.0.0.1:{port} --name Petr")
    tmux.wait("Petr", lambda s: "Petr ·" in s and "connecting" not in s)

    # A table of two (hands of four: ``create_table``'s), played out by keys.
    create_table(tmux, "Eva", "pika", 2)
    tmux.wait("Eva", "waiting room")
    tmux.wait("Petr", lambda s: re.search(r"^ t1 .*Eva", s, re.M) is not None)
    tmux.keys("Petr", "Enter")
    tmux.wait("Petr", "waiting room")
    tmux.keys("Petr", "r")
    tmux.wait("Eva", "Petr (ready)")
    tmux.keys("Eva", "r")
    for who in ("Eva", "Petr"):
        tmux.wait(who, lambda s: "you: " in s.splitlines()[0] and "Hand" in s)
    first = tmux.screen("Eva")
    assert re.search(r"(Eva|Petr) deals 4 cards each", first) and "the starter card is" in first
    play_out(tmux, ("Eva", "Petr"), rng, turn_or_stood_in)

    # Item 3: the box says what l and x do; l keeps the seat, and the next round is hers.
    box = " ".join(tmux.wait("Eva", "Round over").replace("│", " ").split())
    assert "l back to the lobby, keeping your seat for the next round" in box, box
    assert "x leave the table: a bot takes your seat in the next round" in box, box
    tmux.keys("Eva", "l")
    tmux.wait("Eva", "your seat at t1 is kept")
    tmux.keys("Petr", "n")
    tmux.wait("Petr", "asked for another round")
    # (each after a rating now: the round of two humans rated them, TO-26)
    tmux.wait("Eva", lambda s: re.search(r"^ t1 .*Eva \[-?[\d.]+\], Petr \[-?[\d.]+\]", s,
                                         re.M) is not None)
    tmux.keys("Eva", "Enter")                     # on t1: back to her finished table
    tmux.wait("Eva", "Round over")
    tmux.keys("Eva", "n")
    for who in ("Eva", "Petr"):
        screen = tmux.wait(who, lambda s: "Round over" not in s and "Hand" in s)
        assert "(bot)" not in screen, screen
    assert "you: Eva" in tmux.screen("Eva").splitlines()[0]

    # Item 5: the host goes at Eva's turn; what she presses is refused, never played later.
    end = time.monotonic() + 60
    while "YOUR MOVE" not in tmux.screen("Eva").splitlines()[0]:
        assert time.monotonic() < end, tmux.screen("Eva")
        turn_or_stood_in(tmux, "Petr", rng)
        time.sleep(0.05)
    before = log_lines(tmux.screen("Eva"))
    respawn(tmux, "host", "sleep 600")
    gone = tmux.wait("Eva", "is gone", timeout=15)
    assert "YOUR MOVE" not in gone.splitlines()[0], gone
    assert "your move waits until it is back" in gone, gone
    tmux.keys("Eva", "Tab", "Enter")
    tmux.wait("Eva", "your move was not sent")
    host_idle(tmux, port, data, "host2")
    back = tmux.wait("Eva", lambda s: "is gone" not in s and "YOUR MOVE" in s.splitlines()[0],
                     timeout=20)
    # The newest lines of the log are as they were (the log's window may be a line shorter
    # or longer with the lines around it): no move of Eva's came after them.
    assert log_lines(back)[-3:] == before[-3:], ("a move pressed while the host was gone was "
                                                 "played", before, back)

    # Item 4: Eva lets her turn time out (the restart gave her no more time:
    # docs/playing.md); her screen says a bot plays for her and that Enter takes the seat
    # back. Looked at while Ana plays below, and once more after.
    taken_back: list[bool] = []

    def stood_in_seen() -> None:
        screen = tmux.screen("Eva")
        if not taken_back and "A bot plays for you" in screen:
            assert "Enter: take your seat back" in " ".join(screen.split()), screen
            tmux.keys("Eva", "Enter")
            tmux.wait("Eva", lambda s: "A bot plays for you" not in s)
            taken_back.append(True)

    # The line mode: Ana, in Catalan, a whole game by typed lines.
    ana = "Ana"
    sent: list[str] = []

    def line(text: str) -> int:
        sent.append(text)
        return typed(tmux, ana, text)

    tmux.run(ana, f"{CARDPARTY} --lang ca join --line --no-discovery")
    printed(tmux, ana, say(ana, "Join a cardparty host."))
    line("Ana")
    line(f"127.0.0.1:{port}")
    printed(tmux, ana, say(ana, "connected to {host}").split("{")[0])
    printed(tmux, ana, say(ana, "Lobby of {host}, as {name}.").split("{")[0])
    at = line("create")
    printed(tmux, ana, say(ana, "Create a table"), at)
    line("Pika")
    line("2")
    hand_size = say(ana, "hand size")
    for _ in range(12):                        # Enter keeps each field, up to the hand size
        if all_lines(tmux, ana)[-1].startswith(hand_size):
            break
        at = line("")
        printed(tmux, ana, lambda ls: len(ls) > 0, at)
    line("3")
    at = line("done")
    printed(tmux, ana, say(ana, "Type ready when you are; help says the rest."), at)
    line("bot")
    at = line("ready")
    printed(tmux, ana, say(ana, "the starter card is {card}").split("{")[0], at)
    # Every move by its number, read off the line that lists them, until the round is over.
    end = time.monotonic() + 120
    over = say(ana, "Type one of these:")
    moves_head = say(ana, "Moves: {moves}").split("{")[0]
    # Her turn timed out to a bot (a loaded machine): she types back, as the line says.
    stood = say(ana, "A bot plays for you: your turn timed out. Type back to take your seat "
                     "back.")
    backs = 0
    while True:
        lines = all_lines(tmux, ana)
        if any(over in x for x in lines):
            break
        assert time.monotonic() < end, "\n".join(lines[-30:])
        stood_in_seen()
        if sum(stood in x for x in lines) > backs:
            backs += 1
            line("back")
            continue
        prompt = lines[-1] if lines else ""
        if prompt.startswith(say(ana, "your move: ").strip()):
            turns = [i for i, x in enumerate(lines) if x == say(ana, "Your move.")]
            if not turns:              # no "Your move." above the prompt yet: read again
                time.sleep(0.05)
                continue
            turn = turns[-1]
            listed = [x for x in lines[turn:] if x.startswith(moves_head)]
            count = len(re.findall(r"(?:^|; |: )\d+\. ", listed[0])) if listed else 1
            at = line(str(rng.randint(1, max(1, count))))
            printed(tmux, ana, lambda ls: len(ls) > 1, at)
        elif prompt.startswith(say(ana, "choose 1 to {n}: ").split("{")[0]):
            at = line("1")
            printed(tmux, ana, lambda ls: len(ls) > 1, at)
        else:
            time.sleep(0.1)
    lines = all_lines(tmux, ana)
    result = lines[max(i for i, x in enumerate(lines) if x == say(ana, "Round over")):]
    assert any(re.match(r"1\. \S+", x) for x in result), result
    assert any(x.startswith("again: ") for x in result), result
    # Catalan throughout: no English word of the catalogs but the commands' own names, and
    # the lines as typed.
    def untyped(x: str) -> str:
        """A line without what Ana typed after its prompt."""
        w = next((w for w in sent if w and x.endswith(": " + w)), "")
        return x[:len(x) - len(w)] if w else x

    shown = "\n".join(untyped(x) for x in lines)
    names = {w for cmd in COMMANDS for w in cmd.words} | set(QUERIES)
    words = [w for w in english_in(shown, ENGLISH) if w not in names | {"Petr", "Ana"}]
    assert not words, f"English {words} in the Catalan line mode:\n{shown}"
    end = time.monotonic() + IDLE + 30
    while not taken_back:
        assert time.monotonic() < end, tmux.screen("Eva")
        stood_in_seen()
        time.sleep(0.1)
    line("quit")                                  # the client ends: its window goes
    end = time.monotonic() + 10
    while ana in tmux.tmux("list-windows", "-F", "#{window_name}").split():
        assert time.monotonic() < end, tmux.screen(ana)
        time.sleep(0.1)
