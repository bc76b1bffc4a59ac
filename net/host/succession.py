"""Who serves after this host, as its players are told, and the tables that wait meanwhile
(docs/protocol.md, "A standby peer and takeovers" and "No split brain, no lost move").

Owns: the host's word to its players about its succession (``Word``: its epoch, the standby
it has, a number that grows with each change), told in every ``welcome`` and pushed to every
player when a standby is attached or dropped (``standby``); their answers (``standby_ok``:
this player knows the latest word); and the tables **held** while a player of theirs may be
served by another host:

- after a drop (the standby went silent: it may have taken over, with players beyond a cut
  link), a table waits while a human seated there who was heard in the ``RECENT`` seconds
  before the drop has not answered it (he may be at the standby: he never will be once he
  has answered);
- after a takeover the standby was not handed nor sure of (a player followed, the old host
  may still live), a table waits until a human seated there came following the old host.

A held table is out of the host's registries (``model.Tables.hold``): nothing plays, fills,
drops or lists it, and a request about it is answered ``held``. Released, it is scheduled
again and everybody at it gets its summary and a fresh snapshot, so what the drop withdrew
from them is told again as the table is now.

Must not know about: sockets, the standby's link (it is told ``attached``/``dropped``),
the store, how a table plays.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from cardparty.net.host.clock import Clock
from cardparty.net.host.model import HostTable, Player, Players, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.play import Play
from cardparty.net.host.views import Views
from cardparty.net.wire.protocol import (
    PROTOCOL,
    PeerAddress,
    StandbyPush,
    StandbyStatus,
    SuccessionWord,
)
from cardparty.net.wire.requests import StandbyOkRequest

log = logging.getLogger("cardparty.host")

#: Seconds before a drop a seated human was last heard and still counts as one who may have
#: followed the standby: a client follows for at most 30 s after it lost its host
#: (docs/protocol.md), and it lost it at most a liveness interval and the standby's bound
#: after it was last heard; the rest is margin.
RECENT = 40.0
#: Seconds after this host's own loop was frozen past the standby's bound (a laptop that hung)
#: during which a table a drop held is not served again, even once its players answered: the
#: standby may have taken over meanwhile with other players following it, and the host it
#: became calls this one every second (``peers.heal.EVERY``) to make it stand down. A player
#: who answers here in that time (his client tries his host first) must not be told moves the
#: heal will not keep.
SETTLE = 2.5


@dataclass
class Word:
    """What the host tells its players of its succession."""

    epoch: int = 1
    #: the standby attached (``{address, port, key}``), or None
    standby: PeerAddress | None = None
    gen: int = 0
    #: how the standby is doing, for ``pong`` (None: this host takes no standby)
    status: Callable[[], StandbyStatus] | None = None

    def welcome(self) -> SuccessionWord:
        """The fields a ``welcome`` carries."""
        return {"epoch": self.epoch, "standby": self.standby, "standby_gen": self.gen}


class Succession:
    """See the module docstring."""

    def __init__(self, word: Word, tables: Tables, players: Players, outbox: Outbox,
                 clock: Clock, views: Views, play: Play) -> None:
        self.word = word
        self.tables = tables
        self.players = players
        self.outbox = outbox
        self.clock = clock
        self.views = views
        self.play = play
        #: the word each player has answered (his handle -> ``gen``)
        self.answered: dict[str, int] = {}
        #: why tables are held: "" (none are), "dropped", "took over"
        self.mode = ""
        #: the word's number at the drop: a player who answered it will not follow
        self.drop_gen = 0
        #: per held table, the handles it waits for (after a drop) or any of which releases
        #: it (after a takeover)
        self.waiting: dict[str, set[str]] = {}
        #: until when answered tables stay held after a freeze of this host (``froze``)
        self.settle_until = 0.0
        #: held tables every player answered, released at ``settle_until``
        self.deferred: set[str] = set()

    # --- the word ----------------------------------------------------------------------------

    def attached(self, standby: PeerAddress) -> None:
        """A standby is attached: the players are told. (Another peer attached says nothing
        of the one dropped: tables a drop held stay held until their players answer.)"""
        self.word.standby = standby
        self._tell(None)

    def returned(self) -> None:
        """The standby dropped said hello again as a peer of this epoch: it never took over,
        and whatever its drop held is released."""
        if self.mode == "dropped":
            self.release_all("the standby that was dropped is back")

    def dropped(self, why: str) -> None:
        """The standby was dropped (module docstring): the word says so, and every table with
        a human who may have followed it waits for his answer."""
        self.word.standby = None
        self._tell(why)
        self.mode = "dropped"
        self.drop_gen = self.word.gen
        since = self.clock.now() - RECENT
        for ht in list(self.tables.all.values()):
            who = {p.token for p in ht.humans()
                   if (p.connected or p.last_seen >= since)
                   and self.answered.get(p.token, -1) < self.drop_gen}
            if who:
                self._hold(ht, who)
        log.warning("the standby was dropped (%s): %d tables wait for a player to answer",
                    why, len(self.waiting))

    def froze(self, gap: float) -> None:
        """This host's loop did not turn for ``gap`` seconds, past its standby's bound: what a
        drop holds now is served again only after ``SETTLE`` seconds (module docstring)."""
        if self.word.standby is None and self.mode != "dropped":
            return                              # no standby that may have taken over
        self.settle_until = self.clock.now() + SETTLE
        log.warning("this host's loop was frozen for %.1f s: tables a drop of its standby "
                    "holds wait %.1f s before they are served again", gap, SETTLE)

    def tick(self, now: float) -> None:
        """Tables every player answered after a freeze, served again once it settled."""
        if self.deferred and now >= self.settle_until:
            for tid in sorted(self.deferred):
                if tid in self.waiting and not self.waiting[tid]:
                    self._release(self.tables.held[tid])
            self.deferred.clear()

    def took_over(self, sure: bool) -> None:
        """This host has just taken over as its old host's standby. ``sure``: handed over,
        or nothing listens where the old host was; else every table with humans waits for one
        of them to come following the old host."""
        if sure:
            return
        self.mode = "took over"
        for ht in list(self.tables.all.values()):
            who = {p.token for p in ht.humans()}
            if who:
                self._hold(ht, who)
        log.warning("%d tables wait for one of their players to follow here",
                    len(self.waiting))

    def sure(self, why: str) -> None:
        """The old host is gone for good (nothing listens there, it stood down, the operator
        says so): nothing needs holding any more."""
        if self.mode == "took over":
            self.release_all(why)

    def _tell(self, why: str | None) -> None:
        word = self.word
        word.gen += 1
        push: StandbyPush = {"type": "standby", "v": PROTOCOL, "epoch": word.epoch,
                             "standby": word.standby, "gen": word.gen}
        if why is not None:
            push["why"] = why
        self.outbox.send_all(self.connected(), push)

    def connected(self) -> list[Player]:
        return [p for p in self.players.by_token.values()
                if p.connected and p.route is not None]

    # --- players' answers --------------------------------------------------------------------

    def on_standby_ok(self, player: Player, req: StandbyOkRequest) -> None:
        """A player knows the word numbered ``gen`` (no reply: it is an answer itself)."""
        gen = min(int(req["gen"]), self.word.gen)
        if gen > self.answered.get(player.token, -1):
            self.answered[player.token] = gen
        if self.mode == "dropped" and gen >= self.drop_gen:
            self._answered(player)

    def back(self, player: Player) -> None:
        """After a hello (``roster.PlayerEvents.back``): a player who came following the old
        host releases the tables he sits at."""
        if self.mode == "took over" and player.follows is not None:
            for tid in list(player.tables):
                if player.token in self.waiting.get(tid, ()):
                    self._release(self.tables.held[tid])

    def _answered(self, player: Player) -> None:
        for tid in list(player.tables):
            who = self.waiting.get(tid)
            if who is not None and player.token in who:
                who.discard(player.token)
                if not who:
                    if self.clock.now() < self.settle_until:
                        self.deferred.add(tid)
                    else:
                        self._release(self.tables.held[tid])

    # --- holding -----------------------------------------------------------------------------

    def _hold(self, ht: HostTable, who: set[str]) -> None:
        self.play.timers.clear(ht)
        self.tables.hold(ht)
        self.waiting[ht.id] = who

    def _release(self, ht: HostTable) -> None:
        self.waiting.pop(ht.id, None)
        self.tables.release(ht)
        if ht.status == "playing":
            self.play.schedule(ht, changed=True)
        self.views.push_summary(ht)
        if ht.status != "open":
            for player in self.views.recipients(ht):
                self.views.forget(ht, player)       # a fresh start: the snapshot's prev is null
                self.play.show(ht, player, ht.seat_of(player))
        if not self.waiting:
            self.mode = ""
            log.info("no table waits any more")

    def release_all(self, why: str) -> None:
        log.info("%s: the %d tables held are served again", why, len(self.waiting))
        for tid in list(self.waiting):
            self._release(self.tables.held[tid])
        self.deferred.clear()
        self.mode = ""

    def held(self) -> Iterable[str]:
        return self.waiting.keys()
