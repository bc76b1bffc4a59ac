"""The fault bench's checker (bench/faults.py): every client's history (``cardparty
bot-client --history``) against what the host serving at the end keeps, and the peers' logs
against what the players saw.

- Every view a client was told is checked against the final host's table at that version:
  the table has the version, and the events the view told (as the client's seat may see them)
  are the table's events of those versions (a view's ``prev`` to its ``version``; a snapshot
  tells the last ones). A view the final table does not bear out is a move **lost**.
- Every move a client was answered ``ok`` to (at version V) is the final table's move V, by
  his seat; moves of his seat beyond those he was answered or never heard back about are
  **doubled** (the peers run with ``--idle 0``: no stand-in moves for anyone).
- No client was told two **continuations** of one table: two views of one table at one
  version that differ in the game's state, or in the events of that one move.
- The final host's ledger audit holds, and every finished table's rounds were paid once.
- Takeovers: one that was not a hand-over, while its old host's process lived, with every
  seated player's client still connected to its host, is a takeover **while the host
  served** (the takeover's time, from the new host's log line, against each client's last
  ``connection`` word before it).

A table the final host no longer keeps (a finished table is kept 600 s past its end) is
checked against the copy the bench read from the host serving as it ended (``Reading``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Seconds after a takeover a client's loss of its host still counts as before it (the two
#: are seen by different processes, each on its own clock's turn).
GRACE = 0.2
#: Reply error codes after which the move may or may not have been played (``unanswered``:
#: the host went away before it answered).
UNKNOWN = ("timeout", "closed", "unanswered")


def load(path: Path) -> list[dict[str, Any]]:
    """A history file's records (a line cut short by a kill is skipped)."""
    out = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


#: The keys of an event that are words for people, not what happened.
WORDS = ("text", "msg")


def norm(x: Any) -> Any:
    """``x`` as JSON gives it back (tuples as lists), for comparing with a history."""
    return json.loads(json.dumps(x, default=repr))


@dataclass
class Seat:
    """What one client was told and did at one table."""

    player: str
    table: str
    seat: int | None = None
    seated_at: float = 0.0
    ended_at: float | None = None
    views: list[dict[str, Any]] = field(default_factory=list)
    #: (version on, move) sent, and the reply: version or error code
    moves: list[dict[str, Any]] = field(default_factory=list)
    replies: list[dict[str, Any]] = field(default_factory=list)
    #: (time, connected?) from the client's ``connection`` words
    links: list[tuple[float, bool]] = field(default_factory=list)
    over: bool = False


def seats(histories: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Seat]]:
    """table -> player -> Seat, from every player's history (a player plays one table per
    bot-client run: ``seated`` starts it, ``end`` closes it)."""
    out: dict[str, dict[str, Seat]] = defaultdict(dict)
    for player, records in histories.items():
        cur: Seat | None = None
        for r in records:
            kind = r.get("kind")
            if kind == "seated":
                cur = out[r["table"]].setdefault(player, Seat(player, r["table"]))
                cur.seat, cur.seated_at = r.get("seat"), r["t"]
                cur.links.append((r["t"], True))
            elif cur is None:
                continue
            elif kind == "view" and r.get("table") == cur.table:
                cur.views.append(r)
                cur.over = cur.over or bool(r.get("over"))
            elif kind == "move" and r.get("table") == cur.table:
                cur.moves.append(r)
            elif kind == "reply" and r.get("table") == cur.table:
                cur.replies.append(r)
            elif kind == "connection":
                state = r.get("state")
                if state == "lost":
                    cur.links.append((r["t"], False))
                elif state in ("restored", "moved"):
                    cur.links.append((r["t"], True))
            elif kind == "end":
                cur.ended_at = r["t"]
                cur = None
    return out


def connected_at(seat: Seat, t: float, grace: float = 0.0) -> bool | None:
    """Whether the client still had its host at ``t`` (None: not seated at a live table
    then). A loss up to ``grace`` after ``t`` counts (the peers' log and the clients' histories
    are read by different clocks of one machine, a moment apart); being moved or restored
    counts only up to ``t`` itself (a follower welcomed by the new host a moment after it took
    over had lost the old one)."""
    if t < seat.seated_at or (seat.ended_at is not None and t > seat.ended_at):
        return None
    if any(v.get("over") and v["t"] <= t for v in seat.views):
        return None
    state = True
    for when, up in seat.links:
        if when <= (t if up else t + grace):
            state = up
    return state


@dataclass
class Reading:
    """A table as a host kept it (its game, its key in the ledger), and where it was read."""

    table: Any
    key: str | None
    where: str


@dataclass
class Verdict:
    tables: int = 0
    finished: int = 0
    checked_final: int = 0
    checked_earlier: int = 0
    unchecked: int = 0
    views: int = 0
    lost: int = 0
    doubled: int = 0
    acked: int = 0
    continuations: int = 0
    audit: bool | None = None
    paid_once: int = 0
    paid_of: int = 0
    takeovers: int = 0
    handed: int = 0
    while_served: int = 0
    examples: list[str] = field(default_factory=list)
    noted: list[tuple[str, str]] = field(default_factory=list)

    def note(self, text: str, kind: str) -> None:
        """An example of a failure of ``kind``: at most four of each kind, so that one table
        that lost many moves does not hide a takeover or a round paid twice."""
        if sum(1 for k, _ in self.noted if k == kind) < 4:
            self.noted.append((kind, text))
            self.examples.append(text)


def event_marks(table: Any) -> list[int] | None:
    """How many events the table had after each version (0 up to its version), by playing
    its journal again from its seed; None when the journal does not give every version (a
    version without a move: a hand put in order) or replays otherwise."""
    from cardparty.core.table import Table

    if table.version != len(table.journal):
        return None
    twin = Table(table.game, table.players, table.settings, table.variant_ids, table.seed,
                 table.names, catalog=table.catalog)
    marks = [len(twin.events)]
    try:
        for seat, move in table.journal:
            twin.play(seat, move)
            marks.append(len(twin.events))
    except Exception:
        return None
    if norm(twin.events) != norm(table.events):
        return None
    return marks


def check_table(tid: str, told: dict[str, Seat], kept: Any, v: Verdict) -> None:
    """Every view and answered move of ``told`` against ``kept`` (the table as a host
    keeps it)."""
    from cardparty.core.table import redact_event

    marks = event_marks(kept)
    journal = kept.journal
    for s in told.values():
        seat = s.seat
        # The words a host adds to an event (its narration, ``text`` and ``msg``) are not in
        # a history (bot-client leaves them out): compared without them.
        events = None if marks is None else [
            norm({k: x for k, x in redact_event(e, seat).items() if k not in WORDS})
            for e in kept.events]
        for view in s.views:
            v.views += 1
            version, prev = view.get("version", 0), view.get("prev")
            if version > kept.version:
                v.lost += 1
                v.note(f"{tid}: {s.player} was told version {version}; the final table is at "
                       f"{kept.version}", "lost")
                continue
            if events is None or marks is None:
                continue
            shown = view.get("events") or []
            upto = events[:marks[version]]
            if view.get("snapshot") or prev is None or prev > version:
                good = not shown or upto[len(upto) - len(shown):] == shown
            else:
                good = upto[marks[prev]:] == shown
            if not good:
                v.lost += 1
                v.note(f"{tid}: {s.player} was told events at version {version} (from {prev}) "
                       "that the final table does not hold", "lost")
        answered = {(r.get("on"), r.get("version")) for r in s.replies if "version" in r}
        unknown = sum(1 for r in s.replies if r.get("error") in UNKNOWN)
        unknown += max(0, len(s.moves) - len(s.replies))
        by_on = {m.get("on"): m for m in s.moves}
        for on, version in answered:
            v.acked += 1
            sent = by_on.get(on)
            if not isinstance(version, int) or version > len(journal) or version < 1:
                v.lost += 1
                v.note(f"{tid}: {s.player}'s move answered at version {version} is not in the "
                       f"final table ({len(journal)} moves)", "lost")
                continue
            js, jm = journal[version - 1]
            if sent is not None and (js != seat or norm([jm.kind, list(jm.cards), jm.choice])
                                     != norm([sent["move"]["kind"], sent["move"]["cards"],
                                              sent["move"]["choice"]])):
                v.lost += 1
                v.note(f"{tid}: {s.player}'s move at version {version} is another in the final "
                       "table", "lost")
        made = sum(1 for js, _ in journal if js == seat)
        extra = made - len(answered) - unknown
        if extra > 0:
            v.doubled += extra
            refused: dict[str, int] = defaultdict(int)
            for r in s.replies:
                if r.get("error") and r["error"] not in UNKNOWN:
                    refused[str(r["error"])] += 1
            said = ", ".join(f"{k} {n}" for k, n in sorted(refused.items())) or "none"
            v.note(f"{tid}: seat {seat} ({s.player}) has {made} moves in the final table; "
                   f"{len(answered)} were answered ok, {unknown} never answered (refused: "
                   f"{said})", "doubled")


def continuations(told: dict[str, Seat], v: Verdict) -> None:
    """Two views of one table at one version that tell different games, per client."""
    for s in told.values():
        state: dict[int, str] = {}
        step: dict[int, str] = {}
        for view in s.views:
            version = view.get("version")
            if not isinstance(version, int):
                continue
            digest = json.dumps(view.get("state"), sort_keys=True)
            if state.setdefault(version, digest) != digest:
                v.continuations += 1
                v.note(f"{s.table}: {s.player} was told two games at version {version}",
                       "continuation")
            if not view.get("snapshot") and view.get("prev") == version - 1:
                moved = json.dumps(view.get("events"), sort_keys=True)
                if step.setdefault(version, moved) != moved:
                    v.continuations += 1
                    v.note(f"{s.table}: {s.player} was told two moves for version {version}",
                           "continuation")


def check(histories: dict[str, list[dict[str, Any]]], final: Path | None,
          readings: dict[str, Reading], takeovers: list[dict[str, Any]]) -> Verdict:
    """The whole verdict (module docstring). ``final``: the data folder of the host serving
    at the end (None: none serves); ``readings``: tables read as they ended; ``takeovers``:
    each with ``t``, ``why``, and ``alive`` (whether its old host's process lived then)."""
    from party import audit_holds, economy_keys, kept_tables, payouts_by_key

    v = Verdict()
    by_table = seats(histories)
    kept = kept_tables(final) if final is not None else {}
    keys = economy_keys(final) if final is not None else {}
    for tid, told in sorted(by_table.items()):
        v.tables += 1
        continuations(told, v)
        table = kept.get(tid)
        key = keys.get(tid)
        if table is not None:
            v.checked_final += 1
        elif tid in readings:
            table, key = readings[tid].table, readings[tid].key
            v.checked_earlier += 1
        else:
            v.unchecked += 1
            v.note(f"{tid}: not kept by the final host, and never read as it ended", "unchecked")
            continue
        check_table(tid, told, table, v)
        if table.result() is not None:
            v.finished += 1
            if final is not None and key is not None:
                v.paid_of += 1
                paid = payouts_by_key(final, key)
                v.paid_once += paid == 1
                if paid != 1:
                    v.note(f"{tid}: its round was paid {paid} times", "paid")
    if final is not None:
        v.audit = audit_holds(final)
    for t in takeovers:
        v.takeovers += 1
        if t["why"] == "handed over":
            v.handed += 1
            continue
        if not t["alive"]:
            continue
        states = [connected_at(s, t["t"], GRACE) for told in by_table.values()
                  for s in told.values()]
        seated = [st for st in states if st is not None]
        if seated and all(seated):
            v.while_served += 1
            v.note(f"a takeover at {t['t']:.2f} ({t['why']}) while all {len(seated)} seated "
                   "players still had their host", "takeover")
    return v


def view_times(histories: dict[str, list[dict[str, Any]]]) -> dict[str, list[tuple[float, bool]]]:
    """Per client and table (``player/table``): the times of its views, and whether each
    showed the game over; a client's ``end`` of a table counts as a view of it over (a bot
    may take the last view from its session's copy and never record it as pushed: what
    comes after its end, a snapshot after a reconnect, is no pause in a game)."""
    out: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for player, records in histories.items():
        for r in records:
            kind = r.get("kind")
            if kind == "view":
                out[f"{player}/{r.get('table')}"].append((r["t"], bool(r.get("over"))))
            elif kind == "end" and isinstance(r.get("table"), str):
                out[f"{player}/{r['table']}"].append((r["t"], True))
    for times in out.values():
        times.sort()
    return out


def pause(times: list[tuple[float, bool]], start: float, end: float) -> float | None:
    """The longest gap between two views a client saw across [start, end] (the gap that
    spans ``start`` and every one after it, up to ``end`` or the game's end; a gap that goes
    on past ``end`` counts up to ``end``: the rest is the next fault's); None when the game
    was not in play at ``start``."""
    before = [t for t, _ in times if t <= start]
    if not before or any(over and t <= start for t, over in times):
        return None
    last = before[-1]
    longest = 0.0
    for t, over in times:
        if t <= start:
            continue
        if last > end:
            break
        longest = max(longest, min(t, end) - last)
        last = t
        if over:
            return longest
    if last <= end:
        longest = max(longest, end - last)
    return longest
