"""The line mode (``--line``), headless: the real controller, narrator and typed-line handler
at a real host on 127.0.0.1, driven only by typed lines and read only from the lines they
print (``tests/client/test_client_tmux_party.py`` plays one in a real terminal too).

Every feature of the full screen is reached by a line: a whole game (moves by number, by
label, by kind and cards; a dialog's choice by number), the end of a round and another one,
the lobby, creating a table through the form, the waiting room, bots, chat, the scoreboard,
the help; in Czech and Catalan as in English, with no English word of the catalogs left.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cardparty.client.command_line import COMMANDS
from cardparty.client.controller import Controller
from cardparty.client.line_typed import LineInput
from cardparty.client.line_words import QUERIES, Narrator
from cardparty.client.screens.room import RoomNarration
from cardparty.client.words import describer
from cardparty.core.i18n import set_language
from cardparty.net.host import Host
from tests.client.clientkit import (
    Client,
    HostKit,
    Pump,
    RecordingLink,
    net_link,
    pika_link,
    table_link,
)
from tests.client.test_client_languages import english_in, english_words


class LinePlayer:
    """A player of the line mode: types lines, reads what is printed (``said``). At a table
    of the test host (``kit``) each line waits for the table to rest, as ``Client`` keys do;
    with a plain controller (``pump``), for the messages a moment brings."""

    def __init__(self, c: Controller, pump: Pump, at_table: bool = True) -> None:
        self.c = c
        self.pump = pump
        self.n = Narrator(c)
        self.input = LineInput(c, self.n)
        self.said: list[str] = []
        #: the lines as typed (at their prompt), among ``said``
        self.typed: set[str] = set()
        if at_table:
            self.until(lambda: c.screen == "table" and bool(c.table.view))
        self.settle()

    @classmethod
    def seated(cls, kit: HostKit, link: RecordingLink, name: str = "Eva") -> LinePlayer:
        c = Client(kit, link, name)
        return cls(c, c.pump)

    def settle(self) -> list[str]:
        if isinstance(self.c, Client):
            self.c.settle()
        else:
            self.pump.pump(0.2)
        new = self.n.lines()
        self.said += new
        return new

    def until(self, what: Any, timeout: float = 20.0) -> None:
        self.pump.until(lambda: (self.said.extend(self.n.lines()), what())[1], timeout)

    def type(self, line: str) -> list[str]:
        """``line`` typed: what it printed at once and what followed once the table rested."""
        self.said.append(self.input.prompt() + line)
        self.typed.add(self.said[-1])
        out = self.input.typed(line)
        self.said += out
        return out + self.settle()

    def close(self) -> None:
        if self.c.link is not None:
            self.c.link.close()


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    set_language("en")


def play_round(p: LinePlayer, rng: random.Random, limit: int = 400) -> list[str]:
    """Moves typed, by number, by label or by kind and cards, until the round is over."""
    for _ in range(limit):
        if p.c.table.over:
            return p.said
        moves = p.c.table.moves
        if p.c.dialog is not None:
            p.type(str(rng.randint(1, len(p.c.dialog.options))))  # type: ignore[union-attr]
        elif moves:
            m = rng.choice(moves)
            how = rng.randrange(3)
            if how == 0:
                p.type(str(moves.index(m) + 1))
            elif how == 1:
                p.type(str(m["label"]))
            else:
                p.type(" ".join([m["kind"], *(m.get("cards") or ())]).lower())
        else:
            p.settle()
    raise AssertionError("the round never ended:\n" + "\n".join(p.said[-30:]))


def test_a_whole_pika_game_by_typed_lines_and_another_round(kit: HostKit) -> None:
    p = LinePlayer.seated(kit, pika_link(kit, None, players=3, hand=4, seed=11))
    try:
        said = "\n".join(p.said)
        assert "Pika · table" in said and "Your move." in said or "deals 4 cards each" in said
        assert re.search(r"Bot \d deals 4 cards each", said) and "the starter card is" in said
        if p.c.table.moves:
            assert any(line.startswith("Moves: 1. ") for line in p.said), said
            assert p.input.prompt() == "your move: "
        assert p.type("hand")[0].startswith("Your hand: ")
        look = p.type("look")
        assert any(line.startswith("Eva ") and "(you)" in line for line in look), look
        assert any(line.startswith("Table: pile ") for line in look), look
        play_round(p, random.Random(3))
        end = p.said[p.said.index("Round over"):]
        assert re.search(r"^1\. \S+", "\n".join(end), re.M), end
        assert "again: play again" in end and "leave: leave the table: a bot takes your " \
            "seat in the next round" in end
        score = p.type("match")
        assert any("The match at table" in line for line in score), score
        at = len(p.said)
        p.type("again")
        p.until(lambda: not p.c.table.over and bool(p.c.table.hand))
        assert any("deals 4 cards each" in line for line in p.said[at:]), p.said[at:]
        p.type("lobby")
        assert p.c.screen == "lobby"
        assert any("is kept" in line for line in p.said[-5:]), p.said[-5:]
        rows = p.type("tables")
        assert any(line.startswith(f"{p.c.tables[0]['id']}: Pika, Eva") for line in rows), rows
    finally:
        p.close()


def test_a_choice_by_number_a_chat_the_help_and_the_rules(kit: HostKit) -> None:
    p = LinePlayer.seated(kit, pika_link(kit))           # Eva holds R7 W R1 R2 R3: her turn
    try:
        out = p.type("play w")                     # four moves start so: a choice
        assert out[0] == "Which play w?" and out[-1].startswith("Type the number"), out
        assert p.input.prompt() == "choose 1 to 4: "
        p.type("3")                                # W naming green
        assert any("Eva plays W and names green" in line for line in p.said), p.said[-8:]
        p.type("chat hello all")
        assert "<Eva> hello all" in p.said
        helped = p.type("help")
        assert any(line.startswith("again: ") for line in helped), helped
        assert not any(line.startswith("create: ") for line in helped), "a lobby's command"
        rules = p.type("rules")
        assert rules[0] == "Pika: the rules in short" and len(rules) == 2, rules
        assert p.type("")                          # an empty line: where am I, said again
    finally:
        p.close()


def test_the_lobby_the_create_form_the_room_and_a_bot_by_lines(host: Host) -> None:
    link = RecordingLink(host.address, "Eva")
    c = Controller(link, name="Eva", describe=describer)
    pump = Pump(c)
    link.start(c.deliver)
    p = LinePlayer(c, pump, at_table=False)
    settle = p.settle
    try:
        pump.until(lambda: c.welcomed and bool(c.games), timeout=20)
        settle()
        assert any(line.startswith("Lobby of test host, as Eva") for line in p.said), p.said
        p.type("create")
        assert any("each field in turn" in line for line in p.said), p.said
        assert p.input.prompt().startswith("Game (")
        p.type("pika")
        assert p.input.prompt().startswith("Players (4; 2 to 4)")
        assert p.type("9") == ["Players: from 2 to 4"]
        p.type("3")
        p.type("done")
        pump.until(lambda: c.screen == "room", timeout=20)
        settle()
        assert any(line.startswith("1. Eva") for line in p.said), p.said
        p.type("bot")
        pump.until(lambda: "Bot 2" in " ".join(p.n.narration(RoomNarration).now()), timeout=10)
        p.type("remove")                           # the owner's choice, by number
        assert p.input.prompt() == "choose 1 to 1: "
        p.type("1")
        pump.until(lambda: "Bot 2" not in " ".join(p.n.narration(RoomNarration).now()), timeout=10)
        p.type("bot easy")
        p.type("bot hard")
        pump.until(lambda: "Bot 3" in " ".join(p.n.narration(RoomNarration).now()), timeout=10)
        p.type("ready")
        pump.until(lambda: c.screen == "table", timeout=20)
        settle()
        assert any(line.startswith("Pika · table") for line in p.said), p.said
    finally:
        p.close()


@pytest.mark.parametrize("lang", ["cs", "ca"])
def test_the_line_mode_speaks_the_players_language(kit: HostKit, speaking: None,
                                                   lang: str) -> None:
    set_language(lang)
    p = LinePlayer.seated(kit, table_link(kit, "pikac", 3, seed=5))
    try:
        play_round(p, random.Random(5))
        p.type("look")
        p.type("help")
        p.type("match")
        p.type("again")
        p.type("lobby")
        p.type("tables")
        # The words typed are the player's own, and the commands' names are typed as they
        # are in every language (the help says what each does in his).
        shown = "\n".join(line for line in p.said if line not in p.typed)
        names = {w for cmd in COMMANDS for w in cmd.words} | set(QUERIES)
        found = [w for w in english_in(shown, english_words()) if w not in names]
        assert not found, (lang, found, shown)
    finally:
        p.close()


def test_the_start_screen_by_lines_name_then_address(host: Host) -> None:
    c = Controller(None, name="", describe=describer,
                   connect=lambda who, where: net_link(where, who))
    pump = Pump(c)
    c.receive({"type": "hosts", "hosts": [["kitchen [abcd known]", host.address]], "text": ""})
    p = LinePlayer(c, pump, at_table=False)
    try:
        assert p.said[:2] == ["Join a cardparty host.",
                              "Hosts on this network (type the number to join one):"], p.said
        assert p.said[2] == f"1. kitchen [abcd known], {host.address}"
        assert p.input.prompt() == "your name: "
        assert p.type("") == ["type your name first"]
        p.type("Eva")
        assert p.input.prompt() == "host address, or a host's number: "
        p.type("1")                                  # the host found, by its number
        p.until(lambda: c.welcomed and c.screen == "lobby")
        assert any(line.startswith("connected to ") for line in p.said), p.said
    finally:
        p.close()


def test_a_table_of_the_lobby_is_chosen_by_its_id(host: Host) -> None:
    """What up and down do in the lobby: ``pick t2``; what follows is about it."""
    link = RecordingLink(host.address, "Eva")
    c = Controller(link, name="Eva", describe=describer)
    pump = Pump(c)
    link.start(c.deliver)
    p = LinePlayer(c, pump, at_table=False)
    try:
        # Connected, not only welcomed: the link says "connected" (with this testing host's
        # notice) after the welcome, and a notice arriving then replaced the pick's.
        pump.until(lambda: c.welcomed and bool(c.games) and c.connection == "connected",
                   timeout=20)
        link.request("create", game="pika", players=2)
        link.request("create", game="kakhead", players=2)
        pump.until(lambda: len(c.tables) == 2 and all(t["seats"][0] == "Eva"
                                                      for t in c.tables), timeout=20)
        second = c.tables[1]["id"]
        assert p.type(f"pick {second}")[-1] == f"table {second} chosen"
        p.type("ready")
        pump.until(lambda: any(t["id"] == second and t["seats"][0] == "Eva (ready)"
                               for t in c.tables), timeout=10)
        assert c.tables[0]["seats"][0] == "Eva"
        assert p.type("pick t99")[-1] == "no table 't99' in the lobby (tables lists them)"
    finally:
        p.close()
