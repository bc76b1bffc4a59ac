"""The random-simulation checker every game runs (in the spirit of OpenSpiel's random-sim test).

Over many seeded bot games it checks, after every move:

- every card is accounted for exactly once: the zones hold the deck, no more, no less;
- no view of a seat holds a card that seat may not see (other hands, blind cards, the stock):
  the cards in the view are a sub-multiset of the zones visible to it; a spectator sees only
  public zones; and no card code the seat may not see appears anywhere else in the view, under
  any key, however deep (a game's own extra fields: a transcript, a memory of claims);
- events that are not private carry only cards that are public before or after the move, in
  any field, however deep;
- no card becomes public silently: every card that a move brings into a public zone is named
  by a public event of that move (so a game cannot show, say, a combination a player sank by
  moving it into a public zone without anybody announcing it);
- the move the bot chose, being listed as legal, is also accepted by ``cardparty_refusal``
  (the listing and the refusal agree);
- save and restore round-trip: after every move the game's own state survives msgpack and
  restore; every ``save_every`` moves and at the end the whole table does (same bytes, same
  views) -- the table's save holds the journal, so saving it after every move would make a
  game's check quadratic in its length;
- every ``determinize_every`` moves, ``determinize`` for one seat (each in turn) keeps that
  seat's view and the deck;

and at the end: the game ended within its bound, its places are a competition ranking of the
seats, and replaying the seed and journal reaches the same state.

A failure raises SimulationFailure with the game, seed and move number: a failing seed is a
bug to fix, then a scenario test.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgpack

from cardparty.core.contract import PUBLIC, Event, Move, Result, View
from cardparty.core.discovery import load_catalog
from cardparty.core.simulate import SimulationFailure, SimulationReport, simulate
from cardparty.core.table import Table


def view_cards(view: View) -> Counter[str]:
    """Every card code a view shows: hand, public zones, and each player's zones."""
    found: list[str] = list(view.get("hand", ()))
    for zone in view.get("zones", {}).values():
        if isinstance(zone, list):
            found += zone
    for player in view.get("players", ()):
        for zone in player.get("zones", {}).values():
            if isinstance(zone, list):
                found += zone
    return Counter(found)


def visible_cards(table: Table, seat: int | None) -> Counter[str]:
    """The multiset of cards ``seat`` may see (None: public cards only)."""
    seen: Counter[str] = Counter()
    for zone in table.zones():
        if zone.seen_by == PUBLIC or (seat is not None and zone.seen_by == seat):
            seen.update(zone.cards)
    return seen


EMPTY: Counter[str] = Counter()


def is_competition_ranking(places: Iterable[int]) -> bool:
    """1, 1, 3 is; 1, 2, 2 is; 1, 3 and 2, 2 are not."""
    places = list(places)
    return all(p == 1 + sum(q < p for q in places) for p in places)


def _stable(view: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "events"}


class InvariantChecker:
    """The per-move checks, as an ``after_move`` callback for ``simulate``."""

    def __init__(self, deck: Counter[str] | None, determinize_every: int = 7,
                 save_every: int = 25) -> None:
        self.deck = deck
        self.codes: frozenset[str] = frozenset(deck) if deck else frozenset()
        self.determinize_every = determinize_every
        self.save_every = save_every
        self.public_before: Counter[str] = Counter()
        self.deck_now: Counter[str] = Counter()
        self.rng = random.Random(0)

    def start(self, table: Table) -> None:
        total, public, own = self.census(table)
        if self.deck is not None and total != self.deck:
            self.fail(table, 0, f"the deal does not hold the deck: {_diff(total, self.deck)}")
        self.deck_now = total
        self.public_before = public
        self.check_views(table, 0, public, own)

    def fail(self, table: Table, move_no: int, message: str) -> None:
        raise SimulationFailure(table.game, table.players, table.seed, move_no, message,
                                table.variant_ids)

    def after_move(self, table: Table, seat: int, move: Move, events: list[Event]) -> None:
        n = len(table.journal)
        total, public_after, own = self.census(table)
        if total != self.deck_now:
            self.fail(table, n, f"cards created or lost: {_diff(total, self.deck_now)}")
        announced: Counter[str] = Counter()
        for event in events:
            if event.get("private"):
                if event.get("seat") is None:
                    self.fail(table, n, f"a private event names no seat: {event}")
                continue
            shown = Counter(event.get("cards", ()))
            named = self.card_strings(event)
            hidden = (shown | named) - (self.public_before | public_after)
            if hidden:
                self.fail(table, n, f"event {event.get('type')} shows hidden cards "
                                    f"{sorted(hidden.elements())}")
            announced.update(shown | named)
        silent = (public_after - self.public_before) - announced
        if silent:
            self.fail(table, n, f"cards became public with no event naming them: "
                                f"{sorted(silent.elements())}")
        self.public_before = public_after
        self.check_views(table, n, public_after, own)
        self.check_state_round_trip(table, n)
        if self.save_every and n % self.save_every == 0:
            self.check_save(table, n)
        if self.determinize_every and n % self.determinize_every == 0:
            self.check_determinize(table, n)

    def card_strings(self, obj: Any, skip: tuple[str, ...] = ()) -> Counter[str]:
        """Every string equal to one of the deck's card codes anywhere in ``obj`` (a view or
        an event: maps, lists, nested), keys ``skip`` left out at the top level.

        Runs after every move for every seat, so it dispatches on the exact type (views are
        msgpack-ready: str, dict, list, tuple, numbers) instead of ``isinstance`` chains."""
        codes = self.codes
        found: list[str] = []
        if not codes:
            return Counter()
        keep = found.append
        # An explicit stack, not a recursive walk: a view of eight seats is some eighty
        # nested values, and a call per value was most of the checker's time.
        if type(obj) is dict:
            stack: list[Any] = [v for k, v in obj.items() if k not in skip]
        else:
            stack = [obj]
        pop, push = stack.pop, stack.extend
        while stack:
            item = pop()
            kind = type(item)
            if kind is str:
                if item in codes:
                    keep(item)
            elif kind is dict:
                push(item.values())
            elif kind is list or kind is tuple:
                push(item)
        return Counter(found)

    @staticmethod
    def census(table: Table) -> tuple[Counter[str], Counter[str], dict[int, Counter[str]]]:
        """All cards, the public ones, and each seat's own, from one call of the zones hook."""
        total: list[str] = []
        public: list[str] = []
        own: dict[int, list[str]] = {}
        for zone in table.zones():
            total += zone.cards
            if zone.seen_by == PUBLIC:
                public += zone.cards
            elif zone.seen_by >= 0:
                own.setdefault(zone.seen_by, []).extend(zone.cards)
        return Counter(total), Counter(public), {s: Counter(c) for s, c in own.items()}

    def check_views(self, table: Table, n: int, public: Counter[str] | None = None,
                    own: dict[int, Counter[str]] | None = None) -> None:
        if public is None or own is None:
            _, public, own = self.census(table)
        acting = set(table.to_move())
        for seat in [None, *range(table.players)]:
            # The game's own view for every seat; the driver's full view (which adds the legal
            # moves) only where there are moves to check.
            if seat in acting:
                view = table.view(seat)
            else:
                view = table.hook.cardparty_view(state=table.state, seat=seat)
                if seat is not None and table.legal_moves(seat):
                    # A view shows no moves to a seat not to move (``Table.view``).
                    self.fail(table, n, f"seat {seat} is not to move but has moves: "
                                        f"{[m.label for m in table.legal_moves(seat)]}")
            shown = view_cards(view)
            mine = own.get(seat, EMPTY) if seat is not None else EMPTY
            who = "a spectator" if seat is None else f"seat {seat}"
            if any(k > public[c] + mine[c] for c, k in shown.items()):
                leaked = shown - public - mine
                self.fail(table, n, f"the view of {who} shows cards it may not see: "
                                    f"{sorted(leaked.elements())}")
            anywhere = self.card_strings(view, skip=("moves", "events"))
            unseen = [c for c in anywhere if public[c] + mine[c] == 0]
            if unseen:
                self.fail(table, n, f"the view of {who} shows cards it may not see: "
                                    f"{sorted(unseen)} (outside its card zones)")
            for m in view.get("moves", ()):
                if not isinstance(m["label"], str) or not m["label"]:
                    self.fail(table, n, f"move {m} has no label")
                if any(public[c] + mine[c] == 0 for c in m["cards"]):
                    self.fail(table, n, f"move {m['label']!r} of seat {seat} names a card "
                                        f"the seat may not see")
        for seat in table.to_move():
            legal = table.legal_moves(seat)
            stride = max(1, len(legal) // 8)         # a spread of at most ~8 per seat and move
            for move in legal[n % stride::stride]:
                reason = table.hook.cardparty_refusal(state=table.state, seat=seat, move=move)
                if reason is not None:
                    self.fail(table, n, f"listed move {move.label!r} of seat {seat} is refused: "
                                        f"{reason}")

    def check_state_round_trip(self, table: Table, n: int) -> None:
        """Every move: the game's own save survives msgpack and restore unchanged."""
        hook = table.hook
        data = hook.cardparty_save(state=table.state)
        blob = msgpack.packb(data, use_bin_type=True)
        again = hook.cardparty_restore(data=msgpack.unpackb(blob, raw=False,
                                                            strict_map_key=False))
        if msgpack.packb(hook.cardparty_save(state=again), use_bin_type=True) != blob:
            self.fail(table, n, "the game's save -> restore -> save changed the state")

    def check_save(self, table: Table, n: int) -> None:
        blob = table.save()
        twin = Table.restore(blob)
        if twin.save() != blob:
            self.fail(table, n, "save -> restore -> save changed the bytes")
        seat = n % (table.players + 1) - 1          # each seat in turn; -1 stands for a spectator
        shown = None if seat < 0 else seat
        if _stable(twin.view(shown)) != _stable(table.view(shown)):
            self.fail(table, n, f"the restored table shows seat {shown} another view")

    def check_determinize(self, table: Table, n: int) -> None:
        if table.result() is not None:
            return
        # one seat each time, in turn: every seat is covered over a game, at 1/n of the cost
        seat = (n // self.determinize_every) % table.players
        det = table.determinize(seat, self.rng)
        if det is None:
            return
        twin = table.clone()
        twin.state = det
        if _stable(twin.view(seat)) != _stable(table.view(seat)):
            self.fail(table, n, f"determinize for seat {seat} changed its view")
        if self.census(twin)[0] != self.deck_now:
            self.fail(table, n, f"determinize for seat {seat} did not keep the deck")

    def finish(self, table: Table, result: Result) -> None:
        n = len(table.journal)
        self.check_save(table, n)
        if len(result.places) != table.players or not is_competition_ranking(result.places):
            self.fail(table, n, f"places {result.places} are not a ranking of the seats")
        replayed = Table.replay(table.game, table.players, table.seed,
                                table.journal, table.settings, table.variant_ids, table.names)
        if replayed.hook.cardparty_save(state=replayed.state) != table.hook.cardparty_save(
                state=table.state):
            self.fail(table, n, "replaying the seed and journal reached another state")


def _diff(got: Counter[str], want: Counter[str]) -> str:
    extra = sorted((got - want).elements())
    missing = sorted((want - got).elements())
    return f"extra {extra}, missing {missing}"


def check_random_games(game: str, players: int, games: int, seed: int = 0,
                       variants: Iterable[str] = (), settings: dict[str, Any] | None = None,
                       determinize_every: int = 7, save_every: int = 25) -> SimulationReport:
    """Play ``games`` seeded random games with every invariant checked; the report on success.

    Raises SimulationFailure (game, seed, move number, what broke) on the first violation.
    """
    info = load_catalog().game(game)
    deck = Counter(info.deck) if info.deck else None
    checker = InvariantChecker(deck, determinize_every, save_every)
    return simulate(game, players, games, seed, variants, settings, observer=checker)
