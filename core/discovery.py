"""Finding installed games and variants through the ``cardparty.games`` entry points.

Built-in games register exactly as third-party ones do (pyproject.toml), so a game installed
on the host is a first-class citizen. A plugin that fails to import is reported and skipped:
one broken package must not take every other game down with it.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

import pluggy

from cardparty.core import hookspecs
from cardparty.core.contract import GameInfo, VariantInfo


@dataclass
class Catalog:
    """Every installed game and variant, with the plugin object that implements each."""

    games: dict[str, GameInfo] = field(default_factory=dict)
    variants: dict[str, VariantInfo] = field(default_factory=dict)
    plugins: dict[str, Any] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)

    def game(self, game_id: str) -> GameInfo:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise KeyError(f"no game {game_id!r} is installed (installed: {known})") from None

    def variant(self, game_id: str, variant_id: str) -> VariantInfo:
        info = self.variants.get(variant_id)
        if info is None or info.game != game_id:
            known = ", ".join(sorted(v.id for v in self.variants.values() if v.game == game_id))
            raise KeyError(f"no variant {variant_id!r} for {game_id} is installed "
                           f"(installed: {known or 'none'})")
        return info

    def variants_of(self, game_id: str) -> list[VariantInfo]:
        return sorted((v for v in self.variants.values() if v.game == game_id),
                      key=lambda v: v.id)

    def add(self, plugin: Any) -> None:
        """Add one plugin object (a module, usually) by asking it the discovery hooks."""
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        pm.register(plugin)
        for info in pm.hook.cardparty_game_info():
            self.games[info.id] = info
            self.plugins[info.id] = plugin
        for vinfo in pm.hook.cardparty_variant_info():
            self.variants[vinfo.id] = vinfo
            self.plugins[vinfo.id] = plugin


_CATALOG: Catalog | None = None


def load_catalog(refresh: bool = False) -> Catalog:
    """The catalog of installed plugins, loaded once per process (``refresh`` reloads it after
    a package was installed at run time)."""
    global _CATALOG
    if _CATALOG is not None and not refresh:
        return _CATALOG
    catalog = Catalog()
    for ep in entry_points(group=hookspecs.ENTRY_POINT_GROUP):
        try:
            plugin: ModuleType = ep.load()
            catalog.add(plugin)
        except Exception as exc:  # a broken third-party package must not hide the others
            catalog.broken[ep.name] = f"{type(exc).__name__}: {exc}"
            print(f"cardparty: plugin {ep.name!r} could not be loaded: {exc}", file=sys.stderr)
    _CATALOG = catalog
    return catalog
