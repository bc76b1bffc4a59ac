"""The replay viewer: one round stepped through, from any seat (docs/playing.md, "Game
records: replays and the review").

Left and right step back and forward, Home and End go to the deal and the end, ``g`` jumps to
a step, ``s`` shows the next seat's view (after the last, the spectators'); each view is the
one the host sent that seat at that step (the host replays it). ``v`` asks for the review of
the player's own moves: its marked moves, each with its estimated loss and why, are said at
their step, and ``]`` and ``[`` go to the next and the previous. At the table after a round,
``L`` leads a shared replay (everybody at the table follows the steps shown); while another
player leads, his steps show here, any step key takes the lead, ``a`` steps alone; the
leader ends it with ``E``. Opened from the history (Enter, ``v``) and from the end of a round
(``r``, ``v``); ``q`` goes back where it came from.

It owns the round shown (``replay_model.Replayer``) and where ``q`` goes back to.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardparty.client.at_table import round_over, seated_over
from cardparty.client.dialog import TextField
from cardparty.client.drawing import Fragments, counter_text
from cardparty.client.keymap import Keys
from cardparty.client.link import Message
from cardparty.client.replay_model import Replayer, Request
from cardparty.client.screen import Receiver, Screen
from cardparty.core.i18n import N_, _, ngettext, translate

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.render import Renderer

REPLAY = Keys("replay")
#: The keys of the end of a round that open this screen.
FROM_TABLE = Keys("table")


class ReplayScreen(Screen):
    """See the module docstring."""

    name = "replay"
    heading = N_("replay")
    keys = (FROM_TABLE, REPLAY)
    wrap = True

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        self.replay = Replayer()
        #: the screen ``q`` goes back to (``history`` or ``table``)
        self.back = "lobby"
        #: the review is asked for once the host named the round's record
        self.review_wanted = False

    def receivers(self) -> Mapping[str, Receiver]:
        return {"replay": self._step, "review": self._review, "replay_ended": self._ended}

    def _step(self, msg: Message) -> None:
        c = self.c
        rp = self.replay
        if msg.get("shared") and not (c.screen == self.name and rp.table == msg.get("table")):
            if not (c.screen == "table" and c.table_id == msg.get("table") and c.table.over):
                return
            # At the table after the round: the leader's steps are followed here.
            self.replay = Replayer(table=msg.get("table"), following=True)
            self.back = "table"
            c.show(self.name)
            c.notice = _("{name} leads a replay of the round: you follow (a: step alone, any "
                         "step key: lead)").format(name=msg.get("leader_name") or "?")
        if msg.get("shared") and msg.get("leader_name") != c.name and self.replay.leading:
            self.replay.leading, self.replay.following = False, True   # another took the lead
        if self.replay.take(msg) and self.review_wanted:
            self.review_wanted = False
            ask(c, self.replay.ask_review())

    def _review(self, msg: Message) -> None:
        if self.replay.take_review(msg):
            marks = len(self.replay.marks)
            self.c.notice = ngettext(
                "review: {n} decision of yours judged, {m} marked: ] and [ go to them",
                "review: {n} decisions of yours judged, {m} marked: ] and [ go to them",
                self.replay.decisions).format(n=self.replay.decisions, m=marks)

    def _ended(self, msg: Message) -> None:
        if self.replay.ended(msg) and self.c.screen == self.name:
            self.c.notice = _("{name} ended the shared replay").format(name=msg.get("by"))

    def title(self, r: Renderer) -> str:
        rp = self.replay
        game = r.game_name(str(rp.view.get("game") or "?"))
        where = (_("record {id}").format(id=rp.record) if rp.record is not None
                 else _("table {table}").format(table=rp.table))
        return _("cardparty · replay · {game} · {where}").format(game=game, where=where)

    def draw(self, r: Renderer) -> Fragments:
        rp = self.replay
        if not rp.view:
            return [("class:dim", " " + _("asking the host...") + "\n")]
        names = rp.names
        out: Fragments = [("class:heading", " " + step_line(rp) + "\n")]
        shared = shared_line(rp)
        if shared:
            out.append(("class:notice", " " + shared + "\n"))
        out.append(("", "\n"))
        for i, p in enumerate(rp.view.get("players") or ()):
            if not isinstance(p, dict):
                continue
            style = "class:me" if i == rp.seat else ""
            line = f" {names[i] if i < len(names) else '?'}: " + ngettext(
                "{n} card", "{n} cards", int(p.get("count") or 0)).format(n=p.get("count", 0))
            status = p.get("status")
            if status:
                line += f" ({translate(str(status))})"
            out.append((style, line))
            for zone, value in (p.get("zones") or {}).items():
                out += [("", f" · {translate(zone)}: "), *r.zone_value(value)]
            out.append(("", "\n"))
        for zone, value in (rp.view.get("zones") or {}).items():
            out += [("", f" {translate(zone)}: "), *r.zone_value(value), ("", "\n")]
        for key, value in (rp.view.get("counters") or {}).items():
            out.append(("class:dim", f" {translate(key)}: {counter_text(value, names, key)}\n"))
        if rp.seat is not None:
            out += [("", " " + _("hand of {name}: ").format(
                name=names[rp.seat] if rp.seat < len(names) else "?")),
                *r.cards([str(x) for x in rp.view.get("hand") or ()], 40), ("", "\n")]
        if rp.events:
            out.append(("", "\n"))
            out += [("class:dim", f" {e.get('text')}\n") for e in rp.events if e.get("text")]
        result = rp.view.get("result")
        if rp.step == rp.steps and isinstance(result, dict) and result.get("summary"):
            out.append(("class:notice", " " + str(result.get("summary")) + "\n"))
        out += review_lines(rp)
        return out


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


def ask(c: Controller, request: Request | None) -> None:
    if request is not None:
        c.request(request[0], **request[1])


def open_replay(c: Controller, *, record: str | None = None, table: Any = None,
                seat: Any = None, back: str = "lobby", review: bool = False) -> None:
    """The viewer on a round (a record, or the last round of ``table``) from ``seat``, at
    the deal; ``review``: its review asked for too; ``q`` goes back to ``back``."""
    screen = c.get(ReplayScreen)
    screen.replay = Replayer(record=record, table=table, seat=seat,
                             wanted=(0, seat if isinstance(seat, int) else None))
    screen.back = back
    screen.review_wanted = review
    c.show(ReplayScreen.name)
    ask(c, screen.replay.go(0))
    if review and record is not None:
        screen.review_wanted = False
        ask(c, screen.replay.ask_review())


@FROM_TABLE.add("r", help=N_("round over: replay it, every hand shown"), when=round_over)
def replay_round(c: Controller, key: str) -> None:
    """when the round is over: replay it step by step, from your seat (s: another seat's;
    every hand is shown once a round is over)"""
    open_replay(c, table=c.table_id, seat=c.table.seat, back="table")


@FROM_TABLE.add("v", help=N_("round over: review your moves"), when=seated_over)
def review_round(c: Controller, key: str) -> None:
    """when the round is over: the replay with the review of your own moves asked for"""
    open_replay(c, table=c.table_id, seat=c.table.seat, back="table", review=True)


def replayer(c: Controller) -> Replayer:
    return c.get(ReplayScreen).replay


def shown_step(c: Controller) -> bool:
    return bool(replayer(c).view)


@REPLAY.add("left", "right", help=N_("a step back / forward"), footer=N_("left right: step"),
            when=shown_step)
def step(c: Controller, key: str) -> None:
    """a step back (left) or forward (right)"""
    ask(c, replayer(c).forward(-1 if key == "left" else 1))


@REPLAY.add("home", "end", help=N_("the deal / the end"), when=shown_step)
def ends(c: Controller, key: str) -> None:
    """the deal (Home) or the last step (End)"""
    rp = replayer(c)
    ask(c, rp.go(0 if key == "home" else rp.steps))


@REPLAY.add("g", help=N_("go to a step"), when=shown_step)
def jump(c: Controller, key: str) -> None:
    """go to a step by its number (0: the deal)"""
    def go(text: str) -> None:
        if text.strip().isdigit():
            ask(c, replayer(c).go(int(text)))
        elif text.strip():
            c.error = _("a step is a number from 0 to {n}").format(n=replayer(c).steps)
    c.dialog = TextField(_("go to step (0-{n}): ").format(n=replayer(c).steps), go)


@REPLAY.add("s", help=N_("the next seat's view (then the spectators')"), footer=N_("s: seat"),
            when=shown_step)
def seat(c: Controller, key: str) -> None:
    """show the next seat's view of this step: what that player was shown (after the last
    seat, the spectators'; a round in play shows your own seat only)"""
    ask(c, replayer(c).next_seat())


def reviewable(c: Controller) -> bool:
    rp = replayer(c)
    return rp.record is not None and rp.review is None and not rp.live


@REPLAY.add("v", help=N_("review your moves in this round"), footer=N_("v: review"),
            when=reviewable)
def review(c: Controller, key: str) -> None:
    """ask for the review of your own moves: the hard search judges each from what your
    seat could see then, and marks those it would have made otherwise by more than the
    margin, each with the estimated loss and why"""
    ask(c, replayer(c).ask_review())


def marked(c: Controller) -> bool:
    return bool(replayer(c).marks)


@REPLAY.add("]", "[", help=N_("the next / previous marked move of the review"),
            footer=N_("] [: marked moves"), when=marked)
def to_mark(c: Controller, key: str) -> None:
    """the table as it was before the next (]) or the previous ([) move the review marked"""
    got = replayer(c).to_mark(forward=key == "]")
    if got is None:
        c.notice = _("no marked move further that way")
    ask(c, got)


def at_the_table(c: Controller) -> bool:
    """Opened from the table after its round: a shared replay may be led from here."""
    rp = replayer(c)
    return (c.get(ReplayScreen).back == "table" and rp.table is not None and not rp.live
            and bool(rp.view) and not rp.leading)


@REPLAY.add("L", help=N_("lead a shared replay: everybody at the table follows"),
            when=at_the_table)
def lead(c: Controller, key: str) -> None:
    """lead a shared replay of the round: everybody at the table (seated or watching) is
    shown each step you show; any of them takes the lead by stepping himself"""
    ask(c, replayer(c).lead())


def following(c: Controller) -> bool:
    return replayer(c).following


@REPLAY.add("a", help=N_("step alone: stop following the leader"), when=following)
def alone(c: Controller, key: str) -> None:
    """stop following the shared replay: your steps are your own (the others go on)"""
    replayer(c).alone()
    c.notice = _("you step alone")


def leading(c: Controller) -> bool:
    return replayer(c).leading


@REPLAY.add("E", help=N_("end the shared replay you lead"), when=leading)
def end_shared(c: Controller, key: str) -> None:
    """end the shared replay you lead (everybody at the table is told)"""
    ask(c, replayer(c).end_shared())


@REPLAY.add("q", "escape", help=N_("back (to the history, or the table)"), footer=N_("q: back"))
def back(c: Controller, key: str) -> None:
    """back where the replay was opened from: the history, or the table"""
    c.show(c.get(ReplayScreen).back)
