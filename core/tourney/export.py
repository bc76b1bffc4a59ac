"""An event's standings as CSV and as one static HTML page (docs/playing.md, "Events").

The page is one file with its style inside and nothing to fetch: a party opens it in any
browser on the big screen, with no server. Every name and title in it is escaped (a player's
name is his own text). Both come from the event's wire map (``net/host/tourney.py``'s
``event`` message), so a client, the host's console and ``cardparty event export`` write the
same thing.

Must not know about: sockets, the store, any game.
"""

from __future__ import annotations

import csv
import html
import io
from typing import Any

#: The CSV's columns, in order (the round columns come after them: r1, r2, ...).
COLUMNS = ("rank", "name", "points", "buchholz", "firsts", "played", "byes", "status",
           "rating")


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def to_csv(event: dict[str, Any]) -> str:
    """The standings, one line per entrant in order, a header first."""
    rounds = int(event.get("round", 0))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*COLUMNS, *(f"r{i + 1}" for i in range(rounds))])
    for line in event.get("standings", ()):
        per = list(line.get("rounds", ()))[:rounds]
        writer.writerow([_number(line.get(c)) for c in COLUMNS]
                        + [_number(p) for p in per] + [""] * (rounds - len(per)))
    return out.getvalue()


_STYLE = """
body { font-family: sans-serif; background: #111; color: #eee; margin: 2em; }
h1 { font-size: 2.2em; margin: 0 0 .2em 0; }
p.about { color: #aaa; margin: 0 0 1em 0; font-size: 1.2em; }
table { border-collapse: collapse; font-size: 1.6em; }
th, td { padding: .2em .7em; text-align: right; border-bottom: 1px solid #333; }
th { color: #9cf; } td.name, th.name { text-align: left; }
tr.withdrawn td { color: #888; } tr.top td { color: #fd6; }
"""


def to_html(event: dict[str, Any]) -> str:
    """The standings as one page (module docstring)."""
    esc = html.escape
    rounds = int(event.get("round", 0))
    total = event.get("rounds")
    title = event.get("title") or f"{event.get('game_name', event.get('game', ''))}"
    about = (f"{esc(str(event.get('game_name', '')))}, {esc(str(event.get('format', '')))}"
             f"{', duplicate' if event.get('duplicate') else ''}: round {rounds} of "
             f"{esc(str(total))} ({esc(str(event.get('status', '')))})")
    head = "".join(f"<th>r{i + 1}</th>" for i in range(rounds))
    rows = []
    for line in event.get("standings", ()):
        per = list(line.get("rounds", ()))[:rounds]
        cells = "".join(f"<td>{esc(_number(p))}</td>" for p in per)
        cells += "<td></td>" * (rounds - len(per))
        kind = "withdrawn" if line.get("status") == "withdrawn" else (
            "top" if line.get("rank") == 1 else "")
        rows.append(
            f'<tr class="{kind}"><td>{esc(_number(line.get("rank")))}</td>'
            f'<td class="name">{esc(str(line.get("name", "")))}</td>'
            f"<td>{esc(_number(line.get('points')))}</td>"
            f"<td>{esc(_number(line.get('buchholz')))}</td>"
            f"<td>{esc(_number(line.get('firsts')))}</td>{cells}</tr>")
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{esc(str(title))}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{esc(str(title))}</h1><p class=\"about\">{about}</p>"
        "<table><tr><th>#</th><th class=\"name\">name</th><th>points</th><th>Buchholz</th>"
        f"<th>firsts</th>{head}</tr>\n" + "\n".join(rows) + "\n</table></body></html>\n")


def to_text(event: dict[str, Any], most: int = 0) -> list[str]:
    """The standings as lines of plain text in columns (the host's console; ``most``: the
    first lines only, 0: all)."""
    rounds = int(event.get("round", 0))
    lines = list(event.get("standings", ()))
    if most:
        lines = lines[:most]
    width = max([len(str(s.get("name", ""))) for s in lines] + [4])
    head = (f"{'#':>3}  {'name':<{width}}  {'points':>6}  {'Buchholz':>8}  {'firsts':>6}"
            + "".join(f"  {'r' + str(i + 1):>5}" for i in range(rounds)))
    out = [f"{event.get('title') or event.get('id', '')}: {event.get('game_name', '')}, "
           f"round {rounds} of {event.get('rounds')} ({event.get('status', '')})", head]
    for s in lines:
        per = list(s.get("rounds", ()))[:rounds]
        mark = " (withdrawn)" if s.get("status") == "withdrawn" else ""
        out.append(f"{_number(s.get('rank')):>3}  {str(s.get('name', '')):<{width}}  "
                   f"{_number(s.get('points')):>6}  {_number(s.get('buchholz')):>8}  "
                   f"{_number(s.get('firsts')):>6}"
                   + "".join(f"  {_number(p) or '-':>5}" for p in per) + mark)
    return out
