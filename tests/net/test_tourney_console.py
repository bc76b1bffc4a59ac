"""An event's standings on the host's console and written out (docs/operating.md, "Events"):
``standings`` in columns, ``export`` as CSV and as one HTML page whose names are escaped."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardparty.client.commands.host_console import Console
from cardparty.core.tourney.export import to_csv, to_html, to_text
from tests.net.hostkit import Kit


def played_event(k: Kit) -> str:
    org = k.player("Org")
    reply = k.ask(org, "event_create", game="pika", players=2, settings={"hand_size": 3},
                  rounds=1, start_within=0, title="Friday")
    assert reply is not None
    eid = str(reply["event"]["id"])
    people = {}
    for name in ("Ana", "<b>Bob</b>"):
        people[name] = k.player(name)
        k.ask(people[name], "event_join", event=eid)
    k.ask(org, "event_start", event=eid)
    ev = k.parts.events.events[eid]
    assert ev.current is not None
    t = ev.current.tables[0]
    by_token = {p.token: p for p in people.values()}
    k.play_out(t.table, {s: by_token[tok] for s, tok in enumerate(t.seats) if tok})
    k.tick(0.0)
    return eid


def test_the_console_says_the_standings_and_exports_them(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    k = Kit(organisers=("Org",))
    eid = played_event(k)
    host = SimpleNamespace(parts=k.parts, call=lambda work: work())
    console = Console(host, io.StringIO(
        f"standings\nexport {eid} {tmp_path}/Friday.csv\nexport {eid} {tmp_path}/Friday.html\n"
        f"export {eid} {tmp_path}/friday.txt\nstandings e9\n"))
    console.thread.join(5)
    said = capsys.readouterr().err
    assert "Friday: Pika, round 1 of 1 (over)" in said and "Buchholz" in said
    assert "Ana" in said and f"are in {tmp_path}/Friday.csv" in said
    assert "FILE.csv or FILE.html" in said and "there is no event e9" in said
    rows = list(csv.reader((tmp_path / "Friday.csv").read_text().splitlines()))
    assert rows[0][:5] == ["rank", "name", "points", "buchholz", "firsts"] and rows[0][-1] == "r1"
    assert sorted(r[1] for r in rows[1:]) == ["<b>Bob</b>", "Ana"]
    assert {float(r[2]) for r in rows[1:]} <= {0.0, 0.5, 1.0}
    page = (tmp_path / "Friday.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "&lt;b&gt;Bob&lt;/b&gt;" in page
    assert "<b>Bob</b>" not in page and "http" not in page      # escaped; nothing to fetch


def test_the_exports_read_the_events_wire_map() -> None:
    event = {"id": "e1", "title": "", "game": "pika", "game_name": "Pika", "round": 2,
             "rounds": 3, "status": "playing", "format": "swiss", "duplicate": True,
             "standings": [{"rank": 1, "name": "Ana", "points": 4.5, "buchholz": 1.25,
                            "firsts": 1, "played": 2, "byes": 0, "status": "in",
                            "rating": 3.2, "rounds": [3, 1.5]},
                           {"rank": 2, "name": "Eve", "points": 0, "buchholz": 0, "firsts": 0,
                            "played": 0, "byes": 0, "status": "withdrawn", "rating": None,
                            "rounds": [None, None]}]}
    assert to_csv(event).splitlines() == [
        "rank,name,points,buchholz,firsts,played,byes,status,rating,r1,r2",
        "1,Ana,4.5,1.25,1,2,0,in,3.2,3,1.5", "2,Eve,0,0,0,0,0,withdrawn,,,"]
    text = to_text(event)
    assert text[0] == "e1: Pika, round 2 of 3 (playing)" and "(withdrawn)" in text[-1]
    assert "duplicate" in to_html(event) and 'class="withdrawn"' in to_html(event)
