"""Everything an author checks before publishing a game, in one run and one report
(``cardparty check GAME [--variant V]``).

The steps, each timed, each ok or failed with the seed to replay:

- **contract**: the game's plugin and its variants keep the hook contract (``discovery``'s
  checks, as when the catalog loads), and which optional hooks they have (a game without a
  policy plays at random at every level; without an estimate the search counts a cut
  rollout as an even share);
- **random games**: the random-simulation checker (``simcheck``) over a few hundred seeded
  games, spread over every player count: every card accounted for, every view and event
  proved against the zones, refusals agreeing with the listing, save and restore round
  trips, ``determinize`` redealing every hidden zone and blind to the real deal (and the
  search's sampler), replays;
- **clone**: a clone is the same table (the same save and views) and independent of it (a
  move played on the clone leaves the table as it was);
- **bots**: games with every seat at each level (easy, normal, hard with a short search)
  finish within the game's bound;
- **balance**, in the way of CardStock's heuristics (Bell and Goadrich): at each player count,
  games of normal bots in every seat give each seat's share of first places (the first
  player's advantage), the game's length (median, p95, the longest) and how often the game
  is decided by its last round of moves (from the position one round before the end, another
  choice by the players, played at random, gives first place to someone else in one of a
  few tries); and one normal bot among easy ones, its seat going round, gives normal's share
  of first places against easy's (is there skill to the game?).

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardparty.core import hookspecs
from cardparty.core.bots import Bot, PolicyBot
from cardparty.core.discovery import Catalog, PluginRefused, checked_manager, load_catalog
from cardparty.core.search import Budget, SearchBot
from cardparty.core.simcheck import REDEAL_TRIES, InvariantChecker
from cardparty.core.simulate import (
    SimulationFailure,
    next_actor,
    play_out,
    seeded_game,
    simulate,
)
from cardparty.core.table import Table, TableError
from cardparty.core.tournament import SeatBots, first_place_shares

#: The random games checked, over all player counts together.
CHECKED_GAMES = 240
#: Games of normal bots per player count for the balance, and of normal among easy ones.
BALANCE_GAMES = 200
#: Tries at another ending, from one round of moves before the end, per game (and the games
#: of each player count they are tried on).
LATE_TRIES = 4
LATE_GAMES = 60
#: Games per level in which every seat is a bot of that level; the hard level searches with
#: a short budget (its strength is docs/bots.md's business, not this check's).
LEVEL_GAMES = {"easy": 4, "normal": 4, "hard": 1}
HARD_BUDGET = Budget(iterations=24, seconds=0.01)
#: Positions of a game at which a clone is checked, and games.
CLONE_EVERY = 5
CLONE_GAMES = 6


@dataclass
class Step:
    """One part of the check: its name, whether it passed, its time, and what it found."""

    name: str
    ok: bool = True
    seconds: float = 0.0
    lines: list[str] = field(default_factory=list)
    #: not run: a step before it failed (the check stops there)
    skipped: bool = False


@dataclass
class Balance:
    """The balance figures of one player count."""

    players: int
    games: int
    firsts: list[float]                 # each seat's share of first places, normal bots
    lengths: list[int]                  # moves of each game
    late: float                         # share of games decided by their last round
    late_games: int
    normal_vs_easy: float               # normal's share of first places among easy bots
    normal_games: int
    outcomes: dict[str, int] = field(default_factory=dict)   # of the normal bots' games
    #: the same shares by order of play: [0] the seat that moved first in its game (a game
    #: that draws its dealer at random spreads the first mover over the seats)
    by_order: list[float] = field(default_factory=list)
    #: the seeds of the first few normal games that ended otherwise than "finished"
    odd_seeds: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return float(statistics.median(self.lengths))

    @property
    def p95(self) -> int:
        ordered = sorted(self.lengths)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    def as_json(self) -> dict[str, Any]:
        return {"players": self.players, "games": self.games,
                "first_place_share": [round(f, 3) for f in self.firsts],
                "first_place_share_by_order": [round(f, 3) for f in self.by_order],
                "length": {"median": self.median, "p95": self.p95,
                           "longest": max(self.lengths)},
                "decided_in_last_round": round(self.late, 3), "late_games": self.late_games,
                "normal_vs_easy": round(self.normal_vs_easy, 3),
                "fair_share": round(1 / self.players, 3), "normal_games": self.normal_games,
                "outcomes": self.outcomes, "odd_seeds": self.odd_seeds}


@dataclass
class Report:
    game: str
    variants: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    balance: list[Balance] = field(default_factory=list)
    seconds: float = 0.0                # the whole check's wall time
    jobs: int = 1                       # the processes its games were played in

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "variants": list(self.variants), "ok": self.ok,
                "seconds": round(self.seconds, 2), "jobs": self.jobs,
                "steps": [{"name": s.name, "ok": s.ok, "skipped": s.skipped,
                           "seconds": round(s.seconds, 2), "lines": s.lines}
                          for s in self.steps],
                "balance": [b.as_json() for b in self.balance]}


def player_counts(catalog: Catalog, game: str, wanted: Iterable[int] = ()) -> list[int]:
    info = catalog.game(game)
    every = list(range(info.min_players, info.max_players + 1))
    chosen = sorted(set(wanted)) or every
    wrong = [n for n in chosen if n not in every]
    if wrong:
        raise TableError(f"{info.name} is for {info.min_players} to {info.max_players} "
                         f"players, not {wrong[0]}")
    return chosen


def default_jobs() -> int:
    """The processes a check runs in by default: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                  # not on Linux
        return max(1, os.cpu_count() or 1)


def timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and the seconds it took (a part of a step, in a worker or here)."""
    began = time.perf_counter()
    return fn(*args), time.perf_counter() - began


class _Later:
    """A part running in the pool: its result, once done (a worker's exception raised)."""

    def __init__(self, pending: Any) -> None:
        self.pending = pending

    def result(self) -> Any:
        return self.pending.get()


class _Now:
    """A part of a check run in this process (``jobs`` 1): run when its result is asked,
    so that the parts of a step not reached are never run."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn, self.args = fn, args

    def result(self) -> Any:
        return self.fn(*self.args)


def check_game(game: str, variants: Sequence[str] = (), settings: dict[str, Any] | None = None,
               players: Iterable[int] = (), games: int = CHECKED_GAMES,
               balance_games: int = BALANCE_GAMES, seed: int = 0,
               told: Callable[[Step], None] | None = None, jobs: int | None = None) -> Report:
    """Check ``game`` (with ``variants``) as the module docstring says; ``told`` hears of each
    step once it is done (a command prints it as it goes). The games are played in ``jobs``
    processes (default: one per core; 1: in this one), every part submitted at once so that
    none waits; the report is the same whatever ``jobs`` is. Raises TableError (one line) for
    a game, variant, setting or player count the catalog cannot give."""
    catalog = load_catalog()
    variants = tuple(variants)
    try:
        catalog.game(game)
        for v in variants:
            catalog.variant(game, v)
    except KeyError as exc:
        raise TableError(exc.args[0]) from None
    counts = player_counts(catalog, game, players)
    Table(game, counts[0], settings, variants, seed=seed)     # a bad setting: said once, here
    report = Report(game, variants)
    start = time.perf_counter()
    contract = Step("contract")
    try:
        _contract(contract, catalog, game, variants)
    except (PluginRefused, TableError) as exc:
        contract.ok = False
        contract.lines.append(f"FAILED: {exc}")
    contract.seconds = time.perf_counter() - start
    report.steps.append(contract)
    if told is not None:
        told(contract)
    if not contract.ok:
        report.seconds = time.perf_counter() - start
        return report
    jobs = report.jobs = jobs or default_jobs()
    # multiprocessing's pool, not concurrent.futures': a failed step stops the check, and
    # its terminate() ends the parts still running (a broken game's may run to its bound)
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None

    def submit(fn: Callable[..., Any], *args: Any) -> Any:
        """A part of a step, timed where it runs (``timed``)."""
        if pool is not None:
            return _Later(pool.apply_async(timed, (fn, *args)))
        return _Now(timed, fn, *args)

    common = (game, variants, settings)
    try:
        # Every part is submitted before any is awaited: the workers never wait for the
        # report, which takes the parts in its own order.
        parts: list[tuple[str, list[Any], Callable[[Step, list[Any]], None]]] = [
            ("random games", [submit(random_part, *common, n, k, seed + 1000 * n + first)
                              for n, k, first in chunks(counts, games)],
             lambda step, done: _random_games(step, done, games)),
            ("clone", [submit(clone_part, *common, counts, seed)], _clones),
            ("bots", [submit(level_part, *common, level, n, seed) for level, n in
                      (("easy", counts[-1]), ("normal", counts[-1]), ("hard", counts[0]))],
             _levels),
            ("balance", [submit(balance_part, *common, n, balance_games, seed)
                         for n in counts],
             lambda step, done: _balanced(step, report, done)),
        ]
        for name, futures, finish in parts:
            step = Step(name)
            if not report.ok:
                step.skipped = True
                step.lines.append("not run: a step above failed")
                report.steps.append(step)
                if told is not None:
                    told(step)
                continue
            try:
                done = [f.result() for f in futures]
                # a step's time is its parts' own, wherever they ran (in parallel: more than
                # the wall's time between two steps)
                step.seconds = sum(took for _value, took in done)
                finish(step, [value for value, _took in done])
            except SimulationFailure as exc:
                step.ok = False
                step.lines.append(f"FAILED: {exc} (replay: seed {exc.seed}, move "
                                  f"{exc.move_no})")
            except (PluginRefused, TableError) as exc:
                step.ok = False
                step.lines.append(f"FAILED: {exc}")
            report.steps.append(step)
            if told is not None:
                told(step)
    finally:
        if pool is not None:
            if report.ok:
                pool.close()
            else:
                pool.terminate()
            pool.join()
    report.seconds = time.perf_counter() - start
    return report


#: Optional hooks worth a word when a game lacks them.
ADVICE = {
    "cardparty_bot_move": "no cardparty_bot_move: the normal and hard bots play at random "
                          "(docs/bots.md, 'Writing a game's policy')",
    "cardparty_bot_estimate": "no cardparty_bot_estimate: the search counts a rollout it cuts "
                              "short as an even share (docs/writing-a-game.md, 'The search in "
                              "a long game')",
    "cardparty_describe": "no cardparty_describe: events are told in generic words",
}


def _contract(step: Step, catalog: Catalog, game: str, variants: tuple[str, ...]) -> None:
    for pid in (game, *variants):
        checked_manager(pid, catalog.plugins[pid])
    table = Table(game, catalog.game(game).min_players, variants=variants, seed=0,
                  catalog=catalog)
    have = sorted(h for h in dir(hookspecs) if h.startswith("cardparty_")
                  and getattr(table.pm.hook, h).get_hookimpls())
    versions = ", ".join(f"{pid} {catalog.versions.get(pid) or '(no package)'}"
                         for pid in (game, *variants))
    step.lines.append(f"plugins: {versions}")
    step.lines.append(f"{len(have)} hooks: the {len(hookspecs.REQUIRED)} required, and "
                      + (", ".join(h.removeprefix("cardparty_") for h in have
                                   if h not in hookspecs.REQUIRED
                                   and h not in ("cardparty_game_info",
                                                 "cardparty_variant_info")) or "no other"))
    step.lines += [text for hook, text in ADVICE.items() if hook not in have]


#: The most random games one part plays: parts are what the processes share out.
CHUNK = 15


def chunks(counts: list[int], games: int) -> list[tuple[int, int, int]]:
    """``games`` spread over the player ``counts``, each count's share inversely to its seats
    (a checked move costs a view per seat: each count then costs about as much, and a
    two-player game is not checked four times less than an eight-player one), cut into parts
    of at most ``CHUNK``: (players, games, the part's first game's index)."""
    weights = [1 / n for n in counts]
    total = sum(weights)
    shares = [games * w / total for w in weights]
    per = [int(x) for x in shares]
    # the games left over go to the counts with the largest remainders
    for i in sorted(range(len(counts)), key=lambda i: per[i] - shares[i])[:games - sum(per)]:
        per[i] += 1
    out = []
    for n, k in zip(counts, per, strict=True):
        for first in range(0, k, CHUNK):
            out.append((n, min(CHUNK, k - first), first))
    return out


@dataclass
class RandomPart:
    """What one part of the random games found: the checker's counts."""

    players: int
    games: int
    moves: int
    determinized: int
    sampler_checks: int
    save_every: int
    redeals: dict[str, list[int]]


def random_part(game: str, variants: tuple[str, ...], settings: dict[str, Any] | None,
                players: int, games: int, seed: int) -> RandomPart:
    """``games`` random games under the invariant checker (a worker's part)."""
    info = load_catalog().game(game)
    checker = InvariantChecker(Counter(info.deck) if info.deck else None)
    report = simulate(game, players, games, seed, variants, settings, observer=checker)
    return RandomPart(players, games, report.moves, checker.determinized,
                      checker.sampler_checks, checker.save_every, checker.redeals)


def _random_games(step: Step, parts: list[RandomPart], games: int) -> None:
    by_count: Counter[int] = Counter()
    redeals: dict[str, list[int]] = {}
    for part in parts:
        by_count[part.players] += part.games
        for name, (due, changed) in part.redeals.items():
            tally = redeals.setdefault(name, [0, 0])
            tally[0] += due
            tally[1] += changed
    never = sorted(name for name, (due, changed) in redeals.items()
                   if changed == 0 and due >= REDEAL_TRIES)
    if never:
        step.ok = False
        step.lines.append(f"FAILED: determinize never redeals zone {never[0]!r} over "
                          f"{redeals[never[0]][0]} samples: redeal every card the seat cannot "
                          f"see (kit.redeal)")
    moves = sum(p.moves for p in parts)
    done = ", ".join(f"{k} of {n}" for n, k in sorted(by_count.items()))
    redealt = sorted(name for name, (_due, changed) in redeals.items() if changed)
    step.lines.append(f"{games} games ({done} players), {moves} moves, every invariant "
                      f"after every move")
    checks = sum(p.sampler_checks for p in parts)
    step.lines.append(f"determinize: {sum(p.determinized for p in parts)} samples, each kept "
                      f"the seat's view and was blind to the real deal; redealt: "
                      f"{', '.join(redealt) or 'nothing hidden'}"
                      + (f"; the search's sampler checked in {checks} games" if checks
                         else ""))
    step.lines.append(f"save and restore: the game's state after every move, the whole "
                      f"table every {parts[0].save_every} moves and at every end")


def clone_part(game: str, variants: tuple[str, ...], settings: dict[str, Any] | None,
               counts: list[int], seed: int) -> int:
    """Clones checked at positions of a few random games (a worker's part): how many."""
    checked = 0
    for g in range(CLONE_GAMES):
        n = counts[g % len(counts)]
        table = Table(game, n, settings, variants, seed=seed + 7000 + g)
        rng = random.Random(g)
        bots = SeatBots([PolicyBot("easy")] * n)
        while table.result() is None:
            seat = next_actor(table, rng)
            if seat is None or len(table.journal) > table.info.max_moves:
                raise SimulationFailure(game, n, table.seed, len(table.journal),
                                        "the game does not end", variants)
            if len(table.journal) % CLONE_EVERY == 0:
                _clone_once(table, seat, rng)
                checked += 1
            table.play(seat, bots.choose(table, seat, rng))
    return checked


def _clones(step: Step, done: list[int]) -> None:
    step.lines.append(f"{done[0]} positions of {CLONE_GAMES} games: each clone had the "
                      f"table's save and views, and a move on it left the table unchanged")


def _clone_once(table: Table, seat: int, rng: random.Random) -> None:
    """A clone of ``table`` is the same table, and independent of it."""
    before = table.save()
    twin = table.clone()

    def fail(why: str) -> SimulationFailure:
        return SimulationFailure(table.game, table.players, table.seed, len(table.journal),
                                 why, table.variant_ids)

    if twin.save() != before:
        raise fail("the clone's save differs from the table's")
    for s in (None, *range(table.players)):
        if twin.view(s) != table.view(s):
            raise fail(f"the clone shows seat {s} another view")
    moves = twin.legal_moves(seat)
    twin.play(seat, moves[rng.randrange(len(moves))])
    if table.save() != before:
        raise fail("a move played on the clone changed the table (clone shares a list with "
                   "the state: kit.game_state copies every list it declares)")


def level_part(game: str, variants: tuple[str, ...], settings: dict[str, Any] | None,
               level: str, players: int, seed: int) -> tuple[str, int, list[int], float]:
    """Games with every seat a bot of ``level`` (a worker's part): the level, the players,
    each game's length, the seconds."""
    bot: Bot = SearchBot(HARD_BUDGET) if level == "hard" else PolicyBot(level)
    began = time.perf_counter()
    lengths = []
    for g in range(LEVEL_GAMES[level]):
        table, _result = seeded_game(game, players, settings, variants, seed + 9000 + g,
                                     bot=SeatBots([bot] * players))
        lengths.append(len(table.journal))
    return level, players, lengths, time.perf_counter() - began


def _levels(step: Step, done: list[tuple[str, int, list[int], float]]) -> None:
    for level, n, lengths, took in done:
        some = f"{len(lengths)} game" + ("s" if len(lengths) != 1 else "")
        span = (f"{lengths[0]} moves" if len(lengths) == 1
                else f"{min(lengths)} to {max(lengths)} moves")
        step.lines.append(f"{level}: {some} of {n} players finished ({span}, {took:.1f} s)")


def _balanced(step: Step, report: Report, done: list[Balance]) -> None:
    report.balance = done
    step.lines += format_balance(done)


def balance_part(game: str, variants: tuple[str, ...], settings: dict[str, Any] | None,
                 n: int, games: int, seed: int) -> Balance:
    """The balance at ``n`` players (a worker's part): see the module docstring."""
    normal, easy = PolicyBot("normal"), PolicyBot("easy")
    wins = [0.0] * n
    ordered = [0.0] * n
    lengths: list[int] = []
    outcomes: Counter[str] = Counter()
    odd: list[int] = []                    # seeds of games that did not end as "finished"
    late = 0
    tried = 0
    for g in range(games):
        table, result = seeded_game(game, n, settings, variants, seed + 20_000 + g,
                                    bot=SeatBots([normal] * n))
        shares = first_place_shares(result)
        for s, share in enumerate(shares):
            wins[s] += share
        for k, s in enumerate(order_of_play(table)):
            ordered[k] += shares[s]
        lengths.append(len(table.journal))
        outcomes[result.outcome] += 1
        if result.outcome != "finished" and len(odd) < 3:
            odd.append(table.seed)
        if g < LATE_GAMES:
            tried += 1
            late += decided_late(table, result, n, random.Random(g))
    mixed = 0.0
    for g in range(games):
        seats: list[Bot] = [easy] * n
        seats[g % n] = normal
        _table, result = seeded_game(game, n, settings, variants, seed + 40_000 + g,
                                     bot=SeatBots(seats))
        mixed += first_place_shares(result)[g % n]
    return Balance(n, games, [w / games for w in wins], lengths, late / tried, tried,
                   mixed / games, games, dict(outcomes), [w / games for w in ordered], odd)


def order_of_play(table: Table) -> list[int]:
    """The seats of a played ``table`` by their first move (SYSTEM's aside); a seat that never
    moved comes last."""
    order = list(dict.fromkeys(s for s, _move in table.journal if s >= 0))
    return order + [s for s in range(table.players) if s not in order]


def decided_late(table: Table, result: Any, rounds: int, rng: random.Random) -> bool:
    """Whether the result of the game of ``table`` (over, with ``result``: every place) was
    decided by its last ``rounds`` moves: from the position that many moves before the end,
    one of ``LATE_TRIES`` other endings, every seat choosing at random (and the table's own
    chances drawn again), gives another result."""
    cut = len(table.journal) - rounds
    if cut <= 0:
        return True
    before = Table.replay(table.game, table.players, table.seed, table.journal[:cut],
                          table.settings, table.variant_ids)
    for _ in range(LATE_TRIES):
        twin = before.clone()
        twin.rng = random.Random(rng.getrandbits(32))
        try:
            other = play_out(twin, random.Random(rng.getrandbits(32)))
        except SimulationFailure:
            return True                     # no ending within the bound: not decided yet
        if other.places != result.places:
            return True
    return False


def format_report(report: Report) -> str:
    """The report as ``cardparty check`` prints it."""
    head = f"{report.game}" + (f" with {', '.join(report.variants)}" if report.variants else "")
    lines = [head]
    for step in report.steps:
        lines += format_step(step)
    verdict = "ok" if report.ok else "FAILED"
    lines.append(f"{verdict}: {head} checked in {report.seconds:.1f} s" + wall(report))
    return "\n".join(lines)


def wall(report: Report) -> str:
    """How the check's time was spent: its steps' work, in how many processes."""
    work = sum(s.seconds for s in report.steps)
    return f" ({work:.1f} s of work in {report.jobs} process{'es' if report.jobs > 1 else ''})"


def format_step(step: Step) -> list[str]:
    if step.skipped:
        return [f"  {step.name}: skipped ({step.lines[0]})"]
    lines = [f"  {step.name}: {'ok' if step.ok else 'FAILED'} ({step.seconds:.1f} s)"]
    lines += [f"    {line}" for line in step.lines]
    return lines


def format_balance(balance: list[Balance]) -> list[str]:
    if not balance:
        return []
    shares = [" ".join(f"{100 * f:4.1f}" for f in b.firsts) for b in balance]
    wide = max(24, *(len(x) for x in shares))
    lines = ["normal bots in every seat, and one normal bot among easy ones:",
             f"players  {'first places by seat (%)':<{wide}}  length: median   p95  longest"
             "  last round decides  normal vs easy (fair)"]
    for b, firsts in zip(balance, shares, strict=True):
        lines.append(f"{b.players:>7}  {firsts:<{wide}}  {b.median:>14g} {b.p95:>5} "
                     f"{max(b.lengths):>8}  {100 * b.late:>17.0f}%  "
                     f"{100 * b.normal_vs_easy:>5.1f}% ({100 / b.players:.1f}%)")
    lines.append("first places by order of play (%): the seat that moved first in its game, "
                 "then the second...")
    for b in balance:
        lines.append(f"{b.players:>7}  " + " ".join(f"{100 * f:4.1f}" for f in b.by_order))
    for b in balance:
        other = {k: v for k, v in b.outcomes.items() if k != "finished"}
        if other:
            lines.append(f"at {b.players} players, of {b.games} games of normal bots: "
                         + ", ".join(f"{v} ended {k!r}" for k, v in sorted(other.items()))
                         + f" (seed {', '.join(map(str, b.odd_seeds))})")
    return lines
