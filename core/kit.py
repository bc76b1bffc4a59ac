"""The kit for game authors: what every game would otherwise write again.

Owns: game states built from declared fields (``game_state``: slots, copying, saving to and
restoring from msgpack-ready data, all read from the class's annotations), the default
save/restore/clone/reorder hooks (``state_hooks``), redealing the cards a seat cannot see for
``cardparty_determinize`` (``redeal``), the first dealer (``pick_dealer``), and competition
places (``competition_places``, ``finishing_places``).

A game declares its state once, as annotated fields, and gets the rest::

    @game_state
    class MyState:
        n: int
        hands: list[list[str]]
        stock: list[str]
        places: list[int] | None

    GameInfo("mygame", "My game", 2, 4, state=MyState)   # in cardparty_game_info

A game whose ``GameInfo.state`` names its state class gets the default ``cardparty_save``,
``cardparty_restore``, ``cardparty_clone`` and ``cardparty_reorder`` (``state_hooks``) for
every one of them it does not implement itself.

How a field is copied and saved follows its annotation (``| None`` allowed on any of them):
``list[list[...]]`` copies each inner list; ``list[tuple[...]]`` copies the list and saves the
tuples as lists (msgpack has no tuples) and restores them as tuples; any other ``list[...]``
or ``dict[...]`` is copied one level; a class with ``to_data`` (a frozen record of the game's
own) saves through it and restores through its ``from_data`` or its constructor; anything else
(ints, strings, bools) is shared, being immutable. Values inside the containers are shared:
keep them immutable (strings, tuples, frozen records).

Must not know about: any particular game, the table driver, sockets, terminals.
"""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Callable, Container, Sequence
from types import SimpleNamespace
from typing import Any, ClassVar, NamedTuple, Protocol, Self, TypeVar

from cardparty.core.cards import reorder_hand
from cardparty.core.contract import StateClass
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg

S = TypeVar("S")

# How one field is copied and saved, by the shape of its annotation.
VALUE = "value"          # immutable: shared by copies, saved as it is
FLAT = "flat"            # list[...] or dict[...]: copied one level
NESTED = "nested"        # list[list[...]]: each inner list copied
TUPLES = "tuples"        # list[tuple[...]]: copied one level, saved as lists of lists
RECORD = "record"        # a class with to_data: saved through it


def _shape(hint: Any) -> tuple[str, type | None]:
    """The copy-and-save kind of one annotation, with the container (list or dict) for FLAT
    and TUPLES, and the record class for RECORD."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(inner) != 1:
            return VALUE, None
        return _shape(inner[0])
    if origin is list:
        args = typing.get_args(hint)
        item = typing.get_origin(args[0]) if args else None
        if item is list:
            return NESTED, list
        if item is tuple:
            return TUPLES, list
        return FLAT, list
    if origin is dict or hint is dict:
        return FLAT, dict
    if hint is list:
        return FLAT, list
    if isinstance(hint, type) and hasattr(hint, "to_data"):
        return RECORD, hint
    return VALUE, None


class GameState:
    """What ``@game_state`` gives a state class, declared for a type checker.

    A game's state class subclasses it (``class PiquetState(GameState)``) so that the methods
    the decorator adds are known to be there (``state.copy()`` in ``cardparty_determinize``);
    the decorator adds them whether the class subclasses it or not, so a game without a type
    checker may leave it out. Its methods here only say what the decorator's do."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def copy(self) -> Self:
        """An independent copy: every list this state owns is new."""
        raise NotImplementedError("a state class gets copy() from @game_state")

    def to_data(self) -> dict[str, Any]:
        """The state as msgpack-ready data, one entry per field."""
        raise NotImplementedError("a state class gets to_data() from @game_state")

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        """The state ``to_data`` wrote."""
        raise NotImplementedError("a state class gets from_data() from @game_state")


class _Fields(NamedTuple):
    """A state class's fields, grouped by how each is copied and saved (``_shape``)."""

    names: tuple[str, ...]                      # every field, in declaration order
    values: tuple[str, ...]                     # shared by copies (VALUE, RECORD)
    flats: tuple[tuple[str, type], ...]         # copied one level, with their container
    nested: tuple[str, ...]                     # each inner list copied
    tuples: tuple[str, ...]                     # saved as lists of lists
    records: tuple[tuple[str, type | None], ...]  # saved through their to_data


def _fields_of(cls: type) -> _Fields:
    """The annotated fields of ``cls`` itself (not of its bases; ClassVars left out)."""
    # each class of the MRO read in its own module (``GameState``'s ClassVar in the kit's)
    hints = typing.get_type_hints(cls)
    names = tuple(n for n in cls.__dict__.get("__annotations__", {})
                  if typing.get_origin(hints[n]) is not typing.ClassVar)
    shapes = {n: _shape(hints[n]) for n in names}
    return _Fields(
        names=names,
        values=tuple(n for n in names if shapes[n][0] in (VALUE, RECORD)),
        flats=tuple((n, kind) for n in names
                    if shapes[n][0] in (FLAT, TUPLES) and (kind := shapes[n][1]) is not None),
        nested=tuple(n for n in names if shapes[n][0] == NESTED),
        tuples=tuple(n for n in names if shapes[n][0] == TUPLES),
        records=tuple((n, shapes[n][1]) for n in names if shapes[n][0] == RECORD))


def _copier(fields: _Fields) -> Callable[[Any], Any]:
    values, flats, nested = fields.values, fields.flats, fields.nested

    def copy(self: Any) -> Any:
        """An independent copy: every list this state owns is new (hot in bot search)."""
        twin = self.__class__.__new__(self.__class__)
        for name in values:
            setattr(twin, name, getattr(self, name))
        for name, kind in flats:
            v = getattr(self, name)
            setattr(twin, name, None if v is None else kind(v))
        for name in nested:
            v = getattr(self, name)
            setattr(twin, name, None if v is None else [list(x) for x in v])
        return twin

    return copy


def _saver(fields: _Fields) -> Callable[[Any], dict[str, Any]]:
    names, tuples, records = fields.names, fields.tuples, fields.records

    def to_data(self: Any) -> dict[str, Any]:
        """The state as msgpack-ready data, one entry per field."""
        data = {name: getattr(self, name) for name in names}
        for name in tuples:
            v = data[name]
            data[name] = None if v is None else [list(x) for x in v]
        for name, _ in records:
            v = data[name]
            data[name] = None if v is None else v.to_data()
        return data

    return to_data


def _loader(fields: _Fields) -> Callable[[type[Any], dict[str, Any]], Any]:
    names, tuples, records = fields.names, fields.tuples, fields.records

    def from_data(klass: type[Any], data: dict[str, Any]) -> Any:
        """The state ``to_data`` wrote; a missing field is a corrupt save (KeyError)."""
        state = object.__new__(klass)
        for name in names:
            setattr(state, name, data[name])
        for name in tuples:
            v = data[name]
            setattr(state, name, None if v is None else [tuple(x) for x in v])
        for name, record in records:
            v = data[name]
            maker = getattr(record, "from_data", None) or (lambda d, r=record: r(**d))
            setattr(state, name, None if v is None else maker(v))
        return state.copy()

    return from_data


def game_state(cls: type[S]) -> type[S]:
    """Make ``cls`` a game state from its annotated fields (see the module docstring).

    The class is rebuilt with ``__slots__`` (one per field, in declaration order), ``FIELDS``,
    and the methods ``copy()``, ``to_data()`` and the classmethod ``from_data(data)``; a
    method the class defines itself is kept (a game may refine one).
    """
    fields = _fields_of(cls)
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = fields.names
    namespace["FIELDS"] = fields.names
    namespace.setdefault("copy", _copier(fields))
    namespace.setdefault("to_data", _saver(fields))
    namespace.setdefault("from_data", classmethod(_loader(fields)))
    metaclass: type = type(cls)        # the class's own metaclass makes the new class
    return typing.cast(type[S], metaclass(cls.__name__, cls.__bases__, namespace))


STATE_HOOKS = ("cardparty_save", "cardparty_restore", "cardparty_clone", "cardparty_reorder")


def state_hooks(cls: StateClass) -> tuple[Callable[..., Any], ...]:
    """The default ``cardparty_save``, ``cardparty_restore``, ``cardparty_clone`` and
    ``cardparty_reorder`` for a ``game_state`` class, as hook implementations (in the order of
    ``STATE_HOOKS``). ``default_hooks`` is how tables get them. Reorder works on
    ``state.hands`` (PI-14, and the same in every game): only the order of the seat's own hand
    changes."""

    @hookimpl(specname="cardparty_save")
    def save(state: Any) -> dict[str, Any]:
        return typing.cast(dict[str, Any], state.to_data())

    @hookimpl(specname="cardparty_restore")
    def restore(data: dict[str, Any]) -> Any:
        return cls.from_data(data)

    @hookimpl(specname="cardparty_clone")
    def clone(state: Any) -> Any:
        return state.copy()

    @hookimpl(specname="cardparty_reorder")
    def reorder(state: Any, seat: int, order: list[str]) -> str | None:
        return reorder_hand(state.hands, seat, order)

    return save, restore, clone, reorder


def default_hooks(cls: StateClass, implemented: Container[str]) -> SimpleNamespace:
    """A plugin object holding the ``state_hooks`` of ``cls`` that are not ``implemented``
    (hook names the game provides itself), for a rules PluginManager to register after the
    game: the game's own hook always wins, and a hook is never answered twice."""
    hooks = dict(zip(STATE_HOOKS, state_hooks(cls), strict=True))
    return SimpleNamespace(**{k: v for k, v in hooks.items() if k not in implemented})


def pick_dealer(settings: dict[str, Any], players: int, rng: random.Random) -> int:
    """The seat the table's ``dealer`` setting names, or one drawn from ``rng`` when it is -1
    (the usual default). ValueError, naming the setting, when the table has no such seat."""
    dealer = int(settings["dealer"])
    if dealer >= players:
        raise ValueError(Msg("setting dealer: there is no seat {seat} at a {n}-seat table",
                             seat=dealer, n=players))
    return rng.randrange(players) if dealer < 0 else dealer


def redeal(rng: random.Random, zones: Sequence[list[str]],
           fixed: Sequence[Container[int]] | None = None) -> None:
    """Shuffle together every card of ``zones`` a seat cannot see and deal them back, in place,
    each zone keeping its size: the heart of ``cardparty_determinize``.

    ``zones`` are the state copy's own lists (another seat's hand, the stock, blind cards).
    ``fixed[k]``, when given, holds positions of zone k the seat can see (a shown card, the
    stock's shown bottom card): they stay where they are. The pool is sorted before it is
    shuffled, so the result depends on what the seat sees and the rng, never on where the
    hidden cards really lie (a bot must not learn the deal from its samples); zones are dealt
    back in the order given, so a game's determinize replays exactly from the same rng.
    """
    none: tuple[int, ...] = ()
    keep = fixed if fixed is not None else [none] * len(zones)
    pool = [c for zone, kept in zip(zones, keep, strict=True)
            for i, c in enumerate(zone) if i not in kept]
    pool.sort()
    rng.shuffle(pool)
    it = iter(pool)
    for zone, kept in zip(zones, keep, strict=True):
        zone[:] = [c if i in kept else next(it) for i, c in enumerate(zone)]


class Ordered(Protocol):
    """A sort key: anything ``<`` compares (numbers, strings, tuples of them)."""

    def __lt__(self, other: Any, /) -> bool: ...


def competition_places(keys: Sequence[Ordered]) -> list[int]:
    """Places from one sort key per seat, lower is better, as a competition ranking: tied seats
    share a place and the next place skips (keys 0, 0, 5 give places 1, 1, 3)."""
    return [1 + sum(other < mine for other in keys) for mine in keys]


def finishing_places(n: int, finished: Sequence[int],
                     rest: Callable[[int], Any] | None = None) -> list[int]:
    """Places when seats finish one by one: the finishers in their order (1, 2, ...), then the
    seats still playing, ranked among themselves by ``rest(seat)`` (lower is better) or all
    sharing the next place when ``rest`` is None."""
    order = {s: i for i, s in enumerate(finished)}
    base = len(finished)
    keys = [(order[s], 0) if s in order else (base, rest(s) if rest else 0) for s in range(n)]
    return competition_places(keys)
