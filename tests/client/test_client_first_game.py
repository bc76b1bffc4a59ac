"""What a new player tripped over on a first evening (the small things of docs/playing.md),
each pinned: a setting's words agree with its bounds, the create form offers only the seats
the table has.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from cardparty.client.at_table import stood_in
from cardparty.client.controller import Controller
from cardparty.client.dialog import CreateForm
from cardparty.client.render import Renderer
from cardparty.client.render_screens import mode_text, status_text
from cardparty.client.screens.lobby import LobbyScreen
from cardparty.client.screens.start import StartScreen
from cardparty.client.theme import glyphs
from cardparty.client.words import describer
from cardparty.core.discovery import load_catalog
from cardparty.net.host import Host
from tests.client.clientkit import HostKit, Pump, RecordingLink, net_link
from tests.client.test_client_presence import two_at_a_table
from tests.client.test_client_small import largest_table, snapshot


def wire_games() -> list[dict]:
    catalog = load_catalog()
    return [{**info.to_wire(), "variants": []}
            for info in sorted(catalog.games.values(), key=lambda g: g.id)]


def test_no_setting_names_a_closed_list_of_values_its_bounds_contradict() -> None:
    """`cardparty games` said Piquet's target is "100, 101 or 300" and then "(30 to 300)"."""
    listed = re.compile(r"(-?\d+(?:\.\d+)?(?:, -?\d+(?:\.\d+)?)*,? or -?\d+(?:\.\d+)?)")
    for info in load_catalog().games.values():
        for name, s in info.settings.items():
            if s.kind not in ("int", "float") or s.min is None or s.max is None:
                continue
            for m in listed.finditer(str(s.help)):
                values = {float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))}
                assert {float(s.min), float(s.max)} <= values, (
                    f"{info.id} {name}: {s.help!r} against ({s.min} to {s.max})")


def test_the_create_form_offers_a_dealer_seat_the_table_has() -> None:
    """The form offered dealer seat 3 at a table of 3 (seats 0 to 2)."""
    form = CreateForm(wire_games(), lambda req: None)
    while form.game["id"] != "kakhead":
        form.cursor = 0
        form.key("right")
    players = next(r for r in form.rows if r.key == "players")
    dealer = next(r for r in form.rows if r.key == "setting:dealer")
    form.cursor = form.rows.index(players)
    while players.value > 3:
        form.key("left")
    assert dealer.max == 2
    form.cursor = form.rows.index(dealer)
    for _ in range(10):
        form.key("right")
    assert dealer.value == 2
    form.cursor = form.rows.index(players)
    form.key("left")                                  # two players: seats 0 and 1
    assert (dealer.max, dealer.value) == (1, 1)
    assert form.request()["settings"] == {"dealer": 1}


# --- a party's first evening, against a real host ---------------------------------------------

def text_of(fragments: list) -> str:
    return "".join(f[1] for f in fragments)


def play_round_by_keys(pumps: list[tuple[Controller, Pump]]) -> None:
    """The round played out by Tab and Enter (a dialog's first choice), each player once per
    view, until every screen says it is over."""
    moved: dict[str, object] = {}

    def over(c: Controller, pump: Pump) -> bool:
        pump.pump(0.01)
        version = c.table.view.get("version")
        if c.table.over or moved.get(c.name) == version:
            return c.table.over
        if c.dialog is not None:
            c.key("enter")
        elif c.table.moves:
            c.key("tab")
            c.key("enter")
            moved[c.name] = version
        return False

    end = time.monotonic() + 60
    while not all([over(c, p) for c, p in pumps]):
        assert time.monotonic() < end, "the round never ended"


def test_back_to_the_lobby_at_the_end_of_a_round_keeps_the_seat_for_the_next(
        host: Host, tmp_path: Path) -> None:
    """``l`` at the end of a round gave the seat away for good: the next round started with
    "Eva (bot)" and Eva could only watch. Now ``l`` keeps it (the box says so), the next
    round waits for her, and Enter on the table in the lobby brings her back to play it;
    ``x`` is what gives the seat to a bot."""
    (eva, pe), (petr, pp), _ = two_at_a_table(host, tmp_path, hand=2)
    table = eva.table_id
    play_round_by_keys([(eva, pe), (petr, pp)])
    box = " ".join(text_of(Renderer(eva, glyphs(False)).over()).split())
    assert "l back to the lobby, keeping your seat for the next round" in box, box
    assert "x leave the table: a bot takes your seat in the next round" in box, box
    eva.key("l")
    assert eva.screen == "lobby" and f"your seat at {table} is kept" in eva.notice
    petr.key("n")
    pp.until(lambda: "asked for another round" in petr.notice)
    pe.until(lambda: any(t["id"] == table for t in eva.tables))
    row = next(t for t in eva.tables if t["id"] == table)
    assert row["summary"]["seats"][0]["kind"] == "human", row["summary"]["seats"]
    assert row["summary"]["seats"][0]["player"] is not None
    eva.get(LobbyScreen).cursor = [t["id"] for t in eva.tables].index(table)
    eva.key("enter")                                  # back to her finished table
    pe.until(lambda: eva.screen == "table" and eva.table_id == table and eva.table.over)
    eva.key("n")                                      # the next round: hers to play
    pe.until(lambda: eva.screen == "table" and not eva.table.over and bool(eva.table.hand))
    assert eva.table.seat == 0 and "Eva (bot)" not in eva.table.names
    eva.exit()
    petr.exit()


def test_a_player_stood_in_for_while_here_reads_how_to_take_the_seat_back(
        tmp_path: Path) -> None:
    """A connected player idle for the idle clock read "waiting (a bot stands in)" and no
    word of how to take her seat back (``o`` happened to do it): the line above the moves
    says a bot plays for her and that Enter takes the seat back, and it does."""
    host = Host("tcp://127.0.0.1:0", "test host", heartbeat=1.0, idle=0.5, testing=True)
    host.start()
    link = RecordingLink(host.address, "Eva", autoplay={
        "game": "pika", "players": 2, "settings": {"hand_size": 7, "dealer": 1},
        "variants": [], "bots": "basic", "bot_delay": 0.3, "title": "t", "seed": 2})
    c = Controller(link, name="Eva", describe=describer)
    pump = Pump(c)
    try:
        link.start(c.deliver)
        pump.until(lambda: c.screen == "table" and stood_in(c) and bool(c.table.moves),
                   timeout=30)
        said = text_of(Renderer(c, glyphs(False)).actions())
        assert "A bot plays for you" in said and "Enter: take your seat back" in said, said
        # The line mode's prompt does not ask for her move either: the bot makes it.
        assert c.current.prompt() == f"table {c.table_id}: ", c.current.prompt()
        c.key("enter")
        pump.until(lambda: not stood_in(c) and not c.table.over, timeout=10)
        assert not host.tables[c.table_id].seats[0].standin
    finally:
        link.close()
        host.stop()


def test_a_lobby_whose_host_never_answered_states_nothing_about_it() -> None:
    """Under "no cardparty host answers" the lobby said "practice only (this host keeps no
    coins)" and "no tables yet: press c"."""
    from tests.client.test_client_tmux import free_port

    c = Controller(None, name="Eva", connect=lambda who, where: net_link(where, who))
    pump = Pump(c)
    c.get(StartScreen).form.address = f"127.0.0.1:{free_port()}"
    c.key("enter")
    c.key("enter")
    pump.until(lambda: "no cardparty host answers" in c.banner, timeout=20)
    lobby = text_of(Renderer(c, glyphs(False)).screen("lobby"))
    assert "practice only" not in lobby and "no tables yet" not in lobby, lobby
    assert "waiting for the host at" in lobby
    c.exit()


def test_an_entry_tables_end_offers_no_next_round_and_its_mode_says_entry() -> None:
    """An entry table's box offered "n play again" and refused it; its Mode column stayed
    "seek 100" while it played and after."""
    c = Controller(None, name="Eva")
    row = {"id": "t2", "game": "pika", "seats": ["Eva", "Petr"], "mode": "entry",
           "stake": 100, "seeking": True, "status": "over",
           "summary": {"mode": "entry", "again": False, "status": "over", "seats": [
               {"kind": "human", "name": "Eva"}, {"kind": "human", "name": "Petr"}]}}
    c.receive({"type": "tables", "tables": [row], "games": wire_games()})
    c.receive({"type": "view", "table": "t2", "view": {
        "game": "pika", "seat": 0, "players": [{"name": "Eva"}, {"name": "Petr"}],
        "moves": [], "result": {"places": [1, 2]}, "phase": "over"}})
    r = Renderer(c, glyphs(False))
    box = text_of(r.over())
    assert "play again" not in box and "plays no other round" in box, box
    assert "Enter" not in " ".join(c.keys.footer(c))
    c.key("n")
    assert c.notice == "" and c.screen == "table"
    for status in ("playing", "over"):
        assert mode_text({**row, "status": status}) == "entry 100"
    assert mode_text({**row, "status": "open"}) == "seek 100"


def test_a_full_table_waiting_for_its_players_ready_is_not_listed_open() -> None:
    seats = [{"kind": "human", "name": "Eva", "ready": True},
             {"kind": "human", "name": "Petr", "ready": False}, {"kind": "bot", "name": "B"}]
    row = {"status": "open", "summary": {"seats": seats}}
    assert status_text(row) == "ready 2/3"
    seats[1] = {"kind": "empty", "name": ""}
    assert status_text(row) == "open"


# --- the screen at the sizes a new player had ----------------------------------------------------

def words_whole(text: str, words: str) -> None:
    """Every word of ``words`` shows whole on the screen ``text`` (none broken over two
    lines or cut at an edge)."""
    shown = set(text.split())
    for word in words.split():
        assert word in shown, f"{word!r} is not whole on the screen:\n{text}"


def test_the_start_screen_shows_a_found_host_whole_at_90_columns() -> None:
    """The host row was cut mid-word at 90 columns (its words at 40 characters)."""
    c = Controller(None, name="Eva")
    label = "kitchen [k3xq-7vbn-2mla-9pzr known] (kakhead, pika, pikac, piquet)"
    c.receive({"type": "hosts", "hosts": [[label, "192.168.1.20:7770"]], "text": ""})
    text = snapshot(c, 90, 24)
    words_whole(text, label + " 192.168.1.20:7770")
    narrow = snapshot(c, 50, 24)                  # narrower: broken between words only
    words_whole(narrow, label + " 192.168.1.20:7770")


def test_too_small_breaks_between_words_at_40_by_12(kit: HostKit) -> None:
    c = largest_table(kit, "pikac")
    text = snapshot(c, 40, 12)
    assert "too small" in text
    words_whole(text, "This terminal is too small for this table. It needs at least")
    c.close()


def test_the_lobby_keeps_its_status_column_at_60_columns() -> None:
    c = Controller(None, name="Eva")
    c.show("lobby")
    seats = [{"kind": "human", "name": n, "ready": False} for n in ("Eva", "Petr")]
    c.receive({"type": "tables", "games": wire_games(), "tables": [
        {"id": "t1", "game": "pika", "seats": ["Eva", "Petr", None], "mode": "open",
         "status": "open", "summary": {"seats": [*seats, {"kind": "empty"}]}},
        {"id": "t2", "game": "kakhead", "seats": ["Ana", "Bot 2", "Bot 3"], "mode": "open",
         "status": "playing", "summary": {}}]})
    text = snapshot(c, 60, 20)
    lines = text.splitlines()
    heading = next(line for line in lines if "Table" in line and "Game" in line)
    assert heading.split()[-1] == "Status", text
    assert next(line for line in lines if line.startswith(" t2 ")).split()[-1] == "playing"
    assert next(line for line in lines if line.startswith(" t1 ")).split()[-1] == "open"


def test_every_row_of_the_keys_help_starts_its_words_in_one_column(kit: HostKit) -> None:
    """``< > , . S-left S-right`` pushed its words out of the column the others share."""
    c = largest_table(kit, "pika")
    c.key("?")
    text = snapshot(c, 80, 30)
    lines = text.splitlines()
    column = next(line.index("move along your hand") for line in lines
                  if "move along your hand" in line)
    for words in ("move the card at the cursor", "quit at once", "chat"):
        line = next(line for line in lines if words in line)
        assert line.index(words) == column, text
    said = lines
    assert any("S-left S-right" in r for r in said), text
    c.close()


# --- the four-colour deck -------------------------------------------------------------------------

def test_the_four_colour_deck_gives_each_suit_its_colour() -> None:
    c = Controller(None, name="Eva")
    r = Renderer(c, glyphs(False))
    two = {code: r.card(code)[0] for code in ("AS", "AH", "AD", "AC")}
    assert two["AH"] == two["AD"] == "class:card.red" and two["AS"] == two["AC"]
    c.command("colours four")
    four = {code: r.card(code)[0] for code in ("AS", "AH", "AD", "AC")}
    assert four == {"AS": "class:card.plain", "AH": "class:card.red",
                    "AD": "class:card.blue", "AC": "class:card.green"}
    assert "♦ blue" in c.notice
    assert r.card("R7") == ("class:card.red", "R7")          # Pika's colours stay theirs
    c.command("colours")
    assert not c.four_colour
