"""``cardparty bot-client``: a bot that plays one table over the network until its result.

It connects to a host like any player, creates a table (``--create``) or joins one by its id
(``--table``), takes a seat, says ready, and plays with the game's bot policy
(``cardparty.net.netbot``) until the game ends, riding out a host that goes away and comes
back. Then it prints the places per seat. ``--json`` makes every printed line one JSON object:
``{"table": ID}`` on creating a table, ``{"table": ID, "seat": S, "name": N}`` once seated
(the same name, from this user's key, resumes this seat: ``--name N``), and at the end the
result with ``places``.
For tests, load, and LAN parties short of players.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from cardparty.client.commands.refusal import refuse
from cardparty.core.bots import ACCEPTED_LEVELS, canonical_level
from cardparty.core.i18n import _


def setting(text: str) -> tuple[str, Any]:
    """NAME=VALUE, the value read as JSON when it parses (numbers, true, lists), else text."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(_("a setting is NAME=VALUE, not {text}").format(
            text=repr(text)))
    name, value = text.split("=", 1)
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def add_parser(sub: Any) -> None:
    p = sub.add_parser("bot-client", help=_("play one table as a bot over the network"))
    p.add_argument("--connect", required=True, metavar="ADDR",
                   help=_("the host: host, host:port or tcp://host:port"))
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--create", metavar="GAME", help=_("open a table of GAME"))
    what.add_argument("--table", metavar="T", help=_("join table T (its id)"))
    p.add_argument("--players", type=int, help=_("seats at the new table (with --create)"))
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help=_("a variant for the new table (repeatable)"))
    p.add_argument("--setting", action="append", default=[], type=setting,
                   metavar="NAME=VALUE", help=_("a setting for the new table (repeatable)"))
    p.add_argument("--fill-bots", action="store_true",
                   help=_("fill the new table's other seats with host bots"))
    p.add_argument("--fill-level", default="normal", choices=ACCEPTED_LEVELS, metavar="LEVEL",
                   help=_("the host bots' level with --fill-bots: easy, normal or hard (the "
                          "host thinks for hard ones; default normal)"))
    p.add_argument("--seat", type=int, default=None,
                   help=_("the seat to take (default: first free)"))
    p.add_argument("--name", default=None, help=_("the bot's name (default Bot-<n>)"))
    p.add_argument("--level", default="normal", choices=ACCEPTED_LEVELS, metavar="LEVEL",
                   help=_("bot level: easy or normal (hard plays as normal here: a bot over "
                        "the network sees only its views, and the search needs the host's "
                        "determinizations)"))
    p.add_argument("--token", default=None, help=argparse.SUPPRESS)   # protocol 1's resume
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help=_("give up after S seconds (default: never)"))
    p.add_argument("--delay", type=float, default=0.0, metavar="S",
                   help=_("seconds to think before each move (default 0)"))
    p.add_argument("--seed", type=int, default=None, help=_("the bot's own random seed"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object per line"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cardparty.net.address import AddressError, read_address
    from cardparty.net.netbot import BotGone, play_table
    from cardparty.net.session import Session, SessionError

    if args.create and not args.players:
        return refuse("bot-client", _("--create needs --players"))
    try:
        address = read_address(args.connect).endpoint
    except AddressError as exc:
        return refuse("bot-client", exc)

    def say(obj: dict[str, Any], words: str) -> None:
        print(json.dumps(obj) if args.json else words, flush=True)

    rng = random.Random(args.seed)
    name = args.name or f"Bot-{rng.randrange(1000, 10000)}"
    session = Session(address, name, token=args.token, client="cardparty bot-client")
    try:
        session.connect(timeout=10.0)
        welcome = session.welcome or {}
        table = args.table
        if args.create:
            summary = session.create(args.create, args.players, dict(args.setting),
                                     args.variant)
            table = summary["id"]
            say({"table": table}, f"table {table}")
        seat = None
        if welcome.get("resumed") and table is not None:
            for t in session.tables():
                if t["id"] == table:
                    seat = next((s["seat"] for s in t["seats"]
                                 if s["player"] == welcome.get("player")), None)
        if seat is None:
            seat = session.sit(table, args.seat)
            if args.fill_bots:
                try:
                    session.add_bots(table, None, args.fill_level)
                except SessionError as exc:
                    if exc.code != "no_seat":
                        raise
            session.ready(table)
        say({"table": table, "seat": seat, "name": name},
            f"seat {seat} at table {table} (resume with --name {name!r})")
        result = play_table(session, table, level=canonical_level(args.level),
                            rng=rng, timeout=args.timeout,
                            delay=args.delay)
    except (SessionError, BotGone) as exc:
        session.abort()
        return refuse("bot-client", exc, 1)
    session.close()
    places = result["places"]
    say({"table": table, "seat": seat, "places": places, "result": result},
        "places: " + ", ".join(f"seat {i}: {p}" for i, p in enumerate(places))
        + (f" ({result['summary']})" if result.get("summary") else ""))
    return 0
