"""The game kit (``cardparty.core.kit``): states from declared fields, the default hooks, the
redeal behind determinize, and competition places. Each test would fail if the kit shared a
list between copies, lost a field on the way through msgpack, moved a card a seat can see, or
ranked ties other than 1, 1, 3."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import msgpack

from cardparty.core.discovery import Catalog
from cardparty.core.hookspecs import hookimpl
from cardparty.core.kit import (
    GameState,
    competition_places,
    finishing_places,
    game_state,
    redeal,
    state_hooks,
)
from cardparty.core.table import Table
from tests.core.plugins import tiny


@dataclass(frozen=True, slots=True)
class Laws:
    limit: int = 3

    def to_data(self) -> dict[str, Any]:
        return {"limit": self.limit}


@game_state
class Sample:
    n: int
    hands: list[list[str]]
    stock: list[str]
    places: list[int] | None
    log: list[tuple[int, str]]
    laws: Laws
    drawn: str | None


def sample() -> Any:
    return Sample.from_data({"n": 2, "hands": [["AS", "KH"], ["2C"]], "stock": ["3D", "4D"],
                             "places": None, "log": [(0, "deal")], "laws": Laws(5).to_data(),
                             "drawn": None})


@game_state
class Declared(GameState):
    """A state that says, for a type checker, what the decorator gives it."""

    n: int
    hands: list[list[str]]


def test_a_state_subclassing_game_state_gets_the_kits_methods_and_stays_slotted() -> None:
    state = Declared.from_data({"n": 1, "hands": [["AS"], []]})
    twin = state.copy()
    twin.hands[0].append("KH")
    assert state.hands == [["AS"], []] and twin.to_data() == {"n": 1, "hands": [["AS", "KH"], []]}
    assert Declared.FIELDS == ("n", "hands") and GameState.FIELDS == ()
    assert not hasattr(state, "__dict__")


def test_a_state_has_slots_and_fields_in_declaration_order() -> None:
    assert Sample.FIELDS == ("n", "hands", "stock", "places", "log", "laws", "drawn")
    assert Sample.__slots__ == Sample.FIELDS
    state = sample()
    assert not hasattr(state, "__dict__")


def test_a_copy_shares_no_list_with_its_original() -> None:
    state = sample()
    twin = state.copy()
    twin.hands[0].append("QS")
    twin.stock.pop()
    twin.log.append((1, "play"))
    assert state.hands == [["AS", "KH"], ["2C"]]
    assert state.stock == ["3D", "4D"]
    assert state.log == [(0, "deal")]
    state.places = [1, 2]
    assert state.copy().places == [1, 2] and state.copy().places is not state.places


def test_saving_goes_through_msgpack_and_back_unchanged() -> None:
    state = sample()
    blob = msgpack.packb(state.to_data(), use_bin_type=True)
    back = Sample.from_data(msgpack.unpackb(blob, raw=False))
    assert back.to_data() == state.to_data()
    assert back.log == [(0, "deal")] and isinstance(back.log[0], tuple)
    assert back.laws == Laws(5)


def test_the_default_hooks_save_restore_clone_and_reorder() -> None:
    save, restore, clone, reorder = state_hooks(Sample)
    state = sample()
    assert restore(save(state)).to_data() == state.to_data()
    assert clone(state).hands is not state.hands
    assert reorder(state, 0, ["KH", "AS"]) is None
    assert state.hands[0] == ["KH", "AS"]
    assert reorder(state, 0, ["KH", "QS"]) == "the new order must hold exactly the cards of " \
        "your hand"
    assert [f.cardparty_impl["specname"] for f in (save, restore, clone, reorder)] == [
        "cardparty_save", "cardparty_restore", "cardparty_clone", "cardparty_reorder"]


def test_redeal_keeps_sizes_cards_and_fixed_positions() -> None:
    hand = ["AS", "KS", "QS", "JS"]
    stock = ["2H", "3H", "4H"]
    before = Counter(hand + stock)
    seen = {1, 3}
    moved = False
    for seed in range(20):
        h, s = list(hand), list(stock)
        redeal(random.Random(seed), [h, s], [seen, {0}])
        assert len(h) == 4 and len(s) == 3
        assert Counter(h + s) == before
        assert h[1] == "KS" and h[3] == "JS" and s[0] == "2H"
        moved = moved or h != hand
    assert moved


def test_redeal_replays_from_the_same_rng() -> None:
    a, b = [["1", "2", "3"], ["4", "5"]], [["1", "2", "3"], ["4", "5"]]
    redeal(random.Random(7), a)
    redeal(random.Random(7), b)
    assert a == b


def test_competition_places_share_ties_and_skip() -> None:
    assert competition_places([0, 0, 5]) == [1, 1, 3]
    assert competition_places([3, 1, 2, 1]) == [4, 1, 3, 1]


def test_finishing_places_rank_the_rest_after_the_finishers() -> None:
    assert finishing_places(4, [2, 0]) == [2, 3, 1, 3]
    cards = {1: 5, 3: 2}
    assert finishing_places(4, [2, 0], cards.__getitem__) == [2, 4, 1, 3]
    assert finishing_places(3, [], lambda s: 1) == [1, 1, 1]


def test_a_game_declaring_its_state_gets_the_kit_hooks_and_its_own_hook_wins() -> None:
    plain = Catalog()
    plain.add(tiny)
    table = Table("tiny", 2, seed=1, catalog=plain)
    assert table.hook.cardparty_save(state=table.state) == table.state.to_data()
    assert table.clone().state.to_data() == table.state.to_data()
    assert table.hook.cardparty_reorder(state=table.state, seat=0, order=["AS"]) is not None

    cloned: list[int] = []

    @hookimpl
    def cardparty_clone(state: Any) -> Any:
        cloned.append(1)
        return state.copy()

    hooks = {n: getattr(tiny, n) for n in dir(tiny) if n.startswith("cardparty_")}
    own = Catalog()
    own.add(SimpleNamespace(**{**hooks, "cardparty_clone": cardparty_clone}), "tiny-own")
    table = Table("tiny", 2, seed=1, catalog=own)
    table.clone()
    assert cloned == [1]
    assert len(table.pm.hook.cardparty_clone.get_hookimpls()) == 1
    assert len(table.pm.hook.cardparty_save.get_hookimpls()) == 1
