"""The host's economy: profiles, the shop, the league, stakes and payouts (docs/economy.md,
MO-1 ... MO-11), through ``core.economy.Ledger``.

Owns: the requests ``profile``, ``league``, ``buy`` and ``rewards`` (a page of one's own
rewards, newest first); who a player is in the ledger (``username``, ``key``: the one place
that says it); what a table's mode and stake allow when it is created; an entry table's
stakes (taken when a player sits, given back when he leaves before the start, refunded whole
when the table is cancelled); paying a finished round once, keyed by the match (the table's
ledger key and the round), and telling each player at the table his ``reward``: at once when
he is connected, else after his next hello (``back``), once; and, when a host starts again
from its data, finishing what a crash
interrupted (``recover``: a round over but not paid is paid, a cancelled table refunded, a
stake whose seat was lost given back), also checked at every sweep (``reconcile``).

The ledger is its own SQLite file and commits before anything is told or stored: a payout is
done or not done, and paying the same match again does nothing (MO-11), so a host killed at
any point and started again pays each round exactly once.

Must not know about: sockets (it sends through the outbox), how a game is played, the store's
format, the reward arithmetic (``core.economy.rewards``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection, Iterable

from cardparty.core.contract import Result
from cardparty.core.economy import rewards as rw
from cardparty.core.economy.ledger import EconomyError, Ledger, Paid, Profile, short_of_stake
from cardparty.core.i18n import Msg
from cardparty.net.host.clock import Clock
from cardparty.net.host.model import HostTable, Player, Tables
from cardparty.net.host.outbox import Outbox
from cardparty.net.host.settings import HostSettings
from cardparty.net.wire.economy_replies import (
    BuyReply,
    CancelledPush,
    LeagueReply,
    LeagueRow,
    ProfileReply,
    ProfileWire,
    RewardFields,
    RewardPush,
    RewardsReply,
)
from cardparty.net.wire.protocol import PROTOCOL, ProtocolError
from cardparty.net.wire.requests import BuyRequest, LeagueRequest, ProfileRequest, RewardsRequest

log = logging.getLogger("cardparty.host")

#: Standings a ``league`` reply lists (the asker's own line is always added).
LEAGUE_ROWS = 50
#: Past weeks a ``league`` reply names.
WEEKS_LISTED = 12
#: Players remembered as having a profile (``Economy.entered``), at most.
MAX_ENTERED = 4096
#: Modes whose results the ledger pays.
PAYING = (rw.FRIENDS, rw.OPEN, rw.ENTRY)
#: Rewards a ``rewards`` reply lists at most (a page).
REWARDS_PAGE = 20
#: Rewards missed while away told at most on a return (the newest; ``rewards`` lists all).
MISSED_TOLD = 20


def reward_fields(paid: Paid) -> RewardFields:
    """What the wire says of one kept reward (the ``reward`` push and each row of the
    ``rewards`` reply): ``id`` (the payout's key: the same round's reward always has the
    same), the table and round, mode, seat, place, coins, XP, league points, an entry
    table's stake and pot, whether the league points were halved and a level was reached,
    and ``at``, the host's wall time of the payout."""
    return {"id": paid.match or None, "table": paid.table, "round": paid.round,
            "mode": paid.mode, "seat": paid.seat, "place": paid.place, "coins": paid.coins,
            "xp": paid.xp, "league": paid.league, "stake": paid.stake, "pot": paid.pot,
            "halved": paid.halved, "level_up": paid.level_up, "at": paid.at}


def username(player: Player) -> str:
    """The profile a player acts under: his name (MO-1). The roster lets only the key that
    first said hello with a name use it, so the name stands for that key here."""
    return player.name


def key_of(player: Player) -> str:
    """The key a profile is bound to on first use (MO-1): the public key ZeroMQ
    authenticated for the player's connection; on a host without CURVE (a benchmark's
    comparison run) there is none, and the name stands in."""
    return player.key.decode() if player.key else f"name:{player.name}"


def refused(exc: EconomyError) -> ProtocolError:
    said = exc.args[0] if exc.args else ""
    text = said if isinstance(said, Msg) else str(exc)     # a message: each client's language
    return ProtocolError("no_coins" if "not enough coins" in text else "economy", text)


class Economy:
    def __init__(self, ledger: Ledger | None, outbox: Outbox, clock: Clock,
                 settings: HostSettings, tables: Tables) -> None:
        self.ledger = ledger
        self.outbox = outbox
        self.clock = clock
        self.settings = settings
        self.tables = tables
        #: (username, key) pairs known to have their profile (``entered``)
        self._entered: set[tuple[str, str]] = set()

    def close(self) -> None:
        if self.ledger is not None:
            self.ledger.close()

    def _ledger(self) -> Ledger:
        if self.ledger is None:
            raise ProtocolError("no_economy", Msg("this host keeps no coins: it plays practice "
                                              "tables only"))
        return self.ledger

    def enter(self, player: Player) -> Profile:
        """The player's profile, made with the welcome coins on first use (MO-1)."""
        try:
            return self._ledger().enter(username(player), key_of(player))
        except EconomyError as exc:
            raise refused(exc) from None

    def entered(self, player: Player) -> None:
        """The player has a profile bound to his key (MO-1), made on first use. A binding is
        kept for good, so one seen here is not asked of the ledger again: a room playing
        game after game asked it for every player at every start."""
        seen = (username(player), key_of(player))
        if seen in self._entered:
            return
        self.enter(player)
        if len(self._entered) >= MAX_ENTERED:
            self._entered.clear()
        self._entered.add(seen)

    # --- requests ----------------------------------------------------------------------------

    def profile_map(self, p: Profile) -> ProfileWire:
        """A profile as the wire shows it: coins, XP and level with the progress to the
        next, the booster's and VIP pass's time left (seconds; 0: not active)."""
        now = self.clock.wall()
        rules = self.settings.rules
        return {"name": p.username, "coins": p.coins, "xp": p.xp, "level": p.level,
                "level_xp": rw.level_xp(p.level), "next_xp": rw.level_xp(p.level + 1),
                "gold_left": max(0.0, p.gold_until - now),
                "vip_left": max(0.0, p.vip_until - now),
                "league": p.league_points, "week": self._ledger().week(),
                "prices": {"gold": rules.booster_price, "vip": rules.vip_price},
                "boosts": {"gold_minutes": rules.booster_minutes, "vip_days": rules.vip_days},
                "stakes": list(rules.stakes)}

    def on_profile(self, player: Player, req: ProfileRequest) -> ProfileReply:
        ledger = self._ledger()
        if req["name"] is None or req["name"] == username(player):
            p = self.enter(player)
        else:
            try:
                p = ledger.profile(req["name"])
            except EconomyError as exc:
                raise refused(exc) from None
        return {"type": "profile", "v": PROTOCOL, "profile": self.profile_map(p)}

    def on_league(self, player: Player, req: LeagueRequest) -> LeagueReply:
        ledger = self._ledger()
        me = username(player)
        this = ledger.week()
        week = req["week"] or this
        rows = ledger.standings(week)
        listed: list[LeagueRow] = [{"rank": i + 1, "name": n, "points": p}
                                   for i, (n, p) in enumerate(rows[:LEAGUE_ROWS])]
        mine: LeagueRow | None = None
        for i, (n, p) in enumerate(rows):
            if n == me:
                mine = {"rank": i + 1, "name": n, "points": p}
                break
        weeks = ledger.weeks()[:WEEKS_LISTED]
        if this not in weeks:
            weeks.insert(0, this)
        return {"type": "league", "v": PROTOCOL, "week": week, "current": this, "weeks": weeks,
                "standings": listed, "me": mine, "players": len(rows)}

    def on_buy(self, player: Player, req: BuyRequest) -> BuyReply:
        """MO-8: the gold booster or the VIP pass, paid in coins."""
        ledger = self._ledger()
        self.enter(player)
        try:
            p = ledger.buy(username(player), req["item"])
        except EconomyError as exc:
            raise refused(exc) from None
        log.info("%s bought %s", username(player), req["item"])
        return {"type": "profile", "v": PROTOCOL, "profile": self.profile_map(p),
                "bought": req["item"]}

    # --- tables ------------------------------------------------------------------------------

    def check_create(self, mode: str, stake: int, creator: Player) -> None:
        """What a table's mode and stake must be (MO-3 ... MO-6); an entry table's
        ``creator``, its first to sit, must have the stake: refused here, no table is made
        (one made and refused at his seat stayed in every lobby until it was cancelled)."""
        stakes = self.settings.rules.stakes
        if mode == rw.ENTRY:
            self._ledger()
            if stake not in stakes:
                raise ProtocolError("bad_field", Msg("create: an entry table's stake is one of "
                                                     "{stakes}",
                                                     stakes=", ".join(map(str, stakes))))
            have = self.enter(creator).coins
            if have < stake:
                raise refused(short_of_stake(stake, have))
        elif stake:
            raise ProtocolError("bad_field", Msg("create: only an entry table has a stake"))

    def opened(self, ht: HostTable) -> None:
        """A new table: its key in the ledger, unique even when a crash lost the table and
        its id is given again; an entry table waits ``fill_timeout`` for its players."""
        ht.stakes.key = f"{ht.id}.{secrets.token_hex(4)}"
        if ht.access.mode == rw.ENTRY:
            self.tables.fill_by(ht, self.clock.now() + self.settings.fill_timeout)

    def take_stake(self, ht: HostTable, player: Player) -> None:
        """MO-6: sitting at an entry table costs the stake; without it he cannot sit."""
        if ht.access.mode != rw.ENTRY:
            return
        self.enter(player)
        try:
            self._ledger().take_stake(ht.stakes.key, username(player), ht.stakes.stake)
        except EconomyError as exc:
            raise refused(exc) from None

    def refund_stake(self, ht: HostTable, player: Player) -> None:
        """He left an entry table before its game started: his stake comes back."""
        if ht.access.mode == rw.ENTRY and self.ledger is not None:
            self.ledger.refund_stake(ht.stakes.key, username(player))

    def refund_table(self, ht: HostTable) -> None:
        """The table closes before its game: every stake held for it comes back."""
        if ht.stakes.stake and self.ledger is not None:
            self.ledger.refund_table(ht.stakes.key)

    def cancel(self, ht: HostTable) -> int:
        """MO-6: an entry table not full by the fill timeout: cancelled, every stake
        refunded, everybody at it told."""
        stakes = ht.stakes
        refunded = self._ledger().refund_table(stakes.key) if self.ledger is not None else 0
        self.tables.ended(ht, "cancelled", self.clock.now())
        stakes.fill_at = None
        log.info("table %s cancelled: not full in time; %d coins refunded", ht.id, refunded)
        seconds = format(self.settings.fill_timeout, "g")
        reason = Msg("the table was not full after {seconds} s; your stake of {stake} coins "
                     "is back", seconds=seconds, stake=stakes.stake)
        for player in ht.humans():
            told: CancelledPush = {
                "type": "cancelled", "v": PROTOCOL, "table": ht.id, "refund": stakes.stake,
                "reason": reason, "reason_msg": reason.to_wire()}  # each client: its language
            self.outbox.send(player, told)
        return refunded

    def started(self, ht: HostTable) -> None:
        """A round starts: who sits where is who is paid; bots at the table halve the
        league points (MO-5)."""
        stakes = ht.stakes
        stakes.owners = [None if (p := s.human) is None else username(p) for s in ht.seats]
        if self.ledger is not None and ht.access.mode in PAYING:
            for player in ht.humans():
                # A profile to pay, made on first use, by a player present: one restored
                # after a restart who has not said hello yet cannot show his key (a seeking
                # table filled by bots meanwhile starts without him), and his profile was
                # made when he sat, or is when he is back.
                if player.route is not None:
                    self.entered(player)
        stakes.bots_filled = any(s.kind == "bot" for s in ht.seats)
        stakes.fill_at = None

    # --- paying a result ---------------------------------------------------------------------

    def settle(self, ht: HostTable, result: Result) -> None:
        """A round is over: pay it once (MO-11) and tell every player at the table who is
        connected; one away is told when he is back (``back``)."""
        n = len(ht.seats)
        places = [int(p) for p in result.places[:n]]
        humans = [(seat, p) for seat, s in enumerate(ht.seats) if (p := s.human) is not None]
        present = {username(p) for _, p in humans if p.route is not None}
        round_ = ht.match.round
        earned = self.pay(ht, round_, places, told=present)
        if self.ledger is None or ht.access.mode not in PAYING:
            for seat, player in humans:         # practice, or no economy: nothing is paid
                self.outbox.send(player, self.reward(Paid(
                    "", ht.id, round_, ht.access.mode, seat, places[seat], 0, 0, 0,
                    ht.stakes.stake, 0, False, False, self.clock.wall(), True), None))
            return
        paid = self.ledger.paid_in(self.match_id(ht, round_))
        if earned is None:
            # Paid before: a crash lost the round's end before it was stored, and what was
            # to be told of it then never left (nothing leaves before the store has it).
            late = [u for u in present if u in paid and not paid[u].told]
            if late:
                self.ledger.mark_told(self.match_id(ht, round_), late)
        for _, player in humans:
            kept = paid.get(username(player))
            if kept is not None and player.route is not None:
                self.outbox.send(player, self.reward(
                    kept, self.profile_map(self.ledger.profile(username(player)))))

    @staticmethod
    def match_id(ht: HostTable, round_: int) -> str:
        """The ledger's key of a round's payout: the table's own key and the round."""
        return f"{ht.stakes.key}/r{round_}"

    def pay(self, ht: HostTable, round_: int, places: list[int], told: Collection[str] = ()
            ) -> list[rw.Reward] | None:
        """The ledger's payout of round ``round_`` (the usernames in ``told`` are told it at
        once): None when it was paid already (or could not be: said in the log, an entry
        table's stakes refunded)."""
        n = len(places)
        mode, stakes = ht.access.mode, ht.stakes
        if self.ledger is None or mode not in PAYING:
            return [rw.Reward()] * n
        seats = stakes.owners if len(stakes.owners) == n else [
            None if (p := s.human) is None else username(p) for s in ht.seats]
        try:
            return self.ledger.pay_result(self.match_id(ht, round_), mode, seats, places,
                                          stakes.bots_filled, table_id=stakes.key,
                                          table=ht.id, round_no=round_, told=told)
        except EconomyError as exc:
            log.error("table %s: round %d not paid: %s", ht.id, round_, exc)
            if mode == rw.ENTRY:
                self.ledger.refund_table(stakes.key)
            return None

    @staticmethod
    def reward(paid: Paid, profile: ProfileWire | None, missed: bool = False) -> RewardPush:
        """The ``reward`` push of one kept reward (``profile``: the player's now; None when
        the table paid nothing); ``missed``: told on his return, the round ended while he was
        away."""
        return {"type": "reward", "v": PROTOCOL, **reward_fields(paid), "profile": profile,
                "missed": missed}

    def back(self, player: Player) -> None:
        """After a hello (``roster.PlayerEvents.back``): the rewards of rounds that ended
        while he was away or disconnected, each told once, oldest first (at most
        ``MISSED_TOLD``; ``rewards`` lists the others)."""
        if self.ledger is None:
            return
        missed = self.ledger.take_untold(username(player), MISSED_TOLD)
        if not missed:
            return
        profile = self.profile_map(self.ledger.profile(username(player)))
        for paid in missed:
            self.outbox.send(player, self.reward(paid, profile, missed=True))

    def on_rewards(self, player: Player, req: RewardsRequest) -> RewardsReply:
        """A page of the player's own rewards, newest first (``REWARDS_PAGE`` at most)."""
        ledger = self._ledger()
        offset = req["offset"]
        rows, total = ledger.rewards(username(player), offset, REWARDS_PAGE)
        end = offset + len(rows)
        return {"type": "rewards", "v": PROTOCOL, "rewards": [reward_fields(r) for r in rows],
                "total": total, "next": end if end < total else None}

    # --- after a crash -----------------------------------------------------------------------

    def recover(self, tables: Iterable[HostTable]) -> None:
        """A host started again from its data finishes what a crash interrupted: a round
        over but not paid is paid (paying again does nothing), a cancelled table is
        refunded, an open entry table keeps only the players whose stakes are held, and
        fill timeouts start again."""
        now = self.clock.now()
        for ht in tables:
            if ht.status == "open" and (ht.access.mode == rw.ENTRY or ht.stakes.seeking):
                self.tables.fill_by(ht, now + self.settings.fill_timeout)   # a fresh wait
        if self.ledger is None:
            return
        for ht in tables:
            key = ht.stakes.key
            if ht.status == "over" and ht.match.rounds:
                last = ht.match.rounds[-1]
                if self.pay(ht, int(last["round"]), [int(p) for p in last["places"]]):
                    log.info("table %s: round %s paid after a restart", ht.id, last["round"])
            elif ht.status == "cancelled":
                self.ledger.refund_table(key)
            elif ht.status == "open" and ht.access.mode == rw.ENTRY:
                held = {u for t, u, _ in self.ledger.held() if t == key}
                for i, s in enumerate(ht.seats):
                    if s.kind == "human" and s.name not in held:
                        if s.player is not None:
                            s.player.tables.discard(ht.id)
                        ht.seats[i] = type(s)()
        self.reconcile()

    def reconcile(self) -> None:
        """Every stake in escrow belongs to a player seated at an entry table that is open
        or playing; any other (its seat or table lost in a crash, the table broken or gone)
        is given back."""
        if self.ledger is None:
            return
        held = self.ledger.held()
        if not held:
            return
        by_key = {ht.stakes.key: ht for ht in self.tables.all.values() if ht.stakes.key}
        for tkey, user, amount in held:
            ht = by_key.get(tkey)
            if ht is not None and ht.status == "playing" and user in ht.stakes.owners:
                continue
            if ht is not None and ht.status == "open" and any(
                    username(p) == user for p in ht.humans()):
                continue
            if ht is not None and ht.status == "over":
                continue        # paid by ``recover`` or its payout (which refunds on failure)
            self.ledger.refund_stake(tkey, user)
            log.info("stake of %s at %s (%d coins) refunded: no seat holds it", user, tkey,
                     amount)
