"""Messages made and sent again and again (every move label, every event told): a text is
parsed once and a message's wire map kept, and neither may change what is said or sent."""

from __future__ import annotations

from cardparty.core.i18n import Msg, plural_msg, translate


def test_fields_escapes_and_missing_parameters_read_as_before() -> None:
    assert Msg("{who} plays {card}", who="Eva", card="R7") == "Eva plays R7"
    assert Msg("{{literal}} and {who}", who="Eva") == "{literal} and Eva"
    assert Msg("{who} and {nobody}", who="Eva") == "Eva and {nobody}"
    assert Msg("no fields }} here") == "no fields }} here"
    assert Msg("{a}{b}", a=1, b=None) == "1{b}"
    # The same text parsed once serves every message made of it.
    assert Msg("{who} plays {card}", who="Jan", card="G2") == "Jan plays G2"


def test_a_nested_message_is_said_in_the_language_asked() -> None:
    m = Msg("{said} ({cards})", said=plural_msg("{who} takes {n} card", "{who} takes {n} cards",
                                                2, who="Eva"), cards="R1 R2")
    assert m == "Eva takes 2 cards (R1 R2)"
    assert translate(m, "en") == "Eva takes 2 cards (R1 R2)"


def test_equal_messages_give_equal_maps_and_kept_maps_never_mix_kinds() -> None:
    a = Msg("play {card}", card="R6").to_wire()
    assert a == {"id": "play {card}", "p": {"card": "R6"}}
    assert Msg("play {card}", card="R6").to_wire() == a
    assert Msg("play {card}", card="R7").to_wire()["p"] == {"card": "R7"}
    # A number, a float and a word that read alike stay what they are on the wire.
    assert Msg("{n} left", n=1).to_wire()["p"] == {"n": 1}
    assert type(Msg("{n} left", n=1.0).to_wire()["p"]["n"]) is float
    assert Msg("{n} left", n=True).to_wire()["p"] == {"n": "True"}
    # A nested message is sent as its map, never as a kept map of its English text.
    nested = Msg("{said}!", said=Msg("go {x}", x="home")).to_wire()
    assert nested["p"]["said"] == {"id": "go {x}", "p": {"x": "home"}}
    assert Msg("{said}!", said="go home").to_wire()["p"]["said"] == "go home"
    plural = plural_msg("{n} card", "{n} cards", 3).to_wire()
    assert plural == {"id": "{n} card", "p": {"n": 3}, "pl": "{n} cards", "n": 3}
    assert plural_msg("{n} card", "{n} cards", 1).to_wire()["n"] == 1
