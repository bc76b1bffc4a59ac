"""The ``cardparty`` command line.

Each subcommand lives in its own module under ``cardparty.client.commands`` with two functions:
``add_parser(subparsers)`` and ``run(args) -> int``. Bad arguments get a one-line error and exit
status 2; a failure inside a command gets a one-line error, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Subcommand modules in the order ``cardparty --help`` lists them.
COMMANDS = ("play", "join", "host", "hosts", "bot_client", "games", "simulate", "watch",
            "league")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line (plus a hint) and exits 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"{self.prog}: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="cardparty",
                           description="LAN card games: host a table, join one, or play bots.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"cardparty.client.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"cardparty.client.commands.{name}":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
