"""The host's thinkers: worker processes that run hard bots' searches off the host's loop.

Owns: a small pool of ``cardparty.net.thinker`` processes (``Thinkers``; by default one
fewer than the machine's cores, at least one, started when the first hard bot thinks), the
queue of tables waiting for a worker (one entry per table, so it is bounded by the host's
tables), the answers that came back, and stopping the workers (``close``).

How the loop uses it: a hard bot asks (``ask``) with its table, seat, seed and budget (a
player's hint, ``ask_hint``, the same with the hint's reason in its answer); the
answer is None ("not yet": the table's save goes to a worker, or waits for one), and the loop
goes on serving everybody else. A worker's answer wakes the loop (``fds``: the workers'
pipes, polled with the socket); ``collect`` reads the answers and says which tables to look
at again; the bot asks again and gets its move. An answer for a version of the table that
has moved on is dropped, and the bot, asked again, thinks again. A worker never blocks the
loop: jobs are written without blocking (what the pipe does not take waits for the next
turn), answers read without blocking.

When thinking fails (a worker died, a job erred, or ran far past its budget) the answer is
``FALLBACK``: the bot plays a normal move on the loop, so a game never waits for ever; after
``GIVE_UP`` failures in a row the pool stops starting workers and every hard bot plays
normal moves (logged once).

Must not know about: sockets, players, the protocol; what a table is beyond its ``version``
and ``save()``; the host's tables (an ``owner`` is whatever the caller keys a table by).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import itertools
import logging
import os
import subprocess
import sys
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import cast

from cardparty.core.search import Budget
from cardparty.core.table import Table
from cardparty.net.thinker import MAX_FRAME, Answer, BudgetMap, Frames, Job, pack_frame

log = logging.getLogger("cardparty.host")

#: The answer that says "think on the loop with the normal policy instead".
FALLBACK = -1
#: Failures in a row after which no worker is started any more.
GIVE_UP = 3
#: Seconds a job may run past its budget before its worker is killed (a worker just
#: started imports the search first; a loaded machine is slow).
GRACE = 30.0
#: The most workers a host starts, whatever the machine.
MOST = 8
_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


def budget_map(budget: Budget) -> BudgetMap:
    """``budget`` as a job carries it: every field of the dataclass by its name (a field
    added to ``Budget`` goes to the workers as it is; ``BudgetMap`` declares them all)."""
    return cast(BudgetMap, dataclasses.asdict(budget))


def default_workers() -> int:
    """One fewer than the machine's cores (the loop keeps one), at least one."""
    return max(1, min(MOST, (os.cpu_count() or 2) - 1))


#: What a worker thinks: a bot's move, a player's hint (``core.hint``), or one decision of a
#: player's review (``core.review``).
MOVE, HINT, REVIEW = "move", "hint", "review"


@dataclass(frozen=True)
class Thought:
    """A worker's answer: the move's index in the table's ``legal_moves(seat)`` (``FALLBACK``:
    thinking failed) and, for a hint, its reason as a ``Msg`` wire map (or None)."""

    index: int
    reason: dict[str, object] | None = None
    #: a review's estimated loss of the move played (``core.review``)
    loss: float | None = None


@dataclass(eq=False)
class _Job:
    id: int
    owner: Hashable
    table: Table
    version: int
    seat: int
    seconds: float
    started: float


@dataclass(eq=False)
class _Ask:
    table: Table
    version: int
    seat: int
    seed: int
    budget: Budget
    what: str = MOVE
    played: int = -1


class _Worker:
    """One thinker process and its two pipes (both non-blocking on this side)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "cardparty.net.thinker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     # Its errors come back as answers; anything else it
                                     # printed would land on a terminal client's screen.
                                     stderr=subprocess.DEVNULL, bufsize=0, close_fds=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        os.set_blocking(self.wfd, False)
        os.set_blocking(self.rfd, False)
        with contextlib.suppress(OSError):      # room for a whole save: one write, no wait
            fcntl.fcntl(self.wfd, _SETPIPE_SZ, 1 << 20)
        self.out = bytearray()
        self.frames = Frames()
        self.job: _Job | None = None
        self.dead = False

    def send(self, frame: bytes) -> None:
        self.out += frame
        self.flush()

    def flush(self) -> None:
        """Write what the pipe takes now; the rest waits for the next turn of the loop."""
        while self.out and not self.dead:
            try:
                n = os.write(self.wfd, self.out)
            except BlockingIOError:
                return
            except OSError:
                self.dead = True
                return
            del self.out[:n]

    def read(self) -> list[Answer]:
        """The answers that arrived (none: nothing yet); marks the worker dead at EOF."""
        got: list[Answer] = []
        while not self.dead:
            try:
                data = os.read(self.rfd, 65536)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.dead = True
                break
            try:
                got += self.frames.feed(data)
            except Exception:
                self.dead = True
        return got

    def stop(self) -> None:
        """Ask it to end (EOF), then end it: a search in progress is not waited for."""
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(OSError):
            self.proc.terminate()
        try:
            self.proc.wait(2.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Thinkers:
    """See the module docstring. ``size``: the most worker processes (None: the machine's)."""

    def __init__(self, size: int | None = None) -> None:
        self.size = default_workers() if size is None else max(1, size)
        self.workers: list[_Worker] = []
        #: owner -> what it asked, waiting for a free worker (oldest first; one per owner)
        self.queue: OrderedDict[Hashable, _Ask] = OrderedDict()
        #: the same for reviews' decisions, given a worker only when no bot or hint waits:
        #: a review of forty decisions never holds up a bot's move at a table in play
        self.later: OrderedDict[Hashable, _Ask] = OrderedDict()
        #: owner -> its job in a worker
        self.running: dict[Hashable, _Job] = {}
        #: owner -> (version, seat, thought): an answer not yet taken
        self.answers: dict[Hashable, tuple[int, int, Thought]] = {}
        #: owners to look at again (an answer came, or their ask went stale)
        self.ready: list[Hashable] = []
        self.failures = 0
        self.broken = False
        self.asked = 0
        self._ids = itertools.count(1)

    # --- the bots' side ----------------------------------------------------------------------

    def ask(self, owner: Hashable, table: Table, seat: int, seed: int,
            budget: Budget) -> int | None:
        """The move's index in ``table.legal_moves(seat)`` if the answer for this version is
        here (``FALLBACK``: think on the loop instead), else None: it is being thought."""
        got = self._ask(owner, _Ask(table, table.version, seat, seed, budget))
        return None if got is None else got.index

    def ask_hint(self, owner: Hashable, table: Table, seat: int, seed: int,
                 budget: Budget) -> Thought | None:
        """``ask`` for a player's hint (``core.hint.hint_index``): the move and its reason.
        ``owner`` must not be a bot's: each owner has one question at a time."""
        return self._ask(owner, _Ask(table, table.version, seat, seed, budget, HINT))

    def ask_review(self, owner: Hashable, table: Table, seat: int, seed: int,
                   budget: Budget, played: int) -> Thought | None:
        """One decision of a player's review (``core.review.judge_index``): the search's move,
        the reason and the loss of move ``played``; asked after every bot and hint waiting."""
        return self._ask(owner, _Ask(table, table.version, seat, seed, budget, REVIEW,
                                     played))

    def _ask(self, owner: Hashable, ask: _Ask) -> Thought | None:
        got = self.answers.pop(owner, None)
        if got is not None and got[:2] == (ask.version, ask.seat):
            return got[2]
        if self.broken:
            return Thought(FALLBACK)
        if owner in self.running:
            return None              # when it comes back (stale or not), the owner asks again
        (self.later if ask.what == REVIEW else self.queue)[owner] = ask
        self._dispatch()
        return None

    def forget(self, owner: Hashable) -> None:
        """The owner's table stopped: nothing it asked is wanted any more."""
        self.queue.pop(owner, None)
        self.later.pop(owner, None)
        self.answers.pop(owner, None)

    # --- the loop's side ---------------------------------------------------------------------

    def fds(self) -> frozenset[int]:
        """The pipes an answer comes by: the loop polls them with its socket."""
        return frozenset(w.rfd for w in self.workers if not w.dead)

    def collect(self, now: float | None = None) -> list[Hashable]:
        """Read what the workers answered; the owners to look at again (each once)."""
        now = time.monotonic() if now is None else now
        for w in list(self.workers):
            w.flush()
            for frame in w.read():
                job = w.job
                if job is None or frame.get("id") != job.id:
                    continue
                w.job = None
                self.running.pop(job.owner, None)
                index = frame.get("index")
                reason = frame.get("reason")
                loss = frame.get("loss")
                if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
                    self.failures = 0
                    self._answer(job, Thought(index, reason if isinstance(reason, dict)
                                              else None,
                                              float(loss) if isinstance(loss, int | float)
                                              and not isinstance(loss, bool) else None))
                else:
                    log.warning("a hard bot's search failed (%s): a normal move instead",
                                frame.get("error"))
                    self._answer(job, Thought(FALLBACK))
            job = w.job
            if job is not None and not w.dead and now - job.started > job.seconds + GRACE:
                log.warning("a hard bot thought %.0f s: its worker is stopped",
                            now - job.started)
                w.dead = True
            if w.dead:
                self._lost(w)
        self._dispatch()
        out = list(dict.fromkeys(self.ready))
        self.ready.clear()
        return out

    def close(self) -> None:
        """Stop every worker (a search in progress is not waited for) and forget the rest."""
        workers, self.workers = self.workers, []
        for w in workers:
            w.stop()
        self.queue.clear()
        self.later.clear()
        self.running.clear()
        self.answers.clear()

    # --- inside ------------------------------------------------------------------------------

    def _answer(self, job: _Job, thought: Thought) -> None:
        if job.table.version == job.version:      # else dropped: the owner asks again
            self.answers[job.owner] = (job.version, job.seat, thought)
        self.ready.append(job.owner)

    def _lost(self, w: _Worker) -> None:
        self.workers.remove(w)
        w.stop()
        job = w.job
        if job is not None:
            self.running.pop(job.owner, None)
            self._answer(job, Thought(FALLBACK))
            self.failures += 1
            if self.failures >= GIVE_UP and not self.broken:
                self.broken = True
                log.error("hard bots' worker processes keep failing: hard bots play normal "
                          "moves on this host from now on")

    def _idle(self) -> _Worker | None:
        for w in self.workers:
            if w.job is None and not w.dead:
                return w
        if len(self.workers) >= self.size or self.broken:
            return None
        try:
            w = _Worker()
        except OSError as exc:
            log.error("no worker process for hard bots (%s): they play normal moves", exc)
            self.broken = True
            return None
        self.workers.append(w)
        return w

    def _dispatch(self) -> None:
        while self.queue or self.later:
            if self.broken:
                for owner in (*self.queue, *self.later):
                    self.ready.append(owner)       # asked again, they get FALLBACK
                self.queue.clear()
                self.later.clear()
                return
            w = self._idle()
            if w is None:
                return
            owner, ask = (self.queue or self.later).popitem(last=False)
            if ask.table.version != ask.version:
                self.ready.append(owner)            # stale before it left: ask again
                continue
            job = _Job(next(self._ids), owner, ask.table, ask.version, ask.seat,
                       ask.budget.seconds or 0.0, time.monotonic())
            try:
                # The seed is any whole number (msgpack's are 64 bits): sent in digits.
                sent: Job = {"id": job.id, "save": ask.table.save(), "seat": ask.seat,
                             "seed": str(ask.seed), "what": ask.what, "played": ask.played,
                             "budget": budget_map(ask.budget)}
                frame = pack_frame(sent)
                if len(frame) > MAX_FRAME:
                    raise ValueError(f"a save of {len(frame)} bytes")
            except Exception:
                log.exception("a table could not be sent to its hard bot's worker")
                self.answers[owner] = (ask.version, ask.seat, Thought(FALLBACK))
                self.ready.append(owner)
                continue
            w.job = job
            self.running[owner] = job
            self.asked += 1
            w.send(frame)
