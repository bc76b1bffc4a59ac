"""The game contract checked when a plugin is loaded (``cardparty.core.discovery``): a plugin
with a misspelt hook, without a required hook, or with a hook taking an argument the contract
does not give is refused in one line naming the plugin and the hook, and the other games still
load. The plugins are small real modules (tests/core/plugins)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from cardparty.core.discovery import Catalog, PluginRefused, load_catalog
from cardparty.core.table import Table

PLUGINS = "tests.core.plugins."


def loader(module: str) -> Callable[[], Any]:
    return lambda: importlib.import_module(PLUGINS + module)


def test_a_good_game_is_accepted() -> None:
    catalog = Catalog()
    assert catalog.load("tiny", loader("tiny"))
    assert catalog.games["tiny"].name == "Tiny" and not catalog.broken


def test_a_misspelt_hook_is_refused_naming_the_plugin_and_the_hook() -> None:
    catalog = Catalog()
    with pytest.raises(PluginRefused) as caught:
        catalog.add(loader("misspelt")(), "misspelt")
    assert str(caught.value) == ("plugin 'misspelt' refused: cardparty_legal_move is not a hook "
                                 "of the cardparty contract (did you mean "
                                 "cardparty_legal_moves?)")
    assert "tiny" not in catalog.games and not catalog.plugins


def test_an_unmarked_misspelt_hook_is_refused_too() -> None:
    with pytest.raises(PluginRefused, match="plugin 'unmarked' refused: cardparty_aply_move is "
                       "not a hook of the cardparty contract \\(did you mean "
                       "cardparty_apply_move\\?\\)"):
        Catalog().add(loader("unmarked")(), "unmarked")


def test_a_game_without_a_required_hook_is_refused_naming_it() -> None:
    with pytest.raises(PluginRefused) as caught:
        Catalog().add(loader("incomplete")(), "incomplete")
    assert str(caught.value) == ("plugin 'incomplete' refused: the game does not implement "
                                 "cardparty_zones, a hook every game must have")


def test_a_hook_taking_an_argument_the_contract_does_not_give_is_refused() -> None:
    with pytest.raises(PluginRefused) as caught:
        Catalog().add(loader("extra_argument")(), "extra_argument")
    assert str(caught.value) == ("plugin 'extra_argument' refused: cardparty_view takes "
                                 "'clock', which the contract does not give (it gives state, "
                                 "seat)")


def test_refused_plugins_are_reported_and_the_other_games_still_load(
        capsys: pytest.CaptureFixture[str]) -> None:
    catalog = Catalog()
    for name in ("misspelt", "tiny", "incomplete", "unmarked"):
        catalog.load(name, loader(name))
    assert sorted(catalog.games) == ["tiny"]
    assert sorted(catalog.broken) == ["incomplete", "misspelt", "unmarked"]
    assert "cardparty_zones" in catalog.broken["incomplete"]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    assert err[0].startswith("cardparty: plugin 'misspelt' refused: cardparty_legal_move ")
    table = Table("tiny", 2, seed=1, catalog=catalog)          # the good game plays
    table.play(0, table.legal_moves(0)[0])
    table.play(1, table.legal_moves(1)[0])
    assert table.result() is not None


def test_a_plugin_that_fails_to_import_is_reported_with_its_reason() -> None:
    catalog = Catalog()
    assert not catalog.load("ghost", loader("no_such_module"))
    assert catalog.broken["ghost"].startswith("plugin 'ghost' could not be loaded: "
                                              "ModuleNotFoundError: ")


def test_every_installed_game_and_variant_keeps_the_contract() -> None:
    catalog = load_catalog()
    assert not catalog.broken
    assert {"pika", "pikac", "kakhead", "piquet"} <= set(catalog.games)
