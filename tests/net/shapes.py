"""Whether a message is of its declared shape: one checker for every shape test.

The wire's shapes are TypedDicts (``net/wire/requests.py``, ``replies.py``, ``play_replies.py``,
``record_replies.py``, ``event_replies.py``, ``economy_replies.py``, ``protocol.py`` and
``net/peers/messages.py``). A value decoded from msgpack is of a shape when each of its keys
is declared, each key the shape requires is there, and each value is of its declared type,
however deep: ``problems`` names every way it is not, ``held_to`` asserts there is none. A
view and an event are open: a game may add keys of its own to them (docs/protocol.md), so
only their declared keys are checked there (``GAME_KEYED``)."""

from __future__ import annotations

import types
import typing
from typing import (
    Any,
    Literal,
    NotRequired,
    Required,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

from cardparty.core.contract import View, WireEvent

T = TypeVar("T")

#: The shapes a game may add keys to (docs/protocol.md): a key they do not declare is no
#: problem; those they declare are checked as anywhere else.
GAME_KEYED: tuple[Any, ...] = (View, WireEvent)


def required(shape: Any) -> set[str]:
    """The keys the TypedDict ``shape`` requires, read from its declarations: with postponed
    annotations Python 3.11's ``__required_keys__`` misses a ``Required`` key and takes a
    ``NotRequired`` one for required."""
    hints = get_type_hints(shape, include_extras=True)
    return {k for k, hint in hints.items()
            if get_origin(hint) is Required
            or (k in shape.__required_keys__ and get_origin(hint) is not NotRequired)}


def problems(value: Any, shape: Any, where: str = "") -> list[str]:
    """Every way ``value`` is not of the type ``shape``: a key not declared, a required key
    missing, a value of another type, each named by its path (``.seats[1].name``). A union
    takes the option that fits best; an array on the wire is a tuple's shape too."""
    here = where or getattr(shape, "__name__", str(shape))
    if shape is Any or shape is object:
        return []
    if typing.is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{here}: {value!r} is no map"]
        hints = get_type_hints(shape)
        out = [f"{where}.{k}: not declared in {shape.__name__}" for k in value
               if k not in hints and shape not in GAME_KEYED]
        out += [f"{where}.{k}: missing" for k in sorted(required(shape) - set(value))]
        for k, v in value.items():
            if k in hints:
                out += problems(v, hints[k], f"{where}.{k}")
        return out
    origin = get_origin(shape)
    if origin in (typing.Union, types.UnionType):
        found = [problems(value, option, where) for option in get_args(shape)]
        return [] if any(not f for f in found) else min(found, key=len)
    if origin is Literal:
        return [] if value in get_args(shape) else [f"{here}: {value!r} is none of "
                                                    f"{get_args(shape)}"]
    if origin is tuple:
        args = get_args(shape)
        if not isinstance(value, list | tuple) or len(value) != len(args):
            return [f"{here}: {value!r} is no array of {len(args)}"]
        return [p for i, (v, a) in enumerate(zip(value, args, strict=True))
                for p in problems(v, a, f"{where}[{i}]")]
    if origin is list:
        if not isinstance(value, list):
            return [f"{here}: {value!r} is no list"]
        (item,) = get_args(shape)
        return [p for i, x in enumerate(value) for p in problems(x, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{here}: {value!r} is no map"]
        key, item = get_args(shape)
        return [p for k, x in value.items()
                for p in [*problems(k, key, f"{where} key"),
                          *problems(x, item, f"{where}[{k!r}]")]]
    return [] if plain(value, shape) else [f"{here}: {value!r} is no {shape}"]


def plain(value: Any, shape: Any) -> bool:
    """``value`` is of the plain type ``shape`` (None, a class): an int is a float to a type
    checker (PEP 484), and a bool is no int on the wire."""
    if shape is type(None):
        return value is None
    if shape is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if shape is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, shape)


def conforms(value: Any, shape: Any) -> bool:
    """``value`` is of the type ``shape`` (``problems`` finds nothing)."""
    return not problems(value, shape)


def held_to(value: T, shape: Any) -> T:
    """``value``, after asserting it is of the type ``shape`` (a failure names every
    problem)."""
    found = problems(value, shape)
    assert not found, found
    return value
