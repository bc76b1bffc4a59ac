"""Events at the host: tournaments played as rounds of ordinary tables (docs/rules/tournament.md;
docs/protocol.md, "Events and ratings").

Owns: the requests ``events``, ``event``, ``event_create``, ``event_join``, ``event_leave``,
``event_start`` and ``event_deadline``; who may create an event (TO-1: the names the host's
operator made organisers); seating each round (TO-15: its tables opened through the lobby as
friends tables of the organiser, every entrant and bot seated, each entrant told where with
``event_seat``), starting a seated table once its players are ready or its start time has
passed, noting each table's places when its round is over (``over``, told by
``play.TableEvents.over``), stopping the tables still playing at a round's deadline (TO-16),
seating the next round once the last table has finished (on the loop's next turn, so that the
round's end is told first), and telling the entrants and whoever follows the event of every
change (the ``event`` push). The rules themselves are ``core.tourney``'s.

Each change of an event is written by ``persistence`` in the transaction of the change that
made it (a table's end, the round's tables opened), so the standby has the event as the host
had it: a host that takes over rebuilds it from the store (``load``) and goes on (TO-28).
Times an event keeps (a round's seating, its deadline) are wall-clock times, so they mean the
same on the host that takes over.

Must not know about: sockets, the store's format, how a table plays (``Play``) or is seated
(``Lobby``), how a round scores (``core.tourney.scoring``).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable

from cardparty.core.bots import canonical_level
from cardparty.core.contract import Result
from cardparty.core.discovery import Catalog
from cardparty.core.i18n import Msg
from cardparty.core.rng import fresh_seed
from cardparty.core.table import Table, TableError
from cardparty.core.tourney import scoring
from cardparty.core.tourney.event import (
    OVER,
    PLAYING,
    Event,
    EventRefusal,
    EventRound,
    EventSettings,
)
from cardparty.net.host.clock import Clock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.lobby import Lobby
from cardparty.net.host.model import (
    DEFAULT_BOT_BUDGET_MS,
    Access,
    HostSeat,
    HostTable,
    Player,
    Players,
    Tables,
    TableTiming,
)
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.play import Play
from cardparty.net.host.ratings import Ratings
from cardparty.net.names.safetext import safe
from cardparty.net.wire.event_replies import (
    EventBrief,
    EventDeadlineReply,
    EventLeaveReply,
    EventPush,
    EventReply,
    EventSeatPush,
    EventsReply,
    EventStartReply,
    EventWire,
    RoundResults,
    StandingLine,
)
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.requests import (
    EventCreateRequest,
    EventDeadlineRequest,
    EventJoinRequest,
    EventLeaveRequest,
    EventRequest,
    EventsRequest,
    EventStartRequest,
)

log = logging.getLogger("cardparty.host")

#: Events a host keeps at most: a new one makes room by forgetting the oldest that is over.
MAX_EVENTS = 32
#: Players who follow an event without being in it (they asked for it), at most, per event.
MAX_FOLLOWERS = 256
#: What lets every player create events (``HostConfig.organisers``).
ANYONE = "*"


def refused(exc: EventRefusal) -> ProtocolError:
    return ProtocolError(exc.code, exc.message)


class Events:
    def __init__(self, config: HostConfig, tables: Tables, players: Players, clock: Clock,
                 outbox: Outbox, play: Play, lobby: Lobby, persistence: Persistence,
                 catalog: Catalog, ratings: Ratings) -> None:
        self.config = config
        self.tables = tables
        self.players = players
        self.clock = clock
        self.outbox = outbox
        self.play = play
        self.lobby = lobby
        self.views = lobby.views
        self.persistence = persistence
        self.catalog = catalog
        self.ratings = ratings
        #: every event by id, oldest first
        self.events: dict[str, Event] = {}
        #: event id -> ids of players who asked for it (told of its changes too)
        self.followers: dict[str, set[str]] = {}
        #: table id -> monotonic time its players' ready is waited for at most (TO-15)
        self.start_by: dict[str, float] = {}
        self._seq = itertools.count(1)

    def load(self) -> None:
        """The events the store kept; a table of a round that waits for its players waits
        the rest of its time (from the round's seating, on the wall clock)."""
        for record in self.persistence.events():
            try:
                ev = Event.from_store(record)
            except Exception as exc:          # a damaged record: this event only
                log.error("an event could not be read (%s: %s); the others go on",
                          type(exc).__name__, exc)
                continue
            self.events[ev.id] = ev
            rnd = ev.current
            if ev.status == PLAYING and rnd is not None:
                left = rnd.seated_at + ev.settings.start_within - self.clock.wall()
                for t in rnd.tables:
                    ht = self.tables.all.get(t.table)
                    if ht is not None and ht.status == "open":
                        self.start_by[ht.id] = self.clock.now() + max(0.0, left)
        self._seq = itertools.count(max((ev.seq for ev in self.events.values()),
                                        default=0) + 1)

    # --- asking ------------------------------------------------------------------------------

    def find(self, event_id: str) -> Event:
        ev = self.events.get(event_id)
        if ev is None:
            raise ProtocolError("no_event", Msg("there is no event {event}",
                                                event=repr(event_id)))
        return ev

    def organiser(self, player: Player) -> None:
        """TO-1: ProtocolError ``not_organiser`` unless the operator made ``player``'s name an
        organiser (or let everybody)."""
        allowed = self.config.event_organisers
        if ANYONE in allowed or player.name.casefold() in {n.casefold() for n in allowed}:
            return
        if allowed:
            raise ProtocolError("not_organiser", Msg(
                "only the organisers this host's operator named may create an event: {names}",
                names=", ".join(allowed)))
        raise ProtocolError("not_organiser", Msg(
            "this host's operator named no organiser: nobody creates events here"))

    @staticmethod
    def owned(ev: Event, player: Player) -> None:
        if player.token != ev.organiser:
            raise ProtocolError("not_organiser", Msg(
                "only {name}, who organises this event, may do that", name=ev.organiser_name))

    def on_events(self, player: Player, req: EventsRequest) -> EventsReply:
        return {"type": "events", "v": PROTOCOL,
                "events": [self.brief(ev) for ev in reversed(self.events.values())]}

    def on_event(self, player: Player, req: EventRequest) -> EventReply:
        ev = self.find(req["event"])
        followers = self.followers.setdefault(ev.id, set())
        if ev.entrant(player.token) is None and len(followers) < MAX_FOLLOWERS:
            followers.add(player.id)
        return self.answer(ev)

    # --- creating, entering, withdrawing -----------------------------------------------------

    def on_event_create(self, player: Player, req: EventCreateRequest) -> EventReply:
        self.organiser(player)
        game, seats = req["game"], req["players"]
        if not self.config.testing and (req["seed"] is not None or "deck" in req["settings"]
                                        or "seed" in req["settings"]):
            raise ProtocolError("testing_only", Msg(
                "this host deals every table from its own secure random source: a seed or a "
                "deck is for a host run with --testing"))
        if game not in self.catalog.games:
            raise ProtocolError("no_game", Msg("no game {game} is installed here (installed: "
                                               "{games})", game=repr(game),
                                               games=", ".join(sorted(self.catalog.games))))
        try:         # the game, its variants, the table size and the settings, as a table's
            for v in req["variants"]:
                self.catalog.variant(game, v)
            Table(game, seats, req["settings"], req["variants"], seed=0, catalog=self.catalog)
        except KeyError as exc:
            raise ProtocolError("no_game", exc.args[0]) from None
        except TableError as exc:
            said = exc.args[0] if exc.args else ""
            raise ProtocolError("bad_table", said if isinstance(said, Msg) else str(exc)
                                ) from None
        except Exception as exc:  # a plugin failing at setup must not reach the loop
            raise ProtocolError("game_failed", Msg("the game failed to set up: {error}",
                                                   error=exc)) from None
        self.make_room()
        rounds = req["rounds"]
        late = rounds // 2 if req["late"] == -1 else req["late"]
        idle = self.config.idle if req["idle"] == -1.0 else req["idle"]
        bot_delay = self.config.bot_delay if req["bot_delay"] == -1.0 else req["bot_delay"]
        settings = EventSettings(
            game=game, seats=seats, settings=dict(req["settings"]),
            variants=tuple(req["variants"]), format=req["format"], rounds=rounds,
            duplicate=req["duplicate"], fill=req["fill"], late=late, minutes=req["minutes"],
            start_within=req["start_within"], idle=idle, bot_delay=bot_delay,
            bot_level=canonical_level(req["level"]), title=req["title"])
        seq = next(self._seq)
        seed = req["seed"] if req["seed"] is not None else fresh_seed()
        ev = Event(f"e{seq}", seq, settings, player.token, player.name, seed,
                   created=self.clock.wall())
        self.events[ev.id] = ev
        self.followers[ev.id] = {player.id}
        self.save(ev)
        log.info("%s created event %s: %s at tables of %d, %s", safe(player.name), ev.id,
                 game, seats, settings.format)
        return self.answer(ev)

    def make_room(self) -> None:
        """At ``MAX_EVENTS``, the oldest event that is over is forgotten (else ``busy``)."""
        if len(self.events) < MAX_EVENTS:
            return
        done = [ev for ev in self.events.values() if ev.status == OVER]
        if not done:
            raise ProtocolError("busy", Msg("this host runs {n} events, as many as it keeps: "
                                            "wait for one to end", n=MAX_EVENTS))
        gone = done[0]
        del self.events[gone.id]
        self.followers.pop(gone.id, None)
        self.persistence.drop_event(gone.id)

    def on_event_join(self, player: Player, req: EventJoinRequest) -> EventReply:
        ev = self.find(req["event"])
        try:
            entrant = ev.join(player.token, player.name,
                              self.ratings.shown(ev.settings.game, player.name))
        except EventRefusal as exc:
            raise refused(exc) from None
        player.settled = True
        log.info("%s entered event %s (from round %d)", safe(player.name), ev.id,
                 entrant.since)
        self.changed(ev)
        return self.answer(ev)

    def on_event_leave(self, player: Player, req: EventLeaveRequest) -> EventLeaveReply:
        ev = self.find(req["event"])
        try:
            ev.withdraw(player.token)
        except EventRefusal as exc:
            raise refused(exc) from None
        # TO-19: a seat at a table that has not started goes to a bot, the result his.
        found = ev.seat_of(player.token)
        if found is not None:
            t, s = found
            ht = self.tables.all.get(t.table)
            if ht is not None and ht.status == "open" and ht.seats[s].player is player:
                ht.seats[s] = HostSeat("bot", None, f"{player.name} (bot)", True,
                                       level=ev.settings.bot_level)
                player.tables.discard(ht.id)
                self.views.forget(ht, player)
                self.lobby.changed(ht)
        log.info("%s withdrew from event %s", safe(player.name), ev.id)
        self.changed(ev)
        return {"type": "ok", "v": PROTOCOL, "about": "event_leave", "event": ev.id}

    # --- the organiser's ---------------------------------------------------------------------

    def on_event_start(self, player: Player, req: EventStartRequest) -> EventStartReply:
        ev = self.find(req["event"])
        self.owned(ev, player)
        try:
            ev.start(self.ratings.seeds(ev.settings.game, ev.names()))
        except EventRefusal as exc:
            raise refused(exc) from None
        log.info("event %s starts: %d entrants, %d rounds", ev.id, len(ev.entrants),
                 ev.total_rounds)
        self.next_round(ev)
        return {"type": "ok", "v": PROTOCOL, "about": "event_start", "event": ev.id,
                "rounds": ev.total_rounds}

    def on_event_deadline(self, player: Player, req: EventDeadlineRequest
                          ) -> EventDeadlineReply:
        """TO-16: the organiser sets the round's deadline, minutes from now (0: now)."""
        ev = self.find(req["event"])
        self.owned(ev, player)
        rnd = ev.current
        if ev.status != PLAYING or rnd is None or rnd.complete:
            raise ProtocolError("event_state", Msg("no round of this event is being played"))
        rnd.deadline = self.clock.wall() + req["minutes"] * 60
        self.changed(ev)
        if req["minutes"] == 0:
            self.tick(self.clock.now())
        return {"type": "ok", "v": PROTOCOL, "about": "event_deadline", "event": ev.id,
                "round": rnd.number}

    # --- the rounds --------------------------------------------------------------------------

    def next_round(self, ev: Event) -> None:
        """Seat the next round (TO-6 to TO-15) or, after the last, end the event."""
        if ev.finish():
            log.info("event %s is over: %s first", ev.id,
                     safe(", ".join(ev.names().get(s.entrant, "?") for s in ev.standings()
                                    if s.rank == 1)))
            self.changed(ev)
            return
        if not ev.due():
            return
        rnd = ev.next_round(self.clock.wall())
        info = self.catalog.game(ev.settings.game)
        deck = ev.deck(rnd, info.deck)
        for i in range(len(rnd.tables)):
            self.seat_table(ev, rnd, i, deck)
        log.info("event %s: round %d seated at %d tables (%d byes, %d pairs meet again)",
                 ev.id, rnd.number, len(rnd.tables), len(rnd.byes), rnd.repeats)
        self.changed(ev)
        for i in range(len(rnd.tables)):
            ht = self.tables.all.get(rnd.tables[i].table)
            if ht is not None:
                self.lobby.changed(ht)          # starts it at once when every seat is ready

    def seat_table(self, ev: Event, rnd: EventRound, index: int, deck: list[str] | None
                   ) -> None:
        """One table of a round opened and seated, its entrants told where (TO-15)."""
        s_ = ev.settings
        t = rnd.tables[index]
        settings = dict(s_.settings)
        if deck is not None:
            settings["deck"] = deck
        game = Table(s_.game, s_.seats, settings, s_.variants,
                     seed=ev.table_seed(rnd, index), catalog=self.catalog)
        title = f"{s_.title or ev.id} · {rnd.number}.{index + 1}"
        ht = self.lobby.open_table(
            game, title[:64], TableTiming(s_.idle, s_.bot_delay, DEFAULT_BOT_BUDGET_MS,
                                          s_.bot_level),
            Access("friends", ev.organiser, ev.organiser_name, None, strangers=False,
                   event=ev.id))
        ev.opened(rnd, index, ht.id)
        now_ready = s_.start_within <= 0
        seated: list[tuple[Player, int]] = []
        for s, token in enumerate(t.seats):
            player = None if token is None else self.players.by_token.get(token)
            entrant = None if token is None else ev.entrant(token)
            if token is None:
                ht.seats[s] = HostSeat("bot", None, f"Bot {s + 1}", True, level=s_.bot_level)
            elif player is None or entrant is None or entrant.status != "in":
                name = t.names[s] or "?"
                ht.seats[s] = HostSeat("bot", None, f"{name} (bot)", True, level=s_.bot_level)
            else:
                ht.seats[s] = HostSeat("human", player, player.name, now_ready)
                player.tables.add(ht.id)
                player.settled = True
                seated.append((player, s))
        if not now_ready:
            self.start_by[ht.id] = self.clock.now() + s_.start_within
        for player, s in seated:
            self.outbox.send(player, self.seat_message(ev, rnd, ht, s))

    @staticmethod
    def seat_message(ev: Event, rnd: EventRound, ht: HostTable, seat: int) -> EventSeatPush:
        """``event_seat``: where an entrant sits in round ``rnd`` (TO-15)."""
        return {"type": "event_seat", "v": PROTOCOL, "event": ev.id, "round": rnd.number,
                "table": ht.id, "seat": seat, "names": [s.name for s in ht.seats],
                "title": ht.title}

    def back(self, player: Player) -> None:
        """After a hello (``roster.PlayerEvents.back``, before the lobby's pictures of his
        tables): each table of an event's round he sits at and that is not over, told again
        as ``event_seat``. A round seated while he was away (his connection lost, or the host
        taken over and his session not yet moved) was told to nobody: his client would get
        the table's views and not know it is the event's, and the table would wait for him."""
        for ev in self.events.values():
            rnd = ev.current
            if ev.status != PLAYING or rnd is None:
                continue
            for t in rnd.tables:
                ht = self.tables.all.get(t.table) if t.table else None
                if ht is None or ht.ended_at is not None:
                    continue
                seat = ht.seat_of(player)
                if seat is not None:
                    self.outbox.send(player, self.seat_message(ev, rnd, ht, seat))

    def over(self, ht: HostTable, result: Result) -> None:
        """A round is over at ``ht`` (``TableEvents.over``): an event's table gives its
        places; the next round is seated on the loop's next turn (``tick``)."""
        ev = self.events.get(ht.access.event) if ht.access.event else None
        if ev is None:
            return
        if ev.record(ht.id, list(result.places)):
            self.start_by.pop(ht.id, None)
            self.changed(ev)

    def next_due(self) -> float | None:
        """When the loop must look: now for a round to seat, else a round's deadline or a
        seated table's start time."""
        due: float | None = None
        now, wall = self.clock.now(), self.clock.wall()
        for ev in self.events.values():
            if ev.status != PLAYING:
                continue
            rnd = ev.current
            if ev.due() or (rnd is not None and rnd.complete):
                return now
            if rnd is not None and rnd.deadline is not None:
                at = now + max(0.0, rnd.deadline - wall)
                due = at if due is None else min(due, at)
        for at in self.start_by.values():
            due = at if due is None else min(due, at)
        return due

    def tick(self, now: float) -> None:
        """Start the seated tables whose start time passed, stop the tables of a round past
        its deadline, seat the rounds that are due, end the events that are over."""
        for tid, at in list(self.start_by.items()):
            if at > now:
                continue
            del self.start_by[tid]
            ht = self.tables.all.get(tid)
            if ht is not None and ht.status == "open" and all(s.kind != "empty"
                                                                for s in ht.seats):
                for s in ht.seats:
                    s.ready = True
                self.play.start(ht)
        wall = self.clock.wall()
        for ev in list(self.events.values()):
            if ev.status != PLAYING:
                continue
            rnd = ev.current
            if rnd is not None and not rnd.complete and rnd.deadline is not None and (
                    rnd.deadline <= wall):
                self.stop_round(ev, rnd)
            if ev.due() or (rnd is not None and rnd.complete):
                self.next_round(ev)

    def stop_round(self, ev: Event, rnd: EventRound) -> None:
        """TO-16: the round's deadline passed: its tables still playing are stopped (status
        ``cancelled``) and score as if all tied."""
        for t in rnd.tables:
            if t.state != scoring.PLAYING:
                continue
            ev.stop(t.table)
            ht = self.tables.all.get(t.table)
            self.start_by.pop(t.table, None)
            if ht is not None and ht.status in ("open", "playing"):
                self.play.halt(ht, "cancelled")
        log.info("event %s: round %d stopped at its deadline", ev.id, rnd.number)
        self.changed(ev)

    # --- telling -----------------------------------------------------------------------------

    def save(self, ev: Event) -> None:
        self.persistence.save_event(ev.id, ev.seq, ev.to_store())

    def changed(self, ev: Event) -> None:
        """Keep ``ev`` and tell its entrants, its organiser and its followers."""
        self.save(ev)
        told: EventPush = {"type": "event", "v": PROTOCOL, "event": self.wire(ev)}
        self.outbox.send_all(self.audience(ev), told)

    def audience(self, ev: Event) -> Iterable[Player]:
        by_token, by_id = self.players.by_token, self.players.by_id
        seen: set[str] = set()
        for token in [ev.organiser, *(e.token for e in ev.entrants)]:
            p = by_token.get(token)
            if p is not None and p.id not in seen:
                seen.add(p.id)
                yield p
        followers = self.followers.get(ev.id, set())
        for pid in list(followers):
            p = by_id.get(pid)
            if p is None:
                followers.discard(pid)
            elif pid not in seen:
                seen.add(pid)
                yield p

    def answer(self, ev: Event) -> EventReply:
        """The reply to ``event``, ``event_create`` and ``event_join``: the event whole."""
        return {"type": "event", "v": PROTOCOL, "event": self.wire(ev)}

    def brief(self, ev: Event) -> EventBrief:
        """What the ``events`` list says of an event."""
        s = ev.settings
        info = self.catalog.games.get(s.game)
        return {"id": ev.id, "title": s.title, "game": s.game,
                "game_name": info.name if info is not None else s.game, "seats": s.seats,
                "format": s.format, "duplicate": s.duplicate, "status": ev.status,
                "round": ev.round, "rounds": ev.total_rounds,
                "entrants": sum(1 for e in ev.entrants if e.status == "in"),
                "organiser": ev.organiser_name}

    def wire(self, ev: Event) -> EventWire:
        """The event as the ``event`` message carries it (docs/protocol.md)."""
        s = ev.settings
        names = ev.names()
        by_token = {e.token: e for e in ev.entrants}
        rnd = ev.current
        left = None
        if ev.status == PLAYING and rnd is not None and rnd.deadline is not None:
            left = round(max(0.0, rnd.deadline - self.clock.wall()), 1)
        standings: list[StandingLine] = []
        for line in ev.standings():
            e = by_token[line.entrant]
            standings.append({
                "rank": line.rank, "name": e.name, "points": round(line.points, 4),
                "buchholz": round(line.buchholz, 4), "firsts": line.firsts,
                "played": line.played, "byes": line.byes, "status": e.status,
                "rating": self.ratings.shown(s.game, e.name),
                "rounds": [None if p is None else round(p, 4) for p in line.rounds]})
        results: list[RoundResults] = []
        for r, scored in zip(ev.rounds, ev.results(), strict=True):
            pts = scoring.round_points(scored, s.seats)
            results.append({
                "round": r.number, "repeats": r.repeats,
                "byes": [names.get(p, "?") for p in r.byes],
                "tables": [{"table": t.table, "state": t.state, "seats": [
                    {"seat": i, "name": names.get(p, "?") if p is not None else None,
                     "place": None if t.places is None else t.places[i],
                     "points": None if p is None or p not in pts else round(pts[p], 4)}
                    for i, p in enumerate(t.seats)]} for t in r.tables]})
        info = self.catalog.games.get(s.game)
        return {**self.brief(ev), "game_name": info.name if info is not None else s.game,
                "variants": list(s.variants), "settings": dict(s.settings),
                "fill": s.fill, "late": s.late, "minutes": s.minutes,
                "start_within": s.start_within, "deadline": left,
                "standings": standings, "results": results}
