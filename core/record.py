"""Game records: one finished (or, inside the host, unfinished) round kept as data, its file
format, and its replay from any seat.

A record is what replays a round exactly with the same game plugin (DESIGN, "The evening's
memory"): the game, its variants and the version of each plugin that played it, the complete
settings (a stacked ``deck`` among them), the seed, the players and their seats, every step in
order with its time (a move, or a player's reorder of his hand, each of which made one table
version), the result and what was paid. ``Replay`` plays it again step by step and gives the
view of any seat at any step: the very ``Table.view`` the host sent that seat at that version
(the views are built by the same code from the same state; ``bench/records.py`` compares them
with a wire capture).

The API other parts use (docs/architecture.md, "Game records") is small on purpose:
``GameRecord`` (its fields, ``to_wire``/``from_wire``, ``from_table``), ``dumps``/``loads`` (the
file, docs/protocol.md "Record files"), ``Replay`` (``steps``, ``table_at``, ``view``,
``final``) and ``RecordError``.

What a seat may see of a record is decided by its holder, not here: the host gives a record
only once its round is over, and serves the views of a round in play only from the asking
seat (net/host/records.py).

Must not know about: sockets, terminals, the store.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardparty.core.contract import Move, View
from cardparty.core.discovery import Catalog, load_catalog
from cardparty.core.i18n import Msg
from cardparty.core.table import IllegalMove, Table, TableError

#: What a record file says it is (its first field), and the version of its layout.
FORMAT = "cardparty-record"
FORMAT_VERSION = 1
#: The largest record file ``loads`` reads (a long Piquet partie is some 60 kB).
MAX_FILE = 8 * 1024 * 1024
#: Steps a record may hold (every game declares a bound on its moves far below this).
MAX_STEPS = 20_000
#: How often ``Replay`` keeps a copy of the table on its way, so a step back costs at most
#: this many steps replayed.
CHECKPOINT = 32


class RecordError(ValueError):
    """A record that cannot be read or replayed: one line saying why (a Msg, translated
    where it is shown)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a round: ``seat`` played ``move``, or put his hand in ``order`` (a
    reorder, PI-14); ``at``: seconds since the round started (None: not known)."""

    seat: int
    move: Move | None = None
    order: tuple[str, ...] | None = None
    at: float | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "at": self.at}
        if self.move is not None:
            out["move"] = {"kind": self.move.kind, "cards": list(self.move.cards),
                           "choice": self.move.choice}
        else:
            out["order"] = list(self.order or ())
        return out

    @classmethod
    def from_wire(cls, data: Any) -> Step:
        if not isinstance(data, dict) or not isinstance(data.get("seat"), int):
            raise ValueError("a step is a map with a seat")
        at = data.get("at")
        if at is not None and (isinstance(at, bool) or not isinstance(at, int | float)):
            raise ValueError("a step's time is a number")
        if "move" in data:
            return cls(int(data["seat"]), move=Move.from_wire(data["move"]),
                       at=None if at is None else float(at))
        order = data.get("order")
        if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
            raise ValueError("a step is a move or an order of cards")
        return cls(int(data["seat"]), order=tuple(order), at=None if at is None else float(at))


@dataclass(frozen=True)
class GameRecord:
    """One round as data. ``seats``: per seat its ``name``, ``kind`` (human or bot) and, for
    a bot, its ``level``; ``version``: the table's version before the first step (a table's
    versions go on across its rounds); ``paid``: per human seat what the round paid (empty
    where nothing was: practice, a host without an economy); ``started``/``ended``: wall
    clock (seconds since the epoch)."""

    id: str
    game: str
    players: int
    seed: int
    settings: dict[str, Any]
    variants: tuple[str, ...] = ()
    plugins: dict[str, str] = field(default_factory=dict)
    seats: tuple[dict[str, Any], ...] = ()
    steps: tuple[Step, ...] = ()
    version: int = 0
    #: where the version jumped: (steps made, versions skipped), a move taken back
    skips: tuple[tuple[int, int], ...] = ()
    result: dict[str, Any] | None = None
    paid: tuple[dict[str, Any], ...] = ()
    table: str = ""
    title: str = ""
    mode: str = ""
    round: int = 1
    started: float = 0.0
    ended: float = 0.0

    @property
    def names(self) -> list[str]:
        return [str(s.get("name", "")) for s in self.seats]

    @property
    def over(self) -> bool:
        return self.result is not None

    @classmethod
    def from_table(cls, table: Table, *, id: str = "", seats: Sequence[dict[str, Any]] = (),
                   times: Sequence[float | None] = (), started: float = 0.0,
                   ended: float = 0.0, paid: Sequence[dict[str, Any]] = (), table_id: str = "",
                   title: str = "", mode: str = "", round: int = 1) -> GameRecord:
        """The record of ``table`` as it is now (its result None while it is in play).
        ``times``: the wall time of each step, in order (missing ones are unknown)."""
        steps: list[Step] = []
        reorders = list(table.reorders)
        r = 0
        for i, (seat, move) in enumerate(table.journal):
            while r < len(reorders) and reorders[r][0] <= i:
                steps.append(Step(reorders[r][1], order=reorders[r][2]))
                r += 1
            steps.append(Step(seat, move=Move(move.kind, move.cards, move.choice)))
        steps.extend(Step(s, order=o) for _, s, o in reorders[r:])
        timed = [Step(s.seat, s.move, s.order,
                      None if i >= len(times) or times[i] is None or not started
                      else round_time(float(times[i] or 0.0) - started))
                 for i, s in enumerate(steps)]
        result = table.result()
        if not seats:
            seats = [{"name": n, "kind": "human"} for n in table.names]
        return cls(id=id, game=table.game, players=table.players, seed=table.seed,
                   settings=dict(table.settings), variants=tuple(table.variant_ids),
                   plugins=table.plugin_versions(), seats=tuple(dict(s) for s in seats),
                   steps=tuple(timed), skips=tuple(table.skips),
                   version=table.version - len(timed) - sum(by for _, by in table.skips),
                   result=None if result is None else result.to_wire(),
                   paid=tuple(dict(p) for p in paid), table=table_id, title=title, mode=mode,
                   round=round, started=started, ended=ended)

    def to_wire(self) -> dict[str, Any]:
        """The record as a map of plain values (msgpack and JSON carry it as it is)."""
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "id": self.id,
                "game": self.game, "variants": list(self.variants),
                "plugins": dict(self.plugins), "players": self.players, "seed": self.seed,
                "settings": dict(self.settings), "seats": [dict(s) for s in self.seats],
                "version": self.version, "skips": [[at, by] for at, by in self.skips],
                "steps": [s.to_wire() for s in self.steps],
                "result": self.result, "paid": [dict(p) for p in self.paid],
                "table": self.table, "title": self.title, "mode": self.mode,
                "round": self.round, "started": self.started, "ended": self.ended}

    @classmethod
    def from_wire(cls, data: Any) -> GameRecord:
        """A record from a map (a file's, a host's reply); RecordError in one line when it
        is not one this version reads."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(Msg("not a cardparty game record"))
        version = data.get("format_version")
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise RecordError(Msg("the record is of format {found}; this cardparty reads "
                                  "format {known} and older: install a newer cardparty",
                                  found=str(version), known=FORMAT_VERSION))
        try:
            steps = data.get("steps", [])
            if not isinstance(steps, list) or len(steps) > MAX_STEPS:
                raise ValueError("steps must be a list")
            seats = data.get("seats", [])
            if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
                raise ValueError("seats must be a list of maps")
            settings = data["settings"]
            if not isinstance(settings, dict):
                raise ValueError("settings must be a map")
            plugins = data.get("plugins", {})
            if not isinstance(plugins, dict):
                raise ValueError("plugins must be a map")
            result = data.get("result")
            if result is not None and not isinstance(result, dict):
                raise ValueError("result must be a map")
            skips = data.get("skips", [])
            if not isinstance(skips, list) or len(skips) > MAX_STEPS or not all(
                    isinstance(k, list) and len(k) == 2 for k in skips):
                raise ValueError("skips must be a list of [steps, versions]")
            return cls(
                id=str(data.get("id", "")), game=_text(data["game"]),
                players=_int(data["players"]), seed=_int(data["seed"]),
                settings=dict(settings),
                variants=tuple(_text(v) for v in data.get("variants", [])),
                plugins={_text(k): _text(v) for k, v in plugins.items()},
                seats=tuple(dict(s) for s in seats),
                steps=tuple(Step.from_wire(s) for s in steps),
                version=_int(data.get("version", 0)),
                skips=tuple((_int(at), _int(by)) for at, by in skips), result=result,
                paid=tuple(dict(p) for p in data.get("paid", []) if isinstance(p, dict)),
                table=str(data.get("table", "")), title=str(data.get("title", "")),
                mode=str(data.get("mode", "")), round=_int(data.get("round", 1)),
                started=float(data.get("started", 0.0)), ended=float(data.get("ended", 0.0)))
        except RecordError:
            raise
        except (KeyError, ValueError, TypeError) as exc:
            raise RecordError(Msg("the record is damaged: {problem}",
                                  problem=str(exc))) from None


def round_time(seconds: float) -> float:
    """A step's time as a record keeps it (milliseconds)."""
    return round(seconds, 3)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    return value


# --- the file --------------------------------------------------------------------------------

def dumps(record: GameRecord) -> str:
    """The record file: UTF-8 JSON of ``to_wire``, a step a line (docs/protocol.md)."""
    wire = record.to_wire()
    steps = wire.pop("steps")
    head = json.dumps(wire, ensure_ascii=False, sort_keys=False)
    lines = ",\n".join(json.dumps(s, ensure_ascii=False) for s in steps)
    return head[:-1] + ',\n"steps": [\n' + lines + "\n]}\n"


def loads(text: str | bytes) -> GameRecord:
    """A record file read back; RecordError in one line for anything else."""
    if len(text) > MAX_FILE:
        raise RecordError(Msg("the file is larger than a record can be ({n} bytes at most)",
                              n=MAX_FILE))
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise RecordError(Msg("not a cardparty game record (not JSON)")) from None
    return GameRecord.from_wire(data)


# --- the replay ------------------------------------------------------------------------------

class Replay:
    """A record played again, from step 0 (the deal) to ``steps`` (its last).

    ``check`` replays it to the end first: RecordError says, in one line, why it cannot be
    replayed here (its game or a variant not installed, a step the installed plugin refuses,
    a result other than the record's), naming the plugin version that made it and the one
    installed where they differ. The table at any step is reached from the nearest copy kept
    on the way (every ``CHECKPOINT`` steps), so stepping back is cheap."""

    def __init__(self, record: GameRecord, catalog: Catalog | None = None,
                 check: bool = True) -> None:
        self.record = record
        self.catalog = catalog or load_catalog()
        self._kept: dict[int, Table] = {}
        self._table = self._start()
        self._at = 0
        self._kept[0] = self._table.clone()
        if check:
            self.check()

    @property
    def steps(self) -> int:
        return len(self.record.steps)

    def differs(self) -> list[str]:
        """Each plugin of the record whose installed version is another, in words."""
        out = []
        for pid, made in sorted(self.record.plugins.items()):
            here = self.catalog.versions.get(pid)
            if here is not None and made and here != made:
                out.append(f"{pid}: {made} made it, {here or '?'} is installed")
        return out

    def _start(self) -> Table:
        rec = self.record
        for pid in (rec.game, *rec.variants):
            if pid not in self.catalog.plugins:
                made = rec.plugins.get(pid, "")
                raise RecordError(Msg("the record was made with {plugin} ({version}), which "
                                      "is not installed here: install it to replay the record",
                                      plugin=pid, version=made or "?"))
        try:
            table = Table(rec.game, rec.players, rec.settings, rec.variants, rec.seed,
                          rec.names or None, catalog=self.catalog)
        except TableError as exc:
            raise RecordError(self._refused(Msg("its table cannot be opened: {why}",
                                                why=str(exc)))) from None
        table.version = rec.version + self._skipped(0)
        return table

    def _skipped(self, steps: int) -> int:
        """The versions skipped once ``steps`` steps are made (a move taken back there)."""
        return sum(by for at, by in self.record.skips if at == steps)

    def _refused(self, why: Msg) -> Msg:
        differs = self.differs()
        if differs:
            return Msg("the record cannot be replayed with the plugins installed here "
                       "({versions}): {why}", versions="; ".join(differs), why=why)
        return Msg("the record cannot be replayed: {why}", why=why)

    def _step(self, table: Table, index: int) -> None:
        step = self.record.steps[index]
        try:
            if step.move is not None:
                table.play(step.seat, step.move)
            else:
                table.reorder(step.seat, list(step.order or ()))
        except IllegalMove as exc:
            raise RecordError(self._refused(Msg("step {n} ({move}) is refused: {reason}",
                                                n=index + 1, move=str(exc.move.kind),
                                                reason=str(exc.reason)))) from None
        except Exception as exc:
            failed = f"{type(exc).__name__}: {exc}"
            raise RecordError(self._refused(Msg("step {n} failed: {error}", n=index + 1,
                                                error=failed))) from None

    def table_at(self, step: int) -> Table:
        """The table after ``step`` steps (0: as dealt). Read it, never play on it."""
        step = max(0, min(step, self.steps))
        if step < self._at:
            base = max(k for k in self._kept if k <= step)
            self._table, self._at = self._kept[base].clone(), base
        while self._at < step:
            self._step(self._table, self._at)
            self._at += 1
            self._table.version += self._skipped(self._at)
            if self._at % CHECKPOINT == 0 and self._at not in self._kept:
                self._kept[self._at] = self._table.clone()
        return self._table

    def view(self, step: int, seat: int | None) -> View:
        """What ``seat`` (None: a spectator) was shown after ``step`` steps: ``Table.view``."""
        return self.table_at(step).view(seat)

    def final(self) -> Table:
        return self.table_at(self.steps)

    def check(self) -> None:
        """Replayed to the end, with the record's result: RecordError if not."""
        table = self.final()
        got = table.result()
        want = self.record.result
        if want is not None:
            mine = None if got is None else got.to_wire()
            if mine is None or mine["places"] != want.get("places") or (
                    mine["scores"] != want.get("scores")):
                raise RecordError(self._refused(Msg("its replay ends with another result")))
        self.table_at(0)
