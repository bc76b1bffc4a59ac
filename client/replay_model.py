"""What the history screen and the replay viewer hold: the player's records, and one round
stepped through (docs/playing.md, "Game records: replays and the review").

``History``: the player's finished rounds as the host lists them, newest first, a page at a
time, and the one under the cursor. ``Replayer``: one round (a record, or the round of a
table: its round in play from one's own seat, or its last finished one), the step and the
seat asked for and the view the host answered for them (the very view that seat was sent:
the host replays, so what is shown never depends on the plugins installed here), that step's
events in words, the review's marked moves with their loss and reason, and the shared replay
at the table (who leads; whether this player follows).

What goes to the host goes out as a request of the link (``Request``: an action and its
fields), made here and sent by the screen; what comes back is ``take``n. Stepping is never
waited on: the step asked for is remembered and the view shown is the last one answered.

Must not know about: terminals, the wire format, game rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict, cast

from cardparty.client.link import Message
from cardparty.core.contract import View, WireEvent
from cardparty.net.wire.record_replies import RecordEntry


class Fields(TypedDict, total=False):
    """What a request of this model gives the link (``link.Link.request``'s keywords):
    ``before`` (``records``), ``record``, ``table``, ``step`` and ``seat`` (``replay``,
    ``replay_lead``; ``table`` alone: ``replay_end``), ``id`` (``review``)."""

    before: float | None
    record: str | None
    table: str | None
    step: int
    seat: int | None
    id: str


#: A request for the link: its action (``link.Link.request``) and its fields.
Request = tuple[str, Fields]


class RecordsShown(TypedDict):
    """The client's ``records`` message (``records_link``): a page of the host's records
    with their names and titles as they may be drawn, whether older ones remain, and the
    ``before`` it answers (None: the first page)."""

    type: Literal["records"]
    records: list[RecordEntry]
    more: bool
    before: float | None


class ReplayShown(TypedDict):
    """The client's ``replay`` message (``records_link.step_message``): a step the host
    answered (``replay``) or a shared replay's leader moved to (``shared``, with his player
    id and name), its view's names and its events' words as they may be drawn."""

    type: Literal["replay"]
    record: str | None
    table: str | None
    step: int
    steps: int
    seat: int | None
    live: bool
    mover: int | None
    at: float | None
    view: View
    events: list[WireEvent]
    shared: bool
    leader: NotRequired[str | None]
    leader_name: NotRequired[str]


class MarkShown(TypedDict):
    """A decision the review marked, as the client says it: its step, its loss, the moves'
    labels and the reason in the player's language."""

    step: int
    loss: float
    played: str
    better: str
    reason: str


class ReviewShown(TypedDict):
    """The client's ``review`` message: the round's record and the seat judged, how many
    decisions were judged, the margin and the marked ones."""

    type: Literal["review"]
    record: str | None
    seat: int | None
    decisions: int
    margin: float
    marks: list[MarkShown]


class ReplayEndedShown(TypedDict):
    """The client's ``replay_ended`` message: the table whose shared replay ended, its
    record, and who ended it (as it may be drawn)."""

    type: Literal["replay_ended"]
    table: str | None
    record: str | None
    by: str


@dataclass
class History:
    """The player's records, newest first, as pages of the host's ``records`` come."""

    rows: list[RecordEntry] = field(default_factory=list)
    cursor: int = 0
    more: bool = False
    #: a page was asked for and has not come yet
    waiting: bool = False

    def ask(self, older: bool = False) -> Request:
        """The first page (or, ``older``, the page after the last row listed)."""
        self.waiting = True
        before = self.rows[-1].get("ended") if older and self.rows else None
        return ("records", {"before": before})

    def take(self, msg: Message) -> None:
        """A ``records`` message (the screen's receiver of that type)."""
        page = cast(RecordsShown, msg)
        rows = [r for r in page.get("records") or () if isinstance(r, dict) and r.get("id")]
        if page.get("before") is None:
            self.rows = rows
        else:
            known = {r["id"] for r in self.rows}
            self.rows += [r for r in rows if r["id"] not in known]
        self.more = bool(page.get("more"))
        self.waiting = False
        self.cursor = max(0, min(self.cursor, len(self.rows) - 1))

    def move(self, by: int) -> Request | None:
        """The cursor down (``by`` > 0) or up; past the last row of a listing with older
        records, the next page is asked for."""
        if not self.rows:
            return None
        last = len(self.rows) - 1
        if by > 0 and self.cursor == last and self.more and not self.waiting:
            return self.ask(older=True)
        self.cursor = max(0, min(last, self.cursor + by))
        return None

    def chosen(self) -> RecordEntry | None:
        return self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None


@dataclass
class Replayer:
    """One round stepped through. ``record``: its id (None: the round of ``table`` the host
    picks, the one in play or the last finished); ``seat``: the seat whose view is shown
    (None: the spectators'); ``step``: the step shown (0: the deal)."""

    record: str | None = None
    table: str | None = None
    step: int = 0
    seat: int | None = None
    steps: int = 0
    #: the step and seat last asked for (shown once the host answers)
    wanted: tuple[int, int | None] = (0, None)
    #: The view shown: a ``View`` as the host answered it, empty before it answered (the
    #: screen asks ``not view``, which a View's required keys would make unreachable to the
    #: type checker, so the map it holds is kept as plain as the screen reads it).
    view: dict[str, Any] = field(default_factory=dict)
    events: list[WireEvent] = field(default_factory=list)
    mover: int | None = None
    at: float | None = None
    live: bool = False
    #: the review: None before it is asked for, "asked" while worked out, "done"
    review: str | None = None
    decisions: int = 0
    margin: float = 0.0
    marks: list[MarkShown] = field(default_factory=list)
    #: the shared replay at the table: who leads it (a name; None: there is none), and
    #: whether this player follows it (the steps the leader shows are shown here)
    leader: str | None = None
    following: bool = False
    leading: bool = False

    # --- what the host answers ---------------------------------------------------------------

    def about(self, msg: ReplayShown) -> bool:
        """Whether the host's step ``msg`` is about this round."""
        if self.record is not None and msg.get("record") == self.record:
            return True
        return self.record is None and msg.get("table") == self.table

    def take(self, got: Message) -> bool:
        """A ``replay`` step from the host (asked, or pushed by a shared replay's leader;
        the screen's receiver of that type): shown when it is about this round (and, pushed,
        while this player follows); True when it changed what is shown."""
        msg = cast(ReplayShown, got)
        shared = bool(msg.get("shared"))
        if shared:
            self.leader = str(msg.get("leader_name") or "?")
            if not self.following and not self.leading:
                return False
        elif not self.about(msg):
            return False
        if msg.get("record") is not None:
            self.record = msg["record"]
        self.table = msg.get("table", self.table)
        self.step = int(msg.get("step") or 0)
        self.steps = int(msg.get("steps") or 0)
        self.seat = msg.get("seat")
        self.view = dict(msg["view"])
        self.events = list(msg.get("events") or ())
        self.mover = msg.get("mover")
        self.at = msg.get("at")
        self.live = bool(msg.get("live"))
        if shared:
            self.wanted = (self.step, self.seat)
        return True

    def take_review(self, got: Message) -> bool:
        """The host's ``review`` of this round (the screen's receiver of that type)."""
        msg = cast(ReviewShown, got)
        if self.record is None or msg.get("record") != self.record:
            return False
        self.review = "done"
        self.decisions = int(msg.get("decisions") or 0)
        self.margin = float(msg.get("margin") or 0.0)
        self.marks = sorted((m for m in msg.get("marks") or () if isinstance(m, dict)),
                            key=lambda m: int(m.get("step") or 0))
        return True

    def ended(self, got: Message) -> bool:
        """The table's shared replay ended (``replay_ended``; the screen's receiver of that
        type): nobody leads, nobody follows."""
        msg = cast(ReplayEndedShown, got)
        if msg.get("table") != self.table:
            return False
        self.leader = None
        self.following = self.leading = False
        return True

    # --- what the player asks for ------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.view.get("players") or ())

    @property
    def names(self) -> list[str]:
        return [str(p.get("name") or "?") for p in self.view.get("players") or ()
                if isinstance(p, dict)]

    def go(self, step: int | None = None, seat: int | Literal["same"] | None = "same"
           ) -> Request:
        """The request for ``step`` (None: the one shown) from ``seat`` ("same": the one
        shown; None: the spectators'); leading or following a shared replay, stepping leads
        it (anybody at the table takes the lead by stepping himself)."""
        step = self.wanted[0] if step is None else step
        step = max(0, min(step, self.steps)) if self.steps else max(0, step)
        who = self.wanted[1] if isinstance(seat, str) else seat
        self.wanted = (step, who)
        if self.following or self.leading:
            self.following, self.leading = False, True
            return ("replay_lead", {"table": self.table, "record": self.record, "step": step,
                                    "seat": who})
        return ("replay", {"record": self.record, "table": self.table, "step": step,
                           "seat": who})

    def forward(self, by: int = 1) -> Request:
        return self.go(self.wanted[0] + by)

    def next_seat(self) -> Request:
        """The next seat's view (after the last seat: the spectators', then seat 0 again)."""
        seat = self.wanted[1]
        n = max(1, self.players)
        following = None if seat is not None and seat + 1 >= n else (
            0 if seat is None else seat + 1)
        return self.go(seat=following)

    def lead(self) -> Request:
        """Lead a shared replay at the table from the step and seat shown."""
        self.following, self.leading = False, True
        return self.go()

    def alone(self) -> None:
        """Step alone: the leader's steps are no longer shown here."""
        self.following = False

    def end_shared(self) -> Request:
        self.leading = False
        return ("replay_end", {"table": self.table})

    def ask_review(self) -> Request | None:
        """The review of this round (None: no record to review yet, or it is asked)."""
        if self.record is None or self.review in ("asked", "done"):
            return None
        self.review = "asked"
        return ("review", {"id": self.record})

    def mark_at(self, step: int | None = None) -> MarkShown | None:
        """The review's mark of the move made at ``step`` (the move that led to the step
        after it), if any."""
        step = self.step if step is None else step
        return next((m for m in self.marks if int(m.get("step") or 0) == step), None)

    def to_mark(self, forward: bool = True) -> Request | None:
        """The next (or previous) marked move: the table as it was before it."""
        here = self.wanted[0]
        steps = [int(m.get("step") or 0) for m in self.marks]
        found = [s for s in steps if s > here] if forward else [s for s in steps if s < here]
        if not found:
            return None
        return self.go(min(found) if forward else max(found))
