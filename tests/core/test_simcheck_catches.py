"""The random-simulation checker is only worth its green runs if it goes red on a broken game:
each test here installs a deliberately broken variant of Pika and expects the failure, with the
seed and move number to replay it."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

import pytest

from cardparty.core.contract import Move, VariantInfo
from cardparty.core.discovery import load_catalog
from cardparty.core.hookspecs import hookimpl
from cardparty.core.simcheck import check_random_games, is_competition_ranking
from cardparty.core.simulate import SimulationFailure


class LeakyView:
    """Shows seat 0's hand to everybody."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-leak", "pika", "leak")

    @hookimpl(wrapper=True)
    def cardparty_view(self, state: Any, seat: int | None) -> Generator[None, dict, dict]:
        view = yield
        view["zones"]["peek"] = list(state.hands[0])
        return view


class LosesCards:
    """Every draw throws a stock card away."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-lose", "pika", "lose")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, list, list]:
        events = yield
        if move.kind == "draw" and state.stock:
            state.stock.pop()
        return events


class RefusesItsOwnListing:
    """Lists draw moves but refuses them when asked directly."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-refusal", "pika", "refusal")

    @hookimpl(wrapper=True)
    def cardparty_refusal(self, state: Any, seat: int, move: Move
                          ) -> Generator[None, str | None, str | None]:
        reason = yield
        return "no drawing today" if move.kind == "draw" else reason


class PublicDraws:
    """Announces drawn cards to everybody."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-event", "pika", "event")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, list, list]:
        events = yield
        for e in events:
            e.pop("private", None)
        return events


@pytest.fixture
def broken() -> Iterator[None]:
    catalog = load_catalog()
    plugins = [LeakyView(), LosesCards(), RefusesItsOwnListing(), PublicDraws()]
    for plugin in plugins:
        catalog.add(plugin)
    yield
    for vid in ("broken-leak", "broken-lose", "broken-refusal", "broken-event"):
        catalog.variants.pop(vid, None)
        catalog.plugins.pop(vid, None)


@pytest.mark.parametrize(("variant", "message"), [
    ("broken-leak", "shows cards it may not see"),
    ("broken-lose", "cards created or lost"),
    ("broken-refusal", "is refused: no drawing today"),
    ("broken-event", "shows hidden cards"),
])
def test_the_checker_catches_a_broken_game(broken: None, variant: str, message: str) -> None:
    with pytest.raises(SimulationFailure, match=message) as caught:
        check_random_games("pika", 3, 20, seed=100, variants=[variant])
    assert caught.value.seed >= 100 and caught.value.move_no >= 0
    assert f"seed={caught.value.seed}" in str(caught.value)


# --- Piquet's spoken declarations (PQ-16): what a player sinks is never shown ----------------

class ShowsSunkPoints:
    """When a point scores, shows the scorer's whole suit: a point sunk to fewer cards gives
    its other cards away, with no event saying so."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-sunk", "piquet", "sunk")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, list, list]:
        events = yield
        for e in events:
            if e.get("type") == "score" and e.get("category") == "point":
                suit = e["combination"]["suit"]
                shown = state.shown[e["seat"]]
                shown += [c for c in state.hands[e["seat"]] if c[1] == suit and c not in shown]
        return events


class TellsTheClaims:
    """Puts elder's spoken claims, cards and all, into every view."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-claims", "piquet", "claims")

    @hookimpl(wrapper=True)
    def cardparty_view(self, state: Any, seat: int | None) -> Generator[None, dict, dict]:
        view = yield
        view["claims"] = [list(c) for c in state.claims if c]
        return view


class SaysTooMuch:
    """Each spoken declaration also names the speaker's lowest cards, in a field of its own."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-say", "piquet", "say")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, list, list]:
        events = yield
        for e in events:
            if e.get("type") == "say":
                e["aside"] = {"held": sorted(state.hands[e["seat"]])[:2]}
        return events


@pytest.fixture
def broken_piquet() -> Iterator[None]:
    catalog = load_catalog()
    for plugin in (ShowsSunkPoints(), TellsTheClaims(), SaysTooMuch()):
        catalog.add(plugin)
    yield
    for vid in ("broken-sunk", "broken-claims", "broken-say"):
        catalog.variants.pop(vid, None)
        catalog.plugins.pop(vid, None)


@pytest.mark.parametrize(("variant", "message"), [
    ("broken-sunk", "cards became public with no event naming them"),
    ("broken-claims", "shows cards it may not see: .* \\(outside its card zones\\)"),
    ("broken-say", "event say shows hidden cards"),
])
def test_the_checker_catches_piquet_showing_what_a_player_sank_or_holds(
        broken_piquet: None, variant: str, message: str) -> None:
    """Spoken declarations with random sinking (the classic laws): the checker goes red when a
    sunk combination's cards, or any card of the other hand, reach a view or an event."""
    with pytest.raises(SimulationFailure, match=message) as caught:
        check_random_games("piquet", 2, 60, seed=300, settings={"deals": 1},
                           variants=["piquet-classic", variant])
    assert f"seed={caught.value.seed}" in str(caught.value)


def test_the_same_piquet_tables_pass_unbroken() -> None:
    report = check_random_games("piquet", 2, 60, seed=300, settings={"deals": 1},
                                variants=["piquet-classic"])
    assert report.games == 60


def test_competition_rankings() -> None:
    assert is_competition_ranking([1, 1, 3])
    assert is_competition_ranking([2, 1, 2])
    assert not is_competition_ranking([1, 3])
    assert not is_competition_ranking([2, 2])
    assert not is_competition_ranking([1, 1, 2])
