"""The table's keys: the hand (cursor, selection, order), Tab through the listed moves, Enter
and the number keys into moves, the call, chat, the match, leaving, and the end of a round;
and what turns a key's outcome into a move sent (cards that go one per move follow one by
one).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.client.dialog import Choice, TextField
from cardparty.client.keymap import Keys
from cardparty.client.table_model import Outcome, listed_as, wire_move
from cardparty.core.cards import pretty
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

TABLE = Keys("table")


def round_over(c: Controller) -> bool:
    return c.table.over


def seated(c: Controller) -> bool:
    """This player has a seat (a spectator has no hand, no moves and no next round)."""
    return c.table.seat is not None


def seated_over(c: Controller) -> bool:
    return seated(c) and c.table.over


def seated_playing(c: Controller) -> bool:
    return seated(c) and not c.table.over


def spectating(c: Controller) -> bool:
    """This player watches the table: his bottom line lists its few keys (chat, the match)."""
    return c.table.seat is None


def plays_again(c: Controller) -> bool:
    """The round is over, this player has a seat, and the table plays another round (an
    entry table plays one: its summary's ``again`` is false, docs/protocol.md)."""
    return seated_over(c) and (c.match_summary() or {}).get("again") is not False


def stood_in(c: Controller) -> bool:
    """A bot plays this player's seat while he is here (his turn timed out: the host's idle
    stand-in), and the round goes on: Enter takes the seat back."""
    tm = c.table
    seat = tm.seat
    if seat is None or tm.over or not 0 <= seat < len(tm.players):
        return False
    return bool(tm.players[seat].get("standin")) and seat not in tm.absent()


#: The link's states in which the host does not answer (``link``): a move pressed then would
#: reach nobody now.
GONE = frozenset({"reconnecting", "disconnected", "refused"})


def host_gone(c: Controller) -> bool:
    """The host was reached and does not answer now (the banner says why)."""
    return c.connection in GONE


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


def show_hint(c: Controller, msg: dict[str, Any]) -> None:
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
    c.scoreboard = True


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
    c.left_tables.add(tid)
    c.show("lobby")
    c.table_id = None
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
            c.queued = {"table": c.table_id, "kind": out.move["kind"],
                        "cards": list(out.rest), "hand": list(c.table.hand)}
        send_move(c, out.move, keep=bool(out.rest))
    elif out.options:
        c.dialog = Choice(out.title, [(str(m.get("label") or m["kind"]), m)
                                      for m in out.options],
                          lambda m: send_move(c, wire_move(m)))
    elif out.message:
        c.notice = out.message


def go_on(c: Controller) -> None:
    """A new view came: send the next queued card once the last one took effect (the
    hand changed) and the game lists it; say so and stop when it does not."""
    q = c.queued
    if q is None:
        return
    tm = c.table
    if q["table"] != c.table_id or tm.over:
        c.queued = None
        return
    tm.select_cards(q["cards"])
    if tm.hand == q["hand"] or not tm.moves:
        return                                  # not yet: the last card is on its way
    card = q["cards"][0]
    listed = listed_as(tm.moves, q["kind"], [card])
    if len(listed) != 1:
        c.queued = None
        tm.clear()
        c.notice = _("stopped before {card}: the game does not offer it now").format(
            card=pretty(card))
        return
    rest = q["cards"][1:]
    c.queued = {**q, "cards": rest, "hand": list(tm.hand)} if rest else None
    send_move(c, wire_move(listed[0]), keep=bool(rest))


def send_move(c: Controller, move: dict[str, Any], keep: bool = False) -> None:
    """Send ``move``; ``keep``: cards queued after it stay queued and selected. While the
    host is gone nothing is sent, and the line says so: a move kept for a host that answers
    later would be carried out long after, on a table the player no longer looks at."""
    if c.link is None:
        c.error = _("not connected to a host")
        return
    if host_gone(c):
        c.queued = None
        c.error = _("the host is gone: your move was not sent; make it again once the host "
                    "is back")
        return
    c.table.clear()
    if not keep:
        c.queued = None
    elif c.queued is not None:
        c.table.select_cards(c.queued["cards"])
    c.notice = ""
    c.error = ""
    c.link.send_move(c.table_id, move)
