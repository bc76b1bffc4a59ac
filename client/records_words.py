"""The history screen and the replay viewer as the screen draws them and the line mode says
them (``keys_records`` owns their keys): one line a listed round; a step of a round as one
seat saw it, the shared replay's state and the review's marks.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import time
from typing import Any

from cardparty.client.replay_model import History, Replayer
from cardparty.core.i18n import _, ngettext

Fragments = list[tuple[Any, ...]]


def history_head(h: History) -> Fragments:
    """The history's heading, and why it lists nothing when it does not."""
    out: Fragments = [("class:heading", " " + _("Your rounds at this host, newest first")
                       + "\n\n")]
    if not h.rows:
        out.append(("class:dim", " " + (_("asking the host...") if h.waiting else _(
            "no round of yours is kept here yet: a round you finish shows here")) + "\n"))
    return out


def row_text(row: dict[str, Any], game: str) -> str:
    """A listed round in words: "02 Dec 12:41 · Pika · table t3, round 2 · Eva*, Bot 2 ·
    place 1"."""
    ended = row.get("ended")
    when = time.strftime("%d %b %H:%M", time.localtime(float(ended))) if isinstance(
        ended, int | float) else "?"
    seat = row.get("seat")
    names = [f"{n}*" if i == seat else str(n) for i, n in enumerate(row.get("names") or ())]
    places = row.get("places") or []
    place = places[seat] if isinstance(seat, int) and 0 <= seat < len(places) else None
    where = _("table {table}, round {n}").format(table=row.get("table") or "?",
                                                 n=row.get("round") or 1)
    parts = [when, game, where, ", ".join(names)]
    if place is not None:
        parts.append(_("place {n}").format(n=place))
    return " · ".join(parts)


def step_line(rp: Replayer) -> str:
    """Where the replay is: the step, whose view, who made the step and when."""
    names = rp.names
    seen = (_("as {name} saw it").format(name=names[rp.seat]) if rp.seat is not None
            and rp.seat < len(names) else _("as a spectator saw it"))
    line = _("step {n} of {of} · {seen}").format(n=rp.step, of=rp.steps, seen=seen)
    if rp.step == 0:
        line += " · " + _("the deal")
    elif isinstance(rp.mover, int) and 0 <= rp.mover < len(names):
        line += " · " + _("{name} moved").format(name=names[rp.mover])
    if isinstance(rp.at, int | float):
        line += f" · {int(rp.at) // 60}:{int(rp.at) % 60:02d}"
    if rp.live:
        line += " · " + _("a round in play: your own seat only")
    return line


def shared_line(rp: Replayer) -> str:
    if rp.following and rp.leader:
        return _("{name} leads: you follow (a: step alone; any step key takes the lead)"
                 ).format(name=rp.leader)
    if rp.leading:
        return _("you lead: everybody at the table follows (E: end it)")
    return ""


def review_lines(rp: Replayer) -> Fragments:
    """The review: how many decisions were judged and marked; at a marked move, its loss
    and why."""
    if rp.review is None:
        return []
    if rp.review == "asked":
        return [("class:dim", "\n " + _("the review is being worked out...") + "\n")]
    out: Fragments = [("class:dim", "\n " + ngettext(
        "review: {n} decision judged, {m} marked (margin {margin} in 100)",
        "review: {n} decisions judged, {m} marked (margin {margin} in 100)",
        rp.decisions).format(n=rp.decisions, m=len(rp.marks),
                             margin=round(100 * rp.margin)) + "\n")]
    if rp.marks:
        out.append(("class:dim", " " + _("marked at steps {steps}").format(
            steps=", ".join(str(m.get("step")) for m in rp.marks)) + "\n"))
    mark = rp.mark_at()
    if mark is not None:
        out.append(("class:error", " " + _(
            "your move from here: {played}; estimated loss {loss} in 100: {reason}").format(
            played=mark.get("played"), loss=max(1, round(100 * float(mark.get("loss") or 0))),
            reason=mark.get("reason")) + "\n"))
    return out
