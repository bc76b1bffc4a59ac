"""The random-simulation checker every game runs (in the spirit of OpenSpiel's random-sim test).

Over many seeded bot games it checks, after every move:

- every card is accounted for exactly once: the zones hold the deck, no more, no less;
- no view of a seat holds a card that seat may not see (other hands, blind cards, the stock):
  the cards in the view are a sub-multiset of the zones visible to it (public zones, its own,
  and the zones it shares with other seats: ``Zone.seen_by`` a set of seats), except that a
  card the seat sees every copy of may show in several places (the trick as a table zone and
  in a player's row); a spectator sees only public zones; and no card code the seat may not
  see appears anywhere else in the view, under any key, however deep (a game's own extra
  fields: a transcript, a memory of claims);
- the view's ``turn`` is None or a seat that may move now;
- events that are not private carry only cards that are public before or after the move, in
  any field, however deep; in a move with a public ``deal`` event (a new deal, in the move
  that ended the last), the events before it may also show the mover's own cards (the last
  card laid went into the new deal) and the events from it on only what is public after;
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
  seat's view and the deck, redeals what the seat cannot see (a hidden zone that never changes
  over ``REDEAL_TRIES`` samples fails) and depends only on what the seat sees (the real state
  and a sample of it, which the seat sees alike, give the same sample for the same rng: no
  shuffle of the hidden cards as they really lie); in one game of ``sampler_every`` the
  search's sampler (``cardparty_bot_sampler``) is held to the same once;

and at the end: the game ended within its bound, its places are a competition ranking of the
seats, and replaying the seed and journal reaches the same state.

A failure raises SimulationFailure with the game, seed and move number: a failing seed is a
bug to fix, then a scenario test.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import random
import typing
from collections import Counter
from collections.abc import Container, Iterable, Mapping
from typing import Any

import msgpack

from cardparty.core.contract import DEAL, PUBLIC, Event, Move, Result, View
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
        if zone.visible_to(seat):
            seen.update(zone.cards)
    return seen


EMPTY: Counter[str] = Counter()

#: Samples in which a hidden zone could have changed and never did before ``determinize``
#: is said not to redeal it (an honest redeal keeps a zone of two different cards as it is
#: half the time at worst: 1 in 256 over eight; real zones hold more).
REDEAL_TRIES = 8
#: The search's sampler is checked once in a game, at its first ``determinize`` check from
#: this move on (some history to read), in one game of ``sampler_every``: it reads the whole
#: history each time it is made (Pikáč: 12 ms, as much as a checked game's 40 moves), and a
#: sampler that reads the real deal does so at any check.
SAMPLER_AFTER = 30


def is_competition_ranking(places: Iterable[int]) -> bool:
    """1, 1, 3 is; 1, 2, 2 is; 1, 3 and 2, 2 are not."""
    places = list(places)
    return all(p == 1 + sum(q < p for q in places) for p in places)


def _stable(view: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "events"}


class InvariantChecker:
    """The per-move checks, as an ``after_move`` callback for ``simulate``."""

    def __init__(self, deck: Counter[str] | None, determinize_every: int = 7,
                 save_every: int = 25, sampler_every: int = 4) -> None:
        self.deck = deck
        self.codes: frozenset[str] = frozenset(deck) if deck else frozenset()
        self.determinize_every = determinize_every
        self.save_every = save_every
        self.sampler_every = max(1, sampler_every)
        self.public_before: Counter[str] = Counter()
        self.own_before: dict[int, Counter[str]] = {}
        self.deck_now: Counter[str] = Counter()
        self.rng = random.Random(0)
        #: per hidden zone's name: [samples due to change it, samples that did]
        self.redeals: dict[str, list[int]] = {}
        self.samplers: dict[int, bool] = {}
        #: games started, and the last one whose sampler was checked (``check_blind``)
        self.games = 0
        self.sampled = -1
        #: samples made for the determinize checks, and games whose sampler was checked
        self.determinized = 0
        self.sampler_checks = 0

    def start(self, table: Table) -> None:
        self.games += 1
        total, public, own = self.census(table)
        if self.deck is not None and total != self.deck:
            self.fail(table, 0, f"the deal does not hold the deck: {_diff(total, self.deck)}")
        self.deck_now = total
        self.public_before = public
        self.own_before = own
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
        either = self.public_before | public_after
        # A public "deal" event splits the move: before it, the mover's cards may show (he
        # laid the last card of a hand, which went into the next deal); from it on, only
        # what is public after the move.
        deal = next((i for i, e in enumerate(events)
                     if e.get("type") == DEAL and not e.get("private")), None)
        laid = either | self.own_before.get(seat, EMPTY) if deal is not None else either
        for i, event in enumerate(events):
            if event.get("private"):
                if event.get("seat") is None:
                    self.fail(table, n, f"a private event names no seat: {event}")
                continue
            shown = Counter(event.get("cards", ()))
            named = self.card_strings(event)
            allowed = either if deal is None else laid if i < deal else public_after
            hidden = (shown | named) - allowed
            if hidden:
                self.fail(table, n, self.hidden_in_event(event, hidden, deal, i))
            announced.update(shown | named)
        silent = (public_after - self.public_before) - announced
        if silent:
            self.fail(table, n, f"cards became public with no event naming them: "
                                f"{sorted(silent.elements())}")
        self.public_before = public_after
        self.own_before = own
        self.check_views(table, n, public_after, own)
        self.check_state_round_trip(table, n)
        if self.save_every and n % self.save_every == 0:
            self.check_save(table, n)
        if self.determinize_every and (n == 1 or n % self.determinize_every == 0):
            self.check_determinize(table, n)    # at the first move too: a game may be short

    @staticmethod
    def hidden_in_event(event: Event, hidden: Counter[str], deal: int | None, i: int) -> str:
        """Why a public event may not name ``hidden``, in one line that says what would."""
        cards = sorted(hidden.elements())
        kind = event.get("type")
        if deal is None:
            return (f"event {kind} shows hidden cards {cards}: they are hidden both before and "
                    f"after the move; a card a player laid that went back into a hidden hand "
                    f"in the same move (dealt again) needs a public event of type "
                    f"{DEAL!r} after the events that show it")
        if i < deal:
            return (f"event {kind} shows hidden cards {cards}: before the move's {DEAL!r} "
                    f"event an event may show only public cards and the mover's own")
        return (f"event {kind} shows hidden cards {cards}: from the move's {DEAL!r} event on, "
                f"an event may show only cards that are public after the move")

    def card_strings(self, obj: Any, skip: tuple[str, ...] = ()) -> Counter[str]:
        """Every string equal to one of the deck's card codes anywhere in ``obj`` (a view or
        an event: maps, lists, nested), keys ``skip`` left out at the top level."""
        return Counter(self.card_list(obj, skip))

    def card_list(self, obj: Any, skip: tuple[str, ...] = (),
                  seen: Container[str] = ()) -> list[str]:
        """The card codes of ``card_strings`` as a list, those in ``seen`` left out: a view
        asks only which cards its seat may not see, and a Counter per seat and move cost
        as much as the walk.

        Runs after every move for every seat, so it dispatches on the exact type (views are
        msgpack-ready: str, dict, list, tuple, numbers) instead of ``isinstance`` chains."""
        codes = self.codes
        found: list[str] = []
        if not codes:
            return found
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
                if item in codes and item not in seen:
                    keep(item)
            elif kind is dict:
                push(item.values())
            elif kind is list or kind is tuple:
                push(item)
        return found

    @staticmethod
    def census(table: Table) -> tuple[Counter[str], Counter[str], dict[int, Counter[str]]]:
        """All cards, the public ones, and the cards each seat may see besides them (its own
        zones and the zones it shares with other seats), from one call of the zones hook."""
        total: list[str] = []
        public: list[str] = []
        own: dict[int, list[str]] = {}
        for zone in table.zones():
            total += zone.cards
            seen = zone.seen_by
            if type(seen) is int:
                if seen == PUBLIC:
                    public += zone.cards
                elif seen >= 0:
                    own.setdefault(seen, []).extend(zone.cards)
            else:
                for s in sorted(typing.cast(frozenset[int], seen)):
                    own.setdefault(s, []).extend(zone.cards)
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
            if seat is None:
                turn = view.get("turn")
                if turn is not None and turn not in acting:
                    self.fail(table, n, f"the view's turn is seat {turn}, which may not move "
                                        f"now (seats to move: {sorted(acting)}); when several "
                                        f"seats move at once, or nobody, turn is None")
            shown = view_cards(view)
            mine = own.get(seat, EMPTY) if seat is not None else EMPTY
            who = "a spectator" if seat is None else f"seat {seat}"
            if any(k > public[c] + mine[c] for c, k in shown.items()):
                self.shown_too_often(table, n, who, shown, public, mine)
            unseen = set(self.card_list(view, ("moves", "events"), public.keys() | mine.keys()))
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
                reason = table.hook.cardparty_refusal(state=table.state, seat=seat, move=move,
                                                      listed=legal)
                if reason is not None:
                    self.fail(table, n, f"listed move {move.label!r} of seat {seat} is refused: "
                                        f"{reason}")

    def shown_too_often(self, table: Table, n: int, who: str, shown: Counter[str],
                        public: Counter[str], mine: Counter[str]) -> None:
        """A view shows some card more often than its seat may see it: a leak, unless the
        seat sees every copy of that card the game has (then the view only shows a card it
        sees in two places: the trick as a table zone and in the player's row)."""
        total = self.deck_now
        unseen: list[str] = []
        twice: list[str] = []
        for c, k in sorted(shown.items()):
            may = public[c] + mine[c]
            if k <= may:
                continue
            if may == 0:
                unseen += [c] * k
            elif may < total[c]:
                twice.append(f"{c} {k} times (it may see {may} of the game's {total[c]})")
        if unseen:
            self.fail(table, n, f"the view of {who} shows cards it may not see: {unseen}")
        if twice:
            self.fail(table, n, f"the view of {who} shows cards it may not see: "
                                f"{', '.join(twice)}; where the game has other copies of a "
                                f"card, each place a view shows it counts as one copy, since "
                                f"another copy may be hidden: show such a card in one place")

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
        self.determinized += 1
        twin = table.clone()
        twin.state = det
        if _stable(twin.view(seat)) != _stable(table.view(seat)):
            self.fail(table, n, f"determinize for seat {seat} changed its view")
        if self.census(twin)[0] != self.deck_now:
            self.fail(table, n, f"determinize for seat {seat} did not keep the deck")
        self.check_redealt(table, twin, seat, n)
        self.check_blind(table, twin, seat, n)

    def check_redealt(self, table: Table, twin: Table, seat: int, n: int) -> None:
        """``determinize`` redeals what ``seat`` cannot see: every zone hidden from it must
        come back changed now and then. Counted per zone name over the whole run: a zone that
        was due to change ``REDEAL_TRIES`` times (the hidden cards held two different codes
        at least) and never did is kept as it really is, and a search would see it."""
        hidden: dict[str, list[str]] = {}
        for zone in table.zones():
            if not zone.visible_to(seat) and zone.cards:
                hidden.setdefault(zone.name, []).extend(zone.cards)
        pool = {c for cards in hidden.values() for c in cards}
        if len(pool) < 2:
            return                            # nothing a redeal could change
        sample: dict[str, list[str]] = {}
        for zone in twin.zones():
            if not zone.visible_to(seat):
                sample.setdefault(zone.name, []).extend(zone.cards)
        for name, cards in hidden.items():
            tally = self.redeals.setdefault(name, [0, 0])
            if tally[1]:
                continue                      # seen redealt already
            tally[0] += 1
            if sample.get(name) != cards:
                tally[1] += 1
            elif tally[0] >= REDEAL_TRIES:
                self.fail(table, n, f"determinize for seat {seat} never redeals zone "
                                    f"{name!r}: {tally[0]} samples kept its hidden cards as "
                                    f"they really lie; redeal every card the seat cannot see "
                                    f"(kit.redeal)")

    def check_blind(self, table: Table, twin: Table, seat: int, n: int) -> None:
        """The samples depend only on what ``seat`` sees and the rng: the real state and a
        determinization of it (which the seat sees alike) give the same sample for the same
        rng. A game that shuffles the hidden cards without sorting them first, or reads the
        real deal in any other way, gives different ones. The same for the search's sampler
        (``cardparty_bot_sampler``), given the same events."""
        hook = table.hook
        k = self.rng.getrandbits(32)
        one = hook.cardparty_determinize(state=table.state, seat=seat, rng=random.Random(k))
        two = hook.cardparty_determinize(state=twin.state, seat=seat, rng=random.Random(k))
        if _packed(hook, one) != _packed(hook, two):
            self.fail(table, n, f"determinize for seat {seat} depends on where the hidden "
                                f"cards really lie: two states the seat sees alike gave "
                                f"different samples with the same rng (sort the unseen cards "
                                f"before shuffling them, as kit.redeal does)")
        due = n >= SAMPLER_AFTER and self.sampled != self.games \
            and (self.games - 1) % self.sampler_every == 0
        if not due or not self.has_sampler(table):
            return
        self.sampled = self.games
        self.sampler_checks += 1
        one = table.sampler(seat)(random.Random(k))
        two = twin.sampler(seat)(random.Random(k))
        if _packed(hook, one) != _packed(hook, two):
            self.fail(table, n, f"cardparty_bot_sampler for seat {seat} depends on where the "
                                f"hidden cards really lie: two states the seat sees alike gave "
                                f"different samples with the same rng and events")

    def has_sampler(self, table: Table) -> bool:
        found = self.samplers.get(id(table.pm))
        if found is None:
            found = self.samplers[id(table.pm)] = bool(
                table.pm.hook.cardparty_bot_sampler.get_hookimpls())
        return found

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


def _packed(hook: Any, state: Any) -> bytes:
    """A state as the bytes of its save, to compare two states."""
    return msgpack.packb(hook.cardparty_save(state=state), use_bin_type=True)


def _diff(got: Counter[str], want: Counter[str]) -> str:
    extra = sorted((got - want).elements())
    missing = sorted((want - got).elements())
    return f"extra {extra}, missing {missing}"


def check_random_games(game: str, players: int, games: int, seed: int = 0,
                       variants: Iterable[str] = (), settings: dict[str, Any] | None = None,
                       determinize_every: int = 7, save_every: int = 25,
                       sampler_every: int = 4) -> SimulationReport:
    """Play ``games`` seeded random games with every invariant checked; the report on success.
    ``determinize_every`` and ``save_every`` are in moves, ``sampler_every`` in games (the
    checks that cost most are made that often, see ``InvariantChecker``).

    Raises SimulationFailure (game, seed, move number, what broke) on the first violation.
    """
    info = load_catalog().game(game)
    deck = Counter(info.deck) if info.deck else None
    checker = InvariantChecker(deck, determinize_every, save_every, sampler_every)
    return simulate(game, players, games, seed, variants, settings, observer=checker)
