"""What the host tells: table summaries, per-seat views with their events in words, and the
parts of a view message every recipient shares.

Owns: who receives a table's news (its seated humans and its spectators), the ``table``
summary (with the match's ``rounds`` and ``totals``), the ``view`` message of one recipient
(Clone: ``version`` and ``prev``; a snapshot repeats the recent events), the narration of
events (each event told in words once per way of seeing it, not once per seat), and the
``invited`` push. What all recipients share (timers, seats' presence, the spectators' view)
is built once per table version and the view frames are encoded from pre-encoded parts.

Must not know about: sockets (it sends through an ``Outbox``), how a request is checked, the
store, how timers are computed (``Timers.shown`` says what they show).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from cardparty.core.bots import canonical_level
from cardparty.core.i18n import Msg
from cardparty.core.narrate import describe
from cardparty.core.table import redact_event
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.timers import Timers
from cardparty.net.protocol import PROTOCOL, array_of, map_frame, message, pack, pairs_of

log = logging.getLogger("cardparty.host")

#: Events a snapshot repeats, so a client that comes back can tell what happened.
SNAPSHOT_EVENTS = 20
#: Narrated events a table keeps in words before it starts again.
MAX_TEXTS = 512


class Views:
    """Builds and sends what a table shows. ``players_by_id`` finds a spectator by id;
    ``fail(ht, exc)`` is called when the game's plugin raises while a view is built."""

    def __init__(self, outbox: Outbox, clock: Clock, timers: Timers,
                 players_by_id: Mapping[str, Player],
                 fail: Callable[[HostTable, BaseException], None]) -> None:
        self.outbox = outbox
        self.clock = clock
        self.timers = timers
        self.by_id = players_by_id
        self.fail = fail
        #: every summary says whether clients may choose deals here (``--testing``)
        self.testing = False

    # --- who ---------------------------------------------------------------------------------

    @staticmethod
    def seated(ht: HostTable) -> list[Player]:
        """The humans seated at ``ht`` (at most its seats)."""
        return [s.player for s in ht.seats if s.kind == "human" and s.player is not None]

    def recipients(self, ht: HostTable) -> list[Player]:
        out = [s.player for s in ht.seats if s.kind == "human" and s.player is not None]
        for pid in ht.spectators:
            p = self.by_id.get(pid)
            if p is not None:
                out.append(p)
        return out

    # --- the summary -------------------------------------------------------------------------

    def summary(self, ht: HostTable) -> dict[str, Any]:
        table = ht.table
        result = None
        if ht.status in ("over", "playing"):
            with contextlib.suppress(Exception):
                r = table.result()
                result = None if r is None else r.to_wire()
        return {
            "id": ht.id, "title": ht.title, "game": table.game, "game_name": table.info.name,
            "mode": ht.mode, "creator": ht.creator_name or None, "invited": list(ht.invited),
            "strangers": ht.strangers,
            "stake": ht.stake, "seeking": ht.seeking, "bots_filled": ht.bots_filled,
            "fill_in": None if ht.fill_at is None or ht.status != "open"
            else max(0.0, ht.fill_at - self.clock.now()),
            "players": table.players, "settings": table.settings,
            "variants": list(table.variant_ids), "status": ht.status, "idle": ht.idle,
            "bot_delay": ht.bot_delay, "bot_budget_ms": ht.bot_budget_ms,
            "standin_level": ht.standin_level,
            "version": table.version, "spectators": len(ht.spectators),
            "failure": ht.failure or None, "result": result, "testing": self.testing,
            "round": ht.round, "rounds": ht.rounds,
            "totals": {"wins": ht.wins, "scores": ht.scores} if ht.rounds else None,
            "seats": [{"seat": i, "kind": s.kind, "name": s.name,
                       "player": None if s.player is None else s.player.id,
                       "ready": s.ready, "standin": s.standin,
                       "level": canonical_level(s.level) if s.kind == "bot" else None,
                       "connected": s.kind == "bot" or (s.player is not None
                                                        and s.player.connected)}
                      for i, s in enumerate(ht.seats)],
        }

    def summary_message(self, ht: HostTable) -> dict[str, Any]:
        return message("table", table=self.summary(ht))

    def push_summary(self, ht: HostTable) -> None:
        self.outbox.send_all(self.recipients(ht), self.summary_message(ht))

    def invitation(self, ht: HostTable, sender: str) -> dict[str, Any]:
        """The ``invited`` push: which table, its game and title, and who invites."""
        return message("invited", table=ht.id, game=ht.table.game, title=ht.title,
                       **{"from": sender})

    # --- views -------------------------------------------------------------------------------

    def shared(self, ht: HostTable) -> dict[str, Any]:
        """The parts of a view message that are the same for every recipient."""
        try:
            timers = self.timers.shown(ht, self.clock.now())
        except Exception:
            timers = []
        return {"timers": timers,
                "players": [{"connected": s.kind == "bot" or (
                    s.player is not None and s.player.connected), "standin": s.standin}
                    for s in ht.seats]}

    def shared_parts(self, ht: HostTable) -> bytes:
        """What every recipient's view frame of this version shares, packed once: the
        message's type, protocol, table and version, the timers and the seats' presence."""
        return pairs_of({"type": "view", "v": PROTOCOL, "table": ht.id,
                         "version": ht.table.version, **self.shared(ht)})

    def push_views(self, ht: HostTable, snapshot: bool = False) -> None:
        """Every recipient's view of the table as it is now (after a change)."""
        shared = self.shared_parts(ht)
        spectator_view: list[Any] = []          # view(None), built once for all spectators
        by_id = self.by_id
        seated = [(s.player, i) for i, s in enumerate(ht.seats)
                  if s.kind == "human" and s.player is not None]
        watching = [(p, None) for pid in ht.spectators if (p := by_id.get(pid)) is not None]
        told: dict[Any, Any] = {}               # the events' arrays, shared where they can be
        for player, seat in seated + watching:
            if not self.push_view(ht, player, seat, snapshot=snapshot, shared=shared,
                                  spectator_view=spectator_view, told=told) and (
                                      ht.status == "broken"):
                return

    def push_view(self, ht: HostTable, player: Player, seat: int | None,
                  snapshot: bool = False, rid: Any = None,
                  shared: bytes | None = None,
                  spectator_view: list[Any] | None = None,
                  told: dict[Any, Any] | None = None) -> bool:
        """Send ``player`` the view of ``seat`` with the events since his last view (Clone:
        ``version`` and ``prev``; a snapshot repeats the recent events instead).

        The frame is put together from packed parts (``protocol.map_frame``): the parts all
        recipients share (``shared``, of ``shared_parts``), each event as packed once per way
        of seeing it (``told``), the view of ``seat`` (packed once for all spectators); it
        decodes to exactly the map ``encode`` would have packed. ``told`` (one per
        ``push_views``) keeps each array of events for the other recipients who see the same
        events the same way (``told_array``)."""
        if player.route is None:
            return True
        table = ht.table
        count = len(table.events)
        stream = ht.streams.get(player.id)
        if stream is None or stream[1] > count:
            stream = [None, count]      # a restored table (or a new round) starts a new journal
            ht.streams[player.id] = stream
            snapshot = True
        try:
            if seat is None and spectator_view is not None:
                if not spectator_view:
                    spectator_view.append(pack(table.view(None)))
                view = spectator_view[0]
            else:
                view = pack(table.view(seat))
            start = max(0, count - SNAPSHOT_EVENTS) if snapshot else stream[1]
            if start >= count:
                events = _NO_EVENTS
            elif told is None:
                events = array_of(self.told(ht, seat, start))
            else:
                events = self.told_array(ht, seat, start, told)
        except Exception as exc:
            if ht.status == "playing":
                self.fail(ht, exc)
            return False
        # The recipient's own entries, in the order of {"seat", "prev", "snapshot", "rid"}.
        mine = [_SEAT, _small.get(seat) or pack(seat), _PREV, pack(stream[0]),
                _SNAPSHOT, _TRUE if snapshot else _FALSE]
        if rid is not None:
            mine += (_RID, pack(rid))
        frame = map_frame(8 + len(mine) // 2, shared or self.shared_parts(ht), *mine,
                          _VIEW, view, _EVENTS, events)
        if self.outbox.send_frame(player, frame):
            stream[0] = table.version
            stream[1] = count
        return True

    def told_array(self, ht: HostTable, seat: int | None, start: int,
                   memo: dict[Any, Any]) -> bytes:
        """The packed array of ``told`` from ``start``, kept in ``memo`` for every other
        recipient who sees those events alike: all but the owners of their private events
        (each owner sees his own cards; everybody else sees the same counts)."""
        owners = memo.get(start)
        if owners is None:
            events = ht.table.events
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
        table = ht.table
        told = ht.texts
        out = []
        events = table.events
        for i in range(start, len(events)):
            e = events[i]
            hidden = bool(e.get("private")) and e.get("seat") != seat
            key = (i, hidden)
            packed = told.get(key)
            if packed is None:
                seen = redact_event(e, seat) if hidden else e
                try:
                    text = describe(seen, table.names, table.hook)
                except Exception:
                    text = describe(seen, table.names)
                if len(told) > MAX_TEXTS:
                    told.clear()
                shown = {**seen, "text": str(text)}
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
#: a seat's number packed (the common ones)
_small = {i: pack(i) for i in range(16)}
#: ``told_array``'s key for everybody who owns none of the events
_OTHERS = object()
