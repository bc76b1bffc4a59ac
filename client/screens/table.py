"""The table: the hand (cursor, selection, order), Tab through the listed moves, Enter and
the number keys into moves, the call, chat, the match, leaving, and the end of a round; what
turns a key's outcome into a move sent (cards that go one per move follow one by one); and
what each view of the host changes.

It owns the table shown and its model (``TableModel``), the tables this player walked away
from, the cards still queued, the scoreboard over it, and what the bell last rang for.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from cardparty.client.at_table import (
    host_gone,
    plays_again,
    round_over,
    seated,
    seated_over,
    seated_playing,
    spectating,
    stood_in,
)
from cardparty.client.command_line import as_key, command, normal
from cardparty.client.dialog import Choice, CreateForm, TextField
from cardparty.client.drawing import Fragments, counter_text, plain, text_lines
from cardparty.client.keymap import Keys
from cardparty.client.link import HintMessage, Message
from cardparty.client.lobby_rows import game_of, summary_of
from cardparty.client.screen import Box, Narration, Receiver, Screen
from cardparty.client.screens.room import RoomScreen
from cardparty.client.table_model import (
    MoveDict,
    Outcome,
    TableModel,
    listed_as,
    listed_at,
    wire_move,
)
from cardparty.client.theme import card_name, label_of
from cardparty.client.words import table_plugins, variants_text, version_notice
from cardparty.core.cards import pretty
from cardparty.core.contract import View
from cardparty.core.i18n import N_, _, ngettext, translate
from cardparty.net.wire.replies import UndoAsked

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer

TABLE = Keys("table")


@dataclass(frozen=True, slots=True)
class Queued:
    """Cards still to send one per move (``go_on``): the table, the kind of move, the cards
    in play order, and the hand as it was when the last one went (a new hand: it took
    effect)."""

    table: Any
    kind: str
    cards: list[str]
    hand: list[str]


class TableScreen(Screen):
    """See the module docstring."""

    name = "table"
    keys = (TABLE,)
    help_pages = 2

    def __init__(self, c: Controller) -> None:
        super().__init__(c)
        #: The table shown (its id; None: none) and its state as the views told it.
        self.table: Any = None
        self.model = TableModel()
        #: Tables this player walked away from: their views no longer take the screen.
        self.left: set[Any] = set()
        #: Cards still to send one by one (``go_on``): table, kind, cards, and the hand when
        #: the last one went.
        self.queued: Queued | None = None
        #: The match's scoreboard is open over the table (key m; the next key closes it).
        self.scoreboard = False
        #: The last thing the bell was rung for (table, kind): each rings once.
        self.rung: tuple[Any, str] | None = None
        #: The request to take back a move last said (table, version, seat): said once.
        self.undo_said: tuple[Any, Any, Any] | None = None

    def receivers(self) -> Mapping[str, Receiver]:
        return {"view": self._view, "left": self._left, "tables": self._tables,
                "hint": self._hint}

    def _tables(self, msg: Message) -> None:
        self._who_is_away(msg)
        undo_notice(self.c)

    def _hint(self, msg: Message) -> None:
        show_hint(self.c, cast(HintMessage, msg))

    def covered(self) -> bool:
        return self.scoreboard

    def overlay_key(self, key: str) -> None:
        self.scoreboard = False

    def chat(self, table: Any, line: str) -> bool:
        if self.c.current is not self or table != self.table:
            return False
        self.model.log.append(line)
        return True

    def _view(self, msg: Message) -> None:
        c = self.c
        table = msg.get("table")
        view = cast(View, msg.get("view") or {})       # the link's view message
        if table in self.left:
            return
        if c.current is self and table != self.table:
            # Another table of ours moved on (a seat kept there): say so, stay here.
            if (view.get("moves") or []) and view.get("result") is None:
                c.notice = _("table {table} waits for your move (q, then Enter on it)"
                                ).format(table=table)
            return
        if table != self.table or c.current is not self:
            if c.screen == "room" and table != c.get(RoomScreen).table:
                return                          # another table of ours: the room stays
            self._open_table(table, view)
        self.model.apply(view, list(msg.get("events") or []), table,
                         snapshot=bool(msg.get("snapshot")))
        go_on(c)
        self.attention()
        if c.current is not self:
            c.show(self.name)

    def _left(self, msg: Message) -> None:
        if self.table is not None:
            self.left.add(self.table)
        self.c.show("lobby")
        self.table = None

    def attention(self) -> None:
        """After a view: ring once when it has just become this player's turn, or a call
        (a listed move of kind ``call``) has just become due; the title says it while it
        lasts (an empty reason puts the title back)."""
        tm = self.model
        if tm.over or not tm.moves:
            why = ""
        elif any(m["kind"] == "call" for m in tm.moves):
            why = "call"
        else:
            why = "move"
        now = (self.table, why) if why else None
        if now != self.rung:
            self.rung = now
            if self.c.bell:
                self.c.on_attention(why)

    def _who_is_away(self, msg: Message) -> None:
        """The table on screen learns from its lobby row who dropped or came back (the
        others' screens say so at once, not at the next move)."""
        c = self.c
        if c.current is not self:
            return
        summary = summary_of(c, self.table)
        seats = summary.get("seats") if summary is not None else None
        if isinstance(seats, list):
            self.model.saw_away({i for i, s in enumerate(seats) if isinstance(s, dict)
                                 and s.get("kind") == "human" and s.get("connected") is False})

    def _open_table(self, table: Any, view: View) -> None:
        c = self.c
        # Another version of the game here than at the host: the host's words, not ours
        other = version_notice(table_plugins(summary_of(c, table), view, c.games))
        describe = None
        if c.describe_for is not None and other is None:
            describe = c.describe_for(str(view.get("game", "")))
        self.model = TableModel(table=table, describe=describe)
        if other:
            self.model.log.append(other)
        house = variants_text(view.get("variants") or (), game_of(c, view.get("game")))
        if house:                                 # said once, first: no room may have shown it
            self.model.log.append(_("House rules at this table: {variants}.").format(
                variants=house))
        # The waiting room's talk goes on here.
        self.model.log.extend(c.get(RoomScreen).handed_over(table))
        self.table = table
        c.show(self.name)
        c.help = 0
        self.scoreboard = False
        if isinstance(c.dialog, Choice | CreateForm):
            c.dialog = None

    def title(self, r: Renderer) -> str:
        c = self.c
        v = c.table.view
        game = r.game_name(str(v.get("game", "?")))
        me = c.name or _("seat {n}").format(n=c.table.seat)
        who = _("spectating") if c.table.seat is None else _("you: {name}").format(name=me)
        text = _("{game} · table {table} · {who}").format(game=game, table=c.table_id, who=who)
        if c.table.moves and not c.table.over and not host_gone(c):
            text += " · " + _("YOUR MOVE")
        return text

    def regions(self, r: Renderer) -> Mapping[str, Callable[[], Fragments]]:
        return {"top": r.table_top_ruled, "hand": r.hand_ruled, "actions": r.actions}

    def log(self, r: Renderer, height: int) -> Fragments:
        return r.log(height)

    def boxes(self, r: Renderer) -> list[Box]:
        c = self.c
        return [Box(r.over, lambda: c.table.over and not self.scoreboard, 60, 76),
                Box(r.scoreboard, lambda: self.scoreboard, 40, 76)]

    def ticking(self) -> bool:
        return bool(self.c.table.view.get("deadlines"))

    def offers(self) -> list[str]:
        return [label_of(m) for m in self.c.table.moves]

    def typed(self, line: str) -> bool:
        moves = find_moves(self.c, line)
        if moves:
            play_moves(self.c, line, moves)
        return bool(moves)

    def unknown(self, line: str) -> str:
        return _("no move or command {line}: Tab lists what you can type").format(
            line=repr(line))

    def table_meant(self) -> Any:
        return self.c.table_id

    def leave(self, table: Any) -> None:
        leave_table(self.c)

    def to_lobby(self) -> None:
        if self.c.table.over:
            back_to_lobby(self.c, "l")
        else:
            leave_table(self.c, give_up=False)

    def narration(self, n: Narrator) -> Narration:
        return TableNarration(self, n)

    def prompt(self) -> str:
        """``your move:`` only when a move typed would be played: not while the host is gone,
        nor while a bot plays the seat (the line above says to type back)."""
        c = self.c
        tm = c.table
        if tm.moves and not tm.over and not host_gone(c) and not stood_in(c):
            return _("your move: ")
        return _("table {table}: ").format(table=c.table_id)


# --- the keys ---------------------------------------------------------------------------------

@TABLE.add("left", "right", help=N_("move along your hand"), when=seated)
def along_the_hand(c: Controller, key: str) -> None:
    """move the cursor along your hand"""
    c.table.move_cursor(-1 if key == "left" else 1)


@TABLE.add("space", help=N_("select a card (selection order = play order)"), when=seated)
def select(c: Controller, key: str) -> None:
    """select or unselect the card under the cursor; the order you select is the order you
    play"""
    c.table.toggle()


TABLE.mouse(N_("click"), N_("select a card with the mouse"), "select or unselect a card")


@TABLE.add("tab", "s-tab", help=N_("step through your legal moves; Enter plays it"),
           footer=N_("Tab: your moves"), when=seated_playing)
def step_through_moves(c: Controller, key: str) -> None:
    """step through your legal moves one by one: the line above the moves shows it
    (`Enter: play R7  (move 2 of 6)`) and its cards are selected; Enter plays exactly that
    move"""
    found = c.table.suggest(1 if key == "tab" else -1)
    c.notice = "" if found else _("no move for you now")


@TABLE.add("enter", help=N_("play the selection, or the card at the cursor"),
           footer=N_("Enter: play"), when=seated_playing)
def play(c: Controller, key: str) -> None:
    """play the selected cards (none selected: the card under the cursor)"""
    outcome(c, c.table.enter())


@TABLE.add(*"123456789", help=N_("moves without cards (draw, take, ...): bottom line"),
           when=seated)
def numbered_move(c: Controller, key: str) -> None:
    """the moves that do not start from your hand, grouped by kind and numbered on the bottom
    line (draw a card, take the pile, stand, ready, deal N cards, take from the talon, a
    face-up card...)"""
    outcome(c, c.table.action(int(key)))


@TABLE.add("p", help=N_("call (Pika!); with a card chosen: play it and call"), when=seated)
def call(c: Controller, key: str) -> None:
    """the call (Pika's «Pika!»): plays the listed `call` move; with a card chosen whose play
    may carry the call, plays it with the call"""
    outcome(c, c.table.call())


@TABLE.add("<", ">", ",", ".", "s-left", "s-right", help=N_("move the card at the cursor"),
           when=seated)
def move_card(c: Controller, key: str) -> None:
    """move the card under the cursor in your hand (PI-14: the order is yours and the host
    keeps it)"""
    reorder(c, c.table.shift(-1 if key in ("<", ",", "s-left") else 1))


@TABLE.add("o", help=N_("sort your hand by suit or colour"), when=seated)
def sort(c: Controller, key: str) -> None:
    """sort your hand by suit or colour, then rank"""
    reorder(c, c.table.sort_hand())


@TABLE.add("h", help=N_("hint: the hard bot's move from your seat, and why"),
           when=seated_playing)
def ask_hint(c: Controller, key: str) -> None:
    """ask the host what the hard bot would play from your seat (it sees only what you
    see): its move is chosen for you, as Tab chooses one, and the bottom line says why;
    Enter plays it. Only at practice tables and friends tables whose creator turned hints
    on (the lobby's Mode column says *friends+hint*)"""
    if c.table_id is not None:
        c.request("hint", table=c.table_id)


def show_hint(c: Controller, msg: HintMessage) -> None:
    """The host's hint for the view on screen: its move chosen, its label and reason said
    while that view stays (a hint for another table or an older view is dropped)."""
    if c.screen != "table" or msg.get("table") != c.table_id:
        return
    index = next((i for i, m in enumerate(c.table.moves) if m.get("id") == msg.get("move")),
                 None)
    if index is None:
        return
    label = c.table.choose_listed(index)
    reason = str(msg.get("reason") or "")
    text = (_("hint: {move} — {reason}").format(move=label, reason=reason) if reason
            else _("hint: {move}").format(move=label))
    view = c.table.view
    c.say(text, holds=lambda c: c.table.view is view)


@TABLE.add("u", help=N_("take back your last move (practice tables, and friends tables that "
                        "allow it): the others at the table agree first"),
           when=seated_playing)
def ask_undo(c: Controller, key: str) -> None:
    """ask to take back your last move, and any move made after it: at a practice table at
    once, at a friends table whose creator allowed it once every other player there agrees
    (y or n on their screens). Never past a move that showed anybody a card he had not seen
    (a draw, another player's card laid): the host says so in one line"""
    if c.table_id is not None:
        c.request("undo", table=c.table_id)


def undo_asked_of_me(c: Controller) -> UndoAsked | None:
    """The request to take back a move waiting at the table on screen for this player's
    answer (the summary's ``undo_asked``), or None."""
    if c.screen != "table" or not seated_playing(c):
        return None
    summary = c.match_summary()
    if summary is None:
        return None
    asked, seats = summary.get("undo_asked"), summary.get("seats") or []
    seat = c.table.seat
    if asked is None or seat is None or not 0 <= seat < len(seats) \
            or asked.get("seat") == seat:
        return None
    mine = seats[seat].get("name")
    return asked if mine in (asked.get("waiting") or ()) else None


def undo_notice(c: Controller) -> None:
    """A new summary came: a request to take back a move that waits for this player's answer
    is said once, and the line holds while it waits."""
    asked = undo_asked_of_me(c)
    if asked is None:
        return
    screen = c.get(TableScreen)
    said = (c.table_id, asked.get("version"), asked.get("seat"))
    if screen.undo_said == said:
        return
    screen.undo_said = said
    moves = int(asked.get("moves") or 1)
    c.say(ngettext("{name} asks to take back {n} move: y agrees, n says no",
                   "{name} asks to take back {n} moves: y agrees, n says no", moves).format(
                       name=asked.get("name") or "?", n=moves),
          holds=answering_undo)


def answering_undo(c: Controller) -> bool:
    """Another player's request to take back a move waits for this player's answer."""
    return undo_asked_of_me(c) is not None


@TABLE.add("y", help=N_("agree that a player takes back his move"), when=answering_undo)
def agree_to_undo(c: Controller, key: str) -> None:
    """when another player asks to take back his move: agree (the table goes back once
    everybody agreed)"""
    c.request("undo_answer", table=c.table_id, agree=True)
    c.notice = ""


@TABLE.add("n", help=N_("say no: the move stands"), when=answering_undo)
def refuse_undo(c: Controller, key: str) -> None:
    """when another player asks to take back his move: say no; his move stands"""
    c.request("undo_answer", table=c.table_id, agree=False)
    c.notice = ""


@TABLE.add("escape", help=N_("clear the selection; close a dialog"))
def clear(c: Controller, key: str) -> None:
    """clear the selection and the message line; close a dialog"""
    c.table.clear()
    c.error = ""
    c.notice = ""


@TABLE.add("t", help=N_("chat"), footer=N_("t: chat"), footer_when=spectating)
def talk(c: Controller, key: str) -> None:
    """chat with the table"""
    tid = c.table_id
    c.dialog = TextField(_("say: "), lambda text: c.chat(tid, text) if text else None)


@TABLE.add("m", help=N_("the match: places and scores per round, and the totals"),
           footer=N_("m: the match"), footer_when=spectating)
def match(c: Controller, key: str) -> None:
    """the match at this table: each round's places and scores, and the totals (any key
    closes it)"""
    c.get(TableScreen).scoreboard = True


@TABLE.add("q", help=N_("leave the table (a dialog asks how)"), footer=N_("q: leave"))
def ask_how_to_leave(c: Controller, key: str) -> None:
    """leave the table; a dialog asks how: *back to the lobby, keeping my seat* (the game
    waits for you, or after the host's idle timeout a bot plays for you until you return;
    Enter on the table in the lobby takes you back to it) or *leave: a bot plays my seat to
    the end* (before the game starts: the seat is freed)"""
    if c.table.seat is None:
        options: list[tuple[str, Any]] = [(_("stop watching"), "leave"), (_("stay"), None)]
    else:
        options = [(_("back to the lobby, keeping my seat"), "lobby"),
                   (_("leave: a bot plays my seat to the end"), "leave"),
                   (_("stay"), None)]
    c.dialog = Choice(_("Leave this table?"), options, lambda how: leave_as(c, how))


@TABLE.add("enter", help=N_("take your seat back from the bot that plays it"), when=stood_in)
def take_seat_back(c: Controller, key: str) -> None:
    """when a bot plays for you (your turn timed out while you were here): take your seat
    back; your next moves are yours again"""
    c.request("back", table=c.table_id)
    c.notice = _("your seat is yours again")


@TABLE.add("n", "enter", help=N_("round over: play again"), when=plays_again)
def again(c: Controller, key: str) -> None:
    """when the round is over: play again at the same table (not at an entry table, which
    plays one round)"""
    tid = c.table_id
    c.request("again", table=tid)
    c.say(_("asked for another round"), holds=lambda c: asking_again(c, tid))


def asking_again(c: Controller, table: Any) -> bool:
    """The request for another round at ``table`` still waits: its last round is on the
    screen, over (the notice goes once the next is dealt, or the player left)."""
    return (c.screen == "table" and c.table_id == table and c.table is not None
            and c.table.over)


@TABLE.add("l", "q", "escape", help=N_("round over: back to the lobby, keeping your seat"),
           when=round_over)
def back_to_lobby(c: Controller, key: str) -> None:
    """when the round is over: back to the lobby; your seat stays yours (the next round
    waits for you: Enter on the table in the lobby comes back). A spectator stops watching"""
    if c.table.seat is None:
        leave_table(c)
        return
    leave_table(c, give_up=False)


@TABLE.add("x", help=N_("round over: leave the table (a bot takes your seat)"),
           when=seated_over)
def leave_for_good(c: Controller, key: str) -> None:
    """when the round is over: leave the table for good; a bot takes your seat in the next
    round, and you may only watch it"""
    leave_table(c)


# --- from a key to a move sent -----------------------------------------------------------------

def leave_as(c: Controller, how: str | None) -> None:
    if how == "leave":
        leave_table(c)
    elif how == "lobby":
        leave_table(c, give_up=False)


def leave_table(c: Controller, give_up: bool = True) -> None:
    """To the lobby. ``give_up``: tell the host (the seat goes to a bot, or is freed
    before the game starts); otherwise the seat stays ours and Enter on the table in the
    lobby brings the game back."""
    tid = c.table_id
    if give_up:
        c.request("leave", table=tid)
    screen = c.get(TableScreen)
    screen.left.add(tid)
    c.show("lobby")
    screen.table = None
    if not give_up and c.table.seat is not None:
        c.notice = _("your seat at {table} is kept: Enter on it (or sit {table}) comes "
                     "back").format(table=tid)


def reorder(c: Controller, order: list[str] | None) -> None:
    if order is not None and c.link is not None:
        c.link.reorder(c.table_id, order)


def outcome(c: Controller, out: Outcome) -> None:
    if out.move is not None:
        if out.rest:
            # The game takes one card per move: the others follow, one per new view,
            # and stay selected meanwhile (``go_on``).
            c.get(TableScreen).queued = Queued(c.table_id, out.move["kind"], list(out.rest),
                                               list(c.table.hand))
        send_move(c, out.move, keep=bool(out.rest))
    elif out.options:
        c.dialog = Choice(out.title, [(str(m.get("label") or m["kind"]), m)
                                      for m in out.options],
                          lambda m: send_move(c, m))
    elif out.message:
        c.notice = out.message


def go_on(c: Controller) -> None:
    """A new view came: send the next queued card once the last one took effect (the
    hand changed) and the game lists it; say so and stop when it does not."""
    q = c.get(TableScreen).queued
    if q is None:
        return
    tm = c.table
    if q.table != c.table_id or tm.over:
        c.get(TableScreen).queued = None
        return
    tm.select_cards(q.cards)
    if tm.hand == q.hand or not tm.moves:
        return                                  # not yet: the last card is on its way
    card = q.cards[0]
    listed = listed_as(tm.moves, q.kind, [card])
    if len(listed) != 1:
        c.get(TableScreen).queued = None
        tm.clear()
        c.notice = _("stopped before {card}: the game does not offer it now").format(
            card=pretty(card))
        return
    rest = q.cards[1:]
    c.get(TableScreen).queued = replace(q, cards=rest, hand=list(tm.hand)) if rest else None
    send_move(c, listed[0], keep=bool(rest))


def send_move(c: Controller, move: MoveDict, keep: bool = False) -> None:
    """Send ``move`` (as listed: its id and the view's version go with it, so the host takes
    the very move listed)."""
    """Send ``move``; ``keep``: cards queued after it stay queued and selected. While the
    host is gone nothing is sent, and the line says so: a move kept for a host that answers
    later would be carried out long after, on a table the player no longer looks at."""
    if c.link is None:
        c.error = _("not connected to a host")
        return
    if host_gone(c):
        c.get(TableScreen).queued = None
        c.error = _("the host is gone: your move was not sent; make it again once the host "
                    "is back")
        return
    c.table.clear()
    screen = c.get(TableScreen)
    if not keep:
        screen.queued = None
    elif screen.queued is not None:
        c.table.select_cards(screen.queued.cards)
    c.notice = ""
    c.error = ""
    c.link.send_move(c.table_id, wire_move(move), listed_at(move, c.table.view))


# --- what the command line takes here ----------------------------------------------------------

def move_words(move: MoveDict) -> list[str]:
    """The ways to type ``move``: its label as shown, and its kind with its cards."""
    label = label_of(move)
    plain = " ".join([str(move["kind"]), *[str(c) for c in move.get("cards") or ()]])
    return list(dict.fromkeys([label, plain]))


def find_moves(c: Controller, line: str) -> list[MoveDict]:
    """The listed moves ``line`` names: by label or kind-and-cards exactly; else the same
    kind with the same cards in any order; else the only label that starts so."""
    moves = c.table.moves
    want = normal(line)
    exact = [m for m in moves if want in {normal(w) for w in move_words(m)}]
    if exact:
        return exact
    words = want.split()
    if len(words) > 1:
        kind, cards = words[0], sorted(words[1:])
        same = [m for m in moves if str(m["kind"]).lower() == kind
                and sorted(normal(str(x)) for x in m.get("cards") or ()) == cards]
        if same:
            return same
    starts = [m for m in moves if any(normal(w).startswith(want) for w in move_words(m))]
    return starts if len(starts) == 1 else []


def play_moves(c: Controller, line: str, moves: list[MoveDict]) -> None:
    """The listed moves a line named: the one sent, or a choice among several."""
    if len(moves) == 1:
        send_move(c, moves[0])
        return
    c.dialog = Choice(_("Which {move}?").format(move=line), [(label_of(m), m) for m in moves],
                      lambda m: send_move(c, m))


@command("again", help=N_("another round, when the round is over"),
         where=("table",))
def again_command(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and plays_again(c):
        again(c, "n")
    else:
        c.request("again", table=table)


@command("back", help=N_("take your seat back from the bot that plays it (your turn timed out)"),
         where=("table",))
def back_command(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and table is not None:
        take_seat_back(c, "enter")
    else:
        c.error = _("{command}: at a table where a bot plays for you").format(command="back")


@command("put ", help=N_("put a card of your hand at a place: put 7h 1 (the first), the order "
                         "is yours"),
         where=("table",))
def put_command(c: Controller, table: Any, rest: str) -> None:
    words = rest.split()
    hand = c.table.hand if c.screen == "table" else []
    found = [i for i, code in enumerate(hand)
             if words and normal(label_of({"kind": "", "cards": [code], "label": code})
                                 ) == normal(words[0])
             or words and normal(code) == normal(words[0])]
    if len(words) != 2 or not words[1].isdigit() or not found:
        c.error = _("put CARD PLACE: a card of your hand and its place, e.g. put 7h 1")
        return
    order = list(hand)
    card = order.pop(found[0])
    order.insert(max(0, min(len(order), int(words[1]) - 1)), card)
    reorder(c, order)


@command("match", help=N_("the match at this table: places and scores per round, and the totals"),
         where=("table",))
def match_command(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        match(c, "m")
    else:
        c.error = _("the match's scoreboard shows at a table")


command("call", help=N_("the call (Pika!)"),
        where=("table",))(as_key(call, "p"))


command("hint", help=N_("what the hard bot would play from your seat, and why (practice tables "
                        "and tables with hints)"),
        where=("table",))(as_key(ask_hint, "h"))


command("sort", help=N_("sort your hand"),
        where=("table",))(as_key(sort, "o"))


#: At most this many moves are read out at each turn; more are counted (``moves`` reads all).
MOVES_READ = 12


class TableNarration(Narration):
    """The table in the line mode: each line of its log as it comes; when it becomes the
    player's turn, one line saying so, his hand, the table's public state and his moves,
    numbered; the end of a round with what each command does to the seat."""

    def __init__(self, screen: Screen, n: Narrator) -> None:
        super().__init__(screen, n)
        self.table: Any = None
        self.log: Any = None
        self.log_total = 0
        self.turn: Any = None
        self.over: Any = None
        self.standin = False

    def opened(self) -> list[str]:
        return []                                  # ``changed`` says it whole

    def where(self) -> list[str]:
        tm = self.c.table
        if tm.over:
            return self.round_over()
        if tm.moves:
            return self.your_move()
        return self.look()

    def changed(self) -> list[str]:
        c = self.c
        tm = c.table
        out: list[str] = []
        if c.table_id != self.table or tm.log is not self.log:
            self.table, self.log, self.log_total = c.table_id, tm.log, 0
            self.turn = self.over = None
            self.standin = False
            out.append(plain(self.n.r.title()[0][1].replace(" · " + _("YOUR MOVE"), "")))
            out += self.players()
        if tm.log.total != self.log_total:
            out += tm.log.since(self.log_total)
            self.log_total = tm.log.total
        version = (c.table_id, tm.view.get("version"))
        if tm.over:
            if self.over != version:
                self.over = version
                out += self.round_over()
            return out
        if stood_in(c) != self.standin:
            self.standin = stood_in(c)
            if self.standin:
                out.append(_("A bot plays for you: your turn timed out. Type back to take "
                              "your seat back."))
        if tm.moves and self.turn != version and not self.standin:
            self.turn = version
            out += self.your_move()
        return out

    def your_move(self) -> list[str]:
        """It is this player's turn: said, with his hand, the table's state and his moves."""
        tm = self.c.table
        out = [_("Your move.")]
        if any(m["kind"] == "call" for m in tm.moves):
            out.append(_("Call now: type call."))
        out += [self.hand(), *self.public()]
        out += self.moves(most=MOVES_READ)
        return out

    def hand(self) -> str:
        tm = self.c.table
        if tm.seat is None:
            return _("You watch this table: you have no hand.")
        cards = " ".join(card_name(code, self.n.ascii) for code in tm.hand)
        return _("Your hand: {cards}").format(cards=cards or _("(no cards)"))

    def public(self) -> list[str]:
        """The table's cards in view and its counters, one line each."""
        v = self.c.table.view
        names = self.c.table.names
        out = []
        zones = [f"{translate(name)} {self.zone(value)}"
                 for name, value in (v.get("zones") or {}).items()]
        if zones:
            out.append(_("Table: {zones}").format(zones=", ".join(zones)))
        counters = [f"{translate(name)} {counter_text(value, names, str(name))}"
                    for name, value in (v.get("counters") or {}).items()]
        if counters:
            out.append(", ".join(counters))
        return out

    def zone(self, value: Any) -> str:
        if isinstance(value, list | tuple):
            return " ".join(card_name(str(code), self.n.ascii) for code in value) or _("empty")
        if value is None:
            return "-"
        return translate(value) if isinstance(value, str) else str(value)

    def moves(self, most: int | None = None) -> list[str]:
        """The listed moves, numbered (``most``: more are counted, not read)."""
        moves = self.c.table.moves
        if not moves:
            return [_("You have no move now.")]
        if most is not None and len(moves) > most:
            return [ngettext("You have {n} move: type moves to hear it, or type it (Tab "
                             "completes).", "You have {n} moves: type moves to hear them, or "
                             "type one (Tab completes).", len(moves)).format(n=len(moves))]
        labels = [f"{i}. {label_of(m, self.n.ascii)}" for i, m in enumerate(moves, 1)]
        return [_("Moves: {moves}").format(moves="; ".join(labels))]

    def players(self) -> list[str]:
        """One line per player: name, cards, status, place, public zones, countdowns."""
        lines = text_lines(self.n.r.players())
        turn = self.n.r.g.turn
        return [line.removeprefix(turn).strip() for line in lines]

    def look(self) -> list[str]:
        """The table as a whole, asked for."""
        c = self.c
        tm = c.table
        out = [plain(self.n.r.title()[0][1]), *self.players(), *self.public()]
        turn = tm.view.get("turn")
        names = tm.names
        if tm.over:
            out.append(_("The round is over."))
        elif turn == tm.seat and tm.moves:
            out.append(_("It is your turn."))
        elif isinstance(turn, int) and 0 <= turn < len(names):
            out.append(_("It is {name}'s turn.").format(name=names[turn]))
        if tm.seat is not None:
            out.append(self.hand())
        return out

    def round_over(self) -> list[str]:
        """The end of a round: the places, the game's summary, what was paid, and what each
        command does to the seat."""
        lines = text_lines(self.n.r.over())
        keys = self.n.r.over_keys()
        body = lines[:len(lines) - len(keys)]
        words = {"n": "again", "m": "match", "l": "lobby", "x": "leave", "e": "events"}
        said = [_("{command}: {what}").format(command=words.get(k, k), what=what)
                for k, what in keys]
        return [*body, _("Type one of these:"), *said]

    def log_lines(self, n: int = 10) -> list[str]:
        lines = list(self.c.table.log)[-n:]
        return lines or [_("Nothing has happened at this table yet.")]

