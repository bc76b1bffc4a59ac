"""What an author meets writing a game and a variant from the guide alone, each as a test:
knowledge some seats share, what the checker holds a view and an event to, a variant that adds
a move, a label that names a player, and ``determinize`` held to honesty.

The games are small real plugins (tests/core/plugins: ``passing``, a trick-taking game with a
simultaneous pass, and ``pika_gift``, a Pika house rule that adds a move), added to the
catalog as a package's entry point would add them; the broken variants below each break one
rule the checker must catch."""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator
from typing import Any

import pytest

from cardparty.core.contract import DEAL, NOBODY, PUBLIC, Move, VariantInfo, Zone, shared
from cardparty.core.discovery import load_catalog
from cardparty.core.hint import _label as hint_label
from cardparty.core.hookspecs import hookimpl
from cardparty.core.simcheck import check_random_games
from cardparty.core.simulate import SimulationFailure
from cardparty.core.table import BARRED, IllegalMove, open_table
from tests.core.plugins import passing, pika_gift


class Gossip:
    """Shows every card any seat was passed to every seat (and spectator)."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-gossip", "passing", "gossip")

    @hookimpl(wrapper=True)
    def cardparty_view(self, state: Any, seat: int | None) -> Generator[None, dict, dict]:
        view = yield
        view["zones"]["passed"] = [c for c in state.got if c is not None]
        return view


class NoDealEvent:
    """Deals the next hand in the move that ends the last, without saying so."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-nodeal", "passing", "no deal event")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, list, list]:
        events = yield
        return [{**e, "type": "next hand"} if e["type"] == DEAL else e for e in events]


class TellsTheNewHands:
    """After the deal event, tells everybody seat 0's new hand."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-dealt", "passing", "dealt")

    @hookimpl(wrapper=True)
    def cardparty_apply_move(self, state: Any, seat: int, move: Move, rng: Any
                             ) -> Generator[None, list, list]:
        events = yield
        if any(e["type"] == DEAL for e in events):
            events.append({"type": "hand", "seat": 0, "cards": list(state.hands[0])})
        return events


class AlwaysSeatZero:
    """Says it is seat 0's turn while everybody passes."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-turn", "passing", "turn")

    @hookimpl(wrapper=True)
    def cardparty_view(self, state: Any, seat: int | None) -> Generator[None, dict, dict]:
        view = yield
        view["turn"] = 0 if view["turn"] is None and state.phase == "pass" else view["turn"]
        return view


class TopTwice:
    """Pika: shows the pile's top card again in a zone of its own (Pika has two of most
    cards, so the second place may stand for a hidden copy)."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-twice", "pika", "twice")

    @hookimpl(wrapper=True)
    def cardparty_view(self, state: Any, seat: int | None) -> Generator[None, dict, dict]:
        view = yield
        view["zones"]["top"] = [state.pile[-1]]
        return view


class KeepsTheDeal:
    """Pika: ``determinize`` copies the state and redeals nothing."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-keep", "pika", "keep")

    @hookimpl(tryfirst=True)
    def cardparty_determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        return state.copy()


class ShufflesUnsorted:
    """Pika: redeals the unseen cards, shuffled as they really lie (not sorted first)."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-unsorted", "pika", "unsorted")

    @hookimpl(tryfirst=True)
    def cardparty_determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        twin = state.copy()
        zones = [twin.hands[s] for s in range(state.n) if s != seat] + [twin.stock]
        pool = [c for zone in zones for c in zone]
        rng.shuffle(pool)
        for zone in zones:
            zone[:], pool = pool[:len(zone)], pool[len(zone):]
        return twin


class SamplesTheRealDeal:
    """Pika: the search's sampler hands out the real state."""

    @hookimpl
    def cardparty_variant_info(self) -> VariantInfo:
        return VariantInfo("broken-sampler", "pika", "sampler")

    @hookimpl
    def cardparty_bot_sampler(self, state: Any, seat: int, events: list) -> Any:
        return lambda rng: state.copy()


BROKEN = (Gossip(), NoDealEvent(), TellsTheNewHands(), AlwaysSeatZero(), TopTwice(),
          KeepsTheDeal(), ShufflesUnsorted(), SamplesTheRealDeal())


@pytest.fixture(scope="module", autouse=True)
def authored() -> Iterator[None]:
    catalog = load_catalog()
    catalog.add(passing)
    catalog.add(pika_gift)
    ids = ["passing", pika_gift.VARIANT_ID]
    for plugin in BROKEN:
        catalog.add(plugin)
        ids.append(plugin.cardparty_variant_info().id)
    yield
    for key in ids:
        catalog.games.pop(key, None)
        catalog.variants.pop(key, None)
        catalog.plugins.pop(key, None)


def failure(game: str, players: int, variant: str, games: int = 30) -> str:
    with pytest.raises(SimulationFailure) as caught:
        check_random_games(game, players, games, seed=7, variants=[variant])
    return str(caught.value)


# --- knowledge some seats share -------------------------------------------------------------

def test_a_shared_zone_is_seen_by_exactly_its_seats() -> None:
    passed = Zone("passed to 1", ["AS"], shared(0, 1))
    assert [passed.visible_to(s) for s in (0, 1, 2, None)] == [True, True, False, False]
    assert passed.seats(4) == {0, 1}
    assert Zone("pile", [], PUBLIC).seats(3) == {0, 1, 2}
    assert Zone("stock", [], NOBODY).seats(3) == set()
    assert Zone("hand 2", [], 2).visible_to(2) and not Zone("hand 2", [], 2).visible_to(None)


@pytest.mark.parametrize("players", [3, 4])
def test_the_checker_proves_the_views_of_cards_two_seats_share(players: int) -> None:
    report = check_random_games("passing", players, 40, seed=1)
    assert report.games == 40


def test_the_passer_and_his_left_neighbour_see_the_passed_card_and_nobody_else() -> None:
    table = open_table("passing", 3, {"deck": ["2C", "3C", "4C", "5D", "6D", "7D",
                                               "8H", "9H", "TH"]}, seed=1)
    assert table.to_move() == (0, 1, 2)                  # everybody passes at once
    assert table.view(None)["turn"] is None
    for seat, card in ((0, "2C"), (1, "5D"), (2, "8H")):
        table.play(seat, Move("pass", (card,)))
    assert "2C" in table.view(1)["hand"]
    assert table.view(0)["zones"]["passed"] == ["2C"]     # seat 0 knows where it went
    assert "2C" not in str(table.view(2)) and "2C" not in str(table.view(None))


def test_a_view_that_shows_a_passed_card_to_a_third_seat_fails() -> None:
    assert "shows cards it may not see" in failure("passing", 3, "broken-gossip")


# --- what the checker holds views and events to ---------------------------------------------

def test_a_card_shown_in_two_places_passes_where_the_game_has_one_of_it() -> None:
    """The trick is the table's zone and each player's row: a 52-card deck has one 2♣."""
    table = open_table("passing", 3, seed=2)
    for seat in (0, 1, 2):
        table.play(seat, table.legal_moves(seat)[0])
    seat = table.to_move()[0]
    move = table.legal_moves(seat)[0]
    table.play(seat, move)
    view = table.view(None)
    assert view["zones"]["trick"] == [move.cards[0]]
    assert view["players"][seat]["zones"]["played"] == [move.cards[0]]
    check_random_games("passing", 3, 10, seed=2)


def test_a_card_shown_twice_where_the_game_has_other_copies_fails_saying_why() -> None:
    said = failure("pika", 3, "broken-twice")
    assert "shows cards it may not see" in said and "times (it may see 1 of the game's 2)" \
        in said and "show such a card in one place" in said


def test_the_last_card_of_a_hand_may_go_into_the_next_deal_in_the_same_move() -> None:
    table = open_table("passing", 3, {"hands": 2}, seed=3)
    while table.view(None)["counters"]["hand"] == 1:
        seat = table.to_move()[0]
        events = table.play(seat, table.legal_moves(seat)[0])
    assert [e["type"] for e in events][-1] == DEAL
    assert events[0]["type"] == "play" and events[0]["cards"][0] not in str(table.view(None))
    check_random_games("passing", 3, 20, seed=3, settings={"hands": 3})


def test_dealing_again_in_the_same_move_without_a_deal_event_fails_saying_what_is_missing(
        ) -> None:
    said = failure("passing", 3, "broken-nodeal")
    assert "event play shows hidden cards" in said and "type 'deal'" in said


def test_an_event_after_the_deal_may_show_only_what_is_public_after_the_move() -> None:
    assert "from the move's 'deal' event on" in failure("passing", 3, "broken-dealt")


def test_the_turn_is_none_while_several_seats_move() -> None:
    assert "turn is None" in failure("passing", 3, "broken-turn")


# --- a variant that adds a move -------------------------------------------------------------

def test_a_variant_adds_a_move_and_the_base_game_refuses_nothing_the_table_lists() -> None:
    report = check_random_games("pika", 3, 20, seed=11, variants=[pika_gift.VARIANT_ID])
    assert report.games == 20                      # gifts make games long: 390 moves a game
    table = open_table("pika", 3, variants=[pika_gift.VARIANT_ID], seed=4)
    seat = table.to_move()[0]
    gift = next(m for m in table.legal_moves(seat) if m.kind == "give")
    assert table.hook.cardparty_refusal(state=table.state, seat=seat, move=gift,
                                        listed=table.legal_moves(seat)) is None
    events = table.play(seat, Move("give", gift.cards, gift.choice))
    assert [e["type"] for e in events] == ["give", "gift"]
    assert table.to_move() == (int(gift.choice or "0"),)


def test_an_unlisted_gift_is_refused_in_the_variants_words() -> None:
    table = open_table("pika", 3, variants=[pika_gift.VARIANT_ID], seed=4)
    seat = table.to_move()[0]
    other = next(c for c in table.view(None)["zones"]["pile"])  # not in the seat's hand
    with pytest.raises(IllegalMove, match="you may give a card of your hand"):
        table.play(seat, Move("give", (other + "x",), "1"))


def test_a_move_the_base_rules_list_but_a_variant_took_off_is_barred() -> None:
    table = open_table("pika", 2, seed=5)
    seat = table.to_move()[0]
    move = table.legal_moves(seat)[0]
    assert table.hook.cardparty_refusal(state=table.state, seat=seat, move=move,
                                        listed=[]) == BARRED


def test_the_catalog_finds_a_variant_by_its_game_and_says_what_there_is() -> None:
    catalog = load_catalog()
    assert catalog.variant("pika", pika_gift.VARIANT_ID).game == "pika"
    assert pika_gift.VARIANT_ID in [v.id for v in catalog.variants_of("pika")]
    with pytest.raises(KeyError, match="no variant 'pika-gift' for piquet"):
        catalog.variant("piquet", pika_gift.VARIANT_ID)


# --- a label that names a player ------------------------------------------------------------

def test_a_move_label_names_the_player_where_the_game_says_a_seat() -> None:
    table = open_table("pika", 3, variants=[pika_gift.VARIANT_ID], seed=4,
                       names=["Eva", "Bot 2", "Jana"])
    seat = table.to_move()[0]
    to = (seat + 1) % 3
    gifts = [m for m in table.view(seat)["moves"] if m["kind"] == "give"]
    assert gifts and all(m["label"].endswith(f"to {table.names[to]}") for m in gifts)
    assert gifts[0]["msg"]["p"]["seats"] == table.names[to]
    assert "seat" not in gifts[0]["label"]
    raw = next(m for m in table.legal_moves(seat) if m.kind == "give")
    assert raw.label.endswith(f"to {to}")                # the game's own label is unchanged
    assert hint_label(raw, table.names).endswith(f"to {table.names[to]}")   # a hint's words


def test_pikac_kc_names_the_player_it_chooses() -> None:
    names = ["Eva", "Jana", "Petr"]
    for seed in range(200):
        table = open_table("pikac", 3, seed=seed, names=names)
        rng = random.Random(seed)
        for _ in range(150):
            if table.result() is not None:
                break
            seat = table.to_move()[0]
            for m in table.view(seat)["moves"]:
                if "KC" in m["cards"] and m["choice"] and m["choice"].isdigit():
                    assert m["label"].endswith("choosing " + names[int(m["choice"])])
                    return
            moves = table.legal_moves(seat)
            table.play(seat, moves[rng.randrange(len(moves))])
    pytest.fail("no K♣ was thrown in 200 games")


# --- determinize held to honesty ------------------------------------------------------------

def test_a_determinize_that_does_not_redeal_fails() -> None:
    said = failure("pika", 3, "broken-keep")
    assert "never redeals zone 'hand" in said or "never redeals zone 'stock'" in said


def test_a_determinize_that_shuffles_without_sorting_first_fails() -> None:
    said = failure("pika", 3, "broken-unsorted")
    assert "depends on where the hidden cards really lie" in said and "sort the unseen" in said


def test_a_sampler_that_hands_out_the_real_deal_fails() -> None:
    said = failure("pika", 3, "broken-sampler", games=40)
    assert "cardparty_bot_sampler for seat" in said
