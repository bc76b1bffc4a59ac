"""Game records in the client (docs/playing.md, "Game records: replays and the review"): the
history screen, the replay viewer, their keys, and the host's records messages.

Screens it adds: ``history`` (the player's finished rounds at this host, newest first, a page
at a time: when, the game, the table and its round, who sat where, his place; Enter replays
the one under the cursor from his seat, ``v`` opens it with its review asked for; the lobby's
``H``) and ``replay`` (one round stepped through: left and right, Home and End, ``g`` to a
step, ``s`` the next seat's view, each view the one the host sent that seat at that step;
``v`` the review, whose marked moves are said at their step with their loss and why, ``]``
and ``[`` go to them; at the table after a round ``L`` leads a shared replay that everybody
there follows, a step key takes the lead, ``a`` steps alone and ``E`` ends it; ``q`` goes
back where it came from). The end of a round replays it (``r``) and reviews it (``v``).

The state is ``replay_model``'s (``History``, ``Replayer``), held by the controller.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.client.dialog import TextField
from cardparty.client.keymap import Keys
from cardparty.client.keys_table import round_over, seated_over
from cardparty.client.replay_model import Replayer, Request
from cardparty.core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

HISTORY = Keys("history")
REPLAY = Keys("replay")
#: The keys of the end of a round that open the viewer.
RECORDS_TABLE = Keys("table")


def ask(c: Controller, request: Request | None) -> None:
    if request is not None:
        c.request(request[0], **request[1])


def open_history(c: Controller) -> None:
    """The history screen, its first page asked for."""
    c.screen = "history"
    ask(c, c.history.ask())


def open_replay(c: Controller, *, record: str | None = None, table: Any = None,
                seat: Any = None, back: str = "lobby", review: bool = False) -> None:
    """The viewer on a round (a record, or the last round of ``table``) from ``seat``, at
    the deal; ``review``: its review asked for too; ``q`` goes back to ``back``."""
    c.replay = Replayer(record=record, table=table, seat=seat,
                        wanted=(0, seat if isinstance(seat, int) else None))
    c.replay_back = back
    c.review_wanted = review
    c.screen = "replay"
    ask(c, c.replay.go(0))
    if review and record is not None:
        c.review_wanted = False
        ask(c, c.replay.ask_review())


def records_message(c: Controller, msg: dict[str, Any]) -> None:
    """The link's ``records``, ``replay``, ``review`` and ``replay_ended`` messages."""
    kind = msg.get("type")
    if kind == "records":
        c.history.take(msg)
    elif kind == "replay":
        step(c, msg)
    elif kind == "review" and c.replay.take_review(msg):
        c.notice = ngettext(
            "review: {n} decision of yours judged, {m} marked: ] and [ go to them",
            "review: {n} decisions of yours judged, {m} marked: ] and [ go to them",
            c.replay.decisions).format(n=c.replay.decisions, m=len(c.replay.marks))
    elif kind == "replay_ended" and c.replay.ended(msg) and c.screen == "replay":
        c.notice = _("{name} ended the shared replay").format(name=msg.get("by"))


def step(c: Controller, msg: dict[str, Any]) -> None:
    """A step from the host: shown in the viewer; a shared replay's step taken at the table
    after its round opens the viewer, following the leader."""
    rp = c.replay
    if msg.get("shared") and not (c.screen == "replay" and rp.table == msg.get("table")):
        if not (c.screen == "table" and c.table_id == msg.get("table") and c.table.over):
            return
        c.replay = rp = Replayer(table=msg.get("table"), following=True)
        c.replay_back = "table"
        c.screen = "replay"
        c.notice = _("{name} leads a replay of the round: you follow (a: step alone, any "
                     "step key: lead)").format(name=msg.get("leader_name") or "?")
    if msg.get("shared") and msg.get("leader_name") != c.name and rp.leading:
        rp.leading, rp.following = False, True          # another took the lead
    if rp.take(msg) and c.review_wanted:
        c.review_wanted = False
        ask(c, rp.ask_review())


# --- the lobby and the end of a round ---------------------------------------------------------

@RECORDS_TABLE.add("r", help=N_("round over: replay it, every hand shown"), when=round_over)
def replay_round(c: Controller, key: str) -> None:
    """when the round is over: replay it step by step, from your seat (s: another seat's;
    every hand is shown once a round is over)"""
    open_replay(c, table=c.table_id, seat=c.table.seat, back="table")


@RECORDS_TABLE.add("v", help=N_("round over: review your moves"), when=seated_over)
def review_round(c: Controller, key: str) -> None:
    """when the round is over: the replay with the review of your own moves asked for"""
    open_replay(c, table=c.table_id, seat=c.table.seat, back="table", review=True)


# --- the history --------------------------------------------------------------------------------

def listed(c: Controller) -> bool:
    return c.history.chosen() is not None


@HISTORY.add("up", "down", "k", "j", help=N_("choose a round"), when=listed)
def choose(c: Controller, key: str) -> None:
    """the round above or below (down past the last: the older rounds)"""
    ask(c, c.history.move(-1 if key in ("up", "k") else 1))


@HISTORY.add("enter", help=N_("replay the round from your seat"), footer=N_("Enter: replay"),
             when=listed)
def replay_chosen(c: Controller, key: str) -> None:
    """replay the round under the cursor, from your own seat (s shows another seat's)"""
    row = c.history.chosen()
    if row is not None:
        open_replay(c, record=str(row["id"]), seat=row.get("seat"), back="history")


@HISTORY.add("v", help=N_("review your moves in the round"), footer=N_("v: review"),
             when=listed)
def review_chosen(c: Controller, key: str) -> None:
    """the replay of the round under the cursor with the review of your moves asked for: the
    moves the hard search would have made otherwise, each with its loss and why"""
    row = c.history.chosen()
    if row is not None:
        open_replay(c, record=str(row["id"]), seat=row.get("seat"), back="history",
                    review=True)


@HISTORY.add("q", "escape", help=N_("back to the lobby"), footer=N_("q: lobby"))
def history_back(c: Controller, key: str) -> None:
    """back to the lobby"""
    c.screen = "lobby"


# --- the viewer ---------------------------------------------------------------------------------

def shown_step(c: Controller) -> bool:
    return bool(c.replay.view)


@REPLAY.add("left", "right", help=N_("a step back / forward"), footer=N_("left right: step"),
            when=shown_step)
def step_key(c: Controller, key: str) -> None:
    """a step back (left) or forward (right)"""
    ask(c, c.replay.forward(-1 if key == "left" else 1))


@REPLAY.add("home", "end", help=N_("the deal / the end"), when=shown_step)
def ends(c: Controller, key: str) -> None:
    """the deal (Home) or the last step (End)"""
    ask(c, c.replay.go(0 if key == "home" else c.replay.steps))


@REPLAY.add("g", help=N_("go to a step"), when=shown_step)
def jump(c: Controller, key: str) -> None:
    """go to a step by its number (0: the deal)"""
    def go(text: str) -> None:
        if text.strip().isdigit():
            ask(c, c.replay.go(int(text)))
        elif text.strip():
            c.error = _("a step is a number from 0 to {n}").format(n=c.replay.steps)
    c.dialog = TextField(_("go to step (0-{n}): ").format(n=c.replay.steps), go)


@REPLAY.add("s", help=N_("the next seat's view (then the spectators')"), footer=N_("s: seat"),
            when=shown_step)
def seat(c: Controller, key: str) -> None:
    """show the next seat's view of this step: what that player was shown (after the last
    seat, the spectators'; a round in play shows your own seat only)"""
    ask(c, c.replay.next_seat())


def reviewable(c: Controller) -> bool:
    rp = c.replay
    return rp.record is not None and rp.review is None and not rp.live


@REPLAY.add("v", help=N_("review your moves in this round"), footer=N_("v: review"),
            when=reviewable)
def review(c: Controller, key: str) -> None:
    """ask for the review of your own moves: the hard search judges each from what your
    seat could see then, and marks those it would have made otherwise by more than the
    margin, each with the estimated loss and why"""
    ask(c, c.replay.ask_review())


def marked(c: Controller) -> bool:
    return bool(c.replay.marks)


@REPLAY.add("]", "[", help=N_("the next / previous marked move of the review"),
            footer=N_("] [: marked moves"), when=marked)
def to_mark(c: Controller, key: str) -> None:
    """the table as it was before the next (]) or the previous ([) move the review marked"""
    got = c.replay.to_mark(forward=key == "]")
    if got is None:
        c.notice = _("no marked move further that way")
    ask(c, got)


def at_the_table(c: Controller) -> bool:
    """Opened from the table after its round: a shared replay may be led from here."""
    rp = c.replay
    return (c.replay_back == "table" and rp.table is not None and not rp.live
            and bool(rp.view) and not rp.leading)


@REPLAY.add("L", help=N_("lead a shared replay: everybody at the table follows"),
            when=at_the_table)
def lead(c: Controller, key: str) -> None:
    """lead a shared replay of the round: everybody at the table (seated or watching) is
    shown each step you show; any of them takes the lead by stepping himself"""
    ask(c, c.replay.lead())


def following(c: Controller) -> bool:
    return c.replay.following


@REPLAY.add("a", help=N_("step alone: stop following the leader"), when=following)
def alone(c: Controller, key: str) -> None:
    """stop following the shared replay: your steps are your own (the others go on)"""
    c.replay.alone()
    c.notice = _("you step alone")


def leading(c: Controller) -> bool:
    return c.replay.leading


@REPLAY.add("E", help=N_("end the shared replay you lead"), when=leading)
def end_shared(c: Controller, key: str) -> None:
    """end the shared replay you lead (everybody at the table is told)"""
    ask(c, c.replay.end_shared())


@REPLAY.add("q", "escape", help=N_("back (to the history, or the table)"), footer=N_("q: back"))
def back(c: Controller, key: str) -> None:
    """back where the replay was opened from: the history, or the table"""
    c.screen = c.replay_back
