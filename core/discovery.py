"""Finding installed games and variants through the ``cardparty.games`` entry points.

Built-in games register exactly as third-party ones do (pyproject.toml), so a game installed
on the host is a first-class citizen. A plugin that fails to import, or breaks the contract (a
hook name the contract does not have, a hook taking an argument the contract does not give, a
game without one of the required hooks), is refused with one line naming the plugin and the
hook, reported and skipped: one broken package must not take every other game down with it.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import difflib
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from cardparty.core import hookspecs, kit
from cardparty.core.contract import GameInfo, VariantInfo
from cardparty.core.i18n import Msg

SPECS = tuple(name for name in dir(hookspecs) if name.startswith("cardparty_"))


class PluginRefused(ValueError):
    """A plugin breaks the game contract. ``str()`` is one line naming the plugin and the hook."""


def plugin_name(plugin: Any) -> str:
    """How a plugin is named in messages: its module's name, or its class's."""
    return str(getattr(plugin, "__name__", None) or type(plugin).__name__)


def _check_names(name: str, plugin: Any) -> None:
    """Every ``cardparty_*`` function of the plugin is a hook of the contract, and takes only
    arguments the contract gives (besides arguments with a default, which no call passes).
    pluggy alone would skip an unmarked misspelt function and word the rest over several
    lines."""
    for attr in dir(plugin):
        if not attr.startswith("cardparty_"):
            continue
        impl = getattr(plugin, attr)
        if not callable(impl):
            continue
        marks = getattr(impl, f"{hookspecs.PROJECT}_impl", None) or {}
        hook = marks.get("specname") or attr
        if hook not in SPECS:
            near = difflib.get_close_matches(hook, SPECS, 1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise PluginRefused(f"plugin {name!r} refused: {hook} is not a hook of the "
                                f"cardparty contract{hint}")
        given = list(inspect.signature(getattr(hookspecs, hook)).parameters)
        try:
            params = inspect.signature(impl).parameters.values()
        except (TypeError, ValueError):
            continue
        # As in pluggy, an argument with a default is the plugin's own, never passed by a call.
        taken = [p.name for p in params if p.default is p.empty
                 and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        extra = [a for a in taken if a not in given]
        if extra:
            raise PluginRefused(f"plugin {name!r} refused: {hook} takes {extra[0]!r}, which the "
                                f"contract does not give (it gives {', '.join(given)})")


def add_state_defaults(pm: pluggy.PluginManager, info: GameInfo) -> None:
    """Register the kit's save/restore/clone/reorder for a game that declares its state class
    (``GameInfo.state``), each one only if the game (registered already) lacks it."""
    if info.state is None:
        return
    have = [h for h in kit.STATE_HOOKS if getattr(pm.hook, h).get_hookimpls()]
    pm.register(kit.default_hooks(info.state, have), name=f"{info.id} (kit defaults)")


def checked_manager(name: str, plugin: Any) -> pluggy.PluginManager:
    """A PluginManager holding ``plugin`` alone, once the plugin is known to keep the contract:
    its hook names and arguments (``_check_names``, then pluggy's own validation and
    ``check_pending``) and, for a game, every hook in ``hookspecs.REQUIRED``. Raises
    PluginRefused."""
    _check_names(name, plugin)
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginRefused(f"plugin {name!r} refused: {str(exc).splitlines()[0]}") from None
    for info in pm.hook.cardparty_game_info():
        add_state_defaults(pm, info)
    if pm.hook.cardparty_game_info.get_hookimpls():
        for hook in hookspecs.REQUIRED:
            if not getattr(pm.hook, hook).get_hookimpls():
                raise PluginRefused(f"plugin {name!r} refused: the game does not implement "
                                    f"{hook}, a hook every game must have")
    return pm


@dataclass
class Catalog:
    """Every installed game and variant, with the plugin object that implements each."""

    games: dict[str, GameInfo] = field(default_factory=dict)
    variants: dict[str, VariantInfo] = field(default_factory=dict)
    plugins: dict[str, Any] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)
    #: Which version of a game or variant is installed, by its id: its package's name and
    #: version ("cardparty-highcard 1.0.0"); "" for a plugin added without a package
    #: (``add`` with no ``version``). The host says it for every table (docs/protocol.md).
    versions: dict[str, str] = field(default_factory=dict)

    def game(self, game_id: str) -> GameInfo:
        """The game ``game_id``, or KeyError saying which games are installed."""
        try:
            return self.games[game_id]
        except KeyError:
            raise KeyError(Msg("no game {game} is installed (installed: {games})",
                               game=repr(game_id),
                               games=", ".join(sorted(self.games)) or Msg("none"))) from None

    def variant(self, game_id: str, variant_id: str) -> VariantInfo:
        """The variant ``variant_id`` of game ``game_id``, or KeyError saying which variants
        of that game are installed (a variant of another game is not one of them)."""
        info = self.variants.get(variant_id)
        if info is None or info.game != game_id:
            known = ", ".join(sorted(v.id for v in self.variants.values() if v.game == game_id))
            raise KeyError(Msg("no variant {variant} for {game} is installed (installed: "
                               "{variants})", variant=repr(variant_id), game=game_id,
                               variants=known or Msg("none")))
        return info

    def variants_of(self, game_id: str) -> list[VariantInfo]:
        """Every installed variant of ``game_id``, by id."""
        return sorted((v for v in self.variants.values() if v.game == game_id),
                      key=lambda v: v.id)

    def add(self, plugin: Any, name: str | None = None, version: str = "") -> None:
        """Add one plugin object (a module, usually) by asking it the discovery hooks; its
        games and variants are of ``version`` (its package's name and version). Raises
        PluginRefused, adding nothing, if the plugin breaks the contract."""
        pm = checked_manager(name or plugin_name(plugin), plugin)
        for info in pm.hook.cardparty_game_info():
            self.games[info.id] = info
            self.plugins[info.id] = plugin
            self.versions[info.id] = version
        for vinfo in pm.hook.cardparty_variant_info():
            self.variants[vinfo.id] = vinfo
            self.plugins[vinfo.id] = plugin
            self.versions[vinfo.id] = version

    def load(self, name: str, loader: Callable[[], Any], version: str = "") -> bool:
        """Import one plugin (``loader``, an entry point's ``load``) and add it. A plugin that
        fails to import or breaks the contract is kept in ``broken`` with the reason, reported
        in one line on stderr, and skipped; the others load as usual."""
        try:
            self.add(loader(), name, version)
            return True
        except PluginRefused as exc:
            self.broken[name] = str(exc)
        except Exception as exc:  # a broken third-party package must not hide the others
            self.broken[name] = f"plugin {name!r} could not be loaded: {type(exc).__name__}: {exc}"
        print(f"cardparty: {self.broken[name]}", file=sys.stderr)
        return False


_CATALOG: Catalog | None = None


def load_catalog(refresh: bool = False) -> Catalog:
    """The catalog of installed plugins, loaded once per process (``refresh`` reloads it after
    a package was installed at run time)."""
    global _CATALOG
    if _CATALOG is not None and not refresh:
        return _CATALOG
    catalog = Catalog()
    for ep in entry_points(group=hookspecs.ENTRY_POINT_GROUP):
        catalog.load(ep.name, ep.load, package_version(ep))
    _CATALOG = catalog
    return catalog


def package_version(ep: EntryPoint) -> str:
    """The name and version of the package an entry point comes from ("cardparty-highcard
    1.0.0"); "" when its metadata does not say."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return ""
    try:
        return f"{dist.metadata['Name']} {dist.version}"
    except Exception:                       # metadata a broken package may lack
        return ""
