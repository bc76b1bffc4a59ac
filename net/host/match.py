"""Another round at the same table: a match of rounds, asked for with ``again``.

Owns: recording each finished round in the table's match (``rounds``: places, scores and the
next dealer of each; totals: first places and, when the game keeps a score, the summed
scores), the ``again`` request (a seated human's ``again`` is his readiness for the next
round; bots are always ready; when every human seat is ready the next round starts), and
dealing the next round on the SAME table id: same seats and bots, the dealer named by the
finished game's ``Result.next_dealer`` (PK "loser deals next", KH-4) when the game has a
``dealer`` setting, a seed drawn from the match's secret (never told: a round's record tells
its own seed), the
version going on from the last round's so that every client's Clone stream stays ordered.

Must not know about: sockets, how moves are played (``Play.start`` starts the round), the
store's format.
"""

from __future__ import annotations

import logging
import random

from cardparty.core.contract import Result
from cardparty.core.discovery import Catalog
from cardparty.core.i18n import N_, Msg
from cardparty.core.table import Table
from cardparty.net.host.model import MAX_ROUNDS, HostTable, Player, Tables
from cardparty.net.host.persistence import Persistence
from cardparty.net.host.play import Play
from cardparty.net.host.views import Views
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.replies import AgainReply
from cardparty.net.wire.requests import AgainRequest

log = logging.getLogger("cardparty.host")


def next_seed(secret: int, round_: int) -> int:
    """The seed of round ``round_`` of a match whose secret is ``secret``
    (``MatchRecord.secret``): drawn from what no player is told, since a finished round's
    record tells its own seed (a seed drawn from the last round's would tell the next deal)."""
    return random.Random(f"{secret}/{round_}").getrandbits(63)


def record_round(ht: HostTable, result: Result) -> None:
    """A round is over: add it to the match (``TableEvents.over``); the humans are asked
    again."""
    match = ht.match
    n = len(ht.seats)
    if len(match.wins) != n:
        match.wins = [0] * n
    for i, place in enumerate(result.places[:n]):
        if place == 1:
            match.wins[i] += 1
    if result.scores is not None:
        base = match.scores if match.scores is not None and len(match.scores) == n else [0] * n
        match.scores = [a + int(b) for a, b in zip(base, result.scores, strict=False)]
    match.rounds.append({"round": match.round, "places": list(result.places),
                         "scores": None if result.scores is None else list(result.scores),
                         "next_dealer": result.next_dealer})
    del match.rounds[:-MAX_ROUNDS]
    for s in ht.seats:
        s.ready = s.kind == "bot"


class Match:
    def __init__(self, tables: Tables, views: Views, play: Play, persistence: Persistence,
                 catalog: Catalog) -> None:
        self.tables = tables
        self.catalog = catalog
        self.views = views
        self.play = play
        self.persistence = persistence

    def on_again(self, player: Player, req: AgainRequest) -> AgainReply:
        ht = self.tables.find(req["table"])
        seat = ht.seated(player, N_("only a seated player may ask for another round"))
        if ht.status == "broken":
            raise ProtocolError("not_playing", Msg("the table broke: {error}",
                                                   error=ht.failure))
        if ht.status != "over":
            raise ProtocolError("not_over", Msg("the round at this table is {status}, not over",
                                                status=Msg(ht.status)))
        if ht.access.event:                                              # TO-18
            raise ProtocolError("event_state", Msg("an event's table plays one round: the "
                                                   "event seats the next"))
        if ht.access.mode == "entry":
            raise ProtocolError("not_over", Msg("an entry table plays one round for its pot: "
                                            "seek another table"))
        ht.seats[seat].ready = True
        waiting = [s.name for s in ht.seats if s.human is not None and not s.ready]
        if waiting:
            self.persistence.save_table(ht)
            self.views.push_summary(ht)
        else:
            self.next_round(ht)
        return {"type": "ok", "v": PROTOCOL, "about": "again", "round": ht.match.round,
                "waiting": waiting}

    def next_round(self, ht: HostTable) -> None:
        """Deal the next round at ``ht``: seats whose player left get a bot."""
        old = ht.engine
        match = ht.match
        settings = dict(old.settings)
        if "deck" in settings:
            settings["deck"] = None             # a stacked deck is for one deal
        dealer = match.rounds[-1]["next_dealer"] if match.rounds else None
        if dealer is not None and "dealer" in old.info.settings:
            settings["dealer"] = dealer
        match.round += 1
        try:
            engine = Table(old.game, old.players, settings, old.variant_ids,
                         seed=next_seed(match.secret, match.round), names=list(old.names),
                         catalog=self.catalog)
        except Exception as exc:         # a plugin failing to deal stops this table only
            self.play.fail(ht, exc)
            return
        engine.version = old.version + 1
        for s in ht.seats:
            if s.kind == "human" and s.player is None:
                s.kind, s.name, s.level = "bot", f"{s.name} (bot)", "normal"
            s.ready = True
            s.standin = False
        ht.engine = engine                      # its referee is made for it (``timers``)
        self.views.restart(ht)                  # everybody gets the new round as a snapshot
        log.info("table %s: round %d", ht.id, match.round)
        self.play.start(ht)
