"""Another round at the same table: a match of rounds, asked for with ``again``.

Owns: recording each finished round in the table's match (``rounds``: places, scores and the
next dealer of each; totals: first places and, when the game keeps a score, the summed
scores), the ``again`` request (a seated human's ``again`` is his readiness for the next
round; bots are always ready; when every human seat is ready the next round starts), and
dealing the next round on the SAME table id: same seats and bots, the dealer named by the
finished game's ``Result.next_dealer`` (PK "loser deals next", KH-4) when the game has a
``dealer`` setting, a seed drawn from the first round's (a match replays from its seed), the
version going on from the last round's so that every client's Clone stream stays ordered.

Must not know about: sockets, how moves are played (``Play.start`` starts the round), the
store's format.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from cardparty.core.contract import Result
from cardparty.core.discovery import Catalog
from cardparty.core.i18n import Msg
from cardparty.core.table import Table
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import MAX_ROUNDS, HostTable, Player, Tables
from cardparty.net.host.play import Play
from cardparty.net.host.views import Views
from cardparty.net.protocol import ProtocolError, message

log = logging.getLogger("cardparty.host")


def next_seed(seed: int, round_: int) -> int:
    """The seed of round ``round_`` of a match that began with ``seed``."""
    return random.Random(f"{seed}/{round_}").getrandbits(63)


class Match:
    def __init__(self, tables: Tables, clock: Clock, views: Views, play: Play,
                 catalog: Catalog) -> None:
        self.tables = tables
        self.catalog = catalog
        self.clock = clock
        self.views = views
        self.play = play

    def record(self, ht: HostTable, result: Result) -> None:
        """A round is over: add it to the match; the humans are asked again."""
        n = len(ht.seats)
        if len(ht.wins) != n:
            ht.wins = [0] * n
        for s, place in enumerate(result.places[:n]):
            if place == 1:
                ht.wins[s] += 1
        if result.scores is not None:
            base = ht.scores if ht.scores is not None and len(ht.scores) == n else [0] * n
            ht.scores = [a + int(b) for a, b in zip(base, result.scores, strict=False)]
        ht.rounds.append({"round": ht.round, "places": list(result.places),
                          "scores": None if result.scores is None else list(result.scores),
                          "next_dealer": result.next_dealer})
        del ht.rounds[:-MAX_ROUNDS]
        for s in ht.seats:
            s.ready = s.kind == "bot"

    def on_again(self, player: Player, req: dict[str, Any]) -> dict[str, Any]:
        ht = self.tables.find(req["table"])
        seat = ht.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", Msg("only a seated player may ask for another round"))
        if ht.status == "broken":
            raise ProtocolError("not_playing", Msg("the table broke: {error}",
                                                   error=ht.failure))
        if ht.status != "over":
            raise ProtocolError("not_over", Msg("the round at this table is {status}, not over",
                                                status=Msg(ht.status)))
        if ht.mode == "entry":
            raise ProtocolError("not_over", Msg("an entry table plays one round for its pot: "
                                            "seek another table"))
        ht.seats[seat].ready = True
        waiting = [s.name for s in ht.seats
                   if s.kind == "human" and s.player is not None and not s.ready]
        if waiting:
            self.play.persist(ht)
            self.views.push_summary(ht)
        else:
            self.next_round(ht)
        return message("ok", about="again", round=ht.round,
                       waiting=waiting)

    def next_round(self, ht: HostTable) -> None:
        """Deal the next round at ``ht``: seats whose player left get a bot."""
        old = ht.table
        settings = dict(old.settings)
        if "deck" in settings:
            settings["deck"] = None             # a stacked deck is for one deal
        last = ht.rounds[-1] if ht.rounds else {}
        dealer = last.get("next_dealer")
        if dealer is not None and "dealer" in old.info.settings:
            settings["dealer"] = dealer
        ht.round += 1
        try:
            table = Table(old.game, old.players, settings, old.variant_ids,
                          seed=next_seed(old.seed, ht.round), names=list(old.names),
                          catalog=self.catalog)
        except Exception as exc:         # a plugin failing to deal stops this table only
            self.play.fail(ht, exc)
            return
        table.version = old.version + 1
        for s in ht.seats:
            if s.kind == "human" and s.player is None:
                s.kind, s.name, s.level = "bot", f"{s.name} (bot)", "basic"
            s.ready = True
            s.standin = False
        ht.table = table
        ht.streams.clear()                      # everybody gets the new round as a snapshot
        ht.texts.clear()
        ht.referee = None                       # the new game gets its own
        log.info("table %s: round %d", ht.id, ht.round)
        self.play.start(ht)
