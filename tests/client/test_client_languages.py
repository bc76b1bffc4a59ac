"""Each language on every screen: a real client at a real host plays a turn of each game in
Czech, Catalan and English, and walks through the screens around the table (the start screen,
the lobby, the create form of every game, open play, the waiting room, the dialogs, a host's
refusal, the league, the shop); the Czech and Catalan screens, and the option help of every
subcommand, hold no English word of the catalog's source, and every screen's title and key
line stay within 80 columns in every language."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from cardparty.client.cli import COMMANDS
from cardparty.client.cli import main as cli_main
from cardparty.client.controller import Controller
from cardparty.client.dialog import CreateForm
from cardparty.client.screens.league import LeagueScreen
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import LOCALE_DIR, _, set_language
from cardparty.net.host import Host
from tests.client.clientkit import HostKit, choose_by_keys, form_pick, keeping_coins, player, seated
from tests.client.test_client_small import snapshot

WORD = re.compile(r"[^\W\d_]{3,}")
#: Words that are the same in every language here: names, keys, the program's name.
SAME = {"Pika", "Eva", "Bot", "cardparty", "Enter", "Tab", "Esc", "Ctrl", "help"}
#: The pieces of words the edges of a box cut in what lies under it (the log under the
#: end-of-round box: "Eva pass│...│ix"): the piece left of its left edge, right of its right.
CUT_LEFT = re.compile(r"[^\W\d_]+(?=[│┌└])")
CUT_RIGHT = re.compile(r"(?<=[│┐┘])[^\W\d_]+$|(?<=[│┐┘])[^\W\d_]+(?=\W)")


def uncut(line: str) -> str:
    line = CUT_LEFT.sub(" ", line, count=1)
    edges = [i for i, ch in enumerate(line) if ch in "│┐┘"]
    if len(edges) >= 2 or any(ch in line for ch in "┐┘"):
        last = edges[-1] + 1
        line = line[:last] + CUT_RIGHT.sub(" ", line[last - 1:], count=1)[1:]
    return line


def english_in(text: str, english: set[str]) -> list[str]:
    """The English source words ``text`` shows, sorted; pieces of words cut by a box's edges
    are left out."""
    shown = "\n".join(uncut(line) for line in text.splitlines())
    return sorted({w for w in WORD.findall(shown) if w in english})


def english_words() -> set[str]:
    """Words of the catalog's English source that no translation uses."""
    source: set[str] = set()
    target: set[str] = set()
    for lang in ("cs", "ca"):
        with open(LOCALE_DIR / lang / "LC_MESSAGES" / "cardparty.po", "rb") as fh:
            for m in read_po(fh, locale=lang):
                if not m.id:
                    continue
                for s in m.id if isinstance(m.id, tuple) else (m.id,):
                    source.update(WORD.findall(re.sub(r"\{[^}]*\}", "", s)))
                for s in m.string if isinstance(m.string, tuple) else (m.string,):
                    target.update(WORD.findall(s))
    return {w for w in source - target - SAME}


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    set_language("en")


def cases() -> list[tuple[str, str]]:
    """Every game (no variant) in every language."""
    return [(g, lang) for g in sorted(load_catalog().games) if "-" not in g
            for lang in ("cs", "ca", "en")]


@pytest.mark.parametrize(("game", "lang"), cases())
def test_a_turn_in_each_language(kit: HostKit, speaking: None, game: str, lang: str) -> None:
    set_language(lang)
    c = seated(kit, game, load_catalog().game(game).max_players, seed=3)
    rng = random.Random(7)
    for _turn in range(3):             # a turn: the player's move and the bots' answers
        choose_by_keys(c, rng)
    c.key("tab")
    screens = [snapshot(c, 80, 24)]
    c.key("?")
    screens.append(snapshot(c, 80, 24))
    c.key("?")
    screens.append(snapshot(c, 80, 24))
    c.key("escape")
    wide = snapshot(c, 160, 24)
    c.close()
    assert "too small" not in screens[0] and "malý" not in screens[0]
    # The players, zones, log and moves wrap to the screen's width by themselves; the lines
    # that cannot wrap (the title, the keys at the bottom) fit 80 columns unwrapped.
    lines = wide.splitlines()
    for line in (lines[0], lines[-1]):
        assert len(line) <= 80, (lang, line)
    if lang == "en":
        assert "Hand" in screens[0]
        return
    english = english_words()
    for text in screens:
        found = english_in(text, english)
        assert not found, (game, lang, found, text)


@pytest.mark.parametrize("game", sorted(g for g in load_catalog().games if "-" not in g))
def test_every_zone_a_view_names_is_in_the_catalogs(kit: HostKit, game: str) -> None:
    """Kakhead's 'burned: 0' stayed English on a Czech screen: a zone's name the game did not
    mark for the catalogs, so no check of English words could see it."""
    from cardparty.core.i18n import catalog

    c = seated(kit, game, load_catalog().game(game).max_players, seed=3)
    view = c.table.view
    names = set(view.get("zones") or {})
    names |= {k for p in view.get("players") or () for k in p.get("zones") or {}}
    c.close()
    assert names, game
    for lang in ("cs", "ca"):
        untold = sorted(n for n in names if catalog(lang).gettext(n) == n)
        assert not untold, (game, lang, untold)


@pytest.mark.parametrize("lang", ("cs", "ca"))
def test_piquet_spoken_declarations_in_each_language(kit: HostKit, speaking: None,
                                                      lang: str) -> None:
    """PQ-16: the players' own declarations (elder declares, younger answers good, not good
    or equal) read in the language, up to the end of the deal."""
    set_language(lang)
    c = seated(kit, "piquet", 2, settings={"spoken": True, "deals": 1}, seed=4)
    rng = random.Random(7)
    screens = []
    for _turn in range(80):
        if c.table.over:
            break
        if any(m.get("kind") in ("declare", "answer") for m in c.table.moves):
            c.key("tab")
            screens.append(snapshot(c, 80, 24))
        choose_by_keys(c, rng)
    screens.append(snapshot(c, 80, 24))
    c.close()
    assert len(screens) > 1, "no declaration was asked of the player"
    english = english_words()
    for text in screens:
        found = english_in(text, english)
        assert not found, (lang, found, text)


# --- the screens around the table ------------------------------------------------------------

@pytest.fixture
def economy_host() -> Iterator[Host]:
    """A host that keeps coins (the profile line, the league, the shop) on 127.0.0.1."""
    with keeping_coins(30.0) as h:
        yield h


def shots(c: Controller, name: str, out: dict[str, tuple[str, str]]) -> None:
    """The screen at 80x24 (read for English words) and at 160x40 (its title and key line must
    fit 80 unwrapped; tall enough that a dialog's box never covers them), under ``name``."""
    out[name] = (snapshot(c, 80, 24), snapshot(c, 160, 40))


def around_the_table(host: Host) -> dict[str, tuple[str, str]]:
    """Every screen a player meets before and after a game, in the current language: the start
    screen with and without hosts found, the lobby, its help, the create form of every game
    (its settings and variants), open play, the waiting room and its help, the dialogs, a
    host's refusal, the league, the shop and its question."""
    out: dict[str, tuple[str, str]] = {}
    start = Controller(None)
    start.receive({"type": "hosts", "hosts": [], "text": _("searching the network")})
    shots(start, "start, searching", out)
    start.receive({"type": "hosts", "hosts": [["Eva's laptop", "192.168.1.20:7770"]]})
    shots(start, "start, a host found", out)
    eva, pump = player(host.address, "Eva")
    pump.until(lambda: eva.connection == "connected" and bool(eva.games) and bool(eva.profile))
    eva.notice = ""
    shots(eva, "lobby", out)
    eva.key("?")
    shots(eva, "lobby help", out)
    eva.key("escape")
    eva.key("c")
    for game in sorted(load_catalog().games):
        if "-" in game:
            continue
        form_pick(eva, "game", load_catalog().game(game).name)
        form = eva.dialog
        assert isinstance(form, CreateForm)
        for i in range(len(form.rows)):         # every row's help line
            form.cursor = i
            shots(eva, f"create form, {game}, row {i}", out)
    form_pick(eva, "game", load_catalog().game("piquet").name)
    form = eva.dialog
    assert isinstance(form, CreateForm)
    form.cursor = len(form.rows) - 1
    eva.key("enter")
    pump.until(lambda: eva.screen == "room")
    shots(eva, "waiting room", out)
    eva.key("?")
    shots(eva, "waiting room help", out)
    eva.key("escape")
    eva.key("b")
    shots(eva, "the bot dialog", out)
    eva.key("3")                                 # hard: the level shows in the room
    pump.until(lambda: "Bot" in snapshot(eva, 80, 24))
    shots(eva, "waiting room with a bot", out)
    eva.key("q")
    shots(eva, "lobby, a seat kept", out)
    eva.notice = ""
    shots(eva, "lobby with a table", out)
    eva.key("b")                                 # the table is full: the host refuses
    eva.key("enter")
    pump.until(lambda: bool(eva.error))
    shots(eva, "a host's refusal", out)
    eva.error = ""
    eva.key("o")
    shots(eva, "open play", out)
    eva.key("escape")
    eva.key("q")
    shots(eva, "quit?", out)
    eva.key("escape")
    eva.key("L")
    pump.until(lambda: eva.get(LeagueScreen).league is not None)
    shots(eva, "league", out)
    eva.key("q")
    eva.key("$")
    pump.until(lambda: eva.profile is not None)
    shots(eva, "shop", out)
    eva.key("g")
    shots(eva, "buy?", out)
    eva.key("escape")
    eva.exit()
    return out


@pytest.mark.parametrize("lang", ("cs", "ca", "en"))
def test_the_screens_around_the_table_in_each_language(economy_host: Host, speaking: None,
                                                       lang: str) -> None:
    set_language(lang)
    screens = around_the_table(economy_host)
    english = english_words()
    for name, (text, wide) in screens.items():
        lines = wide.splitlines()
        for line in (lines[0], lines[-1]):
            assert len(line) <= 80, (name, lang, line)
        if lang == "en":
            continue
        found = english_in(text, english)
        assert not found, (name, lang, found, text)
    if lang == "en":
        assert "Join a cardparty host" in screens["start, a host found"][0]
        assert "Seats" in screens["waiting room"][0]


@pytest.mark.parametrize("lang", ("cs", "ca"))
def test_every_subcommand_explains_its_options_in_the_language(
        capsys: pytest.CaptureFixture[str], speaking: None, lang: str) -> None:
    """``cardparty <sub> --help``: the words of the help (not the options' names and
    metavars, which one types as they are) hold no English word of the catalogs' source."""
    english = english_words()
    for sub in COMMANDS:
        with pytest.raises(SystemExit):
            cli_main([sub.replace("_", "-"), "--help", "--lang", lang])
        out = capsys.readouterr().out
        assert out.strip(), sub
        body = out.split("\n\n", 1)[1]              # after the usage lines
        words = []
        for line in body.splitlines():
            line = re.sub(r"^\s{2}(-[^ ]+(?:, -[^ ]+)?(?: [^ ]+)?|\w+)(?:\s{2,}|$)", "", line)
            words += [w for w in WORD.findall(line) if not w.isupper()]
        found = sorted({w for w in words if w in english})
        assert not found, (sub, lang, found, out)


@pytest.mark.parametrize("lang", ("cs", "ca"))
def test_a_round_paid_the_league_and_a_booster_bought_in_each_language(speaking: None,
                                                                       lang: str) -> None:
    """Open play with bots to the end of a round: the round's box with its reward, the
    match's scoreboard, the league with the player's points, a booster bought and active, and
    the refusal of a pass the coins cannot pay; no English word of the catalogs' source."""
    set_language(lang)
    with keeping_coins(0.3) as host:
        eva, pump = player(host.address, "Eva")
        pump.until(lambda: eva.connection == "connected" and bool(eva.games)
                   and bool(eva.profile))
        eva.key("o")
        form_pick(eva, "game", "Pikáč")
        form_pick(eva, "players", 2)
        form = eva.dialog
        assert isinstance(form, CreateForm)
        form.cursor = len(form.rows) - 1
        eva.key("enter")
        pump.until(lambda: eva.screen == "table")
        rng = random.Random(5)
        while not eva.table.over:
            pump.pump(0.01)
            choose_by_keys(eva, rng)
        pump.until(lambda: eva.table_id in eva.rewards)
        screens = {"round over": snapshot(eva, 80, 24)}
        eva.key("m")
        screens["scoreboard"] = snapshot(eva, 80, 24)
        eva.key("escape")
        eva.key("l")
        pump.until(lambda: eva.screen == "lobby")
        eva.key("L")
        pump.until(lambda: eva.screen == "league"
                   and bool((eva.get(LeagueScreen).league or {}).get("standings")))
        screens["league with points"] = snapshot(eva, 80, 24)
        eva.key("q")
        eva.key("$")
        eva.key("g")
        eva.key("enter")                                       # buy
        pump.until(lambda: bool((eva.profile or {}).get("gold_left")))
        screens["a booster bought"] = snapshot(eva, 80, 24)
        eva.notice = ""
        screens["a booster active"] = snapshot(eva, 80, 24)
        eva.key("v")
        eva.key("enter")
        pump.until(lambda: bool(eva.error))
        screens["not enough coins"] = snapshot(eva, 80, 24)
        eva.exit()
    english = english_words()
    for name, text in screens.items():
        found = english_in(text, english)
        assert not found, (name, lang, found, text)
