"""The requests' TypedDicts (``net/wire/requests.py``) agree with the one declaration of every
request (``protocol.REQUESTS``): the module is what ``typegen`` writes from it, and a request
``check_request`` accepts holds exactly the keys its type names, each value of the type named
(the defaults it fills in too)."""

from __future__ import annotations

from typing import Any, Literal, get_type_hints

import pytest

from cardparty.net.wire import requests, typegen
from cardparty.net.wire.protocol import REQUESTS, check_request, message
from tests.net.shapes import conforms

#: A value each required field takes, by request and field.
REQUIRED: dict[str, dict[str, Any]] = {
    "hello": {"name": "Eva"}, "standby_ok": {"gen": 1},
    "create": {"game": "pika", "players": 2}, "seek": {"game": "pika", "players": 2},
    "buy": {"item": "gold"}, "move": {"move": 3, "rid": 1},
    "reorder": {"order": ["R1"]}, "chat": {"text": "hi"}, "invite": {"names": ["Petr"]},
    "remove": {"seat": 1}, "strangers": {"allow": False},
    "event": {"event": "e1"}, "event_join": {"event": "e1"}, "event_leave": {"event": "e1"},
    "event_start": {"event": "e1"}, "event_deadline": {"event": "e1", "minutes": 5},
    "event_create": {"game": "pika", "players": 2},
    "record": {"id": "r1"}, "review": {"id": "r1"}, "undo_answer": {"agree": True},
}


def test_requests_py_is_what_typegen_writes_from_the_declarations() -> None:
    assert typegen.PATH.read_text(encoding="utf-8") == typegen.source(), (
        "requests.py is stale: python -m cardparty.net.wire.typegen")


@pytest.mark.parametrize("kind", sorted(REQUESTS))
def test_a_checked_request_holds_the_keys_and_types_its_typeddict_names(kind: str) -> None:
    hints = get_type_hints(getattr(requests, typegen.class_name(kind)))
    fields: dict[str, Any] = dict(REQUIRED.get(kind, {}))
    if "table" in REQUESTS[kind] and REQUESTS[kind]["table"].required:
        fields["table"] = "t1"
    req = check_request(message(kind, **fields))
    assert set(req) == set(hints), kind
    for name, value in req.items():
        assert conforms(value, hints[name]), (kind, name, value, hints[name])


def test_a_type_that_disagrees_with_a_checked_value_is_found() -> None:
    """The agreement check itself fails where it must (an int is no str, a str no literal)."""
    assert not conforms(3, str)
    assert not conforms("silver", Literal["gold", "vip"])
    assert not conforms(True, int)
    assert not conforms(None, list[str])
    assert conforms(None, str | None)
