"""The table.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardparty.client import keys_table
from cardparty.client.command_line import as_key, command, normal
from cardparty.client.dialog import Choice
from cardparty.client.drawing import Fragments, counter_text, plain, text_lines
from cardparty.client.keys_table import TABLE, host_gone, stood_in
from cardparty.client.screen import Box, Narration, Screen
from cardparty.client.table_model import wire_move
from cardparty.client.theme import card_name, label_of
from cardparty.core.i18n import N_, _, ngettext, translate

if TYPE_CHECKING:
    from cardparty.client.controller import Controller
    from cardparty.client.line_words import Narrator
    from cardparty.client.render import Renderer


class TableScreen(Screen):
    name = "table"
    keys = (TABLE,)
    help_pages = 2

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
        return [Box(r.over, lambda: c.table.over and not c.scoreboard, 60, 76),
                Box(r.scoreboard, lambda: c.scoreboard, 40, 76)]

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
        keys_table.leave_table(self.c)

    def to_lobby(self) -> None:
        if self.c.table.over:
            keys_table.back_to_lobby(self.c, "l")
        else:
            keys_table.leave_table(self.c, give_up=False)

    def narration(self, n: Narrator) -> Narration:
        return TableNarration(self, n)

    def prompt(self) -> str:
        c = self.c
        tm = c.table
        if tm.moves and not tm.over and not host_gone(c):
            return _("your move: ")
        return _("table {table}: ").format(table=c.table_id)


# --- what the command line takes here ----------------------------------------------------------

def move_words(move: dict[str, Any]) -> list[str]:
    """The ways to type ``move``: its label as shown, and its kind with its cards."""
    label = label_of(move)
    plain = " ".join([str(move["kind"]), *[str(c) for c in move.get("cards") or ()]])
    return list(dict.fromkeys([label, plain]))


def find_moves(c: Controller, line: str) -> list[dict[str, Any]]:
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


def play_moves(c: Controller, line: str, moves: list[dict[str, Any]]) -> None:
    """The listed moves a line named: the one sent, or a choice among several."""
    if len(moves) == 1:
        keys_table.send_move(c, wire_move(moves[0]))
        return
    c.dialog = Choice(_("Which {move}?").format(move=line), [(label_of(m), m) for m in moves],
                      lambda m: keys_table.send_move(c, wire_move(m)))


@command("again", help=N_("another round, when the round is over"),
         where=("table",))
def again(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and keys_table.plays_again(c):
        keys_table.again(c, "n")
    else:
        c.request("again", table=table)


@command("back", help=N_("take your seat back from the bot that plays it (your turn timed out)"),
         where=("table",))
def back(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table" and table is not None:
        keys_table.take_seat_back(c, "enter")
    else:
        c.error = _("{command}: at a table where a bot plays for you").format(command="back")


@command("put ", help=N_("put a card of your hand at a place: put 7h 1 (the first), the order "
                         "is yours"),
         where=("table",))
def put(c: Controller, table: Any, rest: str) -> None:
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
    keys_table.reorder(c, order)


@command("match", help=N_("the match at this table: places and scores per round, and the totals"),
         where=("table",))
def match(c: Controller, table: Any, rest: str) -> None:
    if c.screen == "table":
        keys_table.match(c, "m")
    else:
        c.error = _("the match's scoreboard shows at a table")


command("call", help=N_("the call (Pika!)"),
        where=("table",))(as_key(keys_table.call, "p"))


command("hint", help=N_("what the hard bot would play from your seat, and why (practice tables "
                        "and tables with hints)"),
        where=("table",))(as_key(keys_table.ask_hint, "h"))


command("sort", help=N_("sort your hand"),
        where=("table",))(as_key(keys_table.sort, "o"))


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
        words = {"n": "again", "m": "match", "l": "lobby", "x": "leave"}
        said = [_("{command}: {what}").format(command=words.get(k, k), what=what)
                for k, what in keys]
        return [*body, _("Type one of these:"), *said]

    def log_lines(self, n: int = 10) -> list[str]:
        lines = list(self.c.table.log)[-n:]
        return lines or [_("Nothing has happened at this table yet.")]

