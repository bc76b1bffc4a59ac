"""``cardparty new-game NAME``: the folder of a new game's package, ready to install.

It is made from the template generated from the tested example (``cardparty.core.newgame``):
a whole game (High card's rules under the new name) and a variant, with its pyproject.toml,
its own tests and a README. Installed as it is, it is listed by ``cardparty games``, passes
its own tests and ``cardparty check``, and plays at a host; the author then changes the rules.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cardparty.client.commands.refusal import refuse
from cardparty.core.discovery import load_catalog
from cardparty.core.i18n import _
from cardparty.core.newgame import TemplateError, names, write


def add_parser(sub: Any) -> None:
    p = sub.add_parser("new-game", help=_("make the package of a new game from the template"))
    p.add_argument("name", metavar="NAME",
                   help=_("the new game's id: lower-case letters, digits and hyphens"))
    p.add_argument("--title", default=None,
                   help=_("the game's name as players read it (default: NAME in words)"))
    p.add_argument("--dir", default=".", metavar="DIR",
                   help=_("where to make the package's folder (default: here)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        new = names(args.name, args.title)
        if new.id in load_catalog().games:
            raise TemplateError(f"a game {new.id} is installed already: choose another name")
        folder = write(Path(args.dir), new)
    except (TemplateError, OSError) as exc:
        return refuse("new-game", str(exc))
    print(f"made {folder}: the game {new.id} ({new.title}) and its variant {new.id}-lowball")
    print(f"  pip install -e {folder}      then 'cardparty games' lists it")
    print(f"  cd {folder} && python -m pytest      its own tests")
    print(f"  cardparty check {new.id}      everything before you publish it")
    print(f"  write its rules in {folder / new.package / '__init__.py'} "
          f"(docs/writing-a-game.md)")
    return 0
