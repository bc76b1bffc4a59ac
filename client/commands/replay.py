"""``cardparty replay FILE``: a record file replayed offline with the game's plugin installed
here (docs/playing.md, "Game records"; the file: docs/protocol.md, "Record files").

Every step is played again from the seed and checked by the rules, and the result compared
with the record's; a record that cannot be replayed here (its game or a variant not
installed, a step refused, another result: named with the plugin versions) is refused in one
line. Then it prints what the round was, step by step as the log tells it (``--seat S``: as
that seat saw it, its hand after each step; ``--step N``: only the view after step N), or the
final view of every seat (``--final``); ``--json`` prints the views as JSON.

Must not know about: sockets, the host.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cardparty.client.commands.refusal import refuse
from cardparty.core.i18n import _, translate


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help=_("replay a record file offline, from any seat"))
    p.add_argument("file", metavar="FILE", help=_("a record file (cardparty record export)"))
    p.add_argument("--seat", type=int, default=None, metavar="S",
                   help=_("show the round as seat S saw it (default: every hand)"))
    p.add_argument("--step", type=int, default=None, metavar="N",
                   help=_("show only the view after step N (0: the deal)"))
    p.add_argument("--final", action="store_true",
                   help=_("show only every seat's view at the end"))
    p.add_argument("--json", action="store_true", help=_("print the views as JSON"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cardparty.core.narrate import describe
    from cardparty.core.record import RecordError, Replay, loads
    from cardparty.core.table import redact_event

    try:
        replay = Replay(loads(Path(args.file).read_bytes()))
    except OSError as exc:
        return refuse("replay", _("cannot read {path}: {error}").format(
            path=args.file, error=exc.strerror or exc), 1)
    except RecordError as exc:
        return refuse("replay", exc, 1)
    rec = replay.record
    if args.seat is not None and not 0 <= args.seat < rec.players:
        return refuse("replay", _("there is no seat {seat} (seats 0 to {last})").format(
            seat=args.seat, last=rec.players - 1), 2)
    for line in replay.differs():
        print(_("note: {difference}; every step and the result agree").format(
            difference=line), file=sys.stderr)
    seats: list[int | None] = [args.seat] if args.seat is not None else list(
        range(rec.players))
    if args.final or args.step is not None:
        step = replay.steps if args.final else args.step
        views = {str(s): replay.view(step, s) for s in seats}
        if args.json:
            print(json.dumps({"step": step, "views": views}, ensure_ascii=False, default=str))
        else:
            for s, v in views.items():
                print(_("seat {seat} ({name}) after step {step}: {hand}").format(
                    seat=s, name=rec.names[int(s)], step=step,
                    hand=" ".join(v.get("hand", []))))
        return 0
    print(_("{game}, {names}: {steps} steps").format(
        game=rec.game, names=", ".join(rec.names), steps=replay.steps))
    shown = args.seat
    before = 0
    for step in range(0, replay.steps + 1):
        table = replay.table_at(step)
        for e in table.events[before:]:
            seen = redact_event(e, shown) if shown is not None else e
            try:
                text = describe(dict(seen), table.names, table.hook)
            except Exception:
                text = describe(dict(seen), table.names)
            print(f"{step:>4}  {translate(text)}")
        before = len(table.events)
        if shown is not None:
            print("      " + _("hand: {hand}").format(
                hand=" ".join(table.view(shown).get("hand", []))))
    result = rec.result or {}
    print(_("places: {places}").format(places=result.get("places")))
    return 0
