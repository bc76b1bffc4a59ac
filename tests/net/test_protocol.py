"""The codec and the schema: what a host accepts from a client, and the error for the rest."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardparty.net.wire.protocol import (
    ERRORS,
    MAX_FRAME,
    PROTOCOL,
    REQUESTS,
    ProtocolError,
    check_request,
    decode,
    encode,
    message,
)


def code_of(frame: bytes) -> str:
    with pytest.raises(ProtocolError) as info:
        check_request(decode(frame))
    return info.value.code


def test_every_message_is_a_map_with_a_type_and_the_protocol_version() -> None:
    data = decode(encode({"type": "ping"}))
    assert data == {"type": "ping", "v": PROTOCOL}
    assert message("games", rid=3) == {"type": "games", "v": PROTOCOL, "rid": 3}


def test_ext_types_and_timestamps_are_refused() -> None:
    assert code_of(msgpack.packb({"type": "ping", "v": 1, "x": msgpack.ExtType(3, b"a")})
                   ) == "malformed"
    assert code_of(msgpack.packb({"type": "ping", "v": 1, "x": msgpack.Timestamp(1, 2)})
                   ) == "malformed"


def test_a_frame_over_the_limit_is_too_big_and_never_unpacked() -> None:
    assert code_of(b"\x91" * (MAX_FRAME + 1)) == "too_big"


def test_a_string_header_claiming_gigabytes_is_malformed_not_a_huge_allocation() -> None:
    assert code_of(b"\x81\xa4type\xdb\xff\xff\xff\xff" + b"x" * 16) == "malformed"
    assert code_of(b"\xdd\xff\xff\xff\xff") == "malformed"       # array of 2**32-1 items


def test_deep_nesting_and_trailing_bytes_are_malformed() -> None:
    assert code_of(b"\x91" * 5000) == "malformed"
    assert code_of(encode({"type": "ping"}) + b"\x00") == "malformed"


def test_not_a_map_non_string_keys_and_missing_type() -> None:
    assert code_of(msgpack.packb([1, 2])) == "malformed"
    assert code_of(msgpack.packb({1: 2})) == "malformed"
    assert code_of(msgpack.packb({"v": 1})) == "bad_field"


def test_map_keys_must_be_strings_anywhere_as_the_doc_says() -> None:
    """docs/protocol.md: map keys must be strings, anywhere in a frame; binary keys were
    accepted (issue 25, item 7)."""
    assert code_of(msgpack.packb({b"type": "ping", "v": 1})) == "malformed"
    assert code_of(msgpack.packb({"type": "ping", "v": 1, b"x": 1})) == "malformed"
    assert code_of(msgpack.packb({"type": "move", "v": 1, "rid": 1, "table": "t1",
                                  "move": {"kind": "play", b"cards": []}})) == "malformed"
    assert code_of(msgpack.packb({"type": "ping", "v": 1,
                                  "x": [[{"y": {b"deep": 1}}]]})) == "malformed"
    # binary values stay allowed, and so do strings whose bytes look like binary's markers
    assert decode(msgpack.packb({"type": "ping", "v": 1, "x": b"\x00\xff"}))["x"] == b"\x00\xff"
    assert decode(encode({"type": "chat", "text": "Ąņƈ č", "m": {"Ą": "ņ"}}))["m"] == {"Ą": "ņ"}


@pytest.mark.parametrize("version", [1.0, True, "1", [1]])
def test_the_version_is_the_whole_number_1_not_something_equal_to_it(version: object) -> None:
    """``v: 1.0`` and ``v: true`` were accepted (1.0 == True == 1 in Python)."""
    with pytest.raises(ProtocolError) as info:
        decode(msgpack.packb({"type": "ping", "v": version}))
    assert info.value.code == "version"


def test_another_protocol_version_is_refused_by_name() -> None:
    with pytest.raises(ProtocolError) as info:
        decode(msgpack.packb({"type": "ping", "v": 99}))
    assert info.value.code == "version" and "99" in info.value.message


def test_unknown_types_missing_fields_and_wrong_types_get_their_codes() -> None:
    assert code_of(encode({"type": "teleport"})) == "unknown_type"
    assert code_of(encode({"type": "hello"})) == "bad_field"
    assert code_of(encode({"type": "hello", "name": 7})) == "bad_field"
    assert code_of(encode({"type": "hello", "name": "x" * 33})) == "bad_field"
    assert code_of(encode({"type": "create", "game": "pika", "players": True})) == "bad_field"
    assert code_of(encode({"type": "move", "table": "t1", "move": 0})) == "bad_field"  # no rid
    assert code_of(encode({"type": "move", "table": "t1", "move": -1, "rid": 1})) == "bad_field"
    assert code_of(encode({"type": "chat", "table": "t1", "text": ""})) == "bad_field"
    with pytest.raises(ProtocolError) as info:
        check_request(decode(encode({"type": "sit", "table": 5})))
    assert "table" in info.value.message


def test_defaults_are_filled_and_unknown_extra_fields_ignored() -> None:
    req = check_request(decode(encode({"type": "create", "game": "pika", "players": 2,
                                       "future": "field"})))
    assert req["settings"] == {} and req["variants"] == [] and req["idle"] == -1.0
    assert "future" not in req and req["rid"] is None


def test_every_error_code_is_documented_in_docs_protocol() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    for code in ERRORS:
        assert f"`{code}`" in doc, code
    for kind in REQUESTS:
        assert f"`{kind}`" in doc, kind


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_decode_to_a_checked_request_or_a_protocol_error(frame: bytes) -> None:
    try:
        check_request(decode(frame))
    except ProtocolError as exc:
        assert exc.code in ERRORS


values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats() | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=10)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(REQUESTS)), st.dictionaries(st.text(max_size=10), values,
                                                          max_size=6))
def test_any_fields_on_any_request_type_are_accepted_or_refused_with_a_code(
        kind: str, fields: dict) -> None:
    try:
        check_request(decode(encode({**fields, "type": kind, "v": PROTOCOL})))
    except ProtocolError as exc:
        assert exc.code in ERRORS


def test_a_message_that_cannot_be_packed_leaves_the_next_one_clean() -> None:
    """``encode`` reuses one Packer per thread: a failed pack must not leave bytes behind."""
    with pytest.raises(TypeError):
        encode({"type": "chat", "text": object()})
    assert decode(encode({"type": "ping"}))["type"] == "ping"
