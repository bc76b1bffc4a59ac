"""One event as plain data, and its rules of entering, withdrawing and seating a round
(docs/rules/tournament.md, TO-2 to TO-21).

An ``Event`` holds its settings, its entrants (by their handle at the host, with the name they
are shown by), its rounds (each table's seats and, once over, its places) and, for a round
robin, its schedule. The host (``net/host/tourney.py``) asks it what to do and does it: it
opens the tables ``next_round`` seats, tells ``record`` each table's places, ``stop`` a table
still playing at the round's deadline; the standings come from ``scoring`` over what is
recorded. ``to_store``/``from_store`` are what the host's store keeps (msgpack-ready data);
a host that takes over rebuilds the event from them and seats the next round exactly as its
predecessor would have: every choice comes from the event's seed and its results.

Must not know about: sockets, the store's format, the clock (times are numbers handed in),
any game (a game's deck is handed in).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.i18n import Msg
from cardparty.core.tourney import pairing, scoring

#: The formats (TO-2): a Swiss by standings, or a round robin.
FORMATS = ("swiss", "robin")
#: What fills a round when the entrants are not a multiple of the table size (TO-6).
FILLS = ("bots", "byes")
#: An event takes sign-ups, plays its rounds, is over.
SIGNUP, PLAYING, OVER = "signup", "playing", "over"
#: Entrants an event takes at most (TO-3), and a Swiss's rounds (TO-2).
MAX_ENTRANTS = 256
MAX_ROUNDS = 20
#: An entrant in the event, or withdrawn from it (TO-19).
IN, WITHDRAWN = "in", "withdrawn"


class EventRefusal(ValueError):
    """A request the event's rules refuse: ``code`` (a protocol error code) and the words."""

    def __init__(self, code: str, message: Msg) -> None:
        self.code = code
        self.message = message
        super().__init__(str(message))


@dataclass
class EventSettings:
    """What an event is (TO-2): the game, its variants and settings, the table size, the
    format and its rounds (a round robin's come from its schedule), whether a round deals the
    same cards to every table, what fills a round, the last round after which a late entry
    is too late (0: none), the round's deadline in minutes (0: none), the seconds a seated
    table waits for its players' ready, the tables' idle time (None: never) and bots' delay
    and level, and the title."""

    game: str
    seats: int
    settings: dict[str, Any] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    format: str = "swiss"
    rounds: int = 5
    duplicate: bool = False
    fill: str = "bots"
    late: int = 2
    minutes: float = 0.0
    start_within: float = 60.0
    idle: float | None = None
    bot_delay: float = 0.6
    bot_level: str = "normal"
    title: str = ""

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "seats": self.seats, "settings": dict(self.settings),
                "variants": list(self.variants), "format": self.format,
                "rounds": self.rounds, "duplicate": self.duplicate, "fill": self.fill,
                "late": self.late, "minutes": self.minutes,
                "start_within": self.start_within, "idle": self.idle,
                "bot_delay": self.bot_delay, "bot_level": self.bot_level, "title": self.title}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> EventSettings:
        return cls(**{**data, "variants": tuple(data.get("variants", ()))})


@dataclass
class Entrant:
    """One entrant: his handle (``token``) and name, the order he signed up in, his rating
    at the event's game when he signed up (None: unrated), whether he is in or withdrew, and
    the first round he may be seated in (a late entry's or re-entry's next round)."""

    token: str
    name: str
    joined: int
    rating: float | None = None
    status: str = IN
    since: int = 1


@dataclass
class EventTable:
    """One table of a round: the host's table id ('' until it is opened), per seat the
    entrant's handle (None: a host bot) and the name shown, and its places once over."""

    table: str
    seats: list[str | None]
    names: list[str]
    places: list[int] | None = None
    state: str = scoring.PLAYING


@dataclass
class EventRound:
    """One round: its number, the seed of its deal, its tables, who sat out with a bye, how
    many pairs met again (TO-10), when it was seated and its deadline (wall clock; None:
    none)."""

    number: int
    seed: int
    tables: list[EventTable]
    byes: list[str] = field(default_factory=list)
    repeats: int = 0
    seated_at: float = 0.0
    deadline: float | None = None

    @property
    def complete(self) -> bool:
        return all(t.state != scoring.PLAYING for t in self.tables)


@dataclass
class Event:
    """One event (module docstring)."""

    id: str
    seq: int
    settings: EventSettings
    organiser: str
    organiser_name: str
    seed: int
    status: str = SIGNUP
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[EventRound] = field(default_factory=list)
    #: a round robin's schedule, fixed at the start (TO-12)
    schedule: list[pairing.Round] = field(default_factory=list)
    #: the seed order (handles), fixed at the start, late entries appended (TO-5, TO-20)
    seeds: list[str] = field(default_factory=list)
    created: float = 0.0

    # --- asking ------------------------------------------------------------------------------

    def entrant(self, token: str) -> Entrant | None:
        return next((e for e in self.entrants if e.token == token), None)

    @property
    def round(self) -> int:
        """The round seated last (0 before the first)."""
        return len(self.rounds)

    @property
    def total_rounds(self) -> int:
        """The rounds the event plays: a Swiss's setting, a round robin's schedule."""
        if self.settings.format == "robin" and self.status != SIGNUP:
            return len(self.schedule)
        return self.settings.rounds

    @property
    def current(self) -> EventRound | None:
        return self.rounds[-1] if self.rounds else None

    def names(self) -> dict[str, str]:
        return {e.token: e.name for e in self.entrants}

    def results(self) -> list[scoring.RoundResult]:
        """Every round as ``scoring`` reads it."""
        return [scoring.RoundResult(
            tuple(scoring.TableResult(tuple(t.seats), None if t.places is None
                                      else tuple(t.places), t.state) for t in r.tables),
            tuple(r.byes), self.settings.duplicate) for r in self.rounds]

    def standings(self) -> list[scoring.Standing]:
        """TO-24: the standings now (seed order before the start: sign-up order)."""
        order = self.seeds or [e.token for e in self.entrants]
        return scoring.standings(order, self.results(), self.settings.seats)

    def due(self) -> bool:
        """The next round is to be seated: the event plays, the last round is complete
        (TO-16) and another is to come."""
        if self.status != PLAYING:
            return False
        last = self.current
        return (last is None or last.complete) and self.round < self.total_rounds

    def seat_of(self, token: str) -> tuple[EventTable, int] | None:
        """Where ``token`` sits in the round seated last."""
        last = self.current
        if last is None:
            return None
        for t in last.tables:
            for s, who in enumerate(t.seats):
                if who == token:
                    return t, s
        return None

    def table_of(self, table_id: str) -> EventTable | None:
        """The current round's table ``table_id`` (a table of an earlier round is done)."""
        last = self.current
        if last is None or not table_id:
            return None
        return next((t for t in last.tables if t.table == table_id), None)

    # --- entering and withdrawing ------------------------------------------------------------

    def join(self, token: str, name: str, rating: float | None) -> Entrant:
        """TO-3, TO-20, TO-21: ``token`` signs up (before the start), enters late (after it,
        until the end of round ``late``; never a round robin), or enters again after
        withdrawing (as a late entry, keeping his points). Signing up twice is signing up
        once."""
        if self.status == OVER:
            raise EventRefusal("event_state", Msg("the event is over"))
        found = self.entrant(token)
        if found is not None and found.status == IN:
            return found
        if self.status == PLAYING:
            if self.settings.format == "robin":
                raise EventRefusal("event_state", Msg(
                    "a round robin's schedule is fixed at its start: it takes no late entries"))
            if self.round > self.settings.late:
                raise EventRefusal("event_state", Msg(
                    "entries closed after round {late}", late=self.settings.late))
        if found is not None:                      # TO-21: back, his points kept
            found.status = IN
            found.since = self.round + 1
            found.name = name
            return found
        if len(self.entrants) >= MAX_ENTRANTS:
            raise EventRefusal("event_state", Msg("the event has {n} entrants, as many as an "
                                                  "event takes", n=MAX_ENTRANTS))
        entrant = Entrant(token, name, len(self.entrants) + 1, rating,
                          since=self.round + 1 if self.status == PLAYING else 1)
        self.entrants.append(entrant)
        if self.status == PLAYING:
            self.seeds.append(token)               # TO-20: a late entry is the last seed
        return entrant

    def withdraw(self, token: str) -> Entrant:
        """TO-3, TO-19: before the start his sign-up is gone; after it he is seated in no
        later round and keeps his points (the round he sits in plays on)."""
        found = self.entrant(token)
        if found is None or found.status != IN:
            raise EventRefusal("not_entered", Msg("you are not entered in this event"))
        if self.status == OVER:
            raise EventRefusal("event_state", Msg("the event is over"))
        if self.status == SIGNUP:
            self.entrants.remove(found)
        else:
            found.status = WITHDRAWN
        return found

    # --- the start and the rounds ------------------------------------------------------------

    def start(self, ratings: dict[str, float | None]) -> None:
        """TO-4, TO-5, TO-12: the sign-ups close and the seeds are fixed: by rating at the
        event's game (``ratings``, now), the unrated after, equal ones in sign-up order; a
        round robin's schedule is made."""
        if self.status != SIGNUP:
            raise EventRefusal("event_state", Msg("the event has started already"))
        n = len(self.entrants)
        least = self.settings.seats if self.settings.fill == "byes" else 2
        if n < least:
            raise EventRefusal("event_state", Msg(
                "the event needs at least {least} entrants to start; it has {n}",
                least=least, n=n))
        if self.settings.format == "robin" and n > pairing.ROBIN_MOST:
            raise EventRefusal("event_state", Msg(
                "a round robin is for at most {most} entrants; this event has {n}: make it "
                "a Swiss", most=pairing.ROBIN_MOST, n=n))
        for e in self.entrants:
            e.rating = ratings.get(e.token, e.rating)
        order = sorted(self.entrants, key=lambda e: (
            e.rating is None, -(e.rating or 0.0), e.joined))
        self.seeds = [e.token for e in order]
        if self.settings.format == "robin":
            self.schedule = pairing.robin(self.seeds, self.settings.seats, self.settings.fill,
                                          random.Random(f"{self.seed}/robin"))
        self.status = PLAYING

    def next_round(self, now: float) -> EventRound:
        """TO-6 to TO-12: the next round's seating (its tables not opened yet: the host opens
        them and names them with ``opened``)."""
        assert self.due(), "no round is due"
        number = self.round + 1
        settings = self.settings
        k = settings.seats
        active = {e.token for e in self.entrants if e.status == IN and e.since <= number}
        rng = random.Random(f"{self.seed}/{number}/seats")
        repeats = 0
        if settings.format == "robin":
            planned = self.schedule[number - 1]
            tables = [[p if p in active else None for p in t] for t in planned.tables]
            tables = [t for t in tables if any(p is not None for p in t)]
            sitting_out = [p for p in planned.byes if p in active]
            seats = pairing.with_bots([[p for p in t if p is not None] for t in tables], k)
        else:
            order = [s.entrant for s in self.standings() if s.entrant in active]
            if not any(r.tables for r in self.rounds):
                order = [p for p in self.seeds if p in active]
            table_sizes, out = pairing.sizes(len(order), k, settings.fill)
            had = {p: sum(1 for r in self.rounds if p in r.byes) for p in order}
            sitting_out = pairing.byes(order, out, had)
            playing = [p for p in order if p not in sitting_out]
            if not any(r.tables for r in self.rounds):
                grouped = pairing.first_round(playing, table_sizes)
            else:
                met = pairing.pairs_of(t.seats for r in self.rounds for t in r.tables)
                found = pairing.by_standings(playing, table_sizes, met)
                grouped, repeats = found.tables, found.repeats
            seats = pairing.with_bots([[p for p in t if p is not None] for t in grouped], k)
        seats = pairing.shuffle_seats(seats, rng)
        names = self.names()
        rnd = EventRound(
            number, random.Random(f"{self.seed}/{number}").getrandbits(63),
            [EventTable("", list(t), [names[p] if p is not None else "" for p in t])
             for t in seats], list(sitting_out), repeats, now,
            now + settings.minutes * 60 if settings.minutes else None)
        self.rounds.append(rnd)
        return rnd

    def table_seed(self, rnd: EventRound, index: int) -> int:
        """TO-13, TO-14: the seed of the ``index``-th table of ``rnd``: the round's own at
        every table of a duplicate round, one of its own at each table otherwise."""
        if self.settings.duplicate:
            return rnd.seed
        return random.Random(f"{rnd.seed}/{index}").getrandbits(63)

    def deck(self, rnd: EventRound, cards: Sequence[str]) -> list[str] | None:
        """TO-13: the card order every table of a duplicate round is dealt from (the game's
        ``cards`` shuffled by the round's seed); None when each table deals its own."""
        if not self.settings.duplicate or not cards:
            return None
        order = list(cards)
        random.Random(f"{rnd.seed}/deck").shuffle(order)
        return order

    def opened(self, rnd: EventRound, index: int, table_id: str) -> None:
        rnd.tables[index].table = table_id

    def record(self, table_id: str, places: Sequence[int]) -> bool:
        """A table of the current round is over with ``places`` (per seat); False when it is
        not one of them (or was stopped)."""
        t = self.table_of(table_id)
        if t is None or t.state != scoring.PLAYING:
            return False
        t.places = list(places)
        t.state = scoring.OVER
        return True

    def stop(self, table_id: str) -> bool:
        """TO-16: a table still playing at the round's deadline is stopped."""
        t = self.table_of(table_id)
        if t is None or t.state != scoring.PLAYING:
            return False
        t.state = scoring.STOPPED
        return True

    def finish(self) -> bool:
        """The event is over once its last round is complete; whether it just ended."""
        last = self.current
        if (self.status == PLAYING and last is not None and last.complete
                and self.round >= self.total_rounds):
            self.status = OVER
            return True
        return False

    # --- kept ---------------------------------------------------------------------------------

    def to_store(self) -> dict[str, Any]:
        return {
            "id": self.id, "seq": self.seq, "settings": self.settings.to_data(),
            "organiser": [self.organiser, self.organiser_name], "seed": self.seed,
            "status": self.status, "created": self.created, "seeds": list(self.seeds),
            "entrants": [[e.token, e.name, e.joined, e.rating, e.status, e.since]
                         for e in self.entrants],
            "rounds": [{"number": r.number, "seed": r.seed, "byes": list(r.byes),
                        "repeats": r.repeats, "seated_at": r.seated_at,
                        "deadline": r.deadline,
                        "tables": [[t.table, list(t.seats), list(t.names), t.places, t.state]
                                   for t in r.tables]} for r in self.rounds],
            "schedule": [[r.tables, r.byes] for r in self.schedule],
        }

    @classmethod
    def from_store(cls, data: dict[str, Any]) -> Event:
        organiser, organiser_name = data["organiser"]
        ev = cls(str(data["id"]), int(data["seq"]), EventSettings.from_data(data["settings"]),
                 str(organiser), str(organiser_name), int(data["seed"]), str(data["status"]),
                 created=float(data.get("created", 0.0)))
        ev.seeds = [str(s) for s in data.get("seeds", ())]
        ev.entrants = [Entrant(str(t), str(n), int(j), r, str(st), int(since))
                       for t, n, j, r, st, since in data["entrants"]]
        ev.rounds = [EventRound(
            int(r["number"]), int(r["seed"]),
            [EventTable(str(tid), list(seats), list(names),
                        None if places is None else list(places), str(state))
             for tid, seats, names, places, state in r["tables"]],
            list(r["byes"]), int(r["repeats"]), float(r["seated_at"]), r["deadline"])
            for r in data["rounds"]]
        ev.schedule = [pairing.Round([list(t) for t in tables], list(out))
                       for tables, out in data.get("schedule", ())]
        return ev
