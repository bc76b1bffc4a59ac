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

from cardparty.client.commands.refusal import refuse
from cardparty.core.i18n import LANGUAGES, N_, _, choose_language, set_language

#: argparse's own words, translated through our catalog (argparse looks up ``_`` at call time).
ARGPARSE_WORDS = (N_("usage: "), N_("options"), N_("positional arguments"),
                  N_("show this help message and exit"),
                  N_("the following arguments are required: %s"),
                  N_("invalid choice: %(value)r (choose from %(choices)s)"),
                  N_("unrecognized arguments: %s"), N_("expected one argument"),
                  N_("argument %(argument_name)s: %(message)s"),
                  N_("invalid %(type)s value: %(value)r"))

#: Subcommand modules in the order ``cardparty --help`` lists them.
COMMANDS = ("play", "join", "host", "hosts", "bot_client", "games", "simulate", "watch",
            "league", "record", "replay", "check", "new_game")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line (plus a hint) and exits 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"{self.prog}: " + _("error: {message} (see '{prog} --help')").format(
            message=message, prog=self.prog), file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="cardparty",
                           description=_("LAN card games: host a table, join one, or play "
                                         "bots."))
    parser.add_argument("--lang", choices=LANGUAGES, metavar="{" + ",".join(LANGUAGES) + "}",
                        help=_("the language to speak (default: from LC_MESSAGES/LANG); "
                               "may come anywhere on the line"))
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


def take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` (or ``--lang=X``) from anywhere on the line, and the rest: the language
    must be known before any parser speaks (``--help``, errors)."""
    rest: list[str] = []
    lang = None
    it = iter(argv)
    for a in it:
        if a == "--":
            rest += [a, *it]
            break
        if a == "--lang":
            lang = next(it, "")
        elif a.startswith("--lang="):
            lang = a.split("=", 1)[1]
        else:
            rest.append(a)
    return lang, rest


def main(argv: Sequence[str] | None = None) -> int:
    lang, rest = take_lang(list(sys.argv[1:] if argv is None else argv))
    try:
        set_language(choose_language(lang))
    except ValueError as exc:
        print(f"cardparty: error: {exc}", file=sys.stderr)
        return 2
    argparse._ = _  # type: ignore[attr-defined]   # --help and errors in the language
    args = build_parser().parse_args(rest)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:        # what no command foresaw is still one line, not a trace
        return refuse(args.command.replace("_", "-"), f"{type(exc).__name__}: {exc}", 1)


if __name__ == "__main__":
    sys.exit(main())
