"""The players' ratings at a host: one per game per player (docs/rules/tournament.md, TO-26,
TO-27).

Owns: the ratings in memory (read from the store when the host starts), rating every round that
finishes at a table with at least two humans in any mode but practice (``over``, told by
``play.TableEvents.over``; what is rated is written by ``persistence`` in the same transaction
as the table's end, so a round is rated once whatever happens to the host), what a player is
shown of them (``shown``: the table summaries' seats, the profile), and the ``ratings`` request
(a game's list, or one player's ratings at every game).

Must not know about: sockets, the protocol's codec, how a rating is computed
(``core.tourney.ratings``), events (an event's table is rated as any other).
"""

from __future__ import annotations

from cardparty.core.contract import Result
from cardparty.core.discovery import Catalog
from cardparty.core.i18n import Msg
from cardparty.core.tourney.ratings import Rating, rate
from cardparty.net.host.model import HostTable, Player
from cardparty.net.host.persistence import Persistence
from cardparty.net.wire.economy_replies import RatingLine, RatingsReply
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.requests import RatingsRequest

#: Lines one ``ratings`` reply holds at most (a page; ``offset`` asks for the next).
RATINGS_PAGE = 50


class Ratings:
    def __init__(self, persistence: Persistence, catalog: Catalog) -> None:
        self.persistence = persistence
        self.catalog = catalog
        #: game -> username -> rating
        self.by_game: dict[str, dict[str, Rating]] = {}
        #: game -> usernames best first (None: to be sorted again)
        self._order: dict[str, list[str] | None] = {}

    def load(self) -> None:
        """The ratings the store kept."""
        for game, name, mu, sigma, rounds in self.persistence.ratings():
            self.by_game.setdefault(game, {})[name] = Rating(mu, sigma, rounds)
            self._order[game] = None

    def of(self, game: str, name: str) -> Rating | None:
        return self.by_game.get(game, {}).get(name)

    def shown(self, game: str, name: str) -> float | None:
        """What ``name`` is shown for ``game`` (TO-26): None when he was never rated."""
        found = self.of(game, name)
        return None if found is None else found.shown

    def seeds(self, game: str, names: dict[str, str]) -> dict[str, float | None]:
        """TO-5: handle -> rating at ``game`` (unrated: None), for an event's seeds."""
        return {token: (None if (r := self.of(game, name)) is None else r.ordinal)
                for token, name in names.items()}

    # --- rating a round ----------------------------------------------------------------------

    def over(self, ht: HostTable, result: Result) -> None:
        """TO-26: a round is over at ``ht``: its humans are rated at its game from their
        places among themselves (practice is not rated; fewer than two humans rate
        nothing)."""
        if ht.access.mode == "practice":
            return
        seated = [(s.name, result.places[i]) for i, s in enumerate(ht.seats)
                  if s.kind == "human" and i < len(result.places)]
        if len({name for name, _ in seated}) < 2 or len(seated) != len(
                {name for name, _ in seated}):
            return
        game = ht.engine.game
        table = self.by_game.setdefault(game, {})
        before = [table.get(name, Rating()) for name, _ in seated]
        after = rate(before, [place for _, place in seated])
        for (name, _), new in zip(seated, after, strict=True):
            table[name] = new
            self.persistence.save_rating(game, name, new.mu, new.sigma, new.rounds)
        self._order[game] = None

    # --- the request -------------------------------------------------------------------------

    def ordered(self, game: str) -> list[str]:
        order = self._order.get(game)
        if order is None:
            table = self.by_game.get(game, {})
            order = sorted(table, key=lambda n: (-table[n].ordinal, n.casefold()))
            self._order[game] = order
        return order

    def on_ratings(self, player: Player, req: RatingsRequest) -> RatingsReply:
        """A game's ratings, best first, a page of ``RATINGS_PAGE`` from ``offset`` (with
        ``me``, the asker's line); or, without a game, one player's (``name``; the asker's
        own when null) at every game he was rated at."""
        game = req["game"]
        if game is None:
            name = req["name"] or player.name
            rows: list[RatingLine] = []
            for g in sorted(self.by_game):
                r = self.by_game[g].get(name)
                if r is not None:
                    rows.append(self.line(g, name, r))
            return {"type": "ratings", "v": PROTOCOL, "game": None, "name": name,
                    "ratings": rows, "total": len(rows), "next": None, "me": None}
        if game not in self.catalog.games:
            raise ProtocolError("no_game", Msg("no game {game} is installed here (installed: "
                                               "{games})", game=repr(game),
                                               games=", ".join(sorted(self.catalog.games))))
        order = self.ordered(game)
        offset = req["offset"]
        page = order[offset:offset + RATINGS_PAGE]
        table = self.by_game.get(game, {})
        rows = [self.line(game, n, table[n], rank=offset + i + 1) for i, n in enumerate(page)]
        mine = table.get(player.name)
        me = None if mine is None else self.line(game, player.name, mine,
                                                 rank=order.index(player.name) + 1)
        end = offset + len(page)
        return {"type": "ratings", "v": PROTOCOL, "game": game, "name": None, "ratings": rows,
                "total": len(order), "next": end if end < len(order) else None, "me": me}

    @staticmethod
    def line(game: str, name: str, r: Rating, rank: int | None = None) -> RatingLine:
        """``name``'s rating at ``game`` as the wire says it; ``rank``: his place in the
        game's list (a line of one player's ratings has none)."""
        out: RatingLine = {"game": game, "name": name, "rating": r.shown,
                           "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "rounds": r.rounds}
        if rank is not None:
            out["rank"] = rank
        return out

    def profile(self, name: str) -> dict[str, float]:
        """``name``'s shown rating at every game he was rated at (the profile's
        ``ratings``)."""
        return {g: r.shown for g, table in sorted(self.by_game.items())
                if (r := table.get(name)) is not None}
