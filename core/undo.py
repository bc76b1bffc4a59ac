"""Taking back a move: how far a round may go back, and the table as it was before.

A player asks to take back his last move of the round in play; the table goes back to just
before it, taking back every move made after it too (a bot's answer, a timeout). It may not
go back past a move that let any player see a card he could not see before the move (a draw,
a pass received, a hand or a blind card turned over, another player's card laid): that player
would know it and the others would play as if he did not. The one card a player may have seen
and still go back is the asking player's own, shown to the table by the very move he takes
back (the card he laid: everybody saw it, and he keeps it). A move's "seeing" is judged from
the game's zones (``Zone.seen_by``: what each seat may see before and after the move, as the
random-game checker counts them) and from its events as each seat was told them, so a card a
move only names (a declaration, a peek) counts as seen.

Who may ask, and who must agree, is the holder's to decide (net/host/undo.py): here only the
game is judged. The table before is rebuilt from the seed and the journal (``core.record``'s
replay, every move checked again), its events those of the moves kept: the search's samplers
read the history from them, and a history that still held the moves taken back would not fit
the position.

Must not know about: sockets, terminals, who agreed.
"""

from __future__ import annotations

import typing
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardparty.core.contract import Event
from cardparty.core.i18n import Msg
from cardparty.core.narrate import seat_name
from cardparty.core.record import GameRecord, Replay
from cardparty.core.simcheck import visible_cards
from cardparty.core.table import Table, redact_event

#: The type of the event a table gets when it goes back (``seat``: who asked, ``moves``: how
#: many moves were taken back).
UNDO = "undo"


class CannotUndo(ValueError):
    """The move cannot be taken back: ``reason`` says why in one line (a Msg). It never names
    a card: the asking player may not know the card that bars it."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class TakeBack:
    """What going back means at one table version: ``seat`` takes back his move ``move`` (its
    index in the journal) and the ``moves`` after it and including it; the table keeps the
    first ``steps`` steps of its record (moves and reorders: a reorder made after the move is
    taken back with it)."""

    seat: int
    version: int
    move: int
    moves: int
    steps: int


def take_back(table: Table, seat: int) -> TakeBack:
    """How ``table`` goes back when ``seat`` takes back his last move; CannotUndo if it may
    not (no move of his in this round, or a move since showed someone a card)."""
    journal = table.journal
    mine = [i for i, (s, _) in enumerate(journal) if s == seat]
    if not mine:
        raise CannotUndo(Msg("you have made no move in this round"))
    k = mine[-1]
    record = GameRecord.from_table(table)
    at = _step_of_move(record, k)
    replay = Replay(record, catalog=table.catalog, check=False)
    names = table.names
    for i in range(at, len(record.steps)):
        step = record.steps[i]
        if step.move is None:               # a reorder shows nobody anything
            continue
        before = replay.table_at(i)
        seen = [visible_cards(before, p) for p in range(table.players)]
        own = visible_cards(before, seat) - visible_cards(before, None)
        codes = set(_all_cards(before))
        told = len(before.events)
        after = replay.table_at(i + 1)
        events = after.events[told:]
        for p in range(table.players):
            new = visible_cards(after, p) - seen[p]
            new |= _named(events, p, codes) - seen[p]
            if i == at and p != seat:
                new -= own                  # the asking player's card his move showed
            if new:
                raise CannotUndo(barred(names, seat, step.seat, Msg(step.move.kind), p))
    return TakeBack(seat=seat, version=table.version, move=k, moves=len(journal) - k,
                    steps=at)


def table_before(table: Table, back: TakeBack) -> Table:
    """A new table as ``table`` was before ``back``'s move, its version one more than
    ``table``'s (a version only goes up: every client's views stay in order, and the jump is
    kept in ``Table.skips`` so that a replay shows each step with the version it was shown
    with), its events those of the moves kept and then the ``undo`` event."""
    record = GameRecord.from_table(table)
    replay = Replay(record, catalog=table.catalog, check=False)
    before = replay.table_at(back.steps).clone()
    before.names = list(table.names)
    before.skips = [(at, by) for at, by in table.skips if at <= back.steps]
    before.skips.append((back.steps, table.version + 1 - before.version))
    before.version = table.version + 1
    before.events.append(typing.cast(Event, {"type": UNDO, "seat": back.seat,
                                             "moves": back.moves}))
    return before


def barred(names: list[str], seat: int, mover: int, kind: Msg, saw: int) -> Msg:
    """Why ``seat`` cannot go back past ``mover``'s move of ``kind``: it showed ``saw`` a
    card (never which: the asking player may not know it)."""
    if mover == seat and saw == seat:
        return Msg("the table cannot go back past your move ({kind}): it showed you a card "
                   "you had not seen", kind=kind)
    if mover == seat:
        return Msg("the table cannot go back past your move ({kind}): it showed {whom} a "
                   "card not seen before", kind=kind, whom=seat_name(names, saw))
    if saw == seat:
        return Msg("the table cannot go back past the move of {who} ({kind}): it showed you "
                   "a card you had not seen", who=seat_name(names, mover), kind=kind)
    return Msg("the table cannot go back past the move of {who} ({kind}): it showed {whom} "
               "a card not seen before", who=seat_name(names, mover), kind=kind,
               whom=seat_name(names, saw))


def _step_of_move(record: GameRecord, move: int) -> int:
    """The index among the record's steps of the journal's move ``move``."""
    seen = -1
    for i, step in enumerate(record.steps):
        if step.move is not None:
            seen += 1
            if seen == move:
                return i
    raise IndexError(move)


def _all_cards(table: Table) -> Iterable[str]:
    for zone in table.zones():
        yield from zone.cards


def _named(events: list[Event], seat: int, codes: set[str]) -> Counter[str]:
    """The cards ``events`` name as ``seat`` was told them: per card code, the most copies
    one event names (a play event and the pile it lands on name one card twice)."""
    most: Counter[str] = Counter()
    for event in events:
        most |= Counter(_codes_in(redact_event(event, seat), codes))
    return most


def _codes_in(obj: Any, codes: set[str]) -> list[str]:
    found: list[str] = []
    stack: list[Any] = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in codes:
                found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found
