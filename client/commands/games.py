"""``cardparty games``: the installed games (id, name, player range), each game's settings
(what ``--setting NAME=VALUE`` takes, with its default and bounds) and its variants, in the
player's language; ``--json`` gives the catalog's own metadata for scripts.

Must not know about: any game's rules (it shows what the catalog declares).
"""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap
from typing import Any

from cardparty.core.contract import GameInfo, Setting
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import _, plural_msg, translate


def add_parser(sub: Any) -> None:
    p = sub.add_parser("games", help=_("list the installed games, their settings and variants"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per game"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 100) - 1)
    for info in sorted(catalog.games.values(), key=lambda g: g.id):
        variants = catalog.variants_of(info.id)
        if args.json:
            print(json.dumps({**info.to_wire(), "variants": [v.to_wire() for v in variants]}))
            continue
        print(f"{info.id:<10} {translate(info.name):<10} {players(info)}")
        lines = [setting_line(name, s) for name, s in info.settings.items()]
        lines += [_("variant {id}: {name} - {description}").format(
            id=v.id, name=translate(v.name), description=translate(v.description))
            for v in variants]
        for line in lines:
            print(textwrap.fill(line, width, initial_indent="  ", subsequent_indent="      ",
                                break_long_words=False, break_on_hyphens=False))
    return 0


def players(info: GameInfo) -> str:
    if info.min_players == info.max_players:
        return translate(plural_msg("{n} player", "{n} players", info.max_players))
    return translate(plural_msg("{least}-{n} player", "{least}-{n} players", info.max_players,
                                least=info.min_players))


def setting_line(name: str, setting: Setting) -> str:
    """One setting as ``--setting`` takes it: its name (and its label where the language
    says it otherwise), what it does, its default and what it accepts."""
    label = translate(setting.label) if setting.label else ""
    called = f"{name} ({label})" if label and label != name.replace("_", " ") else name
    if setting.kind in ("int", "float") and setting.min is not None and setting.max is not None:
        accepts = _("({low} to {high})").format(low=f"{setting.min:g}", high=f"{setting.max:g}")
    elif setting.kind == "choice":
        accepts = _("(one of {choices})").format(choices=", ".join(setting.choices))
    elif setting.kind == "bool":
        accepts = _("(true or false)")
    else:
        accepts = ""
    default = json.dumps(setting.default, ensure_ascii=False)
    said = _("setting {name}: {help}; default {default} {accepts}") if setting.help else _(
        "setting {name}: default {default} {accepts}")
    return said.format(name=called, help=translate(setting.help), default=default,
                       accepts=accepts).rstrip()
