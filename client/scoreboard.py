"""The scoreboard of a match: the rounds played at one table (places and scores per round)
and the totals (first places won, scores summed), as lines of text, with player names.

It reads the table's summary (``rounds``, ``totals``, ``round``) and, while the host's
summary has not caught up with the round that just ended, that round's result from the view,
so the end of a round always shows the round itself.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.i18n import _, ngettext


@dataclass
class Match:
    """The finished rounds of a match (oldest first) and its totals, per seat."""

    names: list[str]
    #: (round number, places per seat, scores per seat or None)
    rounds: list[tuple[int, list[Any], list[Any] | None]] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    scores: list[int] | None = None


def _name(seat: Any, fallback: str) -> str:
    name = seat.get("name") if isinstance(seat, dict) else None
    return str(name) if name else fallback


def match_of(summary: Mapping[str, Any] | None, names: list[str],
             view: Mapping[str, Any] | None = None) -> Match:
    """The match at a table from its ``summary`` (``names``: the view's, for seats the
    summary does not name); a finished ``view`` adds its round when the summary is older."""
    summary = summary or {}
    seats = summary.get("seats") or []
    shown = [_name(seats[i] if i < len(seats) else None, n) for i, n in enumerate(names)]
    if not shown:
        shown = [_name(s, "?") for s in seats]
    m = Match(shown)
    for r in summary.get("rounds") or ():
        if isinstance(r, dict) and isinstance(r.get("places"), list):
            scores = r.get("scores")
            m.rounds.append((int(r.get("round") or len(m.rounds) + 1), list(r["places"]),
                             list(scores) if isinstance(scores, list) else None))
    totals = summary.get("totals") or {}
    n = len(shown)
    m.wins = [int(w or 0) for w in (totals.get("wins") or [0] * n)][:n]
    m.wins += [0] * (n - len(m.wins))
    if isinstance(totals.get("scores"), list):
        m.scores = [int(s or 0) for s in totals["scores"]][:n]
    result = (view or {}).get("result")
    current = int(summary.get("round") or len(m.rounds) + 1)
    newer = int(summary.get("version") or 0) > int((view or {}).get("version") or 0)
    if (isinstance(result, dict) and isinstance(result.get("places"), list) and not newer
            and (not m.rounds or m.rounds[-1][0] < current)):
        # The summary says nothing of the round that just ended yet: add it from the view.
        places, scores = list(result["places"]), result.get("scores")
        scores = list(scores) if isinstance(scores, list) else None
        m.rounds.append((current, places, scores))
        for s, place in enumerate(places[:n]):
            m.wins[s] += 1 if place == 1 else 0
        if scores is not None:
            base = m.scores if m.scores is not None else [0] * n
            m.scores = [int(a) + int(b or 0) for a, b in zip(base, scores, strict=False)]
    return m


def cell(place: Any, score: Any) -> str:
    """One seat in one round: its place, and its score in brackets."""
    text = "-" if place is None else str(place)
    return text if score is None else f"{text} ({score})"


def grid(m: Match, width: int, order: list[int] | None = None,
         ranked: list[Any] | None = None) -> list[str]:
    """The scoreboard in lines of at most ``width`` columns: a head line, the rounds'
    numbers, then one line per seat (in ``order``) with its place (and score) in each round
    shown and its totals. The newest rounds that fit are shown; the totals count them all.
    ``ranked``: a place to put before each name (the round just over)."""
    n = len(m.names)
    order = list(range(n)) if order is None else order
    lead = 4 if ranked is not None else 1
    round_h, wins_h, score_h = _("round"), _("wins"), _("score")
    name_w = min(16, max([len(x) for x in m.names] + [len(round_h)]))
    tot_w = max(len(wins_h), 4) + 1
    score_w = (max([len(score_h)] + [len(str(s)) for s in m.scores]) + 1
               if m.scores is not None else 0)
    cells = [[cell(places[s] if s < len(places) else None,
                   None if scores is None or s >= len(scores) else scores[s])
              for s in range(n)] for _r, places, scores in m.rounds]
    col = max([len(c) for cs in cells for c in cs] + [len(str(r[0]))
                                                      for r in m.rounds] + [1]) + 2
    room = max(0, width - lead - name_w - tot_w - score_w)
    fit = min(len(m.rounds), room // col)
    hidden = len(m.rounds) - fit
    lines = [ngettext("The match after {n} round: place (score) per round",
                      "The match after {n} rounds: place (score) per round",
                      len(m.rounds)).format(n=len(m.rounds))]
    if hidden:
        lines.append(ngettext("({n} earlier round counts in the totals only)",
                              "({n} earlier rounds count in the totals only)",
                              hidden).format(n=hidden))
    head = " " * lead + f"{round_h[:name_w]:<{name_w}}"
    head += "".join(f"{r[0]:>{col}}" for r in m.rounds[hidden:])
    head += f"{wins_h:>{tot_w}}" + (f"{score_h:>{score_w}}" if score_w else "")
    lines.append(head)
    for s in order:
        start = f" {ranked[s] or '-'}. " if ranked is not None else " "
        row = f"{start:<{lead}}{m.names[s][:name_w]:<{name_w}}"
        row += "".join(f"{cs[s]:>{col}}" for cs in cells[hidden:])
        row += f"{m.wins[s]:>{tot_w}}"
        if m.scores is not None:
            row += f"{m.scores[s]:>{score_w}}"
        lines.append(row)
    return lines
