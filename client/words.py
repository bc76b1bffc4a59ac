"""Events in words on the client: the host's own sentence when it sends one (``text``), else
the game's ``cardparty_describe`` when that game happens to be installed here too, else the
generic sentence of ``cardparty.core.narrate``. A game installed only on the host still
narrates: generically. ``in_words`` says an event as the player reads it (his language, seat
numbers as names, card codes as cards: ``2♦``, ``Joker``) and ``summary_words`` a result's
summary ("Eva won (out of cards)" in every language), for the client's screens and for
``cardparty watch`` alike.

Must not know about: any game's rules, terminals, the wire.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import pluggy

from cardparty.client.hosttext import host_text
from cardparty.client.theme import pretty_text
from cardparty.core import hookspecs
from cardparty.core.contract import View, WireEvent
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import Msg, _, from_wire, shown, translate
from cardparty.core.narrate import generic, with_names
from cardparty.net.wire.replies import GameWire, TableSummary

Describe = Callable[[WireEvent, list[str]], str]


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

    def describe(event: WireEvent, names: list[str]) -> str:
        return hook(event=event, names=names) or ""

    return describe


def in_words(event: WireEvent, names: list[str], describe: Describe | None = None,
             ascii_only: bool = False) -> str:
    """``event`` as the player reads it: the host's sentence, else ``describe``'s (the
    game's), else the generic one; in his language, seats as ``names``, the card codes the
    event names written as cards."""
    return pretty_text(with_names(_said(event, names, describe), names), event.get("cards"),
                       ascii_only)


def _said(event: WireEvent, names: list[str], describe: Describe | None) -> str:
    text = event.get("text")
    if isinstance(text, str) and text:
        return host_text(shown(text, event.get("msg")), lines=True)   # a host's words
    if describe is not None:
        try:
            said = describe(event, names)
            if said:
                return translate(said)
        except Exception:  # a game's narration must never break the screen
            pass
    return translate(generic(event, names))


def summary_words(said: Msg | None, text: str, names: list[str]) -> str:
    """A result's summary (``said``, its message; ``text``, its English words when there is
    none) in the player's language, the seats it names as ``names``."""
    if said is None:
        return with_names(shown(text, None), names)
    seats = str(said.params.get("seats", ""))
    numbers = [int(x) for x in seats.split(", ") if x.isdigit()]
    if not (numbers and len(numbers) == len(seats.split(", ")) and all(
            0 <= s < len(names) for s in numbers)):
        return with_names(translate(said), names)
    named = from_wire(said.to_wire())           # a copy: the result itself stays as it is
    if named is None:
        return with_names(translate(said), names)
    named.params["seats"] = who = ", ".join(names[s] for s in numbers)
    # The English source says "seat 3 won"; with names it is "Eva won" (the catalogs'
    # sentences already put the names where the seat was).
    return with_names(re.sub(rf"\bseats? (?={re.escape(who)})", "", translate(named)), names)


def version_notice(plugins: Any) -> str | None:
    """What a player is told when the host runs another version of a game or a variant at
    his table than the one installed here (``plugins``: id -> "package version", as the
    host's table summary or games list says): the table plays by the host's rules, as it
    always does, and this client narrates from the host's words, not from its own copy.
    None when every version agrees, or the game is not installed here."""
    if not isinstance(plugins, dict):
        return None
    try:
        mine = load_catalog().versions
    except Exception:
        return None
    differ = []
    for pid, theirs in sorted(plugins.items(), key=lambda kv: str(kv[0])):
        own = mine.get(str(pid))
        if own and isinstance(theirs, str) and theirs and own != theirs:
            differ.append(_("{plugin}: the host runs {theirs}, yours is {own}").format(
                plugin=host_text(str(pid), 32), theirs=host_text(theirs, 64), own=own))
    if not differ:
        return None
    return _("This table plays by the host's version of its rules ({versions}).").format(
        versions="; ".join(differ))


def table_plugins(summary: TableSummary | None, view: View, games: list[GameWire]
                  ) -> dict[str, str]:
    """The versions the host says a table runs: its summary's ``plugins``, else the host's
    games list for the view's game and variants."""
    found = summary.get("plugins") if summary is not None else None
    if isinstance(found, dict):
        return dict(found)
    game = next((g for g in games if g.get("id") == view.get("game")), None)
    out: dict[str, str] = {}
    if game is None:
        return out
    if game.get("plugin"):
        out[str(game["id"])] = game["plugin"]
    wanted = view.get("variants") or ()
    for v in game.get("variants") or ():
        if isinstance(v, dict) and v.get("id") in wanted and v.get("plugin"):
            out[str(v["id"])] = v["plugin"]
    return out


def variants_text(variants: Any, game: GameWire | None) -> str:
    """A table's variants by their names, in the player's language (``game``: the host's
    description of its game, with its ``variants``; None: not listed)."""
    listed = (game.get("variants") if game is not None else None) or ()
    names = {v.get("id"): v.get("name") for v in listed if isinstance(v, dict)}
    return ", ".join(translate(str(names.get(v) or v)) for v in variants)
