"""What the host tells: table summaries, per-seat views with their events in words, and the
parts of a view message every recipient shares.

Owns: who receives a table's news (its seated humans and its spectators), the ``table``
summary (with the match's ``rounds`` and ``totals``), the ``view`` message of one recipient
(Clone: ``version`` and ``prev``; a snapshot repeats the recent events), the narration of
events (each event told in words once per way of seeing it, not once per seat), and the
``invited`` push. What all recipients share (timers, seats' presence, the spectators' view)
is built once per table version and the view frames are encoded from pre-encoded parts.

A view that cannot be built (the game's plugin raised) raises ``ViewFailed`` to the caller,
who stops the table (``Play``): the views never change a table's state themselves.

Must not know about: sockets (it sends through an ``Outbox``), how a request is checked, the
store, how timers are computed (``Timers.shown`` says what they show), what a failing game
means for its table.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypedDict, cast

from cardparty.core.contract import WireEvent
from cardparty.core.i18n import Msg
from cardparty.core.narrate import describe
from cardparty.core.table import redact_event
from cardparty.net.host.clock import Clock
from cardparty.net.host.config import HostConfig
from cardparty.net.host.model import HostTable, Player, Players, asked_wire
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.timers import Timers
from cardparty.net.wire.protocol import PROTOCOL, array_of, map_frame, pack, pairs_of
from cardparty.net.wire.replies import InvitedPush, Presence, TablePush, TableSummary

log = logging.getLogger("cardparty.host")

#: Events a snapshot repeats, so a client that comes back can tell what happened.
SNAPSHOT_EVENTS = 20
#: Narrated events a table keeps in words before it starts again.
MAX_TEXTS = 512


class Shared(TypedDict):
    """The parts of a view message every recipient of one version shares (``Views.shared``):
    the host's timers (``Timers.shown``) and each seat's presence."""

    timers: list[dict[str, object]]
    players: list[Presence]


class ViewFailed(Exception):
    """The game's plugin raised while a playing table's view was built (``cause``)."""

    def __init__(self, ht: HostTable, cause: BaseException) -> None:
        super().__init__(f"table {ht.id}: {type(cause).__name__}: {cause}")
        self.ht = ht
        self.cause = cause


class Views:
    """Builds and sends what a table shows; ``players`` finds a spectator by id."""

    def __init__(self, config: HostConfig, outbox: Outbox, clock: Clock, timers: Timers,
                 players: Players,
                 rating: Callable[[str, str], float | None] = lambda game, name: None
                 ) -> None:
        self.outbox = outbox
        #: what a player is shown as his rating at a game (``ratings.Ratings.shown``)
        self.rating = rating
        self.clock = clock
        self.timers = timers
        self.by_id = players.by_id
        #: every summary says whether clients may choose deals here (``--testing``)
        self.testing = config.testing

    # --- who ---------------------------------------------------------------------------------

    def recipients(self, ht: HostTable) -> list[Player]:
        """Who hears of ``ht``: its seated humans, then its spectators."""
        out = ht.humans()
        for pid in ht.spectators:
            p = self.by_id.get(pid)
            if p is not None:
                out.append(p)
        return out

    def forget(self, ht: HostTable, player: Player) -> None:
        """``player`` no longer sees ``ht`` (he left, or was removed): his next view of it,
        if any, is a snapshot."""
        ht.shown.streams.pop(player.id, None)

    def went_back(self, ht: HostTable, kept: int) -> None:
        """``ht``'s game went back (a move taken back, ``undo``) to a table whose first
        ``kept`` events are those everybody was told already: each recipient's next view
        brings the events from there (the ``undo`` event), and the words told of the events
        after them are forgotten."""
        ht.shown.texts.clear()
        for stream in ht.shown.streams.values():
            stream[1] = min(stream[1], kept)

    def restart(self, ht: HostTable) -> None:
        """A new round at ``ht``: everybody gets it as a snapshot, its events told afresh."""
        ht.shown.streams.clear()
        ht.shown.texts.clear()

    # --- the summary -------------------------------------------------------------------------

    def summary(self, ht: HostTable) -> TableSummary:
        engine = ht.engine
        result = None
        if ht.status in ("over", "playing"):
            with contextlib.suppress(Exception):
                r = engine.result()
                result = None if r is None else r.to_wire()
        timing, access, match, stakes = ht.timing, ht.access, ht.match, ht.stakes
        rating = self.rating
        return {
            "id": ht.id, "title": ht.title, "game": engine.game, "game_name": engine.info.name,
            "mode": access.mode, "creator": access.creator_name or None,
            "invited": list(access.invited),
            # Whether a stranger may sit: never at a friends or a practice table, whatever
            # the owner's ``strangers`` said (it is kept, and counts if the mode allows).
            "strangers": access.strangers and access.mode in ("open", "entry"),
            "hints": access.gives_hints,
            # Whether a seated player may ask to take back his last move, and the request
            # waiting for the seated humans' answers (``undo``).
            "undo": access.takes_back, "undo_asked": asked_wire(ht),
            "stake": stakes.stake, "seeking": stakes.seeking, "bots_filled": stakes.bots_filled,
            "fill_in": self.fill_in(ht),
            "players": engine.players, "settings": engine.settings,
            "variants": list(engine.variant_ids), "plugins": engine.plugin_versions(),
            "status": ht.status, "idle": timing.idle,
            "bot_delay": timing.bot_delay, "bot_budget_ms": timing.bot_budget_ms,
            "standin_level": timing.standin_level,
            "version": engine.version, "spectators": len(ht.spectators),
            "failure": ht.failure or None, "result": result, "testing": self.testing,
            "round": match.round, "rounds": match.rounds,
            # Whether an ``again`` deals another round once over (an entry table plays one).
            "again": access.mode != "entry" and not access.event,
            # The event whose round this table plays (docs/rules/tournament.md), or null.
            "event": access.event or None,
            "totals": {"wins": match.wins, "scores": match.scores} if match.rounds else None,
            "seats": [{"seat": i, "kind": s.kind, "name": s.name,
                       "player": None if s.player is None else s.player.id,
                       "ready": s.ready, "standin": s.standin,
                       "level": s.level if s.kind == "bot" else None,
                       "connected": s.connected,
                       "rating": rating(engine.game, s.name) if s.kind == "human" else None}
                      for i, s in enumerate(ht.seats)],
        }

    def fill_in(self, ht: HostTable) -> float | None:
        """Seconds left of an open table's fill timeout (None: it has none)."""
        fill_at = ht.stakes.fill_at
        if fill_at is None or ht.status != "open":
            return None
        return max(0.0, fill_at - self.clock.now())

    def summary_message(self, ht: HostTable) -> TablePush:
        return {"type": "table", "v": PROTOCOL, "table": self.summary(ht)}

    def push_summary(self, ht: HostTable) -> None:
        self.outbox.send_all(self.recipients(ht), self.summary_message(ht))

    def invitation(self, ht: HostTable, sender: str) -> InvitedPush:
        """The ``invited`` push: which table, its game and title, and who invites."""
        return {"type": "invited", "v": PROTOCOL, "table": ht.id, "game": ht.engine.game,
                "title": ht.title, "from": sender}

    # --- views -------------------------------------------------------------------------------

    def shared(self, ht: HostTable) -> Shared:
        """The parts of a view message that are the same for every recipient."""
        try:
            timers = self.timers.shown(ht, self.clock.now())
        except Exception:
            timers = []
        return {"timers": timers,
                "players": [{"connected": s.connected, "standin": s.standin}
                            for s in ht.seats]}

    def shared_parts(self, ht: HostTable) -> bytes:
        """What every recipient's view frame of this version shares, packed once: the
        message's type, protocol, table and version, the timers and the seats' presence."""
        return pairs_of({"type": "view", "v": PROTOCOL, "table": ht.id,
                         "version": ht.engine.version, **self.shared(ht)})

    def push_views(self, ht: HostTable, snapshot: bool = False) -> None:
        """Every recipient's view of the table as it is now (after a change); ViewFailed
        when the game fails to show a playing table (the rest are not sent)."""
        shared = self.shared_parts(ht)
        spectator_view: dict[bool, bytes] = {}  # view(None), built once for all spectators
        by_id = self.by_id
        seated: list[tuple[Player, int | None]] = [
            (p, i) for i, s in enumerate(ht.seats) if (p := s.human) is not None]
        watching: list[tuple[Player, int | None]] = [
            (p, None) for pid in ht.spectators if (p := by_id.get(pid)) is not None]
        told: dict[Any, Any] = {}               # the events' arrays, shared where they can be
        for player, seat in seated + watching:
            self.push_view(ht, player, seat, snapshot=snapshot, shared=shared,
                           spectator_view=spectator_view, told=told)

    def push_view(self, ht: HostTable, player: Player, seat: int | None,
                  snapshot: bool = False, rid: Any = None,
                  shared: bytes | None = None,
                  spectator_view: dict[bool, bytes] | None = None,
                  told: dict[Any, Any] | None = None) -> bool:
        """Send ``player`` the view of ``seat`` with the events since his last view (Clone:
        ``version`` and ``prev``; a snapshot repeats the recent events instead).

        The frame is put together from packed parts (``protocol.map_frame``): the parts all
        recipients share (``shared``, of ``shared_parts``), each event as packed once per way
        of seeing it (``told``), the view of ``seat`` (packed once for all spectators); it
        decodes to exactly the map ``encode`` would have packed. ``told`` (one per
        ``push_views``) keeps each array of events for the other recipients who see the same
        events the same way (``told_array``). A client that reads the host's ``timers``
        (``features``) gets the view without the game's ``deadlines``: one path for each
        fact.

        False when the game failed to show a table not in play (nothing is sent to him);
        ViewFailed when it failed to show a playing one."""
        if player.route is None:
            return True
        engine = ht.engine
        count = len(engine.events)
        streams = ht.shown.streams
        stream = streams.get(player.id)
        if stream is None or stream[1] > count:
            stream = [None, count]      # a restored table (or a new round) starts a new journal
            streams[player.id] = stream
            snapshot = True
        lean = "timers" in player.features
        try:
            if seat is None and spectator_view is not None:
                view = spectator_view.get(lean)
                if view is None:
                    view = spectator_view[lean] = self.packed_view(ht, None, lean)
            else:
                view = self.packed_view(ht, seat, lean)
            start = max(0, count - SNAPSHOT_EVENTS) if snapshot else stream[1]
            if start >= count:
                events = _NO_EVENTS
            elif told is None:
                events = array_of(self.told(ht, seat, start))
            else:
                events = self.told_array(ht, seat, start, told)
        except Exception as exc:
            if ht.status == "playing":
                raise ViewFailed(ht, exc) from exc
            return False
        # The recipient's own entries, in the order of {"seat", "prev", "snapshot", "rid"}.
        mine = [_SEAT, _small.get(seat) or pack(seat), _PREV, pack(stream[0]),
                _SNAPSHOT, _TRUE if snapshot else _FALSE]
        if rid is not None:
            mine += (_RID, pack(rid))
        frame = map_frame(8 + len(mine) // 2, shared or self.shared_parts(ht), *mine,
                          _VIEW, view, _EVENTS, events)
        if self.outbox.send_frame(player, frame):
            stream[0] = engine.version
            stream[1] = count
        return True

    @staticmethod
    def packed_view(ht: HostTable, seat: int | None, lean: bool) -> bytes:
        """The game's view of ``seat`` packed (``lean``: without its ``deadlines``)."""
        view = ht.engine.view(seat)
        if lean:
            del view["deadlines"]
        return pack(view)

    def told_array(self, ht: HostTable, seat: int | None, start: int,
                   memo: dict[Any, Any]) -> bytes:
        """The packed array of ``told`` from ``start``, kept in ``memo`` for every other
        recipient who sees those events alike: all but the owners of their private events
        (each owner sees his own cards; everybody else sees the same counts)."""
        owners = memo.get(start)
        if owners is None:
            events = ht.engine.events
            owners = memo[start] = frozenset(
                e.get("seat") for e in events[start:] if e.get("private"))
        key = (start, seat if seat in owners else _OTHERS)
        packed: bytes | None = memo.get(key)
        if packed is None:
            packed = memo[key] = array_of(self.told(ht, seat, start))
        return packed

    def told(self, ht: HostTable, seat: int | None, start: int) -> list[bytes]:
        """The events from ``start`` as ``seat`` sees them, each with its words, packed. Each
        event is redacted, told and packed once per way of seeing it (whole, or another
        seat's private event shown as a count, never the owner's words to the others) and
        the same bytes are sent to every seat that sees it that way."""
        engine = ht.engine
        told = ht.shown.texts
        out = []
        events = engine.events
        for i in range(start, len(events)):
            e = events[i]
            hidden = bool(e.get("private")) and e.get("seat") != seat
            key = (i, hidden)
            packed = told.get(key)
            if packed is None:
                seen = (redact_event(e, seat) if hidden else e).copy()
                try:
                    text = describe(seen, engine.names, engine.hook)
                except Exception:
                    text = describe(seen, engine.names)
                if len(told) > MAX_TEXTS:
                    told.clear()
                # The game's event (with whatever keys a game adds) and its words.
                shown = cast(WireEvent, {**seen, "text": str(text)})
                if isinstance(text, Msg):     # each client says it in its own language
                    shown["msg"] = text.to_wire()
                packed = told[key] = pack(shown)
            out.append(packed)
        return out


#: The keys of a view message's view and events, packed (their values follow them).
_VIEW = pack("view")
_EVENTS = pack("events")
_NO_EVENTS = array_of([])
_SEAT, _PREV, _SNAPSHOT, _RID = pack("seat"), pack("prev"), pack("snapshot"), pack("rid")
_TRUE, _FALSE = pack(True), pack(False)
#: a seat's number packed (the common ones, and a spectator's None)
_small: dict[int | None, bytes] = {i: pack(i) for i in [None, *range(16)]}
#: ``told_array``'s key for everybody who owns none of the events
_OTHERS = object()
