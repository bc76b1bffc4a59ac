"""The scoreboard of a match: two rounds played by keys at a real host, then the end of the
round and the scoreboard box (key m) show each round's places and scores and the totals, by
player name, and fit 80x24; and the client never loses the round that just ended while the
host's summary has not caught up."""

from __future__ import annotations

import re

from cardparty.client.render import Renderer
from cardparty.client.scoreboard import grid, match_of
from cardparty.client.screens.table import TableScreen
from cardparty.client.theme import UNICODE
from tests.client.clientkit import Client, HostKit, pika_at, seated
from tests.client.test_client_flows import play_by_keys, text_of
from tests.client.test_client_small import snapshot


def rounds_known(c: Client, n: int) -> bool:
    return len((c.match_summary() or {}).get("rounds") or ()) == n


def row_of(text: str, name: str) -> list[str]:
    """The numbers and bracketed scores on ``name``'s line of the scoreboard."""
    for line in text.splitlines():
        found = re.search(rf" {re.escape(name)} +(?=-?\d+( \(|\s*[│|]?$| ))", line)
        if found and "cards" not in line[found.end():]:
            inside = re.split(r"[│|]", line[found.end():])[0]     # not what is right of a box
            return re.findall(r"-?\d+ \(-?\d+\)|-?\d+", inside)
    raise AssertionError(f"no scoreboard line of {name}:\n{text}")


def play_two_rounds(kit: HostKit) -> tuple[Client, list[dict]]:
    c = pika_at(kit, None, players=2, hand=3, seed=5)
    results = []
    for n in (1, 2):
        play_by_keys(c)
        results.append(dict(c.table.view["result"]))
        c.pump.until(lambda n=n: rounds_known(c, n))
        if n == 1:
            c.key("n")
            c.pump.until(lambda: bool(c.table.view) and not c.table.over)
            c.settle()
    return c, results


def expected_row(seat: int, results: list[dict]) -> list[str]:
    cells = []
    for r in results:
        scores = r.get("scores")
        cells.append(f"{r['places'][seat]}" + ("" if scores is None
                                                  else f" ({scores[seat]})"))
    cells.append(str(sum(1 for r in results if r["places"][seat] == 1)))
    if results[0].get("scores") is not None:
        cells.append(str(sum(int(r["scores"][seat]) for r in results)))
    return cells


def test_two_rounds_show_on_the_scoreboard_with_names_and_totals(kit: HostKit) -> None:
    c, results = play_two_rounds(kit)
    assert c.failures == []
    names = c.table.names
    # The end of the second round: both rounds, then the totals, by name.
    over = text_of(Renderer(c, UNICODE).over())
    assert "Round over" in over and "The match after 2 rounds" in over, over
    for seat, name in enumerate(names):
        assert row_of(over, name) == expected_row(seat, results), over
        assert f"{results[1]['places'][seat]}. {name}" in over       # this round's place
    assert "seat 0" not in over and "seat 1" not in over
    # The same at 80x24 in the real application, and in the box the m key opens.
    screen = snapshot(c, 80, 24)
    assert "The match after 2 rounds" in screen and "too small" not in screen, screen
    c.key("m")
    assert c.get(TableScreen).scoreboard
    screen = snapshot(c, 80, 24)
    assert "The match at table" in screen and "round 2" in screen, screen
    for seat, name in enumerate(names):
        assert row_of(screen, name) == expected_row(seat, results), screen
    assert len(screen.splitlines()) == 24
    c.key("x")                                  # any key closes it, and does nothing else
    assert not c.get(TableScreen).scoreboard and c.table.over
    c.command("match")                          # the command line reaches it too
    assert c.get(TableScreen).scoreboard and c.error == ""
    c.close()


def test_the_scoreboard_before_any_round_is_over_says_so(opening: Client) -> None:
    c = opening
    c.key("m")
    screen = snapshot(c, 80, 24)
    assert "No round is over yet" in screen and "Hand" in screen, screen
    c.key("escape")
    assert not c.get(TableScreen).scoreboard and c.screen == "table"


SUMMARY = {"round": 2, "version": 40, "seats": [{"name": "Eva"}, {"name": "Petr"}],
           "rounds": [{"round": 1, "places": [2, 1], "scores": [7, 0]}],
           "totals": {"wins": [0, 1], "scores": [7, 0]}}


def test_the_round_just_over_counts_before_the_hosts_summary_has_it() -> None:
    view = {"version": 55, "result": {"places": [1, 2], "scores": [0, 5]}}
    m = match_of(SUMMARY, ["seat 0", "seat 1"], view)
    assert m.names == ["Eva", "Petr"]
    assert [r[0] for r in m.rounds] == [1, 2] and m.wins == [1, 1] and m.scores == [7, 5]
    caught_up = {**SUMMARY, "rounds": [*SUMMARY["rounds"], {"round": 2, "places": [1, 2],
                                                            "scores": [0, 5]}],
                 "totals": {"wins": [1, 1], "scores": [7, 5]}}
    m = match_of(caught_up, ["Eva", "Petr"], view)
    assert len(m.rounds) == 2 and m.wins == [1, 1] and m.scores == [7, 5]
    # A summary of the next round (newer than the finished view) adds nothing.
    newer = {**caught_up, "round": 3, "version": 56}
    m = match_of(newer, ["Eva", "Petr"], view)
    assert len(m.rounds) == 2 and m.wins == [1, 1]


def test_a_long_match_shows_the_newest_rounds_that_fit_and_counts_all() -> None:
    rounds = [{"round": i, "places": [1 + i % 2, 2 - i % 2], "scores": [100 * i, 3]}
              for i in range(1, 31)]
    summary = {"round": 31, "rounds": rounds, "seats": [{"name": "Eva"}, {"name": "Petr"}],
               "totals": {"wins": [15, 15], "scores": [46500, 90]}}
    lines = grid(match_of(summary, ["Eva", "Petr"]), 74)
    assert all(len(line) <= 74 for line in lines), lines
    assert "earlier rounds count in the totals only" in lines[1]
    assert lines[-2].rstrip().endswith("15 46500") and lines[-1].rstrip().endswith("15    90")
    assert "30" in lines[2]                               # the newest round is shown


def test_the_end_of_a_round_of_the_largest_table_shows_the_whole_match_at_80x24(
        kit: HostKit) -> None:
    c = seated(kit, "pikac", 8, seed=3)
    for n in (1, 2):
        play_by_keys(c)
        c.pump.until(lambda n=n: rounds_known(c, n))
        if n == 1:
            c.key("n")
            c.pump.until(lambda: bool(c.table.view) and not c.table.over)
            c.settle()
    screen = snapshot(c, 80, 24)
    assert "The match after 2 rounds" in screen and "n play again" in screen, screen
    for name in c.table.names:
        assert len(row_of(screen, name)) == 4, (name, screen)    # two rounds, wins, score
    c.key("m")
    screen = snapshot(c, 80, 24)
    assert "any key closes the scoreboard" in screen, screen
    for name in c.table.names:
        assert len(row_of(screen, name)) == 4, (name, screen)
    c.close()


def test_moves_do_not_make_the_client_ask_for_every_table(kit: HostKit) -> None:
    """A move, a reorder or a chat line changes no row of the lobby (the table's own pushes
    keep its row): the client asked for every table after each move, ten times a move's
    cost at the host, and an 8-player round by keys ran into the host's rate limit."""
    c = seated(kit, "pikac", 8, seed=3)
    asked = c.link.session.asked            # type: ignore[union-attr]
    before = asked["tables"]
    play_by_keys(c)
    assert asked["move"] >= 10
    assert asked["tables"] - before <= 2, asked
    c.close()
