"""``cardparty record``: a player's game records at a host (docs/playing.md, "Game records").

``cardparty record list --connect ADDR --name N`` lists his own finished rounds, newest first;
``cardparty record export --connect ADDR --name N ID [--output FILE]`` writes one as a record file
(docs/protocol.md, "Record files"), which ``cardparty replay FILE`` replays offline. The host
knows a player by his key and name, as ``join`` does: the same user's key and the same name
see the same records.

Must not know about: the host's tables or store, how a game is played (``core.record``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any, cast

from cardparty.client.commands.refusal import refuse
from cardparty.core.i18n import _
from cardparty.net.wire.record_replies import RecordReply, RecordsReply


def add_parser(sub: Any) -> None:
    p = sub.add_parser("record", help=_("list your game records at a host, or export one "
                                        "as a file"))
    p.add_argument("action", choices=("list", "export"), help=_("list or export"))
    p.add_argument("id", nargs="?", default=None, metavar="ID",
                   help=_("the record to export (from record list)"))
    p.add_argument("--connect", required=True, metavar="ADDR", help=_("the host's address"))
    p.add_argument("--name", required=True, help=_("your name at that host"))
    p.add_argument("--output", default=None, metavar="FILE",
                   help=_("where to write the record (default: ID.cardparty.json; - for "
                          "standard output)"))
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cardparty.net.player.session import Session, SessionError

    if args.action == "export" and not args.id:
        return refuse("record", _("export needs the record's id (see 'cardparty record "
                                  "list')"), 2)
    try:
        session = Session(args.connect, args.name, reconnect=False,
                          client="cardparty record")
        with session:
            session.connect()
            if args.action == "list":
                return listed(cast(RecordsReply, session.request("records", most=50)),
                              args.json)
            got = cast(RecordReply, session.request("record", id=args.id))
    except SessionError as exc:
        return refuse("record", exc.message, 1)
    from cardparty.core.record import GameRecord, RecordError, dumps
    try:
        text = dumps(GameRecord.from_wire(got["record"]))
    except RecordError as exc:
        return refuse("record", exc, 1)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    out = Path(args.output or f"{args.id}.cardparty.json")
    if out.exists():
        return refuse("record", _("{path} exists; an export never overwrites a file").format(
            path=out), 1)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        return refuse("record", _("cannot write {path}: {error}").format(
            path=out, error=exc.strerror or exc), 1)
    print(_("record {id} written to {path}").format(id=args.id, path=out))
    return 0


def listed(reply: RecordsReply, as_json: bool) -> int:
    rows = reply.get("records", [])
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print(_("no records of yours at this host"))
    for r in rows:
        when = datetime.datetime.fromtimestamp(r["ended"]).strftime("%Y-%m-%d %H:%M")
        places = r.get("places") or []
        seat = r.get("seat")
        mine = places[seat] if seat is not None and seat < len(places) else "?"
        print(f"{r['id']:>8}  {when}  {r['game']:<8} "
              + _("round {round}, place {place}, with {names}").format(
                  round=r["round"], place=mine, names=", ".join(r["names"])))
    return 0
