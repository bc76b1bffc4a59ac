"""``cardparty games``: the installed games (id, name, player range) and their variants."""

from __future__ import annotations

import argparse
import json
from typing import Any

from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser("games", help=_("list the installed games and variants"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per game"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    for info in sorted(catalog.games.values(), key=lambda g: g.id):
        variants = catalog.variants_of(info.id)
        if args.json:
            print(json.dumps({**info.to_wire(), "variants": [v.to_wire() for v in variants]}))
            continue
        print(f"{info.id:<10} {info.name:<10} {info.min_players}-{info.max_players} players")
        for v in variants:
            print(f"  variant {v.id}: {v.name} - {v.description}")
    return 0
