"""``cardparty bot-client``: a bot that plays one table over the network until its result.

It connects to a host like any player, creates a table (``--create``) or joins one by its id
(``--table``), takes a seat, says ready, and plays with the game's bot policy
(``cardparty.net.player.netbot``) until the game ends, riding out a host that goes away and comes
back. Then it prints the places per seat. ``--json`` makes every printed line one JSON object:
``{"table": ID}`` on creating a table, ``{"table": ID, "seat": S, "name": N}`` once seated
(the same name, from this user's key, resumes this seat: ``--name N``), and at the end the
result with ``places``.
``--history FILE`` writes what the bot was told and what it did, one JSON object a line, for
a checker to read afterwards (bench/faults.py): ``History``.
For tests, load, and LAN parties short of players.
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import IO, TYPE_CHECKING, Any, TypedDict, cast

from cardparty.client.commands.refusal import refuse
from cardparty.core.bots import ACCEPTED_LEVELS, canonical_level
from cardparty.core.i18n import _
from cardparty.net.wire.play_replies import (
    ConnectionPush,
    HostMessage,
    MoveReply,
)
from cardparty.net.wire.protocol import ErrorReply, StandbyPush
from cardparty.net.wire.record_replies import RecordResult
from cardparty.net.wire.replies import ViewMessage

if TYPE_CHECKING:
    from cardparty.net.player.session import Session


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
    p.add_argument("--history", default=None, metavar="FILE",
                   help=_("append what the bot was told and did to FILE, one JSON object a "
                          "line (views, moves, replies, connections)"))
    p.set_defaults(run=run)


class Said(TypedDict, total=False):
    """What ``--json`` prints, one object a line: the table made or joined, the seat taken and
    the name that resumes it, and at the end the places and the whole result."""

    table: str
    seat: int
    name: str
    places: list[int]
    result: RecordResult


class Where(TypedDict):
    """Where a history's line was written from: the host's epoch and address then."""

    epoch: int
    host: str


#: The parts of a view that say where a game stands (not how it is shown, nor the timers):
#: two views of one table at one version that differ here tell two different games.
STATE_KEYS = ("hand", "zones", "turn", "phase", "counters", "players", "result")


class History:
    """What one bot-client was told and did, appended to a file as JSON lines, each with
    ``t`` (the wall clock, seconds) and ``kind``:

    - ``view``: ``table``, ``version``, ``prev``, ``snapshot``, ``seat``, the ``events`` as
      told (their data, without the words), ``state`` (the view's ``STATE_KEYS``), ``moves``
      (how many it offered), ``over``, and the ``epoch`` and ``host`` of the session then;
    - ``move``: ``table``, ``on`` (the version it was chosen on), ``id``, ``move`` (kind,
      cards, choice); ``reply``: ``table``, ``on``, and ``version`` (``ok``) or ``error``
      (its code), ``epoch`` and ``host``;
    - ``seated`` (``table``, ``seat``, ``name``), ``connection`` (``state``, ``address``),
      ``standby`` (the host's word: ``epoch``, ``standby``), ``end`` (``places`` or
      ``error``).

    Every line is flushed as written: a bot killed mid-game leaves what it had been told."""

    def __init__(self, stream: IO[str], session: Session) -> None:
        self.stream = stream
        self.session = session
        self.lock = threading.Lock()

    def write(self, kind: str, **fields: Any) -> None:
        line = json.dumps({"t": round(time.time(), 4), "kind": kind, **fields},
                          separators=(",", ":"), default=repr)
        with self.lock:
            self.stream.write(line + "\n")
            self.stream.flush()

    def where(self) -> Where:
        return {"epoch": self.session.epoch, "host": self.session.address}

    def message(self, msg: HostMessage) -> None:
        """A pushed message, as ``play_table`` reads it."""
        kind = msg.get("type")
        if kind == "view":
            told = cast(ViewMessage, msg)
            shown = msg.get("view")                     # the game's view, as it came
            view = shown if isinstance(shown, dict) else {}
            self.write("view", table=told.get("table"), version=told.get("version"),
                       prev=told.get("prev"), snapshot=bool(told.get("snapshot")),
                       seat=told.get("seat"),
                       events=[{k: v for k, v in e.items() if k not in ("text", "msg")}
                               for e in told.get("events") or () if isinstance(e, dict)],
                       state={k: view.get(k) for k in STATE_KEYS if k in view},
                       moves=len(view.get("moves") or ()), over=bool(view.get("result")),
                       **self.where())
        elif kind == "connection":
            said = cast(ConnectionPush, msg)
            self.write("connection", state=said.get("state"), address=said.get("address"),
                       **self.where())
        elif kind == "standby":
            word = cast(StandbyPush, msg)
            self.write("standby", word=word.get("epoch"), standby=word.get("standby"),
                       **self.where())
        elif kind == "error":
            refusal = cast(ErrorReply, msg)
            self.write("error", code=refusal.get("code"), about=refusal.get("about"),
                       **self.where())

    def move(self, latest: ViewMessage, pick: int, fut: Future[MoveReply]) -> None:
        """A move sent (``netbot.play_table``'s ``on_move``), and its answer when it comes."""
        table, on = latest.get("table"), latest.get("version")
        listed = (latest["view"].get("moves") or [])[pick]
        self.write("move", table=table, on=on, id=pick,
                   move={"kind": listed.get("kind"), "cards": listed.get("cards"),
                         "choice": listed.get("choice")}, **self.where())

        def answered(done: Future[MoveReply]) -> None:
            try:
                reply = done.result()
            except Exception as exc:
                self.write("reply", table=table, on=on, error=getattr(exc, "code", "error"),
                           **self.where())
                return
            self.write("reply", table=table, on=on, version=reply.get("version"),
                       **self.where())

        fut.add_done_callback(answered)


def run(args: argparse.Namespace) -> int:
    from cardparty.net.player.session import Session
    from cardparty.net.wire.address import AddressError, read_address

    if args.create and not args.players:
        return refuse("bot-client", _("--create needs --players"))
    try:
        address = read_address(args.connect).endpoint
    except AddressError as exc:
        return refuse("bot-client", exc)

    def say(obj: Said, words: str) -> None:
        print(json.dumps(obj) if args.json else words, flush=True)

    rng = random.Random(args.seed)
    name = args.name or f"Bot-{rng.randrange(1000, 10000)}"
    session = Session(address, name, token=args.token, client="cardparty bot-client")
    if args.history is None:
        return play(args, session, None, rng, name, say)
    try:
        stream = open(args.history, "a", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as exc:
        return refuse("bot-client", f"--history {args.history}: {exc.strerror or exc}")
    with stream:
        return play(args, session, History(stream, session), rng, name, say)


def play(args: argparse.Namespace, session: Session, history: History | None,
         rng: random.Random, name: str, say: Callable[[Said, str], None]) -> int:
    """Connect, take the seat, play it to the end (``run``'s work); the exit status."""
    from cardparty.net.player.netbot import BotGone, play_table
    from cardparty.net.player.session import SessionError

    try:
        session.connect(timeout=10.0)
        welcome = session.welcome
        table = args.table
        if args.create:
            summary = session.create(args.create, args.players, dict(args.setting),
                                     args.variant)
            table = summary["id"]
            say({"table": table}, f"table {table}")
        seat = None
        if welcome is not None and welcome.get("resumed") and table is not None:
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
        if history is not None:
            history.write("seated", table=table, seat=seat, name=name, **history.where())
        result = play_table(session, table, level=canonical_level(args.level),
                            rng=rng, timeout=args.timeout, delay=args.delay,
                            on_message=None if history is None else history.message,
                            on_move=None if history is None else history.move)
    except (SessionError, BotGone) as exc:
        session.abort()
        if history is not None:
            history.write("end", error=str(exc))
        return refuse("bot-client", exc, 1)
    session.close()
    places = result["places"]
    if history is not None:
        history.write("end", table=table, places=places)
    say({"table": table, "seat": seat, "places": places, "result": result},
        "places: " + ", ".join(f"seat {i}: {p}" for i, p in enumerate(places))
        + (f" ({result['summary']})" if result.get("summary") else ""))
    return 0
