"""The embedding API: one table of one game, driven without any network.

The host node, the bots, the simulator, the benchmarks and the tests all go through this class;
nothing reaches into a plugin's internals. A table owns a PluginManager of its own holding the
game's rules plugin and the variant plugins chosen for it, the game state, a seeded RNG and the
journal (the list of moves played, which with the seed replays the game exactly).

How one move flows: ``play(seat, move)`` -> accept it if it is one of the seat's listed legal
moves, else ask ``cardparty_refusal`` (a refusal raises IllegalMove and changes nothing) ->
``cardparty_apply_move`` changes the state and returns events -> the journal records the move,
the version goes up, the events are kept for whoever asks.

Must not know about: sockets, terminals.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgpack
import pluggy

from cardparty.core import hookspecs
from cardparty.core.contract import (
    SYSTEM,
    Deadline,
    Event,
    GameInfo,
    Move,
    MoveMap,
    Result,
    Setting,
    VariantInfo,
    View,
    Zone,
)
from cardparty.core.discovery import Catalog, add_state_defaults, load_catalog
from cardparty.core.i18n import Msg
from cardparty.core.narrate import named_label, named_summary
from cardparty.core.rng import fresh_seed, new_rng, rng_from_state, rng_state

SAVE_FORMAT = 1
DECK_SETTING = Setting(default=None, kind="cards",
                       help="explicit card order, top first, instead of shuffling")


class IllegalMove(ValueError):
    """A move the rules refuse. ``str()`` names the move and the reason."""

    def __init__(self, move: Move, reason: str, seat: int | None = None) -> None:
        self.move = move
        self.reason = reason
        self.seat = seat
        shown = move.label or f"{move.kind} {' '.join(move.cards)}".strip()
        if move.choice is not None and not move.label:
            shown += f" ({move.choice})"
        #: The sentence as a message (``str()`` of the exception is its English text).
        self.message = Msg("illegal move '{move}': {reason}", move=shown, reason=reason)
        super().__init__(str(self.message))


class TableError(ValueError):
    """A table could not be opened or restored: unknown game, bad setting, corrupt save."""


#: The refusal of a move the game's own rules list but the table does not: a variant took it
#: off the list. The variant's wrapper of ``cardparty_refusal`` may say why in its own words
#: (it finds this refusal as the base game's answer).
BARRED = Msg("a house rule of this table bars that move")


def refusal_by_listing(legal: Sequence[Move], move: Move, own: Sequence[Move] | None = None
                       ) -> str | None:
    """A ``cardparty_refusal`` for games whose legal-move list is complete: pass the hook's
    ``listed`` (the table's list, a variant's moves included) as ``legal``, and the game's
    own list as ``own`` to answer ``BARRED`` for a move a variant took off it."""
    for m in legal:
        if m.same(move):
            return None
    if own is not None and any(m.same(move) for m in own):
        return BARRED
    if not legal:
        return Msg("it is not your turn")
    return Msg("that move is not allowed now")


_MANAGERS: dict[tuple[int, str, tuple[str, ...]], tuple[pluggy.PluginManager, DirectHooks]] = {}


def _no_answer(**_: Any) -> None:
    """What pluggy answers for a firstresult hook nobody implements, without its bookkeeping."""
    return None


class DirectHooks:
    """The rule hooks of one manager, each resolved once into the cheapest correct callable.

    A hook with exactly one implementation, no wrapper, taking every argument of its spec, is
    the implementation's own function: that is all pluggy would call, without its per-call
    bookkeeping (which costs more than a Pika move); a firstresult hook with none answers None,
    as pluggy would. Any other hook (a variant's wrapper, an
    implementation taking fewer arguments, none at all) stays pluggy's caller, so wrappers
    behave exactly as pluggy defines. Call with keyword arguments, as with ``pm.hook``.

    Each attribute is declared with what its hook answers (``hookspecs``). The arguments are
    the spec's, always given by name (a pluggy caller takes nothing else), so they are left
    to the spec; a test holds these declarations to the hooks the spec has.
    """

    cardparty_game_info: Callable[..., list[GameInfo]]
    cardparty_variant_info: Callable[..., list[VariantInfo]]
    cardparty_setup: Callable[..., Any]
    cardparty_opening: Callable[..., list[Event] | None]
    cardparty_to_move: Callable[..., tuple[int, ...]]
    cardparty_legal_moves: Callable[..., list[Move]]
    cardparty_refusal: Callable[..., str | None]
    cardparty_apply_move: Callable[..., list[Event]]
    cardparty_view: Callable[..., View]
    cardparty_zones: Callable[..., list[Zone]]
    cardparty_deadlines: Callable[..., list[Deadline] | None]
    cardparty_result: Callable[..., Result | None]
    cardparty_determinize: Callable[..., Any]
    cardparty_save: Callable[..., dict[str, Any]]
    cardparty_restore: Callable[..., Any]
    cardparty_clone: Callable[..., Any]
    cardparty_reorder: Callable[..., str | None]
    cardparty_describe: Callable[..., str | None]
    cardparty_bot_move: Callable[..., Move | None]
    cardparty_bot_estimate: Callable[..., list[float] | None]
    cardparty_bot_sampler: Callable[..., Callable[[random.Random], Any] | None]
    cardparty_bot_reason: Callable[..., str | None]
    cardparty_bot_rollout: Callable[..., Move | None]
    cardparty_bot_hard_move: Callable[..., Move | None]

    def __init__(self, pm: pluggy.PluginManager) -> None:
        for name in dir(hookspecs):
            if not name.startswith("cardparty_"):
                continue
            caller = getattr(pm.hook, name)
            impls = caller.get_hookimpls()
            spec_args = tuple(caller.spec.argnames) if caller.spec else ()
            direct: Any = caller
            if len(impls) == 1 and not impls[0].wrapper and not impls[0].hookwrapper \
                    and tuple(impls[0].argnames) == spec_args:
                direct = impls[0].function
            elif not impls and caller.spec and caller.spec.opts.get("firstresult"):
                direct = _no_answer           # an optional hook the game leaves out
            setattr(self, name, direct)


def rules_manager(catalog: Catalog, game: str, variants: tuple[str, ...],
                  plugins: tuple[Any, ...]) -> tuple[pluggy.PluginManager, DirectHooks]:
    """The PluginManager holding ``game``'s rules plugin (with the kit's state hooks it lacks,
    see ``GameInfo.state``) and exactly ``variants``, in order.

    Building a manager costs milliseconds (pluggy inspects every hook), which a simulator
    opening thousands of tables cannot pay per table. A manager holds no game state and is never
    changed after it is built, so every table of the same game with the same variants shares
    one; a table with other variants gets another, so a variant never reaches a table that did
    not choose it.
    """
    key = (id(catalog), game, variants)
    found = _MANAGERS.get(key)
    if found is None:
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        pm.register(plugins[0], name=game)
        add_state_defaults(pm, catalog.game(game))
        for name, plugin in zip(variants, plugins[1:], strict=True):
            pm.register(plugin, name=name)
        found = _MANAGERS[key] = (pm, DirectHooks(pm))
    return found


def complete_settings(info: GameInfo, given: dict[str, Any] | None) -> dict[str, Any]:
    """Every declared setting, defaults filled in and bounds checked, plus ``deck``."""
    given = dict(given or {})
    declared = {**info.settings, "deck": DECK_SETTING}
    unknown = set(given) - set(declared)
    if unknown:
        raise TableError(Msg("unknown setting {name} for {game} (settings: {settings})",
                             name=repr(sorted(unknown)[0]), game=info.id,
                             settings=", ".join(sorted(declared))))
    out: dict[str, Any] = {}
    for name, setting in declared.items():
        try:
            out[name] = setting.check(name, given[name]) if name in given else setting.default
        except ValueError as exc:
            raise TableError(exc.args[0]) from None     # a Msg stays one (translated)
    return out


class Table:
    """One game at one table. See the module docstring for how a move flows."""

    def __init__(self, game: str, players: int, settings: dict[str, Any] | None = None,
                 variants: Iterable[str] = (), seed: int | None = None,
                 names: Sequence[str] | None = None, catalog: Catalog | None = None,
                 _state: Any = None) -> None:
        catalog = catalog or load_catalog()
        self.catalog = catalog
        try:
            self.info = catalog.game(game)
            self.variant_ids = tuple(variants)
            variant_plugins = [catalog.plugins[catalog.variant(game, v).id]
                               for v in self.variant_ids]
        except KeyError as exc:
            raise TableError(exc.args[0]) from None
        if len(set(self.variant_ids)) != len(self.variant_ids):
            raise TableError(Msg("a variant is named twice"))
        if not self.info.min_players <= players <= self.info.max_players:
            raise TableError(Msg("{game} is for {least} to {most} players, not {n}",
                                 game=self.info.name, least=self.info.min_players,
                                 most=self.info.max_players, n=players))
        self.game = game
        self.players = players
        self.settings = complete_settings(self.info, settings)
        self.seed = fresh_seed() if seed is None else seed
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(players)]
        if len(self.names) != players:
            raise TableError("one name per seat is needed")
        self.pm, self.hook = rules_manager(catalog, game, self.variant_ids,
                                           (catalog.plugins[game], *variant_plugins))
        self.journal: list[tuple[int, Move]] = []
        #: every reorder (PI-14) as (moves of the journal before it, seat, order): it changes
        #: the version and a seat's view, so a replay (``core.record``) plays it again
        self.reorders: list[tuple[int, int, tuple[str, ...]]] = []
        #: where the version jumped: (steps made, versions skipped) -- a move taken back
        #: (``core.undo``) leaves the table at an earlier step one version on, never back, so
        #: a replay (``core.record``) gives each step the version it was shown with
        self.skips: list[tuple[int, int]] = []
        self.events: list[Event] = []
        self.version = 0
        self._legal_cache: dict[int, list[Move]] = {}
        #: what every seat's view of this version shares: (deadlines, result), on the wire
        self._view_shared: tuple[list[dict[str, Any]], dict[str, Any] | None] | None = None
        #: the seats to move and the deadlines of this version, asked of the game once
        self._to_move: tuple[int, ...] | None = None
        self._deadlines: list[Deadline] | None = None
        if _state is not None:
            self.rng = random.Random(0)      # the caller sets the real state next
            self.state = _state
            return
        self.rng = new_rng(self.seed)
        try:
            self.state = self.hook.cardparty_setup(settings=self.settings, players=players,
                                                   rng=self.rng)
        except ValueError as exc:
            raise TableError(exc.args[0] if exc.args else str(exc)) from None
        # What the deal told (who dealt, the card turned): the events before move one.
        self.events.extend(self.hook.cardparty_opening(state=self.state) or ())

    # --- asking ---------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        """The seats that may move now (empty once the game is over)."""
        found = self._to_move
        if found is None:
            found = self._to_move = tuple(self.hook.cardparty_to_move(state=self.state))
        return found

    def legal_moves(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, labelled. SYSTEM gets the timeout moves."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self.hook.cardparty_legal_moves(state=self.state, seat=seat)
            self._legal_cache[seat] = cached
        return cached

    def refusal(self, seat: int, move: Move) -> str | None:
        """Why ``move`` is illegal for ``seat`` now, or None."""
        legal = self.legal_moves(seat)
        for m in legal:                      # a bot's choice is one of these very objects
            if m is move:
                return None
        for m in legal:
            if m.same(move):
                return None
        if seat != SYSTEM and seat not in self.to_move():
            if not 0 <= seat < self.players:
                return f"there is no seat {seat}"
            return "it is not your turn"
        return self.hook.cardparty_refusal(state=self.state, seat=seat, move=move,
                                           listed=legal)

    def deadlines(self) -> list[Deadline]:
        """The game's deadlines now (the same list until the table changes: read it, never
        change it); the referee and every seat's view ask for them after each move."""
        found = self._deadlines
        if found is None:
            found = self._deadlines = self.hook.cardparty_deadlines(state=self.state) or []
        return found

    def result(self) -> Result | None:
        """The game's result once over, its summary naming the players where the game
        names seats (``narrate.named_summary``: "Eva won", not "seat 0 won")."""
        result = self.hook.cardparty_result(state=self.state)
        if result is None or not result.summary:
            return result
        named = named_summary(result.summary, self.names)
        return result if named is result.summary else dataclasses.replace(result, summary=named)

    def plugin_versions(self) -> dict[str, str]:
        """The version of the game's plugin and of each variant's at this table, by id: the
        package's name and version (``Catalog.versions``; "" where unknown)."""
        versions = self.catalog.versions
        return {pid: versions.get(pid, "") for pid in (self.game, *self.variant_ids)}

    def zones(self) -> list[Zone]:
        return self.hook.cardparty_zones(state=self.state)

    def view(self, seat: int | None) -> View:
        """The generic view of ``seat`` (None: a spectator): the game's part plus the driver's
        (game, version, seat, names, legal moves with ids, deadlines, result)."""
        view = self.hook.cardparty_view(state=self.state, seat=seat)
        view["game"] = self.game
        view["variants"] = list(self.variant_ids)
        view["version"] = self.version
        view["seat"] = seat
        for i, p in enumerate(view.get("players", ())):
            p["name"] = self.names[i]
        # A seat not to move has no moves (the contract of ``cardparty_legal_moves``, checked
        # by the random games' checker): the game is not asked for the three of four seats
        # that wait after every move.
        moves = self.legal_moves(seat) if seat is not None and seat in self.to_move() else []
        view["moves"] = [{**self._move_wire(m), "id": i} for i, m in enumerate(moves)]
        # The deadlines and the result are the same for every seat: asked of the game once
        # per version (a host builds one view per seat after every move).
        shared = self._view_shared
        if shared is None:
            result = self.result()
            shared = self._view_shared = (
                [{"name": d.name, "seat": d.seat, "seconds": d.seconds}
                 for d in self.deadlines()], None if result is None else result.to_wire())
        view["deadlines"] = list(shared[0])
        view["result"] = shared[1]
        return view

    def _move_wire(self, move: Move) -> MoveMap:
        """A listed move as a view carries it: its label naming players where the game's
        label names seats (``narrate.named_label``: "give R5 to Eva", not "to seat 1")."""
        wire = move.to_wire()
        label = move.label
        named = named_label(label, self.names) if label else label
        if named is label:
            return wire
        wire = {**wire, "label": str(named)}
        if isinstance(named, Msg):
            wire["msg"] = named.to_wire()
        return wire

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """Events from index ``since`` as ``seat`` may see them: private cards of other seats
        become a count."""
        return [redact_event(e, seat) for e in self.events[since:]]

    # --- acting ---------------------------------------------------------------------------

    def play(self, seat: int, move: Move) -> list[Event]:
        """Play ``move`` for ``seat``; return its events. Raises IllegalMove (with the reason)
        and leaves the table unchanged if the rules refuse it."""
        reason = self.refusal(seat, move)
        if reason is not None:
            raise IllegalMove(move, reason, seat)
        return self._apply(seat, move)

    def _apply(self, seat: int, move: Move) -> list[Event]:
        events = self.hook.cardparty_apply_move(state=self.state, seat=seat, move=move,
                                                rng=self.rng)
        self.journal.append((seat, move))
        self.version += 1
        self._forget()
        if events:
            self.events.extend(events)
        return events

    def _forget(self) -> None:
        """The table changed: what was asked of the game for the last version is gone."""
        self._legal_cache.clear()
        self._view_shared = None
        self._to_move = None
        self._deadlines = None

    def reorder(self, seat: int, order: list[str]) -> None:
        """Put ``seat``'s hand in the player's own order (PI-14); changes nothing else."""
        reason = self.hook.cardparty_reorder(state=self.state, seat=seat, order=list(order))
        if reason is not None:
            raise IllegalMove(Move("reorder", tuple(order)), reason, seat)
        self.reorders.append((len(self.journal), seat, tuple(order)))
        self._forget()
        self.version += 1

    def determinize(self, seat: int, rng: random.Random) -> Any:
        """A full state consistent with ``seat``'s view, for bots that search."""
        return self.hook.cardparty_determinize(state=self.state, seat=seat, rng=rng)

    def sampler(self, seat: int) -> typing.Callable[[random.Random], Any]:
        """``determinize`` for ``seat`` as a function of an rng, also respecting what the
        seat saw happen (the game's ``cardparty_bot_sampler`` given ``events_for(seat)``):
        asked once, sampled many times by the search bot."""
        made = self.hook.cardparty_bot_sampler(state=self.state, seat=seat,
                                               events=self.events_for(seat))
        if made is not None:
            return made
        return lambda rng: self.determinize(seat, rng)

    def clone(self) -> Table:
        """An independent table at the same point (state, rng, journal, events, version), of
        the same catalog (a game known only to this table's catalog clones too)."""
        state = self.hook.cardparty_clone(state=self.state)
        if state is None:
            state = self.hook.cardparty_restore(data=self.hook.cardparty_save(state=self.state))
        twin = Table(self.game, self.players, self.settings, self.variant_ids, self.seed,
                     self.names, catalog=self.catalog, _state=state)
        twin.rng.setstate(self.rng.getstate())
        twin.journal = list(self.journal)
        twin.reorders = list(self.reorders)
        twin.skips = list(self.skips)
        twin.events = list(self.events)
        twin.version = self.version
        return twin

    # --- saving ---------------------------------------------------------------------------

    def save(self) -> bytes:
        """The whole table as msgpack: restore() gives back an identical table."""
        return msgpack.packb({
            "format": SAVE_FORMAT, "game": self.game, "players": self.players,
            "settings": self.settings, "variants": list(self.variant_ids), "seed": self.seed,
            "names": self.names, "version": self.version,
            "journal": [[s, m.kind, list(m.cards), m.choice] for s, m in self.journal],
            "reorders": [[at, s, list(order)] for at, s, order in self.reorders],
            "skips": [[at, by] for at, by in self.skips],
            "rng": rng_state(self.rng),
            "events": self.events,
            "state": self.hook.cardparty_save(state=self.state),
        }, use_bin_type=True)

    @classmethod
    def restore(cls, blob: bytes, catalog: Catalog | None = None) -> Table:
        """The table ``save()`` wrote. Raises TableError (one line) for a corrupt save."""
        try:
            data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise TableError("not a cardparty table save (or from another version)")
            catalog = catalog or load_catalog()
            game = data["game"]
            _, hooks = rules_manager(catalog, game, (), (catalog.plugins[game],))
            state = hooks.cardparty_restore(data=data["state"])
            table = cls(data["game"], data["players"], data["settings"], data["variants"],
                        data["seed"], data["names"], catalog=catalog, _state=state)
            table.rng = rng_from_state(data["rng"])
            table.journal = [(s, Move(k, tuple(c), ch)) for s, k, c, ch in data["journal"]]
            table.reorders = [(at, s, tuple(order))              # saves made before them
                              for at, s, order in data.get("reorders", ())]
            table.skips = [(at, by) for at, by in data.get("skips", ())]
            table.version = data["version"]
            table.events = list(data.get("events", ()))   # saves made before events travelled
            return table
        except TableError:
            raise
        except Exception as exc:
            raise TableError(f"corrupt table save: {type(exc).__name__}: {exc}") from None

    @classmethod
    def replay(cls, game: str, players: int, seed: int, journal: Iterable[tuple[int, Move]],
               settings: dict[str, Any] | None = None, variants: Iterable[str] = (),
               names: Sequence[str] | None = None) -> Table:
        """Rebuild a table from its seed and journal (each move re-checked as it is played)."""
        table = cls(game, players, settings, variants, seed, names)
        for seat, move in journal:
            table.play(seat, move)
        return table


def redact_event(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may see it: a private event of another seat shows a count only."""
    if not event.get("private") or event.get("seat") == seat:
        return event
    out = typing.cast(Event, {k: v for k, v in event.items() if k != "cards"})
    out["count"] = len(event.get("cards", ()))
    return out


def open_table(game: str, players: int, settings: dict[str, Any] | None = None,
               variants: Iterable[str] = (), seed: int | None = None,
               names: Sequence[str] | None = None) -> Table:
    """Open a table for ``game`` (the embedding API's front door)."""
    return Table(game, players, settings, variants, seed, names)
