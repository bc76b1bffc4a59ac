"""Events in words on the client: the host's own sentence when it sends one (``text``), else
the game's ``cardparty_describe`` when that game happens to be installed here too, else the
generic sentence of ``cardparty.core.narrate``. A game installed only on the host still
narrates: generically.

Must not know about: any game's rules, terminals, the wire.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pluggy

from cardparty.core import hookspecs
from cardparty.core.discovery import load_catalog

Describe = Callable[[dict[str, Any], list[str]], str]


@functools.cache
def describer(game: str) -> Describe | None:
    """The game's own narration, if the game is installed in this process."""
    try:
        plugin = load_catalog().plugins.get(game)
    except Exception:
        return None
    if plugin is None:
        return None
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(plugin, name=game)
    hook = pm.hook.cardparty_describe

    def describe(event: dict[str, Any], names: list[str]) -> str:
        return hook(event=event, names=names) or ""

    return describe
