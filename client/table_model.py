"""One table as the player sees it: the last view, the hand in the player's order, the cursor,
the selected cards (in the order they will be played), the event log and the countdowns.

It turns the player's keys into one of the moves the view lists: the selected cards and Enter
map onto a listed move with exactly those cards (or, for a multi-card play, the listed moves with
the same cards, sent in the chosen order); when several listed moves share those cards they
differ by the choice they carry, and the player picks one in a dialog. Moves without cards
(draw, take, a hand size, ...) are grouped by kind on number keys. The client never decides
legality: a move that matches nothing listed is still sent, and the host's refusal, in words,
comes back as one line.

Must not know about: any game's rules, terminals, the wire.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from cardparty.client.words import in_words
from cardparty.core.cards import pretty_all, sort_key
from cardparty.core.contract import MoveMap, View, WireEvent
from cardparty.core.i18n import _, shown, translate
from cardparty.net.wire.replies import Timer

#: A move as a view lists it, or as the client sends it.
MoveDict = MoveMap
LOG_LINES = 300


class Said(deque[str]):
    """Lines said (a log, a chat), the newest ``maxlen`` kept, counting every line ever added
    (``total``): a reader that prints lines as they come (the line mode) knows which are
    new, however many the bound let go."""

    def __init__(self, maxlen: int) -> None:
        super().__init__(maxlen=maxlen)
        self.total = 0

    def append(self, line: str, /) -> None:
        super().append(line)
        self.total += 1

    def extend(self, lines: Iterable[str], /) -> None:
        for line in lines:
            self.append(line)

    def since(self, total: int) -> list[str]:
        """The lines added once ``total`` had been, as many as are still kept."""
        new = self.total - total
        return list(self)[-new:] if new > 0 else []


@dataclass
class Outcome:
    """What a key asks for: send ``move`` (the listed move itself, with its id), or choose
    among ``options`` under ``title``, or just say ``message``."""

    move: MoveDict | None = None
    options: list[MoveDict] = field(default_factory=list)
    title: str = ""
    message: str = ""
    #: Cards still to go one by one after ``move`` (a game that takes one card per move,
    #: such as Piquet's discards, and several cards selected).
    rest: list[str] = field(default_factory=list)


def labelled(move: MoveDict) -> MoveDict:
    """A listed move with its label in the player's language, a copy (the view's own move
    keeps the host's words)."""
    return {**move, "label": shown(str(move.get("label") or ""), move.get("msg"))}


def wire_move(move: MoveDict, cards: list[str] | None = None) -> MoveDict:
    """The move to send: kind, cards (in play order), choice; the id and label stay home
    (the id goes beside it, ``listed_at``)."""
    return {"kind": move["kind"],
            "cards": list(move.get("cards") or () if cards is None else cards),
            "choice": move.get("choice")}


def listed_at(move: MoveDict, view: View) -> tuple[int, int] | None:
    """Where ``move`` was listed: its id in ``view``'s moves and that view's version (None: a
    move the view does not list as such, sent as kind, cards and choice for the host to
    judge)."""
    move_id, version = move.get("id"), view.get("version")
    if isinstance(move_id, int) and isinstance(version, int):
        return move_id, version
    return None


MoveKey = tuple[str, tuple[str, ...], Any]


def move_key(move: MoveDict) -> MoveKey:
    """What makes two moves the same move: the kind, the cards in play order and the choice.
    A move's id and label name it within one view only (a view that overtook it lists it
    under another id)."""
    return (str(move.get("kind")), tuple(str(c) for c in move.get("cards") or ()),
            move.get("choice"))


def same_move(a: MoveDict, b: MoveDict) -> bool:
    """``a`` and ``b`` are the same move (``move_key``)."""
    return move_key(a) == move_key(b)


def listed_as(moves: list[MoveDict], kind: str, cards: list[str]) -> list[MoveDict]:
    """The listed moves of ``kind`` with exactly ``cards``, whatever choice each carries."""
    want = (kind, tuple(cards))
    return [m for m in moves if move_key(m)[:2] == want]


@dataclass
class TableModel:
    """See the module docstring. ``describe`` narrates an event (the game's own words when the
    game is installed here, else the generic sentence)."""

    table: Any = None
    #: The newest view (none yet: an empty one).
    view: View = field(default_factory=lambda: cast(View, {}))
    received: float = 0.0
    hand: list[str] = field(default_factory=list)
    cursor: int = 0
    selection: list[int] = field(default_factory=list)
    suggestion: int | None = None
    log: Said = field(default_factory=lambda: Said(LOG_LINES))
    describe: Callable[[WireEvent, list[str]], str] | None = None
    #: The game's events as told in the log (without the chat between them): what a
    #: snapshot's repeated events are matched against.
    told: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    #: Seats whose player is away, from the host's newest table summary (None: no summary
    #: yet). A summary comes when a player drops or returns; a view only when someone moves.
    away: set[int] | None = None
    #: Seats whose player came back since the table last moved: "back" until its next move.
    returned: set[int] = field(default_factory=set)
    #: The seats away as last seen (``absent``), to notice who returns.
    was_away: set[int] = field(default_factory=set)

    # --- what the view says -------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        return self.view.get("seat")

    @property
    def names(self) -> list[str]:
        return [str(p.get("name", f"seat {i}")) for i, p in enumerate(self.players)]

    @property
    def players(self) -> list[Mapping[str, Any]]:
        """Each seat's row of the view (the game's, and the link's ``connected`` and
        ``standin``)."""
        return list(self.view.get("players") or [])

    @property
    def moves(self) -> list[MoveDict]:
        return list(self.view.get("moves") or [])

    @property
    def over(self) -> bool:
        return self.view.get("result") is not None or self.view.get("phase") == "over"

    def absent(self) -> set[int]:
        """The seats whose player is away now, by the host's newest word: its table summary
        once one came (it comes whenever a player drops or returns), else the view's."""
        if self.away is not None:
            return set(self.away)
        return {i for i, p in enumerate(self.players) if p.get("connected") is False}

    def saw_away(self, seats: set[int]) -> None:
        """The host's newest summary says ``seats`` are away."""
        self.away = seats
        self._presence_seen()

    def _presence_seen(self) -> None:
        """Who was away and is not any more is back (docs/playing.md); who is away is not."""
        now = self.absent()
        self.returned = (self.returned | (self.was_away - now)) - now
        self.was_away = now

    def legal_codes(self) -> set[str]:
        """The hand's cards that a listed move starts with, and, once cards are selected,
        those that a listed move holding the selection adds: highlighted in the hand. (A card
        that is only the second of a pair, ``10♣`` of ``10♠ 10♣``, is not playable alone.)"""
        out = {str((m.get("cards") or [""])[0]) for m in self.moves if m.get("cards")}
        chosen = [self.hand[i] for i in self.selection if i < len(self.hand)]
        if chosen:
            for m in self.moves:
                rest = list(m.get("cards") or ())
                if len(rest) <= len(chosen):
                    continue
                try:
                    for c in chosen:
                        rest.remove(c)
                except ValueError:
                    continue
                out.update(rest)
        return out

    def action_groups(self) -> list[tuple[str, list[MoveDict]]]:
        """Moves the hand cannot express, grouped by kind in the order listed: the number
        keys. These are moves without cards (draw, take, a hand size...) and moves whose cards
        are none of the hand's (cards played from a face-up row)."""
        groups: dict[str, list[MoveDict]] = {}
        hand = set(self.hand)
        for m in self.moves:
            cards = m.get("cards") or ()
            if not any(c in hand for c in cards):
                groups.setdefault(m["kind"], []).append(m)
        return list(groups.items())

    def deadlines(self, now: float | None = None) -> list[tuple[Timer, float]]:
        """Each running deadline (its name, the seat it waits for, its length) with the
        seconds left, counted from when the view came."""
        now = time.monotonic() if now is None else now
        out: list[tuple[Timer, float]] = []
        for d in self.view.get("deadlines") or ():
            try:
                seconds = float(d.get("seconds", 0))
            except (TypeError, ValueError):
                continue
            timer: Timer = {"name": str(d.get("name") or ""), "seat": d.get("seat"),
                            "seconds": seconds}
            out.append((timer, max(0.0, seconds - (now - self.received))))
        return out

    # --- a new view arrives -------------------------------------------------------------

    def apply(self, view: View, events: list[WireEvent] | None = None,
              table: Any = None, snapshot: bool = False) -> None:
        """Take a view (and the events since the last one) as the new truth. A
        ``snapshot`` (after a reconnect, or the host's restart) repeats the table's last
        events: those the log already tells are not told twice (``new_lines``)."""
        old_hand = self.hand
        if self.view and view.get("version") != self.view.get("version"):
            self.returned.clear()             # the table moved on: "back" has been read
        # Labels in the player's language, once per view, on this model's own copy of the
        # moves: the view is the link's too (another thread may read it).
        view = {**view, "moves": [labelled(m) for m in view.get("moves") or ()
                                  if isinstance(m, dict)]}
        self.view = view
        self.table = table if table is not None else self.table
        self.received = time.monotonic()
        hand = [str(c) for c in view.get("hand") or ()]
        if hand != old_hand:
            self.selection = []
            self.suggestion = None
        self.hand = hand
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        if self.suggestion is not None and self.suggestion >= len(self.moves):
            self.suggestion = None
        lines = [self.narrate(event) for event in events or ()]
        if snapshot:
            lines = new_lines(list(self.told), lines)
        self.log.extend(lines)
        self.told.extend(lines)
        self._presence_seen()

    def narrate(self, event: WireEvent) -> str:
        """The event in words (the host's, the game's, or the generic sentence), its card
        codes written as players read them."""
        return in_words(event, self.names, self.describe)

    # --- keys on the hand ---------------------------------------------------------------

    def move_cursor(self, step: int) -> None:
        """Arrow keys. A selection that Tab made goes with its suggestion: the player is
        choosing by hand now."""
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
        if self.suggestion is not None:
            self.selection = []
        self.suggestion = None

    def toggle(self, index: int | None = None) -> None:
        """Select or unselect a card; selection order is play order."""
        i = self.cursor if index is None else index
        if not 0 <= i < len(self.hand):
            return
        self.cursor = i
        if i in self.selection:
            self.selection.remove(i)
        else:
            self.selection.append(i)
        self.suggestion = None

    def clear(self) -> None:
        self.selection = []
        self.suggestion = None

    def shift(self, step: int) -> list[str] | None:
        """Move the card under the cursor one place (PI-14: a player orders his own hand);
        returns the new order to send, or None if nothing moved."""
        i, j = self.cursor, self.cursor + step
        if not (0 <= i < len(self.hand) and 0 <= j < len(self.hand)):
            return None
        self.hand[i], self.hand[j] = self.hand[j], self.hand[i]
        remap = {i: j, j: i}
        self.selection = [remap.get(k, k) for k in self.selection]
        self.cursor = j
        return list(self.hand)

    def sort_hand(self) -> list[str] | None:
        """Group the hand by suit or colour, then rank (an order only: no rule involved)."""
        order = sorted(self.hand, key=sort_key)
        if order == self.hand:
            return None
        self.hand = order
        self.selection = []
        self.suggestion = None
        return list(order)

    def suggest(self, step: int = 1) -> str:
        """Tab: step through the listed moves; the suggested move's cards become the
        selection and Enter plays exactly it. Returns its label."""
        moves = self.moves
        if not moves:
            self.suggestion = None
            return ""
        if self.suggestion is None:
            return self.choose_listed(0 if step > 0 else len(moves) - 1)
        return self.choose_listed((self.suggestion + step) % len(moves))

    def choose_listed(self, index: int) -> str:
        """The listed move at ``index`` suggested (its cards the selection: Enter plays
        exactly it), as Tab does, or a hint; its label."""
        self.suggestion = index
        move = self.moves[index]
        self.selection = self._indexes_of(list(move.get("cards") or ()))
        if self.selection:
            self.cursor = self.selection[0]
        return str(move.get("label") or move["kind"])

    def _indexes_of(self, cards: list[str]) -> list[int]:
        used: list[int] = []
        for c in cards:
            for i, h in enumerate(self.hand):
                if h == c and i not in used:
                    used.append(i)
                    break
        return used

    def suggested(self) -> MoveDict | None:
        if self.suggestion is None or self.suggestion >= len(self.moves):
            return None
        return self.moves[self.suggestion]

    # --- from keys to a move ------------------------------------------------------------

    def chosen_cards(self) -> list[str]:
        if self.selection:
            return [self.hand[i] for i in self.selection if i < len(self.hand)]
        if 0 <= self.cursor < len(self.hand):
            return [self.hand[self.cursor]]
        return []

    def candidates(self, cards: list[str]) -> list[MoveDict]:
        """Listed moves with exactly ``cards`` in this order; else listed moves with the same
        cards in another order, to be sent in the player's order (the host decides)."""
        exact = [m for m in self.moves if move_key(m)[1] == tuple(cards)]
        if exact:
            return exact
        same = sorted(cards)
        out: dict[MoveKey, MoveDict] = {}
        for m in self.moves:
            if sorted(m.get("cards") or ()) == same:
                # Sent in the player's order: no longer the listed move, so without its id.
                mine: MoveDict = {**m, "cards": list(cards)}
                mine.pop("id", None)
                out.setdefault(move_key(mine), mine)
        if out:
            return list(out.values())
        # The chosen cards followed by cards from outside the hand (a hand card swapped for
        # a face-up one): the listed moves that complete them.
        n = len(cards)
        hand = set(self.hand)
        return [m for m in self.moves
                if list(m.get("cards") or ())[:n] == cards and len(m.get("cards") or ()) > n
                and not any(c in hand for c in list(m["cards"])[n:])]

    def enter(self) -> Outcome:
        """Enter: the suggested move, or the selected cards (the cursor's card if none)."""
        if self.over:
            return Outcome(message=_("the round is over"))
        hint = self.suggested()
        # Tab selected the hint's cards from the hand (none, when they lie elsewhere: a face-up
        # card played with an empty hand): untouched since, Enter plays it.
        if hint is not None and self.selection == self._indexes_of(list(hint.get("cards")
                                                                        or ())):
            return Outcome(move=hint)
        cards = self.chosen_cards()
        if not cards:
            groups = self.action_groups()
            if len(groups) == 1:
                return self.action(1)
            return Outcome(message=_("no card chosen"))
        found = self.candidates(cards)
        if not found and len(cards) > 1:
            one_by_one = self.one_by_one(cards)
            if one_by_one is not None:
                return one_by_one
        if not found:
            kinds = [m["kind"] for m in self.moves if m.get("cards")]
            kind = max(set(kinds), key=kinds.count) if kinds else "play"
            return Outcome(move={"kind": kind, "cards": cards, "choice": None})
        return self._one_or_choose(found, _("How to play {cards}?").format(cards=pretty_all(cards)))

    def one_by_one(self, cards: list[str]) -> Outcome | None:
        """Several cards chosen where the game lists one card per move of a kind (Piquet's
        discards): the first card's move now, the others after it (``Outcome.rest``)."""
        first = [m for m in self.moves if move_key(m)[1] == tuple(cards[:1])]
        if len(first) != 1:
            return None
        kind = first[0]["kind"]
        singles = {move_key(m)[1] for m in self.moves if m["kind"] == kind}
        if not all((c,) in singles for c in cards):
            return None
        return Outcome(move=first[0], rest=list(cards[1:]))

    def select_cards(self, cards: list[str]) -> None:
        """Select ``cards`` (in this order) in the hand, as far as it holds them."""
        self.selection = self._indexes_of(cards)
        self.suggestion = None

    def action(self, number: int) -> Outcome:
        """Number key: the n-th group of moves without cards."""
        groups = self.action_groups()
        if not 1 <= number <= len(groups):
            return Outcome(message=_("no action {number}").format(number=number))
        kind, moves = groups[number - 1]
        return self._one_or_choose(moves, _("Choose: {kind}").format(kind=translate(kind)))

    def call(self) -> Outcome:
        """The call key: a listed move of kind ``call``; with cards chosen, the listed plays
        of those cards that the game says make the call too (``calls``: Pika's «Pika!»)."""
        calls = [m for m in self.moves if m["kind"] == "call" and not m.get("cards")]
        if calls:
            return self._one_or_choose(calls, _("Call"))
        cards = self.chosen_cards()
        with_call = [m for m in self.candidates(cards) if m.get("calls") is True]
        if with_call:
            return self._one_or_choose(with_call,
                                       _("Play {cards} and call").format(cards=pretty_all(cards)))
        return Outcome(message=_("nothing to call now"))

    def _one_or_choose(self, moves: list[MoveDict], title: str) -> Outcome:
        if len(moves) == 1:
            return Outcome(move=moves[0])
        return Outcome(options=moves, title=title)


def new_lines(told: list[str], repeated: list[str]) -> list[str]:
    """What a snapshot's events add to a log that already told ``told``: the snapshot
    repeats the newest events, so its longest start that is the log's end was told already.
    (Only snapshots repeat: two same lines in a row in an ordinary view are two events.)"""
    for k in range(min(len(told), len(repeated)), 0, -1):
        if told[-k:] == repeated[:k]:
            return repeated[k:]
    return repeated
