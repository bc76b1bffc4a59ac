"""Profiles, coins, XP and the weekly league, kept by a host in SQLite (MO-1, MO-2, MO-6,
MO-8, MO-11).

Every coin movement is a ledger row written in the same transaction as the balance it changes,
so the database itself can prove that no coin was created or destroyed outside the reward
rules (``audit``). A payout is one transaction keyed by its match id: a crash at any point
leaves it either wholly done or not done at all, and paying the same match again does nothing.
Stakes of entry tables sit in escrow (``stakes``) until the pot is paid or refunded.

What is paid is decided by ``rewards`` (pure functions); this module only moves coins.

Must not know about: sockets, terminals, any game.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cardparty.core.economy import rewards as rw
from cardparty.core.i18n import N_, Msg
from cardparty.core.owner_only import private_files
from cardparty.core.schema import Capture, Column, Journal, Log, Schema, Table

#: The ledger's tables, declared once (core/schema.py): the file's layout, what a standby is
#: sent of every transaction, its snapshot and the heal's merge all come from here. Coins move
#: only by ledger rows (``log``): a merge writes the other side's rows again and moves the
#: balances by them, so the books still add up (``audit``).
ECONOMY_SCHEMA = Schema("economy", (
    Table("profiles", (
        Column("username", "TEXT", player=True), Column("public_key", "TEXT"),
        Column("coins", "INTEGER", check="coins >= 0", merge="log"),
        Column("xp", "INTEGER", default="0", merge="add"),
        Column("gold_until", "REAL", default="0", merge="max"),
        Column("vip_until", "REAL", default="0", merge="max")), key=("username",)),
    Table("ledger", (
        Column("id", "INTEGER"), Column("at", "REAL"), Column("username", "TEXT", player=True),
        Column("delta", "INTEGER"), Column("reason", "TEXT"),
        Column("ref", "TEXT", default="''", scope=True)), key=("id",), rowid=True,
        merge="log", log=Log("profiles", "coins", owner="username", amount="delta")),
    Table("stakes", (
        Column("table_id", "TEXT", scope=True), Column("username", "TEXT", player=True),
        Column("amount", "INTEGER"), Column("state", "TEXT", default="'held'")),
        key=("table_id", "username")),
    Table("payouts", (
        Column("match_id", "TEXT", scope=True), Column("at", "REAL"), Column("mode", "TEXT")),
        key=("match_id",)),
    Table("rewards", tuple(
        [Column("id", "INTEGER"), Column("username", "TEXT", player=True),
         Column("match_id", "TEXT", scope=True), Column("tbl", "TEXT")]
        + [Column("round", "INTEGER"), Column("mode", "TEXT")]
        + [Column(n, "INTEGER") for n in ("seat", "place", "coins", "xp", "league", "stake",
                                          "pot", "halved", "level_up")]
        + [Column("at", "REAL"), Column("told", "INTEGER", default="0", merge="max")]),
        key=("id",), rowid=True, unique=(("match_id", "username"),),
        identity=("match_id", "username"),
        indexes=(("rewards_by_player", "username, id", ""),
                 ("rewards_untold", "username", "told = 0"))),
    Table("league", (
        Column("week", "TEXT"), Column("username", "TEXT", player=True),
        Column("points", "INTEGER", merge="add")), key=("week", "username")),
))

#: The shop's refusal when a player has not the coins for an item (the price and what he has).
SHORT_OF = {"gold": N_("not enough coins: the gold booster costs {price} and you have {have}"),
            "vip": N_("not enough coins: the VIP pass costs {price} and you have {have}")}

#: Ledger reasons that bring coins into existence, and the one that takes them out.
MINTED = ("welcome", "reward")
BURNED = ("purchase",)


class EconomyError(ValueError):
    """A refused economy action, in one line (not enough coins, a username taken...)."""


def short_of_stake(stake: int, have: int) -> EconomyError:
    """MO-6: the refusal of a stake its player cannot pay, in his words."""
    return EconomyError(Msg("not enough coins: the stake is {stake} and you have {have}",
                            stake=stake, have=have))


class LedgerFileError(Exception):
    """The ledger's file cannot be used (not a database, damaged): one line naming it and
    what to do. The file is left as it is."""


#: The name a standby's journal gives the ledger's file (the store's is ``host``).
ECONOMY = "economy"

#: Rewards kept per player (the newest): what ``rewards`` lists and a resume tells.
REWARDS_KEPT = 100


@dataclass(frozen=True, slots=True)
class Paid:
    """What one seat's player was paid for one round, as the ledger keeps it: the table (as
    players know it) and round, its mode, the seat and place, the coins (an entry table's
    share of the pot), XP and league points, the stake and pot of an entry table, whether the
    league points were halved (bots held seats) and the XP took him to a new level; ``match``
    is the payout's key (unique at this host), ``at`` the wall time, ``told`` whether he was
    told (``pay_result``'s ``told``, ``take_untold``)."""

    match: str
    table: str
    round: int
    mode: str
    seat: int
    place: int
    coins: int
    xp: int
    league: int
    stake: int
    pot: int
    halved: bool
    level_up: bool
    at: float
    told: bool = False


_PAID_COLUMNS = ("match_id, tbl, round, mode, seat, place, coins, xp, league, stake, pot, "
                 "halved, level_up, at, told")


def _paid(row: Sequence[Any]) -> Paid:
    m, t, r, mode, seat, place, coins, xp, league, stake, pot, halved, up, at, told = row
    return Paid(str(m), str(t), int(r), str(mode), int(seat), int(place), int(coins),
                int(xp), int(league), int(stake), int(pot), bool(halved), bool(up),
                float(at), bool(told))


@dataclass(frozen=True, slots=True)
class Profile:
    username: str
    coins: int
    xp: int
    level: int
    gold_until: float
    vip_until: float
    league_points: int


class Ledger:
    """One host's economy in one SQLite file."""

    def __init__(self, path: str | Path, now: Callable[[], float] = time.time,
                 rules: rw.Rules = rw.DEFAULT_RULES) -> None:
        self.path = str(path)
        self.now = now
        self.rules = rules
        if self.path != ":memory:":
            private_files(Path(self.path), "-wal", "-shm")
        # One thread at a time uses it, not always the one that made it (a host is built on
        # one thread and runs on another).
        self.db: sqlite3.Connection = sqlite3.connect(
            self.path, isolation_level=None, timeout=10, check_same_thread=False)
        try:
            found = self.db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if found != "ok":
                raise sqlite3.DatabaseError(f"SQLite's check: {found}")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            ECONOMY_SCHEMA.create(self.db)
        except sqlite3.Error as exc:
            self.db.close()
            raise LedgerFileError(f"{self.path} is not an economy the host can read ({exc}); "
                                  "it was left as it is: restore a backup, or move it away "
                                  "to start the economy afresh") from None
        #: see ``defer_sync``: commits not yet synced to the disk, and the log's descriptor
        self.unsynced = False
        self._deferred = False
        self._wal_fd = -1
        #: this week's key and the second it was worked out at (``week``)
        self._week_of: tuple[int, str] = (-1, "")
        #: what each transaction changed, as row images, for a standby (``replicate``)
        self.capture = Capture(ECONOMY_SCHEMA)
        self._journal: Journal | None = None

    @classmethod
    def read_only(cls, path: str | Path, rules: rw.Rules = rw.DEFAULT_RULES) -> Ledger:
        """The ledger opened for reading only (``cardparty league``): nothing is created or
        written, and a host running on the same file is not disturbed."""
        if not Path(path).exists():
            raise EconomyError(Msg("there is no economy at {path}", path=str(path)))
        self = cls.__new__(cls)
        self.path, self.now, self.rules = str(path), time.time, rules
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        self.unsynced, self._deferred, self._wal_fd = False, False, -1
        self._week_of = (-1, "")
        self.capture = Capture(ECONOMY_SCHEMA)
        self._journal = None
        return self

    def close(self) -> None:
        self.db.close()
        if self._wal_fd >= 0:
            os.close(self._wal_fd)
            self._wal_fd = -1

    def defer_sync(self) -> None:
        """From now on a commit is not synced to the disk on the spot (it survives the
        process being killed, as every write of SQLite's log does) but by ``sync``, which the
        caller must run before it tells anybody of the commit (``unsynced`` says one is
        waiting). The host's loop then does not wait for the disk at every payout: its
        store's writer thread syncs the ledger before it commits the tables' rows and before
        any frame telling of either is sent. A file in memory needs neither."""
        if self.path == ":memory:" or self._deferred:
            return
        self.db.execute("PRAGMA synchronous=NORMAL")
        self._deferred = True

    def sync(self) -> None:
        """Every commit so far on the disk (the log synced; ``defer_sync``)."""
        if not self._deferred:
            return
        if self._wal_fd < 0:
            self._wal_fd = os.open(self.path + "-wal", os.O_RDONLY)
        os.fsync(self._wal_fd)

    def replicate(self, journal: Journal) -> None:
        """From now on what each transaction changed goes to ``journal`` (a standby's stream,
        net/peers/replica.py) as row images, once it commits."""
        self.capture.install(self.db)
        self._journal = journal

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One atomic step: everything inside commits together or not at all."""
        db = self.db
        before = db.total_changes
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            changes = self.capture.take(db) if self._journal is not None else []
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        if self._deferred and db.total_changes != before:
            self.unsynced = True
        if changes and self._journal is not None:
            self._journal.fill(self._journal.reserve(ECONOMY), changes)

    def _move(self, db: sqlite3.Connection, username: str, delta: int, reason: str,
              ref: str = "") -> None:
        """Change a balance and write its ledger row, inside the caller's transaction."""
        cur = db.execute("UPDATE profiles SET coins = coins + ? WHERE username = ? "
                         "AND coins + ? >= 0", (delta, username, delta))
        if cur.rowcount != 1:
            raise EconomyError(Msg("not enough coins for {who}", who=username))
        db.execute("INSERT INTO ledger (at, username, delta, reason, ref) VALUES (?,?,?,?,?)",
                   (self.now(), username, delta, reason, ref))

    # --- profiles (MO-1) --------------------------------------------------------------------

    def enter(self, username: str, public_key: str) -> Profile:
        """MO-1: bind ``username`` to ``public_key`` on first use (with the welcome coins);
        afterwards only that key may act under the name."""
        if not username or len(username) > 32:
            raise EconomyError("a username is 1 to 32 characters")
        with self._tx() as db:
            row = db.execute("SELECT public_key FROM profiles WHERE username = ?",
                             (username,)).fetchone()
            if row is None:
                db.execute("INSERT INTO profiles (username, public_key, coins) VALUES (?,?,0)",
                           (username, public_key))
                self._move(db, username, self.rules.new_profile_coins, "welcome")
            elif row[0] != public_key:
                raise EconomyError(Msg("the username {who} belongs to another player here",
                                       who=repr(username)))
        return self.profile(username)

    def profile(self, username: str) -> Profile:
        row = self.db.execute("SELECT coins, xp, gold_until, vip_until FROM profiles "
                              "WHERE username = ?", (username,)).fetchone()
        if row is None:
            raise EconomyError(Msg("no profile {who} on this host", who=repr(username)))
        week = self.week()
        points = self.db.execute("SELECT points FROM league WHERE week = ? AND username = ?",
                                 (week, username)).fetchone()
        return Profile(username, row[0], row[1], rw.level(row[1]), row[2], row[3],
                       points[0] if points else 0)

    def boosts(self, username: str) -> rw.Boosts:
        """The boosters ``username`` has running (only those columns: a payout asks for
        every seat's)."""
        row = self.db.execute("SELECT gold_until, vip_until FROM profiles WHERE username = ?",
                              (username,)).fetchone()
        if row is None:
            raise EconomyError(Msg("no profile {who} on this host", who=repr(username)))
        now = self.now()
        return rw.Boosts(gold=row[0] > now, vip=row[1] > now)

    # --- the shop (MO-8) --------------------------------------------------------------------

    def buy(self, username: str, item: str) -> Profile:
        """MO-8: a gold booster (coins x2 for 60 min) or a VIP pass (x1.5 for 7 days), bought
        with coins; buying again while active extends it."""
        rules = self.rules
        prices = {"gold": (rules.booster_price, rules.booster_minutes * 60, "gold_until"),
                  "vip": (rules.vip_price, rules.vip_days * 86400, "vip_until")}
        if item not in prices:
            raise EconomyError(Msg("the shop sells 'gold' and 'vip'"))
        price, seconds, column = prices[item]
        with self._tx() as db:
            try:
                self._move(db, username, -price, "purchase", item)
            except EconomyError:
                have = self.profile(username).coins
                raise EconomyError(Msg(SHORT_OF[item], price=price, have=have)) from None
            db.execute(f"UPDATE profiles SET {column} = MAX({column}, ?) + ? "
                       "WHERE username = ?", (self.now(), seconds, username))
        return self.profile(username)

    # --- entry tables (MO-6) ----------------------------------------------------------------

    def take_stake(self, table_id: str, username: str, stake: int) -> None:
        """MO-6: a player pays the stake when he sits; without the coins he cannot sit."""
        if stake not in self.rules.stakes:
            raise EconomyError(Msg("stakes are {stakes}",
                                   stakes=", ".join(map(str, self.rules.stakes))))
        with self._tx() as db:
            row = db.execute("SELECT state FROM stakes WHERE table_id = ? AND username = ?",
                             (table_id, username)).fetchone()
            if row is not None and row[0] != "refunded":
                raise EconomyError(Msg("{who} has already paid the stake of this table",
                                       who=username))
            try:
                self._move(db, username, -stake, "stake", table_id)
            except EconomyError:
                raise short_of_stake(stake, self.profile(username).coins) from None
            # A player who left before the start (refunded) may sit again and pay again.
            db.execute("INSERT INTO stakes (table_id, username, amount) VALUES (?,?,?) "
                       "ON CONFLICT (table_id, username) DO UPDATE SET "
                       "amount = excluded.amount, state = 'held'",
                       (table_id, username, stake))

    def refund_stake(self, table_id: str, username: str) -> int:
        """MO-6: one player's stake back (he left an entry table before its game started,
        or his seat was lost in a crash): the coins refunded, 0 when none was held."""
        with self._tx() as db:
            row = db.execute("SELECT amount FROM stakes WHERE table_id = ? AND username = ? "
                             "AND state = 'held'", (table_id, username)).fetchone()
            if row is None:
                return 0
            self._move(db, username, row[0], "refund", table_id)
            db.execute("UPDATE stakes SET state = 'refunded' WHERE table_id = ? AND "
                       "username = ?", (table_id, username))
        return int(row[0])

    def held(self) -> list[tuple[str, str, int]]:
        """Every stake in escrow: (table id, username, amount)."""
        return [(t, u, a) for t, u, a in self.db.execute(
            "SELECT table_id, username, amount FROM stakes WHERE state = 'held' "
            "ORDER BY table_id, username")]

    def paid(self, match_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM payouts WHERE match_id = ?",
                               (match_id,)).fetchone() is not None

    def refund_table(self, table_id: str) -> int:
        """MO-6, MO-11: a cancelled entry table gives back exactly the stakes it took, once."""
        with self._tx() as db:
            held = db.execute("SELECT username, amount FROM stakes WHERE table_id = ? AND "
                              "state = 'held' ORDER BY username", (table_id,)).fetchall()
            for username, amount in held:
                self._move(db, username, amount, "refund", table_id)
            db.execute("UPDATE stakes SET state = 'refunded' WHERE table_id = ? AND "
                       "state = 'held'", (table_id,))
        return sum(a for _, a in held)

    # --- paying a result (MO-3 ... MO-7, MO-11) ---------------------------------------------

    def pay_result(self, match_id: str, mode: str, seats: Sequence[str | None],
                   places: Sequence[int], bots_filled: bool = False,
                   table_id: str | None = None, *, table: str = "", round_no: int = 1,
                   told: Collection[str] = ()) -> list[rw.Reward] | None:
        """Pay a finished table once. ``seats`` holds each seat's username (None: a bot).

        Returns what each seat earned, or None when this match was paid already (MO-11: a
        result is paid exactly once, whatever crashed in between). Each player's reward is
        kept in the same transaction (``Paid``: ``table`` and ``round_no`` as the players
        know them), marked told for the usernames in ``told`` (those the host tells at
        once); the others learn it from ``take_untold`` when they are back.
        """
        if len(seats) != len(places):
            raise EconomyError("one place per seat")
        with self._tx() as db:
            if db.execute("SELECT 1 FROM payouts WHERE match_id = ?", (match_id,)).fetchone():
                return None
            db.execute("INSERT INTO payouts (match_id, at, mode) VALUES (?,?,?)",
                       (match_id, self.now(), mode))
            humans = [s is not None for s in seats]
            boosts = [self.boosts(s) if s else rw.Boosts() for s in seats]
            earned = rw.rewards(mode, places, humans, boosts, bots_filled, self.rules)
            if mode == rw.ENTRY:
                pot = self._pay_pot(db, match_id, table_id or match_id, seats, places)
                earned = [rw.Reward(coins, r.xp, r.league)
                          for coins, r in zip(pot, earned, strict=True)]
            week = self.week()
            now = self.now()
            halved = bots_filled and mode in (rw.OPEN, rw.ENTRY)
            stake = max((int(a) for (a,) in db.execute(
                "SELECT amount FROM stakes WHERE table_id = ?", (table_id or match_id,))),
                default=0) if mode == rw.ENTRY else 0
            whole = stake * sum(1 for s in seats if s is not None) if mode == rw.ENTRY else 0
            for seat, (username, reward) in enumerate(zip(seats, earned, strict=True)):
                if username is None:
                    continue
                if reward.coins and mode != rw.ENTRY:
                    self._move(db, username, reward.coins, "reward", match_id)
                xp_before = 0
                if reward.xp:
                    xp_before = db.execute("SELECT xp FROM profiles WHERE username = ?",
                                           (username,)).fetchone()[0]
                    db.execute("UPDATE profiles SET xp = xp + ? WHERE username = ?",
                               (reward.xp, username))
                up = reward.xp > 0 and rw.level(xp_before + reward.xp) > rw.level(xp_before)
                self._keep_paid(db, username, Paid(
                    match_id, table or match_id, round_no, mode, seat, int(places[seat]),
                    reward.coins, reward.xp, reward.league, stake, whole, halved, up, now,
                    username in told))
                if reward.league:
                    db.execute("INSERT INTO league (week, username, points) VALUES (?,?,?) "
                               "ON CONFLICT (week, username) DO UPDATE SET "
                               "points = points + excluded.points",
                               (week, username, reward.league))
        return earned

    @staticmethod
    def _keep_paid(db: sqlite3.Connection, username: str, paid: Paid) -> None:
        """One reward kept for ``username``, and only his newest ``REWARDS_KEPT``."""
        db.execute(f"INSERT OR IGNORE INTO rewards (username, {_PAID_COLUMNS}) "
                   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                   (username, paid.match, paid.table, paid.round, paid.mode, paid.seat,
                    paid.place, paid.coins, paid.xp, paid.league, paid.stake, paid.pot,
                    int(paid.halved), int(paid.level_up), paid.at, int(paid.told)))
        db.execute("DELETE FROM rewards WHERE username = ? AND id <= (SELECT id FROM rewards "
                   "WHERE username = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                   (username, username, REWARDS_KEPT))

    def rewards(self, username: str, offset: int = 0, limit: int = 20
                ) -> tuple[list[Paid], int]:
        """``username``'s kept rewards, newest first, from ``offset`` (at most ``limit``),
        and how many are kept."""
        rows = [_paid(r) for r in self.db.execute(
            f"SELECT {_PAID_COLUMNS} FROM rewards WHERE username = ? ORDER BY id DESC "
            "LIMIT ? OFFSET ?", (username, limit, offset))]
        total = self.db.execute("SELECT COUNT(*) FROM rewards WHERE username = ?",
                                (username,)).fetchone()[0]
        return rows, int(total)

    def paid_in(self, match_id: str) -> dict[str, Paid]:
        """The rewards kept of one payout, by username."""
        return {str(u): _paid(r) for u, *r in self.db.execute(
            f"SELECT username, {_PAID_COLUMNS} FROM rewards WHERE match_id = ?", (match_id,))}

    def mark_told(self, match_id: str, usernames: Collection[str]) -> None:
        """The rewards of ``match_id`` for ``usernames`` were told."""
        with self._tx() as db:
            db.executemany("UPDATE rewards SET told = 1 WHERE match_id = ? AND username = ?",
                           [(match_id, u) for u in usernames])

    def take_untold(self, username: str, most: int = 20, match_id: str | None = None
                    ) -> list[Paid]:
        """``username``'s rewards not yet told (only those of ``match_id`` when given), now
        marked told: the newest ``most`` of them, oldest first (an older one is still in
        ``rewards``)."""
        where = "username = ? AND told = 0" + ("" if match_id is None else " AND match_id = ?")
        args: tuple[object, ...] = (username,) if match_id is None else (username, match_id)
        if self.db.execute(f"SELECT 1 FROM rewards WHERE {where} LIMIT 1", args
                           ).fetchone() is None:
            return []                         # the usual answer, without a transaction
        with self._tx() as db:
            rows = [_paid(r) for r in db.execute(
                f"SELECT {_PAID_COLUMNS} FROM rewards WHERE {where} ORDER BY id DESC LIMIT ?",
                (*args, most))]
            db.execute(f"UPDATE rewards SET told = 1 WHERE {where}", args)
        return rows[::-1]

    def _pay_pot(self, db: sqlite3.Connection, match_id: str, table_id: str,
                 seats: Sequence[str | None], places: Sequence[int]) -> list[int]:
        held = dict(db.execute("SELECT username, amount FROM stakes WHERE table_id = ? AND "
                               "state = 'held'", (table_id,)).fetchall())
        paid = [s for s in seats if s is not None]
        if len(paid) != len(seats) or set(held) != set(paid):
            raise EconomyError("an entry table is paid only when every seat paid its stake")
        shares = rw.pot_shares(sum(held.values()), places)
        for username, share in zip(paid, shares, strict=True):
            if share:
                self._move(db, username, share, "pot", match_id)
        db.execute("UPDATE stakes SET state = 'paid' WHERE table_id = ?", (table_id,))
        return shares

    # --- the league (MO-5, MO-10) -----------------------------------------------------------

    def standings(self, week: str | None = None) -> list[tuple[str, int]]:
        """The league of ``week`` (default: this week), most points first."""
        week = week or self.week()
        return [(u, p) for u, p in self.db.execute(
            "SELECT username, points FROM league WHERE week = ? ORDER BY points DESC, "
            "username", (week,))]

    def weeks(self) -> list[str]:
        """Every week with standings, newest first."""
        return [w for (w,) in self.db.execute(
            "SELECT DISTINCT week FROM league ORDER BY week DESC")]

    def week(self) -> str:
        """This week's key (MO-10), in the host's time zone. Worked out once a second: a
        round's payout and its players' profiles ask for it a dozen times, and the time zone
        is read at each working out."""
        now = int(self.now())
        kept = self._week_of
        if kept[0] != now:
            kept = self._week_of = (now, rw.league_week(datetime.fromtimestamp(now).astimezone()))
        return kept[1]

    def usernames(self) -> list[str]:
        return [u for (u,) in self.db.execute("SELECT username FROM profiles ORDER BY username")]

    # --- the proof (MO-2) -------------------------------------------------------------------

    def audit(self) -> None:
        """Raise EconomyError unless every balance is the sum of its ledger rows and all coins
        (balances plus stakes in escrow) equal those minted by the rules less those spent."""
        for username, coins, total in self.db.execute(
                "SELECT p.username, p.coins, COALESCE(SUM(l.delta), 0) FROM profiles p "
                "LEFT JOIN ledger l ON l.username = p.username GROUP BY p.username"):
            if coins != total:
                raise EconomyError(f"{username} holds {coins} coins but the ledger says {total}")
        balances = self.db.execute("SELECT COALESCE(SUM(coins), 0) FROM profiles").fetchone()[0]
        escrow = self.db.execute("SELECT COALESCE(SUM(amount), 0) FROM stakes "
                                 "WHERE state = 'held'").fetchone()[0]
        minted = self.db.execute(
            f"SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE reason IN "
            f"({','.join('?' * len(MINTED))})", MINTED).fetchone()[0]
        spent = -self.db.execute(
            f"SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE reason IN "
            f"({','.join('?' * len(BURNED))})", BURNED).fetchone()[0]
        if balances + escrow != minted - spent:
            raise EconomyError(f"coins in play {balances + escrow} != minted {minted} "
                               f"- spent {spent}")
